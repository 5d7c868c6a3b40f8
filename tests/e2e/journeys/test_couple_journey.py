"""Contract §9's "who paid, and who owes whom" over the webhook: a couple's spends, /saldo, an
acerto with its Pix copia e cola and its QR code as a photo, and the acerto undone."""

from __future__ import annotations

from domain.sharing.pix import fields_of
from tests.e2e.harness import ANA, BRUNO, BotStarter, Group, alerted, last_preview, undo_data
from tests.fakes.telegram_api import FakeTelegramAPI, UploadedFile

CHAT = -1002300000001


def test_a_couple_splits_spends_sees_who_owes_and_settles_with_a_pix_copia_e_cola(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT, title="Casa")
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    casa.confirm(ANA, casa.propose(ANA, "/pix ana@example.com"))

    spend = casa.propose(ANA, "/gasto 187,40 mercado")
    assert "Pago por Ana" in spend.text and "Divisão: Ana R$ 93,70 · Bruno R$ 93,70" in spend.text
    _, confirmed = casa.confirm(BRUNO, spend)  # Bruno confirms; Ana paid it
    assert "Pago por Ana" in confirmed.params["text"]
    casa.confirm(BRUNO, casa.propose(BRUNO, "/gasto 20 mercado pessoal"))
    assert "Bruno deve R$ 93,70 a Ana" in casa.reply_to(BRUNO, "/saldo")

    since = casa.mark()
    acerto = casa.propose(BRUNO, "/acerto")
    assert acerto.text.startswith("🤝 Acerto: Bruno paga R$ 93,70 a Ana")
    payload = acerto.text.split("Pix copia e cola para Ana (R$ 93,70):\n", 1)[1].split("\n", 1)[0]
    assert fields_of(payload)["54"] == "93.70"
    [photo] = tg.wait_for("sendPhoto", lambda c: c.params.get("chat_id") == CHAT, since=since)
    assert isinstance(photo.params["photo"], UploadedFile)
    assert photo.params["photo"].data.startswith(b"\x89PNG") and payload in photo.params["caption"]
    _, settled = casa.confirm(ANA, acerto)
    assert "Acerto: Bruno pagou R$ 93,70 a Ana" in settled.params["text"]
    answer = casa.reply_to(ANA, "/saldo")
    assert "Vocês estão quites." in answer and "Conta 1 gasto dividido e 1 acerto." in answer
    assert "quites" in casa.reply_to(BRUNO, "/acerto")

    undo = undo_data(settled)
    assert undo is not None
    since = casa.mark()
    assert not alerted(casa.press(ANA, undo, int(settled.params["message_id"])))
    casa.wait_sent(since=since)
    casa.confirm(BRUNO, last_preview(tg, CHAT, since))
    assert "Bruno deve R$ 93,70 a Ana" in casa.reply_to(ANA, "/saldo")
    statement = casa.reply_to(ANA, "/extrato")
    assert "Acerto (acerto) · R$ 93,70 · Bruno → Ana" in statement
