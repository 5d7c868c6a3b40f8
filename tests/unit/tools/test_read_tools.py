"""The read tools: budgetStatus, goalStatus and checkFeasibility answer with exact amounts and write nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from domain.budget import Budget
from domain.errors import AmbiguousName, InvalidArgument, InvalidPeriod, UnknownGoal
from domain.goals import Goal
from domain.household import Household, Member
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import FixedRates, Money, Period
from domain.tools.budget import BudgetStatusTool
from domain.tools.goals import FeasibilityTool, GoalStatusTool

BUDGET_ID = "b1"
HOUSEHOLD_ID = "h1"
JUNE = Period(2026, 6)
SIX_REAIS_A_EURO = FixedRates({"EUR": "6"})


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def eur(amount: int | str) -> Money:
    return Money.of(amount, "EUR")


def money(amount: int | str, currency: str = "BRL") -> dict[str, Any]:
    return {"amount": Decimal(amount), "currency": currency}


def on(day: date) -> Any:
    return lambda: datetime(day.year, day.month, day.day, 15, tzinfo=UTC)


def members() -> tuple[Member, Member]:
    household = Household.create("Ana e Bruno", "BRL", id=HOUSEHOLD_ID)
    return household.add_member("Ana", id="m-ana"), household.add_member("Bruno", id="m-bruno")


async def house_budget(*, income: int | None = 12000) -> InMemoryBudgetRepository:
    """Mercado R$ 1.500 (R$ 237,90 spent in June) and Aluguel R$ 2.500: R$ 4.000 expected a month."""
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id=BUDGET_ID, household_id=HOUSEHOLD_ID)
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    budget.register("Aluguel", brl(2500))
    budget.find_by_name("Mercado").add_to_actual(JUNE, brl("237.90"))
    if income is not None:
        budget.set_income(brl(income))
    await repo.save(budget)
    return repo


# --- budgetStatus ---------------------------------------------------------------------------------


async def test_budget_status_reports_each_expense_expected_and_actual_with_totals_and_income() -> None:
    repo = await house_budget()
    saves_before = repo.saves

    status = await BudgetStatusTool.create(budget_repo=repo, budget_id=BUDGET_ID).budget_status(period="2026-06")

    assert status == {
        "period": "2026-06",
        "expenses": [
            {"name": "Mercado", "expected": money(1500), "actual": money("237.90")},
            {"name": "Aluguel", "expected": money(2500), "actual": money(0)},
        ],
        "totals": {"expected": money(4000), "actual": money("237.90")},
        "income": money(12000),
    }
    assert repo.saves == saves_before


async def test_budget_status_of_a_month_without_spending_shows_zero_actuals() -> None:
    repo = await house_budget(income=None)
    tool = BudgetStatusTool.create(budget_repo=repo, budget_id=BUDGET_ID)

    status = await tool.invoke({"period": "2026-07"})

    assert [(e["name"], e["actual"]) for e in status["expenses"]] == [
        ("Mercado", money(0)), ("Aluguel", money(0))]
    assert status["totals"]["actual"] == money(0)
    assert status["income"] is None


async def test_budget_status_refuses_month_13() -> None:
    repo = await house_budget()

    with pytest.raises(InvalidPeriod, match="13"):
        await BudgetStatusTool.create(budget_repo=repo, budget_id=BUDGET_ID).budget_status(period="2026-13")


# --- goalStatus -----------------------------------------------------------------------------------


async def amsterdam(goals: InMemoryGoalRepository, *contributions: tuple[Money, date]) -> Goal:
    """EUR 6.000 from 2026-06-01 to 2026-09-01 (three months), Ana and Bruno saving."""
    ana, bruno = members()
    goal = Goal.create("Amsterdam Setembro/2026", eur(6000), members=[ana, bruno],
                       created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), household_id=HOUSEHOLD_ID)
    for amount, day in contributions:
        goal.contribute(ana, amount, day)
    await goals.save(goal)
    return goal


async def test_goal_status_reports_savings_by_currency_required_monthly_and_on_track() -> None:
    goals = InMemoryGoalRepository()
    await amsterdam(goals, (eur(1000), date(2026, 6, 5)), (brl(600), date(2026, 6, 10)))
    tool = GoalStatusTool.create(goal_repo=goals, household_id=HOUSEHOLD_ID, rates=SIX_REAIS_A_EURO)

    status = await tool.goal_status(name="amsterdam", today="2026-06-15")

    assert status == {
        "name": "Amsterdam Setembro/2026",
        "target": money(6000, "EUR"),
        "deadline": "2026-09-01",
        "savedByCurrency": {"EUR": money(1000, "EUR"), "BRL": money(600)},
        "savedInTargetCurrency": money(1100, "EUR"),
        "progressPercent": 18,
        "requiredMonthly": money("2450.00", "EUR"),  # EUR 4.900 left over 2 whole months
        "onTrack": None,  # the first month, EUR 1.100 of its EUR 2.000 share: too early to say
    }


async def test_goal_status_is_off_track_when_savings_lag_the_straight_line() -> None:
    goals = InMemoryGoalRepository()
    await amsterdam(goals, (eur(1000), date(2026, 6, 5)))
    tool = GoalStatusTool.create(goal_repo=goals, household_id=HOUSEHOLD_ID, now=on(date(2026, 7, 15)),
                           rates=SIX_REAIS_A_EURO)

    status = await tool.goal_status(name="Amsterdam")

    # one month of three gone: EUR 2.000 were due, EUR 1.000 saved; EUR 5.000 left in one month
    assert status["onTrack"] is False
    assert status["requiredMonthly"] == money(5000, "EUR")


async def test_a_goal_without_deadline_has_no_required_monthly_and_no_track() -> None:
    goals = InMemoryGoalRepository()
    ana, _ = members()
    reserve = Goal.create("Reserva", brl(20000), members=[ana], created_at=date(2026, 6, 1),
                          household_id=HOUSEHOLD_ID)
    reserve.contribute(ana, brl(500), date(2026, 6, 2))
    await goals.save(reserve)

    status = await GoalStatusTool.create(goal_repo=goals, household_id=HOUSEHOLD_ID).goal_status(
        name="reserva", today="2026-06-15")

    assert status["deadline"] is None
    assert status["requiredMonthly"] is None
    assert status["onTrack"] is None
    assert status["savedByCurrency"] == {"BRL": money(500)}


async def test_goal_status_names_an_unknown_goal_and_refuses_an_ambiguous_one() -> None:
    goals = InMemoryGoalRepository()
    await amsterdam(goals)
    ana, _ = members()
    await goals.save(Goal.create("Amsterdam Dezembro/2027", eur(8000), members=[ana],
                                 created_at=date(2026, 6, 1), household_id=HOUSEHOLD_ID))
    tool = GoalStatusTool.create(goal_repo=goals, household_id=HOUSEHOLD_ID)

    with pytest.raises(UnknownGoal, match="Japão"):
        await tool.goal_status(name="Japão", today="2026-06-15")
    with pytest.raises(AmbiguousName, match="Amsterdam"):
        await tool.goal_status(name="Amsterdam", today="2026-06-15")


# --- checkFeasibility -----------------------------------------------------------------------------


async def goals_of_the_house() -> InMemoryGoalRepository:
    """Carro: R$ 24.000 in 12 months (R$ 2.000 a month); Amsterdam: EUR 3.000 in 6 months (EUR 500)."""
    goals = InMemoryGoalRepository()
    ana, bruno = members()
    start = date(2026, 6, 1)
    await goals.save(Goal.create("Carro", brl(24000), members=[ana, bruno], created_at=start,
                                 deadline=date(2027, 6, 1), household_id=HOUSEHOLD_ID))
    await goals.save(Goal.create("Amsterdam Dezembro/2026", eur(3000), members=[ana, bruno],
                                 created_at=start, deadline=date(2026, 12, 1), household_id=HOUSEHOLD_ID))
    await goals.save(Goal.create("Reserva", brl(50000), members=[ana], created_at=start,
                                 household_id=HOUSEHOLD_ID))  # no deadline: commits nothing monthly
    return goals


async def feasibility(budgets: InMemoryBudgetRepository | None = None) -> FeasibilityTool:
    return FeasibilityTool.create(
        budget_repo=budgets or await house_budget(), budget_id=BUDGET_ID, goal_repo=await goals_of_the_house(),
        household_id=HOUSEHOLD_ID, now=on(date(2026, 6, 1)), rates=SIX_REAIS_A_EURO)


async def test_an_euro_goal_is_feasible_when_its_monthly_in_reais_fits_the_surplus() -> None:
    tool = await feasibility()

    result = await tool.check_feasibility(goal="Amsterdam")

    assert result == {
        "goal": "Amsterdam Dezembro/2026",
        "income": money(12000),
        "expectedExpenses": money(4000),
        "otherGoalsMonthly": money(2000),  # Carro
        "monthlySurplus": money(6000),  # 12.000 - 4.000 - 2.000
        "requiredMonthly": money(500, "EUR"),
        "requiredMonthlyInBudgetCurrency": money(3000),  # EUR 500 at R$ 6
        "feasible": True,
    }


async def test_an_existing_goal_counts_every_other_goal_converted_to_the_budget_currency() -> None:
    tool = await feasibility()

    result = await tool.check_feasibility(goal="carro")

    assert result["otherGoalsMonthly"] == money(3000)  # Amsterdam's EUR 500
    assert result["monthlySurplus"] == money(5000)
    assert result["requiredMonthly"] == money(2000)
    assert result["feasible"] is True


async def test_a_new_goal_that_needs_more_than_the_surplus_is_not_feasible() -> None:
    tool = await feasibility()

    result = await tool.check_feasibility(target=money(60000), deadline="2027-06-01")

    assert result["otherGoalsMonthly"] == money(5000)  # Carro 2.000 + Amsterdam 3.000
    assert result["monthlySurplus"] == money(3000)
    assert result["requiredMonthly"] == money(5000)
    assert result["feasible"] is False


async def test_a_new_goal_needing_exactly_the_surplus_is_feasible() -> None:
    tool = await feasibility()

    result = await tool.check_feasibility(target=money(36000), deadline="2027-06-01")

    assert (result["monthlySurplus"], result["requiredMonthly"]) == (money(3000), money(3000))
    assert result["feasible"] is True


async def test_feasibility_of_a_new_euro_goal_converts_its_monthly() -> None:
    tool = await feasibility()

    result = await tool.invoke({"target": {"amount": 1200, "currency": "EUR"}, "deadline": "2026-12-01"})

    assert result["requiredMonthly"] == money(200, "EUR")
    assert result["requiredMonthlyInBudgetCurrency"] == money(1200)
    assert result["feasible"] is True


@pytest.mark.parametrize(("args", "complaint"), [
    ({"goal": "Reserva"}, "Reserva"),
    ({"target": money(1000)}, "target e deadline"),
    ({}, "target e deadline"),
])
async def test_feasibility_explains_what_it_cannot_check(args: dict[str, Any], complaint: str) -> None:
    tool = await feasibility()

    with pytest.raises(InvalidArgument, match=complaint):
        await tool.check_feasibility(**args)


async def test_feasibility_without_income_asks_for_it() -> None:
    tool = await feasibility(await house_budget(income=None))

    with pytest.raises(InvalidArgument, match="setIncome"):
        await tool.check_feasibility(goal="Carro")
