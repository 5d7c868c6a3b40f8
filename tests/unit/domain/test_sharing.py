"""Who paid and who owes whom, in the domain: the split rule, exact shares, the balance and its
transfers, Pix keys and the static BR Code (domain/sharing)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.budget import Budget, IncomeOfMembers
from domain.errors import UnknownMember
from domain.household import Household, Member
from domain.ledger import EntryKind, LedgerEntry, balance_of
from domain.money import Money, Period
from domain.sharing.balance import Balance, MemberNet
from domain.sharing.pix import InvalidPixKey, br_code, crc16, fields_of, pix_key
from domain.sharing.rules import SplitError, SplitRule, shares_of

ANA, BRUNO, CARLA = Member("m-ana", "Ana"), Member("m-bruno", "Bruno"), Member("m-carla", "Carla")
COUPLE = [ANA, BRUNO]


def brl(amount: str | int) -> Money:
    return Money.of(amount, "BRL")


# --------------------------------------------------------------------------- the rule and the cents


def test_an_equal_split_gives_each_member_half_and_the_payer_paid_it_all() -> None:
    shares = shares_of(brl("37.90"), ANA, COUPLE, SplitRule(), {})

    assert [(s.member_name, s.paid, s.owed) for s in shares] == [
        ("Ana", brl("37.90"), brl("18.95")), ("Bruno", brl(0), brl("18.95"))]


def test_the_cents_left_over_go_to_the_payer() -> None:
    shares = shares_of(brl("100.00"), BRUNO, [ANA, BRUNO, CARLA], SplitRule(), {})

    assert {s.member_name: s.owed for s in shares} == {"Ana": brl("33.33"), "Bruno": brl("33.34"),
                                                      "Carla": brl("33.33")}


@given(cents=st.integers(min_value=1, max_value=10**11), members=st.integers(min_value=1, max_value=7),
       payer=st.integers(min_value=0, max_value=6), first=st.integers(min_value=0, max_value=100))
def test_shares_always_add_up_exactly_to_the_amount(cents: int, members: int, payer: int, first: int) -> None:
    people = [Member(f"m{i}", f"M{i}") for i in range(members)]
    amount = Money.from_minor_units(cents, "BRL")
    rules = [SplitRule()]
    if members == 2:
        rules.append(SplitRule.fixed({"M0": first, "M1": 100 - first}, people))
    for rule in rules:
        shares = shares_of(amount, people[payer % members], people, rule, {})
        assert sum((s.owed for s in shares), brl(0)) == amount
        assert sum((s.paid for s in shares), brl(0)) == amount
        assert all(s.owed.amount >= 0 for s in shares)


def test_a_fixed_rule_splits_by_its_percentages() -> None:
    rule = SplitRule.fixed({"ana": "60", "BRUNO": Decimal("40")}, COUPLE)

    shares = shares_of(brl(250), BRUNO, COUPLE, rule, {})

    assert {s.member_name: s.owed for s in shares} == {"Ana": brl(150), "Bruno": brl(100)}


@pytest.mark.parametrize(("percents", "named"), [
    ({"Ana": 60, "Bruno": 30}, "90"),
    ({"Ana": 60, "Carla": 40}, "Carla"),
    ({"Ana": "sessenta", "Bruno": 40}, "Ana"),
    ({"Ana": 120, "Bruno": -20}, "Ana"),
])
def test_a_fixed_rule_that_is_not_100_over_members_is_refused_naming_why(
        percents: dict[str, object], named: str) -> None:
    with pytest.raises((SplitError, UnknownMember), match=named):
        SplitRule.fixed(percents, COUPLE)  # type: ignore[arg-type]


def test_a_split_by_income_follows_each_members_own_income() -> None:
    shares = shares_of(brl(1000), ANA, COUPLE, SplitRule.income(), {"m-ana": brl(7000), "m-bruno": brl(3000)})

    assert {s.member_name: s.owed for s in shares} == {"Ana": brl(700), "Bruno": brl(300)}


def test_a_split_by_income_without_someones_income_names_them_and_points_to_renda() -> None:
    with pytest.raises(SplitError, match=r"Bruno.*/renda"):
        shares_of(brl(100), ANA, COUPLE, SplitRule.income(), {"m-ana": brl(7000)})


def test_the_households_income_becomes_the_sum_of_the_members_own() -> None:
    budget = Budget.create("BRL")
    budget.set_income(brl(9000))

    budget.set_income(brl(7000), ANA)
    budget.set_income(brl(5000), BRUNO)

    assert budget.income == brl(12000)
    with pytest.raises(IncomeOfMembers, match="Ana, Bruno"):
        budget.set_income(brl(13000))  # the household's is theirs to change now
    budget.restore_income("m-bruno", None, None)
    budget.restore_income("m-ana", None, brl(9000))
    assert budget.income == brl(9000) and budget.incomes == {}


def test_setting_the_split_by_income_checks_every_member_has_one() -> None:
    budget = Budget.create("BRL")
    budget.set_income(brl(7000), ANA)

    with pytest.raises(SplitError, match="Bruno"):
        budget.set_split(SplitRule.income(), COUPLE)
    assert budget.split == SplitRule()


# --------------------------------------------------------------------------- the balance


EQUAL = SplitRule()


def spend(amount: str, payer: Member, members: list[Member], rule: SplitRule = EQUAL) -> LedgerEntry:
    return LedgerEntry(EntryKind.SPEND, "Mercado", amount=brl(amount), period=Period(2026, 6),
                       paid_by=payer.name, paid_by_id=payer.id, shares=shares_of(brl(amount), payer, members,
                                                                                 rule, {}))


def test_a_couples_balance_says_who_owes_whom_and_what_it_covers() -> None:
    budget = Budget.create("BRL")
    line = budget.settle(BRUNO, ANA, brl(20), date(2026, 6, 20))
    acerto = LedgerEntry(EntryKind.SETTLEMENT, "Acerto", amount=line.amount, on=line.on, shares=line.shares)

    balance = balance_of([spend("100", ANA, COUPLE), spend("30", BRUNO, COUPLE), acerto])

    (transfer,) = balance.transfers()
    assert (transfer.debtor, transfer.creditor, transfer.amount) == ("Bruno", "Ana", brl(15))
    assert (balance.spends, balance.settlements) == (2, 1)


def test_an_undone_spend_counts_no_more_and_moves_the_balance_back() -> None:
    entry = spend("100", ANA, COUPLE)
    undone = entry._replace(amount=brl(-100), shares=tuple(s.negated() for s in entry.shares))

    balance = balance_of([entry, undone, spend("40", BRUNO, COUPLE)])

    assert balance.spends == 1
    assert [(t.debtor, t.amount) for t in balance.transfers()] == [("Ana", brl(20))]


def test_three_members_settle_with_the_fewest_transfers_largest_first() -> None:
    balance = Balance((MemberNet("a", "Ana", brl(90)), MemberNet("b", "Bruno", brl(-60)),
                       MemberNet("c", "Carla", brl(-30))))

    plan = [(t.debtor, t.creditor, t.amount) for t in balance.transfers()]

    assert plan == [("Bruno", "Ana", brl(60)), ("Carla", "Ana", brl(30))]


def test_nobody_owes_anything_when_every_net_is_zero() -> None:
    balance = balance_of([spend("50", ANA, [ANA])])

    assert balance.settled and balance.transfers() == ()


@given(nets=st.lists(st.integers(min_value=-10**9, max_value=10**9), min_size=1, max_size=6))
def test_the_transfers_settle_every_net_exactly(nets: list[int]) -> None:
    nets = [*nets, -sum(nets)]
    balance = Balance(tuple(MemberNet(f"m{i}", f"M{i}", Money.from_minor_units(n, "BRL"))
                            for i, n in enumerate(nets)))

    left = {n.member_id: n.net.amount for n in balance.nets}
    for transfer in balance.transfers():
        assert transfer.amount.is_positive
        left[transfer.debtor_id] += transfer.amount.amount
        left[transfer.creditor_id] -= transfer.amount.amount
    assert all(value == 0 for value in left.values())
    assert len(balance.transfers()) <= max(0, sum(1 for n in nets if n) - 1)


# --------------------------------------------------------------------------- Pix


BACEN_EXAMPLE = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
                 "5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def test_the_br_code_of_bacens_example_is_bacens_own_payload() -> None:
    key = pix_key("123e4567-e12b-12d1-a456-426655440000")

    assert br_code(key, name="Fulano de Tal", city="BRASILIA") == BACEN_EXAMPLE
    assert crc16(BACEN_EXAMPLE[:-4]) == "1D3D"


def test_another_implementations_payload_checks_out_field_by_field() -> None:
    # A payload printed by an independent encoder (PixPayloadGen's README), with an amount.
    payload = ("00020126330014BR.GOV.BCB.PIX011197212482404520400005303986540530.005802BR5918Victor Julio Rocha"
               "6006RECIFE62110507VIPSURF630425A1")

    fields = fields_of(payload)

    assert fields["54"] == "30.00" and fields["63"] == "25A1"
    assert br_code(pix_key("97212482404"), name="Victor Julio Rocha", amount=brl(30), txid="VIPSURF",
                   city="RECIFE").replace("br.gov.bcb.pix", "BR.GOV.BCB.PIX")[:-4] == payload[:-4]


def test_an_acertos_br_code_carries_every_field_the_manual_lists() -> None:
    payload = br_code(pix_key("Ana@Example.com"), name="Ana Júlia Conceição dos Santos Silva", amount=brl("1234.5"),
                      txid="acerto-op-1")

    fields = fields_of(payload)

    assert list(fields) == ["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]
    assert fields["00"] == "01" and fields["52"] == "0000" and fields["53"] == "986" and fields["58"] == "BR"
    assert fields["26"] == "0014br.gov.bcb.pix0115ana@example.com"
    assert fields["54"] == "1234.50"
    assert fields["59"] == "Ana Julia Conceicao dos S"  # ASCII, at most 25 characters
    assert fields["60"] == "BRASIL"
    assert fields["62"] == "0509acertoop1"  # the txid: letters and digits only
    assert payload.endswith("6304" + crc16(payload[:-4])) and payload[-4:].isupper()


@pytest.mark.parametrize(("typed", "kind", "stored"), [
    ("529.982.247-25", "cpf", "52998224725"),
    ("11.222.333/0001-81", "cnpj", "11222333000181"),
    ("Bruno.Silva@Email.com.br", "email", "bruno.silva@email.com.br"),
    ("+55 (11) 98765-4321", "phone", "+5511987654321"),
    ("+55 21 3456-7890", "phone", "+552134567890"),
    ("123E4567-E12B-12D1-A456-426655440000", "random", "123e4567-e12b-12d1-a456-426655440000"),
])
def test_a_pix_key_of_each_kind_is_read_as_the_dict_writes_it(typed: str, kind: str, stored: str) -> None:
    key = pix_key(typed)

    assert (key.kind, key.value) == (kind, stored)
    assert stored not in repr(key)


@pytest.mark.parametrize("typed", [
    "529.982.247-26",  # a wrong check digit
    "111.111.111-11",
    "11.222.333/0001-82",
    "11987654321x",
    "+1 212 555 0100",  # not Brazilian
    "ana@",
    "ana@example.com\n",
    "ana\u200b@example.com",  # a zero-width space
    "52998224725\x00",
    "",
])
def test_an_invalid_pix_key_or_one_with_a_control_character_is_refused_without_echoing_it(typed: str) -> None:
    with pytest.raises(InvalidPixKey) as refused:
        pix_key(typed)

    assert typed.strip() == "" or typed.strip() not in str(refused.value)


def test_a_members_pix_key_never_shows_in_its_repr() -> None:
    household = Household.create("Casa", "BRL")
    ana = household.add_member("Ana")

    household.set_pix_key(ana, "ana@example.com")

    assert household.member_named("Ana").pix_key == "ana@example.com"
    assert "example" not in repr(household.members)
