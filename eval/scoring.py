"""Scoring one turn by contract §7.

`expect` lists the calls the model must make in the turn, in any order. Arguments compare as
the tools resolve them: expense, goal and member names through the household (alias, case,
accents, a unique part of a goal's name), amounts exactly as Decimals, months and dates as
values. Arguments a case does not list are not checked; `operationId` never is, except that a
call expected with `"confirm": true` must repeat the id of the preview it confirms. Read calls
beyond `expect` are allowed, write calls beyond it fail the turn, and `"writes": N` checks how
many operations were persisted in the turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from domain.agent.chat import MINTED, with_speaker
from domain.budget import Budget
from domain.errors import DomainError
from domain.goals import Goal
from domain.household import Household
from domain.money import Period
from domain.operations.receipts import ToolReceipt
from domain.text import fold
from domain.tools.base import Tool, WriteTool
from domain.tools.budget import (
    AdjustExpenseTool,
    BudgetStatusTool,
    RecordSpendTool,
    RegisterExpenseTool,
    find_card,
    find_expense,
)
from domain.tools.cards import CardBillTool
from domain.tools.goals import (
    ContributeToGoalTool,
    CreateGoalTool,
    FeasibilityTool,
    GoalStatusTool,
    goal_matching,
)
from eval.fixture import WRITE_TOOLS

# How each argument is compared; anything else: money by value, numbers as Decimals, text folded.
ARG_KINDS: dict[tuple[str, str], str] = {
    (RecordSpendTool.name, "expense"): "expense",
    (AdjustExpenseTool.name, "expense"): "expense",
    (RecordSpendTool.name, "period"): "period",
    (BudgetStatusTool.name, "period"): "period",
    (ContributeToGoalTool.name, "goal"): "goal",
    (GoalStatusTool.name, "name"): "goal",
    (FeasibilityTool.name, "goal"): "goal",
    (ContributeToGoalTool.name, "paidBy"): "member",
    (CreateGoalTool.name, "contributors"): "members",
    (ContributeToGoalTool.name, "date"): "date",
    (CreateGoalTool.name, "deadline"): "date",
    (FeasibilityTool.name, "deadline"): "date",
    (GoalStatusTool.name, "today"): "date",
    (RegisterExpenseTool.name, "aliases"): "texts",
    (RecordSpendTool.name, "card"): "card",
    (RecordSpendTool.name, "paidBy"): "member",
    (CardBillTool.name, "card"): "card",
    (CardBillTool.name, "period"): "period",
}
NEVER_COMPARED = {"operationId", "operation_id"}

_MISSING = object()


@dataclass
class Call:
    """One tool call of a turn, with its arguments in the tool's canonical camelCase form."""

    turn: int
    name: str
    args: dict[str, Any]
    error: str | None
    result: Any

    @property
    def writes(self) -> bool:
        return self.name in WRITE_TOOLS

    @property
    def receipt(self) -> ToolReceipt | None:
        return self.result if isinstance(self.result, ToolReceipt) else None

    @property
    def accepted(self) -> bool:
        """The tool took the call (a preview, a write or a repeat), rather than refusing it."""
        return self.receipt is not None

    @property
    def operation_id(self) -> str | None:
        """The operation the call landed on (the chat scopes or mints ids: contract §3 still holds
        underneath), else the id the model wrote."""
        if self.receipt is not None:
            return self.receipt.operation_id
        value = self.args.get("operationId", self.args.get("operation_id"))
        return str(value) if value is not None else None

    @property
    def confirm(self) -> bool:
        return self.args.get("confirm") is True


class Names:
    """How the tools resolve names, over the household as it stands after the turn."""

    def __init__(self, household: Household, budget: Budget, goals: list[Goal]) -> None:
        self.household = household
        self.budget = budget
        self.goals = goals

    def expense(self, name: Any) -> str | None:
        try:
            return fold(find_expense(self.budget, name).name)
        except DomainError:
            return None

    def card(self, name: Any) -> str | None:
        try:
            return find_card(self.budget, name).id  # as the tools find it: "Nubank (roxinho)" too
        except DomainError:
            return None

    def goal(self, name: Any) -> str | None:
        try:
            return goal_matching(self.goals, name).id
        except DomainError:
            return None

    def member(self, name: Any) -> str | None:
        try:
            return self.household.member_named(name).id
        except DomainError:
            return None


@dataclass
class ArgCheck:
    tool: str
    arg: str
    ok: bool
    expected: Any
    got: Any
    why: str = ""


@dataclass
class EntryScore:
    """One expected call: matched to a call of the turn, or diagnosed against the closest one."""

    tool: str
    args: dict[str, Any]
    matched: bool
    call: int | None = None
    """Index, within the turn's calls, of the matching (or closest) call; None if the tool was not called."""
    checks: list[ArgCheck] = field(default_factory=list)


@dataclass
class TurnScore:
    passed: bool
    reasons: list[str]
    entries: list[EntryScore]
    extra_writes: list[int]


# --------------------------------------------------------------------------- argument comparison


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None


def _period(value: Any) -> Period | None:
    try:
        return Period.parse(value)
    except (DomainError, TypeError):
        return None


def _date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value).strip()) if isinstance(value, str) else None
    except ValueError:
        return None


def _folded(value: Any) -> Any:
    return fold(value) if isinstance(value, str) else value


def compare(tool: str, arg: str, expected: Any, got: Any, names: Names) -> str:
    """Why `got` does not stand for `expected` ("" when it does)."""
    if expected is None:
        return "" if got is None or got is _MISSING else "expected no value"
    if got is _MISSING or got is None:
        return "missing"
    kind = ARG_KINDS.get((tool, arg))
    if isinstance(expected, dict) and "amount" in expected:
        return _compare_money(expected, got)
    if kind in ("expense", "goal", "member", "card"):
        resolve: Callable[[Any], str | None] = getattr(names, kind)
        wanted, found = resolve(expected), resolve(got)
        if wanted is None:  # a name the household does not know (yet): compare as text
            return "" if _folded(expected) == _folded(got) else "different name"
        if found is None:
            return f"{got!r} names no {kind} of the household (or more than one)"
        return "" if found == wanted else f"names another {kind}"
    if kind == "members":
        if not isinstance(got, list):
            return "not a list"

        def ids(values: Sequence[Any]) -> set[Any]:
            return {names.member(v) or _folded(v) for v in values}

        return "" if ids(expected) == ids(got) else "different members"
    if kind == "texts":
        if not isinstance(got, list):
            return "not a list"
        return "" if {_folded(v) for v in expected} == {_folded(v) for v in got} else "different names"
    if kind == "period":
        wanted_period, got_period = _period(expected), _period(got)
        if got_period is None:
            return "not a month YYYY-MM"
        return "" if wanted_period == got_period else "another month"
    if kind == "date":
        wanted_date, got_date = _date(expected), _date(got)
        if got_date is None:
            return "not a date YYYY-MM-DD"
        return "" if wanted_date == got_date else "another date"
    if isinstance(expected, bool) or isinstance(got, bool):
        return "" if expected is got else "different value"
    if isinstance(expected, int | Decimal):
        got_number = _decimal(got)
        return "" if got_number is not None and got_number == Decimal(expected) else "different number"
    if isinstance(expected, str):
        return "" if isinstance(got, str) and fold(got) == fold(expected) else "different text"
    return "" if expected == got else "different value"


def _compare_money(expected: dict[str, Any], got: Any) -> str:
    if not isinstance(got, dict):
        return "not an amount with a currency"
    wanted, found = _decimal(expected.get("amount")), _decimal(got.get("amount"))
    if found is None:
        return "amount is not a number"
    problems = []
    if wanted != found:
        problems.append("another amount")
    if str(expected.get("currency", "")).upper() != str(got.get("currency", "")).upper():
        problems.append("another currency")
    return " and ".join(problems)


def check_entry(entry: dict[str, Any], call: Call, names: Names,
                preview_id: Callable[[dict[str, Any]], str | None]) -> list[ArgCheck]:
    """Every listed argument of `entry` against `call`."""
    tool = entry["tool"]
    checks = []
    for arg, expected in (entry.get("args") or {}).items():
        if arg in NEVER_COMPARED:
            continue
        if arg == "confirm":
            checks.append(_check_confirm(tool, bool(expected), call, entry, preview_id))
            continue
        got = call.args.get(arg, _MISSING)
        why = compare(tool, arg, expected, got, names)
        checks.append(ArgCheck(tool, arg, not why, expected, None if got is _MISSING else got, why))
    return checks


def _check_confirm(tool: str, expected: bool, call: Call, entry: dict[str, Any],
                   preview_id: Callable[[dict[str, Any]], str | None]) -> ArgCheck:
    got = f"confirm={str(call.confirm).lower()} operationId={call.operation_id}"
    if not expected:
        ok = not call.confirm
        return ArgCheck(tool, "confirm", ok, "confirm=false", got, "" if ok else "confirmed instead of previewing")
    wanted = preview_id(entry)
    want = f"confirm=true operationId={wanted or '<an earlier preview>'}"
    if not call.confirm:
        return ArgCheck(tool, "confirm", False, want, got, "did not confirm")
    if wanted is None:
        return ArgCheck(tool, "confirm", False, want, got, "no earlier preview with these arguments")
    ok = call.operation_id == wanted
    return ArgCheck(tool, "confirm", ok, want, got, "" if ok else "not the preview's operationId")


def canonical_args(tool: Tool[Any] | None, raw: dict[str, Any], sender: str | None = None) -> dict[str, Any]:
    """The arguments as the tool reads them (camelCase, amounts as Decimals), or as sent if it
    cannot read them. Filled in as the chat fills them before the tool sees them (the speaker as
    who paid, an id minted when the model wrote none), so what is scored is what the preview shows."""
    if tool is None:
        return dict(raw)
    arguments = with_speaker(tool, dict(raw), sender)
    if isinstance(tool, WriteTool) and not (arguments.get("operationId") or arguments.get("operation_id")):
        arguments["operationId"] = MINTED
    try:
        parsed = tool.parse(arguments)
    except DomainError:
        return dict(raw)
    return parsed.model_dump(by_alias=True)


def as_shown(call: Call) -> Call:
    """A settleUp that left who pays whom to the tool (the speaker's debt: contract §9) is scored
    on the members its preview names, as any call is scored on what its preview shows."""
    receipt = call.receipt
    if call.name != "settleUp" or receipt is None:
        return call
    shown = {key: receipt.preview.get(field) for key, field in (("paidBy", "debtor"), ("paidTo", "creditor"))}
    filled = {key: value for key, value in shown.items() if call.args.get(key) is None and value}
    return replace(call, args={**call.args, **filled}) if filled else call


# --------------------------------------------------------------------------- the turn


def score_turn(turn: dict[str, Any], calls: list[Call], previews: list[Call], names: Names,
               persisted: int, *, strict_errors: bool = False) -> TurnScore:
    """Score a member's message: `calls` are the turn's, `previews` the earlier turns' previews."""

    def preview_id(entry: dict[str, Any]) -> str | None:
        wanted = {k: v for k, v in (entry.get("args") or {}).items() if k != "confirm"}
        for earlier in reversed(previews):
            if earlier.name == entry["tool"] and all(
                c.ok for c in check_entry({"tool": entry["tool"], "args": wanted}, earlier, names,
                                          preview_id)):
                return earlier.operation_id
        return None

    reasons: list[str] = []
    expect = turn.get("expect")
    entries: list[EntryScore] = []
    extra: list[int] = []
    if expect is not None:
        checks = [[check_entry(e, c, names, preview_id) if c.name == e["tool"] else None
                   for c in calls] for e in expect]
        fits = [[i for i, cs in enumerate(row) if cs is not None and all(c.ok for c in cs)]
                for row in checks]
        pairing = _match(fits)
        used = set(pairing.values())
        diagnosed: set[int] = set()
        for index, entry in enumerate(expect):
            args = dict(entry.get("args") or {})
            if index in pairing:
                call_index = pairing[index]
                entries.append(EntryScore(entry["tool"], args, True, call_index,
                                          checks[index][call_index] or []))
                continue
            closest = _closest(checks[index], used)
            if closest is None:
                entries.append(EntryScore(entry["tool"], args, False))
                reasons.append(f"no {entry['tool']} call")
                continue
            diagnosed.add(closest)  # a wrong call, reported once: not also as an extra one
            wrong = [c for c in checks[index][closest] or [] if not c.ok]
            entries.append(EntryScore(entry["tool"], args, False, closest, checks[index][closest] or []))
            reasons.append(f"{entry['tool']}: " + "; ".join(
                f"{c.arg} expected {show(c.expected)}, got {show(c.got)} ({c.why})" for c in wrong))
        for index, call in enumerate(calls):
            counts = call.accepted or (strict_errors and call.writes)
            if call.writes and counts and index not in used and index not in diagnosed:
                extra.append(index)
                reasons.append(f"unexpected write call {call.name}({show(_visible(call.args))})")
    if "writes" in turn and persisted != turn["writes"]:
        reasons.append(f"{persisted} operation(s) persisted, expected {turn['writes']}")
    return TurnScore(not reasons, reasons, entries, extra)


def _match(fits: list[list[int]]) -> dict[int, int]:
    """A maximum matching of expected entries to calls (Kuhn's augmenting paths; lists are tiny)."""
    owner: dict[int, int] = {}

    def place(entry: int, seen: set[int]) -> bool:
        for call in fits[entry]:
            if call in seen:
                continue
            seen.add(call)
            if call not in owner or place(owner[call], seen):
                owner[call] = entry
                return True
        return False

    for entry in range(len(fits)):
        place(entry, set())
    return {entry: call for call, entry in owner.items()}


def _closest(row: list[list[ArgCheck] | None], used: set[int]) -> int | None:
    candidates = [(sum(not c.ok for c in cs), i) for i, cs in enumerate(row) if cs is not None]
    if not candidates:
        return None
    free = [c for c in candidates if c[1] not in used]
    return min(free or candidates)[1]


def _visible(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if v is not None}


def show(value: Any) -> str:
    """A short, exact rendering for reports: Decimals as their literal, money as "37.90 BRL"."""
    if isinstance(value, dict) and set(value) == {"amount", "currency"}:
        return f"{show(value['amount'])} {value['currency']}"
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)
