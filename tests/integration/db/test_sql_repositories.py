"""The SQL repositories keep every field exactly, write only what changed, and refuse stale saves."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, func, select

from domain.budget import Budget
from domain.errors import ConcurrentModification, NotFound
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository, SqlHouseholdRepository
from infra.db.tables import ledger_entries

JUNE = Period(2026, 6)
JULY = Period(2026, 7)


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


class StatementLog:
    """Counts the SQL statements and the rows they carry, to show what a save writes."""

    def __init__(self, database: Database) -> None:
        self.statements: list[str] = []
        self.rows = 0
        self._engine = database.engine.sync_engine
        event.listen(self._engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
              executemany: bool) -> None:
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            self.statements.append(statement)
            self.rows += len(parameters) if executemany else 1

    def close(self) -> None:
        event.remove(self._engine, "before_cursor_execute", self._seen)


async def test_a_household_round_trips_with_its_members_in_order(database: Database) -> None:
    repo = SqlHouseholdRepository(database)
    household = Household.create("Ana e Bruno", "BRL", id="casa-1")
    ana = household.add_member("Ana", id="m-ana")
    household.add_member("Bruno")
    await repo.save(household)
    household.add_member("Çíntia")
    await repo.save(household)

    loaded = await repo.load("casa-1")

    assert (loaded.id, loaded.name, loaded.currency, loaded.version) == ("casa-1", "Ana e Bruno", "BRL", 2)
    assert [(m.id, m.name) for m in loaded.members] == [(m.id, m.name) for m in household.members]
    assert loaded.member_named("ana") == ana
    assert loaded.members[2].name == "Çíntia"


async def test_a_budget_round_trips_every_field_cents_included(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    budget = Budget.create("BRL", id="orc-1", household_id="casa-1")
    budget.set_income(brl("12345.67"))
    market = budget.register("Mercado", brl("1500"), aliases=["supermercado", "feira"],
                             category="Alimentação", billing_day=31, payment_method="cartão")
    budget.register("Água e Luz", brl("0.10"))
    market.add_to_actual(JUNE, brl("37.90"))
    water = budget.find_by_name("agua e luz")
    water.add_to_actual(JULY, brl("0.10"))
    water.add_to_actual(JULY, brl("0.20"))
    await repo.save(budget)

    loaded = await repo.load("orc-1")

    assert (loaded.id, loaded.currency, loaded.household_id, loaded.version) == ("orc-1", "BRL", "casa-1", 1)
    assert loaded.income == brl("12345.67")
    assert [e.name for e in loaded.expenses] == ["Mercado", "Água e Luz"]
    mercado, agua = loaded.expenses
    assert (mercado.expected, mercado.aliases, mercado.category, mercado.billing_day,
            mercado.payment_method) == (brl("1500"), ("supermercado", "feira"), "Alimentação", 31, "cartão")
    assert (agua.aliases, agua.category, agua.billing_day, agua.payment_method) == ((), None, None, None)
    assert mercado.actual_for(JUNE).amount == Decimal("37.90")
    assert agua.actual_for(JULY).amount == Decimal("0.30")
    assert agua.actual_for(JUNE) == brl("0")
    assert loaded.find_by_name("SUPERMERCADO") is mercado


async def test_a_budget_without_income_stays_without_income(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    await repo.save(Budget.create("EUR", id="orc-eur"))

    loaded = await repo.load("orc-eur")

    assert (loaded.income, loaded.currency, loaded.household_id, loaded.expenses) == (None, "EUR", None, [])


async def test_goals_round_trip_members_contributions_and_deadlines(database: Database) -> None:
    repo = SqlGoalRepository(database)
    household = Household.create("Casa", "BRL", id="casa-1")
    ana, bruno = household.add_member("Ana"), household.add_member("Bruno")
    trip = Goal.create("Amsterdam Setembro/2026", Money.of("6000", "EUR"), members=[ana, bruno],
                       created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), household_id="casa-1")
    trip.contribute(ana, brl("500.05"), date(2026, 6, 15))
    trip.contribute(bruno, Money.of("0.01", "EUR"), date(2026, 6, 16))
    reserve = Goal.create("Reserva", Money.of("1000000", "JPY"), members=[bruno],
                          created_at=date(2026, 6, 1), household_id="casa-1")
    await repo.save(trip)
    await repo.save(reserve)

    loaded = await repo.load(trip.id)
    no_deadline = await repo.load(reserve.id)

    assert (loaded.name, loaded.target, loaded.created_at, loaded.deadline, loaded.household_id) == (
        "Amsterdam Setembro/2026", Money.of("6000", "EUR"), date(2026, 6, 1), date(2026, 9, 1), "casa-1")
    assert [(m.id, m.name) for m in loaded.members] == [(ana.id, "Ana"), (bruno.id, "Bruno")]
    assert [(c.paid_by.name, c.amount, c.date) for c in loaded.contributions] == [
        ("Ana", brl("500.05"), date(2026, 6, 15)), ("Bruno", Money.of("0.01", "EUR"), date(2026, 6, 16))]
    assert loaded.contributions[0].paid_by in loaded.members
    assert loaded.saved_by_currency() == {"BRL": brl("500.05"), "EUR": Money.of("0.01", "EUR")}
    assert no_deadline.deadline is None
    assert no_deadline.target == Money.of("1000000", "JPY")
    assert no_deadline.required_monthly(date(2026, 7, 1)) is None


async def test_goals_are_listed_by_household(database: Database) -> None:
    repo = SqlGoalRepository(database)
    household = Household.create("Casa", "BRL")
    ana = household.add_member("Ana")
    for name, owner in [("Viagem", "casa-1"), ("Carro", "casa-2"), ("Reserva", "casa-1")]:
        await repo.save(Goal.create(name, brl("100"), members=[ana], created_at=date(2026, 6, 1),
                                    household_id=owner))

    assert sorted(g.name for g in await repo.list("casa-1")) == ["Reserva", "Viagem"]
    assert sorted(g.name for g in await repo.list()) == ["Carro", "Reserva", "Viagem"]
    assert await repo.list("casa-3") == []


async def test_loading_an_unknown_id_raises_not_found(database: Database) -> None:
    with pytest.raises(NotFound):
        await SqlBudgetRepository(database).load("nope")
    with pytest.raises(NotFound):
        await SqlGoalRepository(database).load("nope")
    with pytest.raises(NotFound):
        await SqlHouseholdRepository(database).load("nope")


async def test_a_stale_save_is_refused_and_overwrites_nothing(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    budget = Budget.create("BRL", id="orc-1")
    budget.register("Mercado", brl("1500"))
    await repo.save(budget)
    first, second = await repo.load("orc-1"), await repo.load("orc-1")
    first.find_by_name("Mercado").add_to_actual(JUNE, brl("10"))
    await repo.save(first)

    second.find_by_name("Mercado").add_to_actual(JUNE, brl("99"))
    second.register("Farmácia", brl("50"))
    with pytest.raises(ConcurrentModification):
        await repo.save(second)

    stored = await repo.load("orc-1")
    assert stored.version == 2
    assert [e.name for e in stored.expenses] == ["Mercado"]
    assert stored.expenses[0].actual_for(JUNE) == brl("10")


async def test_a_stale_goal_or_household_save_is_refused(database: Database) -> None:
    households, goals = SqlHouseholdRepository(database), SqlGoalRepository(database)
    household = Household.create("Casa", "BRL", id="casa-1")
    ana = household.add_member("Ana")
    await households.save(household)
    goal = Goal.create("Viagem", brl("100"), members=[ana], created_at=date(2026, 6, 1))
    await goals.save(goal)
    stale_household, stale_goal = await households.load("casa-1"), await goals.load(goal.id)
    household.add_member("Bruno")
    await households.save(household)
    goal.contribute(ana, brl("1"), date(2026, 6, 2))
    await goals.save(goal)

    stale_household.add_member("Carla")
    stale_goal.contribute(ana, brl("2"), date(2026, 6, 3))
    with pytest.raises(ConcurrentModification):
        await households.save(stale_household)
    with pytest.raises(ConcurrentModification):
        await goals.save(stale_goal)

    assert [m.name for m in (await households.load("casa-1")).members] == ["Ana", "Bruno"]
    assert [c.amount for c in (await goals.load(goal.id)).contributions] == [brl("1")]


async def test_a_second_new_aggregate_with_a_taken_id_is_refused(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    await repo.save(Budget.create("BRL", id="orc-1"))

    with pytest.raises(ConcurrentModification):
        await repo.save(Budget.create("EUR", id="orc-1"))

    assert (await repo.load("orc-1")).currency == "BRL"


async def test_an_aggregate_loaded_elsewhere_is_saved_by_difference_with_the_store(
        database: Database) -> None:
    budget = Budget.create("BRL", id="orc-1")
    budget.register("Mercado", brl("1500"), aliases=["feira"])
    budget.expenses[0].add_to_actual(JUNE, brl("1"))
    await SqlBudgetRepository(database).save(budget)
    # A second Database knows nothing of what `budget` looked like when it was loaded.
    other = Database(database.engine)
    budget.expenses[0].add_to_actual(JULY, brl("2"))
    budget.register("Farmácia", brl("50"))

    await SqlBudgetRepository(other).save(budget)

    stored = await SqlBudgetRepository(database).load("orc-1")
    assert [(e.name, e.aliases) for e in stored.expenses] == [("Mercado", ("feira",)), ("Farmácia", ())]
    assert stored.expenses[0].actuals == {JUNE: brl("1"), JULY: brl("2")}
    assert stored.version == 2


async def test_saving_one_spend_writes_the_same_few_rows_whatever_the_history(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    budget = Budget.create("BRL", id="orc-1")
    market = budget.register("Mercado", brl("1500"))
    for month in range(1, 241):
        market.replace_actual(Period(2000 + (month - 1) // 12, (month - 1) % 12 + 1), brl("1.01"))
    await repo.save(budget)
    loaded = await repo.load("orc-1")
    loaded.expenses[0].add_to_actual(JUNE, brl("37.90"))
    log = StatementLog(database)

    await repo.save(loaded)

    log.close()
    assert log.rows == 2  # the version bump, and the one month's ledger entry
    async with database.reading() as connection:
        # 240 months, the expense's registration and the new spend
        assert (await connection.execute(select(func.count()).select_from(ledger_entries))).scalar_one() == 242


async def test_saving_one_contribution_inserts_only_that_contribution(database: Database) -> None:
    repo = SqlGoalRepository(database)
    household = Household.create("Casa", "BRL")
    ana = household.add_member("Ana")
    goal = Goal.create("Reserva", brl("100000"), members=[ana], created_at=date(2020, 1, 1))
    for day in range(1, 201):
        goal.contribute(ana, brl("0.01"), date(2020, 1, 1) + timedelta(days=day))
    await repo.save(goal)
    loaded = await repo.load(goal.id)
    loaded.contribute(loaded.members[0], brl("500"), date(2026, 6, 15))
    log = StatementLog(database)

    await repo.save(loaded)

    log.close()
    assert log.rows == 2  # the version bump, and the contribution's ledger entry
    reloaded = await repo.load(goal.id)
    assert reloaded.saved_by_currency() == {"BRL": brl("502.00")}
    async with database.reading() as connection:
        # 201 contributions and the goal's creation
        assert (await connection.execute(select(func.count()).select_from(ledger_entries))).scalar_one() == 202


async def test_a_budget_can_be_loaded_with_only_the_months_a_caller_needs(database: Database) -> None:
    repo = SqlBudgetRepository(database)
    budget = Budget.create("BRL", id="orc-1")
    market = budget.register("Mercado", brl("1500"))
    market.replace_actual(Period(2025, 1), brl("10"))
    market.replace_actual(JUNE, brl("20"))
    await repo.save(budget)

    partial = await repo.load("orc-1", periods=[JUNE])
    assert partial.expenses[0].loaded_periods == frozenset({JUNE})
    partial.expenses[0].add_to_actual(JUNE, brl("5"))
    await repo.save(partial)
    assert partial.expenses[0].actuals == {JUNE: brl("25")}
    with pytest.raises(LookupError, match="2026-07"):
        partial.expenses[0].add_to_actual(JULY, brl("1"))
    partial.expenses[0].actuals[JULY] = brl("1")  # behind the domain's back: the save refuses it
    with pytest.raises(ValueError, match="2026-07"):
        await repo.save(partial)

    partial.expenses[0].actuals.pop(JULY)
    partial.register("Farmácia", brl("50")).replace_actual(Period(2024, 1), brl("7"))  # new: nothing to clobber
    await repo.save(partial)

    stored = await repo.load("orc-1")
    assert stored.expenses[0].actuals == {Period(2025, 1): brl("10"), JUNE: brl("25")}
    assert stored.expenses[1].actuals == {Period(2024, 1): brl("7")}


async def test_a_renamed_expense_keeps_its_old_name_as_an_alias_in_the_store(database: Database) -> None:
    repository = SqlBudgetRepository(database)
    budget = Budget.create("BRL")
    budget.register("Mercado", brl("1500"), aliases=["supermercado"])
    await repository.save(budget)
    loaded = await repository.load(budget.id, periods=())
    loaded.rename("mercado", "Feira")
    await repository.save(loaded)

    again = await SqlBudgetRepository(database).load(budget.id, periods=())

    assert again.find_by_name("mercado").name == "Feira"
    assert again.find_by_name("Feira").aliases == ("supermercado", "Mercado")
