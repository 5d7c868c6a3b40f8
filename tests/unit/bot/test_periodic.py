"""The in-process check: every job runs each round with the clock's `now`, a failing job never
stops the others or the rounds, and stopping cancels the loop."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.telegram.periodic import Periodic


class Rounds:
    """An injected `sleep` that lets the test hand out the rounds one at a time."""

    def __init__(self) -> None:
        self.asked: asyncio.Queue[float] = asyncio.Queue()
        self.go = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        await self.asked.put(seconds)
        await self.go.wait()
        self.go.clear()


async def test_each_round_runs_every_job_with_the_clocks_now_and_survives_a_failing_job() -> None:
    now = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
    seen: list[tuple[str, datetime]] = []

    async def broken(moment: datetime) -> None:
        raise RuntimeError("database down")

    async def reminders(moment: datetime) -> None:
        seen.append(("reminders", moment))

    async def housekeeping(moment: datetime) -> None:
        seen.append(("housekeeping", moment))

    rounds = Rounds()
    clock_now = [now]
    runner = Periodic([broken, reminders, housekeeping], clock=lambda: clock_now[0], interval=60,
                      sleep=rounds.sleep)
    runner.start()
    assert await asyncio.wait_for(rounds.asked.get(), 5) == 60  # first round done, now waiting
    clock_now[0] = now + timedelta(minutes=1)
    rounds.go.set()
    assert await asyncio.wait_for(rounds.asked.get(), 5) == 60
    await runner.stop()

    assert seen == [("reminders", now), ("housekeeping", now),
                    ("reminders", now + timedelta(minutes=1)), ("housekeeping", now + timedelta(minutes=1))]


async def test_stopping_a_runner_that_never_started_is_harmless() -> None:
    runner = Periodic([], interval=60)
    await runner.stop()
    assert runner.jobs == []
