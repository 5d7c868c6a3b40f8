"""A deploy that explains itself (issue 26): `.env.example` names every setting with a comment,
the Python version is pinned where platforms read it, `requirements.txt` pins every dependency of
`pyproject.toml`, and the README's deploy steps come in the order they are done."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.__main__ import COMMANDS
from infra.settings import Settings

REPOSITORY = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]


def read(name: str) -> str:
    return (REPOSITORY / name).read_text(encoding="utf-8")


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_env_example_names_every_setting_once_each_after_a_one_line_comment() -> None:
    lines = read(".env.example").splitlines()
    named = {}
    for index, line in enumerate(lines):
        found = re.fullmatch(r"#? ?([A-Z][A-Z0-9_]+)=.*", line)
        if found:
            named[found[1]] = index
    settings = {name.upper() for name in Settings.model_fields}

    assert set(named) == settings
    for name, index in named.items():
        before = lines[index - 1]
        assert before.startswith("# ") and index - 1 not in named.values(), f"{name} has no comment above it"


def test_the_python_version_is_pinned_for_the_platforms_that_read_it() -> None:
    major = read(".python-version").strip()
    runtime = read("runtime.txt").strip()

    assert major == "3.11" and PROJECT["requires-python"] == ">=3.11"
    assert re.fullmatch(r"python-3\.11\.\d+", runtime)


def test_requirements_pin_every_dependency_of_pyproject_and_say_how_they_were_made() -> None:
    text = read("requirements.txt")
    pinned = {normalized(line.split("==")[0]) for line in text.splitlines() if "==" in line}
    wanted = {normalized(re.split(r"[\[<>=!~ ;]", dependency)[0]) for dependency in PROJECT["dependencies"]}

    assert wanted <= pinned, wanted - pinned
    assert "scripts/lock" in text.splitlines()[0]
    assert text.splitlines()[-1] == "."  # the project itself, which gives the household-bot command
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[^ ]+", line) for line in text.splitlines()
               if line and not line.startswith("#") and line != ".")


def test_the_readme_deploy_steps_come_in_order_and_end_with_doctor_and_the_group() -> None:
    readme = read("README.md")
    section = readme[readme.index("## Deploying"):readme.index("## Where to change what")]
    steps = re.findall(r"^\d+\. \*\*(.+?)\*\*", section, flags=re.MULTILINE)

    assert [step.rstrip(".") for step in steps] == [
        "Token", "Privacy mode", "Database", "Variables", "Release: migrate", "Webhook", "Doctor",
        "Add to the group"]
    assert "household-bot doctor" in section and ".env.example" in section
    assert len(readme.splitlines()) <= 250


def test_the_procfile_runs_commands_household_bot_has() -> None:
    for line in read("Procfile").splitlines():
        _, _, command = line.partition(": ")
        assert command.split()[:1] == ["household-bot"] and command.split()[1] in COMMANDS, line
    assert "doctor" in COMMANDS
