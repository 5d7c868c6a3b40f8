"""The figures of a run: pass rates, pass^k, argument accuracy, safety, tokens and latency."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict
from decimal import Decimal
from typing import Any

from eval.fixture import READ_TOOLS, WRITE_TOOLS
from eval.play import CaseResult
from eval.scoring import show


def reader_figures(results: Sequence[CaseResult]) -> dict[str, Any]:
    """Per split: how many message turns the free-text reader took, how many of those passed (its
    bar: all of them), and its share of the turns that expect a recordSpend."""
    figures: dict[str, Any] = {}
    for split in sorted({r.split for r in results}):
        turns = [t for r in results if r.split == split for t in r.turns if t.kind == "message"]
        taken = [t for t in turns if t.by_reader]
        spends = [t for t in turns if any(e.tool == "recordSpend" for e in t.entries)]
        figures[split] = {
            "turns": len(turns), "taken": len(taken), "right": sum(t.passed for t in taken),
            "wrong": [f"{r.case_id} turn {t.index}" for r in results if r.split == split
                      for t in r.turns if t.by_reader and not t.passed],
            "record_spend_turns": len(spends), "record_spend_taken": sum(t.by_reader for t in spends)}
    return figures


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def pass_hat(successes: Sequence[int], trials: int, k: int) -> float:
    """τ-bench's pass^k: the chance that k runs drawn from `trials` all pass, averaged over cases."""
    if not successes or k > trials:
        return 0.0
    return sum(math.comb(c, k) / math.comb(trials, k) for c in successes) / len(successes)


def summarize(results: list[CaseResult], k: int, config: dict[str, Any] | None = None) -> dict[str, Any]:
    by_case: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_case[result.case_id].append(result)
    runs = len(results)
    passed_runs = sum(r.passed for r in results)
    successes = [sum(r.passed for r in rs) for rs in by_case.values()]

    splits: dict[str, dict[str, Any]] = {}
    for split in sorted({r.split for r in results}):
        chosen = [rs for rs in by_case.values() if rs[0].split == split]
        split_runs = [r for rs in chosen for r in rs]
        splits[split] = {
            "cases": len(chosen),
            "pass_rate": _ratio(sum(r.passed for r in split_runs), len(split_runs)),
            f"pass^{k}": pass_hat([sum(r.passed for r in rs) for rs in chosen], k, k),
        }

    tools: dict[str, dict[str, Any]] = {
        t: {"cases": 0, "runs": 0, "runs_passed": 0, "expected_calls": 0, "matched_calls": 0,
            "missing_calls": 0, "extra_write_calls": 0, "tool_errors": 0}
        for t in WRITE_TOOLS + READ_TOOLS}
    args: dict[str, dict[str, int]] = defaultdict(lambda: {"checked": 0, "correct": 0})
    arg_errors: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    turns = [t for r in results for t in r.turns]
    for case_runs in by_case.values():
        for tool in case_runs[0].tools:
            tools[tool]["cases"] += 1
            tools[tool]["runs"] += len(case_runs)
            tools[tool]["runs_passed"] += sum(r.passed for r in case_runs)
    for result in results:
        if not result.passed:
            failures.append({"case": result.case_id, "run": result.run, "split": result.split,
                             "reason": result.first_failure})
        for turn in result.turns:
            for call in turn.calls:
                if call.get("error") and call["tool"] in tools:
                    tools[call["tool"]]["tool_errors"] += 1
            for entry in turn.entries:
                stats = tools[entry.tool]
                stats["expected_calls"] += 1
                stats["matched_calls"] += entry.matched
                stats["missing_calls"] += entry.call is None
                for check in entry.checks:
                    key = f"{check.tool}.{check.arg}"
                    args[key]["checked"] += 1
                    args[key]["correct"] += check.ok
                    if not check.ok:
                        arg_errors.append({"case": result.case_id, "run": result.run, "turn": turn.index,
                                           "tool": check.tool, "arg": check.arg,
                                           "expected": show(check.expected), "got": show(check.got),
                                           "why": check.why})
            for name in turn.extra_writes:
                tools[name]["extra_write_calls"] += 1
    for stats in tools.values():
        stats["pass_rate"] = _ratio(stats["runs_passed"], stats["runs"])

    messages = [t for t in turns if t.kind == "message"]
    latencies = [t.latency for t in messages if t.latency is not None]
    prompt_tokens = sum(t.prompt_tokens for t in messages)
    completion_tokens = sum(t.completion_tokens for t in messages)
    summary: dict[str, Any] = {
        "config": config or {},
        "cases": len(by_case),
        "k": k,
        "runs": runs,
        "pass_rate": _ratio(passed_runs, runs),
        "pass^k": {f"pass^{j}": pass_hat(successes, k, j) for j in range(1, k + 1)},
        "splits": splits,
        "per_tool": tools,
        "argument_accuracy": {key: {**value, "accuracy": _ratio(value["correct"], value["checked"])}
                              for key, value in sorted(args.items())},
        "argument_errors": arg_errors,
        "unconfirmed_writes": sum(t.unconfirmed_writes for t in turns),
        "persisted_writes": sum(t.writes for t in turns),
        "tool_errors": sum(t.tool_errors for t in messages),
        "provider_failures": sum(1 for t in messages if t.failure),
        "format_failures": {
            "turns_expecting_a_call": sum(1 for t in messages if t.entries),
            "no_call_read": sum(1 for t in messages if t.format_failure),
            "of_which_text_looked_like_a_call": sum(1 for t in messages if t.call_like_text),
        },
        "harness_errors": sum(1 for r in results if r.error),
        "tokens": {
            "prompt": prompt_tokens,
            "completion": completion_tokens,
            "per_case_run": _ratio(prompt_tokens + completion_tokens, runs),
            "per_turn": _ratio(prompt_tokens + completion_tokens, len(messages)),
            "model_calls": sum(t.model_calls for t in messages),
            # issue 25's bar: the prompt tokens of a message, over all of them and over those the
            # model answered (the reader's take none)
            "prompt_per_turn_median": percentile([t.prompt_tokens for t in messages], 50),
            "prompt_per_model_turn_median": percentile(
                [t.prompt_tokens for t in messages if t.model_calls], 50),
        },
        "latency_per_turn_s": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
                               "turns": len(latencies)},
        "reader": reader_figures(results),
        "per_case": [
            {"id": case_id, "split": rs[0].split, "tools": rs[0].tools,
             "passed": sum(r.passed for r in rs), "runs": len(rs),
             "first_failure": next((r.first_failure for r in rs if not r.passed), "")}
            for case_id, rs in by_case.items()
        ],
        "failures": failures,
    }
    estimated = [t for t in messages if t.estimated_prompt_tokens is not None]
    if estimated:
        estimated_prompt = sum(t.estimated_prompt_tokens or 0 for t in estimated)
        estimated_completion = sum(t.estimated_completion_tokens or 0 for t in estimated)
        summary["tokens"]["estimated"] = {
            "tokenizer": (config or {}).get("count_tokens"),
            "prompt": estimated_prompt,
            "completion": estimated_completion,
            "per_case_run": _ratio(estimated_prompt + estimated_completion, runs),
            "per_turn": _ratio(estimated_prompt + estimated_completion, len(estimated)),
            # The same medians as "tokens" above, in the tokenizer the fixed prompt's budget uses.
            "prompt_per_turn_median": percentile([t.estimated_prompt_tokens or 0 for t in estimated], 50),
            "prompt_per_model_turn_median": percentile(
                [t.estimated_prompt_tokens or 0 for t in estimated if t.model_calls], 50),
        }
    return summary


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def details(results: list[CaseResult]) -> list[dict[str, Any]]:
    """Every run, turn by turn, for the JSON report."""
    out = []
    for result in results:
        turns = []
        for turn in result.turns:
            data = asdict(turn)
            data["entries"] = [
                {"tool": e.tool, "args": show(e.args), "matched": e.matched,
                 "wrong": [f"{c.arg}: expected {show(c.expected)}, got {show(c.got)} ({c.why})"
                           for c in e.checks if not c.ok]}
                for e in turn.entries]
            turns.append(data)
        out.append({"case": result.case_id, "split": result.split, "run": result.run,
                    "passed": result.passed, "error": result.error, "turns": turns})
    return out


def json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return f"{value:f}"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def render(summary: dict[str, Any], *, all_cases: bool = False, failures: int = 30,
           arg_errors: int = 15) -> str:
    """The figures as plain-text tables."""
    k = summary["k"]
    lines = [
        f"cases {summary['cases']}  runs {summary['runs']}  k {k}",
        f"pass rate {_pct(summary['pass_rate'])}   "
        + "   ".join(f"{name} {_pct(value)}" for name, value in summary["pass^k"].items()),
    ]
    for split, stats in summary["splits"].items():
        lines.append(f"  {split:<5} {stats['cases']:>4} cases  pass rate {_pct(stats['pass_rate'])}"
                     f"  pass^{k} {_pct(stats[f'pass^{k}'])}")
    lines += ["", f"{'tool':<18}{'cases':>6}{'pass':>8}{'calls':>7}{'matched':>9}{'missing':>9}"
                  f"{'extra':>7}{'errors':>8}"]
    for tool, stats in summary["per_tool"].items():
        if not stats["cases"] and not stats["extra_write_calls"] and not stats["tool_errors"]:
            continue
        lines.append(f"{tool:<18}{stats['cases']:>6}{_pct(stats['pass_rate']):>8}"
                     f"{stats['expected_calls']:>7}{stats['matched_calls']:>9}{stats['missing_calls']:>9}"
                     f"{stats['extra_write_calls']:>7}{stats['tool_errors']:>8}")
    lines += ["", f"{'argument':<30}{'checked':>8}{'correct':>9}{'accuracy':>10}"]
    for key, stats in summary["argument_accuracy"].items():
        lines.append(f"{key:<30}{stats['checked']:>8}{stats['correct']:>9}{_pct(stats['accuracy']):>10}")
    errors = summary["argument_errors"]
    if errors:
        lines += ["", f"wrong arguments ({len(errors)}):"]
        lines += [f"  {e['case']}#{e['run']} turn {e['turn']} {e['tool']}.{e['arg']}: expected "
                  f"{e['expected']}, got {e['got']} ({e['why']})" for e in errors[:arg_errors]]
        if len(errors) > arg_errors:
            lines.append(f"  … {len(errors) - arg_errors} more in --json")
    shown = [c for c in summary["per_case"] if all_cases or c["passed"] < c["runs"]]
    if shown:
        title = "per case" if all_cases else "cases that did not pass every run"
        lines += ["", f"{title} ({len(shown)} of {summary['cases']}):"]
        limit = len(shown) if all_cases else failures
        lines += [f"  {c['passed']}/{c['runs']}  {c['id']:<24} {c['split']:<5} {c['first_failure']}".rstrip()
                  for c in shown[:limit]]
        if len(shown) > limit:
            lines.append(f"  … {len(shown) - limit} more in --json (or --all-cases)")
    tokens, latency = summary["tokens"], summary["latency_per_turn_s"]
    lines += [
        "",
        f"persisted writes {summary['persisted_writes']}   writes without a member's confirmation "
        f"{summary['unconfirmed_writes']} (must be 0)",
        f"tool errors {summary['tool_errors']}   provider failures {summary['provider_failures']}"
        f"   harness errors {summary['harness_errors']}",
        f"format failures (a call expected, none could be read) "
        f"{summary['format_failures']['no_call_read']} of {summary['format_failures']['turns_expecting_a_call']}"
        f" turns ({summary['format_failures']['of_which_text_looked_like_a_call']} looked like a call)",
        f"tokens: prompt {tokens['prompt']}  completion {tokens['completion']}  "
        f"per case run {tokens['per_case_run']:.0f}  per turn {tokens['per_turn']:.0f}  "
        f"model calls {tokens['model_calls']}",
        f"prompt tokens per message: median {tokens['prompt_per_turn_median']}, over the messages the "
        f"model answered {tokens['prompt_per_model_turn_median']}",
    ]
    for split, reader in summary["reader"].items():
        lines.append(f"reader ({split}): took {reader['taken']} of {reader['turns']} messages, "
                     f"{reader['right']} right; {reader['record_spend_taken']} of "
                     f"{reader['record_spend_turns']} recordSpend messages"
                     + (f"; wrong: {', '.join(reader['wrong'])}" if reader["wrong"] else ""))
    if "estimated" in tokens:
        est = tokens["estimated"]
        lines.append(f"tokens by the {est['tokenizer']} tokenizer: prompt {est['prompt']}  completion "
                     f"{est['completion']}  per case run {est['per_case_run']:.0f}  per turn "
                     f"{est['per_turn']:.0f}; prompt tokens per message: median {est['prompt_per_turn_median']}, "
                     f"over the messages the model answered {est['prompt_per_model_turn_median']}")
    lines.append(f"latency per turn: p50 {_seconds(latency['p50'])}  p95 {_seconds(latency['p95'])}"
                 f"  over {latency['turns']} turns")
    return "\n".join(lines)


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"
