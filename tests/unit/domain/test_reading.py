"""The one reader of amounts, months, days and dates: arguments read the way people write them, and
still exactly (issue 13, part 5; one reader for commands and the model, "The house, re-housed", item 7)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from babel.numbers import format_currency, format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.agent.chat import AgentChat
from domain.budget import Budget
from domain.errors import DomainError, InvalidAmount, InvalidArgument, InvalidDate, InvalidPeriod
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.reading import Amount, read_amount, read_currency, read_date, read_day, read_period
from domain.tools.base import HouseholdBinding
from domain.tools.registry import household_tools
from tests.fakes.scripted_model import ScriptedModel, call

TODAY = date(2026, 6, 15)

AMOUNTS = {
    "37,90": (Decimal("37.90"), None),
    "R$ 1.234,56": (Decimal("1234.56"), "BRL"),
    "2 mil": (Decimal("2000"), None),
    "1.5k": (Decimal("1500"), None),
    "1,5 mil": (Decimal("1500"), None),
    "1.500": (Decimal("1500"), None),
    "37.90": (Decimal("37.90"), None),
    "€6000": (Decimal("6000"), "EUR"),
    "US$ 50": (Decimal("50"), "USD"),
    "25 mil euros": (Decimal("25000"), "EUR"),
    "200 reais": (Decimal("200"), "BRL"),
    "1.234.567,89": (Decimal("1234567.89"), None),
}


@pytest.mark.parametrize(("text", "expected"), AMOUNTS.items(), ids=AMOUNTS.keys())
def test_an_amount_written_as_text_is_read_exactly(text: str, expected: tuple[Decimal, str | None]) -> None:
    amount, currency = read_amount(text)
    assert (amount, currency) == expected
    assert isinstance(amount, Decimal) and str(amount) == str(expected[0])


def test_a_json_number_stays_its_decimal_and_a_float_is_refused() -> None:
    assert read_amount(Decimal("37.90")) == (Decimal("37.90"), None)
    assert read_amount(200) == (Decimal(200), None)
    with pytest.raises(InvalidArgument, match="float"):
        read_amount(37.9)
    with pytest.raises(DomainError):
        read_amount(True)


# The refusals are the one set of pt-BR messages a person reads in the chat, with the argument's name
# before them for the model; what was written is quoted as “duzentos” (it was repr'd: 'duzentos').
UNREADABLE = {"duzentos": "not_a_number", "1,2,3": "malformed", "37.9.0": "malformed",
              "R$ 10 EUR": "unknown_currency", "1e3": "scientific", "": "empty", "R$": "not_a_number"}


@pytest.mark.parametrize(("text", "problem"), UNREADABLE.items(), ids=UNREADABLE.keys())
def test_an_unreadable_amount_is_refused_naming_it(text: str, problem: str) -> None:
    with pytest.raises(InvalidAmount, match="amount") as refused:
        read_amount(text, what="amount")
    assert refused.value.problem == problem and refused.value.text == text
    assert (f"“{text}”" if text else "Informe um valor") in str(refused.value)


def test_a_persons_refusal_does_not_name_the_argument() -> None:
    with pytest.raises(InvalidAmount) as refused:
        read_amount("duzentos")
    assert str(refused.value) == "“duzentos” não é um valor. Escreva, por exemplo, 37,90 ou R$ 1.500,00."


# --- amounts as Brazilians write them (the commands read the same: positive, in centavos) ------


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("200", "200", None),
        ("37,90", "37.90", None),
        ("1.500", "1500", None),
        ("1.500,00", "1500.00", None),
        ("1.500.000,50", "1500000.50", None),
        ("1500,5", "1500.5", None),
        ("0,10", "0.10", None),
        ("  200  ", "200", None),
        ("R$ 1.500,00", "1500.00", "BRL"),
        ("R$1.500", "1500", "BRL"),
        ("r$ 37,90", "37.90", "BRL"),
        ("R$\xa01.500,00", "1500.00", "BRL"),  # what Babel's format_currency writes
        ("1.500,00 R$", "1500.00", "BRL"),
        ("BRL 200", "200", "BRL"),
        ("50 reais", "50", "BRL"),
        ("€6000", "6000", "EUR"),
        ("€ 6.000,00", "6000.00", "EUR"),
        ("6000 EUR", "6000", "EUR"),
        ("6.000 eur", "6000", "EUR"),
        ("6000€", "6000", "EUR"),
        ("200 euros", "200", "EUR"),
        ("US$ 50", "50", "USD"),
        ("$ 50", "50", "USD"),
        ("$50", "50", "USD"),
        ("100 dólares", "100", "USD"),
        ("£ 20,50", "20.50", "GBP"),
        ("10 libras", "10", "GBP"),
        ("JPY 1.000", "1000", "JPY"),
        ("chf 300", "300", "CHF"),
        ("999.999.999.999,99", "999999999999.99", None),
        # a decimal point with one or two digits is the cents' (commands refused these: "Quis dizer 37,90?")
        ("37.90", "37.90", None),
        ("1.50", "1.50", None),
        ("1500.5", "1500.5", None),
        # American grouping with a decimal point, when the grouping is valid (commands refused it)
        ("1,500.00", "1500.00", None),
        ("1,234,567", "1234567", None),
        # thousands and millions in words and letters (commands refused "R$1k" as an unknown currency "k")
        ("1k", "1000", None),
        ("1,5k", "1500", None),
        ("R$1k", "1000", "BRL"),
        ("2 mil", "2000", None),
        ("2 mil reais", "2000", "BRL"),
        ("R$ 2,5 mil", "2500", "BRL"),
        ("1,2345k", "1234.5", None),
        ("2 mi", "2000000", None),
        ("1,5 milhão", "1500000", None),
        ("3 milhões de reais", "3000000", "BRL"),
        ("+5", "5", None),
    ],
)
def test_brazilian_amounts_are_read_exactly(text: str, amount: str, currency: str | None) -> None:
    read = read_amount(text, positive=True)

    assert read == Amount(Decimal(amount), currency)
    assert str(read.amount) == amount  # exact, the written cents kept


@pytest.mark.parametrize(
    ("text", "problem", "named"),
    [
        ("", "empty", "Informe um valor"),
        ("   ", "empty", "Informe um valor"),
        ("abc", "not_a_number", "“abc”"),
        ("NaN", "not_a_number", "“NaN”"),
        ("Infinity", "not_a_number", "“Infinity”"),
        ("inf", "not_a_number", "“inf”"),
        ("1_000", "not_a_number", "“1_000”"),
        ("١٢٣", "not_a_number", "“١٢٣”"),  # Arabic-Indic digits, which Decimal would accept
        (",50", "not_a_number", "“,50”"),
        ("50,", "not_a_number", "“50,”"),
        ("1 500", "not_a_number", "“1 500”"),
        ("1e5", "scientific", "“1e5”"),
        ("2E+3", "scientific", "“2E+3”"),
        ("0", "not_positive", "“0”"),
        ("0,00", "not_positive", "“0,00”"),
        ("R$ 0", "not_positive", "“R$ 0”"),
        ("-5", "not_positive", "“-5”"),
        ("-R$ 5", "not_positive", "“-R$ 5”"),
        ("R$ -37,90", "not_positive", "“R$ -37,90”"),
        ("37,999", "too_many_decimals", "“37,999”"),
        ("0,001", "too_many_decimals", "“0,001”"),
        ("1,500", "too_many_decimals", "“1,500”"),
        ("JP¥ 100,50", "too_many_decimals", "“JP¥ 100,50”"),
        ("JP¥ 100.50", "too_many_decimals", "“JP¥ 100.50”"),
        ("1.5000", "malformed", "“1.5000”"),
        ("12.34.56", "malformed", "“12.34.56”"),
        ("1,50.00", "malformed", "“1,50.00”"),
        ("1,500.000", "malformed", "“1,500.000”"),
        ("0.500", "malformed", "“0.500”"),
        ("XYZ 10", "unknown_currency", "“XYZ”"),
        ("10 abc", "unknown_currency", "“abc”"),
        ("5 km", "unknown_currency", "“km”"),
        ("R$50EUR", "unknown_currency", "“R$50EUR”"),
        ("1.000.000.000.000", "too_large", "“1.000.000.000.000”"),
        ("R$ 5.000.000.000.000,00", "too_large", "“R$ 5.000.000.000.000,00”"),
        ("2.000.000 mi", "too_large", "“2.000.000 mi”"),
    ],
)
def test_a_bad_amount_is_refused_with_a_message_naming_it(
    text: str, problem: str, named: str
) -> None:
    with pytest.raises(InvalidAmount) as raised:
        read_amount(text, positive=True)

    assert raised.value.problem == problem
    assert raised.value.text == text
    assert named in str(raised.value)
    assert isinstance(raised.value, DomainError)  # was a ValueError (the commands' own AmountError)


def test_an_amount_with_three_decimals_is_refused_naming_it() -> None:
    with pytest.raises(InvalidAmount, match="“37,999” tem mais de duas casas decimais"):
        read_amount("37,999")


def test_an_american_thousands_comma_gets_a_hint_to_write_a_point() -> None:
    with pytest.raises(InvalidAmount, match=re.escape("escreva 1.500")):
        read_amount("1,500")


def test_scientific_notation_is_answered_with_the_number_in_digits() -> None:
    with pytest.raises(InvalidAmount, match=re.escape("só com algarismos, como 1.000.")):
        read_amount("1e3")


def test_a_decimal_point_with_one_or_two_digits_is_cents_and_with_three_is_thousands() -> None:
    assert read_amount("37.90") == (Decimal("37.90"), None)
    assert read_amount("1.5") == (Decimal("1.5"), None)
    assert read_amount("1.500") == (Decimal("1500"), None)
    assert read_amount("1.500.000") == (Decimal("1500000"), None)


def test_the_agent_gets_a_negative_or_zero_amount_back_and_the_commands_refuse_it() -> None:
    assert read_amount("-5") == (Decimal("-5"), None)
    assert read_amount("R$ -37,90") == (Decimal("-37.90"), "BRL")
    assert read_amount("−2 mil") == (Decimal("-2000"), None)
    assert read_amount("0") == (Decimal("0"), None)
    assert read_amount(Decimal("-200")) == (Decimal("-200"), None)
    for refused in ("-5", "0", Decimal("-200"), 0):
        with pytest.raises(InvalidAmount) as raised:
            read_amount(refused, positive=True)
        assert raised.value.problem == "not_positive"


def test_decimals_follow_the_written_currency_or_the_one_the_amount_will_be_in() -> None:
    assert read_amount("JP¥ 1.000") == (Decimal("1000"), "JPY")
    assert read_amount("1,234", decimals=3) == (Decimal("1.234"), None)
    with pytest.raises(InvalidAmount, match="JPY não usa casas decimais"):
        read_amount("100,5 JPY", decimals=3)
    with pytest.raises(InvalidAmount) as raised:
        read_amount(Decimal("37.999"))
    assert raised.value.problem == "too_many_decimals"


def test_inside_a_command_a_lower_case_code_is_a_currency_only_if_it_has_a_symbol() -> None:
    assert read_amount("50 usd", lower_codes=False) == (Decimal("50"), "USD")
    with pytest.raises(InvalidAmount) as raised:
        read_amount("50pen", lower_codes=False)
    assert raised.value.problem == "unknown_currency"
    assert read_amount("50pen") == (Decimal("50"), "PEN")


@pytest.mark.parametrize(("text", "code"), [("R$", "BRL"), ("brl", "BRL"), ("€", "EUR"), ("eur", "EUR"),
                                            ("US$", "USD"), ("dólares", "USD"), ("EUR", "EUR"),
                                            ("reais", "BRL"), ("$", "USD"), ("libras", "GBP")])
def test_a_currency_is_read_from_symbols_codes_in_any_case_and_words(text: str, code: str) -> None:
    assert read_currency(text) == code


def test_an_unknown_currency_is_refused_naming_it() -> None:
    with pytest.raises(DomainError, match="XYZ"):
        read_currency("XYZ")


two_decimals = st.decimals(
    min_value=Decimal("0.01"),
    max_value=Decimal("999999999.99"),
    places=2,
    allow_nan=False,
    allow_infinity=False,
)


@settings(max_examples=200, deadline=None)
@given(two_decimals)
def test_any_amount_babel_formats_in_pt_br_reads_back_exactly(d: Decimal) -> None:
    written = format_decimal(d, format="#,##0.00", locale="pt_BR")

    assert read_amount(written, positive=True) == Amount(d, None)
    assert read_amount(f"R$ {written}", positive=True) == Amount(d, "BRL")


@settings(max_examples=100, deadline=None)
@given(two_decimals, st.sampled_from(["BRL", "EUR", "USD", "GBP"]))
def test_any_amount_babel_writes_as_currency_reads_back_in_that_currency(
    d: Decimal, code: str
) -> None:
    assert read_amount(format_currency(d, code, locale="pt_BR"), positive=True) == Amount(d, code)


# --- months ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "month"), [
    ("2026-11", "2026-11"), ("11/2026", "2026-11"), ("novembro de 2026", "2026-11"),
    ("novembro", "2025-11"), ("junho", "2026-06"), ("Março", "2026-03"), ("2026-06-03", "2026-06"),
    ("03/06/2026", "2026-06"), ("mês passado", "2026-05"), ("este mês", "2026-06"),
    # the commands' forms, read for the model too
    ("2026-5", "2026-05"), ("05/2026", "2026-05"), ("5/2026", "2026-05"), ("mar", "2026-03"),
    ("dez.", "2025-12"), ("Março 2026", "2026-03"), ("dezembro de 2025", "2025-12"),
    ("mar/2026", "2026-03"), ("mês que vem", "2026-07"), ("  2026-05 ", "2026-05"),
    ("mês retrasado", "2026-04"), ("há dois meses", "2026-04"), ("dois meses atrás", "2026-04"),
    ("penúltimo mês", "2026-04"), ("há três meses", "2026-03"),
])
def test_a_month_is_read_as_people_write_it(text: str, month: str) -> None:
    assert read_period(text, TODAY) == month


@pytest.mark.parametrize("text", ["2026-13", "mês que vem talvez", "", "13/2026", "2026-00", "2026",
                                  "26-05", "2026-02-30"])
def test_an_unreadable_month_is_refused_naming_it(text: str) -> None:
    with pytest.raises(InvalidPeriod, match="Mês inválido") as refused:
        read_period(text, TODAY)
    assert f"“{text}”" in str(refused.value)


def test_a_month_whose_year_is_not_a_year_is_refused_with_an_example() -> None:
    with pytest.raises(InvalidPeriod, match=re.escape("“dezembro de 20x”; escreva, por exemplo, dezembro de 2025")):
        read_period("dezembro de 20x", TODAY)
    with pytest.raises(InvalidPeriod, match=re.escape("Ano inválido em “0000-05”")):
        read_period("0000-05", TODAY)


def test_without_today_a_month_needs_its_year() -> None:
    assert read_period("2026-05") == read_period("05/2026") == read_period("maio de 2026") == "2026-05"
    for relative in ("maio", "mês passado"):
        with pytest.raises(InvalidPeriod, match=f"“{relative}”: diga o mês com o ano"):
            read_period(relative)


# --- days and dates --------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "day"), [("1", 1), ("05", 5), ("10", 10), ("31", 31), (7, 7)])
def test_a_billing_day_is_read(text: str | int, day: int) -> None:
    assert read_day(text) == day


@pytest.mark.parametrize("text", ["0", "32", "100", "-1", "dez", "1,5", ""])
def test_a_day_outside_1_to_31_is_refused_naming_it(text: str) -> None:
    with pytest.raises(InvalidDate, match=re.escape(f"“{text}”")):
        read_day(text)


def test_a_date_is_iso_or_brazilian_and_a_date_that_does_not_exist_is_refused() -> None:
    assert read_date("2026-06-15") == read_date("15/06/2026") == TODAY
    with pytest.raises(DomainError, match="31/02/2026"):
        read_date("31/02/2026")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2028-06-01", date(2028, 6, 1)),
        ("01/06/2028", date(2028, 6, 1)),
        ("1/6/2028", date(2028, 6, 1)),
        ("29/02/2028", date(2028, 2, 29)),
    ],
)
def test_a_date_is_read_in_iso_or_brazilian_order(text: str, expected: date) -> None:
    assert read_date(text) == expected


# "2028-6-1": ISO has two-digit months and days (the model's reader accepted it; the commands' did not)
@pytest.mark.parametrize("text", ["2028-02-30", "31/04/2028", "2028-6-1", "amanhã", "20280601"])
def test_a_bad_date_is_refused_naming_it(text: str) -> None:
    with pytest.raises(InvalidDate, match=re.escape(f"“{text}”")):
        read_date(text)


def test_a_refused_date_says_which_date_it_was() -> None:
    with pytest.raises(InvalidDate, match=re.escape("Prazo: “2028-02-30” não é uma data que existe.")):
        read_date("2028-02-30", "Prazo")


# --- through the tools ---------------------------------------------------------------------------


def now() -> datetime:
    return datetime(2026, 6, 15, 15, tzinfo=UTC)


async def house() -> tuple[InMemoryBudgetRepository, InMemoryGoalRepository, list[Any]]:
    household = Household.create("Casa", "BRL", id="h1")
    ana = household.add_member("Ana")
    bruno = household.add_member("Bruno")
    budgets, goals = InMemoryBudgetRepository(), InMemoryGoalRepository()
    budget = Budget.create("BRL", id="b1")
    budget.register("Mercado", Money.of(1500, "BRL"))
    budget.register_card("Nubank", 3, 10, aliases=["roxinho"])
    await budgets.save(budget)
    await goals.save(Goal.create("Reserva", Money.of(10000, "BRL"), members=[ana, bruno],
                                 created_at=TODAY, id="g1"))
    tools = household_tools(HouseholdBinding(household=household, budget_id="b1", budgets=budgets,
                                             goals=goals, operations=InMemoryOperationLog(), clock=now))
    return budgets, goals, tools


async def test_a_spend_in_words_without_month_or_currency_previews_this_month_in_the_households_currency() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "mercado", "amount": "R$ 1.234,56", "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("gastei 1.234,56 no mercado", sender="Ana")

    [spend] = reply.tool_calls
    assert spend.error is None
    assert spend.result.preview["period"] == "2026-06"
    assert spend.result.preview["delta"] == {"amount": Decimal("1234.56"), "currency": "BRL"}


async def test_a_currency_symbol_and_a_named_month_are_read_for_the_preview() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado", "period": "maio",
                                               "amount": {"amount": "37,90", "currency": "R$"},
                                               "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("37,90 de mercado em maio", sender="Ana")

    assert reply.tool_calls[0].result.preview["period"] == "2026-05"
    assert reply.tool_calls[0].result.preview["delta"] == {"amount": Decimal("37.90"), "currency": "BRL"}


async def test_a_contribution_without_payer_or_date_is_paid_by_the_speaker_today() -> None:
    _, goals, tools = await house()
    model = ScriptedModel(call("contributeToGoal", {"goal": "reserva", "amount": "1,5 mil", "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("coloquei 1,5 mil na reserva", sender="Bruno")

    preview = reply.tool_calls[0].result.preview
    assert (preview["paidBy"], preview["date"]) == ("Bruno", "2026-06-15")
    assert preview["amount"] == {"amount": Decimal("1500"), "currency": "BRL"}
    assert (await goals.load("g1")).contributions == []


async def test_the_same_amount_written_two_ways_is_the_same_operation_when_confirmed() -> None:
    budgets, _, tools = await house()
    model = ScriptedModel(
        call("recordSpend", {"expense": "Mercado", "amount": "37,90", "operationId": "a"}),
        call("recordSpend", {"expense": "Mercado", "period": "2026-06",
                             "amount": {"amount": Decimal("37.90"), "currency": "brl"},
                             "operationId": "a", "confirm": True}),
        {"role": "assistant", "content": "Feito.", "tool_calls": None})
    chat = AgentChat.create(model, tools)
    await chat.send("gastei 37,90 no mercado", sender="Ana")

    done = await chat.send("confirma", sender="Bruno")

    assert done.receipts[0].operation_id == "a" and done.receipts[0].persisted
    from domain.money import Period
    assert (await budgets.load("b1")).find_by_name("Mercado").actual_for(Period(2026, 6)) == Money.of("37.90", "BRL")


async def test_an_unreadable_amount_reaches_the_model_as_an_error_naming_it_and_nothing_is_proposed() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado", "amount": "uns trocados", "operationId": "a"}),
                          {"role": "assistant", "content": "Quanto foi?", "tool_calls": None})

    reply = await AgentChat.create(model, tools).send("gastei uns trocados", sender="Ana")

    assert reply.tool_calls[0].error is not None and "uns trocados" in reply.tool_calls[0].error
    assert reply.receipts == []


async def test_an_expense_named_with_the_working_memorys_aliases_is_still_found() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado (supermercado/feira)", "amount": 50,
                                               "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("50 no mercado", sender="Ana")

    assert reply.tool_calls[0].error is None
    assert reply.tool_calls[0].result.preview["newActual"]["amount"] == Decimal("50")


async def test_an_expense_name_the_model_copied_with_a_typo_is_found_and_the_spend_lands_on_it() -> None:
    budgets, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercadoo (supermercado)", "amount": 50,
                                               "operationId": "a"}))
    chat = AgentChat.create(model, tools)

    reply = await chat.send("50 no mercado", sender="Ana")
    await chat.confirm(reply.receipts[0].operation_id, by="Bruno")

    assert reply.tool_calls[0].error is None
    budget = await budgets.load("b1")
    assert budget.find_by_name("Mercado").actual_for(Period(2026, 6)) == Money.of(50, "BRL")


async def test_a_typo_of_an_expense_the_member_never_named_is_still_refused() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercadoo", "amount": 50, "operationId": "a"}),
                          {"role": "assistant", "content": "Em qual despesa?", "tool_calls": None})

    reply = await AgentChat.create(model, tools).send("50 na farmácia", sender="Ana")

    assert reply.tool_calls[0].error is not None and reply.receipts == []


async def test_a_card_named_with_the_working_memorys_aliases_is_still_found() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("recordSpend", {"expense": "Mercado", "amount": 50, "card": "Nubank (roxinho)",
                                               "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("50 no mercado no roxinho", sender="Ana")

    assert reply.tool_calls[0].error is None and reply.receipts
    assert reply.tool_calls[0].result.preview["card"] == "Nubank"


async def test_a_goal_named_with_the_working_memorys_layout_is_still_found() -> None:
    _, _, tools = await house()
    model = ScriptedModel(call("contributeToGoal", {"goal": "Reserva: BRL 10000 no deadline, saved 0, Ana/Bruno",
                                                    "amount": 100, "operationId": "a"}))

    reply = await AgentChat.create(model, tools).send("100 na reserva", sender="Ana")

    assert reply.tool_calls[0].error is None and reply.receipts
