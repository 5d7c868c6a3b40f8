"""The shape every agent tool shares.

A write tool is a thin use case: `_stage` loads the aggregate through its port, calls one
domain verb on the loaded copy and returns the preview with a `commit` that saves it. `run`
wraps that in the operation log's rules, so a preview and a confirmation run the very same
checks, and only a confirmation commits.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Final, Generic, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)
from pydantic.alias_generators import to_camel

from domain.clock import DEFAULT_TIMEZONE, Clock, local_today, utc_now
from domain.errors import ConcurrentModification, DomainError, InvalidArgument, InvalidMoney
from domain.household import Household
from domain.ledger import Ledger, Stamp
from domain.money import DEFAULT_RATES, ExchangeRates, Money, Period
from domain.operations.log import (
    InMemoryOperationLog,
    Operation,
    OperationLog,
    OperationStatus,
    check_can_propose,
    fingerprint,
)
from domain.operations.previews import Preview, PreviewReader, preview_json
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository, GoalRepository, HouseholdEraser, HouseholdRepository, MemberLinks
from domain.reading import read_amount, read_currency, read_date
from domain.statements import StatementImports
from domain.tools.grounding import Ground, Intent, Said

MAX_CONFLICT_RETRIES = 5


def _refuse_float(value: Any) -> Any:
    if isinstance(value, bool | float):
        raise ValueError(f"{value!r} é float; valores em dinheiro precisam ser exatos")
    return value


ExactDecimal = Annotated[
    Decimal,
    BeforeValidator(_refuse_float),
    WithJsonSchema({"type": "number"}),
]


class ToolArgs(BaseModel):
    """camelCase for the model, snake_case in Python; nothing unknown accepted."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


STORED = "stored"  # validation context: arguments read back from the operation log, already exact


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class MoneyArg(ToolArgs):
    # No field descriptions: the system prompt explains amounts once, instead of in every schema.
    amount: ExactDecimal
    # Optional for the model: left out, it is the household's (filled in before validation).
    currency: str = Field(default="", json_schema_extra=_no_default)

    @model_validator(mode="before")
    @classmethod
    def _as_people_write_it(cls, value: Any, info: ValidationInfo) -> Any:
        """"37,90", "R$ 1.234,56", "2 mil", {"amount": "1.5k", "currency": "€"}, or the money as a
        bare number or text: read exactly; no currency means the household's (domain.reading)."""
        context = info.context or {}
        if context.get(STORED):
            return value
        if not isinstance(value, dict):
            value = {"amount": value}
        if "amount" not in value:
            return value  # pydantic names the missing field
        amount, written = read_amount(value["amount"], what="amount")
        given = value.get("currency")
        currency = read_currency(given) if isinstance(given, str) and given.strip() else None
        if written and currency and written != currency:
            raise InvalidMoney(f"Moedas diferentes em {value!r}: {written} e {currency}.")
        currency = written or currency or context.get("currency")
        if currency is None:
            raise InvalidMoney(f"Informe a moeda (currency) de {value['amount']!r}, como BRL.")
        return {**value, "amount": amount, "currency": currency}

    def to_money(self) -> Money:
        return Money.of(self.amount, self.currency)


class WriteArgs(ToolArgs):
    # Described once in the system prompt (rules 1-2), not in every write tool's schema.
    operation_id: str = Field(min_length=1, max_length=64)
    confirm: bool = False

    # Optional arguments a tool gained after operations were stored: left out of the fingerprint
    # while at their default, so a pending or confirmed operation stored before keeps its own.
    added_later: ClassVar[frozenset[str]] = frozenset()


def money_dict(money: Money) -> dict[str, Any]:
    return {"amount": money.amount, "currency": money.currency}


def parse_date(text: str, what: str = "Data") -> date:
    """ISO ("2026-06-15") or as in Brazil ("15/06/2026")."""
    return read_date(text, what)


@dataclass(frozen=True)
class Reading:
    """What a tool fills in when the model leaves it out, so the preview shows it: the
    household's currency, and today (or this month) in the household's time zone."""

    currency: str | None = None
    now: Clock = utc_now
    timezone: str = DEFAULT_TIMEZONE

    def today(self) -> date:
        return local_today(self.now, self.timezone)

    def this_month(self) -> str:
        return str(Period.of(self.today()))


def missing(arguments: dict[str, Any], key: str) -> bool:
    value = arguments.get(key)
    return value is None or (isinstance(value, str) and not value.strip())


# What the model need not read: pydantic checks them when the call arrives, and every one is
# tokens on every request (a 1.5B model's chat template prints each tool's JSON with spaces).
_UNREAD: Final = frozenset({"title", "$defs", "additionalProperties", "minLength", "maxLength", "default"})


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline $defs and drop what the model need not read (`_UNREAD`): fewer tokens, and some
    providers handle $ref poorly."""
    definitions = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(definitions[node["$ref"].rsplit("/", 1)[-1]])
            options = node.get("anyOf")
            if options and len(options) == 2 and {"type": "null"} in options:
                # Optional[X]: show X; leaving it out means null.
                inner = next(o for o in options if o != {"type": "null"})
                rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
                return walk({**inner, **rest})
            return {k: walk(v) for k, v in node.items() if k not in _UNREAD}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    result: dict[str, Any] = walk(schema)
    return result


def _money_fields(model: type[BaseModel]) -> list[str]:
    """The fields of an argument model that hold money (MoneyArg, optional or not)."""
    return [name for name, field in model.model_fields.items()
            if field.annotation is MoneyArg or MoneyArg in get_args(field.annotation)]


def describe_validation_error(tool: str, error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "argumentos"
        given = item.get("input")
        problems.append(f"{where}: {item['msg']} (recebido: {given!r})")
    return f"Argumentos inválidos para {tool}: " + "; ".join(problems)


@dataclass(frozen=True)
class HouseholdBinding:
    """What one household's tools are bound to: its aggregates' ports, its operation log, its
    clock and rates. `domain.tools.registry.household_tools` builds every tool from one of these;
    a tool whose ports are absent here (no ledger, say) is left out."""

    household: Household
    budget_id: str
    budgets: BudgetRepository
    goals: GoalRepository
    operations: OperationLog
    clock: Clock | None = None
    timezone: str = DEFAULT_TIMEZONE
    rates: ExchangeRates = DEFAULT_RATES
    ledger: Ledger | None = None
    statement_imports: StatementImports | None = None
    households: HouseholdRepository | None = None
    members: MemberLinks | None = None
    eraser: HouseholdEraser | None = None
    chat_id: int | None = None
    read_preview: PreviewReader | None = None

    @property
    def now(self) -> Clock:
        return self.clock or utc_now


_SCHEMAS: dict[type, dict[str, Any]] = {}

A = TypeVar("A", bound=ToolArgs)
W = TypeVar("W", bound=WriteArgs)


class Tool(ABC, Generic[A]):
    """Name, description and argument model: what the model is shown."""

    name: ClassVar[str]
    description: ClassVar[str]
    args_model: ClassVar[type[ToolArgs]]
    writes: ClassVar[bool] = False
    # False for a tool only the bot proposes (a statement import): the model neither sees nor calls it.
    offered: ClassVar[bool] = True
    # The argument that names who paid, filled with the member speaking when the model omits it.
    speaker_argument: ClassVar[str | None] = None
    # An argument where a member may write themself ("eu": the member speaking) but whose absence
    # means no member at all: setIncome's `member` (left out, the household's income).
    self_argument: ClassVar[str | None] = None
    # The arguments taken from the member's words rather than the model's (domain.tools.grounding),
    # and what a message must say for this tool to be proposed.
    grounded: ClassVar[Mapping[str, Ground]] = MappingProxyType({})
    intent: ClassVar[Intent | None] = None
    reading: Reading = Reading()

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> Tool[Any] | None:
        """This tool for one household, or None when the binding lacks what it needs."""
        raise NotImplementedError(f"{cls.__name__} cannot be bound to a household")

    def reading_as(self, reading: Reading) -> Tool[A]:
        self.reading = reading
        return self

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Fills defaults and reads months and dates as people write them; tools override it."""
        return arguments

    def with_currency_placed(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """A currency the model sent beside the amount ({"amount": 50, "currency": "BRL"}) put
        into the one money argument it belongs to, before grounding reads it: weak models write
        it so, and refusing it costs a turn. Elsewhere a stray argument is refused as unknown."""
        stray = arguments.get("currency")
        money = _money_fields(self.args_model)
        if stray is None or "currency" in self.args_model.model_fields or len(money) != 1:
            return arguments
        key = next((k for k in (to_camel(money[0]), money[0]) if k in arguments), None)
        value = arguments.get(key) if key is not None else None
        if key is None or value is None:
            return arguments
        if not isinstance(value, dict):
            value = {"amount": value}
        if value.get("currency") not in (None, "", stray):
            return arguments  # two currencies: the stray one stays, and is refused by name
        rest = {k: v for k, v in arguments.items() if k != "currency"}
        return {**rest, key: {**value, "currency": stray}}

    async def known_as(self, arguments: dict[str, Any]) -> tuple[str, ...]:
        """Every name of what these arguments name, as the tool finds it (a card's name and
        aliases: "no roxinho" names the Nubank); grounding reads the members' words with them."""
        return ()

    def schema(self) -> dict[str, Any]:
        """The OpenAI tool spec. Built once per class (pydantic's schema generation costs a few
        ms, on every turn otherwise); each caller gets its own copy to change as it likes."""
        cls = type(self)
        cached = _SCHEMAS.get(cls)
        if cached is None:
            parameters = compact_schema(self.args_model.model_json_schema(by_alias=True))
            cached = _SCHEMAS[cls] = {
                "type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": parameters},
            }
        return copy.deepcopy(cached)

    def parse(self, arguments: dict[str, Any], *, stored: bool = False) -> A:
        """The model's arguments (camelCase), or stored ones (`stored`: already read exactly)."""
        if not isinstance(arguments, dict):
            raise InvalidArgument(f"Os argumentos de {self.name} precisam ser um objeto JSON.")
        context = {STORED: True} if stored else {"currency": self.reading.currency}
        try:
            prepared = arguments if stored else self.prepare(dict(arguments))
            return self.args_model.model_validate(prepared, context=context)  # type: ignore[return-value]
        except ValidationError as error:
            raise InvalidArgument(describe_validation_error(self.name, error)) from None

    @abstractmethod
    async def invoke(self, arguments: dict[str, Any]) -> Any:
        """Runs the tool on arguments as the model sent them (camelCase)."""


class ReadTool(Tool[A]):
    async def invoke(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self.read(self.parse(arguments))

    @abstractmethod
    async def read(self, args: A) -> dict[str, Any]:
        ...


@dataclass(frozen=True)
class Staged:
    """A change applied to a loaded copy: what the member will see, and how to keep it."""

    preview: Preview
    commit: Callable[[], Awaitable[None]]


class WriteTool(Tool[W]):
    writes = True
    preview_type: ClassVar[type[Preview]]  # what it proposes (a frozen dataclass beside the tool)
    # Whether undoOperation can reverse what it wrote: its confirmed message carries ↩️ Desfazer
    # only then (joining, leaving, erasing and an undo itself leave no entries to reverse).
    undoable: ClassVar[bool] = True

    def __init__(self, operations: OperationLog | None = None) -> None:
        self.operations: OperationLog = operations or InMemoryOperationLog()

    async def invoke(self, arguments: dict[str, Any]) -> ToolReceipt:
        return await self.run(self.parse(arguments))

    async def resolve(self, args: W) -> W:
        """The arguments with what they leave to the moment made explicit (an undo's "the latest"),
        so a confirmation writes exactly what its preview showed."""
        return args

    @staticmethod
    def digest(args: WriteArgs) -> str:
        """What the operation does, without its id: equal for arguments that mean the same."""
        fields = type(args).model_fields
        unset = {name for name in args.added_later
                 if getattr(args, name) == fields[name].get_default(call_default_factory=True)}
        return fingerprint(args.model_dump(exclude={"operation_id", "confirm", *unset}))

    async def run(self, args: W, *, confirmed_by: str | None = None,
                  force_preview: bool = False) -> ToolReceipt:
        """Contract §3's rules: preview first, confirm once, repeat as a no-op, conflict otherwise."""
        args = await self.resolve(args)
        operation_id = args.operation_id
        digest = self.digest(args)
        existing = await self.operations.get(operation_id)
        if (
            existing is not None
            and existing.status is OperationStatus.CONFIRMED
            and existing.fingerprint == digest
            and existing.receipt is not None
        ):
            return existing.receipt.repeated()
        if existing is not None:
            # A decided operation is a conflict (or closed) before any check of the new
            # arguments: "Aluguel already exists" would hide that the id was reused.
            check_can_propose(existing, digest)
        wants_write = args.confirm and not force_preview
        if (
            not wants_write
            or existing is None
            or existing.status is not OperationStatus.PENDING
            or existing.fingerprint != digest
        ):
            return await self._propose(args, digest)
        return await self._confirm(args, digest, confirmed_by)

    async def _propose(self, args: W, digest: str) -> ToolReceipt:
        staged = await self._stage(args)
        preview = preview_json(staged.preview)
        await self.operations.propose(
            Operation(
                operation_id=args.operation_id,
                tool=self.name,
                arguments=args.model_dump(mode="json", exclude={"confirm"}),
                fingerprint=digest,
                preview=preview,
                status=OperationStatus.PENDING,
                created_at=datetime.min,  # the log stamps it with its own clock
            )
        )
        return ToolReceipt(args.operation_id, preview, confirmed=False, persisted=False)

    async def _confirm(self, args: W, digest: str, confirmed_by: str | None) -> ToolReceipt:
        stamp = self._stamp(args, confirmed_by)
        for attempt in range(MAX_CONFLICT_RETRIES):
            try:
                # The unit of work: the claim (pending -> confirmed), every load and save below,
                # the ledger entries of what is saved (under `stamp`) and the receipt commit
                # together at the end of this block, or nothing does.
                async with self.operations.confirming(args.operation_id, digest, stamp=stamp) as unit:
                    if unit.earlier is not None:
                        return unit.earlier
                    staged = await self._stage(args)
                    await staged.commit()
                    receipt = ToolReceipt(args.operation_id, preview_json(staged.preview),
                                          confirmed=True, persisted=True)
                    unit.record(receipt)
                return receipt
            except ConcurrentModification:
                # Another operation saved the same aggregate first: reload and apply again.
                if attempt == MAX_CONFLICT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _stamp(self, args: W, confirmed_by: str | None) -> Stamp:
        """Who and what the ledger entries of this confirmation belong to."""
        return Stamp(args.operation_id, self.name, confirmed_by=confirmed_by,
                     scope=getattr(self.operations, "scope", None))

    async def check(self, args: W) -> None:
        """Every check the write would run, on a loaded copy: nothing is proposed or written."""
        await self._stage(await self.resolve(args))

    async def as_named(self, arguments: dict[str, Any], said: Said) -> dict[str, Any]:
        """A new proposal's `arguments` about what the message names, where the model named
        something nobody wrote and the message names one thing only; as they are otherwise."""
        return arguments

    async def instead(self, said: Said) -> str:
        """What the model may do instead of a proposal of this tool that was refused, told after
        the refusal where the message shows it ("" when it does not)."""
        return ""

    async def unnamed(self, args: W, said: Said) -> DomainError | None:
        """Why the members' words do not name what this proposal is about (an expense, a goal),
        so the model asks which instead; None when they do, or the tool names nothing."""
        return None

    def arguments_for(self, operation: Operation) -> W:
        """The stored arguments of a pending operation, ready to run again."""
        return self.parse(operation.arguments, stored=True)

    @abstractmethod
    async def _stage(self, args: W) -> Staged:
        ...


def compact_json(value: Any) -> str:
    """Tool results for the model: short, exact (Decimals as their text), no spaces."""
    return json.dumps(value, default=_json_default, separators=(",", ":"), ensure_ascii=False)


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, ToolReceipt):
        return {
            "operationId": value.operation_id,
            "confirmed": value.confirmed,
            "persisted": value.persisted,
            "preview": value.preview,
        }
    raise TypeError(f"not JSON serializable: {type(value).__name__}")
