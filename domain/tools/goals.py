"""Tools over savings goals: create one, contribute to one, read one, check if one fits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pydantic import Field

from domain.clock import DEFAULT_TIMEZONE, Clock, local_today, utc_now
from domain.errors import AmbiguousName, DomainError, DuplicateName, InvalidArgument, UnknownGoal
from domain.goals import Goal
from domain.household import Household, Member, member_named
from domain.money import DEFAULT_RATES, ExchangeRates, Money
from domain.operations.log import OperationLog
from domain.operations.previews import FORM, MONEY_FIXED, MONEY_PLAIN, OMIT, Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository, GoalRepository
from domain.reports import GoalReport, report_json
from domain.text import fold, safe_text
from domain.tools.base import (
    HouseholdBinding,
    MoneyArg,
    ReadTool,
    Staged,
    ToolArgs,
    WriteArgs,
    WriteTool,
    missing,
    money_dict,
    parse_date,
)
from domain.tools.budget import positive
from domain.tools.grounding import Ground, NotNamed, Said, grounds


@dataclass(frozen=True)
class ContributionPreview(Preview):
    """contributeToGoal: who paid how much into which goal, and the goal's savings after it."""

    goal: str
    paid_by: str
    amount: Money
    date: date
    new_saved_by_currency: tuple[Money, ...]  # one per currency; JSON maps currency to money


@dataclass(frozen=True)
class GoalPreview(Preview):
    """createGoal: the goal as stored; its money as text (contract §3)."""

    name: str
    target: Money = field(metadata={FORM: MONEY_PLAIN})
    deadline: date | None = field(default=None, metadata={OMIT: None})
    contributors: tuple[str, ...] = ()
    required_monthly: Money | None = field(default=None, metadata={OMIT: None, FORM: MONEY_FIXED})


def goal_matching(goals: Sequence[Goal], name: str) -> Goal:
    """The goal named `name`, or the only one whose name contains it ("Amsterdam"); archived
    goals answer to nothing."""
    goals = [g for g in goals if not g.archived]
    wanted = fold(name) if isinstance(name, str) else ""
    if not wanted:
        raise UnknownGoal(str(name), [g.name for g in goals])
    exact = [g for g in goals if fold(g.name) == wanted]
    if len(exact) == 1:
        return exact[0]
    partial = exact or [g for g in goals if wanted in fold(g.name)]
    if len(partial) == 1:
        return partial[0]
    if partial:
        raise AmbiguousName(name, [g.name for g in partial])
    if isinstance(name, str) and ": " in name:
        # The working memory's layout copied as a name ("Amsterdam Setembro/2026: EUR 6000 by ...").
        return goal_matching(goals, name.split(": ", 1)[0])
    raise UnknownGoal(name, [g.name for g in goals])


def check_goal_name_free(goals: list[Goal], name: str, *, besides: Goal | None = None) -> None:
    """Two active goals whose names differ only in case or accents could never be told apart."""
    wanted = fold(name)
    for goal in goals:
        if goal.archived or (besides is not None and goal.id == besides.id):
            continue
        if fold(goal.name) == wanted:
            raise DuplicateName(name, f"a meta {goal.name}")


def member_of(goal: Goal, name: str) -> Member:
    return member_named(goal.members, name)


class _GoalLocator:
    """A goal bound by id, or looked up by name among a household's goals."""

    def __init__(self, goal_repo: GoalRepository, goal_id: str | None,
                 household_id: str | None) -> None:
        if goal_id is None and household_id is None:
            raise ValueError("bind the tool to a goal_id or a household_id")
        self.goal_repo = goal_repo
        self.goal_id = goal_id
        self.household_id = household_id

    async def load(self, name: str) -> Goal:
        if self.goal_id is not None:
            goal = await self.goal_repo.load(self.goal_id, history=False)
            goal_matching([goal], name)  # the model must be naming the goal it is bound to
            return goal
        found = goal_matching(await self.goal_repo.list(self.household_id, history=False), name)
        return await self.goal_repo.load(found.id, history=False)


_NOT_OWN: frozenset[str] = frozenset({"meta", "para", "pra", "pro", "pela", "pelo", "nossa", "nosso", "minha",
                                       "meu", "casa", "das", "dos", "com", "uma", "que", "nas", "nos"})


def _significant(name: str) -> set[str]:
    """A goal's words that name it ("lua", "mel", "chile"): three letters or more, not a number,
    not "meta" nor a word any sentence has."""
    return {word for word in fold(name).replace("/", " ").split()
            if len(word) >= 3 and not word.isdigit() and word not in _NOT_OWN}


def with_date(arguments: dict[str, Any], key: str, what: str) -> dict[str, Any]:
    """An optional date read as ISO or dd/mm/aaaa, stored as ISO."""
    if missing(arguments, key):
        return {**arguments, key: None}
    return {**arguments, key: parse_date(arguments[key], what).isoformat()}


class ContributeArgs(WriteArgs):
    goal: str = Field(description="Name or a unique part of it.")
    paid_by: str  # the prompt says who: the speaker unless another member paid
    amount: MoneyArg
    date: str = Field(description="YYYY-MM-DD")  # the prompt: left out for today


class ContributeToGoalTool(WriteTool[ContributeArgs]):
    name = "contributeToGoal"
    description = (
        "Record a member's contribution to a savings goal."
    )
    args_model = ContributeArgs
    grounded = grounds(amount=Ground.PAID, date=Ground.DAY)
    preview_type = ContributionPreview
    speaker_argument = "paidBy"

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if missing(arguments, "date"):
            return {**arguments, "date": self.reading.today().isoformat()}
        return {**arguments, "date": parse_date(arguments["date"], "Data do aporte").isoformat()}

    def __init__(self, goal_repo: GoalRepository, *, goal_id: str | None = None,
                 household_id: str | None = None, operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.goal_repo = goal_repo
        self._goals = _GoalLocator(goal_repo, goal_id, household_id)

    @classmethod
    def create(cls, *, goal_repo: GoalRepository, goal_id: str | None = None,
               household_id: str | None = None,
               operations: OperationLog | None = None) -> ContributeToGoalTool:
        return cls(goal_repo, goal_id=goal_id, household_id=household_id, operations=operations)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> ContributeToGoalTool:
        return cls(binding.goals, household_id=binding.household.id, operations=binding.operations)

    async def unnamed(self, args: ContributeArgs, said: Said) -> DomainError | None:
        """NotNamed when nobody wrote the goal's name or a word of its own ("põe 200 lá"), or
        wrote only a word it shares with another goal ("aporta 300 na viagem" with two trips)."""
        if self._goals.goal_id is not None:
            return None  # a tool bound to one goal: that goal
        goals = [g for g in await self.goal_repo.list(self._goals.household_id, history=False) if not g.archived]
        goal = goal_matching(goals, args.goal)
        rest = [other for other in goals if other.id != goal.id]
        others = {word for other in rest for word in _significant(other.name)}
        own = _significant(goal.name)
        mine = {word for word in own if said.names_any([word])}
        if mine & (own - others):
            return None  # a word only this goal has ("chile")
        if mine and mine == own and not any(
                _significant(other.name) and all(said.names_any([w]) for w in _significant(other.name))
                for other in rest):
            return None  # its whole name ("Viagem"), which no other goal's is
        shared = sorted(mine)
        if shared:
            alike = [g.name for g in goals if set(shared) & _significant(g.name)]
            return NotNamed(f"\"{shared[0]}\" pode ser a meta {' ou '.join(alike)}: pergunte qual antes de propor.")
        return NotNamed(f"Ninguém citou a meta {goal.name}: pergunte em qual meta antes de propor.")

    async def contribute_to_goal(self, *, goal: str, paid_by: str, amount: dict[str, Any], date: str,
                                 operation_id: str, confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"goal": goal, "paid_by": paid_by, "amount": amount,
                                          "date": date, "operation_id": operation_id,
                                          "confirm": confirm}))

    async def _stage(self, args: ContributeArgs) -> Staged:
        goal = await self._goals.load(args.goal)
        on = parse_date(args.date, "Data do aporte")
        amount = positive(args.amount, "O aporte")
        goal.contribute(member_of(goal, args.paid_by), amount, on)
        preview = ContributionPreview(args.goal, args.paid_by, amount, on,
                                      tuple(goal.saved_by_currency().values()))
        return Staged(preview, lambda: self.goal_repo.save(goal))


class CreateGoalArgs(WriteArgs):
    name: str
    target: MoneyArg
    contributors: list[str] = Field(min_length=1, description="Member names.")
    deadline: str | None = Field(default=None, description="YYYY-MM-DD")


class CreateGoalTool(WriteTool[CreateGoalArgs]):
    name = "createGoal"
    description = (
        "Create a savings goal."
    )
    args_model = CreateGoalArgs
    grounded = grounds(target=Ground.MONEY, deadline=Ground.DEADLINE)
    preview_type = GoalPreview

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return with_date(arguments, "deadline", "Prazo")

    def __init__(self, goal_repo: GoalRepository, household: Household, now: Clock | None = None,
                 *, timezone: str = DEFAULT_TIMEZONE, operations: OperationLog | None = None,
                 rates: ExchangeRates = DEFAULT_RATES) -> None:
        super().__init__(operations)
        self.goal_repo = goal_repo
        self.household = household
        self.now = now or utc_now
        self.timezone = timezone
        self.rates = rates

    @classmethod
    def create(cls, *, goal_repo: GoalRepository, household: Household, now: Clock | None = None,
               timezone: str = DEFAULT_TIMEZONE, operations: OperationLog | None = None,
               rates: ExchangeRates = DEFAULT_RATES) -> CreateGoalTool:
        return cls(goal_repo, household, now, timezone=timezone, operations=operations, rates=rates)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> CreateGoalTool:
        return cls(binding.goals, binding.household, binding.clock, timezone=binding.timezone,
                   operations=binding.operations, rates=binding.rates)

    async def create_goal(self, *, name: str, target: dict[str, Any], contributors: list[str],
                          operation_id: str, deadline: str | None = None,
                          confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"name": name, "target": target,
                                          "contributors": contributors, "deadline": deadline,
                                          "operation_id": operation_id, "confirm": confirm}))

    async def _stage(self, args: CreateGoalArgs) -> Staged:
        today = local_today(self.now, self.timezone)
        members = [self.household.member_named(name) for name in args.contributors]
        deadline = parse_date(args.deadline, "Prazo") if args.deadline else None
        target = positive(args.target, "O valor da meta")
        # Savings are made in the household's currency: a target that cannot be converted
        # would hide every goal's progress later, so it is refused now, naming the currency.
        self.rates.convert(Money.of(1, target.currency), self.household.currency)
        goal = Goal.create(args.name, target, members=members, created_at=today, deadline=deadline,
                           household_id=self.household.id)
        check_goal_name_free(await self.goal_repo.list(self.household.id, history=False), goal.name)
        # The goal's name as stored (normalized: a model's "Viagem\nValor da meta: R$ 100,00"
        # cannot fake a line of the preview) and the contributors made as safe.
        preview = GoalPreview(goal.name, target, deadline,
                              tuple(safe_text(name) for name in args.contributors),
                              goal.required_monthly(today, self.rates))
        return Staged(preview, lambda: self.goal_repo.save(goal))


class GoalStatusArgs(ToolArgs):
    name: str = Field(description="Name or a unique part of it.")
    today: str | None = Field(default=None, description="YYYY-MM-DD")


def goal_report(goal: Goal, today: date, rates: ExchangeRates) -> dict[str, Any]:
    """A goal's report as the model reads it (see GoalReport for the typed one)."""
    return report_json(GoalReport.of(goal, today, rates))


class GoalStatusTool(ReadTool[GoalStatusArgs]):
    name = "goalStatus"
    description = "A goal's progress, what is missing and the monthly amount needed."
    args_model = GoalStatusArgs

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return with_date(arguments, "today", "Data")

    def __init__(self, goal_repo: GoalRepository, household_id: str | None = None,
                 now: Clock | None = None, *, timezone: str = DEFAULT_TIMEZONE,
                 rates: ExchangeRates = DEFAULT_RATES) -> None:
        self.goal_repo = goal_repo
        self.household_id = household_id
        self.now = now or utc_now
        self.timezone = timezone
        self.rates = rates

    @classmethod
    def create(cls, *, goal_repo: GoalRepository, household_id: str | None = None,
               now: Clock | None = None, timezone: str = DEFAULT_TIMEZONE,
               rates: ExchangeRates = DEFAULT_RATES) -> GoalStatusTool:
        return cls(goal_repo, household_id, now, timezone=timezone, rates=rates)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> GoalStatusTool:
        return cls(binding.goals, binding.household.id, binding.clock, timezone=binding.timezone,
                   rates=binding.rates)

    async def goal_status(self, *, name: str, today: str | None = None) -> dict[str, Any]:
        return await self.read(self.parse({"name": name, "today": today}))

    async def read(self, args: GoalStatusArgs) -> dict[str, Any]:
        today = parse_date(args.today) if args.today else local_today(self.now, self.timezone)
        found = goal_matching(await self.goal_repo.list(self.household_id, history=False), args.name)
        return goal_report(found, today, self.rates)



class FeasibilityArgs(ToolArgs):
    goal: str | None = Field(default=None, description="Existing goal name.")
    target: MoneyArg | None = Field(default=None, description="New goal target.")
    deadline: str | None = Field(default=None, description="YYYY-MM-DD")


class FeasibilityTool(ReadTool[FeasibilityArgs]):
    """Can the household afford a goal? Surplus = income - expected expenses - other goals' monthly."""

    name = "checkFeasibility"
    description = (
        "Can we afford a goal: an existing one, or a target + deadline?"
    )
    args_model = FeasibilityArgs
    grounded = grounds(target=Ground.COMPUTED)

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return with_date(arguments, "deadline", "Prazo")

    def __init__(self, budget_repo: BudgetRepository, budget_id: str, goal_repo: GoalRepository,
                 household_id: str | None = None, now: Clock | None = None, *,
                 timezone: str = DEFAULT_TIMEZONE, rates: ExchangeRates = DEFAULT_RATES) -> None:
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.goal_repo = goal_repo
        self.household_id = household_id
        self.now = now or utc_now
        self.timezone = timezone
        self.rates = rates

    @classmethod
    def create(cls, *, budget_repo: BudgetRepository, budget_id: str, goal_repo: GoalRepository,
               household_id: str | None = None, now: Clock | None = None,
               timezone: str = DEFAULT_TIMEZONE,
               rates: ExchangeRates = DEFAULT_RATES) -> FeasibilityTool:
        return cls(budget_repo, budget_id, goal_repo, household_id, now, timezone=timezone,
                   rates=rates)

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> FeasibilityTool:
        return cls(binding.budgets, binding.budget_id, binding.goals, binding.household.id, binding.clock,
                   timezone=binding.timezone, rates=binding.rates)

    async def check_feasibility(self, *, goal: str | None = None,
                                target: dict[str, Any] | None = None,
                                deadline: str | None = None) -> dict[str, Any]:
        return await self.read(self.parse({"goal": goal, "target": target, "deadline": deadline}))

    async def read(self, args: FeasibilityArgs) -> dict[str, Any]:
        today = local_today(self.now, self.timezone)
        budget = await self.budget_repo.load(self.budget_id, periods=())
        goals = await self.goal_repo.list(self.household_id, history=False)
        if args.goal is not None:
            subject = goal_matching(goals, args.goal)
            others = [g for g in goals if g.id != subject.id]
            needed = subject.required_monthly(today, self.rates)
            if needed is None:
                raise InvalidArgument(f'A meta "{subject.name}" não tem prazo; não há aporte mensal a checar.')
            label = subject.name
        elif args.target is not None and args.deadline is not None:
            target = positive(args.target, "O valor da meta")
            deadline = parse_date(args.deadline, "Prazo")
            idea = Goal.create("nova meta", target, members=[Member("-", "-")], created_at=today,
                               deadline=deadline)
            needed = idea.required_monthly(today, self.rates)
            assert needed is not None
            others, label = goals, "nova meta"
        else:
            raise InvalidArgument("Informe goal (meta existente) ou target e deadline (meta nova).")
        if budget.income is None:
            raise InvalidArgument("A renda mensal da casa não foi informada; use setIncome primeiro.")
        committed = Money.zero(budget.currency)
        for other in others:
            monthly = other.required_monthly(today, self.rates)
            if monthly is not None:
                committed = committed + self.rates.convert(monthly, budget.currency)
        surplus = budget.income - budget.expected_total() - committed
        needed_local = self.rates.convert(needed, budget.currency)
        return {
            "goal": label,
            "income": money_dict(budget.income),
            "expectedExpenses": money_dict(budget.expected_total()),
            "otherGoalsMonthly": money_dict(committed),
            "monthlySurplus": money_dict(surplus),
            "requiredMonthly": money_dict(needed),
            "requiredMonthlyInBudgetCurrency": money_dict(needed_local),
            "feasible": surplus >= needed_local,
        }
