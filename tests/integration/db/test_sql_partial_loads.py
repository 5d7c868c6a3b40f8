"""Partial loads over SQL: a goal without its history (its savings from the running totals), a
budget with only some months. What was not loaded cannot be read, and a save keeps it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, func, select

from domain.budget import Budget
from domain.errors import ConcurrentModification
from domain.goals import Goal
from domain.household import Household, Member
from domain.money import Money, Period
from infra.db import Database, SqlBudgetRepository, SqlGoalRepository
from infra.db.tables import ledger_entries as entries

JUNE = Period(2026, 6)
JULY = Period(2026, 7)
MAY = Period(2026, 5)


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


def eur(amount: str) -> Money:
    return Money.of(amount, "EUR")


class Statements:
    """Every statement sent, with its parameters and how many rows it carried."""

    def __init__(self, database: Database) -> None:
        self.seen: list[str] = []
        self.rows = 0
        self._engine = database.engine.sync_engine
        event.listen(self._engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
              executemany: bool) -> None:
        self.seen.append(" ".join(statement.split()))
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            self.rows += len(parameters) if executemany else 1

    @property
    def selects(self) -> list[str]:
        return [s for s in self.seen if s.upper().startswith("SELECT")]

    def close(self) -> None:
        event.remove(self._engine, "before_cursor_execute", self._seen)


def the_house() -> tuple[Member, Member]:
    household = Household.create("Casa", "BRL", id="casa-1")
    return household.add_member("Ana", id="m-ana"), household.add_member("Bruno", id="m-bruno")


async def a_trip(database: Database, *amounts: Money) -> Goal:
    ana, bruno = the_house()
    trip = Goal.create("Viagem", eur("6000"), members=[ana, bruno], created_at=date(2026, 6, 1),
                       deadline=date(2026, 12, 1), id="meta-1", household_id="casa-1")
    for n, amount in enumerate(amounts):
        trip.contribute([ana, bruno][n % 2], amount, date(2026, 6, 2 + n))
    await SqlGoalRepository(database).save(trip)
    return trip


async def contribution_entries(database: Database, goal_id: str) -> list[int]:
    """The goal's contribution entries' amounts, in the order they were written."""
    async with database.reading() as connection:
        return list((await connection.execute(
            select(entries.c.amount_minor).where(entries.c.goal_id == goal_id,
                                                 entries.c.kind == "contribution")
            .order_by(entries.c.id))).scalars())


async def summed_contributions(database: Database) -> dict[tuple[str, str], int]:
    async with database.reading() as connection:
        return {(goal_id, currency): int(amount) for goal_id, currency, amount in await connection.execute(
            select(entries.c.goal_id, entries.c.currency, func.sum(entries.c.amount_minor))
            .where(entries.c.kind == "contribution").group_by(entries.c.goal_id, entries.c.currency))}


async def test_a_goal_loads_without_its_history_with_its_savings_to_the_cent(database: Database) -> None:
    await a_trip(database, brl("0.10"), brl("0.20"), eur("0.01"))

    light = await SqlGoalRepository(database).load("meta-1", history=False)

    assert light.contributions == []
    assert light.saved_by_currency() == {"BRL": brl("0.30"), "EUR": eur("0.01")}
    assert light.saved_by_currency()["BRL"].amount == Decimal("0.30")
    assert (light.name, light.target, light.deadline, light.household_id, light.version) == (
        "Viagem", eur("6000"), date(2026, 12, 1), "casa-1", 1)
    assert [(m.id, m.name) for m in light.members] == [("m-ana", "Ana"), ("m-bruno", "Bruno")]
    assert light.saved_in_target_currency() == (await SqlGoalRepository(database).load("meta-1")) \
        .saved_in_target_currency()


async def test_a_goal_without_contributions_loads_without_history_with_no_savings(
        database: Database) -> None:
    await a_trip(database)

    light = await SqlGoalRepository(database).load("meta-1", history=False)

    assert (light.contributions, light.saved_by_currency(), light.prior_savings) == ([], {}, {})


async def test_a_contribution_saved_after_a_load_without_history_keeps_the_earlier_ones(
        database: Database) -> None:
    repo = SqlGoalRepository(database)
    await a_trip(database, brl("0.10"), brl("0.20"))
    light = await repo.load("meta-1", history=False)
    light.contribute(light.members[1], brl("0.05"), date(2026, 7, 1))
    log = Statements(database)

    await repo.save(light)

    log.close()
    assert log.rows == 2  # the version bump, the contribution's ledger entry
    assert not [s for s in log.selects if "FROM ledger_entries" in s]  # no history is read
    light.contribute(light.members[0], eur("1.00"), date(2026, 7, 2))
    await repo.save(light)  # the same object again: only the newest is added

    whole = await repo.load("meta-1")
    assert [(c.paid_by.name, c.amount, c.date) for c in whole.contributions] == [
        ("Ana", brl("0.10"), date(2026, 6, 2)), ("Bruno", brl("0.20"), date(2026, 6, 3)),
        ("Bruno", brl("0.05"), date(2026, 7, 1)), ("Ana", eur("1.00"), date(2026, 7, 2))]
    assert whole.saved_by_currency() == {"BRL": brl("0.35"), "EUR": eur("1.00")}
    assert whole.saved_by_currency() == (await repo.load("meta-1", history=False)).saved_by_currency()
    assert light.saved_by_currency() == whole.saved_by_currency()
    assert await contribution_entries(database, "meta-1") == [10, 20, 5, 100]
    assert await summed_contributions(database) == {("meta-1", "BRL"): 35, ("meta-1", "EUR"): 100}
    assert whole.version == 3


async def test_the_totals_follow_every_kind_of_save(database: Database) -> None:
    repo = SqlGoalRepository(database)
    await a_trip(database, brl("1.01"))  # a new goal's first save
    whole = await repo.load("meta-1")
    whole.contribute(whole.members[0], brl("2.02"), date(2026, 7, 1))
    await repo.save(whole)  # after a load with history
    whole.contributions.pop(0)  # no domain verb does this: the history is stored again, whole
    await repo.save(whole)

    reloaded = await repo.load("meta-1")
    assert [c.amount for c in reloaded.contributions] == [brl("2.02")]
    assert reloaded.saved_by_currency() == {"BRL": brl("2.02")}
    assert await summed_contributions(database) == {("meta-1", "BRL"): 202}


async def test_a_goal_loaded_without_history_cannot_have_its_history_rewritten(database: Database) -> None:
    repo = SqlGoalRepository(database)
    await a_trip(database, brl("1"))
    light = await repo.load("meta-1", history=False)
    light.contribute(light.members[0], brl("2"), date(2026, 7, 1))
    await repo.save(light)
    light.contributions.clear()

    with pytest.raises(ValueError, match="without its history"):
        await repo.save(light)

    assert (await repo.load("meta-1")).saved_by_currency() == {"BRL": brl("3")}


async def test_a_goal_loaded_without_history_elsewhere_is_appended_to_once(database: Database) -> None:
    await a_trip(database, brl("0.10"))
    light = await SqlGoalRepository(database).load("meta-1", history=False)
    light.contribute(light.members[0], brl("0.20"), date(2026, 7, 1))
    await SqlGoalRepository(database).save(light)
    light.contribute(light.members[1], brl("0.40"), date(2026, 7, 2))
    # A second Database knows nothing of `light`: the store's totals tell it what is stored.
    await SqlGoalRepository(Database(database.engine)).save(light)

    whole = await SqlGoalRepository(database).load("meta-1")
    assert [c.amount for c in whole.contributions] == [brl("0.10"), brl("0.20"), brl("0.40")]
    assert await summed_contributions(database) == {("meta-1", "BRL"): 70}


async def test_a_goal_whose_savings_are_not_the_stores_is_refused_as_stale(database: Database) -> None:
    await a_trip(database, brl("0.10"))
    light = await SqlGoalRepository(database).load("meta-1", history=False)
    light.prior_savings = {"BRL": brl("99")}
    light.contribute(light.members[0], brl("0.20"), date(2026, 7, 1))

    with pytest.raises(ConcurrentModification):
        await SqlGoalRepository(Database(database.engine)).save(light)

    assert await summed_contributions(database) == {("meta-1", "BRL"): 10}


async def test_goals_are_listed_without_history_in_three_queries_however_many(database: Database) -> None:
    repo = SqlGoalRepository(database)
    ana, _ = the_house()
    for n in range(6):
        goal = Goal.create(f"Meta {n}", brl("100"), members=[ana], created_at=date(2026, 6, 1 + n),
                           household_id="casa-1" if n != 3 else "casa-2")
        for cents in range(n):
            goal.contribute(ana, brl("0.10") if cents % 2 else eur("0.20"), date(2026, 7, 1))
        await repo.save(goal)
    log = Statements(database)

    light = await repo.list("casa-1", history=False)

    log.close()
    assert len(log.selects) == 3  # the roots, their savings (SUMs over the ledger), their members
    whole = await repo.list("casa-1")
    assert [g.name for g in light] == [g.name for g in whole] == ["Meta 0", "Meta 1", "Meta 2", "Meta 4", "Meta 5"]
    assert [g.saved_by_currency() for g in light] == [g.saved_by_currency() for g in whole]
    assert light[-1].saved_by_currency() == {"EUR": eur("0.60"), "BRL": brl("0.20")}
    assert all(g.contributions == [] and g.members == [ana] for g in light)
    assert len(await repo.list(history=False)) == 6
    assert await repo.list("casa-3", history=False) == []


async def test_a_goal_listed_without_history_can_take_a_contribution(database: Database) -> None:
    repo = SqlGoalRepository(database)
    await a_trip(database, brl("0.10"))
    [listed] = await repo.list("casa-1", history=False)
    listed.contribute(listed.members[0], brl("0.20"), date(2026, 7, 1))

    await repo.save(listed)

    assert (await repo.load("meta-1")).saved_by_currency() == {"BRL": brl("0.30")}
    assert await summed_contributions(database) == {("meta-1", "BRL"): 30}


async def market(database: Database) -> SqlBudgetRepository:
    repo = SqlBudgetRepository(database)
    budget = Budget.create("BRL", id="orc-1")
    market = budget.register("Mercado", brl("1500"))
    market.replace_actual(MAY, brl("10.10"))
    market.replace_actual(JUNE, brl("20.20"))
    budget.register("Farmácia", brl("50")).replace_actual(MAY, brl("0.10"))
    await repo.save(budget)
    return repo


async def test_a_month_not_loaded_refuses_to_be_read_and_is_kept_by_a_save(database: Database) -> None:
    repo = await market(database)
    june = await repo.load("orc-1", periods=[JUNE])
    mercado, farmacia = june.expenses

    assert mercado.actuals == {JUNE: brl("20.20")} and farmacia.actuals == {}
    assert mercado.actual_for(JUNE) == brl("20.20") and farmacia.actual_for(JUNE) == brl("0")
    with pytest.raises(LookupError, match="2026-05"):
        mercado.actual_for(MAY)
    with pytest.raises(LookupError):
        farmacia.replace_actual(MAY, brl("1"))
    mercado.add_to_actual(JUNE, brl("0.10"))
    farmacia.add_to_actual(JUNE, brl("0.20"))
    await repo.save(june)
    mercado.actuals.pop(JUNE)  # a loaded month removed is deleted; the others stay
    await repo.save(june)

    whole = await repo.load("orc-1")
    assert whole.expenses[0].actuals == {MAY: brl("10.10")}
    assert whole.expenses[1].actuals == {MAY: brl("0.10"), JUNE: brl("0.20")}


async def test_a_budget_loaded_for_no_month_keeps_them_all(database: Database) -> None:
    repo = await market(database)
    bare = await repo.load("orc-1", periods=())
    assert all(e.actuals == {} and e.loaded_periods == frozenset() for e in bare.expenses)
    bare.adjust_amount("Mercado", brl("1600"))
    bare.set_income(brl("5000"))
    bare.register("Luz", brl("200")).replace_actual(JULY, brl("180"))

    await repo.save(bare)

    whole = await repo.load("orc-1")
    assert [(e.name, e.expected) for e in whole.expenses] == [
        ("Mercado", brl("1600")), ("Farmácia", brl("50")), ("Luz", brl("200"))]
    assert [e.actuals for e in whole.expenses] == [
        {MAY: brl("10.10"), JUNE: brl("20.20")}, {MAY: brl("0.10")}, {JULY: brl("180")}]
    assert whole.income == brl("5000")


async def test_a_budget_loaded_for_one_month_elsewhere_keeps_the_others(database: Database) -> None:
    repo = await market(database)
    june = await repo.load("orc-1", periods=[JUNE])
    june.expenses[0].add_to_actual(JUNE, brl("1"))

    # Another Database diffs against the whole store: the months not loaded must still stay.
    await SqlBudgetRepository(Database(database.engine)).save(june)

    whole = await repo.load("orc-1")
    assert whole.expenses[0].actuals == {MAY: brl("10.10"), JUNE: brl("21.20")}
    assert whole.expenses[1].actuals == {MAY: brl("0.10")}
