from __future__ import annotations

from decimal import Decimal

import pytest

from domain.budget import Budget, RecurringExpense
from domain.errors import (
    CurrencyMismatch,
    DuplicateName,
    InvalidArgument,
    InvalidMoney,
    UnknownExpense,
)
from domain.money import Money, Period

JUNE = Period(2026, 6)
JULY = Period(2026, 7)


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def budget() -> Budget:
    return Budget.create("BRL", id="b1", household_id="h1")


def budget_with_groceries() -> tuple[Budget, RecurringExpense]:
    b = budget()
    return b, b.register("Mercado", brl(1500), aliases=["supermercado"])


# --- create and register ----------------------------------------------------------------


def test_a_budget_is_created_empty_in_its_currency() -> None:
    b = Budget.create("brl", id="b1", household_id="h1")

    assert (b.id, b.currency, b.household_id) == ("b1", "BRL", "h1")
    assert b.expenses == []
    assert b.income is None


def test_a_budget_without_an_id_gets_a_fresh_one() -> None:
    assert Budget.create("BRL").id != Budget.create("BRL").id


def test_a_budget_in_an_unknown_currency_is_refused_naming_it() -> None:
    with pytest.raises(InvalidMoney, match="XYZ"):
        Budget.create("XYZ")


def test_register_keeps_every_field() -> None:
    b = budget()

    rent = b.register(
        "Aluguel",
        brl(2500),
        aliases=["casa", "apartamento"],
        category="Moradia",
        billing_day=10,
        payment_method="Pix",
    )

    assert rent.name == "Aluguel"
    assert rent.expected == brl(2500)
    assert rent.aliases == ("casa", "apartamento")
    assert rent.category == "Moradia"
    assert rent.billing_day == 10
    assert rent.payment_method == "Pix"
    assert b.expenses == [rent]


def test_register_leaves_the_optional_fields_empty_by_default() -> None:
    b = budget()

    water = b.register("Água", brl("120.50"))

    assert water.aliases == ()
    assert water.category is None
    assert water.billing_day is None
    assert water.payment_method is None


@pytest.mark.parametrize("day", [1, 15, 31])
def test_a_billing_day_from_1_to_31_is_accepted(day: int) -> None:
    assert budget().register("Luz", brl(200), billing_day=day).billing_day == day


@pytest.mark.parametrize(
    ("day", "named"), [(0, "0"), (32, "32"), (-1, "-1"), ("10", "'10'"), (True, "True"), (10.0, "10.0")]
)
def test_a_billing_day_outside_1_to_31_is_refused_naming_the_value(day: object, named: str) -> None:
    b = budget()

    with pytest.raises(InvalidArgument) as refused:
        b.register("Luz", brl(200), billing_day=day)  # type: ignore[arg-type]

    assert named in str(refused.value)
    assert b.expenses == []


def test_an_alias_equal_to_the_name_is_harmless() -> None:
    b = budget()

    water = b.register("Água", brl(120), aliases=["agua", "Água", "conta de água"])

    assert water.aliases == ("conta de água",)
    assert b.find_by_name("agua") is water


def test_repeated_aliases_are_kept_once() -> None:
    water = budget().register("Água", brl(120), aliases=["Sabesp", "sabesp", "SABESP"])

    assert water.aliases == ("Sabesp",)


def test_a_name_taken_by_another_expense_is_refused() -> None:
    b, _ = budget_with_groceries()

    with pytest.raises(DuplicateName, match="mercado"):
        b.register("mercado", brl(100))

    assert [e.name for e in b.expenses] == ["Mercado"]


def test_a_name_taken_by_another_expenses_alias_is_refused_naming_the_owner() -> None:
    b, _ = budget_with_groceries()

    with pytest.raises(DuplicateName) as refused:
        b.register("Supermercado", brl(100))

    assert refused.value.name == "Supermercado"
    assert "Mercado" in refused.value.owner
    assert len(b.expenses) == 1


def test_an_alias_taken_by_another_expense_is_refused() -> None:
    b, _ = budget_with_groceries()

    with pytest.raises(DuplicateName, match="Supermercado"):
        b.register("Feira", brl(300), aliases=["Supermercado"])

    assert len(b.expenses) == 1


def test_an_expected_amount_in_another_currency_is_refused() -> None:
    b = budget()

    with pytest.raises(InvalidMoney, match="EUR"):
        b.register("Netflix", Money.of("9.99", "EUR"))

    assert b.expenses == []


def test_a_negative_expected_amount_is_refused() -> None:
    with pytest.raises(InvalidMoney, match="-10"):
        budget().register("Luz", brl(-10))


def test_an_empty_expense_name_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        budget().register(" ", brl(10))


# --- find_by_name ----------------------------------------------------------------------


def test_find_by_name_finds_by_name_and_by_alias() -> None:
    b, groceries = budget_with_groceries()

    assert b.find_by_name("Mercado") is groceries
    assert b.find_by_name("supermercado") is groceries


@pytest.mark.parametrize("asked", ["agua", "AGUA", "água", "  Água  ", "Agua"])
def test_find_by_name_ignores_case_and_accents(asked: str) -> None:
    b = budget()
    water = b.register("Água", brl(120))

    assert b.find_by_name(asked) is water


def test_an_unknown_expense_is_refused_naming_it_and_listing_the_known_ones() -> None:
    b, _ = budget_with_groceries()
    b.register("Aluguel", brl(2500))

    with pytest.raises(UnknownExpense) as refused:
        b.find_by_name("Academia")

    assert refused.value.name == "Academia"
    assert '"Academia"' in str(refused.value)
    assert "Aluguel, Mercado" in str(refused.value)


# --- actuals ----------------------------------------------------------------------------


def test_actual_is_zero_in_the_budgets_currency_when_nothing_was_recorded() -> None:
    _, groceries = budget_with_groceries()

    assert groceries.actual_for(JUNE) == Money.zero("BRL")
    assert groceries.actual_for(JUNE).currency == "BRL"


def test_add_to_actual_adds_deltas_within_the_month() -> None:
    _, groceries = budget_with_groceries()

    groceries.add_to_actual(JUNE, brl(200))
    new_actual = groceries.add_to_actual(JUNE, brl("37.90"))

    assert new_actual == brl("237.90")
    assert groceries.actual_for(JUNE) == brl("237.90")
    assert groceries.actual_for(JULY) == Money.zero("BRL")


def test_three_deltas_of_ten_cents_make_exactly_thirty_cents() -> None:
    _, groceries = budget_with_groceries()

    for _ in range(3):
        groceries.add_to_actual(JUNE, brl("0.10"))

    assert groceries.actual_for(JUNE).amount == Decimal("0.30")


def test_a_negative_delta_corrects_the_actual() -> None:
    _, groceries = budget_with_groceries()
    groceries.add_to_actual(JUNE, brl(200))

    assert groceries.add_to_actual(JUNE, brl(-50)) == brl(150)


def test_a_delta_that_would_leave_the_actual_negative_is_refused() -> None:
    _, groceries = budget_with_groceries()
    groceries.add_to_actual(JUNE, brl(20))

    with pytest.raises(InvalidMoney, match="Mercado"):
        groceries.add_to_actual(JUNE, brl(-50))

    assert groceries.actual_for(JUNE) == brl(20)


def test_replace_actual_replaces_the_months_actual() -> None:
    _, groceries = budget_with_groceries()
    groceries.add_to_actual(JUNE, brl(200))

    assert groceries.replace_actual(JUNE, brl(1800)) == brl(1800)
    assert groceries.actual_for(JUNE) == brl(1800)


def test_a_negative_spend_is_refused() -> None:
    _, groceries = budget_with_groceries()

    with pytest.raises(InvalidMoney):
        groceries.replace_actual(JUNE, brl(-1))

    assert groceries.actual_for(JUNE) == Money.zero("BRL")


def test_a_delta_in_another_currency_is_refused_and_nothing_changes() -> None:
    _, groceries = budget_with_groceries()

    with pytest.raises(CurrencyMismatch, match="EUR"):
        groceries.add_to_actual(JUNE, Money.of(10, "EUR"))

    assert groceries.actual_for(JUNE) == Money.zero("BRL")


def test_a_spend_in_another_currency_is_refused_and_nothing_changes() -> None:
    _, groceries = budget_with_groceries()

    with pytest.raises(CurrencyMismatch, match="USD"):
        groceries.replace_actual(JUNE, Money.of(10, "USD"))

    assert groceries.actual_for(JUNE) == Money.zero("BRL")


# --- adjust, income, totals ---------------------------------------------------------------


def test_adjust_amount_changes_the_expected_amount_found_by_alias() -> None:
    b, groceries = budget_with_groceries()

    adjusted = b.adjust_amount("SUPERMERCADO", brl(1800))

    assert adjusted is groceries
    assert groceries.expected == brl(1800)


def test_adjust_amount_of_an_unknown_expense_is_refused_naming_it() -> None:
    b, _ = budget_with_groceries()

    with pytest.raises(UnknownExpense, match="Academia"):
        b.adjust_amount("Academia", brl(100))


def test_adjust_amount_in_another_currency_is_refused_and_nothing_changes() -> None:
    b, groceries = budget_with_groceries()

    with pytest.raises(InvalidMoney):
        b.adjust_amount("Mercado", Money.of(1800, "EUR"))

    assert groceries.expected == brl(1500)


def test_set_income_keeps_the_monthly_income() -> None:
    b = budget()

    b.set_income(brl(12000))

    assert b.income == brl(12000)


def test_income_in_another_currency_or_negative_is_refused() -> None:
    b = budget()

    with pytest.raises(InvalidMoney, match="EUR"):
        b.set_income(Money.of(2000, "EUR"))
    with pytest.raises(InvalidMoney):
        b.set_income(brl(-1))

    assert b.income is None


def test_totals_add_up_expected_and_actual_amounts() -> None:
    b, groceries = budget_with_groceries()
    rent = b.register("Aluguel", brl(2500))
    b.register("Água", brl("120.50"))
    groceries.add_to_actual(JUNE, brl("37.90"))
    rent.replace_actual(JUNE, brl(2500))
    rent.replace_actual(JULY, brl(2600))

    assert b.expected_total() == brl("4120.50")
    assert b.actual_total(JUNE) == brl("2537.90")
    assert b.actual_total(JULY) == brl(2600)


def test_totals_of_an_empty_budget_are_zero_in_its_currency() -> None:
    b = Budget.create("EUR")

    assert b.expected_total() == Money.zero("EUR")
    assert b.actual_total(JUNE) == Money.zero("EUR")
