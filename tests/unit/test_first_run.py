"""A fresh clone's first run is quiet (issue 26, finding 20): `household-bot migrate` says one
line and no library says INFO, the console is reached with no token, and pytest summarizes the
PostgreSQL tests it skips in one line instead of one per file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def environment(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TELEGRAM_", "WEBHOOK_", "LLM_", "DATABASE_", "TEST_DATABASE_"))}
    env["PYTHONPATH"] = str(REPOSITORY)
    return {**env, **values}


def household_bot(*args: str, cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=environment(**env),
                          input=stdin, capture_output=True, text=True, timeout=120, check=False)


def test_migrate_says_one_line_and_no_library_logs_info(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'household.db'}"

    first = household_bot("migrate", cwd=tmp_path, DATABASE_URL=url)
    again = household_bot("migrate", cwd=tmp_path, DATABASE_URL=url)

    assert first.returncode == 0 and again.returncode == 0
    assert re.fullmatch(r"Banco de dados atualizado: \d+ migrações aplicadas \(versão \w+\)\.\n", first.stdout)
    assert re.fullmatch(r"Banco de dados em dia \(versão \w+\)\.\n", again.stdout)
    assert first.stderr == again.stderr == ""


def test_without_a_token_the_console_answers_and_logs_nothing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'household.db'}"

    run = household_bot("console", cwd=tmp_path, DATABASE_URL=url,
                        stdin="/start\n/despesa Mercado 1.500\n1\n/resumo\n")

    assert run.returncode == 0, run.stderr
    assert "household-bot no terminal" in run.stdout
    assert "Mercado: R$ 0,00 de R$ 1.500,00" in run.stdout
    assert " INFO " not in run.stdout + run.stderr and run.stderr == ""


def test_pytest_says_once_why_the_postgresql_tests_were_skipped(tmp_path: Path) -> None:
    files = ["tests/integration/db/test_expected_history.py", "tests/integration/db/test_sql_ledger.py"]

    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                         cwd=REPOSITORY, env=environment(), capture_output=True, text=True, timeout=300,
                         check=False)

    skipped = [line for line in run.stdout.splitlines() if "SKIPPED" in line]
    assert run.returncode == 0, run.stdout[-2000:]
    assert len(skipped) == 1, skipped
    assert "TEST_DATABASE_URL is not set" in skipped[0]
