"""What a write tool proposes, typed: each write tool declares its own frozen preview type
(beside the tool, in domain/tools/), a subclass of `Preview`.

A preview becomes JSON in one function (`preview_json`: what the model reads, what the operation
log stores) and is read back from that JSON in one function (`preview_from_json`). The JSON keeps
the keys and values previews had before they were typed (contract §3), so previews stored then
still load and nothing stored changes. bot/texts/previews.py turns them into pt-BR text.

A field's JSON key is its name in camelCase; its value follows its type: Money as
`{"amount": Decimal, "currency": str}` (or a text, `MONEY_PLAIN`/`MONEY_FIXED`), a Period as
"2026-06", a date as "2026-06-15", a tuple as a list, a nested preview as its own JSON.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, TypeVar, Union

from pydantic.alias_generators import to_camel

from domain.errors import DomainError
from domain.money import Money, Period

# Field metadata: how a field crosses into JSON when its type alone does not say.
FORM = "form"
MONEY_PLAIN = "plain"  # "EUR 6000": the amount as given, without trailing zeros (Money.plain)
MONEY_FIXED = "fixed"  # "EUR 250.00": with the currency's minor units (Money.fixed)
OMIT = "omit"  # left out of the JSON when equal to this value
NESTED_BY = "nested_by"  # a nested preview, read as the preview of the tool named by this key


class Preview:
    """What a write tool proposes; every tool's own preview type is a frozen dataclass of it."""


# --------------------------------------------------------------------------- JSON both ways

P = TypeVar("P")
# Reads a stored preview as the preview type of the tool it names (domain.tools.registry.read_preview).
PreviewReader = Callable[[str, Mapping[str, Any]], Preview]


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


def preview_from_json(kind: type[P], data: Mapping[str, Any], nested: PreviewReader | None = None) -> P:
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


def _from_json(hint: Any, raw: Any, form: str | None, nested: PreviewReader | None) -> Any:
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
    if hint is bool:
        if not isinstance(raw, bool):
            raise TypeError("not true or false")
        return raw
    if hint is Decimal:
        return _decimal(raw)
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
