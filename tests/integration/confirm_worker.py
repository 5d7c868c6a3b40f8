"""A worker process that presses Confirmar: its own interpreter, engine and tool objects.

Kept out of the test module so that a spawned child imports only this.
"""

from __future__ import annotations

import asyncio
from typing import Any

from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from infra.db import Database, SqlBudgetRepository, SqlOperationLog


def confirm_in_process(url: str, engine_options: dict[str, Any], scope: str, budget_id: str,
                       operation_id: str, barrier: Any, results: Any) -> None:
    """Waits at `barrier` with every other worker, then confirms; puts `persisted` in `results`."""

    async def press() -> bool:
        database = Database(url, **engine_options)
        try:
            log = SqlOperationLog(database, scope)
            tool = RecordSpendTool.create(budget_repo=SqlBudgetRepository(database), budget_id=budget_id,
                                          operations=log)
            await log.get(operation_id)  # connect before the barrier: the race is the confirmation
            barrier.wait()
            receipt = await Confirmer([tool], log).confirm(operation_id)
            return receipt.persisted
        finally:
            await database.dispose()

    results.put(asyncio.run(press()))
