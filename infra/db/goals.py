"""Goals: the root row, its members, and contributions appended by position."""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from domain.errors import NotFound
from domain.goals import Contribution, Goal
from domain.household import Member
from infra.db.aggregates import appended_since, bump_version, insert_root, remember_saved
from infra.db.engine import Database
from infra.db.tables import contributions, goal_members, goals
from infra.db.values import money_from_minor

KIND = "Meta"


@dataclass(frozen=True)
class GoalState:
    members: tuple[tuple[str, str], ...]
    contributions: tuple[Contribution, ...]


def _root_values(goal: Goal) -> dict[str, Any]:
    return {"household_id": goal.household_id, "name": goal.name,
            "target_minor": goal.target.to_minor_units(), "target_currency": goal.target.currency,
            "created_at": goal.created_at, "deadline": goal.deadline}


def _member_pairs(goal: Goal) -> tuple[tuple[str, str], ...]:
    return tuple((m.id, m.name) for m in goal.members)


def _contribution_row(goal_id: str, position: int, contribution: Contribution) -> dict[str, Any]:
    return {"goal_id": goal_id, "position": position, "member_id": contribution.paid_by.id,
            "member_name": contribution.paid_by.name,
            "amount_minor": contribution.amount.to_minor_units(),
            "currency": contribution.amount.currency, "date": contribution.date}


class SqlGoalRepository:
    """The GoalRepository port over SQL."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def load(self, goal_id: str) -> Goal:
        async with self._db.reading() as connection:
            query = select(goals).where(goals.c.id == goal_id)
            if self._db.current is not None:
                query = query.with_for_update()  # confirmations of one goal queue here
            root = (await connection.execute(query)).one_or_none()
            if root is None:
                raise NotFound(KIND, goal_id)
            found = await _assemble(connection, [root])
        return self._remember(found)[0]

    async def list(self, household_id: str | None = None) -> builtins.list[Goal]:
        """The household's goals (by goals.household_id), oldest first; every goal without one."""
        query = select(goals).order_by(goals.c.created_at, goals.c.name, goals.c.id)
        if household_id is not None:
            query = query.where(goals.c.household_id == household_id)
        async with self._db.reading() as connection:
            roots = (await connection.execute(query)).all()
            found = await _assemble(connection, roots)
        return self._remember(found)

    async def save(self, goal: Goal) -> None:
        async with self._db.transaction() as unit:
            connection = unit.connection
            before: GoalState | None = self._db.snapshots.get(goal)
            if before is None and goal.version == 0:
                await insert_root(connection, goals, {"id": goal.id, **_root_values(goal)}, KIND)
                before = GoalState((), ())
            else:
                await bump_version(connection, goals, goal, _root_values(goal), KIND)
                if before is None:  # not loaded through this database: diff against the store
                    stored = await _assemble(connection, [await _root(connection, goal.id)])
                    before = stored[0][1]
            after = await _write_children(connection, goal, before)
            remember_saved(self._db, unit, goal, after)

    def _remember(self, found: builtins.list[tuple[Goal, GoalState]]) -> builtins.list[Goal]:
        for goal, state in found:
            self._db.snapshots[goal] = state
        return [goal for goal, _ in found]


async def _root(connection: AsyncConnection, goal_id: str) -> Any:
    return (await connection.execute(select(goals).where(goals.c.id == goal_id))).one()


async def _assemble(connection: AsyncConnection, roots: Sequence[Any]) -> list[tuple[Goal, GoalState]]:
    """Goals for `roots`, with their members and contributions in two queries for all of them."""
    if not roots:
        return []
    ids = [root.id for root in roots]
    members_of: dict[str, list[Member]] = defaultdict(list)
    for goal_id, member_id, name in await connection.execute(
        select(goal_members.c.goal_id, goal_members.c.member_id, goal_members.c.member_name)
        .where(goal_members.c.goal_id.in_(ids))
        .order_by(goal_members.c.goal_id, goal_members.c.position)
    ):
        members_of[goal_id].append(Member(member_id, name))
    paid_of: dict[str, list[Contribution]] = defaultdict(list)
    # The goal's own Member objects for its contributors, so `paid_by in goal.members` holds.
    member_by_id: dict[str, dict[str, Member]] = {}
    # Plain tuples, iterated as they come: on a long history, building objects dominates the load
    # (and the cyclic GC scanning them: holding every row at once makes that worse).
    for goal_id, member_id, name, units, currency, day in await connection.execute(
        select(contributions.c.goal_id, contributions.c.member_id, contributions.c.member_name,
               contributions.c.amount_minor, contributions.c.currency, contributions.c.date)
        .where(contributions.c.goal_id.in_(ids))
        .order_by(contributions.c.goal_id, contributions.c.position)
    ):
        known = member_by_id.get(goal_id)
        if known is None:
            known = member_by_id[goal_id] = {m.id: m for m in members_of[goal_id]}
        payer = known.get(member_id) or Member(member_id, name)
        paid_of[goal_id].append(Contribution(paid_by=payer, amount=money_from_minor(units, currency),
                                             date=day))
    found = []
    for root in roots:
        goal = Goal(id=root.id, name=root.name,
                    target=money_from_minor(root.target_minor, root.target_currency),
                    members=members_of.get(root.id, []), created_at=root.created_at,
                    deadline=root.deadline, contributions=list(paid_of.get(root.id, [])),
                    household_id=root.household_id, version=root.version)
        found.append((goal, GoalState(_member_pairs(goal), tuple(goal.contributions))))
    return found


async def _write_children(connection: AsyncConnection, goal: Goal, before: GoalState) -> GoalState:
    members = _member_pairs(goal)
    if members != before.members:
        await connection.execute(delete(goal_members).where(goal_members.c.goal_id == goal.id))
        if members:
            await connection.execute(goal_members.insert(), [
                {"goal_id": goal.id, "position": i, "member_id": member_id, "member_name": name}
                for i, (member_id, name) in enumerate(members)])
    start = appended_since(before.contributions, goal.contributions)
    if start is None:  # history rewritten (no domain verb does that): store it whole
        await connection.execute(delete(contributions).where(contributions.c.goal_id == goal.id))
        start = 0
    added = goal.contributions[start:]
    if added:
        await connection.execute(contributions.insert(), [
            _contribution_row(goal.id, start + i, c) for i, c in enumerate(added)])
    return GoalState(members, tuple(goal.contributions))
