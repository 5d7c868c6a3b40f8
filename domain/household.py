"""The household and the people in it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from domain.errors import DuplicateName, InvalidArgument, UnknownMember
from domain.money import currency_code
from domain.text import fold


def new_id() -> str:
    return str(uuid.uuid4())


def clean_name(name: object, what: str = "Nome") -> str:
    """A trimmed, non-empty, reasonably short name, or InvalidArgument naming it."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument(f"{what} vazio ou inválido: {name!r}.")
    cleaned = " ".join(name.split())
    if len(cleaned) > 80:
        raise InvalidArgument(f"{what} longo demais ({len(cleaned)} caracteres, máximo 80).")
    return cleaned


@dataclass(frozen=True, slots=True, eq=False)
class Member:
    """A person of the household; two members are the same person when their ids are equal."""

    id: str
    name: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Member) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(eq=False)
class Household:
    id: str
    name: str
    currency: str
    members: list[Member] = field(default_factory=list)
    version: int = 0

    @classmethod
    def create(cls, name: str, currency: str, *, id: str | None = None) -> Household:
        return cls(id=id or new_id(), name=clean_name(name, "Nome da casa"),
                   currency=currency_code(currency))

    def add_member(self, name: str, *, id: str | None = None) -> Member:
        """Registers a person; a name taken by another member (ignoring case and accents) is refused."""
        cleaned = clean_name(name, "Nome do membro")
        for member in self.members:
            if fold(member.name) == fold(cleaned):
                raise DuplicateName(cleaned, f"{member.name}, já membro da casa")
            if id is not None and member.id == id:
                raise DuplicateName(cleaned, f"o membro {member.name} (mesmo id)")
        member = Member(id=id or new_id(), name=cleaned)
        self.members.append(member)
        return member

    def remove_member(self, member_id: str) -> Member | None:
        """Takes a person out of the household (they left the group, or sent /sair); the member
        is returned, or None if they were not in it. Goals keep their history with that person."""
        for member in self.members:
            if member.id == member_id:
                self.members.remove(member)
                return member
        return None

    def has_member(self, member_id: str | None) -> bool:
        return member_id is not None and any(m.id == member_id for m in self.members)

    def member_named(self, name: str) -> Member:
        wanted = fold(name) if isinstance(name, str) else ""
        for member in self.members:
            if fold(member.name) == wanted:
                return member
        raise UnknownMember(str(name), [m.name for m in self.members])

    def member_by_id(self, member_id: str) -> Member:
        for member in self.members:
            if member.id == member_id:
                return member
        raise UnknownMember(member_id, [m.name for m in self.members])
