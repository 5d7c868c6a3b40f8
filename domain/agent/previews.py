"""What each write tool proposes, typed: one frozen type per tool's preview.

A preview becomes JSON in one function (`preview_json`: what the model reads, what the operation
log stores) and is read back from that JSON in one function (`preview_from_json`). The JSON keeps
the keys and values previews had before they were typed (contract §3), so previews stored then
still load and nothing stored changes. bot/rendering.py turns these types into pt-BR text.

A field's JSON key is its name in camelCase; its value follows its type: Money as
`{"amount": Decimal, "currency": str}` (or a text, `MONEY_PLAIN`/`MONEY_FIXED`), a Period as
"2026-06", a date as "2026-06-15", a tuple as a list, a nested preview as its own JSON.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, TypeVar, Union

from pydantic.alias_generators import to_camel

from domain.errors import DomainError
from domain.money import Money, Period

ItemKind = Literal["expense", "goal"]

# Field metadata: how a field crosses into JSON when its type alone does not say.
FORM = "form"
MONEY_PLAIN = "plain"  # "EUR 6000": the amount as given, without trailing zeros (Money.plain)
MONEY_FIXED = "fixed"  # "EUR 250.00": with the currency's minor units (Money.fixed)
OMIT = "omit"  # left out of the JSON when equal to this value
NESTED_BY = "nested_by"  # a nested preview, read as the preview of the tool named by this key


class Preview:
    """What a write tool proposes; every tool's own preview type is a frozen dataclass of it."""


@dataclass(frozen=True)
class SpendPreview(Preview):
    """recordSpend: `delta` more spent on `expense` (as the model named it) in `period`."""

    expense: str
    period: Period
    delta: Money
    new_actual: Money


@dataclass(frozen=True)
class ExpensePreview(Preview):
    """registerExpense: a new monthly expense, as it will be stored."""

    name: str
    expected: Money
    category: str | None
    billing_day: int | None
    payment_method: str | None


@dataclass(frozen=True)
class AdjustmentPreview(Preview):
    """adjustExpense: an expense's expected amount, before and after."""

    expense: str
    old_expected: Money
    new_expected: Money


@dataclass(frozen=True)
class IncomePreview(Preview):
    """setIncome: the household's monthly income, and the one it replaces (None: none before)."""

    income: Money
    old_income: Money | None


@dataclass(frozen=True)
class ContributionPreview(Preview):
    """contributeToGoal: who paid how much into which goal, and the goal's savings after it."""

    goal: str
    paid_by: str
    amount: Money
    date: date
    new_saved_by_currency: tuple[Money, ...]  # one per currency; JSON maps currency to money


@dataclass(frozen=True)
class GoalPreview(Preview):
    """createGoal: the goal as stored; its money as text (contract §3)."""

    name: str
    target: Money = field(metadata={FORM: MONEY_PLAIN})
    deadline: date | None = field(default=None, metadata={OMIT: None})
    contributors: tuple[str, ...] = ()
    required_monthly: Money | None = field(default=None, metadata={OMIT: None, FORM: MONEY_FIXED})


@dataclass(frozen=True)
class RenamePreview(Preview):
    """renameItem: an expense's or a goal's name, before and after."""

    kind: ItemKind
    old_name: str
    new_name: str


@dataclass(frozen=True)
class ArchivePreview(Preview):
    """archiveItem: the expense or goal that leaves the prompt and /resumo (its history stays)."""

    kind: ItemKind
    name: str


@dataclass(frozen=True)
class UndoPreview(Preview):
    """undoOperation: the confirmed operation it reverses, with that operation's own preview."""

    operation: str
    tool: str
    original: Preview = field(metadata={NESTED_BY: "tool"})


@dataclass(frozen=True)
class ImportGroup:
    """The statement lines of one expense: how many, how much, how many the model placed."""

    expense: str
    count: int
    total: Money
    suggested: int = field(default=0, metadata={OMIT: 0})


@dataclass(frozen=True)
class AsideLine:
    """A statement line shown but not imported: a credit, or a debit matching no expense."""

    date: str  # as the statement gave it
    amount: Money  # as the bank wrote it (a credit is negative)
    description: str


@dataclass(frozen=True)
class ImportPreview(Preview):
    """importStatement: every new line of a statement, grouped by expense."""

    file: str
    count: int
    total: Money
    groups: tuple[ImportGroup, ...]
    unmatched: tuple[AsideLine, ...]
    credits: tuple[AsideLine, ...]
    skipped: int


@dataclass(frozen=True)
class JoinPreview(Preview):
    """joinHousehold (the bot's): the person who asked to join, by the name they will have."""

    name: str


@dataclass(frozen=True)
class ErasePreview(Preview):
    """eraseHousehold (the bot's): the household whose every record goes."""

    household: str


# --------------------------------------------------------------------------- JSON both ways

P = TypeVar("P")
NestedReader = Callable[[str, Mapping[str, Any]], Preview]


class UnreadablePreview(ValueError):
    """Stored JSON that is not the preview its tool makes: a programming error, never a person's."""


def preview_json(preview: Any) -> dict[str, Any]:
    """A preview as the model reads it and the operation log stores it: the one place that shapes it."""
    hints = _hints(type(preview))
    shaped: dict[str, Any] = {}
    for item in dataclasses.fields(preview):
        value = getattr(preview, item.name)
        if OMIT in item.metadata and value == item.metadata[OMIT]:
            continue
        if hints[item.name] == tuple[Money, ...]:
            shaped[to_camel(item.name)] = {m.currency: _to_json(m) for m in value}
        else:
            shaped[to_camel(item.name)] = _to_json(value, item.metadata.get(FORM))
    return shaped


def _to_json(value: Any, form: str | None = None) -> Any:
    if isinstance(value, Money):
        if form == MONEY_PLAIN:
            return value.plain()
        if form == MONEY_FIXED:
            return value.fixed()
        return {"amount": value.amount, "currency": value.currency}
    if isinstance(value, Period):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    if dataclasses.is_dataclass(value):
        return preview_json(value)
    return value


def preview_from_json(kind: type[P], data: Mapping[str, Any], nested: NestedReader | None = None) -> P:
    """The preview `kind` from its JSON (as `preview_json` made it, or as stored before previews
    were typed: amounts may be Decimals, ints or text). `nested` reads a nested preview by its
    tool's name (an undo's original). UnreadablePreview when the JSON is not that preview."""
    if not isinstance(data, Mapping):
        raise UnreadablePreview(f"{kind.__name__}: not a JSON object: {data!r}")
    hints = _hints(kind)
    values: dict[str, Any] = {}
    for item in dataclasses.fields(kind):  # type: ignore[arg-type]
        key = to_camel(item.name)
        if key not in data:
            if OMIT in item.metadata:
                continue
            raise UnreadablePreview(f"{kind.__name__}: {key!r} missing from {dict(data)!r}")
        raw = data[key]
        try:
            if NESTED_BY in item.metadata:
                if nested is None:
                    raise UnreadablePreview(f"{kind.__name__}: no reader for the nested {key!r}")
                values[item.name] = nested(str(data[item.metadata[NESTED_BY]]), raw)
            else:
                values[item.name] = _from_json(hints[item.name], raw, item.metadata.get(FORM), nested)
        except (KeyError, TypeError, ValueError, ArithmeticError, DomainError) as error:
            raise UnreadablePreview(f"{kind.__name__}: {key!r} unreadable ({raw!r}): {error}") from None
    return kind(**values)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(kind: type) -> dict[str, Any]:
    hints = _HINTS.get(kind)
    if hints is None:
        hints = _HINTS[kind] = typing.get_type_hints(kind)
    return hints


def _from_json(hint: Any, raw: Any, form: str | None, nested: NestedReader | None) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return None if raw is None else _from_json(options[0], raw, form, nested)
    if origin is Literal:
        if raw not in typing.get_args(hint):
            raise ValueError(f"not one of {typing.get_args(hint)}")
        return raw
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if item is Money and isinstance(raw, Mapping):
            return tuple(_money(m) for m in raw.values())
        if not isinstance(raw, list | tuple):
            raise TypeError("not a list")
        return tuple(_from_json(item, v, None, nested) for v in raw)
    if hint is Money:
        return _plain_money(raw) if form in (MONEY_PLAIN, MONEY_FIXED) else _money(raw)
    if hint is Period:
        return Period.parse(str(raw))
    if hint is date:
        return raw if isinstance(raw, date) else date.fromisoformat(str(raw))
    if hint is int:
        if isinstance(raw, bool):
            raise TypeError("a bool is not a count")
        return int(raw)
    if hint is str:
        if not isinstance(raw, str):
            raise TypeError("not a text")
        return raw
    if dataclasses.is_dataclass(hint):
        return preview_from_json(hint, raw, nested)  # type: ignore[arg-type]
    raise TypeError(f"no JSON reading for {hint!r}")


def _decimal(raw: Any) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, Decimal | int | str):
        raise TypeError(f"not an exact amount: {raw!r}")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ValueError(f"not a number: {raw!r}") from None
    if not value.is_finite():
        raise ValueError(f"not a finite number: {raw!r}")
    return value


def _money(raw: Any) -> Money:
    # Money as it was computed, not as a person typed it: no Money.of checks (a statement's
    # amount may be negative, a conversion may carry more decimals than the currency has).
    if not isinstance(raw, Mapping) or not isinstance(raw.get("currency"), str):
        raise TypeError("not money")
    return Money(_decimal(raw["amount"]), raw["currency"])


def _plain_money(raw: Any) -> Money:
    currency, _, amount = str(raw).strip().partition(" ")
    return Money(_decimal(amount.strip()), currency)
