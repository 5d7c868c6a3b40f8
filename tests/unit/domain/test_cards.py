"""Credit cards: which fatura a purchase falls in, when a fatura closes and falls due, and how a
purchase splits into parcelas (domain.cards), for every closing day of the month."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from domain.budget import Budget
from domain.cards import MAX_INSTALLMENTS, Card, OpenInstallments, UnknownCard, installments_of, parcelas
from domain.errors import DomainError, DuplicateName, InvalidArgument, InvalidMoney
from domain.household import Household
from domain.money import Money, Period
from domain.statements import counted_before, parcela_of, statement_faturas


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


def days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


# December to April of a common year (2027) and of a leap year (2028): every short month's end.
AROUND_FEBRUARY = days(date(2026, 12, 1), date(2027, 4, 30)) + days(date(2027, 12, 1), date(2028, 4, 30))


@pytest.mark.parametrize("closing_day", range(1, 32))
def test_a_purchase_falls_in_the_first_fatura_that_closes_after_the_day_it_was_made(closing_day: int) -> None:
    card = Card("Nubank", closing_day, 10)

    for purchase in AROUND_FEBRUARY:
        fatura = card.fatura_of(purchase)
        # Before its own fatura's closing day, and on or after the one before it.
        assert purchase < card.closing_date(fatura), (closing_day, purchase)
        assert card.closing_date(fatura.previous()) <= purchase, (closing_day, purchase)
        assert fatura in (Period.of(purchase), Period.of(purchase).plus(1))


@pytest.mark.parametrize("closing_day", range(1, 32))
def test_a_fatura_closes_on_its_day_or_on_the_last_day_of_a_shorter_month(closing_day: int) -> None:
    card = Card("Nubank", closing_day, 10)

    assert card.closing_date(Period(2027, 2)) == date(2027, 2, min(closing_day, 28))
    assert card.closing_date(Period(2028, 2)) == date(2028, 2, min(closing_day, 29))
    assert card.closing_date(Period(2027, 4)) == date(2027, 4, min(closing_day, 30))
    assert card.closing_date(Period(2027, 1)) == date(2027, 1, closing_day)


def test_a_purchase_on_the_closing_day_goes_to_the_next_fatura_and_one_the_day_before_stays() -> None:
    card = Card("Nubank", 3, 10)

    assert card.fatura_of(date(2026, 6, 2)) == Period(2026, 6)
    assert card.fatura_of(date(2026, 6, 3)) == Period(2026, 7)
    assert card.fatura_of(date(2026, 12, 28)) == Period(2027, 1)  # across the year's end


def test_a_card_closing_on_the_31st_closes_on_the_last_day_of_february_in_common_and_leap_years() -> None:
    card = Card("Visa", 31, 8)

    assert card.fatura_of(date(2027, 2, 27)) == Period(2027, 2)
    assert card.fatura_of(date(2027, 2, 28)) == Period(2027, 3)  # the closing day itself
    assert card.fatura_of(date(2028, 2, 28)) == Period(2028, 2)  # 2028 has a 29th
    assert card.fatura_of(date(2028, 2, 29)) == Period(2028, 3)


@pytest.mark.parametrize("closing_day", range(1, 32))
@pytest.mark.parametrize("due_day", [1, 5, 10, 15, 25, 28, 29, 30, 31])
def test_a_fatura_falls_due_on_the_first_due_day_after_it_closes(closing_day: int, due_day: int) -> None:
    card = Card("Nubank", closing_day, due_day)

    for fatura in [Period(2027, m) for m in range(1, 13)] + [Period(2028, 2)]:
        closing, due = card.closing_date(fatura), card.due_date(fatura)
        assert closing < due <= closing + timedelta(days=31), (fatura, closing, due)
        # No day between them is a due day (the due day, or a shorter month's last day).
        for day in days(closing + timedelta(days=1), due - timedelta(days=1)):
            month_end = (day + timedelta(days=1)).day == 1
            assert not (day.day == due_day or (month_end and due_day > day.day)), (fatura, day)
        assert fatura in card.faturas_due_on(due)


def test_the_due_date_is_the_same_month_or_the_next_as_the_days_say() -> None:
    assert Card("Nubank", 3, 10).due_date(Period(2026, 7)) == date(2026, 7, 10)
    assert Card("Itaú", 25, 5).due_date(Period(2026, 7)) == date(2026, 8, 5)
    assert Card("Inter", 10, 10).due_date(Period(2026, 7)) == date(2026, 8, 10)  # never on the closing
    assert Card("Visa", 31, 30).due_date(Period(2027, 2)) == date(2027, 3, 30)
    assert Card("Nubank", 3, 10).faturas_due_on(date(2026, 7, 9)) == ()
    # A February too short for the due day: February's fatura and March's fall due together.
    assert Card("Nubank", 28, 29).faturas_due_on(date(2027, 3, 29)) == (Period(2027, 2), Period(2027, 3))


def test_parcelas_split_in_cents_with_the_remainder_on_the_first() -> None:
    assert installments_of(brl("1000"), 3) == (brl("333.34"), brl("333.33"), brl("333.33"))
    assert installments_of(brl("100"), 4) == (brl("25"), brl("25"), brl("25"), brl("25"))
    assert installments_of(brl("0.05"), 3) == (brl("0.03"), brl("0.01"), brl("0.01"))
    for total in ("1234.57", "0.48", "99999.99"):
        for count in (2, 7, 12, 48):
            parts = installments_of(brl(total), count)
            assert sum(parts, brl("0")) == brl(total) and len(parts) == count


@pytest.mark.parametrize("count", [0, -1, MAX_INSTALLMENTS + 1, True])
def test_a_number_of_parcelas_outside_one_to_48_is_refused(count: int) -> None:
    with pytest.raises(InvalidArgument):
        installments_of(brl("1000"), count)


def test_parcelas_of_less_than_a_cent_are_refused() -> None:
    with pytest.raises(InvalidMoney, match="menos de um centavo"):
        installments_of(brl("0.02"), 3)


def test_parcela_k_falls_k_minus_one_faturas_later_across_the_year_end() -> None:
    card = Card("Nubank", 3, 10)

    found = parcelas(card, brl("1200"), date(2026, 11, 20), 4)

    assert [(p.installment, p.installments, p.fatura) for p in found] == [
        (1, 4, Period(2026, 12)), (2, 4, Period(2027, 1)), (3, 4, Period(2027, 2)), (4, 4, Period(2027, 3))]
    assert [p.amount for p in found] == [brl("300")] * 4


# --------------------------------------------------------------------------- the budget's cards


def a_budget() -> tuple[Budget, Household]:
    home = Household.create("Casa", "BRL")
    home.add_member("Ana")
    home.add_member("Bruno")
    budget = Budget.create("BRL", household_id=home.id)
    budget.register("Mercado", brl("1000"), aliases=["supermercado"])
    return budget, home


def test_a_card_answers_to_its_name_and_aliases_in_any_case_or_accent() -> None:
    budget, _ = a_budget()
    budget.register_card("Itaú Visa", 5, 12, aliases=["itau", "Visa"])

    assert budget.find_card("ITAU VISA").name == "Itaú Visa"
    assert budget.find_card("visa").name == "Itaú Visa"
    with pytest.raises(UnknownCard, match=r'Cartão "Nubank" não encontrado.*Itaú Visa'):
        budget.find_card("Nubank")


def test_two_cards_with_one_name_or_alias_are_refused() -> None:
    budget, _ = a_budget()
    budget.register_card("Nubank", 3, 10, aliases=["roxinho"])

    with pytest.raises(DuplicateName):
        budget.register_card("nubank", 5, 12)
    with pytest.raises(DuplicateName):
        budget.register_card("Inter", 5, 12, aliases=["Roxinho"])


@pytest.mark.parametrize(("closing", "due"), [(0, 10), (32, 10), (3, 0), (3, 40)])
def test_closing_or_due_days_outside_one_to_31_are_refused(closing: int, due: int) -> None:
    budget, _ = a_budget()

    with pytest.raises(InvalidArgument, match="1 a 31"):
        budget.register_card("Nubank", closing, due)


def test_a_purchase_in_parcelas_is_a_spend_in_each_fatura_month_split_on_its_own() -> None:
    budget, home = a_budget()
    card = budget.register_card("Nubank", 3, 10)
    ana = home.member_named("Ana")
    mercado = budget.find_by_name("mercado")

    found = budget.record_purchase(mercado, brl("1000"), card=card, on=date(2026, 6, 15), installments=3,
                                   paid_by=ana, members=home.members)

    assert [p.fatura for p in found] == [Period(2026, 7), Period(2026, 8), Period(2026, 9)]
    assert [mercado.actual_for(p.fatura) for p in found] == [brl("333.34"), brl("333.33"), brl("333.33")]
    assert [(line.card.installment, line.card.installments) for line in mercado.lines if line.card] == \
        [(1, 3), (2, 3), (3, 3)]
    # Each parcela split on its own: R$ 333,33 leaves a cent, which goes to the payer.
    assert [sorted((s.member_name, s.owed) for s in line.shares) for line in mercado.lines] == [
        [("Ana", brl("166.67")), ("Bruno", brl("166.67"))],
        [("Ana", brl("166.67")), ("Bruno", brl("166.66"))],
        [("Ana", brl("166.67")), ("Bruno", brl("166.66"))]]


def test_a_card_with_parcelas_still_to_come_cannot_be_archived_and_says_how_many() -> None:
    budget, _ = a_budget()
    budget.register_card("Nubank", 3, 10)

    with pytest.raises(OpenInstallments, match="ainda tem 7 parcelas"):
        budget.archive_card("nubank", open_installments=7)
    assert budget.archive_card("nubank").archived
    with pytest.raises(DomainError):
        budget.find_card("Nubank")


# --------------------------------------------------------------------------- the month's limits


def test_a_spend_that_reaches_80_percent_notes_it_once_and_100_percent_once_more() -> None:
    budget, _ = a_budget()
    mercado = budget.find_by_name("Mercado")
    june = Period(2026, 6)

    mercado.add_to_actual(june, brl("500"))
    assert mercado.limits == []
    mercado.add_to_actual(june, brl("310"))  # 81 %
    mercado.add_to_actual(june, brl("50"))  # 86 %: already said
    mercado.add_to_actual(june, brl("200"))  # 106 %
    assert [(limit.expense, limit.percent) for limit in mercado.limits] == [("Mercado", 81), ("Mercado", 106)]


def test_falling_below_a_threshold_re_arms_it() -> None:
    budget, _ = a_budget()
    mercado = budget.find_by_name("Mercado")
    june = Period(2026, 6)

    mercado.add_to_actual(june, brl("900"))  # 90 %
    mercado.add_to_actual(june, brl("-300"))  # an undo: 60 %
    mercado.add_to_actual(june, brl("250"))  # 85 % again

    assert [limit.percent for limit in mercado.limits] == [90, 85]


def test_a_month_reaching_both_thresholds_at_once_says_it_once_with_the_percentage() -> None:
    budget, _ = a_budget()
    mercado = budget.find_by_name("Mercado")

    mercado.add_to_actual(Period(2026, 6), brl("1999.99"))

    assert [limit.percent for limit in mercado.limits] == [199]
    assert mercado.alerted[Period(2026, 6)] == frozenset({80, 100})


def test_a_higher_expected_amount_re_arms_the_thresholds_the_month_no_longer_reaches() -> None:
    budget, _ = a_budget()  # Mercado: R$ 1.000,00 a month
    mercado = budget.find_by_name("Mercado")
    june = Period(2026, 6)
    mercado.add_to_actual(june, brl("850"))  # 85 %: said

    budget.adjust_amount("Mercado", brl("1500"), effective=june)  # 56 % of the new amount
    mercado.add_to_actual(june, brl("350"))  # 80 % of R$ 1.500: said again

    assert [limit.percent for limit in mercado.limits] == [85, 80]
    assert mercado.alerted[june] == frozenset({80})


def test_a_lower_expected_amount_leaves_its_new_threshold_to_the_next_spend_and_an_earlier_month_alone() -> None:
    budget, _ = a_budget()
    mercado = budget.find_by_name("Mercado")
    may, june = Period(2026, 5), Period(2026, 6)
    mercado.add_to_actual(may, brl("850"))  # May: 85 %, said
    mercado.add_to_actual(june, brl("700"))  # June: 70 %

    budget.adjust_amount("Mercado", brl("800"), effective=june)  # June: 87 % of the new amount
    assert [limit.percent for limit in mercado.limits] == [85]  # the adjustment itself says nothing
    mercado.add_to_actual(june, brl("10"))

    assert [limit.percent for limit in mercado.limits] == [85, 88]
    assert mercado.alerted[may] == frozenset({80})


# --------------------------------------------------------------------------- a card statement's parcelas


@pytest.mark.parametrize(("description", "parcela"), [
    ("Netshoes - Parcela 3/10", (3, 10)),
    ("MAGAZINE LUIZA 03/10", (3, 10)),
    ("Geladeira parcela 2 de 12", (2, 12)),
    ("Mercado Extra", None),
    ("PAG BOLETO 12/05", None),  # 12 of 5: a date, not a parcela
    ("Loja 1/1", None),  # one parcela is a purchase
    ("Loja 2/60", None),  # beyond 48: not a parcela a card makes
    ("Uber 99 Pop", None),
])
def test_a_card_statement_line_says_its_parcela_as_banks_write_it(description: str,
                                                                 parcela: tuple[int, int] | None) -> None:
    assert parcela_of(description) == parcela


def test_a_parcela_dated_on_its_purchase_counts_in_the_fatura_it_is_charged_in() -> None:
    nubank = Card("Nubank", closing_day=3, due_day=10)
    lines = [(date(2026, 6, 1), "Mercado Extra"),  # June's fatura: the statement's
             (date(2026, 3, 1), "Netshoes - Parcela 4/10"),  # bought in March's fatura, 3 faturas later
             (date(2026, 6, 2), "Geladeira - Parcela 1/12")]

    assert statement_faturas(nubank, lines) == [(Period(2026, 6), None), (Period(2026, 6), (4, 10)),
                                        (Period(2026, 6), (1, 12))]


def test_a_parcela_the_bank_dated_on_its_charge_stays_in_the_statements_fatura() -> None:
    nubank = Card("Nubank", closing_day=3, due_day=10)
    lines = [(date(2026, 6, 1), "Mercado Extra"), (date(2026, 6, 2), "MAGAZINE LUIZA 05/10")]

    assert statement_faturas(nubank, lines) == [(Period(2026, 6), None), (Period(2026, 6), (5, 10))]


def test_a_statement_of_parcelas_only_moves_each_to_its_charge() -> None:
    nubank = Card("Nubank", closing_day=3, due_day=10)

    assert statement_faturas(nubank, [(date(2026, 11, 20), "Notebook - Parcela 3/6")]) == [(Period(2027, 2), (3, 6))]


def test_a_statement_parcela_is_counted_before_only_by_a_recorded_parcela_of_its_fatura_k_n_and_amount() -> None:
    june, july = Period(2026, 6), Period(2026, 7)
    recorded = {june: [(3, 10, Decimal("100.00"))]}
    lines = [(june, (3, 10), Decimal("100")),  # the recorded one
             (june, (3, 10), Decimal("100")),  # the same again in the file: one recorded answers for one
             (june, (3, 10), Decimal("99.99")),  # another amount
             (july, (3, 10), Decimal("100")),  # another fatura
             (june, None, Decimal("100"))]  # a purchase

    assert counted_before(lines, recorded) == {0}
