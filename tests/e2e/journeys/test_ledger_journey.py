"""Contract §8's ledger over the webhook: a spend confirmed, ↩️ Desfazer, the undo confirmed,
/extrato with both entries and /exportar as a CSV a pt-BR spreadsheet reads."""

from __future__ import annotations

import csv
import io

from bot.texts import history
from tests.e2e.harness import (
    ANA,
    BRUNO,
    BotStarter,
    Group,
    alerted,
    answer_text,
    last_preview,
    undo_data,
    without_keyboard,
)
from tests.fakes.telegram_api import FakeTelegramAPI, UploadedFile

CHAT = -1001400000001


def test_a_spend_undone_with_the_button_leaves_the_month_as_before_and_both_entries_in_the_ledger(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT, title="Casa")
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    _, edit = casa.confirm(BRUNO, casa.propose(BRUNO, "/gasto 37,90 mercado"))
    spend_message = int(edit.params["message_id"])

    undo = undo_data(edit)
    assert undo is not None and len(undo.encode()) <= 64
    since = casa.mark()
    pressed = casa.press(ANA, undo, spend_message)
    assert not alerted(pressed)
    casa.wait_sent(since=since)  # the undo's preview goes out after the press is answered
    proposal = last_preview(tg, CHAT, since)
    assert proposal.text.startswith("↩️ Desfazer operação") and "R$ 37,90" in proposal.text
    assert [b["text"] for b in proposal.buttons] == ["✅ Confirmar", "❌ Cancelar"]
    answer, done = casa.confirm(BRUNO, proposal)
    assert answer_text(answer) == "✅ Confirmado."
    assert without_keyboard(done) and undo_data(done) is None  # an undo is not undone
    spend_after = casa.wait_edit(spend_message, since=since)
    assert undo_data(spend_after) is None and history.undone_note() in spend_after.params["text"]
    again = casa.press(ANA, undo, spend_message)
    assert alerted(again) and answer_text(again) == history.already_undone_alert()

    assert "Mercado: R$ 0,00 de R$ 1.500,00" in casa.reply_to(ANA, "/resumo")
    statement = casa.reply_to(BRUNO, "/extrato").splitlines()
    assert statement[0].startswith("🧾 Extrato de ")
    assert [line.split(" · ", 1)[1] for line in statement if "(gasto)" in line] == [
        "↩️ desfeito: Mercado (gasto) · -R$ 37,90 · Bruno", "Mercado (gasto) · R$ 37,90 · Bruno"]

    since = casa.mark()
    assert casa.post(casa.message(ANA, "/exportar")).status_code == 200
    [sent] = tg.wait_for("sendDocument", lambda c: c.params.get("chat_id") == CHAT, since=since)
    document = sent.params["document"]
    assert isinstance(document, UploadedFile) and document.filename == "extrato-completo.csv"
    assert document.data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(document.data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == list(history.CSV_HEADER)
    assert [(row[2], row[3], row[4], row[5]) for row in rows[1:]] == [
        ("despesa cadastrada", "Mercado", "1500,00", "BRL"),
        ("gasto", "Mercado", "37,90", "BRL"),
        ("gasto", "Mercado", "-37,90", "BRL")]
    assert rows[3][9] == rows[2][8]  # the undo names the operation it undoes
