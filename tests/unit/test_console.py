"""The console drives the same service as Telegram, with numbered choices for the buttons."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.console import Console
from bot.service import HouseholdService
from tests.fakes.storage import InMemoryStorage


def clock() -> datetime:
    return datetime(2026, 6, 15, 12, tzinfo=UTC)


def a_console() -> tuple[Console, list[str]]:
    printed: list[str] = []
    service = HouseholdService(InMemoryStorage(clock=clock), model=None, clock=clock)
    return Console(service, write=printed.append), printed


async def test_a_preview_is_confirmed_by_typing_its_number_and_only_once() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Mercado 1.500 dia 5")
    assert "[1] ✅ Confirmar   [2] ❌ Cancelar" in printed[-1]

    await console.handle("1")
    await console.handle("1")
    await console.handle("/gasto 37,90 mercado")
    await console.handle("3")
    await console.handle("/resumo")

    assert printed[-5].startswith("✅ Despesa cadastrada por Ana")
    assert printed[-4] == "Essa operação já foi confirmada."
    assert "Mercado: R$ 37,90 de R$ 1.500,00" in printed[-1]


async def test_the_speaker_can_be_switched_and_a_stranger_cannot_press() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Luz 200")
    await console.handle("/eu Carla")

    await console.handle("1")

    assert "(agora falando: Carla)" in printed
    assert "/entrar" in printed[-1]


async def test_free_text_without_a_model_points_to_the_commands_and_quit_ends() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")

    assert await console.handle("oi, quanto gastamos?")
    assert "/gasto" in printed[-1]
    assert not await console.handle("/fim")
