"""No cold first message (issue 13): litellm is imported on a worker thread, never on the event loop."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

import pytest

from infra import llm


async def test_the_warm_up_imports_litellm_on_a_worker_thread_while_the_loop_keeps_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop_thread = threading.get_ident()
    importing_on: list[int] = []
    release = threading.Event()
    original = llm._litellm

    def slow_import() -> Any:
        importing_on.append(threading.get_ident())
        release.wait(timeout=10)  # an import in progress, as long as the test wants
        return original()

    monkeypatch.setattr(llm, "_litellm", slow_import)

    task = llm.warm_up()
    ticks = 0
    while not importing_on:
        await asyncio.sleep(0)
    for _ in range(50):  # the loop runs other work while the import is in progress
        await asyncio.sleep(0)
        ticks += 1
    assert not task.done()
    release.set()
    module = await task

    assert ticks == 50
    assert importing_on and loop_thread not in importing_on
    assert module.acompletion is not None


async def test_once_imported_the_model_gets_litellm_without_a_thread_hop(monkeypatch: pytest.MonkeyPatch) -> None:
    await llm.import_litellm()

    def no_threads(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no thread once litellm is imported")

    monkeypatch.setattr(asyncio, "to_thread", no_threads)
    module = await llm.import_litellm()
    assert module is sys.modules["litellm"]
