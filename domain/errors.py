"""Every error a person or the model can cause.

Messages are Brazilian Portuguese, because a person reads them in the chat and the model
reads them back as a tool result; each names the offending value so either can recover.
"""

from __future__ import annotations

from collections.abc import Iterable


class DomainError(Exception):
    """Base of every rule the domain refuses to break."""


class InvalidMoney(DomainError):
    pass


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


def _known(names: Iterable[str]) -> str:
    listed = ", ".join(sorted(names))
    return f" Conhecidos: {listed}." if listed else ""


class UnknownName(DomainError):
    """A name that resolves to nothing; `known` lists what would have worked."""

    label = "Nome"
    found = "encontrado"
    hint = ""

    def __init__(self, name: str, known: Iterable[str] = ()) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(f'{self.label} "{name}" não {self.found}.{self.hint}{_known(self.known)}')


class UnknownMember(UnknownName):
    label = "Membro"
    hint = " Registre primeiro com /entrar."


class UnknownExpense(UnknownName):
    label = "Despesa"
    found = "encontrada"


class UnknownGoal(UnknownName):
    label = "Meta"
    found = "encontrada"


class AmbiguousName(DomainError):
    def __init__(self, name: str, matches: Iterable[str]) -> None:
        self.name = name
        self.matches = tuple(matches)
        options = ", ".join(self.matches)
        super().__init__(f'"{name}" é ambíguo: pode ser {options}. Diga qual.')


class DuplicateName(DomainError):
    def __init__(self, name: str, owner: str) -> None:
        self.name = name
        self.owner = owner
        super().__init__(f'O nome "{name}" já é usado por {owner}.')


class NotAGoalMember(DomainError):
    def __init__(self, member: str, goal: str) -> None:
        super().__init__(f'{member} não participa da meta "{goal}".')
        self.member = member
        self.goal = goal


class MissingExchangeRate(DomainError):
    def __init__(self, source: str, target: str) -> None:
        super().__init__(f"Não há cotação de {source} para {target}.")
        self.source = source
        self.target = target


class OperationConflict(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__(
            f'A operação "{operation_id}" já foi confirmada com outros dados. '
            "Use um operationId novo para uma operação nova."
        )
        self.operation_id = operation_id


class OperationClosed(DomainError):
    """The operation was cancelled or expired: it can never be confirmed."""

    def __init__(self, operation_id: str, status: str) -> None:
        word = {"cancelled": "cancelada", "expired": "expirada"}.get(status, status)
        super().__init__(
            f'A operação "{operation_id}" foi {word} e não pode mais ser confirmada. '
            "Proponha de novo com um operationId novo."
        )
        self.operation_id = operation_id
        self.status = status


class UnknownOperation(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__(f'Não há operação pendente "{operation_id}".')
        self.operation_id = operation_id


class AlreadyUndone(DomainError):
    def __init__(self, operation_id: str) -> None:
        super().__init__(f'A operação "{operation_id}" já foi desfeita; não dá para desfazer de novo.')
        self.operation_id = operation_id


class NotUndoable(DomainError):
    """An operation that is not a confirmed change (pending, cancelled, an undo itself)."""


class ConcurrentModification(DomainError):
    """A stale aggregate was saved over a newer one; the caller reloads and tries again."""

    def __init__(self, kind: str, identifier: str) -> None:
        super().__init__(f"{kind} {identifier} mudou enquanto era salvo; tente de novo.")
        self.kind = kind
        self.identifier = identifier
