"""Confirmation by reply (contract §8): which words decide a preview, and the console's "confirma"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app.service import HouseholdService
from bot.console.console import Console
from domain.reading.replies import decision_of
from tests.fakes.storage import InMemoryStorage


@pytest.mark.parametrize("text", ["confirma", "Confirmar", "CONFIRMADO!", "sim", "Sim.", " pode ", "ok",
                                  "OK!!", "👍", "👍🏽", "👍️", "¡confirma!"])
def test_a_confirmation_word_alone_confirms_whatever_its_case_accents_or_punctuation(text: str) -> None:
    assert decision_of(text) == "confirm"


@pytest.mark.parametrize("text", ["cancela", "Cancelar", "não", "Não!", "nao", "NÃO."])
def test_a_cancellation_word_alone_cancels(text: str) -> None:
    assert decision_of(text) == "cancel"


@pytest.mark.parametrize("text", ["", None, "ok, mas foi 40", "sim sim", "pode ser 50?", "não sei",
                                  "confirma o gasto de 50", "okay", "👍👍", "não, foi 250"])
def test_anything_more_than_a_decision_is_no_decision(text: str | None) -> None:
    assert decision_of(text) is None


def clock() -> datetime:
    return datetime(2026, 6, 15, 12, tzinfo=UTC)


def a_console() -> tuple[Console, list[str]]:
    printed: list[str] = []
    service = HouseholdService(InMemoryStorage(clock=clock), model=None, clock=clock)
    return Console(service, write=printed.append), printed


async def test_in_the_console_confirma_after_a_preview_confirms_it_like_a_reply_with_no_model() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Mercado 1.500")
    assert "responda confirma" in printed[-1]

    await console.handle("Confirma!")
    await console.handle("/gasto 10 mercado")
    await console.handle("não")
    await console.handle("/resumo")

    assert printed[-4].startswith("✅ Despesa cadastrada por Ana")
    assert "cancelad" in printed[-2].lower()
    assert "Mercado: R$ 0,00 de R$ 1.500,00" in printed[-1]


async def test_in_the_console_a_stranger_saying_sim_writes_nothing() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Luz 200")
    await console.handle("/eu Carla")

    await console.handle("sim")
    await console.handle("/eu Ana")
    await console.handle("/resumo")

    assert "Luz" not in printed[-1]


async def test_in_the_console_ok_after_the_preview_was_decided_says_nothing_is_pending() -> None:
    # Issue 26, finding 12: it went to the agent ("Não entendo texto livre…" without a model).
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Luz 200")
    await console.handle("1")

    await console.handle("ok")
    await console.handle("ok, e o que mais?")

    assert printed[-2] == "Nada pendente para confirmar."
    assert "/gasto" in printed[-1], "other free text without a model gets the commands"
