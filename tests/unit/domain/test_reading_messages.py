"""The one reader on whole messages: the words of a day, numbers in words, and everything a
message says of money and time (domain/reading)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from domain.errors import InvalidDate
from domain.money import Period
from domain.reading import day_named, read_date, read_period
from domain.reading.message import scan
from domain.reading.small_talk import only_chats, sentences
from domain.reading.spelled import spelled_at

WEDNESDAY = date(2026, 6, 17)


@pytest.mark.parametrize(("words", "day"), [
    ("hoje", date(2026, 6, 17)), ("hj", date(2026, 6, 17)), ("ontem", date(2026, 6, 16)),
    ("anteontem", date(2026, 6, 15)), ("antes de ontem", date(2026, 6, 15)),
    ("semana passada", date(2026, 6, 10)), ("sexta", date(2026, 6, 12)),
    ("na segunda-feira", date(2026, 6, 15)), ("quarta", date(2026, 6, 17)),
    ("quarta passada", date(2026, 6, 10)), ("segunda da semana passada", date(2026, 6, 8)),
    ("dia 5", date(2026, 6, 5)), ("no dia 20", date(2026, 5, 20)), ("dia 20 de maio", date(2026, 5, 20)),
    ("15/06", date(2026, 6, 15)), ("20/06", date(2025, 6, 20)),
])
def test_the_words_of_a_day_are_read_back_from_the_day_they_were_written(words: str, day: date) -> None:
    assert day_named(words, WEDNESDAY) == day


def test_words_that_name_no_day_are_none_and_a_day_31_skips_the_months_without_one() -> None:
    assert day_named("mercado", WEDNESDAY) is None
    assert day_named("ontem", None) is None
    assert day_named("dia 31", date(2026, 6, 17)) == date(2026, 5, 31)
    assert day_named("dia 31", date(2026, 3, 10)) == date(2026, 1, 31)  # February has none


@pytest.mark.parametrize(("words", "today", "day"), [
    ("no fim de semana", date(2026, 6, 3), date(2026, 5, 30)),  # a Wednesday: last weekend, in May
    ("fim de semana passado", date(2026, 6, 17), date(2026, 6, 13)),
    ("no final de semana", date(2026, 6, 14), date(2026, 6, 13)),  # a Sunday: this weekend
    ("fim de semana passado", date(2026, 6, 14), date(2026, 6, 6)),
    ("no fds", date(2026, 6, 13), date(2026, 6, 13)),  # a Saturday: today
])
def test_a_weekend_is_its_saturday(words: str, today: date, day: date) -> None:
    assert day_named(words, today) == day


def test_a_weekend_across_two_months_names_no_day() -> None:
    # Saturday 31 October and Sunday 1 November 2026: which month the money left in, only the member knows
    assert day_named("no fim de semana", date(2026, 11, 2)) is None
    assert day_named("no fim de semana", date(2026, 11, 1)) is None
    assert day_named("no fim de semana", date(2026, 10, 31)) == date(2026, 10, 31)  # Sunday is still to come

    assert read_period("ontem", date(2026, 7, 1)) == "2026-06"
    assert read_period("anteontem", date(2026, 1, 1)) == "2025-12"


def test_a_tool_date_may_be_words_when_the_day_it_was_written_is_known() -> None:
    assert read_date("ontem", today=WEDNESDAY) == date(2026, 6, 16)
    assert read_date("2026-06-01", today=WEDNESDAY) == date(2026, 6, 1)
    with pytest.raises(InvalidDate, match="ontem, dia 5"):
        read_date("quando deu", today=WEDNESDAY)
    with pytest.raises(InvalidDate):
        read_date("ontem")  # without the day it was written, words are not a date


@pytest.mark.parametrize(("text", "value"), [
    ("cem", 100), ("duzentos e cinquenta", 250), ("mil e duzentos", 1200),
    ("dois mil e quinhentos", 2500), ("cento e vinte e três", 123), ("2 mil e quinhentos", 2500),
    ("um milhão", 1_000_000), ("2 mil e 300", 2300), ("mil e 50", 1050),
])
def test_numbers_in_words_are_read_exactly(text: str, value: int) -> None:
    read = spelled_at(text.split(), 0)
    assert read is not None and read.value == Decimal(value) and read.end == len(text.split())


def test_vinte_trinta_is_two_numbers_not_fifty() -> None:
    read = spelled_at(["vinte", "trinta"], 0)
    assert read is not None and read.value == 20 and read.end == 1


@pytest.mark.parametrize(("text", "amounts"), [
    ("gastei 37,90 no mercado hj", [("37.90", None)]),
    ("fiz a compra do mês: 1.234,56 no supermercado", [("1234.56", None)]),
    ("paguei duzentos e cinquenta de gasolina", [("250", None)]),
    ("anota aí: 1,2k de mercado", [("1200", None)]),
    ("cem reais de farmácia", [("100", "BRL")]),
    ("veterinário do Thor deu 350 conto", [("350", "BRL")]),
    ("registra R$ 200 a mais", [("200", "BRL")]),
    ("R$1k mercado", [("1000", "BRL")]),
    ("6 mil euros pra lua de mel", [("6000", "EUR")]),
    ("comprei 2 pizzas por 80", [("2", None), ("80", None)]),
    ("nós dois pagamos 50", [("50", None)]),  # "dois" alone is no amount
    # as a voice note is transcribed: the cents said in words
    ("gastei 89 reais e 90 centavos na farmácia", [("89.90", "BRL")]),
    ("trezentos e quarenta e dois reais e dezoito centavos", [("342.18", "BRL")]),
    ("R$ 20 e 5 centavos de pão", [("20.05", "BRL")]),
    ("10 euros e 50 centavos", [("10.50", "EUR")]),
    ("a bala custou 50 centavos", [("0.50", None)]),
    ("50 reais e 30 no mercado", [("50", "BRL"), ("30", None)]),  # cents only when "centavos" says so
])
def test_a_message_shows_every_amount_it_writes(text: str, amounts: list[tuple[str, str | None]]) -> None:
    found = scan(text, today=WEDNESDAY).amounts
    assert [(f"{f.value:f}", f.amount.currency) for f in found] == amounts


def test_days_months_percentages_and_installments_are_not_amounts() -> None:
    said = scan("dia 5 paguei 12% a mais em 10x, 15/06/2026 e em dezembro", today=WEDNESDAY)
    assert said.amounts == ()
    assert [said.tokens[i].text for i in said.strays] == ["12%", "10x"]
    assert said.days() == {date(2026, 6, 5), date(2026, 6, 15)}
    assert said.months() == {Period(2026, 6), Period(2025, 12)}


def test_a_message_shows_the_currencies_it_names_but_not_words_that_look_like_codes() -> None:
    assert scan("comprei 300 euros pra viagem").currencies == {"EUR"}
    assert scan("meta de US$ 8.000").currencies == {"USD"}
    assert scan("paguei o par de tênis, 200").currencies == frozenset()  # "par" is a word


def test_marco_is_march_only_when_it_is_written_as_a_month() -> None:
    assert scan("o Marco pagou 50", today=WEDNESDAY).months() == set()
    assert scan("aportei 1.500 em março", today=WEDNESDAY).months() == {Period(2026, 3)}


def test_a_name_of_one_short_word_is_written_only_as_that_whole_word() -> None:
    from domain.reading.names import loosely_written_in

    assert loosely_written_in("posto 180 no XP", ["XP"])
    assert loosely_written_in("peguei um 99 pro centro", ["Uber", "99"])
    assert not loosely_written_in("posto 180 no xpto", ["XP"])
    assert not loosely_written_in("posto 180 no xp", ["XP Visa"])  # a short word of a longer name: no


def test_a_verb_that_tells_a_spend_is_no_name_written_loosely() -> None:
    from domain.reading.names import loosely_written_in

    assert not loosely_written_in("paguei 85 hj naquela loja do centro", ["Farmácia", "Pague Menos"])
    assert not loosely_written_in("gastou 40 ontem", ["Gasto fixo"])
    assert loosely_written_in("fui na pague menos, 85", ["Pague Menos"])
    assert loosely_written_in("85 na paguemenos", ["Pague Menos"])


@pytest.mark.parametrize(("text", "name"), [
    ("paguei 45 na acdemia", "Academia"), ("gastei 60 na fiera", "feira"), ("80 no supermecrado", "supermercado"),
    ("compra do mês no Fort, 1.050,00", "Fort Atacadista"),  # a word of four letters, whole
])
def test_a_name_a_letter_or_two_off_is_mentioned(text: str, name: str) -> None:
    from domain.reading.names import mentioned_in, words

    assert mentioned_in(words(text), [name])


@pytest.mark.parametrize(("text", "name"), [
    ("comprei uma cadeira, 890", "Academia"), ("o caso é que deu 50", "Casa"), ("o mercado deu 90", "Gás"),
])
def test_a_word_only_alike_mentions_no_name(text: str, name: str) -> None:
    from domain.reading.names import mentioned_in, words

    assert not mentioned_in(words(text), [name])


def test_a_name_of_several_words_is_named_only_whole() -> None:
    from domain.reading.names import mentioned_in, named_in, words

    assert mentioned_in(words("pelo menos o uber foi 38"), ["Pague Menos"])  # the model is shown it
    assert not named_in(words("pelo menos o uber foi 38"), ["Pague Menos"])
    assert named_in(words("fui na pague menos, 85"), ["Pague Menos"])
    assert named_in(words("gastei 60 na fiera"), ["feira"])


@pytest.mark.parametrize(("text", "words", "amount"), [
    ("continente23,45", ("continente", "23,45"), Decimal("23.45")),
    ("spotify21,90", ("spotify", "21,90"), Decimal("21.90")),
    ("farmacia 30", ("farmacia", "30"), Decimal("30")),
])
def test_a_name_and_its_amount_typed_with_no_space_are_two_words(text: str, words: tuple[str, ...],
                                                                  amount: Decimal) -> None:
    said = scan(text, today=WEDNESDAY)
    assert said.words == words and [found.value for found in said.amounts] == [amount]


@pytest.mark.parametrize("text", ["no C6 50", "ps5 2.000", "3x"])
def test_a_short_name_with_digits_stays_one_word(text: str) -> None:
    assert scan(text, today=WEDNESDAY).words[1 if text.startswith("no") else 0] in ("c6", "ps5", "3x")


def test_q_is_read_as_que() -> None:
    assert scan("foi o Bruno q pagou", today=WEDNESDAY).words == ("foi", "o", "bruno", "que", "pagou")


def test_euros_written_with_the_symbol_for_the_comma_keep_their_cents() -> None:
    [found] = scan("pingo doce, 9€99", today=WEDNESDAY).amounts
    assert (found.value, found.amount.currency) == (Decimal("9.99"), "EUR")


def test_a_message_parts_into_sentences_at_stops_emoji_and_parentheses() -> None:
    text = "gente q calor 🥵 vou tomar um banho. paguei a luz, 120 (vencia hj)"
    assert [text[first:last] for first, last in sentences(text)] == [
        "gente q calor", "vou tomar um banho.", "paguei a luz, 120", "vencia hj"]


@pytest.mark.parametrize(("text", "chats"), [
    ("reunião até as 7", True), ("chego em 20 min", True), ("levei 1h pra chegar", True),
    ("vc viu o jogo ontem?", True), ("perdemos de novo kkk", True),
    ("paguei 120", False), ("é só meu", False), ("não era isso", False), ("vence amanhã", False),
    ("brincadeira kkk", False), ("deu 7 reais", False), ("o resto no cartão", False),
])
def test_a_sentence_only_chats_with_no_number_but_a_time_and_no_word_of_money(text: str, chats: bool) -> None:
    assert only_chats(scan(text).words) is chats


@pytest.mark.parametrize(("text", "amounts"), [
    ("a Pipoca faz 4 anos sábado", []), ("abasteci 40 litros", []), ("corri 5 km", []),
    ("mercado, 84,30. dias corridos", [Decimal("84.30")]), ("paguei 150 dia 5", [Decimal("150")]),
    ("gastei 100 mês passado", [Decimal("100")]),
    ("R$ 4 anos", [Decimal("4")]),
])
def test_a_whole_number_right_before_a_unit_of_time_or_measure_is_no_money(text: str, amounts: list[Decimal]) -> None:
    assert [found.value for found in scan(text, today=date(2026, 7, 1)).amounts] == amounts


@pytest.mark.parametrize(("text", "guessed"), [
    ("gastei por volta de 80 no mercado", True), ("uns 80 de uber", True), ("80 e pouco", True),
    ("passei no mercado na volta, 87,40", False), ("na volta 87,40 de mercado", False),
])
def test_por_volta_de_is_a_guess_and_na_volta_is_the_way_back(text: str, guessed: bool) -> None:
    said = scan(text, today=date(2026, 7, 1))
    assert said.approximate(said.amounts[0]) is guessed


@pytest.mark.parametrize(("text", "amounts"), [
    ("deu quarenta e três e noventa tá", [Decimal("43.90")]),
    ("quarenta e três e noventa e cinco", [Decimal("43.95")]),
    ("cento e vinte e cinco e trinta", [Decimal("125.30")]),
    ("cento e noventa", [Decimal("190")]),
    ("vinte e cinco e trinta de uber", [Decimal("25"), Decimal("30")]),   # two spends
])
def test_a_price_said_aloud_is_reais_and_then_cents(text: str, amounts: list[Decimal]) -> None:
    assert [found.value for found in scan(text, today=date(2026, 7, 1)).amounts] == amounts
