"""Case 18: hypothesis drives propose / press / the model's confirm / cancel / expire against the
real RecordSpendTool, Confirmer and SqlOperationLog on SQLite and PostgreSQL, and checks every
step against a small in-memory model of the contract's rules (§3, rules 1-4, and the TTL)."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from domain.budget import Budget
from domain.errors import OperationClosed, OperationConflict, UnknownOperation
from domain.money import Money, Period
from domain.operations.receipts import ToolReceipt
from domain.tools.budget import RecordSpendTool
from domain.tools.confirmer import Confirmer
from infra.db import SqlBudgetRepository, SqlOperationLog
from tests.integration.conftest import Backend
from tests.reliability.report import Figures
from tests.reliability.scale import SCALE

TTL = timedelta(hours=48)
START = datetime(2026, 6, 15, 15, 0, tzinfo=UTC)
JUNE = Period(2026, 6)
OPERATIONS = st.sampled_from(["op-1", "op-2", "op-3", "op-4"])
AMOUNTS = st.sampled_from([Decimal("1.00"), Decimal("2.50"), Decimal("37.90")])
_machines = itertools.count()


@dataclass
class Expected:
    """What the rules say one operation is."""

    status: str  # pending | confirmed | cancelled | expired
    amount: Decimal
    created: datetime
    receipt: dict[str, Any] | None = None  # the preview confirmed, never to change


def machine_on(backend: Backend, steps: list[int]) -> type[RuleBasedStateMachine]:
    class OperationRules(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            number = next(_machines)
            self.loop = asyncio.new_event_loop()
            self.database = backend.open()
            self.now = START
            self.budget_id = f"orc-sm-{number}"
            self.log = SqlOperationLog(self.database, f"sm-{number}", clock=lambda: self.now, ttl=TTL)
            self.expected: dict[str, Expected] = {}
            budget = Budget.create("BRL", id=self.budget_id)
            budget.register("Mercado", Money.of("1500", "BRL"))
            self.run(SqlBudgetRepository(self.database).save(budget))

        def run(self, coroutine: Any) -> Any:
            return self.loop.run_until_complete(coroutine)

        def teardown(self) -> None:
            self.run(self.database.dispose())
            self.loop.close()

        def tool(self) -> RecordSpendTool:
            built: RecordSpendTool = RecordSpendTool.create(
                budget_repo=SqlBudgetRepository(self.database), budget_id=self.budget_id, operations=self.log)
            return built

        def attempt(self, coroutine: Any) -> ToolReceipt | Exception:
            steps[0] += 1
            try:
                return self.run(coroutine)  # type: ignore[no-any-return]
            except (OperationClosed, OperationConflict, UnknownOperation) as refused:
                return refused

        def stale(self, op: Expected) -> bool:
            return op.status == "pending" and self.now - op.created > TTL

        def arguments(self, operation_id: str, amount: Decimal, confirm: bool) -> dict[str, Any]:
            return {"expense": "Mercado", "period": "2026-06", "operationId": operation_id, "confirm": confirm,
                    "amount": {"amount": amount, "currency": "BRL"}}

        def repeat_or_refusal(self, op: Expected, amount: Decimal | None,
                              outcome: ToolReceipt | Exception) -> None:
            """A decided operation: the same arguments repeat it, others conflict; closed stays closed."""
            if op.status == "confirmed":
                if amount is None or amount == op.amount:
                    assert isinstance(outcome, ToolReceipt) and outcome.confirmed and not outcome.persisted
                    assert outcome.preview == op.receipt  # a confirmed operation never changes
                else:
                    assert isinstance(outcome, OperationConflict), outcome
            else:
                assert isinstance(outcome, OperationClosed), outcome

        @rule(operation_id=OPERATIONS, amount=AMOUNTS)
        def propose(self, operation_id: str, amount: Decimal) -> None:
            outcome = self.attempt(self.tool().invoke(self.arguments(operation_id, amount, False)))
            op = self.expected.get(operation_id)
            if op is None or op.status == "pending":  # a new preview replaces a pending one
                assert isinstance(outcome, ToolReceipt) and not outcome.confirmed and not outcome.persisted
                self.expected[operation_id] = Expected("pending", amount, self.now)
            else:
                self.repeat_or_refusal(op, amount, outcome)

        @rule(operation_id=OPERATIONS)
        def press(self, operation_id: str) -> None:
            outcome = self.attempt(Confirmer([self.tool()], self.log).confirm(operation_id, by="Ana"))
            op = self.expected.get(operation_id)
            if op is None:
                assert isinstance(outcome, UnknownOperation), outcome
            elif self.stale(op):
                assert isinstance(outcome, OperationClosed), outcome
                op.status = "expired"
            elif op.status == "pending":
                assert isinstance(outcome, ToolReceipt) and outcome.persisted, outcome
                op.status, op.receipt = "confirmed", outcome.preview
            else:
                self.repeat_or_refusal(op, None, outcome)

        @rule(operation_id=OPERATIONS, amount=AMOUNTS)
        def model_confirms(self, operation_id: str, amount: Decimal) -> None:
            """The model's call with confirm=True (the chat's rule 8 is tested elsewhere)."""
            outcome = self.attempt(self.tool().invoke(self.arguments(operation_id, amount, True)))
            op = self.expected.get(operation_id)
            if op is None or (op.status == "pending" and op.amount != amount):
                # Rule 1: the first call never writes; rule 4: other arguments make a new preview.
                assert isinstance(outcome, ToolReceipt) and not outcome.confirmed
                self.expected[operation_id] = Expected("pending", amount, self.now)
            elif self.stale(op):
                assert isinstance(outcome, OperationClosed), outcome
                op.status = "expired"
            elif op.status == "pending":
                assert isinstance(outcome, ToolReceipt) and outcome.persisted, outcome
                op.status, op.receipt = "confirmed", outcome.preview
            else:
                self.repeat_or_refusal(op, amount, outcome)

        @rule(operation_id=OPERATIONS)
        def cancel(self, operation_id: str) -> None:
            steps[0] += 1
            try:
                stored = self.run(self.log.cancel(operation_id, cancelled_by="Bruno"))
            except UnknownOperation:
                assert operation_id not in self.expected
                return
            op = self.expected[operation_id]
            if op.status == "pending":
                op.status = "cancelled"
            assert stored.status.value == op.status

        @rule()
        def time_passes(self) -> None:
            self.now += timedelta(hours=7)

        @rule()
        def previews_expire(self) -> None:
            self.now += TTL + timedelta(minutes=1)

        @invariant()
        def the_budget_is_the_sum_of_the_confirmed_operations(self) -> None:
            budget = self.run(SqlBudgetRepository(self.database).load(self.budget_id))
            actual = budget.find_by_name("Mercado").actual_for(JUNE).amount
            assert actual == sum((op.amount for op in self.expected.values() if op.status == "confirmed"),
                                 Decimal(0))

        @invariant()
        def every_stored_operation_is_as_the_rules_say(self) -> None:
            for operation_id, op in self.expected.items():
                stored = self.run(self.log.get(operation_id))
                assert stored is not None and stored.status.value == op.status, (operation_id, op, stored)
                if op.status == "confirmed":
                    assert stored.receipt is not None and stored.receipt.preview == op.receipt

    return OperationRules


def test_a_state_machine_of_propose_confirm_cancel_repeat_conflict_and_expire_keeps_the_invariants(
        backend: Backend, figures: Figures) -> None:
    steps = [0]
    machine = machine_on(backend, steps)
    failure: BaseException | None = None
    try:
        run_state_machine_as_test(machine, settings=settings(
            max_examples=SCALE.machine_examples, stateful_step_count=SCALE.machine_steps, deadline=None,
            suppress_health_check=list(HealthCheck), database=None))
    except BaseException as error:  # record the figure, then fail with hypothesis's own report
        failure = error
    figures.add(18, backend.name, attempts=steps[0],
                expected=f"invariants hold in {SCALE.machine_examples} runs",
                seen=f"invariants hold in {SCALE.machine_examples} runs" if failure is None
                else f"broken: {type(failure).__name__}")
    if failure is not None:
        raise failure
