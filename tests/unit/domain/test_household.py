from __future__ import annotations

import pytest

from domain.errors import DomainError, DuplicateName, InvalidArgument, InvalidMoney, UnknownMember
from domain.household import Household, Member, member_called


def casa() -> Household:
    return Household.create("Casa da Ana e do João", "BRL", id="h1")


def test_a_household_is_created_with_its_name_currency_and_no_members() -> None:
    household = Household.create("Casa", "brl", id="h1")

    assert household.id == "h1"
    assert household.name == "Casa"
    assert household.currency == "BRL"
    assert household.members == []


def test_a_household_without_an_id_gets_a_fresh_one() -> None:
    first, second = Household.create("Casa", "BRL"), Household.create("Casa", "BRL")

    assert first.id
    assert first.id != second.id


def test_a_household_with_an_unknown_currency_is_refused_naming_it() -> None:
    with pytest.raises(InvalidMoney, match="XYZ"):
        Household.create("Casa", "XYZ")


def test_a_household_with_an_empty_name_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        Household.create("   ", "BRL")


def test_add_member_registers_the_person_with_the_given_id() -> None:
    household = casa()

    ana = household.add_member("Ana", id="m-ana")

    assert ana == Member(id="m-ana", name="Ana")
    assert ana.name == "Ana"
    assert household.members == [ana]


def test_add_member_trims_and_collapses_spaces_in_the_name() -> None:
    household = casa()

    assert household.add_member("  Maria   Clara ").name == "Maria Clara"


def test_members_are_equal_by_id_not_by_name() -> None:
    assert Member(id="m1", name="Ana") == Member(id="m1", name="Ana Paula")
    assert Member(id="m1", name="Ana") != Member(id="m2", name="Ana")
    assert len({Member(id="m1", name="Ana"), Member(id="m1", name="Aninha")}) == 1


def test_members_added_without_ids_are_distinct_people() -> None:
    household = casa()

    ana, joao = household.add_member("Ana"), household.add_member("João")

    assert ana != joao
    assert household.members == [ana, joao]


def test_member_named_finds_the_member_by_exact_name() -> None:
    household = casa()
    ana = household.add_member("Ana", id="m-ana")

    assert household.member_named("Ana") is ana


@pytest.mark.parametrize("asked", ["joão", "JOAO", "Joao", "  joão "])
def test_member_named_ignores_case_and_accents(asked: str) -> None:
    household = casa()
    household.add_member("Ana")
    joao = household.add_member("João", id="m-joao")

    assert household.member_named(asked) == joao


def test_an_unknown_member_is_refused_naming_the_name_and_listing_the_members() -> None:
    household = casa()
    household.add_member("Ana")
    household.add_member("João")

    with pytest.raises(UnknownMember) as refused:
        household.member_named("Bruno")

    assert refused.value.name == "Bruno"
    assert refused.value.known == ("Ana", "João")
    assert '"Bruno"' in str(refused.value)
    assert "Ana, João" in str(refused.value)
    assert isinstance(refused.value, DomainError)


def test_a_duplicate_member_name_is_refused_naming_it() -> None:
    household = casa()
    household.add_member("João")

    with pytest.raises(DuplicateName, match="Joao"):
        household.add_member("Joao")

    assert [m.name for m in household.members] == ["João"]


def test_a_duplicate_member_id_is_refused() -> None:
    household = casa()
    household.add_member("Ana", id="m1")

    with pytest.raises(DuplicateName):
        household.add_member("Bruno", id="m1")

    assert [m.name for m in household.members] == ["Ana"]


def test_an_empty_member_name_is_refused() -> None:
    household = casa()

    with pytest.raises(InvalidArgument):
        household.add_member("  ")

    assert household.members == []


@pytest.mark.parametrize(("said", "meant"), [
    ("Rafael", "Rafael"), ("rafael", "Rafael"), ("Rafa", "Rafael"), ("JÚLIA", "Júlia"), ("juli", "Júlia"),
    ("Ju", None),        # too short to tell
    ("Rafaelo", None),   # nobody's name begins so
    ("Pedro", None),
])
def test_a_member_is_found_by_name_or_by_a_nickname_that_begins_only_their_name(said: str, meant: str | None) -> None:
    assert called_in(("Rafael", "Júlia"), said) == meant


def called_in(names: tuple[str, ...], said: str) -> str | None:
    """The name of the member `said` means in a household of `names`, or None."""
    house = Household.create("Casa", "BRL")
    for name in names:
        house.add_member(name)
    found = member_called(house.members, said)
    return found.name if found else None


def test_a_nickname_two_members_share_means_neither_and_an_exact_name_wins() -> None:
    house = Household.create("Casa", "BRL")
    house.add_member("Ana")
    house.add_member("Anabela")
    house.add_member("Mariana")
    house.add_member("Marina")

    assert member_called(house.members, "ana").name == "Ana"  # type: ignore[union-attr]
    assert member_called(house.members, "anab").name == "Anabela"  # type: ignore[union-attr]
    assert member_called(house.members, "mari") is None
    with pytest.raises(UnknownMember):
        house.member_named("mari")


@pytest.mark.parametrize(("asked", "meant"), [("Rique", "Henrique"), ("mila", "Camila")])
def test_a_nickname_that_ends_exactly_one_members_name_is_that_member_where_only_a_member_can_stand(
        asked: str, meant: str) -> None:
    household = casa()
    household.add_member("Camila")
    household.add_member("Henrique")

    assert household.member_named(asked).name == meant


@pytest.mark.parametrize("asked", ["Ana", "ique"])  # a name of its own; or the end of two names
def test_a_short_ending_or_one_that_ends_two_names_is_nobody(asked: str) -> None:
    household = casa()
    household.add_member("Luana")
    household.add_member("Henrique")
    household.add_member("Anrique")

    with pytest.raises(UnknownMember):
        household.member_named(asked)


@pytest.mark.parametrize(("asked", "meant"), [("Gabi", "Gabriela"), ("vini", "Vinícius")])
def test_a_short_nickname_of_a_members_first_syllable_is_that_member_where_only_a_member_can_stand(
        asked: str, meant: str) -> None:
    household = casa()
    household.add_member("Gabriela")
    household.add_member("Vinícius")

    assert household.member_named(asked).name == meant


@pytest.mark.parametrize("asked", ["Gabriel",   # a name of its own, not a nickname
                                   "Gab"])      # the first syllable of two members
def test_a_longer_name_or_a_syllable_two_members_share_is_nobody(asked: str) -> None:
    household = casa()
    household.add_member("Gabriela")
    household.add_member("Gabriele")

    with pytest.raises(UnknownMember):
        household.member_named(asked)


@pytest.mark.parametrize(("said", "meant"), [
    ("Zé", "José"), ("ze", "José"), ("Bia", "Beatriz"), ("Dudu", "Eduardo"),  # nicknames everyone knows
    ("Aninha", "Ana"), ("Carlinha", "Carla"), ("Pedrinho", "Pedro"),          # a name made small
])
def test_a_member_is_found_by_a_nickname_everyone_knows_the_name_by_or_by_its_diminutive(said: str, meant: str) -> None:
    assert called_in(("José", "Beatriz", "Eduardo", "Ana", "Carla", "Pedro"), said) == meant


def test_a_well_known_nickname_two_members_answer_to_means_neither() -> None:
    assert called_in(("Roberto", "Alberto"), "Beto") is None


@pytest.mark.parametrize(("said", "meant"), [("Marquinhos", "Marcos"), ("Marcão", "Marcos"), ("Paulão", "Paulo")])
def test_a_name_made_big_or_small_is_that_member(said: str, meant: str) -> None:
    assert called_in(("Marcos", "Paulo", "Leo"), said) == meant
    assert called_in(("Marcos", "Paulo", "Leo"), "leão") is None  # a word that ends so, too short a stem
