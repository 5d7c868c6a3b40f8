from __future__ import annotations

import operator
from collections.abc import Callable
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import CurrencyMismatch, DomainError, InvalidMoney, InvalidPeriod
from domain.money import Money, Period, currency_code, minor_units

# Cents-exact amounts well inside the 10**12 limit, so sums of a few never overflow it.
cents = st.integers(min_value=-(10**11), max_value=10**11).map(lambda c: Decimal(c).scaleb(-2))
brl = cents.map(lambda amount: Money.of(amount, "BRL"))
codes = st.sampled_from(["BRL", "EUR", "USD", "GBP", "JPY"])
examples = settings(max_examples=200)


# --- Money.of: what it accepts ---------------------------------------------------------


def test_an_int_is_accepted_as_an_exact_amount() -> None:
    money = Money.of(200, "BRL")

    assert money.amount == Decimal(200)
    assert money.currency == "BRL"


def test_a_string_is_read_as_its_exact_decimal() -> None:
    assert Money.of("37.90", "BRL").amount == Decimal("37.90")


def test_a_decimal_is_kept_as_given() -> None:
    assert Money.of(Decimal("0.10"), "EUR").amount == Decimal("0.10")


def test_the_currency_code_is_upper_cased() -> None:
    assert Money.of(1, "eur").currency == "EUR"


def test_trailing_zeros_beyond_the_minor_unit_are_not_extra_decimals() -> None:
    assert Money.of("1.230", "BRL") == Money.of("1.23", "BRL")


def test_money_is_frozen() -> None:
    money = Money.of(1, "BRL")

    with pytest.raises(AttributeError):
        money.amount = Decimal(2)  # type: ignore[misc]


def test_money_errors_are_domain_errors() -> None:
    assert issubclass(InvalidMoney, DomainError)
    assert issubclass(CurrencyMismatch, DomainError)


# --- Money.of: what it refuses, naming the value ----------------------------------------


def test_a_float_is_refused_naming_the_value() -> None:
    with pytest.raises(InvalidMoney, match=r"37\.9"):
        Money.of(37.9, "BRL")  # type: ignore[arg-type]


def test_a_bool_is_refused_naming_the_value_and_not_called_a_float() -> None:
    with pytest.raises(InvalidMoney, match="True") as refused:
        Money.of(True, "BRL")

    assert "float" not in str(refused.value)


@pytest.mark.parametrize("amount", ["NaN", Decimal("NaN"), Decimal("sNaN")])
def test_not_a_number_is_refused_naming_the_value(amount: str | Decimal) -> None:
    with pytest.raises(InvalidMoney, match="NaN"):
        Money.of(amount, "BRL")


@pytest.mark.parametrize("amount", ["Infinity", "-Infinity", Decimal("Infinity"), Decimal("-Infinity")])
def test_an_infinity_is_refused_naming_the_value(amount: str | Decimal) -> None:
    with pytest.raises(InvalidMoney, match="Infinity"):
        Money.of(amount, "BRL")


def test_text_that_is_not_a_number_is_refused_naming_it() -> None:
    with pytest.raises(InvalidMoney, match="duzentos"):
        Money.of("duzentos", "BRL")


@pytest.mark.parametrize("amount", [10**12, -(10**12), "1000000000000", "1e12", 10**15])
def test_a_magnitude_of_ten_to_the_twelfth_or_more_is_refused_naming_the_value(amount: int | str) -> None:
    with pytest.raises(InvalidMoney) as refused:
        Money.of(amount, "BRL")

    assert str(amount) in str(refused.value)


def test_just_under_ten_to_the_twelfth_is_accepted() -> None:
    assert Money.of("999999999999.99", "BRL").amount == Decimal("999999999999.99")


def test_an_unknown_currency_code_is_refused_naming_it() -> None:
    with pytest.raises(InvalidMoney, match="XYZ"):
        Money.of(1, "XYZ")


@pytest.mark.parametrize("code", ["R$", "EURO", "EU", "", "B1L", "€"])
def test_a_malformed_currency_code_is_refused_naming_it(code: str) -> None:
    with pytest.raises(InvalidMoney) as refused:
        Money.of(1, code)

    assert repr(code) in str(refused.value)


def test_a_currency_code_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidMoney, match="None"):
        Money.of(1, None)  # type: ignore[arg-type]


def test_more_decimals_than_the_currency_has_are_refused_naming_the_value() -> None:
    with pytest.raises(InvalidMoney, match=r"1\.234"):
        Money.of("1.234", "BRL")


def test_yen_with_decimals_is_refused_naming_the_value() -> None:
    with pytest.raises(InvalidMoney, match=r"1500\.5"):
        Money.of("1500.5", "JPY")


def test_whole_yen_are_accepted() -> None:
    assert Money.of(1500, "JPY").amount == Decimal(1500)


def test_currency_code_and_minor_units_come_from_the_iso_list() -> None:
    assert currency_code(" brl ") == "BRL"
    assert minor_units("BRL") == 2
    assert minor_units("EUR") == 2
    assert minor_units("JPY") == 0


# --- Arithmetic and comparisons ----------------------------------------------------------


def test_addition_and_subtraction_within_one_currency() -> None:
    assert Money.of("10.50", "BRL") + Money.of("0.25", "BRL") == Money.of("10.75", "BRL")
    assert Money.of("10.50", "BRL") - Money.of("0.75", "BRL") == Money.of("9.75", "BRL")


def test_adding_different_currencies_raises_currency_mismatch_naming_both() -> None:
    with pytest.raises(CurrencyMismatch) as refused:
        Money.of(1, "BRL") + Money.of(1, "EUR")

    assert refused.value.currencies == ("BRL", "EUR")
    assert "BRL" in str(refused.value)
    assert "EUR" in str(refused.value)


def test_subtracting_different_currencies_raises_currency_mismatch() -> None:
    with pytest.raises(CurrencyMismatch):
        Money.of(1, "BRL") - Money.of(1, "EUR")


@pytest.mark.parametrize(
    "compare",
    [operator.lt, operator.le, operator.gt, operator.ge],
)
def test_ordering_different_currencies_raises_currency_mismatch(
    compare: Callable[[Money, Money], bool],
) -> None:
    with pytest.raises(CurrencyMismatch):
        compare(Money.of(1, "BRL"), Money.of(2, "EUR"))


def test_ordering_within_one_currency() -> None:
    small, large = Money.of("1.99", "BRL"), Money.of(2, "BRL")

    assert small < large
    assert small <= large
    assert large > small
    assert large >= small
    assert large >= Money.of("2.00", "BRL")


def test_equal_amounts_in_different_currencies_are_not_equal() -> None:
    assert Money.of(1, "BRL") != Money.of(1, "EUR")


def test_equal_money_hashes_alike_whatever_the_trailing_zeros() -> None:
    assert Money.of("1.5", "BRL") == Money.of("1.50", "BRL")
    assert hash(Money.of("1.5", "BRL")) == hash(Money.of("1.50", "BRL"))


def test_zero_is_in_the_given_currency() -> None:
    zero = Money.zero("eur")

    assert zero == Money.of(0, "EUR")
    assert zero.is_zero
    assert not zero.is_positive


# --- Rounding -----------------------------------------------------------------------------


def test_rounded_goes_half_up_to_the_minor_unit() -> None:
    assert Money(Decimal("83.335"), "EUR").rounded().amount == Decimal("83.34")
    assert Money(Decimal("83.334"), "EUR").rounded().amount == Decimal("83.33")
    assert Money(Decimal("0.125"), "BRL").rounded().amount == Decimal("0.13")


def test_rounded_yen_goes_half_up_to_whole_yen() -> None:
    assert Money(Decimal("2.5"), "JPY").rounded().amount == Decimal(3)


def test_divided_by_rounds_half_up() -> None:
    assert Money.of("0.05", "BRL").divided_by(2).amount == Decimal("0.03")
    assert Money.of(100, "BRL").divided_by(3).amount == Decimal("33.33")
    assert Money.of(6000, "EUR").divided_by(24).fixed() == "EUR 250.00"


def test_divided_by_a_non_positive_count_is_refused() -> None:
    with pytest.raises(ValueError):
        Money.of(1, "BRL").divided_by(0)


# --- Minor units ----------------------------------------------------------------------------


def test_minor_units_round_trip() -> None:
    assert Money.of("37.90", "BRL").to_minor_units() == 3790
    assert Money.from_minor_units(3790, "BRL") == Money.of("37.90", "BRL")
    assert Money.of(1500, "JPY").to_minor_units() == 1500
    assert Money.from_minor_units(1500, "JPY") == Money.of(1500, "JPY")


def test_fractions_of_a_cent_cannot_become_minor_units() -> None:
    with pytest.raises(InvalidMoney):
        Money(Decimal("0.005"), "BRL").to_minor_units()


# --- Text -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (6000, "EUR", "EUR 6000"),
        (Decimal("6E+3"), "EUR", "EUR 6000"),
        ("6000.00", "EUR", "EUR 6000"),
        ("37.90", "BRL", "BRL 37.9"),
        ("37.9", "BRL", "BRL 37.9"),
        ("0.00", "BRL", "BRL 0"),
        ("-12.50", "BRL", "BRL -12.5"),
    ],
)
def test_plain_shows_the_amount_without_trailing_zeros_or_exponent(
    amount: int | str | Decimal, currency: str, expected: str
) -> None:
    assert Money.of(amount, currency).plain() == expected


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (250, "EUR", "EUR 250.00"),
        (Decimal("6E+3"), "EUR", "EUR 6000.00"),
        ("37.9", "BRL", "BRL 37.90"),
        (1500, "JPY", "JPY 1500"),
    ],
)
def test_fixed_shows_the_currencys_minor_units(
    amount: int | str | Decimal, currency: str, expected: str
) -> None:
    assert Money.of(amount, currency).fixed() == expected
    assert str(Money.of(amount, currency)) == expected


# --- Period ----------------------------------------------------------------------------------


def test_a_period_is_parsed_from_year_and_month() -> None:
    period = Period.parse("2026-06")

    assert (period.year, period.month) == (2026, 6)
    assert str(period) == "2026-06"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("2026-13", "inválido: 13"),
        ("2026-00", "inválido: 0"),
        ("2026-6", "2026-6"),
        ("junho", "junho"),
        ("2026/06", "2026/06"),
        ("", "''"),
    ],
)
def test_a_malformed_period_is_refused_naming_it(text: str, named: str) -> None:
    with pytest.raises(InvalidPeriod) as refused:
        Period.parse(text)

    assert named in str(refused.value)


def test_periods_are_ordered_by_year_then_month() -> None:
    assert Period.parse("2025-12") < Period.parse("2026-01") < Period.parse("2026-02")
    assert max(Period.parse("2026-06"), Period.parse("2025-11")) == Period(2026, 6)
    assert sorted([Period(2026, 3), Period(2025, 12), Period(2026, 1)]) == [
        Period(2025, 12),
        Period(2026, 1),
        Period(2026, 3),
    ]


def test_equal_periods_are_equal_and_hash_alike() -> None:
    assert Period.parse("2026-06") == Period(2026, 6)
    assert len({Period.parse("2026-06"), Period(2026, 6)}) == 1


def test_previous_steps_back_one_month_across_the_year() -> None:
    assert Period(2026, 6).previous() == Period(2026, 5)
    assert Period(2026, 1).previous() == Period(2025, 12)


def test_a_period_is_frozen() -> None:
    period = Period(2026, 6)

    with pytest.raises(AttributeError):
        period.month = 7  # type: ignore[misc]


# --- Properties ------------------------------------------------------------------------------


@examples
@given(brl, brl, brl)
def test_addition_is_associative(a: Money, b: Money, c: Money) -> None:
    assert (a + b) + c == a + (b + c)


@examples
@given(brl, brl)
def test_addition_is_commutative(a: Money, b: Money) -> None:
    assert a + b == b + a


@examples
@given(brl, brl)
def test_subtraction_undoes_addition(a: Money, b: Money) -> None:
    assert (a + b) - b == a


def test_three_ten_cents_make_thirty_cents() -> None:
    ten_cents = Money.of("0.10", "BRL")

    assert ten_cents + ten_cents + ten_cents == Money.of("0.30", "BRL")


@examples
@given(st.integers(min_value=0, max_value=250))
def test_n_cents_summed_make_exactly_n_hundredths(n: int) -> None:
    total = sum([Money.of("0.01", "BRL")] * n, Money.zero("BRL"))

    assert total.amount == Decimal(n) / 100
    assert total.to_minor_units() == n


@examples
@given(cents, cents, st.lists(codes, min_size=2, max_size=2, unique=True))
def test_mixing_currencies_always_raises_currency_mismatch(a: Decimal, b: Decimal, pair: list[str]) -> None:
    left, right = pair
    x = Money(a, left)
    y = Money(b, right)
    with pytest.raises(CurrencyMismatch):
        x + y
    with pytest.raises(CurrencyMismatch):
        x - y
    with pytest.raises(CurrencyMismatch):
        x < y  # noqa: B015


@examples
@given(st.integers(min_value=-(10**14 - 1), max_value=10**14 - 1), st.sampled_from(["BRL", "EUR", "USD"]))
def test_minor_units_round_trip_for_any_count_of_cents(units: int, currency: str) -> None:
    money = Money.from_minor_units(units, currency)

    assert money.to_minor_units() == units
    assert Money.of(money.amount, currency) == money


@examples
@given(cents)
def test_money_round_trips_through_minor_units(amount: Decimal) -> None:
    money = Money.of(amount, "BRL")

    assert Money.from_minor_units(money.to_minor_units(), "BRL") == money
