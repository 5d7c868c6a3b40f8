"""Presses that must write nothing (cases 6, 7, 8) and one whose answer comes too late (case 20),
through the webhook of an in-process bot, on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from decimal import Decimal

import pytest

from bot.texts import messages
from tests.e2e.harness import ANA, BRUNO, NOW, STRANGER, Group, Person, alerted, answer_text, without_keyboard
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.reliability.conftest import Bots, couple_with_groceries
from tests.reliability.report import Figures
from tests.reliability.scale import SCALE
from tests.reliability.support import actual_at, operations_at, sync

CHAT = -1008000000001
OTHER_CHAT = -1008000000002
CARLA = Person(503, "Carla")  # a member of the other chat's household only
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def _hostile_data(own_key: str, other_key: str) -> list[str]:
    forged = secrets.token_urlsafe(12)
    return [
        f"ok:{forged}", f"no:{forged}",  # a key nobody issued
        f"ok:{other_key}", f"no:{other_key}",  # another chat's real key
        "", "ok", "ok:", ":", "confirm:" + own_key, "OK:" + own_key, f"ok:{own_key}x",
        "ok:" + "A" * 33, "ok:' OR '1'='1", "ok:../../etc/passwd", "ok:\u0000", "ok:✅✅✅", "ok:ok:ok",
        "x" * 64,
    ]


def test_forged_other_chats_or_malformed_callback_data_is_alerted_writes_nothing_and_is_logged(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures, caplog: pytest.LogCaptureFixture) -> None:
    bot = bots.start()
    casa = couple_with_groceries(tg, bot, CHAT)
    outra = Group(tg, bot, OTHER_CHAT, title="Outra casa")
    outra.reply_to(CARLA, "/start")
    outra.confirm(CARLA, outra.propose(CARLA, "/despesa Mercado 900"))
    theirs = outra.propose(CARLA, "/gasto 50 mercado")
    ours = casa.propose(ANA, "/gasto 37,90 mercado")
    own_key = ours.confirm.partition(":")[2]
    other_key = theirs.confirm.partition(":")[2]
    hostile = _hostile_data(own_key, other_key) * SCALE.hostile_rounds

    with caplog.at_level(logging.WARNING, logger="bot"):
        answers = [casa.press(ANA, data, ours.message_id) for data in hostile]
    refused_logs = [r for r in caplog.records if r.levelno >= logging.WARNING and "refused" in r.getMessage()]

    alerts = sum(alerted(a) and answer_text(a) == messages.unknown_operation_alert() for a in answers)
    ours_after = sync(operations_at(bots.url, CHAT))[ours_id(ours.confirm, sync(operations_at(bots.url, CHAT)))]
    theirs_status = [op["status"] for op in sync(operations_at(bots.url, OTHER_CHAT)).values()
                     if op["key"] == other_key]
    written = sync(actual_at(bots.url, CHAT)) + sync(actual_at(bots.url, OTHER_CHAT))
    held = figures.add(6, bots.backend, attempts=len(hostile),
                       expected=f"{len(hostile)} alerts, 0 writes, {len(hostile)} logged",
                       seen=f"{alerts} alerts, {'0' if written == 0 else written} writes, "
                            f"{len(refused_logs)} logged")
    assert held, [(d, answer_text(a)) for d, a in zip(hostile, answers, strict=True)]
    assert ours_after["status"] == "pending" and theirs_status == ["pending"]
    # The real key still works, once: the hostile presses consumed nothing.
    answer, _ = casa.confirm(BRUNO, ours)
    assert answer_text(answer) == messages.confirmed_answer()
    assert sync(actual_at(bots.url, CHAT)) == Decimal("37.90")


def ours_id(confirm_data: str, stored: dict[str, dict[str, object]]) -> str:
    key = confirm_data.partition(":")[2]
    [operation_id] = [op for op, row in stored.items() if row["key"] == key]
    return operation_id


def test_a_non_member_pressing_confirmar_is_alerted_and_nothing_is_written(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    bot = bots.start()
    casa = couple_with_groceries(tg, bot, CHAT)
    outra = Group(tg, bot, OTHER_CHAT, title="Outra casa")
    outra.reply_to(CARLA, "/start")
    preview = casa.propose(ANA, "/gasto 37,90 mercado")
    presses = [(person, data) for person in (STRANGER, CARLA) for data in (preview.confirm, preview.cancel)]
    presses *= SCALE.hostile_rounds

    answers = [casa.press(person, data, preview.message_id) for person, data in presses]

    alerts = sum(alerted(a) and answer_text(a) == messages.not_a_member_alert() for a in answers)
    status = sync(operations_at(bots.url, CHAT))[ours_id(preview.confirm, sync(operations_at(bots.url, CHAT)))]
    written = sync(actual_at(bots.url, CHAT))
    held = figures.add(7, bots.backend, attempts=len(presses),
                       expected=f"{len(presses)} alerts, 0 writes, still pending",
                       seen=f"{alerts} alerts, {'0' if written == 0 else written} writes, still {status['status']}")
    assert held
    answer, _ = casa.confirm(BRUNO, preview)
    assert answer_text(answer) == messages.confirmed_answer()


class MovableClock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self):  # type: ignore[no-untyped-def]
        return self.now


def test_confirmar_after_the_preview_expired_is_refused_and_the_operation_is_marked_expired(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    clock = MovableClock()
    casa = couple_with_groceries(tg, bots.start(clock=clock), CHAT)
    previews = [casa.propose(ANA, f"/gasto {n} mercado") for n in range(1, SCALE.hostile_rounds + 2)]
    clock.now = NOW + timedelta(hours=48, minutes=1)  # OPERATION_TTL_HOURS is 48

    first = [casa.confirm(BRUNO, p) for p in previews]
    again = [casa.press(ANA, p.confirm, p.message_id) for p in previews]

    refused = sum(alerted(a) and answer_text(a) == messages.expired_alert() for a, _ in first)
    refused += sum(alerted(a) and answer_text(a) == messages.expired_alert() for a in again)
    assert all(without_keyboard(edit) for _, edit in first)
    statuses = sorted(row["status"] for row in sync(operations_at(bots.url, CHAT)).values()
                      if row["tool"] == "recordSpend")
    written = sync(actual_at(bots.url, CHAT))
    presses = 2 * len(previews)
    held = figures.add(8, bots.backend, attempts=presses,
                       expected=f"{presses} refused, {len(previews)} marked expired, 0 writes",
                       seen=f"{refused} refused, {statuses.count('expired')} marked expired, "
                            f"{'0' if written == 0 else written} writes")
    assert held


def test_a_callback_answered_too_late_is_handled_and_the_change_stands(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    casa = couple_with_groceries(tg, bots.start(), CHAT)
    rounds = SCALE.hostile_rounds + 1
    edits = 0
    for n in range(rounds):
        preview = casa.propose(ANA, f"/gasto {n + 1} mercado")
        since = casa.mark()
        tg.fail_next("answerCallbackQuery", status=400, description=TOO_OLD)
        update = casa.press_update(BRUNO, preview.confirm, preview.message_id)
        assert casa.post(update).status_code == 200
        edit = casa.wait_edit(preview.message_id, since=since)
        edits += without_keyboard(edit) and "Gasto registrado por Bruno" in edit.params["text"]
        [answer] = [c for c in tg.calls[since:] if c.method == "answerCallbackQuery"]
        assert answer.status == 400
        # No error reply reached the chat: the failed answer was handled, not raised.
        assert not [c for c in casa.sent(since)], [c.params["text"] for c in casa.sent(since)]

    written = sync(actual_at(bots.url, CHAT))
    expected = sum(range(1, rounds + 1))
    held = figures.add(20, bots.backend, attempts=rounds,
                       expected=f"{rounds} edits, R$ {expected} written",
                       seen=f"{edits} edits, R$ {written:.0f} written")
    assert held


@pytest.mark.parametrize("failures", [1, 3])
def test_a_callback_answer_telegram_fails_is_retried_and_never_turns_into_an_error_alert(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures, failures: int) -> None:
    """A 502 on answerCallbackQuery (Telegram, or the network, failing under load) after the write
    committed: retried as any send is; and when every attempt fails, the press is not answered
    again with an error alert about a write that did happen (the soak saw one such budget 'off')."""
    casa = couple_with_groceries(tg, bots.start(), CHAT)
    preview = casa.propose(ANA, "/gasto 12,34 mercado")
    since = casa.mark()
    tg.fail_next("answerCallbackQuery", status=502, times=failures)

    assert casa.post(casa.press_update(BRUNO, preview.confirm, preview.message_id)).status_code == 200
    edit = casa.wait_edit(preview.message_id, since=since)

    answers = [c for c in tg.calls[since:] if c.method == "answerCallbackQuery"]
    texts = {answer_text(c) for c in answers}
    written = sync(actual_at(bots.url, CHAT))
    held = figures.add(20, f"{bots.backend}, answer fails {failures}x with 502", attempts=len(answers),
                       expected="R$ 12.34 written, edited, only the confirmed answer",
                       seen=f"R$ {written} written, {'edited' if without_keyboard(edit) else 'not edited'}, "
                            f"{'only the confirmed answer' if texts == {messages.confirmed_answer()} else texts}")
    assert held
    assert len(answers) == min(failures + 1, 3)
    assert [c.status == 200 for c in answers][-1] is (failures < 3)
    assert not casa.sent(since), [c.params["text"] for c in casa.sent(since)]
