from __future__ import annotations

from datetime import date

import pytest

from domain.budget import Budget
from domain.errors import ConcurrentModification, NotFound
from domain.goals import Goal
from domain.household import Household, Member
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository, InMemoryHouseholdRepository
from domain.money import Money, Period
from domain.ports import BudgetRepository, GoalRepository, HouseholdRepository

JUNE = Period(2026, 6)
ANA = Member(id="m-ana", name="Ana")


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def a_budget() -> Budget:
    budget = Budget.create("BRL", id="b1", household_id="h1")
    budget.register("Mercado", brl(1500), aliases=["supermercado"])
    return budget


def a_goal(goal_id: str, household_id: str | None) -> Goal:
    return Goal.create(
        f"Meta {goal_id}",
        Money.of(6000, "EUR"),
        members=[ANA],
        created_at=date(2026, 6, 1),
        deadline=date(2028, 6, 1),
        id=goal_id,
        household_id=household_id,
    )


# --- NotFound -----------------------------------------------------------------------------


async def test_loading_an_unknown_budget_raises_not_found_naming_the_id() -> None:
    repo: BudgetRepository = InMemoryBudgetRepository()

    with pytest.raises(NotFound) as refused:
        await repo.load("nope")

    assert refused.value.identifier == "nope"
    assert "'nope'" in str(refused.value)


async def test_loading_an_unknown_goal_raises_not_found() -> None:
    repo: GoalRepository = InMemoryGoalRepository()

    with pytest.raises(NotFound, match="nope"):
        await repo.load("nope")


async def test_loading_an_unknown_household_raises_not_found() -> None:
    repo: HouseholdRepository = InMemoryHouseholdRepository()

    with pytest.raises(NotFound, match="nope"):
        await repo.load("nope")


# --- round trips and isolation --------------------------------------------------------------


async def test_a_saved_budget_loads_back_with_its_expenses_and_actuals() -> None:
    repo = InMemoryBudgetRepository()
    budget = a_budget()
    budget.find_by_name("Mercado").add_to_actual(JUNE, brl("37.90"))
    budget.set_income(brl(12000))

    await repo.save(budget)
    loaded = await repo.load("b1")

    groceries = loaded.find_by_name("supermercado")
    assert loaded is not budget
    assert loaded.household_id == "h1"
    assert groceries.expected == brl(1500)
    assert groceries.actual_for(JUNE) == brl("37.90")
    assert loaded.income == brl(12000)


async def test_a_saved_goal_loads_back_with_its_contributions() -> None:
    repo = InMemoryGoalRepository()
    goal = a_goal("g1", "h1")
    goal.contribute(ANA, brl(500), date(2026, 6, 15))

    await repo.save(goal)
    loaded = await repo.load("g1")

    assert loaded.name == "Meta g1"
    assert loaded.members == [ANA]
    assert loaded.saved_by_currency() == {"BRL": brl(500)}
    assert loaded.required_monthly(date(2026, 6, 1)) == goal.required_monthly(date(2026, 6, 1))


async def test_a_saved_household_loads_back_with_its_members() -> None:
    repo = InMemoryHouseholdRepository()
    household = Household.create("Casa", "BRL", id="h1")
    household.add_member("Ana", id="m-ana")

    await repo.save(household)
    loaded = await repo.load("h1")

    assert loaded.member_named("ana") == ANA
    assert loaded.currency == "BRL"


async def test_a_loaded_budget_changed_without_save_leaves_the_store_unchanged() -> None:
    repo = InMemoryBudgetRepository()
    await repo.save(a_budget())

    loaded = await repo.load("b1")
    loaded.find_by_name("Mercado").replace_actual(JUNE, brl(999))
    loaded.register("Aluguel", brl(2500))

    again = await repo.load("b1")
    assert again.find_by_name("Mercado").actual_for(JUNE) == Money.zero("BRL")
    assert [e.name for e in again.expenses] == ["Mercado"]


async def test_changing_a_budget_after_saving_it_leaves_the_store_unchanged() -> None:
    repo = InMemoryBudgetRepository()
    budget = a_budget()
    await repo.save(budget)

    budget.register("Aluguel", brl(2500))

    assert [e.name for e in (await repo.load("b1")).expenses] == ["Mercado"]


async def test_a_loaded_goal_changed_without_save_leaves_the_store_unchanged() -> None:
    repo = InMemoryGoalRepository()
    await repo.save(a_goal("g1", "h1"))

    loaded = await repo.load("g1")
    loaded.contribute(ANA, brl(500), date(2026, 6, 15))

    assert (await repo.load("g1")).contributions == []
    assert (await repo.list("h1"))[0].contributions == []


async def test_a_change_that_is_saved_is_seen_by_the_next_load() -> None:
    repo = InMemoryBudgetRepository()
    await repo.save(a_budget())

    loaded = await repo.load("b1")
    loaded.find_by_name("Mercado").add_to_actual(JUNE, brl(200))
    await repo.save(loaded)

    assert (await repo.load("b1")).find_by_name("Mercado").actual_for(JUNE) == brl(200)


async def test_the_same_aggregate_can_be_saved_again_after_each_change() -> None:
    repo = InMemoryBudgetRepository()
    budget = a_budget()
    await repo.save(budget)

    budget.find_by_name("Mercado").add_to_actual(JUNE, brl(100))
    await repo.save(budget)
    budget.find_by_name("Mercado").add_to_actual(JUNE, brl(100))
    await repo.save(budget)

    assert (await repo.load("b1")).find_by_name("Mercado").actual_for(JUNE) == brl(200)


# --- optimistic concurrency ----------------------------------------------------------------------


async def test_a_stale_save_raises_concurrent_modification_and_keeps_the_first_write() -> None:
    repo = InMemoryBudgetRepository()
    await repo.save(a_budget())
    first = await repo.load("b1")
    second = await repo.load("b1")

    first.find_by_name("Mercado").add_to_actual(JUNE, brl(200))
    await repo.save(first)
    second.find_by_name("Mercado").add_to_actual(JUNE, brl(50))
    with pytest.raises(ConcurrentModification) as refused:
        await repo.save(second)

    assert refused.value.identifier == "b1"
    assert (await repo.load("b1")).find_by_name("Mercado").actual_for(JUNE) == brl(200)


async def test_a_stale_goal_save_raises_concurrent_modification() -> None:
    repo = InMemoryGoalRepository()
    await repo.save(a_goal("g1", "h1"))
    first = await repo.load("g1")
    second = await repo.load("g1")

    first.contribute(ANA, brl(100), date(2026, 6, 15))
    await repo.save(first)
    second.contribute(ANA, brl(999), date(2026, 6, 15))
    with pytest.raises(ConcurrentModification):
        await repo.save(second)

    assert (await repo.load("g1")).saved_by_currency() == {"BRL": brl(100)}


async def test_a_stale_household_save_raises_concurrent_modification() -> None:
    repo = InMemoryHouseholdRepository()
    await repo.save(Household.create("Casa", "BRL", id="h1"))
    first = await repo.load("h1")
    second = await repo.load("h1")

    first.add_member("Ana")
    await repo.save(first)
    second.add_member("Bruno")
    with pytest.raises(ConcurrentModification):
        await repo.save(second)

    assert [m.name for m in (await repo.load("h1")).members] == ["Ana"]


async def test_a_reload_after_a_conflict_can_save() -> None:
    repo = InMemoryBudgetRepository()
    await repo.save(a_budget())
    stale = await repo.load("b1")
    await repo.save(await repo.load("b1"))

    with pytest.raises(ConcurrentModification):
        await repo.save(stale)
    fresh = await repo.load("b1")
    fresh.find_by_name("Mercado").add_to_actual(JUNE, brl(10))
    await repo.save(fresh)

    assert (await repo.load("b1")).find_by_name("Mercado").actual_for(JUNE) == brl(10)


# --- goal list ---------------------------------------------------------------------------------


async def test_goals_are_listed_by_household() -> None:
    repo = InMemoryGoalRepository()
    for goal in (a_goal("g1", "h1"), a_goal("g2", "h2"), a_goal("g3", "h1")):
        await repo.save(goal)

    assert sorted(g.id for g in await repo.list("h1")) == ["g1", "g3"]
    assert [g.id for g in await repo.list("h2")] == ["g2"]
    assert await repo.list("h3") == []
    assert sorted(g.id for g in await repo.list()) == ["g1", "g2", "g3"]


async def test_listed_goals_are_copies() -> None:
    repo = InMemoryGoalRepository()
    await repo.save(a_goal("g1", "h1"))

    listed = (await repo.list("h1"))[0]
    listed.contribute(ANA, brl(1), date(2026, 6, 15))

    assert (await repo.load("g1")).contributions == []


async def test_a_budget_loaded_for_one_month_keeps_the_other_months_when_saved() -> None:
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id="b")
    budget.register("Mercado", Money.of(1500, "BRL"))
    budget.find_by_name("Mercado").add_to_actual(Period(2026, 5), Money.of("10.00", "BRL"))
    await repo.save(budget)

    june = await repo.load("b", periods=[Period(2026, 6)])
    june.find_by_name("Mercado").add_to_actual(Period(2026, 6), Money.of("0.10", "BRL"))
    await repo.save(june)

    whole = await repo.load("b")
    mercado = whole.find_by_name("Mercado")
    assert mercado.actual_for(Period(2026, 5)) == Money.of("10.00", "BRL")
    assert mercado.actual_for(Period(2026, 6)) == Money.of("0.10", "BRL")


async def test_a_month_that_was_not_loaded_cannot_be_read() -> None:
    repo = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id="b")
    budget.register("Mercado", Money.of(1500, "BRL"))
    await repo.save(budget)

    loaded = await repo.load("b", periods=())

    with pytest.raises(LookupError):
        loaded.find_by_name("Mercado").actual_for(Period(2026, 6))


async def test_a_goal_loaded_without_history_sums_its_savings_and_keeps_them_when_saved() -> None:

    household = Household.create("Casa", "BRL", id="h")
    ana = household.add_member("Ana")
    repo = InMemoryGoalRepository()
    goal = Goal.create("Viagem", Money.of(6000, "EUR"), members=[ana], created_at=date(2026, 6, 1),
                        id="g", household_id="h")
    goal.contribute(ana, Money.of(500, "BRL"), date(2026, 6, 2))
    await repo.save(goal)

    light = await repo.load("g", history=False)
    assert light.contributions == []
    assert light.saved_by_currency() == {"BRL": Money.of(500, "BRL")}
    light.contribute(ana, Money.of("0.10", "BRL"), date(2026, 6, 3))
    await repo.save(light)

    whole = await repo.load("g")
    assert [c.amount for c in whole.contributions] == [Money.of(500, "BRL"), Money.of("0.10", "BRL")]
    assert (await repo.list("h", history=False))[0].saved_by_currency() == {"BRL": Money.of("500.10", "BRL")}


async def test_saving_a_history_less_goal_twice_adds_only_the_newer_contributions() -> None:
    household = Household.create("Casa", "BRL", id="h")
    ana = household.add_member("Ana")
    repo = InMemoryGoalRepository()
    await repo.save(Goal.create("Viagem", brl(6000), members=[ana], created_at=date(2026, 6, 1), id="g"))
    goal = await repo.load("g", history=False)

    goal.contribute(ana, brl(1), date(2026, 6, 2))
    await repo.save(goal)
    goal.contribute(ana, brl(2), date(2026, 6, 3))
    await repo.save(goal)

    assert [c.amount for c in (await repo.load("g")).contributions] == [brl(1), brl(2)]
