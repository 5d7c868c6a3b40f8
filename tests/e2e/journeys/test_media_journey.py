"""Contract §8 "Media" over HTTP: a voice note, a receipt photo and a bank statement file, each from
the member's message to the confirmed write, against the fake Bot API (getFile and the download)
and the fake OpenAI-compatible server (/v1/audio/transcriptions, chat requests with an image part)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.e2e.harness import (
    ANA,
    BRUNO,
    THIS_MONTH,
    BotStarter,
    Group,
    answer_text,
    fresh_postgres_database,
    last_preview,
    next_update_id,
    post_concurrently,
    without_keyboard,
)
from tests.fakes.llm_server import FakeLLMServer, text, tool_calls
from tests.fakes.telegram_api import FakeTelegramAPI, media_update

CHAT = -1004000000001
SAMPLES = Path(__file__).parents[2] / "samples" / "statements"
CONFIRMED = "✅ Confirmado."
ALREADY = "Essa operação já foi confirmada."


def spend(amount: str, expense: str, operation_id: str) -> dict[str, Any]:
    return {"expense": expense, "period": THIS_MONTH, "amount": {"amount": Decimal(amount), "currency": "BRL"},
            "operationId": operation_id}


def a_household(casa: Group) -> None:
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    for command in ("/despesa Farmácia 300", "/despesa Mercado 1.500", "/despesa Padaria 100"):
        casa.confirm(ANA, casa.propose(ANA, command))


def send_media(casa: Group, content: dict[str, Any], replies: int) -> list[Any]:
    since = casa.mark()
    update = media_update(next_update_id(), casa.chat_id, ANA.user_id, ANA.first_name, content,
                          chat_type="supergroup", chat_title=casa.title)
    assert casa.post(update).status_code == 200
    return casa.wait_sent(count=replies, since=since)


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (230, 230, 230)).save(out, "JPEG")
    return out.getvalue()


def test_a_voice_note_is_transcribed_shown_and_becomes_a_confirmed_spend(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    a_household(casa)
    voice = tg.add_file(b"OggS\x00fake-opus", "voice/file_1.oga")
    llm.transcripts.append("amor, paguei 180 na farmácia")
    chats_before = len(llm.requests)

    since = casa.mark()
    [heard, *_] = send_media(casa, {"voice": {**voice, "duration": 4, "mime_type": "audio/ogg"}}, replies=2)

    assert heard.params["text"] == "🎤 amor, paguei 180 na farmácia"
    assert tg.downloads == ["voice/file_1.oga"]
    [asked] = llm.audio
    assert asked["model"] == "whisper-1" and asked["content"] == b"OggS\x00fake-opus"
    # The transcript is a common spend: the free-text reader previews it, with no chat request.
    assert len(llm.requests) == chats_before
    preview = last_preview(tg, CHAT, since)
    assert "R$ 180,00" in preview.text
    answer, edit = casa.confirm(BRUNO, preview)
    assert answer_text(answer) == CONFIRMED and without_keyboard(edit)
    assert "R$ 180,00" in casa.reply_to(ANA, "/resumo")


def test_a_long_voice_note_is_refused_before_download_and_a_failed_transcription_loses_nothing(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    a_household(casa)
    voice = tg.add_file(b"OggS", "voice/file_2.oga")
    [refused] = send_media(casa, {"voice": {**voice, "duration": 301}}, replies=1)
    assert "limite" in refused.params["text"] and tg.downloads == []

    llm.transcripts.append(503)
    [failed] = send_media(casa, {"voice": {**voice, "duration": 3}}, replies=1)
    assert "Não consegui transcrever" in failed.params["text"] and "Nada foi registrado" in failed.params["text"]
    assert llm.requests == []


def test_a_receipt_photo_reaches_the_model_as_an_image_part_and_its_spend_is_confirmed(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    a_household(casa)
    small = tg.add_file(jpeg(90, 60), "photos/file_3_s.jpg")
    large = tg.add_file(jpeg(2560, 1707), "photos/file_3.jpg")  # Telegram sends at most 2,560 px
    llm.script([tool_calls(("recordSpend", spend("412.30", "Mercado", "op-foto")))])  # the preview ends the turn

    since = casa.mark()
    send_media(casa, {"photo": [{**small, "width": 90, "height": 60}, {**large, "width": 2560, "height": 1707}],
                      "caption": "compra do mês"}, replies=1)

    assert tg.downloads == ["photos/file_3.jpg"]
    [image] = llm.images_in(llm.requests[-1])
    assert image.startswith("data:image/jpeg;base64,")
    preview = last_preview(tg, CHAT, since)
    answer, _ = casa.confirm(ANA, preview)
    assert answer_text(answer) == CONFIRMED
    assert "R$ 412,30" in casa.reply_to(ANA, "/resumo")

    llm.script([text("De nada!")])
    casa.reply_to(ANA, "valeu")
    assert llm.images_in(llm.requests[-1]) == [], "the history keeps the caption, not the image"
    assert "[Ana] 📷 (foto) compra do mês" in str(llm.requests[-1]["messages"])


def test_a_photo_for_a_model_without_vision_gets_a_clear_reply(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm, vision_model="openai/gpt-3.5-turbo"), CHAT)
    a_household(casa)
    photo = tg.add_file(jpeg(100, 100), "photos/file_4.jpg")
    [reply] = send_media(casa, {"photo": [{**photo, "width": 100, "height": 100}]}, replies=1)
    assert "não lê imagens" in reply.params["text"] and "VISION_MODEL" in reply.params["text"]
    assert llm.requests == [] and tg.downloads == []


def send_statement(tg: FakeTelegramAPI, casa: Group, sample: str, replies: int = 1) -> list[Any]:
    document = tg.add_file((SAMPLES / sample).read_bytes(), f"documents/{next_update_id()}_{sample}")
    return send_media(casa, {"document": {**document, "file_name": sample, "mime_type": "application/x-ofx"}},
                      replies=replies)


def test_a_statement_is_imported_once_with_no_model_and_the_same_file_again_proposes_nothing(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    a_household(casa)
    since = casa.mark()
    send_statement(tg, casa, "itau_june.ofx")
    preview = last_preview(tg, CHAT, since)
    # "Mercado" is not a word of "SUPERMERCADO PÃO DE AÇÚCAR", nor "Farmácia" of "DROGARIA RAIA":
    # those wait for an alias, listed apart; so do the credits.
    assert preview.text.startswith("🏦 Importar 2 lançamentos")
    assert "• Farmácia: 1 lançamento, R$ 180,50" in preview.text
    assert "Sem despesa correspondente (não serão importados): 3" in preview.text
    assert "SUPERMERCADO PÃO DE AÇÚCAR: R$ 412,30" in preview.text
    assert "SALÁRIO EMPRESA X: R$ 5.000,00" in preview.text
    answer, edit = casa.confirm(BRUNO, preview)
    assert answer_text(answer) == CONFIRMED and without_keyboard(edit)
    assert edit.params["text"].startswith("✅ 2 lançamentos importados por Bruno")
    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 180,50" in summary and "R$ 25,00" in summary and "R$ 412,30" not in summary

    [again] = send_statement(tg, casa, "itau_june.ofx")
    assert "Nada novo" in again.params["text"]
    [awkward] = send_statement(tg, casa, "itau_truncated.ofx")
    assert "incompleto" in awkward.params["text"]
    assert casa.reply_to(ANA, "/resumo") == summary


def two_members_confirm_one_import_at_once(casa: Group, tg: FakeTelegramAPI) -> None:
    a_household(casa)
    since = casa.mark()
    send_statement(tg, casa, "nubank_card.csv")
    preview = last_preview(tg, casa.chat_id, since)
    presses = [casa.press_update(person, preview.confirm, preview.message_id) for person in (ANA, BRUNO)]
    assert post_concurrently([(casa.webhook, update) for update in presses]) == [200, 200]
    answers = sorted(answer_text(casa.wait_answer(u["callback_query"]["id"])) for u in presses)
    assert answers == sorted([CONFIRMED, ALREADY])
    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 91,80" in summary  # two Farmácia lines of R$ 45,90 that day, each once
    assert "R$ 137,70" not in summary and "R$ 183,60" not in summary


def test_two_members_confirming_an_import_at_once_write_it_once_on_sqlite(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    two_members_confirm_one_import_at_once(Group(tg, start_bot(), CHAT), tg)


@pytest.fixture
def postgres_starter(tg: FakeTelegramAPI) -> Iterator[BotStarter]:
    with fresh_postgres_database() as url:
        starter = BotStarter(tg, url)
        try:
            yield starter
        finally:
            starter.stop_all()


@pytest.mark.postgres
def test_two_members_confirming_an_import_at_once_write_it_once_on_postgresql(
    tg: FakeTelegramAPI, postgres_starter: BotStarter
) -> None:
    two_members_confirm_one_import_at_once(Group(tg, postgres_starter(), CHAT), tg)
