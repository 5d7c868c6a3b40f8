"""The parser of the commands that need no language model (contract, section 6)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands import catalog
from bot.commands.calls import (
    SENDER,
    acerto,
    aporte,
    arquivar,
    cartao,
    despesa,
    gasto,
    meta,
    pix,
    renomear,
)
from bot.commands.parsing import (
    AdjustCommand,
    CardWords,
    CommandUsageError,
    ContributionCommand,
    ExpenseCommand,
    GoalCommand,
    SpendCommand,
    parse_ajuste,
    parse_aporte,
    parse_despesa,
    parse_divisao,
    parse_fatura,
    parse_gasto,
    parse_meta,
    parse_renda,
    parse_resumo,
)
from domain.money import Period
from domain.reading import Amount


def brl(amount: str) -> Amount:
    return Amount(Decimal(amount), "BRL")


def plain(amount: str) -> Amount:
    return Amount(Decimal(amount), None)


# Amounts, months, days and dates themselves are read by domain.reading: tests/unit/domain/test_reading.py.


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
            SpendCommand(Amount(Decimal("12.50"), "EUR"), "café em Lisboa", (2026, 5)),
        ),
        # a lower-case word after the number is a name unless it is a well-known currency
        ("50 pen drive", SpendCommand(plain("50"), "pen drive", None)),
        # a decimal point with one or two digits is the cents' (it was refused: "Quis dizer 37,90?")
        ("37.90 mercado", SpendCommand(plain("37.90"), "mercado", None)),
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
        # a decimal point with one or two digits is the cents' (it was refused naming “2.50”)
        ("Aluguel 2.50 dia 10", ExpenseCommand("Aluguel", plain("2.50"), 10)),
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
        ("Spotify 10 USD", AdjustCommand("Spotify", Amount(Decimal("10"), "USD"))),
    ],
)
def test_an_adjust_command_is_read(text: str, expected: AdjustCommand) -> None:
    assert parse_ajuste(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500 Amsterdam", ContributionCommand(plain("500"), "Amsterdam")),
        ("R$ 500 Lua de mel", ContributionCommand(brl("500"), "Lua de mel")),
        ("€200 viagem", ContributionCommand(Amount(Decimal("200"), "EUR"), "viagem")),
    ],
)
def test_a_contribution_command_is_read(text: str, expected: ContributionCommand) -> None:
    assert parse_aporte(text) == expected


EUR_6000 = Amount(Decimal("6000"), "EUR")


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
        ("Suíça 3000 chf", GoalCommand("Suíça", Amount(Decimal("3000"), "CHF"), None)),
    ],
)
def test_a_goal_command_is_read(text: str, expected: GoalCommand) -> None:
    assert parse_meta(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("", None), ("  ", None), ("2026-05", (2026, 5)), ("05/2026", (2026, 5)),
    # a month named with its year needs no today (it was refused: "Não entendi.")
    ("maio de 2026", (2026, 5)),
])
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
        (parse_gasto, "gasto", "0 mercado", "“0”"),
        (parse_gasto, "gasto", "37,90 mercado 2026-13", "“2026-13”"),
        (parse_despesa, "despesa", "", None),
        (parse_despesa, "despesa", "Aluguel", "Falta o valor"),
        (parse_despesa, "despesa", "2.500 Aluguel", "O nome vem antes do valor"),
        (parse_despesa, "despesa", "Aluguel 2.500 dia 32", "“32”"),
        (parse_despesa, "despesa", "Aluguel 2.500 dia", "dia"),
        (parse_despesa, "despesa", "Aluguel 2.500 mensal", "“mensal”"),
        (parse_despesa, "despesa", "Academia R$1k dia", "dia"),
        (parse_despesa, "despesa", "Aluguel 2 mil dia 32", "“32”"),
        (parse_ajuste, "ajuste", "", None),
        (parse_ajuste, "ajuste", "mercado", "Falta o valor"),
        (parse_ajuste, "ajuste", "1.800", "Falta o nome"),
        (parse_ajuste, "ajuste", "R$ 200", "Falta o nome"),
        (parse_ajuste, "ajuste", "mercado 2 mil 1,555", "“1,555”"),
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
        (parse_resumo, "resumo", "maio", "“maio”"),  # without today, a bare name's year is unknown
        (parse_resumo, "resumo", "2026-05 extra", "“2026-05 extra”"),
    ],
)
def test_a_command_it_cannot_read_gets_the_right_form_with_an_example(
    parse: object, command: str, text: str, reason: str | None
) -> None:
    assert callable(parse)
    with pytest.raises(CommandUsageError) as raised:
        parse(text)

    message = str(raised.value)
    usage = catalog.named(command)
    assert raised.value.command == command
    assert f"Use: {usage.form}\nEx.: {usage.usage_example or usage.example}" in message
    if reason is None:
        assert message.startswith("Não entendi. Use: ")
    else:
        assert reason in message


def test_the_usage_reply_reads_as_the_contract_shows() -> None:
    with pytest.raises(CommandUsageError) as raised:
        parse_gasto("")

    # Contract §6's form, with §9's "por <membro>" and "pessoal" (issue 23) and the card and its
    # parcelas (issue 24) after it.
    assert str(raised.value) == (
        "Não entendi. Use: /gasto <valor> <despesa> [AAAA-MM] [por <membro>] [pessoal] [no <cartão>] [em <N>x]\n"
        "Ex.: /gasto 37,90 mercado"
    )


def test_every_usage_example_is_itself_understood() -> None:
    parsers = {
        "gasto": parse_gasto,
        "despesa": parse_despesa,
        "ajuste": parse_ajuste,
        "aporte": parse_aporte,
        "meta": parse_meta,
        "resumo": parse_resumo,
        "renomear": lambda text: renomear(text, date(2026, 6, 15), "BRL"),
        "arquivar": lambda text: arquivar(text, date(2026, 6, 15), "BRL"),
        "renda": parse_renda,
        "divisao": parse_divisao,
        "acerto": lambda text: acerto(text, date(2026, 6, 15), "BRL"),
        "pix": lambda text: pix(text, date(2026, 6, 15), "BRL"),
        "saldo": parse_resumo,
        "cartao": lambda text: cartao(text, date(2026, 6, 15), "BRL"),
        "fatura": parse_fatura,
    }
    assert {c.name for c in catalog.COMMANDS if c.writes} < set(parsers)
    for command, parse in parsers.items():
        usage = catalog.named(command)
        for example in {usage.example, usage.usage_example or usage.example}:
            prefix = f"/{command}"
            assert example.startswith(prefix)
            parse(example.removeprefix(prefix))


def test_results_are_frozen() -> None:
    spend = parse_gasto("37,90 mercado")

    with pytest.raises(AttributeError):
        spend.expense = "feira"  # type: ignore[misc]


# --- the amounts the agent reads, read in commands too ------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1k mercado", SpendCommand(plain("1000"), "mercado", None)),
        ("1,5k mercado", SpendCommand(plain("1500"), "mercado", None)),
        ("1.5k mercado", SpendCommand(plain("1500"), "mercado", None)),
        ("2 mil aluguel", SpendCommand(plain("2000"), "aluguel", None)),
        ("2 mil reais aluguel 2026-05", SpendCommand(brl("2000"), "aluguel", (2026, 5))),
        ("R$ 2 mil aluguel", SpendCommand(brl("2000"), "aluguel", None)),
        ("R$1k mercado", SpendCommand(brl("1000"), "mercado", None)),
        ("50 reais padaria", SpendCommand(brl("50"), "padaria", None)),
        ("1,500.00 mercado", SpendCommand(plain("1500.00"), "mercado", None)),
    ],
)
def test_a_spend_command_reads_thousands_words_and_symbols_as_the_agent_does(
    text: str, expected: SpendCommand
) -> None:
    assert parse_gasto(text) == expected


def test_an_expense_costing_r1k_on_day_10_is_not_an_expense_named_with_its_amount() -> None:
    assert parse_despesa("Academia R$1k dia 10") == ExpenseCommand("Academia", brl("1000"), 10)


@pytest.mark.parametrize(
    ("parse", "text", "expected"),
    [
        (parse_despesa, "Aluguel 2 mil dia 10", ExpenseCommand("Aluguel", plain("2000"), 10)),
        (parse_despesa, "Netflix 55.90", ExpenseCommand("Netflix", plain("55.90"), None)),
        (parse_ajuste, "mercado 2 mil", AdjustCommand("mercado", plain("2000"))),
        (parse_ajuste, "mercado 1,8k", AdjustCommand("mercado", plain("1800"))),
        (parse_ajuste, "aluguel R$ 2,5 mil", AdjustCommand("aluguel", brl("2500"))),
        (parse_ajuste, "aluguel 3 mil reais", AdjustCommand("aluguel", brl("3000"))),
        (parse_ajuste, "Plano 0 200", AdjustCommand("Plano 0", plain("200"))),
        (parse_aporte, "1k viagem", ContributionCommand(plain("1000"), "viagem")),
        (parse_aporte, "50 reais Lua de mel", ContributionCommand(brl("50"), "Lua de mel")),
        (parse_meta, "Viagem 25 mil euros até 2028-06-01",
         GoalCommand("Viagem", Amount(Decimal("25000"), "EUR"), date(2028, 6, 1))),
        (parse_meta, "Reserva R$ 20k", GoalCommand("Reserva", brl("20000"), None)),
    ],
)
def test_every_command_reads_thousands_words_and_symbols_as_the_agent_does(
    parse: object, text: str, expected: object
) -> None:
    assert callable(parse)
    assert parse(text) == expected


def test_the_tool_calls_of_r1k_commands_carry_a_thousand_reais() -> None:
    today = date(2026, 6, 15)
    thousand = {"amount": Decimal("1000"), "currency": "BRL"}

    assert despesa("Academia R$1k dia 10", today, "EUR") == (
        "registerExpense", {"name": "Academia", "expected": thousand, "billingDay": 10})
    assert gasto("R$1k mercado", today, "EUR") == (
        "recordSpend", {"expense": "mercado", "period": "2026-06", "amount": thousand, "paidBy": SENDER,
                        "shared": True})
    assert aporte("1k viagem", today, "BRL")[1]["amount"] == thousand
    assert meta("Reserva 1k", today, "BRL")[1]["target"] == thousand


def test_a_summary_reads_month_names_and_last_month_given_today() -> None:
    today = date(2026, 6, 15)

    assert parse_resumo("dezembro", today) == (2025, 12)
    assert parse_resumo("mar", today) == (2026, 3)
    assert parse_resumo("mês passado", today) == (2026, 5)


# --- properties ---------------------------------------------------------------------------

two_decimals = st.decimals(
    min_value=Decimal("0.01"),
    max_value=Decimal("999999999.99"),
    places=2,
    allow_nan=False,
    allow_infinity=False,
)


@settings(max_examples=100, deadline=None)
@given(two_decimals, st.sampled_from(["mercado", "feira da semana", "Conta de luz"]))
def test_any_formatted_amount_is_read_inside_a_spend_command(d: Decimal, name: str) -> None:
    written = format_decimal(d, format="#,##0.00", locale="pt_BR")

    assert parse_gasto(f"R$ {written} {name}") == SpendCommand(Amount(d, "BRL"), name, None)


# --------------------------------------------------------------------------- issue 24: cards


@pytest.mark.parametrize(("text", "expense", "card", "installments"), [
    ("1.000 geladeira no Nubank em 10x", "geladeira", CardWords("no", "Nubank"), 10),
    ("1.000 geladeira em 10x no Nubank", "geladeira", CardWords("no", "Nubank"), 10),
    ("300 farmácia na Visa Platinum", "farmácia", CardWords("na", "Visa Platinum"), None),
    ("300 farmácia 3x na Visa", "farmácia", CardWords("na", "Visa"), 3),
    ("300 farmácia em 3 vezes no inter", "farmácia", CardWords("no", "inter"), 3),
    ("80 mercado no nubank por Bruno pessoal", "mercado", CardWords("no", "nubank"), None),
    ("80 mercado por Bruno no nubank", "mercado", CardWords("no", "nubank"), None),
    ("20 lanche na escola", "lanche", CardWords("na", "escola"), None),
    ("37,90 mercado", "mercado", None, None),
])
def test_gasto_reads_the_card_and_the_parcelas_in_either_order(text: str, expense: str, card: CardWords | None,
                                                               installments: int | None) -> None:
    spend = parse_gasto(text, date(2026, 6, 15))

    assert (spend.expense, spend.card, spend.installments) == (expense, card, installments)


def test_gasto_on_a_card_becomes_the_record_spend_call_with_the_card_words() -> None:
    tool, arguments = gasto("1.000 geladeira no Nubank em 10x", date(2026, 6, 15), "BRL")

    assert tool == "recordSpend"
    assert arguments["card"] == CardWords("no", "Nubank") and arguments["installments"] == 10


def test_cartao_reads_the_name_and_both_days_in_either_order() -> None:
    assert cartao("Nubank fecha 3 vence 10", date(2026, 6, 15), "BRL") == (
        "registerCard", {"name": "Nubank", "closingDay": 3, "dueDay": 10})
    assert cartao("Itaú Visa vence 5 fecha 28", date(2026, 6, 15), "BRL")[1] == {
        "name": "Itaú Visa", "closingDay": 28, "dueDay": 5}


def test_fatura_reads_the_card_and_an_optional_month() -> None:
    today = date(2026, 6, 15)

    assert parse_fatura("Nubank", today) == ("Nubank", None)
    assert parse_fatura("Itaú Visa 2026-08", today) == ("Itaú Visa", Period(2026, 8))
    assert parse_fatura("nubank julho", today) == ("nubank", Period(2026, 7))  # the coming July
    assert parse_fatura("nubank março", today) == ("nubank", Period(2026, 3))
    assert parse_fatura("nubank julho de 2025", today) == ("nubank", Period(2025, 7))
    assert parse_fatura("nubank mês passado", today) == ("nubank", Period(2026, 5))
