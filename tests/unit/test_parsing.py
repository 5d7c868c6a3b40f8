"""The parser of the commands that need no language model (contract, section 6)."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import command_registry, commands
from bot.commands.parsing import (
    AdjustCommand,
    AmountError,
    CommandUsageError,
    ContributionCommand,
    DateError,
    ExpenseCommand,
    GoalCommand,
    ParsedAmount,
    SpendCommand,
    parse_ajuste,
    parse_amount,
    parse_aporte,
    parse_day,
    parse_despesa,
    parse_gasto,
    parse_iso_date,
    parse_meta,
    parse_period,
    parse_resumo,
)


def brl(amount: str) -> ParsedAmount:
    return ParsedAmount(Decimal(amount), "BRL")


def plain(amount: str) -> ParsedAmount:
    return ParsedAmount(Decimal(amount), None)


# --- amounts ------------------------------------------------------------------------------


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
        ("JPY 1.000", "1000", "JPY"),
        ("chf 300", "300", "CHF"),
        ("999.999.999.999,99", "999999999999.99", None),
    ],
)
def test_brazilian_amounts_are_read_exactly(text: str, amount: str, currency: str | None) -> None:
    parsed = parse_amount(text)

    assert parsed == ParsedAmount(Decimal(amount), currency)
    assert str(parsed.amount) == amount  # exact, the written cents kept


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
        ("JP¥ 100,50", "too_many_decimals", "“JP¥ 100,50”"),
        ("37.90", "malformed", "37,90"),
        ("1.50", "malformed", "1,50"),
        ("1.5000", "malformed", "“1.5000”"),
        ("1,500.00", "malformed", "“1,500.00”"),
        ("12.34.56", "malformed", "“12.34.56”"),
        ("XYZ 10", "unknown_currency", "“XYZ”"),
        ("10 abc", "unknown_currency", "“abc”"),
        ("R$50EUR", "unknown_currency", "“R$50EUR”"),
        ("1.000.000.000.000", "too_large", "“1.000.000.000.000”"),
        ("R$ 5.000.000.000.000,00", "too_large", "“R$ 5.000.000.000.000,00”"),
    ],
)
def test_a_bad_amount_is_refused_with_a_message_naming_it(
    text: str, problem: str, named: str
) -> None:
    with pytest.raises(AmountError) as raised:
        parse_amount(text)

    assert raised.value.problem == problem
    assert named in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_an_amount_with_three_decimals_is_refused_naming_it() -> None:
    with pytest.raises(AmountError, match="“37,999” tem mais de duas casas decimais"):
        parse_amount("37,999")


def test_an_american_thousands_comma_gets_a_hint_to_write_a_point() -> None:
    with pytest.raises(AmountError, match=re.escape("escreva 1.500")):
        parse_amount("1,500")


def test_a_decimal_point_is_refused_suggesting_the_comma() -> None:
    with pytest.raises(AmountError, match="Quis dizer 37,90"):
        parse_amount("37.90")


# --- months, days and dates ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("2026-05", (2026, 5)),
        ("2026-5", (2026, 5)),
        ("2026-12", (2026, 12)),
        ("05/2026", (2026, 5)),
    ],
)
def test_a_month_is_read_as_year_and_month(text: str, period: tuple[int, int]) -> None:
    assert parse_period(text) == period


@pytest.mark.parametrize("text", ["2026-13", "2026-00", "maio", "2026", "26-05", "2026-05-01", ""])
def test_a_bad_month_is_refused_naming_it(text: str) -> None:
    with pytest.raises(DateError, match=re.escape(f"“{text}”")):
        parse_period(text)


@pytest.mark.parametrize(("text", "day"), [("1", 1), ("05", 5), ("10", 10), ("31", 31)])
def test_a_billing_day_is_read(text: str, day: int) -> None:
    assert parse_day(text) == day


@pytest.mark.parametrize("text", ["0", "32", "100", "-1", "dez", "1,5", ""])
def test_a_day_outside_1_to_31_is_refused_naming_it(text: str) -> None:
    with pytest.raises(DateError, match=re.escape(f"“{text}”")):
        parse_day(text)


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
    assert parse_iso_date(text) == expected


@pytest.mark.parametrize("text", ["2028-02-30", "31/04/2028", "2028-6-1", "amanhã", "20280601"])
def test_a_bad_date_is_refused_naming_it(text: str) -> None:
    with pytest.raises(DateError, match=re.escape(f"“{text}”")):
        parse_iso_date(text)


# --- commands -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("37,90 mercado", SpendCommand(plain("37.90"), "mercado", None)),
        ("R$ 1.500,00 aluguel 2026-05", SpendCommand(brl("1500.00"), "aluguel", (2026, 5))),
        ("37,90 feira da semana", SpendCommand(plain("37.90"), "feira da semana", None)),
        ("R$ 37,90 mercado", SpendCommand(brl("37.90"), "mercado", None)),
        ("R$37,90 mercado", SpendCommand(brl("37.90"), "mercado", None)),
        ("  37,90   mercado  ", SpendCommand(plain("37.90"), "mercado", None)),
        ("50 reais padaria", SpendCommand(brl("50"), "padaria", None)),
        (
            "€ 12,50 café em Lisboa 05/2026",
            SpendCommand(ParsedAmount(Decimal("12.50"), "EUR"), "café em Lisboa", (2026, 5)),
        ),
        # a lower-case word after the number is a name unless it is a well-known currency
        ("50 pen drive", SpendCommand(plain("50"), "pen drive", None)),
    ],
)
def test_a_spend_command_is_read(text: str, expected: SpendCommand) -> None:
    assert parse_gasto(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Aluguel 2.500 dia 10", ExpenseCommand("Aluguel", plain("2500"), 10)),
        ("Conta de luz 180 dia 5", ExpenseCommand("Conta de luz", plain("180"), 5)),
        ("Netflix R$ 55,90", ExpenseCommand("Netflix", brl("55.90"), None)),
        ("Academia 24h 120 Dia 3", ExpenseCommand("Academia 24h", plain("120"), 3)),
        ("Presente dia das mães 200", ExpenseCommand("Presente dia das mães", plain("200"), None)),
    ],
)
def test_an_expense_command_is_read(text: str, expected: ExpenseCommand) -> None:
    assert parse_despesa(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mercado 1.800", AdjustCommand("mercado", plain("1800"))),
        ("conta de luz R$ 200", AdjustCommand("conta de luz", brl("200"))),
        ("plano 2 150", AdjustCommand("plano 2", plain("150"))),
        ("Spotify 10 USD", AdjustCommand("Spotify", ParsedAmount(Decimal("10"), "USD"))),
    ],
)
def test_an_adjust_command_is_read(text: str, expected: AdjustCommand) -> None:
    assert parse_ajuste(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500 Amsterdam", ContributionCommand(plain("500"), "Amsterdam")),
        ("R$ 500 Lua de mel", ContributionCommand(brl("500"), "Lua de mel")),
        ("€200 viagem", ContributionCommand(ParsedAmount(Decimal("200"), "EUR"), "viagem")),
    ],
)
def test_a_contribution_command_is_read(text: str, expected: ContributionCommand) -> None:
    assert parse_aporte(text) == expected


EUR_6000 = ParsedAmount(Decimal("6000"), "EUR")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Lua de mel 6000 EUR até 2028-06-01",
            GoalCommand("Lua de mel", EUR_6000, date(2028, 6, 1)),
        ),
        (
            "Lua de mel 6000 EUR ate 2028-06-01",
            GoalCommand("Lua de mel", EUR_6000, date(2028, 6, 1)),
        ),
        ("Reserva 20.000", GoalCommand("Reserva", plain("20000"), None)),
        ("Viagem €6000 até 01/06/2028", GoalCommand("Viagem", EUR_6000, date(2028, 6, 1))),
        ("Viagem 6.000 eur", GoalCommand("Viagem", EUR_6000, None)),
        ("Suíça 3000 chf", GoalCommand("Suíça", ParsedAmount(Decimal("3000"), "CHF"), None)),
    ],
)
def test_a_goal_command_is_read(text: str, expected: GoalCommand) -> None:
    assert parse_meta(text) == expected


@pytest.mark.parametrize(("text", "expected"), [("", None), ("  ", None), ("2026-05", (2026, 5))])
def test_a_summary_command_takes_an_optional_month(
    text: str, expected: tuple[int, int] | None
) -> None:
    assert parse_resumo(text) == expected


@pytest.mark.parametrize(
    ("parse", "command", "text", "reason"),
    [
        (parse_gasto, "gasto", "", None),
        (parse_gasto, "gasto", "37,90", "Falta a despesa"),
        (parse_gasto, "gasto", "R$ 37,90 2026-05", "Falta a despesa"),
        (parse_gasto, "gasto", "mercado 37,90", "“mercado” não é um valor"),
        (parse_gasto, "gasto", "37,999 mercado", "“37,999”"),
        (parse_gasto, "gasto", "37.90 mercado", "37,90"),
        (parse_gasto, "gasto", "0 mercado", "“0”"),
        (parse_gasto, "gasto", "37,90 mercado 2026-13", "“2026-13”"),
        (parse_despesa, "despesa", "", None),
        (parse_despesa, "despesa", "Aluguel", "Falta o valor"),
        (parse_despesa, "despesa", "2.500 Aluguel", "O nome vem antes do valor"),
        (parse_despesa, "despesa", "Aluguel 2.500 dia 32", "“32”"),
        (parse_despesa, "despesa", "Aluguel 2.500 dia", "dia"),
        (parse_despesa, "despesa", "Aluguel 2.500 mensal", "“mensal”"),
        (parse_despesa, "despesa", "Aluguel 2.50 dia 10", "“2.50”"),
        (parse_ajuste, "ajuste", "", None),
        (parse_ajuste, "ajuste", "mercado", "Falta o valor"),
        (parse_ajuste, "ajuste", "1.800", "Falta o nome"),
        (parse_ajuste, "ajuste", "mercado muito", "“muito” não é um valor. O novo valor vem por último"),
        (parse_ajuste, "ajuste", "mercado 1.800,555", "“1.800,555”"),
        (parse_aporte, "aporte", "", None),
        (parse_aporte, "aporte", "R$ 500", "Falta a meta"),
        (parse_aporte, "aporte", "Amsterdam 500", "“Amsterdam” não é um valor"),
        (parse_aporte, "aporte", "-500 Amsterdam", "“-500”"),
        (parse_meta, "meta", "Viagem", "Falta o valor"),
        (parse_meta, "meta", "Viagem 6000 até", "até"),
        (parse_meta, "meta", "Viagem 6000 até 2028-02-30", "“2028-02-30”"),
        (parse_meta, "meta", "Viagem 6000 em junho", "“em junho”"),
        (parse_meta, "meta", "Viagem 6000 XYZ", "“XYZ”"),
        (parse_resumo, "resumo", "2026-13", "“2026-13”"),
        (parse_resumo, "resumo", "maio de 2026", None),
    ],
)
def test_a_command_it_cannot_read_gets_the_right_form_with_an_example(
    parse: object, command: str, text: str, reason: str | None
) -> None:
    assert callable(parse)
    with pytest.raises(CommandUsageError) as raised:
        parse(text)

    message = str(raised.value)
    usage = command_registry.named(command)
    assert raised.value.command == command
    assert f"Use: {usage.form}\nEx.: {usage.usage_example or usage.example}" in message
    if reason is None:
        assert message.startswith("Não entendi. Use: ")
    else:
        assert reason in message


def test_the_usage_reply_reads_as_the_contract_shows() -> None:
    with pytest.raises(CommandUsageError) as raised:
        parse_gasto("")

    assert str(raised.value) == (
        "Não entendi. Use: /gasto <valor> <despesa> [AAAA-MM]\nEx.: /gasto 37,90 mercado"
    )


def test_every_usage_example_is_itself_understood() -> None:
    parsers = {
        "gasto": parse_gasto,
        "despesa": parse_despesa,
        "ajuste": parse_ajuste,
        "aporte": parse_aporte,
        "meta": parse_meta,
        "resumo": parse_resumo,
        "renomear": lambda text: commands.renomear(text, date(2026, 6, 15), "BRL"),
        "arquivar": lambda text: commands.arquivar(text, date(2026, 6, 15), "BRL"),
    }
    assert {c.name for c in command_registry.COMMANDS if c.parse is not None} < set(parsers)
    for command, parse in parsers.items():
        usage = command_registry.named(command)
        for example in {usage.example, usage.usage_example or usage.example}:
            prefix = f"/{command}"
            assert example.startswith(prefix)
            parse(example.removeprefix(prefix))


def test_results_are_frozen() -> None:
    spend = parse_gasto("37,90 mercado")

    with pytest.raises(AttributeError):
        spend.expense = "feira"  # type: ignore[misc]


# --- properties ---------------------------------------------------------------------------

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

    assert parse_amount(written) == ParsedAmount(d, None)
    assert parse_amount(f"R$ {written}") == ParsedAmount(d, "BRL")


@settings(max_examples=100, deadline=None)
@given(two_decimals, st.sampled_from(["BRL", "EUR", "USD", "GBP"]))
def test_any_amount_babel_writes_as_currency_reads_back_in_that_currency(
    d: Decimal, code: str
) -> None:
    assert parse_amount(format_currency(d, code, locale="pt_BR")) == ParsedAmount(d, code)


@settings(max_examples=100, deadline=None)
@given(two_decimals, st.sampled_from(["mercado", "feira da semana", "Conta de luz"]))
def test_any_formatted_amount_is_read_inside_a_spend_command(d: Decimal, name: str) -> None:
    written = format_decimal(d, format="#,##0.00", locale="pt_BR")

    assert parse_gasto(f"R$ {written} {name}") == SpendCommand(ParsedAmount(d, "BRL"), name, None)
