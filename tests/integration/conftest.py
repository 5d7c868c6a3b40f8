"""Fixtures for the SQL tier: every test runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.

PostgreSQL tests run in a schema of their own (named per test session) rather than `public`,
so a run never touches another run's tables on a shared server.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from infra.db.engine import Database, database_url
from infra.db.migrate import upgrade, upgrade_database
from tests.conftest import NO_POSTGRES

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=[
        pytest.mark.postgres,
        pytest.mark.skipif(not TEST_DATABASE_URL,
                           reason=NO_POSTGRES),
    ]),
]


@dataclass(frozen=True)
class Backend:
    """Where a test's database lives; `open()` gives a new Database (a new engine) on it."""

    name: str
    url: str
    engine_options: dict[str, Any] = field(default_factory=dict)

    def open(self) -> Database:
        options = {key: (dict(value) if isinstance(value, dict) else value)
                   for key, value in self.engine_options.items()}
        return Database(self.url, **options)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test: faster than migrating each time."""
    path = tmp_path_factory.mktemp("template") / "household.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_schema() -> Iterator[str]:
    schema = f"household_it_{os.getpid()}_{secrets.token_hex(3)}"
    yield schema
    if TEST_DATABASE_URL:
        asyncio.run(_recreate_schema(schema, create=False))


async def _recreate_schema(schema: str, *, create: bool = True) -> None:
    import asyncpg  # only the PostgreSQL runs need it

    plain_url = database_url(TEST_DATABASE_URL).replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(plain_url)
    try:
        await connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        if create:
            await connection.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await connection.close()


def _postgres(schema: str) -> Backend:
    return Backend("postgresql", TEST_DATABASE_URL,
                   {"connect_args": {"server_settings": {"search_path": schema}}})


@pytest.fixture(params=BACKENDS)
def blank_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database, not migrated."""
    if request.param == "sqlite":
        return Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'household.db'}")
    schema: str = request.getfixturevalue("postgres_schema")
    asyncio.run(_recreate_schema(schema))
    return _postgres(schema)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database migrated to head."""
    if request.param == "sqlite":
        path = tmp_path / "household.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return Backend("sqlite", f"sqlite+aiosqlite:///{path}")
    schema: str = request.getfixturevalue("postgres_schema")
    postgres = _postgres(schema)

    async def migrate() -> None:
        await _recreate_schema(schema)
        database = postgres.open()
        try:
            await upgrade_database(database)
        finally:
            await database.dispose()

    asyncio.run(migrate())
    return postgres


@pytest.fixture
async def database(backend: Backend) -> AsyncIterator[Database]:
    """A migrated, empty database for this test."""
    opened = backend.open()
    try:
        yield opened
    finally:
        await opened.dispose()
