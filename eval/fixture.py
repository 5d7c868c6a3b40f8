"""Cases as contract §7 writes them, and the household each one starts from.

A case's household is built in memory with the real tools around it, exactly as the bot wires
them for a chat: six write tools sharing one operation log, three read tools, and a clock fixed
at noon of the case's "today" in São Paulo.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from domain.agent.prompt import system_prompt
from domain.agent.reader import SpendReader
from domain.agent.working_memory import working_memory
from domain.budget import Budget
from domain.clock import DEFAULT_TIMEZONE
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.ledger import InMemoryLedger
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.sharing.rules import SplitRule
from domain.tools.base import HouseholdBinding, Tool
from domain.tools.registry import TOOLS, household_tools
from domain.tools.undo import UndoOperationTool

# What the model is offered here (the registry's order). A case's household has a ledger (the
# balance and the acertos read it) but starts with nothing confirmed: undoOperation is the bot's
# to offer, not the eval's.
WRITE_TOOLS = tuple(t.name for t in TOOLS if t.writes and t.offered and t is not UndoOperationTool)
READ_TOOLS = tuple(t.name for t in TOOLS if not t.writes and t.offered)
SPLITS = ("dev", "test", "holdout")  # holdout: eval/holdout.jsonl, sealed (eval/make_holdout.py)

HOUSEHOLD_ID = "h-eval"
BUDGET_ID = "b-eval"


class CaseError(ValueError):
    """A case line that does not follow contract §7."""


@dataclass(frozen=True)
class Case:
    id: str
    split: str
    today: date
    household: dict[str, Any]
    turns: list[dict[str, Any]]

    @property
    def tools(self) -> list[str]:
        """Every tool the case expects, in first-seen order."""
        seen: dict[str, None] = {}
        for turn in self.turns:
            for entry in turn.get("expect") or ():
                seen[entry["tool"]] = None
        return list(seen)


def parse_case(line: str, where: str = "case") -> Case:
    """One JSON line; numbers are read as exact Decimals (37.90 stays 37.90)."""
    try:
        raw = json.loads(line, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise CaseError(f"{where}: not JSON ({error})") from None
    if not isinstance(raw, dict):
        raise CaseError(f"{where}: a case is a JSON object")
    for key in ("id", "today", "household", "turns"):
        if key not in raw:
            raise CaseError(f"{where}: missing {key!r}")
    split = raw.get("split", "dev")
    if split not in SPLITS:
        raise CaseError(f"{where}: split must be one of {SPLITS}, not {split!r}")
    turns = raw["turns"]
    if not isinstance(turns, list) or not turns:
        raise CaseError(f"{where}: turns must be a non-empty list")
    for index, turn in enumerate(turns):
        check_turn(turn, f"{where} turn {index}")
    return Case(id=str(raw["id"]), split=split, today=date.fromisoformat(raw["today"]),
                household=raw["household"], turns=turns)


def check_turn(turn: Any, where: str) -> None:
    if not isinstance(turn, dict):
        raise CaseError(f"{where}: a turn is an object")
    if "press" in turn:
        if turn["press"] not in ("ok", "no"):
            raise CaseError(f"{where}: press is 'ok' or 'no'")
    elif not isinstance(turn.get("text"), str) or not isinstance(turn.get("sender"), str):
        raise CaseError(f"{where}: a message turn needs 'sender' and 'text'")
    for entry in turn.get("expect") or ():
        if entry.get("tool") not in WRITE_TOOLS + READ_TOOLS:
            raise CaseError(f"{where}: unknown tool {entry.get('tool')!r}")
        if not isinstance(entry.get("args", {}), dict):
            raise CaseError(f"{where}: args must be an object")
    if "writes" in turn and not (isinstance(turn["writes"], int) and turn["writes"] >= 0):
        raise CaseError(f"{where}: writes must be a non-negative integer")


def load_cases(path: str | Path, split: str = "all", ids: Iterable[str] | None = None) -> list[Case]:
    """The cases of `split` ("dev", "test", "holdout" or "all"), optionally only those with the given ids."""
    wanted = set(ids) if ids else None
    cases: list[Case] = []
    seen: set[str] = set()
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        case = parse_case(line, f"{path}:{number}")
        if case.id in seen:
            raise CaseError(f"{path}:{number}: duplicate id {case.id!r}")
        seen.add(case.id)
        if split != "all" and case.split != split:
            continue
        if wanted is not None and case.id not in wanted:
            continue
        cases.append(case)
    return cases


def money_of(value: Any, currency: str) -> Money:
    """A fixture amount: a bare number in the household's currency, or {"amount", "currency"}."""
    if isinstance(value, dict):
        return Money.of(Decimal(str(value["amount"])), str(value["currency"]))
    return Money.of(Decimal(str(value)), currency)


@dataclass
class World:
    """One case's household, repositories, tools and clock."""

    case: Case
    household: Household
    budgets: InMemoryBudgetRepository
    goals: InMemoryGoalRepository
    operations: InMemoryOperationLog
    tools: list[Tool[Any]]
    now: datetime
    timezone: str = DEFAULT_TIMEZONE
    write_tools: list[str] = field(default_factory=lambda: list(WRITE_TOOLS))

    def clock(self) -> datetime:
        return self.now

    async def budget(self) -> Budget:
        return await self.budgets.load(BUDGET_ID)

    async def goal_list(self) -> list[Goal]:
        return await self.goals.list(HOUSEHOLD_ID)

    async def prompt(self) -> str:
        """The real system prompt (the rules: the working memory goes with each message)."""
        return system_prompt()

    async def reader(self) -> SpendReader:
        """The free-text reader as the bot builds it for a message, over the household as it
        stands now (a confirmed write shows in the next turn): its `read`, and its `focus`, what of
        a message the model reads."""
        return SpendReader.of(self.household, await self.budget(), await self.goal_list(), self.case.today)

    async def memory(self) -> Callable[[str], str]:
        """The working memory as the bot builds it for a message (what the message names)."""
        budget, goals = await self.budget(), await self.goal_list()
        return lambda said: working_memory(self.household, budget, goals, self.case.today, said)

    @property
    def saves(self) -> int:
        return self.budgets.saves + self.goals.saves

    def tool(self, name: str) -> Tool[Any] | None:
        return next((t for t in self.tools if t.name == name), None)


async def build_world(case: Case, timezone: str = DEFAULT_TIMEZONE) -> World:
    spec = case.household
    currency = str(spec.get("currency", "BRL"))
    household = Household.create(str(spec.get("name", "Casa")), currency, id=HOUSEHOLD_ID)
    members = {name: household.add_member(name, id=f"m-{i}")
               for i, name in enumerate(spec.get("members") or ["Ana", "Bruno"])}
    budget = Budget.create(currency, id=BUDGET_ID, household_id=HOUSEHOLD_ID)
    for expense in spec.get("expenses") or ():
        registered = budget.register(
            expense["name"], money_of(expense["expected"], currency),
            aliases=expense.get("aliases") or (), category=expense.get("category"),
            billing_day=expense.get("billingDay"), payment_method=expense.get("paymentMethod"))
        for period, spent in (expense.get("actual") or {}).items():
            registered.replace_actual(Period.parse(period), money_of(spent, currency))
    if spec.get("income") is not None:
        budget.set_income(money_of(spec["income"], currency))
    if spec.get("split"):  # contract §9: {"<member>": <percent>, ...}
        budget.split = SplitRule.fixed(spec["split"], list(members.values()))
    for card in spec.get("cards") or ():  # contract §9: {"name", "closingDay", "dueDay", "aliases"}
        budget.register_card(card["name"], int(card["closingDay"]), int(card["dueDay"]),
                             aliases=card.get("aliases") or ())
    goals = []
    for index, goal_spec in enumerate(spec.get("goals") or ()):
        deadline = date.fromisoformat(goal_spec["deadline"]) if goal_spec.get("deadline") else None
        created = (date.fromisoformat(goal_spec["createdAt"]) if goal_spec.get("createdAt")
                   else case.today - timedelta(days=60))
        if deadline is not None and created >= deadline:
            created = deadline - timedelta(days=1)
        names = goal_spec.get("members") or list(members)
        goal = Goal.create(goal_spec["name"], money_of(goal_spec["target"], currency),
                           members=[members[n] for n in names], created_at=created,
                           deadline=deadline, id=f"g-{index}", household_id=HOUSEHOLD_ID)
        for contribution in goal_spec.get("contributions") or ():
            goal.contribute(members[contribution["paidBy"]], money_of(contribution["amount"], currency),
                            date.fromisoformat(contribution["date"]))
        goals.append(goal)
    ledger = InMemoryLedger()
    budgets, goal_repo = InMemoryBudgetRepository(ledger), InMemoryGoalRepository(ledger)
    await budgets.save(budget)
    for goal in goals:
        await goal_repo.save(goal)
    budgets.saves = goal_repo.saves = 0
    now = datetime.combine(case.today, time(12, 0), tzinfo=ZoneInfo(timezone))

    def clock() -> datetime:
        return now

    operations = InMemoryOperationLog(clock=clock)
    tools = [tool for tool in household_tools(HouseholdBinding(
        household=household, budget_id=BUDGET_ID, budgets=budgets, goals=goal_repo, operations=operations,
        clock=clock, timezone=timezone, ledger=ledger)) if tool.name != UndoOperationTool.name]
    return World(case, household, budgets, goal_repo, operations, tools, now, timezone)
