"""Worker processes for the races and the kills: each its own interpreter, engine and service.

Spawned by multiprocessing, so they import only this module. Every race starts at a
multiprocessing.Barrier shared by all the workers, never after a sleep.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.app.outcomes import Decision
from bot.app.service import HouseholdService
from domain.budget import Budget
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from infra.db import Database, SqlBudgetRepository, SqlOperationLog, SqlStorage

Press = tuple[int, str, str]  # (Telegram user id, a Decision's value, the operation's key)


def press_rounds(url: str, engine_options: dict[str, Any], chat_id: int,
                 rounds: list[list[Press]], barrier: Any, results: Any) -> None:
    """For each round: wait at `barrier` with every other worker, then make all of the round's
    presses at once (one task each). Puts [[(answer, alert), ...] per round] in `results`."""

    async def run() -> list[list[tuple[str, bool]]]:
        database = Database(url, **engine_options)
        try:
            service = HouseholdService(SqlStorage(database))
            await service.member(chat_id, rounds[0][0][0])  # connect before the first race
            answers = []
            for presses in rounds:
                barrier.wait()
                outcomes = await asyncio.gather(*(service.press(chat_id, user, Decision(decision), key)
                                                  for user, decision, key in presses))
                answers.append([(o.answer, o.alert) for o in outcomes])
            return answers
        finally:
            await database.dispose()

    results.put(asyncio.run(run()))


class _SaveThenHang(SqlBudgetRepository):
    """Saves inside the confirmation's transaction, tells the parent, then hangs before COMMIT."""

    def __init__(self, database: Database, saved: Any) -> None:
        super().__init__(database)
        self._saved = saved

    async def save(self, budget: Budget) -> None:
        await super().save(budget)
        assert self._db.current is not None, "the save must be inside the confirmation"
        self._saved.set()
        time.sleep(600)  # blocks the loop: the transaction stays open until SIGKILL


def confirm_and_hang(url: str, engine_options: dict[str, Any], scope: str, budget_id: str,
                     operation_id: str, saved: Any) -> None:
    """Confirms `operation_id` and hangs between the aggregate's write and the commit."""

    async def run() -> None:
        database = Database(url, **engine_options)
        log = SqlOperationLog(database, scope)
        tool = RecordSpendTool.create(budget_repo=_SaveThenHang(database, saved), budget_id=budget_id,
                                      operations=log)
        await Confirmer([tool], log).confirm(operation_id, by="Ana")

    asyncio.run(run())


def remind_at(url: str, engine_options: dict[str, Any], now: str, timezone: str, barrier: Any, results: Any) -> None:
    """One worker's schedule check at `now` (ISO), after waiting at `barrier` with the others:
    puts the (chat id, text) of every message it sent in `results`."""
    from datetime import datetime

    from bot.app.schedule import Schedule
    from infra.db.stores.schedule import ScheduleStore

    class Recorder:
        def __init__(self) -> None:
            self.sent: list[tuple[int, str]] = []

        async def send_text(self, chat_id: int, text: str) -> None:
            self.sent.append((chat_id, text))

        async def send_photo(self, chat_id: int, png: bytes, caption: str) -> None:
            self.sent.append((chat_id, caption))

    async def run() -> list[tuple[int, str]]:
        database = Database(url, **engine_options)
        try:
            storage = SqlStorage(database)
            service = HouseholdService(storage, timezone=timezone)
            sender = Recorder()
            moment = datetime.fromisoformat(now)
            schedule = Schedule(storage, ScheduleStore(database), sender, service.month,  # type: ignore[arg-type]
                                timezone=timezone, clock=lambda: moment)
            await storage.is_departed(0)  # connect before the race
            barrier.wait()
            await schedule.run_due(moment)
            return sender.sent
        finally:
            await database.dispose()

    results.put(asyncio.run(run()))
