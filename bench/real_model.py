"""Issue 13's figures: the agent with a model that takes time, measured on real worker processes.

A `python -m bot webhook` worker talks to the fake OpenAI-compatible server (tests/fakes), which
answers every request after exactly `MODEL_SECONDS` (1.0 s), and to the fake Bot API, over
loopback HTTP as in bench/run.py:

  model_requests_per_proposal  chat-completion requests for a message ending in one preview   goal 1
  turn_with_1s_model_ratio     webhook POST -> the preview's sendMessage, / 1.0 s                 <= 1.15
  reply_confirm_vs_press       reply "confirma" -> preview edited, / the ✅ press -> edited        <= 1.2
  first_turn_vs_steady         a fresh worker's first message / a steady one (1 s model)          <= 1.3

The first message goes to a fresh worker once /healthz answers and its start-up work (the
litellm import on a thread) has gone idle, as after a deploy: the median over three fresh
workers; a steady message is the median of the following ones.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from bench.common import (
    ANA,
    BRUNO,
    GAP,
    TEXT,
    Driver,
    Server,
    free_port,
    in_chat,
    next_update_id,
    this_month,
    worker_command,
    worker_env,
)
from bench.seeding import seed_household, sqlite_database
from tests.fakes.telegram_api import callback_update, message_update

MODEL_SECONDS = 1.0
GOALS = {"model_requests_per_proposal": 1, "turn_with_1s_model_ratio": 1.15,
         "reply_confirm_vs_press": 1.2, "first_turn_vs_steady": 1.3}
FRESH_WORKERS = 3
CHATS = 12  # the couple's chats, so that no group meets Telegram's 20 messages a minute


async def idle(server: Server, quiet_cpu_s: float = 0.03, step: float = 0.5, timeout: float = 90.0) -> float:
    """Seconds until the worker's CPU time stops growing (its start-up work is done)."""
    started = time.perf_counter()
    last = server.cpu_s()
    while time.perf_counter() - started < timeout:
        await asyncio.sleep(step)
        now = server.cpu_s()
        if now - last < quiet_cpu_s:
            return time.perf_counter() - started
        last = now
    return time.perf_counter() - started


def reply_update(update_id: int, chat_id: int, user: tuple[int, str], text: str,
                 preview: Any) -> dict[str, Any]:
    update = message_update(update_id, chat_id, user[0], user[1], text)
    update["message"]["reply_to_message"] = {
        "message_id": preview.result["message_id"], "date": int(time.time()),
        "chat": update["message"]["chat"], "text": preview.params.get("text", ""),
        "from": {"id": 1, "is_bot": True, "first_name": "Bot"}}
    return update


async def measure_real_model(driver: Driver, api: str, workdir: Path, logdir: Path,
                             reps: int) -> dict[str, Any]:
    from tests.fakes.llm_server import FakeLLMServer, delay, text, tool_calls

    month = str(this_month())
    ids = itertools.count(1)

    def responder(body: dict[str, Any]) -> Any:
        if body["messages"][-1].get("role") == "tool":
            return delay(MODEL_SECONDS, text("Prévia acima: é só confirmar."))
        return delay(MODEL_SECONDS, tool_calls(("recordSpend", {
            "expense": "Mercado", "period": month, "operationId": f"op-{next(ids)}",
            "amount": {"amount": Decimal("37.90"), "currency": "BRL"}})))

    db = await sqlite_database(workdir, "real-model")
    chats = [-7_000_000 - n for n in range(CHATS)]
    await seed_household(db.database, chats)
    chat_cycle = itertools.cycle(chats)
    result: dict[str, Any] = {"model_seconds": MODEL_SECONDS}
    with FakeLLMServer(responder=responder) as llm:
        async def fresh_worker(n: int) -> Server:
            port = free_port()
            worker = Server(f"real-model-worker-{n}", worker_command(), port, logdir,
                            env=worker_env(api, db.url, port, llm.base_url), cwd=workdir)
            worker.spawn()
            result.setdefault("healthy_after_s", []).append(await worker.ready())
            result.setdefault("idle_after_healthy_s", []).append(await idle(worker))
            return worker

        async def turn() -> tuple[float, Any, int]:
            chat_id = next(chat_cycle)
            before = len(llm.requests)
            update_id = next_update_id()
            elapsed, preview = await driver.timed(
                server, message_update(update_id, chat_id, ANA[0], ANA[1], TEXT),
                "sendMessage", in_chat(chat_id, preview=True))
            await db.done(update_id)
            return elapsed, preview, len(llm.requests) - before

        # One sample of a first message per fresh worker; the last worker goes on steady.
        firsts = []
        for n in range(FRESH_WORKERS):
            server = await fresh_worker(n)
            firsts.append((await turn())[0])
            if n < FRESH_WORKERS - 1:
                server.stop()
        first = statistics.median(firsts)
        turns, requests, previews = [], [], []
        for _ in range(reps):
            elapsed, preview, made = await turn()
            turns.append(elapsed)
            requests.append(made)
            previews.append(preview)
            await asyncio.sleep(GAP)

        async def decided(update: dict[str, Any], preview: Any) -> float:
            chat_id, message_id = preview.params["chat_id"], preview.result["message_id"]
            elapsed, _ = await driver.timed(
                server, update, "editMessageText",
                lambda c: in_chat(chat_id)(c) and c.params.get("message_id") == message_id)
            await db.done(update["update_id"])
            await asyncio.sleep(GAP)
            return elapsed

        presses, replies = [], []
        for n, preview in enumerate(previews):  # alternate, so a busy moment slows both alike
            chat_id = preview.params["chat_id"]
            if n % 2:
                data = preview.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
                presses.append(await decided(callback_update(
                    next_update_id(), chat_id, BRUNO[0], BRUNO[1], data,
                    preview.result["message_id"]), preview))
            else:
                replies.append(await decided(reply_update(
                    next_update_id(), chat_id, BRUNO, "confirma", preview), preview))
        server.stop()
    await db.close()

    steady = statistics.median(turns)
    result.update(
        model_requests_per_proposal=statistics.median(requests),
        turn_with_1s_model_ratio=steady / MODEL_SECONDS,
        reply_confirm_vs_press=statistics.median(replies) / statistics.median(presses),
        first_turn_vs_steady=first / steady,
        details={"first_turn_ms": first * 1000, "first_turns_ms": [f * 1000 for f in firsts], "steady_turn_ms": steady * 1000,
                 "reply_confirm_ms": statistics.median(replies) * 1000,
                 "press_confirm_ms": statistics.median(presses) * 1000,
                 "turns": len(turns), "replies": len(replies), "presses": len(presses)})
    return result


def table(figures: dict[str, Any]) -> str:
    lines = [f"{'issue 13 (1 s model)':34}{'goal':>8}{'value':>14}"]
    for key, goal in GOALS.items():
        value = figures.get(key)
        ok = value is not None and value <= goal
        cell = ("-" if value is None else f"{value:.2f}") + (" ✓" if ok else " ✗")
        lines.append(f"{key:34}{('<= ' if key != 'model_requests_per_proposal' else '') + str(goal):>8}"
                     f"{cell:>14}")
    details = figures.get("details") or {}
    lines.append(f"  first turn {details.get('first_turn_ms', 0):.0f} ms, steady {details.get('steady_turn_ms', 0):.0f}"
                 f" ms; reply confirm {details.get('reply_confirm_ms', 0):.0f} ms, press "
                 f"{details.get('press_confirm_ms', 0):.0f} ms; worker idle "
                 f"{statistics.median(figures.get('idle_after_healthy_s') or [0]):.1f} s after /healthz")
    return "\n".join(lines)
