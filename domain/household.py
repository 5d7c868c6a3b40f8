"""The household and the people in it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from domain.errors import DuplicateName, InvalidArgument, LookAlikeName, UnknownMember
from domain.money import currency_code
from domain.text import fold, safe_text, skeleton


def new_id() -> str:
    return str(uuid.uuid4())


NAME_LIMIT = 80
# Telegram allows group titles of 128 characters: the household takes them whole (the renderer
# shortens them for display).
HOUSEHOLD_NAME_LIMIT = 128


def clean_name(name: object, what: str = "Nome", *, limit: int = NAME_LIMIT) -> str:
    """The name made safe to show (domain.text.safe_text: NFKC, no control, format, bidi or
    zero-width characters, whitespace collapsed), non-empty and at most `limit` characters;
    otherwise InvalidArgument naming it."""
    cleaned = safe_text(name) if isinstance(name, str) else ""
    if not cleaned:
        raise InvalidArgument(f"{what} vazio ou inválido: {name!r}.")
    if len(cleaned) > limit:
        raise InvalidArgument(f"{what} longo demais ({len(cleaned)} caracteres, máximo {limit}).")
    return cleaned


@dataclass(frozen=True, slots=True, eq=False)
class Member:
    """A person of the household; two members are the same person when their ids are equal.

    `pix_key` is the DICT form of their Pix key (domain.sharing.pix), kept out of every repr so
    that no log line can carry it."""

    id: str
    name: str
    pix_key: str | None = field(default=None, repr=False)

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
        return cls(id=id or new_id(), name=clean_name(name, "Nome da casa", limit=HOUSEHOLD_NAME_LIMIT),
                   currency=currency_code(currency))

    def rename(self, name: str) -> None:
        self.name = clean_name(name, "Nome da casa", limit=HOUSEHOLD_NAME_LIMIT)

    def add_member(self, name: str, *, id: str | None = None) -> Member:
        """Registers a person; a name taken by another member (ignoring case and accents) is refused."""
        cleaned = clean_name(name, "Nome do membro")
        for member in self.members:
            if fold(member.name) == fold(cleaned):
                raise DuplicateName(cleaned, f"{member.name}, já membro da casa")
            if skeleton(member.name) == skeleton(cleaned):
                # "Аna" with a Cyrillic А: another person whose confirmations would read "por Ana"
                raise LookAlikeName(cleaned, member.name)
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
        return member_named(self.members, name)

    def set_pix_key(self, member: Member, key: str | None) -> Member:
        """The member's Pix key (already validated: domain.sharing.pix.pix_key), or none."""
        for index, current in enumerate(self.members):
            if current.id == member.id:
                self.members[index] = replace(current, pix_key=key)
                return self.members[index]
        raise UnknownMember(member.name, [m.name for m in self.members])

    def member_by_id(self, member_id: str) -> Member:
        for member in self.members:
            if member.id == member_id:
                return member
        raise UnknownMember(member_id, [m.name for m in self.members])


MIN_NICKNAME: Final = 4  # letters: "Rafa" is Rafael, "Mari" Marina; "Ra" or "Mar" is nobody
MAX_SHORT_NICKNAME: Final = 5  # letters of a nickname from a name's first syllable: "Gabi", "Vini", "Nati"
_SYLLABLE: Final = 3  # the letters it shares with the name: "gab" of Gabriela


# The nicknames Brazilians give a name that no rule of its letters finds (folded): "Zé" is José.
HYPOCORISMS: Final = {
    "ze": ("jose",), "zezinho": ("jose",), "bia": ("beatriz",), "dudu": ("eduardo",), "duda": ("eduarda",),
    "chico": ("francisco",), "guto": ("gustavo", "augusto"), "beto": ("roberto", "alberto", "humberto"),
    "nando": ("fernando",), "lipe": ("felipe", "filipe"), "manu": ("manuela", "emanuel", "emanuele"),
    "tonho": ("antonio",), "toninho": ("antonio",), "juca": ("jose",), "quinho": ("joaquim",),
    "leco": ("alexandre",), "xande": ("alexandre",), "lele": ("leticia",),
}
# A name made small or big: "Aninha" is Ana, "Carlinha" Carla, "Marquinhos" and "Marcão" Marcos.
_FOND_ENDINGS: Final = (("zinhos", 2), ("zinha", 2), ("zinho", 2), ("inhos", 2), ("inha", 2), ("inho", 2),
                        ("zao", 3), ("ao", 3))  # an ending, and the fewest letters before it


def _fondly(members: Sequence[Member], wanted: str) -> Member | None:
    """The one member a well-known nickname ("Zé", "Bia", "Dudu"), or the name made small or big
    ("Aninha", "Carlinha", "Marquinhos", "Marcão"), means; None when it means none or two."""
    names = set(HYPOCORISMS.get(wanted, ()))
    for ending, fewest in _FOND_ENDINGS:
        stem = wanted[:-len(ending)]
        if wanted.endswith(ending) and len(stem) >= fewest:
            stem = stem[:-2] + "c" if stem.endswith("qu") else stem  # "Marquinhos": Marc-
            names |= {stem, stem + "a", stem + "o", stem + "os", stem + "as"}
    called = [member for member in members if fold(member.name) in names
              or (fold(member.name).split() or [""])[0] in names]
    return called[0] if len(called) == 1 else None


def member_called(members: Sequence[Member], name: str) -> Member | None:
    """The member `name` means: by name (case and accents aside), by a nickname that begins
    exactly one member's name ("Rafa" for Rafael, "Ju" is too short to tell), or by one everyone
    knows the name by ("Zé" for José, "Bia" for Beatriz, "Aninha" for Ana); None otherwise."""
    wanted = fold(name) if isinstance(name, str) else ""
    exact = [member for member in members if fold(member.name) == wanted]
    if not exact and wanted and (fondly := _fondly(members, wanted)) is not None:
        return fondly
    if exact or len(wanted) < MIN_NICKNAME:
        return exact[0] if exact else None
    begun = [member for member in members if fold(member.name).startswith(wanted)]
    return begun[0] if len(begun) == 1 else None


def member_named(members: Sequence[Member], name: str) -> Member:
    """`member_called`, or, where a member is all a name can be (a tool's `paidBy`), a nickname
    of exactly one member: one of four letters or more that ends the name ("Rique" for Henrique,
    "Mila" for Camila), or a short one of its first syllable ("Gabi" for Gabriela, "Vini" for
    Vinícius, "Matheus" is not short: Mateus is not taken for it); UnknownMember naming every
    member otherwise."""
    member = member_called(members, name)
    if member is None:
        wanted = fold(name) if isinstance(name, str) else ""
        called = [m for m in members if len(wanted) >= MIN_NICKNAME and fold(m.name).endswith(wanted)] or [
            m for m in members if _SYLLABLE <= len(wanted) <= MAX_SHORT_NICKNAME < len(fold(m.name))
            and fold(m.name)[:_SYLLABLE] == wanted[:_SYLLABLE]]
        member = called[0] if len(called) == 1 else None
    if member is None:
        raise UnknownMember(str(name), [m.name for m in members])
    return member
