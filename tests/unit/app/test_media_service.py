"""Voice notes, photos and statement files through MediaService (bot/app/media.py), in memory:
what reaches the model, what the members read, and what is written only after a confirmation."""

from __future__ import annotations

import base64
import io
import itertools
import json
import zipfile
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from PIL import Image

from bot.app.media import Incoming, MediaService
from bot.app.outcomes import Decision, Preview, Reply, Speaker
from bot.texts import media as media_texts
from bot.texts import messages
from domain.agent.chat import AgentChat
from domain.agent.model import FailureKind, ModelFailure
from domain.money import Money, Period
from tests.fakes.pictures import solid_png
from tests.fakes.posting import PostingService
from tests.fakes.scripted_model import ScriptedModel, call, say
from tests.fakes.storage import InMemoryStorage
from tests.unit.app.test_household_service import admitted

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)
CHAT = -1001
ANA = Speaker(1, "Ana")
BRUNO = Speaker(2, "Bruno")
STRANGER = Speaker(99, "Zé")
JUNE = Period(2026, 6)
SAMPLES = Path(__file__).parents[2] / "samples" / "statements"


class FakeTranscriber:
    def __init__(self, text: str = "", failure: ModelFailure | None = None) -> None:
        self.text = text
        self.failure = failure
        self.heard: list[tuple[bytes, str]] = []

    async def transcribe(self, audio: bytes, filename: str) -> str:
        self.heard.append((audio, filename))
        if self.failure is not None:
            raise self.failure
        return self.text


class Downloads:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.count = 0

    def incoming(self, name: str, size: int | None = None) -> Incoming:
        async def fetch() -> bytes:
            self.count += 1
            return self.data
        return Incoming(fetch, name, len(self.data) if size is None else size)


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 40)).save(out, "JPEG")
    return out.getvalue()


MESSAGE_IDS = itertools.count(20_001)


async def posted(media: MediaService, preview: Preview) -> None:
    """Stores the preview's message id, as the handler does once Telegram posted it: only a
    posted preview can be confirmed."""
    await media.household.preview_posted(CHAT, preview.operation_id, next(MESSAGE_IDS))


@pytest.fixture
def storage() -> InMemoryStorage:
    return InMemoryStorage(clock=lambda: NOW, ttl=timedelta(hours=48))


async def household(storage: InMemoryStorage, model: ScriptedModel | None,
                    transcriber: FakeTranscriber | None = None) -> MediaService:
    service = PostingService(storage, model=model, clock=lambda: NOW)
    await service.start(CHAT, "Casa", ANA)
    await admitted(service, BRUNO)
    link = await storage.directory.household_of_chat(CHAT)
    assert link is not None
    budget = await storage.budgets.load(link.budget_id)
    budget.register("Farmácia", Money.of(300, "BRL"), aliases=["drogaria"])
    budget.register("Mercado", Money.of(1500, "BRL"), aliases=["supermercado"])
    budget.register("Padaria", Money.of(100, "BRL"))
    await storage.budgets.save(budget)
    return MediaService(service, transcriber=transcriber)


async def actual(storage: InMemoryStorage, name: str) -> Money:
    link = await storage.directory.household_of_chat(CHAT)
    assert link is not None
    return (await storage.budgets.load(link.budget_id)).find_by_name(name).actual_for(JUNE)


def spend(amount: str, expense: str = "Farmácia") -> dict[str, object]:
    return {"expense": expense, "period": "2026-06", "amount": {"amount": Decimal(amount), "currency": "BRL"},
            "operationId": "op-1"}


# --------------------------------------------------------------------------- voice


async def test_a_voice_note_is_shown_as_heard_and_goes_to_the_agent_as_the_members_text(storage: InMemoryStorage) -> None:
    model = ScriptedModel(call("recordSpend", spend("180")), say("Confirma?"))
    heard = FakeTranscriber("amor, acho que paguei 180 na farmácia")
    media = await household(storage, model, heard)
    outcomes = await media.voice(CHAT, ANA, Downloads(b"OggS...").incoming("voice.ogg"), duration=4)
    assert isinstance(outcomes[0], Reply) and outcomes[0].text == "🎤 amor, acho que paguei 180 na farmácia"
    assert isinstance(outcomes[-1], Preview)
    assert heard.heard == [(b"OggS...", "voice.ogg")]
    assert model.requests[0].messages[-1]["content"].endswith("\n\n[Ana] amor, acho que paguei 180 na farmácia")
    assert await actual(storage, "Farmácia") == Money.zero("BRL")


async def test_a_voice_note_in_a_common_spend_form_is_previewed_by_the_reader_with_no_model_request(
        storage: InMemoryStorage) -> None:
    model = ScriptedModel()
    media = await household(storage, model, FakeTranscriber("amor, paguei 180 na farmácia"))
    outcomes = await media.voice(CHAT, ANA, Downloads(b"OggS...").incoming("voice.ogg"), duration=4)
    assert isinstance(outcomes[0], Reply) and outcomes[0].text == "🎤 amor, paguei 180 na farmácia"
    assert isinstance(outcomes[-1], Preview) and "R$ 180,00" in outcomes[-1].text
    assert model.requests == []


async def test_audio_over_five_minutes_or_20_mb_is_refused_before_any_download(storage: InMemoryStorage) -> None:
    media = await household(storage, ScriptedModel(), FakeTranscriber("x"))
    downloads = Downloads(b"x")
    long = await media.voice(CHAT, ANA, downloads.incoming("voice.ogg"), duration=301)
    big = await media.voice(CHAT, ANA, downloads.incoming("a.mp3", size=20 * 1024 * 1024 + 1), duration=10)
    assert long == big == [Reply(media_texts.audio_too_long_text(5, 20))]
    assert downloads.count == 0


OGG = b"OggS\x00\x02" + bytes(20)  # the start of an OGG page: what a voice note begins with


async def test_a_failed_transcription_is_a_pt_br_reply_and_nothing_is_proposed(storage: InMemoryStorage) -> None:
    model = ScriptedModel()
    media = await household(storage, model, FakeTranscriber(failure=ModelFailure(FailureKind.TIMEOUT)))
    outcomes = await media.voice(CHAT, ANA, Downloads(OGG).incoming("voice.ogg"), duration=3)
    assert outcomes == [Reply(media_texts.transcription_failed_text())]
    assert model.requests == []


async def test_a_silent_voice_note_is_answered_without_the_model(storage: InMemoryStorage) -> None:
    model = ScriptedModel()
    media = await household(storage, model, FakeTranscriber("  "))
    assert await media.voice(CHAT, ANA, Downloads(OGG).incoming("voice.ogg"), 2) == [
        Reply(media_texts.empty_transcript_text())]


NOT_AUDIO = {
    "0 bytes": (b"", 3, media_texts.empty_audio_text()),
    "a negative duration": (OGG, -5, media_texts.bad_duration_text(-5)),
    "an HTML page": (b"<!DOCTYPE html><html><body>oi</body></html>", 3, media_texts.not_audio_text()),
    "a JPEG": (b"\xff\xd8\xff\xe0\x00\x10JFIF", 3, media_texts.not_audio_text()),
}


@pytest.mark.parametrize("what", list(NOT_AUDIO))
async def test_a_voice_note_that_is_no_audio_is_answered_and_never_reaches_the_provider(
        storage: InMemoryStorage, what: str) -> None:
    data, seconds, said = NOT_AUDIO[what]
    heard = FakeTranscriber("gastei 10 no mercado")
    media = await household(storage, ScriptedModel(), heard)
    assert await media.voice(CHAT, ANA, Downloads(data).incoming("voice.ogg", size=len(data)), seconds) == [Reply(said)]
    assert heard.heard == []


@pytest.mark.parametrize("data", [
    OGG, b"ID3\x04\x00" + bytes(10), b"\xff\xfb\x90\x64" + bytes(10), b"\x00\x00\x00\x20ftypM4A " + bytes(8),
    b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(8), b"\x1a\x45\xdf\xa3" + bytes(10), b"fLaC" + bytes(10),
], ids=["ogg", "mp3-id3", "mp3-frame", "m4a", "wav", "webm", "flac"])
async def test_each_known_audio_container_is_transcribed(storage: InMemoryStorage, data: bytes) -> None:
    heard = FakeTranscriber("  ")
    media = await household(storage, ScriptedModel(), heard)
    await media.voice(CHAT, ANA, Downloads(data).incoming("audio"), 3)
    assert heard.heard == [(data, "audio")]


async def test_a_voice_note_from_a_stranger_is_neither_downloaded_nor_transcribed(storage: InMemoryStorage) -> None:
    heard = FakeTranscriber("x")
    media = await household(storage, ScriptedModel(), heard)
    downloads = Downloads(b"x")
    await media.voice(CHAT, STRANGER, downloads.incoming("voice.ogg"), 2)
    assert downloads.count == 0 and heard.heard == []


# --------------------------------------------------------------------------- photos


async def test_a_photo_goes_to_the_model_scaled_down_as_an_image_part_and_the_history_keeps_no_image(
        storage: InMemoryStorage) -> None:
    model = ScriptedModel(call("recordSpend", spend("412.30", "Mercado")), say("Confirma?"))
    media = await household(storage, model)
    outcomes = await media.photo(CHAT, ANA, Downloads(jpeg(2560, 1920)).incoming("photo.jpg"), "mercado de ontem")
    assert isinstance(outcomes[-1], Preview)
    content = model.requests[0].messages[-1]["content"]
    assert content[0]["type"] == "text" and content[0]["text"].endswith("\n\n[Ana] 📷 (foto) mercado de ontem")
    assert "Pix" in content[1]["text"]
    url = content[2]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as sent:
        assert max(sent.size) == 1568
    stored = await storage.conversations.recent(f"chat:{CHAT}", 10)
    assert "base64" not in json.dumps(stored)
    assert stored[0]["content"] == "[Ana] 📷 (foto) mercado de ontem"


async def test_a_model_without_vision_gets_a_clear_reply_and_no_download(storage: InMemoryStorage) -> None:
    class TextOnly(ScriptedModel):
        model = "openai/gpt-3.5-turbo"

        def reads_images(self) -> bool:
            return False

    media = await household(storage, TextOnly())
    downloads = Downloads(jpeg(10, 10))
    [reply] = await media.photo(CHAT, ANA, downloads.incoming("photo.jpg"), None)
    assert reply == Reply(media_texts.no_vision_text("openai/gpt-3.5-turbo"))
    assert downloads.count == 0


async def test_a_forged_photo_larger_than_telegram_sends_is_answered_without_the_model(
        storage: InMemoryStorage) -> None:
    model = ScriptedModel()
    media = await household(storage, model)
    forged = solid_png(7700, 7700)  # 187 kB on the wire, 178 MB decoded
    assert await media.photo(CHAT, ANA, Downloads(forged).incoming("photo.jpg"), None) == [
        Reply(media_texts.image_too_large_text(2560))]
    assert model.requests == []


async def test_something_that_is_not_an_image_is_answered_without_the_model(storage: InMemoryStorage) -> None:
    model = ScriptedModel()
    media = await household(storage, model)
    assert await media.photo(CHAT, ANA, Downloads(b"not an image").incoming("photo.jpg"), None) == [
        Reply(media_texts.unreadable_image_text())]
    assert model.requests == []


# --------------------------------------------------------------------------- statements


async def test_a_statement_is_one_preview_confirmed_by_a_press_and_the_same_file_again_writes_nothing(
        storage: InMemoryStorage) -> None:
    media = await household(storage, None)
    data = (SAMPLES / "itau_june.ofx").read_bytes()
    [preview] = await media.statement(CHAT, ANA, Downloads(data).incoming("itau_june.ofx"), "doc-10")
    assert isinstance(preview, Preview)
    assert preview.text.startswith("🏦 Importar 4 lançamentos")
    assert "NETFLIX.COM" in preview.text and "SALÁRIO EMPRESA X" in preview.text
    assert await actual(storage, "Farmácia") == Money.zero("BRL")
    await posted(media, preview)
    result = await media.household.press(CHAT, BRUNO.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert
    assert await actual(storage, "Farmácia") == Money.of("240.50", "BRL")
    assert await actual(storage, "Mercado") == Money.of("412.30", "BRL")
    assert await actual(storage, "Padaria") == Money.of("25.00", "BRL")
    await posted(media, preview)
    again = await media.household.press(CHAT, ANA.user_id, Decision.CONFIRM, preview.key)
    assert again.alert is False and again.answer == messages.already_confirmed_alert()
    [reply] = await media.statement(CHAT, ANA, Downloads(data).incoming("itau_june.ofx"), "doc-11")
    assert isinstance(reply, Reply) and "Nada novo" in reply.text and "Já importados antes: 4" in reply.text
    assert await actual(storage, "Farmácia") == Money.of("240.50", "BRL")


async def test_an_undone_statement_can_be_imported_again_once_in_memory(storage: InMemoryStorage) -> None:
    media = await household(storage, None)
    data = (SAMPLES / "itau_june.ofx").read_bytes()
    [first] = await media.statement(CHAT, ANA, Downloads(data).incoming("a.ofx"), "doc-1")
    assert isinstance(first, Preview)
    await posted(media, first)
    await media.household.press(CHAT, ANA.user_id, Decision.CONFIRM, first.key)
    undo = await media.household.press(CHAT, ANA.user_id, Decision.UNDO, first.key)
    assert undo.post is not None
    await posted(media, undo.post)
    await media.household.press(CHAT, BRUNO.user_id, Decision.CONFIRM, undo.post.key)
    assert await actual(storage, "Farmácia") == Money.zero("BRL")

    [again] = await media.statement(CHAT, ANA, Downloads(data).incoming("a.ofx"), "doc-2")
    assert isinstance(again, Preview) and again.text.startswith("🏦 Importar 4 lançamentos")
    await posted(media, again)
    await media.household.press(CHAT, ANA.user_id, Decision.CONFIRM, again.key)
    [third] = await media.statement(CHAT, ANA, Downloads(data).incoming("a.ofx"), "doc-3")
    assert isinstance(third, Reply) and "Já importados antes: 4" in third.text
    assert await actual(storage, "Farmácia") == Money.of("240.50", "BRL")


async def test_an_overlapping_statement_proposes_only_its_new_lines(storage: InMemoryStorage) -> None:
    media = await household(storage, None)
    [first] = await media.statement(CHAT, ANA, Downloads((SAMPLES / "itau_june.ofx").read_bytes())
                                    .incoming("a.ofx"), "doc-1")
    assert isinstance(first, Preview)
    await posted(media, first)
    await media.household.press(CHAT, ANA.user_id, Decision.CONFIRM, first.key)
    [second] = await media.statement(CHAT, ANA, Downloads((SAMPLES / "itau_june_overlap.ofx").read_bytes())
                                     .incoming("b.ofx"), "doc-2")
    assert isinstance(second, Preview) and second.text.startswith("🏦 Importar 2 lançamentos")
    await posted(media, second)
    await media.household.press(CHAT, ANA.user_id, Decision.CONFIRM, second.key)
    assert await actual(storage, "Mercado") == Money.of("642.45", "BRL")
    assert await actual(storage, "Padaria") == Money.of("43.00", "BRL")


@pytest.mark.parametrize("sample", ["itau_empty.ofx", "itau_truncated.ofx", "nubank_card_truncated.csv",
                                    "unknown_layout.csv", "itau_usd.ofx"])
async def test_an_awkward_statement_gets_a_pt_br_answer_and_proposes_nothing(
        storage: InMemoryStorage, sample: str) -> None:
    media = await household(storage, None)
    [reply] = await media.statement(CHAT, ANA, Downloads((SAMPLES / sample).read_bytes()).incoming(sample), "doc-1")
    assert isinstance(reply, Reply) and reply.text.startswith("🏦 ")
    assert storage.logs.get(f"chat:{CHAT}") is None or await storage.logs[f"chat:{CHAT}"].get("doc-1") is None


def zipped_statement() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("itau_june.ofx", (SAMPLES / "itau_june.ofx").read_bytes())
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 20, 30)).save(out, "PNG")
    return out.getvalue()


NOT_STATEMENTS = {
    "a 200 kB field": ("nubank.csv", ("date,title,amount\n2026-06-03," + "x" * 200_000 + ",5.00\n").encode(),
                       "mais de 128 KB"),
    "UTF-16": ("extrato.ofx", (SAMPLES / "itau_june.ofx").read_bytes().decode("latin-1").encode("utf-16"),
               "UTF-16"),
    "a ZIP": ("extrato.ofx", zipped_statement(), "compactado (ZIP"),
    "a PNG": ("extrato.ofx", png(), "imagem PNG"),
}


@pytest.mark.parametrize("what", list(NOT_STATEMENTS))
async def test_a_file_that_is_no_statement_is_answered_with_what_it_is_and_proposes_nothing(
        storage: InMemoryStorage, what: str) -> None:
    name, data, said = NOT_STATEMENTS[what]
    media = await household(storage, None)
    [reply] = await media.statement(CHAT, ANA, Downloads(data).incoming(name), "doc-1")
    assert isinstance(reply, Reply) and reply.text.startswith("🏦 ") and said in reply.text, reply
    assert "incompleto" not in reply.text and "Algo deu errado" not in reply.text
    assert storage.logs.get(f"chat:{CHAT}") is None or await storage.logs[f"chat:{CHAT}"].get("doc-1") is None


async def test_a_redelivered_statement_update_posts_no_second_preview(storage: InMemoryStorage) -> None:
    media = await household(storage, None)
    downloads = Downloads((SAMPLES / "nubank_card.csv").read_bytes())
    [preview] = await media.statement(CHAT, ANA, downloads.incoming("nubank.csv"), "doc-5")
    assert isinstance(preview, Preview)
    await media.household.preview_posted(CHAT, preview.operation_id, 77)
    assert await media.statement(CHAT, ANA, downloads.incoming("nubank.csv"), "doc-5") == []
    assert downloads.count == 1


async def test_the_agent_can_neither_see_nor_call_the_import_tool(storage: InMemoryStorage) -> None:
    model = ScriptedModel(call("importStatement", {"operationId": "x", "file": "f", "lines": []}), say("ok"))
    media = await household(storage, model)
    context = await media.household.context(CHAT)
    assert context is not None
    chat = AgentChat.create(model, context.tools, operations=context.operations)
    reply = await chat.send("importa", sender="Ana")
    assert reply.tool_calls[0].error is not None and "desconhecida" in reply.tool_calls[0].error
    assert all(schema["function"]["name"] != "importStatement" for schema in model.requests[0].tools)


# --------------------------------------------------------------------------- a model's suggestions


async def test_a_configured_model_may_place_unmatched_lines_and_the_preview_says_so(storage: InMemoryStorage) -> None:
    model = ScriptedModel(say('Claro: ```json\n{"NETFLIX.COM": "padaria", "OUTRA": "Mercado"}\n```'))
    media = await household(storage, model)
    data = (SAMPLES / "itau_june.ofx").read_bytes()
    [preview] = await media.statement(CHAT, ANA, Downloads(data).incoming("itau_june.ofx"), "doc-1")
    assert isinstance(preview, Preview) and preview.text.startswith("🏦 Importar 5 lançamentos")
    assert "• Padaria: 2 lançamentos, R$ 124,90 (1 sugerido pelo modelo)" in preview.text
    assert "Sem despesa correspondente" not in preview.text
    [request] = model.requests
    assert request.tools == [] and "NETFLIX.COM" in request.messages[-1]["content"]
    await posted(media, preview)
    await media.household.press(CHAT, BRUNO.user_id, Decision.CONFIRM, preview.key)
    assert await actual(storage, "Padaria") == Money.of("124.90", "BRL")


@pytest.mark.parametrize("answer", [say("não sei"), say('{"NETFLIX.COM": "Academia"}'),
                                    ModelFailure(FailureKind.UNREACHABLE)])
async def test_a_suggestion_that_fails_or_names_no_expense_leaves_the_line_apart(
        storage: InMemoryStorage, answer: object) -> None:
    media = await household(storage, ScriptedModel(answer))  # type: ignore[arg-type]
    data = (SAMPLES / "itau_june.ofx").read_bytes()
    [preview] = await media.statement(CHAT, ANA, Downloads(data).incoming("itau_june.ofx"), "doc-1")
    assert isinstance(preview, Preview) and preview.text.startswith("🏦 Importar 4 lançamentos")
    assert "Sem despesa correspondente (não serão importados): 1" in preview.text


async def test_a_preview_of_thousands_of_long_unmatched_lines_fits_one_telegram_message(
        storage: InMemoryStorage) -> None:
    media = await household(storage, None)
    rows = [f"2026-06-{1 + i % 28:02d},Farmácia {i},1.00" for i in range(10)]
    rows += [f"2026-06-{1 + i % 28:02d},{'COMPRA MUITO LONGA ' * 12}{i},2.00" for i in range(3000)]
    data = ("date,title,amount\n" + "\n".join(rows)).encode()
    [preview] = await media.statement(CHAT, ANA, Downloads(data).incoming("x" * 300 + ".csv"), "doc-1")
    assert isinstance(preview, Preview) and len(preview.text) < 4096
    assert "Sem despesa correspondente (não serão importados): 3000" in preview.text
