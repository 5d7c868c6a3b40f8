"""An expense's expected amount per month survives the store, on SQLite and PostgreSQL."""

from __future__ import annotations

from domain.budget import Budget
from domain.money import Money, Period
from infra.db import Database, SqlBudgetRepository


def brl(amount: int) -> Money:
    return Money.of(amount, "BRL")


async def test_a_months_expected_amount_and_the_month_an_expense_began_are_kept(
        database: Database) -> None:
    repository = SqlBudgetRepository(database)
    budget = Budget.create("BRL")
    budget.register("Mercado", brl(1500), since=Period(2026, 6))
    budget.register("Luz", brl(200))  # as registered before history was kept
    await repository.save(budget)

    loaded = await repository.load(budget.id, periods=[Period(2026, 12)])
    loaded.adjust_amount("mercado", brl(1800), effective=Period(2026, 12))
    loaded.adjust_amount("luz", brl(250), effective=Period(2026, 12))
    await repository.save(loaded)
    # November's actuals too: a month's totals count what was spent in it (issue 26, finding 3).
    again = await SqlBudgetRepository(database).load(budget.id, periods=[Period(2026, 11)])

    mercado, luz = again.find_by_name("Mercado"), again.find_by_name("Luz")
    assert mercado.expected == brl(1800)
    assert (mercado.expected_for(Period(2026, 11)), mercado.expected_for(Period(2026, 12))) == (brl(1500), brl(1800))
    assert not mercado.existed_in(Period(2026, 5)) and mercado.existed_in(Period(2026, 6))
    assert (luz.expected_for(Period(2020, 1)), luz.expected_for(Period(2027, 1))) == (brl(200), brl(250))
    assert again.expected_total_for(Period(2026, 11)) == brl(1700)


async def test_the_month_an_expense_was_archived_in_is_kept(database: Database) -> None:
    repository = SqlBudgetRepository(database)
    budget = Budget.create("BRL")
    budget.register("Farmácia", brl(100), since=Period(2026, 6))
    budget.register("Academia", brl(120), since=Period(2026, 6))
    await repository.save(budget)
    loaded = await repository.load(budget.id, periods=[Period(2026, 6)])
    loaded.find_by_name("farmácia").add_to_actual(Period(2026, 6), brl(50))
    loaded.archive("farmácia", since=Period(2026, 7))
    loaded.archive("academia", since=Period(2026, 7))
    await repository.save(loaded)

    june = await SqlBudgetRepository(database).load(budget.id, periods=[Period(2026, 6)])
    july = await SqlBudgetRepository(database).load(budget.id, periods=[Period(2026, 7)])

    assert [e.archived_since for e in june.expenses] == [Period(2026, 7), Period(2026, 7)]
    assert [e.name for e in june.expenses_in(Period(2026, 6))] == ["Farmácia", "Academia"]
    assert june.actual_total(Period(2026, 6)) == brl(50)
    assert june.expected_total_for(Period(2026, 6)) == brl(220)
    assert july.expenses_in(Period(2026, 7)) == []
