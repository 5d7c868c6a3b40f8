"""The media adapters over loopback: the transcriber against the fake OpenAI-compatible server,
and which endpoint and key the settings give the transcriber and the vision model."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from bot.bootstrap import default_transcriber, default_vision_model
from domain.agent.model import FailureKind, ModelFailure
from infra.llm import LiteLLMModel, LiteLLMTranscriber, reads_images
from infra.settings import Settings
from tests.fakes.llm_server import FakeLLMServer

KEY = "sk-transcribe-secret-123456"


@pytest.fixture
def llm() -> Iterator[FakeLLMServer]:
    importlib.import_module("litellm")
    with FakeLLMServer() as server:
        yield server


async def test_a_voice_note_is_posted_as_multipart_and_its_text_comes_back(llm: FakeLLMServer) -> None:
    llm.transcripts.append("  paguei 180 na farmácia ")
    transcriber = LiteLLMTranscriber("openai/whisper-1", api_base=llm.base_url, api_key=KEY)
    assert await transcriber.transcribe(b"OggS-bytes", "voice.ogg") == "paguei 180 na farmácia"
    [sent] = llm.audio
    assert sent["model"] == "whisper-1" and sent["filename"] == "voice.ogg" and sent["content"] == b"OggS-bytes"


@pytest.mark.parametrize(("status", "kind"), [(503, FailureKind.SERVER_ERROR), (401, FailureKind.AUTHENTICATION)])
async def test_a_failed_transcription_is_a_model_failure_that_carries_no_key(
        llm: FakeLLMServer, status: int, kind: FailureKind) -> None:
    llm.transcripts.append(status)
    transcriber = LiteLLMTranscriber("openai/whisper-1", api_base=llm.base_url, api_key=KEY)
    with pytest.raises(ModelFailure) as failed:
        await transcriber.transcribe(b"x", "voice.ogg")
    assert failed.value.kind is kind and KEY not in str(failed.value)


def test_the_transcription_endpoint_and_key_default_to_the_chat_models() -> None:
    settings = Settings(llm_model="openai/gpt-4o-mini", llm_api_base="http://llm/v1", llm_api_key="k-chat-1234",
                        _env_file=None)  # type: ignore[call-arg]
    transcriber = default_transcriber(settings)
    assert isinstance(transcriber, LiteLLMTranscriber)
    assert (transcriber.model, transcriber._api_base, transcriber._api_key) == (
        "openai/whisper-1", "http://llm/v1", "k-chat-1234")
    own = Settings(llm_model="openai/gpt-4o-mini", llm_api_base="http://llm/v1",
                   transcription_model="groq/whisper-large-v3", transcription_api_base="http://groq/v1",
                   transcription_api_key="k-groq-1234", _env_file=None)  # type: ignore[call-arg]
    transcriber = default_transcriber(own)
    assert isinstance(transcriber, LiteLLMTranscriber)
    assert (transcriber.model, transcriber._api_base, transcriber._api_key) == (
        "groq/whisper-large-v3", "http://groq/v1", "k-groq-1234")
    assert default_transcriber(Settings(_env_file=None)) is None  # type: ignore[call-arg]


def test_photos_go_to_vision_model_when_set() -> None:
    assert default_vision_model(Settings(llm_model="openai/x", _env_file=None)) is None  # type: ignore[call-arg]
    vision = default_vision_model(Settings(llm_model="openai/x", vision_model="openai/gpt-4o",  # type: ignore[call-arg]
                                           _env_file=None))
    assert isinstance(vision, LiteLLMModel) and vision.model == "openai/gpt-4o"


def test_the_model_map_says_which_models_read_images_and_an_unknown_one_is_tried() -> None:
    assert reads_images("openai/gpt-4o-mini")
    assert not reads_images("openai/gpt-3.5-turbo")
    assert reads_images("openai/some-local-model")
