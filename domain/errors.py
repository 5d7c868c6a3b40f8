"""Every error a person or the model can cause.

Messages are Brazilian Portuguese, because a person reads them in the chat and the model
reads them back as a tool result; each names the offending value so either can recover.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from domain.text import fold

# An error lists at most this many names ("Conhecidas: A, B, C, D, E e mais 12."): a household
# with a hundred expenses once got an error within 50 characters of Telegram's message limit.
LISTED_NAMES = 5


class DomainError(Exception):
    """Base of every rule the domain refuses to break."""


class InvalidMoney(DomainError):
    pass


AmountProblem = Literal[
    "empty",
    "not_a_number",
    "unknown_currency",
    "malformed",
    "scientific",
    "not_positive",
    "too_many_decimals",
    "too_large",
]


class InvalidAmount(InvalidMoney):
    """An amount of money as written that could not be read (domain.reading).

    `problem` says why; `text` is what was written, as it was written.
    """

    def __init__(self, message: str, *, text: str, problem: AmountProblem) -> None:
        super().__init__(message)
        self.text = text
        self.problem: AmountProblem = problem


class CurrencyMismatch(DomainError):
    def __init__(self, left: str, right: str) -> None:
        super().__init__(f"Moedas diferentes: {left} e {right} não se somam nem se comparam.")
        self.currencies = (left, right)


class InvalidPeriod(DomainError):
    pass


class InvalidDate(DomainError):
    pass


class InvalidArgument(DomainError):
    """A value the model or a person gave that no rule can accept (a bad day, an empty name)."""


class NotFound(DomainError):
    def __init__(self, kind: str, identifier: str) -> None:
        super().__init__(f"{kind} com id {identifier!r} não existe.")
        self.kind = kind
        self.identifier = identifier


ECHO_LIMIT = 40  # characters of a name as typed that a message repeats


def shown(name: str) -> str:
    """A name as a message repeats it: a long one is cut, never echoed whole."""
    return name if len(name) <= ECHO_LIMIT else name[:ECHO_LIMIT].rstrip() + "…"


def listed_names(names: Iterable[str], limit: int = LISTED_NAMES) -> str:
    """A handful of names in pt-BR order (accents do not send "Água" to the end)."""
    ordered = [shown(name) for name in sorted(names, key=lambda name: (fold(name), name))]
    listed = ", ".join(ordered[:limit])
    if len(ordered) > limit:
        listed += f" e mais {len(ordered) - limit}"
    return listed


def _known(names: Iterable[str], label: str = "Conhecidos") -> str:
    listed = listed_names(names)
    return f" {label}: {listed}." if listed else ""


def _by(owner: str) -> str:
    """ "por" contracted as pt-BR wants it: "pela despesa Mercado", "pelo membro Ana"."""
    for article, contraction in (("a ", "pela "), ("o ", "pelo ")):
        if owner.startswith(article):
            return contraction + owner[len(article):]
    return "por " + owner


class UnknownName(DomainError):
    """A name that resolves to nothing; `known` lists what would have worked."""

    label = "Nome"
    found = "encontrado"
    hint = ""
    known_label = "Conhecidos"

    def __init__(self, name: str, known: Iterable[str] = ()) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(
            f'{self.label} "{shown(name)}" não {self.found}.{self.hint}'
            f'{_known(self.known, self.known_label)}')


class UnknownMember(UnknownName):
    label = "Membro"
    hint = " Registre primeiro com /entrar."


class UnknownExpense(UnknownName):
    label = "Despesa"
    found = "encontrada"
    known_label = "Conhecidas"


class UnknownGoal(UnknownName):
    label = "Meta"
    found = "encontrada"
    known_label = "Conhecidas"


class AmbiguousName(DomainError):
    def __init__(self, name: str, matches: Iterable[str]) -> None:
        self.name = name
        self.matches = tuple(matches)
        options = listed_names(self.matches)
        super().__init__(f'"{shown(name)}" é ambíguo: pode ser {options}. Diga qual.')


class DuplicateName(DomainError):
    """`expense`: the expense that has the name already, when it is one (the agent tells the model
    that a spend on it is recordSpend, not a new expense)."""

    def __init__(self, name: str, owner: str, *, expense: str | None = None) -> None:
        self.name = name
        self.owner = owner
        self.expense = expense
        super().__init__(f'O nome "{shown(name)}" já é usado {_by(owner)}.')


class LookAlikeName(DuplicateName):
    """A name that only looks different from a member's (another script's letters, digits for
    letters): a reader could not tell them apart."""

    def __init__(self, name: str, member: str) -> None:
        super().__init__(name, f"{member}, já membro da casa (os nomes se parecem demais)")
        self.member = member


class NothingToChange(DomainError):
    """A change that would leave things as they are (an adjustment to the amount it has)."""


class NotAGoalMember(DomainError):
    def __init__(self, member: str, goal: str) -> None:
        super().__init__(f'{member} não participa da meta "{goal}".')
        self.member = member
        self.goal = goal


class MissingExchangeRate(DomainError):
    def __init__(self, source: str, target: str) -> None:
        foreign = target if source == "BRL" else source
        super().__init__(
            f"Não há cotação de {source} para {target}. Quem administra o bot define cotações em "
            f"EXCHANGE_RATES, em reais por unidade, por exemplo EXCHANGE_RATES='{{\"{foreign}\": "
            '"0.036"}\'.')
        self.source = source
        self.target = target


class OperationConflict(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__(
            "Esse operationId já foi usado por uma operação confirmada com outros dados. "
            "Chame de novo com um operationId novo, nunca usado, e confirm=false."
        )
        self.operation_id = operation_id


class OperationClosed(DomainError):
    """The operation was cancelled or expired: it can never be confirmed."""

    def __init__(self, operation_id: str, status: str) -> None:
        word = {"cancelled": "cancelada", "expired": "expirada"}.get(status, status)
        super().__init__(
            f"Essa operação foi {word} e não pode mais ser confirmada. "
            "Proponha de novo com um operationId novo."
        )
        self.operation_id = operation_id
        self.status = status


class PreviewNotShown(DomainError):
    """The operation's preview never reached the chat: nobody saw it, so nobody may confirm it."""

    def __init__(self, operation_id: str) -> None:
        super().__init__(
            "A prévia dessa operação não chegou ao grupo, então ninguém a viu e "
            "ela não pode ser confirmada. Proponha de novo com um operationId novo."
        )
        self.operation_id = operation_id


class UnknownOperation(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__("Não há essa operação neste grupo.")
        self.operation_id = operation_id


class AlreadyUndone(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__("Essa operação já foi desfeita; não dá para desfazer de novo.")
        self.operation_id = operation_id


class NotUndoable(DomainError):
    """An operation that is not a confirmed change (pending, cancelled, an undo itself)."""


class ConcurrentModification(DomainError):
    """A stale aggregate was saved over a newer one; the caller reloads and tries again."""

    def __init__(self, kind: str, identifier: str) -> None:
        super().__init__(f"{kind} {identifier} mudou enquanto era salvo; tente de novo.")
        self.kind = kind
        self.identifier = identifier
