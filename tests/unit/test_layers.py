"""The layers are checked, not hoped for: bot -> infra -> domain, and a pure domain."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
# Pure computation, no I/O: Babel formats money, rapidfuzz measures a typo (domain/reading/names.py).
ALLOWED_THIRD_PARTY = {"babel", "rapidfuzz"}


def lint_imports() -> str:
    beside_python = Path(sys.executable).parent / "lint-imports"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports (import-linter) is not installed")
    return found


def test_the_import_linter_contracts_are_kept() -> None:
    result = subprocess.run(
        [lint_imports(), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def pure_domain_modules() -> list[Path]:
    # The agent's layers (pyproject's "the model loop -> tools -> operations") may use pydantic;
    # the rest of the domain, the model of the household, may not.
    agent_layers = [DOMAIN / "agent", DOMAIN / "tools", DOMAIN / "operations"]
    return sorted(p for p in DOMAIN.rglob("*.py") if not any(layer in p.parents for layer in agent_layers))


def imported_top_level_names(module: Path) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # A relative import stays inside the package, so it names the domain.
            names.add("domain" if node.level else (node.module or "").split(".")[0])
    return names


def test_there_are_domain_modules_to_check() -> None:
    names = {p.name for p in pure_domain_modules()}

    assert {"money.py", "budget.py", "goals.py", "household.py", "in_memory.py"} <= names


@pytest.mark.parametrize("module", pure_domain_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_domain_module_imports_only_the_standard_library_babel_rapidfuzz_and_the_domain(module: Path) -> None:
    allowed = set(sys.stdlib_module_names) | ALLOWED_THIRD_PARTY | {"domain"}

    foreign = imported_top_level_names(module) - allowed

    assert foreign == set(), f"{module.relative_to(ROOT)} imports {sorted(foreign)}"
