"""The console drives the same service as Telegram, with numbered choices for the buttons."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app.schedule import Schedule
from bot.app.service import HouseholdService
from bot.commands.catalog import COMMANDS
from bot.console.console import Console, person_id
from bot.console.main import enable_line_editing, quiet_logging
from bot.texts import messages
from infra.settings import Settings
from tests.fakes.storage import InMemoryStorage

SAO_PAULO = "America/Sao_Paulo"


def clock() -> datetime:
    return datetime(2026, 6, 15, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


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

    assert await console.handle("oi, tudo bem por aí?")
    assert "/gasto" in printed[-1]
    assert not await console.handle("/fim")


async def test_a_first_command_in_a_new_console_says_to_start_and_names_nobody_after_it() -> None:
    console, printed = a_console()

    await console.handle("/despesa Aluguel 2.500")

    assert printed[-1] == messages.not_started_text() and "/start" in printed[-1]
    assert console.speaker is not None and console.speaker.first_name == "Eu"


async def test_people_keep_their_ids_by_name_across_a_restart() -> None:
    storage = InMemoryStorage(clock=clock)
    first = Console(HouseholdService(storage, model=None, clock=clock), write=[].append)
    await first.switch("Ana")
    await first.handle("/start")
    await first.switch("Bruno")
    await first.switch("Ana")
    printed: list[str] = []
    again = Console(HouseholdService(storage, model=None, clock=clock), write=printed.append)

    await again.switch("Bruno")  # typed first after the restart
    await again.handle("/entrar")
    assert "Bruno quer entrar na casa" in printed[-1]
    await again.switch("ana")
    await again.handle("/entrar")

    assert printed[-1] == "Ana já é membro da casa."
    assert person_id("Ana") != person_id("Bruno") == person_id("BRUNO")


async def test_previews_from_before_a_restart_are_listed_and_pressable() -> None:
    storage = InMemoryStorage(clock=clock)
    first = Console(HouseholdService(storage, model=None, clock=clock), write=[].append)
    await first.switch("Ana")
    await first.handle("/start")
    await first.handle("/despesa Luz 200")
    printed: list[str] = []
    again = Console(HouseholdService(storage, model=None, clock=clock), write=printed.append)
    await again.switch("Ana")

    await again.handle("/pendentes")
    assert "Luz" in printed[-1] and "[1] ✅ Confirmar" in printed[-1]
    await again.handle("1")

    assert printed[-1].startswith("✅ Despesa cadastrada por Ana")


async def test_a_wrong_number_gets_a_short_message_not_the_help() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")

    await console.handle("7")

    assert printed[-1] == "Não há opção 7. Veja as propostas pendentes com /pendentes."


async def test_log_lines_stay_out_of_the_conversation(capsys: pytest.CaptureFixture[str]) -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Luz 200")
    await console.switch("Carla")
    quiet_logging()

    await console.handle("1")  # a non-member's press, which the service logs as a warning

    assert "/entrar" in printed[-1]
    assert "refused" not in capsys.readouterr().err


def test_the_console_turns_line_editing_on() -> None:
    assert enable_line_editing() is True
    assert "readline" in sys.modules


# A session that uses every command of bot/commands/catalog.py once (and "/help", /ajuda's alias):
# each line, and a piece of what the console answers to it.
EVERY_COMMAND_SESSION = (
    ("/start", "Casa no terminal"),
    ("/despesa Mercado 1.500 dia 5", "[1] ✅ Confirmar"),
    ("1", "Despesa cadastrada por Ana"),
    ("/gasto 37,90 mercado", "R$ 37,90"),
    ("3", "por Ana"),
    ("/ajuste mercado 1.800", "R$ 1.800,00"),
    ("/meta Viagem 6000", "Viagem"),
    ("7", "por Ana"),
    ("/aporte 500 Viagem", "R$ 500,00"),
    ("/resumo", "Mercado: R$ 37,90 de R$ 1.500,00"),
    ("/metas", "Viagem"),
    ("/grafico", "grafico-2026-06.png"),
    ("/lembretes off", "/lembretes só funciona no Telegram"),
    ("/extrato", "R$ 37,90"),
    ("/desfazer", "↩️ Desfazer operação"),
    ("/renomear mercado para Feira", "Feira"),
    ("/arquivar Viagem", "Viagem"),
    ("/exportar", "extrato-completo.csv"),
    ("/ajuda", "• /ajuda: esta mensagem"),
    ("/help", "• /ajuda: esta mensagem"),
    ("/saldo", "Vocês estão quites."),
    ("/divisao", "Divisão dos gastos da casa: igual"),
    ("/divisao igual", "Mudar a divisão dos gastos"),
    ("/renda 7.000", "Atualizar renda de Ana"),
    ("/pix ana@exemplo.com", "Guardar a chave Pix de Ana"),
    ("/acerto", "Vocês estão quites"),
    ("/cartao Nubank fecha 3 vence 10", "💳 Cadastrar cartão"),
    ("23", "Cartão cadastrado por Ana"),
    ("/gasto 1.000 mercado no nubank em 3x", "em 3x de R$ 333,33 (a 1ª de R$ 333,34)"),
    ("25", "Gasto registrado por Ana"),
    ("/cartoes", "Nubank: fecha dia 3, vence dia 10 · fatura de julho de 2026: R$ 333,34"),
    ("/fatura nubank", "Mercado 1/3: R$ 333,34 (Ana)"),
    ("/apagar", "Casa no terminal"),
    ("/eu Bruno", "(agora falando: Bruno)"),
    ("/entrar", "Bruno quer entrar na casa"),
    ("/sair", "Você não é membro desta casa."),
)


async def test_a_console_session_reaches_every_command(tmp_path: Path) -> None:
    printed: list[str] = []
    storage = InMemoryStorage(clock=clock)
    service = HouseholdService(storage, model=None, clock=clock)
    console = Console(service, write=printed.append, folder=tmp_path, charts=charts(storage, service))
    await console.switch("Ana")
    typed = {line.split()[0].removeprefix("/") for line, _ in EVERY_COMMAND_SESSION if line.startswith("/")}
    assert typed - {"eu"} == {name for command in COMMANDS for name in command.names}

    for line, expected in EVERY_COMMAND_SESSION:
        before = len(printed)
        await console.handle(line)
        answer = "\n".join(printed[before:])
        assert expected in answer, (line, answer)
        assert "Comando desconhecido" not in answer

    exported = (tmp_path / "extrato-completo.csv").read_bytes()
    assert exported.startswith("\ufeff".encode()) and b"37,90" in exported


# --------------------------------------------------------------------------- issue 26: a bare "confirma"


async def test_a_bare_confirma_with_several_previews_pending_asks_which_and_confirms_none() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Mercado 1.500")
    await console.handle("1")
    await console.handle("/gasto 37,90 mercado")
    await console.handle("/gasto 12,50 mercado")
    before = len(printed)

    await console.handle("confirma")
    asked = "\n".join(printed[before:])
    await console.handle("/resumo")

    assert asked.startswith("Há 2 propostas esperando. Qual delas?")
    assert "digite o número" in asked and "R$ 37,90" in asked and "R$ 12,50" in asked
    assert "Mercado: R$ 0,00 de R$ 1.500,00" in printed[-1]


async def test_a_bare_confirma_after_apagar_erases_nothing() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Mercado 1.500")
    await console.handle("1")
    await console.handle("/apagar")

    await console.handle("confirma")
    await console.handle("/resumo")

    assert "Mercado: R$ 0,00 de R$ 1.500,00" in printed[-1]


async def test_a_bare_confirma_with_nothing_pending_says_so() -> None:
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")

    await console.handle("confirma")

    assert printed[-1] == "Nada pendente para confirmar."


async def test_an_unknown_command_gets_the_closest_one_offered() -> None:
    # Issue 26, finding 11.
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")

    await console.handle("/gasot 10 mercado")
    await console.handle("/pendetes")
    await console.handle("/xyzzy")

    assert printed[-3] == "Comando desconhecido: /gasot. Você quis dizer /gasto?"
    assert printed[-2] == "Comando desconhecido: /pendetes. Você quis dizer /pendentes?"
    assert printed[-1] == "Comando desconhecido: /xyzzy. Veja /ajuda."


async def test_the_consoles_household_can_be_renamed() -> None:
    # Issue 26, finding 15: it was always "Casa no terminal".
    console, printed = a_console()
    await console.switch("Ana")
    await console.handle("/start")

    await console.handle("/renomear casa para Lar da Ana")
    await console.handle("1")
    await console.handle("/apagar")

    assert "Casa: Lar da Ana" in printed[-1]


def charts(storage: InMemoryStorage, service: HouseholdService) -> Any:
    """/grafico's drawing, as bootstrap's Services.schedule gives the console (no store or sender:
    a chart on demand needs neither)."""
    return Schedule(storage, None, None, service.month, timezone=SAO_PAULO, clock=clock).chart  # type: ignore[arg-type]


async def test_exportar_and_grafico_write_into_the_data_folder_and_say_the_full_path(tmp_path: Path) -> None:
    # Issue 26, finding 16: /grafico said "só no Telegram", /exportar wrote into the repository.
    printed: list[str] = []
    storage = InMemoryStorage(clock=clock)
    service = HouseholdService(storage, model=None, clock=clock)
    folder = tmp_path / "data"
    console = Console(service, write=printed.append, folder=folder, charts=charts(storage, service))
    await console.switch("Ana")
    await console.handle("/start")
    await console.handle("/despesa Mercado 1.500")
    await console.handle("1")

    await console.handle("/exportar junho")
    await console.handle("/grafico junho")

    csv, png = folder / "extrato-2026-06.csv", folder / "grafico-2026-06.png"
    assert printed[-2] == f"🧾 Lançamentos de junho de 2026: {csv.resolve()}"
    assert printed[-1] == f"📊 Junho de 2026: previsto x gasto e metas: {png.resolve()}"
    assert csv.read_bytes().startswith(b"\xef\xbb\xbf") and png.read_bytes().startswith(b"\x89PNG")


def test_the_consoles_data_folder_is_kept_out_of_git() -> None:
    repository = Path(__file__).resolve().parents[3]
    for written in ("data/extrato-completo.csv", "data/grafico-2026-06.png"):
        ignored = subprocess.run(["git", "check-ignore", "-q", written], cwd=repository, check=False)
        assert ignored.returncode == 0, written
    assert Settings.model_fields["data_dir"].default == Path("data")


async def test_eu_without_a_name_says_who_is_speaking_and_how_to_change_it() -> None:
    # Issue 26, finding 17: it silently switched to a member called "Membro".
    console, printed = a_console()
    await console.switch("Ana")

    await console.handle("/eu")

    assert printed[-1] == "Quem fala agora é Ana. Para trocar: /eu <nome>, como /eu Bruno."
    assert console.speaker is not None and console.speaker.first_name == "Ana"
