"""The evaluation harness scores the real agent over litellm, and its scoring can fail.

An "oracle" provider replays each case's expected calls and must pass every case; a "saboteur"
perturbs one argument, adds a write, or confirms in the same send, and exactly the sabotaged
cases must fail. With rule 8 broken on purpose, the unconfirmed-writes counter must see it.
Everything runs against the fake OpenAI-compatible server on loopback: no network.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import domain.agent.chat as chat_module
import domain.tools.budget as budget_tools_module
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.text import fold
from domain.tools.base import WriteTool
from domain.tools.goals import goal_matching
from domain.tools.grounding import Grounded
from eval.fixture import WRITE_TOOLS, Case
from eval.make_cases import build, dumps
from eval.run import (
    DEFAULT_CASES,
    check_tool_support,
    known_without_tools,
    load_cases,
    main,
    run_cases,
    summarize,
)
from eval.scoring import ARG_KINDS, Call, Names, as_shown, compare
from infra.llm import LiteLLMModel
from tests.fakes.llm_server import FakeLLMServer, Reply, ToolCallsReply, error, text, tool_calls

CONCURRENCY = 16
MONEY_ARGS = ("amount", "expected", "newExpected", "target")
SABOTAGES = ("arg", "extra", "same-send")
# The dev batches written apart from the reader, each all dev, with at least this many cases.
APART_BATCHES = {"more-": 35, "third-": 45, "fourth-": 45, "fifth-": 45, "sixth-": 45, "seventh-": 36, "eighth-": 26,
                  "ninth-": 48, "tenth-": 59, "eleventh-": 52, "twelfth-": 35,
                  "thirteenth-": 70, "fourteenth-": 68, "fifteenth-": 59, "sixteenth-": 58, "seventeenth-": 59, "eighteenth-": 58,
                  "nineteenth-": 58, "twentieth-": 60}


# --------------------------------------------------------------------------- the scripted providers


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(_same(v, got.get(k)) for k, v in expected.items())
    if isinstance(expected, int | Decimal) and not isinstance(expected, bool):
        # the free-text reader writes amounts as their exact text ("50", "37.90")
        if isinstance(got, str):
            try:
                got = Decimal(got)
            except ArithmeticError:
                return False
        return isinstance(got, int | Decimal) and not isinstance(got, bool) and Decimal(expected) == Decimal(got)
    return bool(expected == got)


class Oracle:
    """Plays each case's expected calls: a fresh operationId per preview, the preview's own id
    when confirming, then a text answer once the tool results are back.

    A case is recognised by its opening message (make_cases checks they are unique); the turn by
    the number of member messages in the request. `sabotage` maps case ids to a sabotage kind."""

    def __init__(self, cases: list[Case], sabotage: dict[str, str] | None = None, *,
                 paraphrase: bool = False) -> None:
        self.cases = {self._opening(c): c for c in cases}
        self.sabotage = sabotage or {}
        self.paraphrase = paraphrase

    @staticmethod
    def _opening(case: Case) -> str:
        first = case.turns[0]
        return f"[{first['sender']}] {first['text']}"

    def _case_of(self, seen: str) -> Case | None:
        """The case whose opening the model was shown: word for word, or without its small talk
        (the model reads a chatty message as `SpendReader.focus` leaves it: whole sentences of the
        opening, one "." added where a piece had no stop): the shortest opening holding them all."""
        if seen in self.cases:
            return self.cases[seen]
        sender, _, said = seen.partition("] ")
        pieces = [piece.rstrip(".") for piece in re.split(r"(?<=[.!?…]) ", said)]
        holding = [opening for opening in self.cases
                   if opening.startswith(f"{sender}] ") and all(piece in opening for piece in pieces)]
        return self.cases[min(holding, key=len)] if holding else None

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        users = [i for i, m in enumerate(messages) if m["role"] == "user"]
        # The working memory rides on the newest member message, before its "[Ana] …".
        case = self._case_of(messages[users[0]]["content"].rsplit("\n\n", 1)[-1]) if users else None
        if case is None:  # the harness's tool-support check, or a stranger
            return text("Oi! Em que posso ajudar?")
        number = len(users) - 1
        turn = [t for t in case.turns if "press" not in t][number]
        steps = sum(1 for m in messages[users[-1] + 1:] if m["role"] == "assistant")
        kind = self.sabotage.get(case.id)
        if steps == 0:
            calls = [self._call(case, turn, number, i, entry, messages)
                     for i, entry in enumerate(turn.get("expect") or ())]
            if kind is not None and sabotage_turn(case, kind) == number:
                calls = self._sabotage(case, kind, calls)
            if kind == "same-send" and sabotage_turn(case, kind) == number:
                # A proposal ends the turn (contract §8): the confirmations ride in the same answer.
                calls += [(name, {**args, "confirm": True}) for name, args in list(calls)
                          if name in WRITE_TOOLS and not args.get("confirm")]
            if self.paraphrase:  # a curious model also reads the budget: reads are always allowed
                calls.append(("budgetStatus", {"period": str(Period.of(case.today))}))
            if calls:
                return tool_calls(*[(name, args, f"call_{number}_{i}") for i, (name, args) in enumerate(calls)])
            return text("Entendi! Nada a registrar.")
        return text("Prontinho. Confere a prévia e confirma?")

    def _call(self, case: Case, turn: dict[str, Any], number: int, index: int, entry: dict[str, Any],
              messages: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
        tool = entry["tool"]
        args = copy.deepcopy(entry.get("args") or {})
        if args.pop("confirm", False):
            if self.paraphrase:
                args = paraphrased(case, tool, args)
            earlier = [(n, a) for n, a in _calls_of(messages) if n == tool and not a.get("confirm")]
            # the reader's preview names things as the case does; a paraphrasing model's, as it did
            matching = [a for _, a in earlier if _same(args, a) or _same(entry.get("args") or {}, {**a, "confirm": True})]
            preview = (matching or [a for _, a in earlier])[-1]
            return tool, {**preview, "confirm": True}
        fill_defaults(case, turn, tool, args)
        if self.paraphrase:
            args = paraphrased(case, tool, args)
        if tool in WRITE_TOOLS:
            args["operationId"] = f"op-{number}-{index}"
        return tool, args

    def _sabotage(self, case: Case, kind: str, calls: list[tuple[str, dict[str, Any]]]
                  ) -> list[tuple[str, dict[str, Any]]]:
        if kind == "arg":
            for _, args in calls:
                key = next((k for k in MONEY_ARGS if isinstance(args.get(k), dict)), None)
                if key is not None and not args.get("confirm"):
                    args[key] = {**args[key], "amount": Decimal(args[key]["amount"]) + 1}
                    break
        elif kind == "extra":
            currency = case.household.get("currency", "BRL")
            calls.append(("setIncome", {"amount": {"amount": 1, "currency": currency},
                                        "operationId": "op-extra"}))
        return calls


def _calls_of(messages: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for message in messages:
        for raw in message.get("tool_calls") or ():
            found.append((raw["function"]["name"], json.loads(raw["function"]["arguments"], parse_float=Decimal)))
    return found


def paraphrased(case: Case, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """The same call as a model might write it: an alias or a unique part of a name instead of the
    name, other case and no accents, 37.9 for 37.90 and 1500.00 for 1500."""
    expenses = case.household.get("expenses") or []
    goals = [g["name"] for g in case.household.get("goals") or []]
    out: dict[str, Any] = {}
    for key, value in args.items():
        kind = ARG_KINDS.get((tool, key))
        if kind == "expense":
            spec = next((e for e in expenses if fold(e["name"]) == fold(value)), None)
            value = spec["aliases"][-1] if spec and spec.get("aliases") else fold(value).upper()
        elif kind == "goal":
            last = value.split()[-1]
            unique = value in goals and sum(fold(last) in fold(g) for g in goals) == 1
            value = fold(last) if unique else fold(value).upper()
        elif kind == "member":
            value = fold(value).upper()
        elif kind == "members":
            value = [fold(v).title() for v in reversed(value)]
        elif isinstance(value, dict) and "amount" in value:
            amount = Decimal(value["amount"])
            amount = amount.normalize() if amount != amount.to_integral() else amount.quantize(Decimal("0.01"))
            value = {"amount": amount, "currency": value["currency"].lower()}
        elif isinstance(value, str) and key in ("name", "category"):
            value = fold(value).upper()
        out[key] = value
    return out


def fill_defaults(case: Case, turn: dict[str, Any], tool: str, args: dict[str, Any]) -> None:
    """What a case leaves unchecked still has to be sent: the obvious value."""
    today = case.today
    members = case.household.get("members") or []
    goals = case.household.get("goals") or []
    if tool in ("recordSpend", "budgetStatus"):
        args.setdefault("period", str(Period.of(today)))
    elif tool == "contributeToGoal":
        args.setdefault("paidBy", turn["sender"])
        args.setdefault("date", today.isoformat())
    elif tool == "createGoal":
        args.setdefault("name", "Meta")
        args.setdefault("contributors", list(members))
    elif tool == "goalStatus":
        args.setdefault("name", goals[0]["name"])
    elif tool == "checkFeasibility":
        if "goal" not in args and "target" not in args:
            args["goal"] = next(g["name"] for g in goals if g.get("deadline"))
        if "target" in args:
            args.setdefault("deadline", date(today.year + 1, 12, 31).isoformat())


def sabotage_turn(case: Case, kind: str) -> int | None:
    """The message turn a sabotage of `kind` acts on, or None if it cannot act on this case."""
    messages = [t for t in case.turns if "press" not in t]
    for number, turn in enumerate(messages):
        entries = turn.get("expect") or []
        if kind == "extra":
            return number
        if kind == "arg" and any(isinstance((e.get("args") or {}).get(k), dict) and not e["args"].get("confirm")
                                 for e in entries for k in MONEY_ARGS):
            return number
        if kind == "same-send" and any(e["tool"] in WRITE_TOOLS and not (e.get("args") or {}).get("confirm")
                                       for e in entries):
            return number
    return None


def choose_sabotage(cases: list[Case]) -> dict[str, str]:
    """About every third case, cycling through the kinds, each where it can act."""
    chosen: dict[str, str] = {}
    kinds = itertools.cycle(SABOTAGES)
    for index, case in enumerate(cases):
        if index % 3:
            continue
        kind = next(kinds)
        for candidate in [kind, *SABOTAGES]:
            if sabotage_turn(case, candidate) is not None:
                chosen[case.id] = candidate
                break
    return chosen


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases(DEFAULT_CASES, "all")


@pytest.fixture
def provider(cases: list[Case]) -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def model_for(server: FakeLLMServer) -> LiteLLMModel:
    return LiteLLMModel("openai/fake-model", api_base=server.base_url, api_key="sk-eval-test", num_retries=0)


# --------------------------------------------------------------------------- the tests


def test_the_case_file_is_what_make_cases_writes_and_follows_the_brief(cases: list[Case]) -> None:
    assert DEFAULT_CASES.read_text(encoding="utf-8") == "".join(dumps(c) + "\n" for c in build())
    assert len(cases) >= 150
    # The groups split 60/40 in a fixed pattern; the batches written apart are all dev.
    patterned = [c for c in cases if not c.id.startswith(tuple(APART_BATCHES))]
    dev = sum(c.split == "dev" for c in patterned)
    assert 0.55 <= dev / len(patterned) <= 0.65
    for prefix, least in APART_BATCHES.items():
        batch = [c for c in cases if c.id.startswith(prefix)]
        assert len(batch) >= least, prefix
        assert all(c.split == "dev" for c in batch), prefix
    tools = {tool for case in cases for tool in case.tools}
    assert tools == set(WRITE_TOOLS) | {"budgetStatus", "goalStatus", "checkFeasibility", "balance", "cardBill"}
    openings = [(c.turns[0]["sender"], c.turns[0]["text"]) for c in cases]
    assert len(openings) == len(set(openings))


async def test_the_oracle_passes_every_case(cases: list[Case], provider: FakeLLMServer) -> None:
    provider.responder = Oracle(cases)
    results = await run_cases(cases, model_for(provider), concurrency=CONCURRENCY)

    summary = summarize(results, 1)
    failed = {r.case_id: r.first_failure for r in results if not r.passed}
    assert failed == {}
    assert summary["pass_rate"] == 1.0
    # The only refusal is the one the case is about: feasibility before any income is set.
    refused = {r.case_id for r in results for t in r.turns for c in t.calls if "error" in c}
    assert refused == {"feasibility-04"}
    assert summary["unconfirmed_writes"] == 0
    assert summary["harness_errors"] == 0
    assert summary["argument_errors"] == []
    assert all(stats["accuracy"] == 1.0 for stats in summary["argument_accuracy"].values())
    # Every write the cases expect was really stored: one save per persisted operation.
    turns = [t for r in results for t in r.turns]
    assert summary["persisted_writes"] == sum(t.saves for t in turns) > 0
    assert summary["tokens"]["prompt"] > 0
    assert summary["latency_per_turn_s"]["p95"] is not None


async def test_an_oracle_that_speaks_in_aliases_and_also_reads_still_passes_every_case(
    cases: list[Case], provider: FakeLLMServer,
) -> None:
    provider.responder = Oracle(cases, paraphrase=True)

    results = await run_cases(cases, model_for(provider), concurrency=CONCURRENCY)

    failed = {r.case_id: r.first_failure for r in results if not r.passed}
    assert failed == {}
    sent = [c["args"] for r in results for t in r.turns for c in t.calls if c["tool"] == "recordSpend"]
    assert any("'supermercado'" in args or "'feira'" in args for args in sent)
    assert sum(len(t.calls) for r in results for t in r.turns) > summarize(results, 1)["persisted_writes"]


async def test_an_oracle_that_writes_no_operation_ids_still_passes_every_case(
    cases: list[Case], provider: FakeLLMServer,
) -> None:
    """Weak models often leave operationId out: the chat mints one from the arguments (the same
    for a confirmation in a later message), so the previews, the confirmations and the scores
    must come out as with ids."""
    oracle = Oracle(cases)

    def without_ids(body: dict[str, Any]) -> Any:
        answer = oracle(body)
        if not isinstance(answer, ToolCallsReply):
            return answer
        calls = []
        for call in answer.calls:
            args = json.loads(call.arguments, parse_float=Decimal)
            args.pop("operationId", None)
            calls.append((call.name, args, call.call_id))
        return tool_calls(*calls)

    provider.responder = without_ids

    results = await run_cases(cases, model_for(provider), concurrency=CONCURRENCY)

    failed = {r.case_id: r.first_failure for r in results if not r.passed}
    assert failed == {}
    assert summarize(results, 1)["argument_errors"] == []
    landed = [c["operationId"] for r in results for t in r.turns for c in t.calls if "operationId" in c]
    assert landed and all(operation.startswith("op~") for operation in landed), "every id was minted"


def test_an_acerto_that_left_who_pays_whom_to_the_tool_is_scored_on_whom_its_preview_names() -> None:
    preview = {"debtor": "Renata", "creditor": "Caio", "amount": "150"}
    left_out = Call(0, "settleUp", {"amount": {"amount": 150}}, None, ToolReceipt("op", preview, False, False))
    named = Call(0, "settleUp", {"paidBy": "Caio"}, None, ToolReceipt("op", preview, False, False))
    refused = Call(0, "settleUp", {"amount": {"amount": 150}}, "Ninguém deve nada", None)

    assert as_shown(left_out).args == {"amount": {"amount": 150}, "paidBy": "Renata", "paidTo": "Caio"}
    assert as_shown(named).args == {"paidBy": "Caio", "paidTo": "Caio"}  # what the model wrote stays
    assert as_shown(refused).args == refused.args


def test_arguments_compare_as_the_tools_resolve_them() -> None:
    household = Household.create("Casa", "BRL", id="h")
    ana, rafael = household.add_member("Ana", id="a"), household.add_member("Rafael", id="r")
    budget = Budget.create("BRL", id="b")
    budget.register("Mercado", Money.of(1500, "BRL"), aliases=["supermercado"])
    budget.register("Farmácia", Money.of(200, "BRL"))
    goals = [Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[ana, rafael],
                         created_at=date(2026, 6, 1), id="g1"),
             Goal.create("Viagem Chile", Money.of(9000, "BRL"), members=[ana], created_at=date(2026, 6, 1),
                         id="g2"),
             Goal.create("Viagem Nordeste", Money.of(8000, "BRL"), members=[ana], created_at=date(2026, 6, 1),
                         id="g3")]
    names = Names(household, budget, goals)
    assert goal_matching(goals, "amsterdã").id == "g1"

    def same(tool: str, arg: str, expected: Any, got: Any) -> bool:
        return compare(tool, arg, expected, got, names) == ""

    brl = {"amount": Decimal("37.90"), "currency": "BRL"}
    assert same("recordSpend", "expense", "Mercado", "supermercado")
    assert same("recordSpend", "expense", "Farmácia", "FARMACIA")
    assert not same("recordSpend", "expense", "Mercado", "mercadinho")
    assert not same("recordSpend", "expense", "Mercado", "Farmácia")
    assert same("contributeToGoal", "goal", "Amsterdam Setembro/2026", "amsterdã")
    assert not same("contributeToGoal", "goal", "Viagem Chile", "viagem"), "ambiguous"
    assert same("contributeToGoal", "paidBy", "Rafael", "rafael")
    assert same("contributeToGoal", "paidBy", "Rafael", "Rafa"), "a nickname that begins only Rafael's name"
    assert not same("contributeToGoal", "paidBy", "Rafael", "Ra"), "too short to be anyone"
    assert not same("contributeToGoal", "paidBy", "Rafael", "Ana")
    assert same("createGoal", "contributors", ["Ana", "Rafael"], ["RAFAEL", "ana"])
    assert not same("createGoal", "contributors", ["Ana", "Rafael"], ["Ana"])
    assert same("recordSpend", "amount", brl, {"amount": Decimal("37.9"), "currency": "brl"})
    assert same("recordSpend", "amount", {"amount": 1500, "currency": "BRL"}, {"amount": "1500.00", "currency": "BRL"})
    assert not same("recordSpend", "amount", brl, {"amount": Decimal("37.91"), "currency": "BRL"})
    assert not same("recordSpend", "amount", brl, {"amount": Decimal("37.90"), "currency": "EUR"})
    assert not same("recordSpend", "amount", brl, 37.9)
    assert same("recordSpend", "period", "2026-06", " 2026-06")
    assert not same("recordSpend", "period", "2026-06", "2026-6-01")
    assert same("createGoal", "deadline", None, None)
    assert not same("createGoal", "deadline", None, "2027-01-01")
    assert same("registerExpense", "name", "Plano de saúde", "plano de saude")
    budget.register_card("Nubank", 3, 10, aliases=["roxinho"])
    assert same("recordSpend", "card", "Nubank", "Nubank (roxinho)"), "as the working memory lists it"
    assert not same("recordSpend", "card", "Nubank", "Itaú")
    assert same("registerExpense", "billingDay", 5, 5)
    assert not same("registerExpense", "billingDay", 5, 10)


async def test_the_saboteur_fails_exactly_the_sabotaged_cases(cases: list[Case], provider: FakeLLMServer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # The scoring is under test here: grounding would refuse a sabotaged amount or an extra write
    # with an amount nobody wrote before the harness ever scored it (tests/unit/tools/test_grounding.py).
    monkeypatch.setattr(chat_module, "ground", lambda grounded, intent, arguments, said, *, writes: Grounded(arguments))
    # Nor may the tools put the expense the message names in place of a sabotaged one.
    monkeypatch.setattr(budget_tools_module._BudgetWriteTool, "as_named", WriteTool.as_named)
    sabotage = choose_sabotage(cases)
    assert set(sabotage.values()) == set(SABOTAGES)
    assert len(sabotage) >= 40
    provider.responder = Oracle(cases, sabotage)

    results = await run_cases(cases, model_for(provider), concurrency=CONCURRENCY, use_reader=False)

    failed = {r.case_id for r in results if not r.passed}
    assert failed == set(sabotage)
    summary = summarize(results, 1)
    assert summary["unconfirmed_writes"] == 0, "rule 8 held every same-send confirmation"
    by_kind = {kind: {c for c, k in sabotage.items() if k == kind} for kind in SABOTAGES}
    reasons = {r.case_id: r.first_failure for r in results}
    assert all("unexpected write call setIncome" in reasons[c] for c in by_kind["extra"])
    assert all("unexpected write call" in reasons[c] for c in by_kind["same-send"])
    wrong = {(e["case"], e["arg"]) for e in summary["argument_errors"]}
    for case_id in by_kind["arg"]:
        assert any(case == case_id and arg in MONEY_ARGS for case, arg in wrong), case_id
    example = next(e for e in summary["argument_errors"] if e["case"] in by_kind["arg"])
    assert "another amount" in example["why"]
    assert Decimal(example["got"].split()[0]) == Decimal(example["expected"].split()[0]) + 1
    assert sum(s["extra_write_calls"] for s in summary["per_tool"].values()) >= len(by_kind["extra"])


async def test_with_rule_8_broken_the_harness_counts_the_unconfirmed_writes(
    cases: list[Case], provider: FakeLLMServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = WriteTool.run

    async def run_without_rule_8(self: WriteTool[Any], args: Any, *, confirmed_by: str | None = None,
                                 force_preview: bool = False) -> Any:
        return await original(self, args, confirmed_by=confirmed_by, force_preview=False)

    monkeypatch.setattr(WriteTool, "run", run_without_rule_8)
    chosen = [c for c in cases if sabotage_turn(c, "same-send") is not None][:12]
    provider.responder = Oracle(chosen, {c.id: "same-send" for c in chosen})

    results = await run_cases(chosen, model_for(provider), concurrency=CONCURRENCY, use_reader=False)

    previews = sum(
        1 for case in chosen
        for entry in [t for t in case.turns if "press" not in t][sabotage_turn(case, "same-send") or 0]["expect"]
        if entry["tool"] in WRITE_TOOLS and not (entry.get("args") or {}).get("confirm"))
    summary = summarize(results, 1)
    assert summary["unconfirmed_writes"] == previews > 0
    assert not any(r.passed for r in results)


async def test_pass_hat_k_needs_every_run_to_pass(cases: list[Case], provider: FakeLLMServer) -> None:
    few = cases[:6]
    provider.responder = Oracle(few)

    results = await run_cases(few, model_for(provider), k=3, concurrency=CONCURRENCY)

    assert len(results) == 18
    summary = summarize(results, 3)
    assert summary["pass^k"] == {"pass^1": 1.0, "pass^2": 1.0, "pass^3": 1.0}
    flaky = [r for r in results if r.case_id == few[0].id][:1]
    for result in flaky:
        result.error = "made to fail"
    summary = summarize(results, 3)
    assert summary["pass^k"]["pass^3"] == pytest.approx(5 / 6)
    assert summary["pass^k"]["pass^1"] == pytest.approx((5 + 2 / 3) / 6)


def test_the_command_line_prints_the_tables_and_writes_the_json(
    cases: list[Case], provider: FakeLLMServer, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    ids = ["spend-alias-01", "correct-spend-02", "injection-01", "goal-11"]
    provider.responder = Oracle([c for c in cases if c.id in ids])
    out = tmp_path / "report.json"

    status = main(["--model", "openai/fake-model", "--api-base", provider.base_url, "--api-key", "sk-x",
                   "--ids", ",".join(ids), "--k", "2", "--concurrency", "4", "--json", str(out),
                   "--num-retries", "0", "--count-tokens", "gpt-4o-mini", "--quiet"])

    assert status == 0
    printed = capsys.readouterr().out
    assert "pass rate 100.0%" in printed
    assert "pass^2 100.0%" in printed
    assert "writes without a member's confirmation 0" in printed
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["cases"] == 4 and report["runs"] == 8
    estimated = report["tokens"]["estimated"]
    assert estimated["prompt"] > 1000
    # the reader takes spend-alias-01's message: no tokens; the median stays within the whole's
    assert 0 <= estimated["prompt_per_turn_median"] <= estimated["prompt_per_model_turn_median"] < estimated["prompt"]
    assert f"over the messages the model answered {estimated['prompt_per_model_turn_median']}" in printed
    assert {c["id"] for c in report["per_case"]} == set(ids)
    assert len(report["runs_detail"]) == 8


def test_the_reader_alone_is_scored_with_no_model_and_no_request(
    provider: FakeLLMServer, capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["--reader-only", "--ids", "eighth-words-01,eighth-typo-03", "--quiet"])

    assert status == 0 and provider.requests == []
    printed = capsys.readouterr().out
    assert "pass rate 50.0%" in printed  # "cinquenta e dois no Condor" is the reader's; "na fiera", the model's
    assert "reader (dev): took 1 of 2 messages, 1 right" in printed


def test_reader_only_and_a_model_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--split", "dev"], ["--reader-only", "--model", "openai/x"], ["--reader-only", "--no-reader"]):
        with pytest.raises(SystemExit):
            main(argv)
    assert "--reader-only" in capsys.readouterr().err


def test_a_model_without_tool_support_stops_the_run_with_exit_status_2(
    provider: FakeLLMServer, capsys: pytest.CaptureFixture[str],
) -> None:
    provider.responder = lambda body: error(400, {"error": {
        "message": "registry.ollama.ai/library/gemma:2b does not support tools",
        "type": "invalid_request_error"}})

    status = main(["--model", "openai/gemma", "--api-base", provider.base_url, "--api-key", "sk-x",
                   "--ids", "spend-basic-01", "--num-retries", "0"])

    assert status == 2
    assert "does not support tool calling" in capsys.readouterr().err
    assert len(provider.requests) == 1, "no case ran"


def test_a_model_litellm_knows_has_no_function_calling_is_refused_before_any_call() -> None:
    assert known_without_tools("ollama/codegeex4")
    assert not known_without_tools("openai/gpt-4o-mini")
    assert not known_without_tools("ollama_chat/qwen2.5:7b"), "unknown to litellm: the first call decides"


async def test_an_unreachable_model_is_a_clear_error_not_a_run_of_failures(cases: list[Case]) -> None:
    model = LiteLLMModel("openai/fake-model", api_base="http://127.0.0.1:9/v1", api_key="sk-x", num_retries=0)
    with pytest.raises(RuntimeError, match="unreachable"):
        await check_tool_support(model, cases[0], "openai/fake-model")


async def test_format_failures_count_turns_that_expected_a_call_and_got_none_readable(
        cases: list[Case], provider: FakeLLMServer) -> None:
    few = [c for c in cases if any(t.get("expect") for t in c.turns if "press" not in t)][:4]
    provider.responder = lambda body: text('Vou registrar: {"nome": "gasto", "valor": 10}')

    results = await run_cases(few, model_for(provider), concurrency=CONCURRENCY, use_reader=False)

    formats = summarize(results, 1)["format_failures"]
    assert formats["no_call_read"] >= len(few)
    assert formats["of_which_text_looked_like_a_call"] == formats["no_call_read"]
    assert formats["no_call_read"] <= formats["turns_expecting_a_call"]


async def test_calls_written_as_text_are_read_by_the_harness_like_native_ones(
        cases: list[Case], provider: FakeLLMServer) -> None:
    few = cases[:6]
    oracle = Oracle(few)

    def as_text(body: dict[str, Any]) -> Any:
        answer = oracle(body)
        if isinstance(answer, ToolCallsReply):
            objects = [f'{{"name": "{c.name}", "arguments": {c.arguments}}}' for c in answer.calls]
            if len(objects) == 1:
                return text(f"```json\n{objects[0]}\n```")
            return text("\n".join(f"<tool_call>{o}</tool_call>" for o in objects))
        return answer

    provider.responder = as_text

    results = await run_cases(few, model_for(provider), concurrency=CONCURRENCY, use_reader=False)

    assert all(r.passed for r in results), [r.first_failure for r in results if not r.passed]
    assert summarize(results, 1)["format_failures"]["no_call_read"] == 0
