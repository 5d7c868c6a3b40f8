"""Score the agent on the pt-BR cases against any litellm model.

    python eval/run.py --model openai/gpt-4o-mini --api-key $OPENAI_API_KEY --split test --k 3
    python eval/run.py --model ollama_chat/qwen2.5:7b --api-base http://localhost:11434 --split dev
    python eval/run.py --model openai/local --api-base http://localhost:8080/v1 --json out.json

Every case runs the real AgentChat, the real system prompt and the real tools over an in-memory
household (eval/fixture.py), through infra.llm.LiteLLMModel; turns are scored by contract §7
(eval/scoring.py) and the figures printed as tables (eval/report.py), and written with --json.

Exit status: 0 after a run, 1 if any write was persisted without a member's confirmation,
2 if the model cannot call tools (or the cases cannot be read), 3 if the model cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from domain.agent.chat import AgentChat
from domain.agent.model import FailureKind, LanguageModel, ModelFailure
from eval.fixture import Case, CaseError, build_world, load_cases
from eval.play import CaseResult, Player, TokenCounter
from eval.report import details, json_default, render, summarize

__all__ = [
    "DEFAULT_CASES",
    "Case",
    "CaseResult",
    "ToolSupportError",
    "check_tool_support",
    "load_cases",
    "main",
    "run_cases",
    "summarize",
    "token_counter",
]

DEFAULT_CASES = Path(__file__).resolve().parent / "cases.jsonl"
NO_TOOLS = re.compile(
    r"does not support (function calling|tools?|tool calling|tool use)"
    r"|tools? (is|are) not supported|function calling is not (supported|enabled)"
    r"|tool[_ ]choice.{0,40}not supported|not support(ed)? .{0,30}\btools\b",
    re.IGNORECASE,
)


class ToolSupportError(RuntimeError):
    """The model cannot call tools: no case could ever pass."""


class UnreachableModel(RuntimeError):
    """The first call to the model failed for another reason (address, key, quota)."""


async def run_cases(
    cases: Sequence[Case],
    model: LanguageModel,
    *,
    k: int = 1,
    concurrency: int = 4,
    strict_errors: bool = False,
    use_reader: bool = True,
    counter: TokenCounter | None = None,
    progress: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Every case `k` times, at most `concurrency` at once; results in case order, then run."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(case: Case, run: int) -> CaseResult:
        async with gate:
            result = await Player(case, model, run=run, strict_errors=strict_errors,
                                  counter=counter, use_reader=use_reader).play()
        if progress is not None:
            progress(result)
        return result

    return list(await asyncio.gather(*(one(case, run) for case in cases for run in range(k))))


class Silent:
    """A model that never answers (`--reader-only`): every message the reader leaves is a failure,
    so the run scores the reader alone, with no request anywhere."""

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        return {"role": "assistant", "content": "(sem modelo)", "tool_calls": None}


def known_without_tools(model: str) -> bool:
    """True when litellm's model map says this model cannot call functions.

    Unknown models (most local ones) are not refused here: the first call decides."""
    import litellm

    names = [model, model.split("/", 1)[-1]]
    for name in names:
        info = litellm.model_cost.get(name)
        if isinstance(info, dict):
            if info.get("supports_function_calling") is False:
                return True
            if info.get("mode") not in (None, "chat", "responses"):
                return True
    return False


async def check_tool_support(model: LanguageModel, case: Case, model_name: str = "") -> None:
    """One real call with the tools, before any case: a model that refuses tools, or cannot be
    reached, stops the run with a clear message instead of failing every case."""
    world = await build_world(case)
    chat = AgentChat.create(model, world.tools)
    messages = [{"role": "system", "content": await world.prompt()},
                {"role": "user", "content": "[eval] oi"}]
    try:
        await model.complete(messages, chat.schemas())
    except ModelFailure as failure:
        if NO_TOOLS.search(failure.detail or ""):
            raise ToolSupportError(
                f"{model_name or 'the model'} does not support tool calling ({failure.detail}). "
                "The agent works only through tools: choose a model with function calling.") from None
        hint = {
            FailureKind.UNREACHABLE: "check --api-base and that the server is running",
            FailureKind.AUTHENTICATION: "check --api-key (or the provider's key variable)",
            FailureKind.NOT_CONFIGURED: "check the model string (provider/name) and --api-base",
            FailureKind.TIMEOUT: "the model did not answer in time; try --timeout",
            FailureKind.RATE_LIMITED: "the provider is rate limiting; lower --concurrency",
        }.get(failure.kind, "see the detail")
        raise UnreachableModel(f"the first call to {model_name or 'the model'} failed: "
                               f"{failure.kind.value}: {failure.detail} ({hint})") from None


def token_counter(model: str) -> TokenCounter:
    """Counts a call's prompt and answer with `model`'s tokenizer, offline (e.g. gpt-4o-mini)."""
    from infra.llm import count_prompt_tokens

    def count(messages: list[dict[str, Any]], tools: list[dict[str, Any]],
              answer: dict[str, Any]) -> tuple[int, int]:
        prompt = count_prompt_tokens(model, messages, tools)
        produced = [answer.get("content") or ""] + [
            f"{c['function'].get('name')}({c['function'].get('arguments')})"
            for c in answer.get("tool_calls") or ()]
        completion = count_prompt_tokens(model, [{"role": "assistant", "content": " ".join(produced)}],
                                         None)
        return prompt, completion

    return count


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="eval/run.py", description="Score the household agent on the pt-BR cases (contract §7).")
    parser.add_argument("--model", help="litellm model string, e.g. openai/gpt-4o-mini")
    parser.add_argument("--api-base", help="OpenAI-compatible endpoint, e.g. http://localhost:11434")
    parser.add_argument("--api-key", help="API key (default: the provider's own variable)")
    parser.add_argument("--cases", default=str(DEFAULT_CASES), help="JSONL cases (default: %(default)s)")
    parser.add_argument("--split", choices=("dev", "test", "holdout", "all"), default="all")
    parser.add_argument("--ids", help="only these case ids, comma-separated")
    parser.add_argument("--k", type=int, default=1, help="runs per case, for pass^k (default 1)")
    parser.add_argument("--concurrency", type=int, default=4, help="cases in parallel (default 4)")
    parser.add_argument("--json", dest="json_path", help="write the full report here")
    parser.add_argument("--temperature", type=float, help="sampling temperature (default: provider's)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per model call (default 60)")
    parser.add_argument("--num-retries", type=int, default=2, help="retries of transient errors")
    parser.add_argument("--count-tokens", metavar="MODEL",
                        help="also count tokens offline with this model's tokenizer (e.g. gpt-4o-mini)")
    parser.add_argument("--strict-errors", action="store_true",
                        help="count write calls the tools refused as unexpected write calls too")
    parser.add_argument("--no-reader", action="store_true",
                        help="send every message to the model (the free-text reader off)")
    parser.add_argument("--reader-only", action="store_true",
                        help="no model: a model that never answers, so only the free-text reader's turns can pass")
    parser.add_argument("--no-preflight", action="store_true", help="skip the first tool-support call")
    parser.add_argument("--all-cases", action="store_true", help="list every case in the table")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--results-jsonl", metavar="PATH",
                        help="append each finished case's figures here as it ends (for long runs)")
    args = parser.parse_args(argv)
    if args.k < 1 or args.concurrency < 1:
        parser.error("--k and --concurrency must be at least 1")
    if bool(args.model) == args.reader_only:
        parser.error("give --model, or --reader-only to score the reader alone")
    if args.reader_only and args.no_reader:
        parser.error("--reader-only needs the reader: leave out --no-reader")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        cases = load_cases(args.cases, args.split, args.ids.split(",") if args.ids else None)
    except (OSError, CaseError) as error:
        print(f"error: cannot read the cases: {error}", file=sys.stderr)
        return 2
    if not cases:
        print(f"error: no case in {args.cases} for --split {args.split}", file=sys.stderr)
        return 2
    if args.model and known_without_tools(args.model):
        print(f"error: {args.model} does not support tool calling (litellm's model map says so); "
              "the agent works only through tools.", file=sys.stderr)
        return 2

    model: LanguageModel
    if args.reader_only:
        model = Silent()
    else:
        from infra.llm import LiteLLMModel

        model = LiteLLMModel(args.model, api_base=args.api_base, api_key=args.api_key,
                             timeout=args.timeout, num_retries=args.num_retries,
                             temperature=args.temperature)
    counter = token_counter(args.count_tokens) if args.count_tokens else None
    config = {"model": args.model or "none: the reader alone", "api_base": args.api_base, "cases": args.cases, "split": args.split,
              "k": args.k, "concurrency": args.concurrency, "temperature": args.temperature,
              "count_tokens": args.count_tokens, "strict_errors": args.strict_errors,
              "reader": not args.no_reader}
    done = 0

    def progress(result: CaseResult) -> None:
        nonlocal done
        done += 1
        if args.results_jsonl:  # each case as it finishes: figures survive a run cut short
            with open(args.results_jsonl, "a", encoding="utf-8") as out:
                out.write(json.dumps(summarize([result], 1), default=json_default, ensure_ascii=False) + "\n")
        if not args.quiet:
            mark = "ok  " if result.passed else "FAIL"
            print(f"[{done}/{len(cases) * args.k}] {mark} {result.case_id}#{result.run}", file=sys.stderr)

    async def go() -> list[CaseResult]:
        if not args.no_preflight and not args.reader_only:
            await check_tool_support(model, cases[0], args.model)
        return await run_cases(cases, model, k=args.k, concurrency=args.concurrency,
                               strict_errors=args.strict_errors, counter=counter, progress=progress,
                               use_reader=not args.no_reader)

    started = time.perf_counter()
    try:
        results = asyncio.run(go())
    except ToolSupportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except UnreachableModel as error:
        print(f"error: {error}", file=sys.stderr)
        return 3
    config["wall_seconds"] = round(time.perf_counter() - started, 2)
    summary = summarize(results, args.k, config)
    print(render(summary, all_cases=args.all_cases))
    print(f"wall time {config['wall_seconds']}s")
    if args.json_path:
        report = {**summary, "runs_detail": details(results)}
        Path(args.json_path).write_text(json.dumps(report, ensure_ascii=False, indent=1,
                                                   default=json_default), encoding="utf-8")
    return 1 if summary["unconfirmed_writes"] else 0


if __name__ == "__main__":
    sys.exit(main())
