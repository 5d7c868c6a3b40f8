"""Contract §9's "cards, faturas and parcelas" and "the month's limits" over the webhook: a card
registered, a purchase in 10x on it, /fatura and /cartoes, the parcelado undone, and a spend whose
confirmation warns that the month reached 80 % (the bot's clock is 15/06/2026)."""

from __future__ import annotations

from tests.e2e.harness import ANA, BRUNO, BotStarter, Group, alerted, last_preview, undo_data
from tests.fakes.telegram_api import FakeTelegramAPI

CHAT = -1002400000001


def test_a_couple_buys_in_parcelas_on_a_card_reads_the_fatura_and_is_warned_at_80_percent(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT, title="Casa")
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    card = casa.propose(ANA, "/cartao Nubank fecha 3 vence 10")
    assert "Próxima fatura: fecha 03/07/2026, vence 10/07/2026" in card.text
    casa.confirm(BRUNO, card)

    purchase = casa.propose(BRUNO, "/gasto 1.000 mercado no nubank em 10x")
    assert "Cartão: Nubank (fatura de julho de 2026, vence 10/07/2026)" in purchase.text
    assert "Valor: R$ 1.000,00 em 10x de R$ 100,00" in purchase.text
    assert "Pago por Bruno" in purchase.text
    _, bought = casa.confirm(ANA, purchase)
    assert "✅ Gasto registrado por Ana" in bought.params["text"]

    fatura = casa.reply_to(ANA, "/fatura nubank")
    assert "💳 Fatura do Nubank de julho de 2026" in fatura
    assert "• 15/06 Mercado 1/10: R$ 100,00 (Bruno)" in fatura
    assert "Próximas faturas: ago/26 R$ 100,00" in fatura
    assert "fatura de julho de 2026: R$ 100,00" in casa.reply_to(BRUNO, "/cartoes")

    spend = casa.propose(ANA, "/gasto 1.250 mercado")
    assert "⚠️" not in spend.text
    _, warned = casa.confirm(BRUNO, spend)
    assert "⚠️ Mercado: 83 % do previsto" in warned.params["text"]

    undo = undo_data(bought)
    assert undo is not None
    since = casa.mark()
    assert not alerted(casa.press(BRUNO, undo, int(bought.params["message_id"])))
    casa.wait_sent(since=since)
    casa.confirm(ANA, last_preview(tg, CHAT, since))
    assert "Nada lançado nesta fatura." in casa.reply_to(ANA, "/fatura nubank")
