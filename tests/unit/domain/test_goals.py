from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from domain.errors import InvalidArgument, InvalidMoney, MissingExchangeRate, NotAGoalMember
from domain.goals import Contribution, Goal, whole_months_between
from domain.household import Member
from domain.money import FixedRates, Money

ANA = Member(id="m-ana", name="Ana")
BRUNO = Member(id="m-bruno", name="Bruno")
CARLA = Member(id="m-carla", name="Carla")
RATES = FixedRates({"EUR": "6.20", "USD": "5.40"})


def eur(amount: int | str) -> Money:
    return Money.of(amount, "EUR")


def brl(amount: int | str) -> Money:
    return Money.of(amount, "BRL")


def honeymoon(deadline: date | None = date(2028, 6, 1), target: Money | None = None) -> Goal:
    """The seed example: EUR 6000 from 2026-06-01 to 2028-06-01."""
    return Goal.create(
        "Lua de mel",
        target or eur(6000),
        members=[ANA, BRUNO],
        created_at=date(2026, 6, 1),
        deadline=deadline,
        id="g1",
    )


# --- create ------------------------------------------------------------------------------


def test_a_goal_is_created_with_its_fields_and_no_contributions() -> None:
    goal = honeymoon()

    assert goal.id == "g1"
    assert goal.name == "Lua de mel"
    assert goal.target == eur(6000)
    assert goal.members == [ANA, BRUNO]
    assert goal.created_at == date(2026, 6, 1)
    assert goal.deadline == date(2028, 6, 1)
    assert goal.contributions == []
    assert goal.saved_by_currency() == {}


def test_a_goal_without_an_id_gets_a_fresh_one() -> None:
    first = Goal.create("Viagem", eur(10), members=[ANA], created_at=date(2026, 6, 1))
    second = Goal.create("Viagem", eur(10), members=[ANA], created_at=date(2026, 6, 1))

    assert first.id != second.id


def test_a_member_listed_twice_takes_part_once() -> None:
    goal = Goal.create("Viagem", eur(10), members=[ANA, BRUNO, ANA], created_at=date(2026, 6, 1))

    assert goal.members == [ANA, BRUNO]


@pytest.mark.parametrize("target", ["0", "-100"])
def test_a_non_positive_target_is_refused_naming_it(target: str) -> None:
    with pytest.raises(InvalidMoney, match=target):
        Goal.create("Viagem", eur(target), members=[ANA], created_at=date(2026, 6, 1))


def test_a_goal_without_members_is_refused_naming_it() -> None:
    with pytest.raises(InvalidArgument, match="Viagem"):
        Goal.create("Viagem", eur(100), members=[], created_at=date(2026, 6, 1))


@pytest.mark.parametrize("deadline", [date(2026, 6, 1), date(2026, 5, 31)])
def test_a_deadline_not_after_the_creation_date_is_refused_naming_it(deadline: date) -> None:
    with pytest.raises(InvalidArgument, match=deadline.isoformat()):
        Goal.create("Viagem", eur(100), members=[ANA], created_at=date(2026, 6, 1), deadline=deadline)


def test_a_goal_with_an_empty_name_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        Goal.create("  ", eur(100), members=[ANA], created_at=date(2026, 6, 1))


# --- contribute ------------------------------------------------------------------------------


def test_a_member_contributes_and_the_contribution_is_kept() -> None:
    goal = honeymoon()

    contribution = goal.contribute(ANA, brl(500), date(2026, 6, 15))

    assert contribution == Contribution(paid_by=ANA, amount=brl(500), date=date(2026, 6, 15))
    assert contribution.paid_by == ANA
    assert contribution.amount == brl(500)
    assert contribution.date == date(2026, 6, 15)
    assert goal.contributions == [contribution]


def test_a_member_is_recognised_by_id_whatever_the_name_it_carries() -> None:
    goal = honeymoon()

    goal.contribute(Member(id="m-ana", name="Aninha"), eur(10), date(2026, 6, 15))

    assert goal.saved_by_currency() == {"EUR": eur(10)}


def test_a_non_member_cannot_contribute() -> None:
    goal = honeymoon()

    with pytest.raises(NotAGoalMember) as refused:
        goal.contribute(CARLA, eur(100), date(2026, 6, 15))

    assert refused.value.member == "Carla"
    assert refused.value.goal == "Lua de mel"
    assert "Carla" in str(refused.value)
    assert goal.contributions == []


@pytest.mark.parametrize("amount", ["0", "-50"])
def test_a_non_positive_contribution_is_refused_naming_it(amount: str) -> None:
    goal = honeymoon()

    with pytest.raises(InvalidMoney, match=amount):
        goal.contribute(ANA, eur(amount), date(2026, 6, 15))

    assert goal.contributions == []


def test_saved_by_currency_sums_each_currency_apart() -> None:
    goal = honeymoon()
    goal.contribute(ANA, brl(500), date(2026, 6, 15))
    goal.contribute(BRUNO, eur("100.10"), date(2026, 6, 16))
    goal.contribute(BRUNO, brl("0.10"), date(2026, 7, 1))
    goal.contribute(ANA, eur("0.20"), date(2026, 7, 2))

    assert goal.saved_by_currency() == {"BRL": brl("500.10"), "EUR": eur("100.30")}


def test_saved_by_currency_matches_the_contract_example() -> None:
    goal = honeymoon()
    goal.contribute(ANA, brl(500), date(2026, 6, 15))

    assert goal.saved_by_currency() == {"BRL": Money(Decimal(500), "BRL")}


# --- required_monthly ----------------------------------------------------------------------------


def test_the_seed_goal_needs_exactly_250_euros_a_month() -> None:
    required = honeymoon().required_monthly(date(2026, 6, 1))

    assert required == eur(250)
    assert required is not None
    assert required.amount.as_tuple() == Decimal("250.00").as_tuple()
    assert required.fixed() == "EUR 250.00"


def test_required_monthly_is_none_without_a_deadline() -> None:
    assert honeymoon(deadline=None).required_monthly(date(2026, 6, 1)) is None


def test_required_monthly_is_the_whole_remainder_in_the_last_month() -> None:
    goal = honeymoon()

    assert goal.required_monthly(date(2028, 5, 20)) == eur(6000)


def test_required_monthly_counts_at_least_one_month_after_the_deadline() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(1000), date(2026, 7, 1))

    assert goal.required_monthly(date(2028, 6, 1)) == eur(5000)
    assert goal.required_monthly(date(2029, 1, 1)) == eur(5000)


def test_required_monthly_rounds_to_the_cent() -> None:
    goal = honeymoon(deadline=date(2026, 9, 1), target=eur(100))

    assert goal.required_monthly(date(2026, 6, 1)) == eur("33.33")


def test_required_monthly_rounds_half_up() -> None:
    goal = honeymoon(deadline=date(2026, 8, 1), target=eur("0.05"))

    assert goal.required_monthly(date(2026, 6, 1)) == eur("0.03")


def test_required_monthly_subtracts_what_was_saved_in_the_target_currency() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(1200), date(2026, 6, 10))

    assert goal.required_monthly(date(2026, 6, 1)) == eur(200)


def test_required_monthly_converts_savings_in_other_currencies() -> None:
    goal = honeymoon()
    goal.contribute(ANA, brl(620), date(2026, 6, 10))  # EUR 100 at 6.20
    goal.contribute(BRUNO, Money.of(54, "USD"), date(2026, 6, 11))  # BRL 291.60 -> EUR 47.03

    assert goal.saved_in_target_currency(RATES) == eur("147.03")
    # (6000 - 147.03) / 24 = 243.87375
    assert goal.required_monthly(date(2026, 6, 1), RATES) == eur("243.87")


def test_required_monthly_is_zero_once_the_target_is_reached() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(6500), date(2026, 6, 10))

    assert goal.required_monthly(date(2026, 6, 1)) == eur(0)
    assert goal.remaining() == eur(0)


def test_a_saving_without_an_exchange_rate_is_refused_naming_both_currencies() -> None:
    goal = honeymoon()
    goal.contribute(ANA, Money.of(100, "GBP"), date(2026, 6, 10))

    with pytest.raises(MissingExchangeRate) as refused:
        goal.required_monthly(date(2026, 6, 1), RATES)

    assert (refused.value.source, refused.value.target) == ("GBP", "EUR")


def test_fixed_rates_convert_through_the_base_and_round_to_the_cent() -> None:
    assert RATES.convert(eur(100), "BRL") == brl(620)
    assert RATES.convert(brl(620), "EUR") == eur(100)
    assert RATES.convert(eur(1), "USD") == Money.of("1.15", "USD")  # 6.20 / 5.40 = 1.1481...
    assert RATES.convert(brl(10), "BRL") == brl(10)


# --- whole_months_between ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "months"),
    [
        (date(2026, 6, 15), date(2026, 9, 1), 2),
        (date(2026, 6, 1), date(2028, 6, 1), 24),
        (date(2026, 6, 1), date(2026, 9, 1), 3),
        (date(2026, 6, 15), date(2026, 9, 15), 3),
        (date(2026, 6, 15), date(2026, 9, 14), 2),
        (date(2026, 6, 1), date(2026, 6, 30), 0),
        (date(2026, 12, 10), date(2027, 1, 10), 1),
        (date(2026, 6, 1), date(2026, 6, 1), 0),
        (date(2026, 9, 1), date(2026, 6, 1), -3),
    ],
)
def test_whole_months_between_counts_complete_calendar_months(start: date, end: date, months: int) -> None:
    assert whole_months_between(start, end) == months


# --- is_on_track ------------------------------------------------------------------------------


def test_is_on_track_is_none_without_a_deadline() -> None:
    assert honeymoon(deadline=None).is_on_track(date(2026, 9, 1)) is None


def test_a_new_goal_with_little_saved_is_not_said_to_be_on_track_on_its_first_day() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(100), date(2026, 6, 1))  # the first month's share is 6000 / 24 = 250

    assert goal.is_on_track(date(2026, 6, 1)) is None


def test_a_new_goal_with_its_first_months_share_saved_is_on_track() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(250), date(2026, 6, 1))

    assert goal.is_on_track(date(2026, 6, 1)) is True


def test_a_goal_is_on_track_with_its_straight_line_share_saved() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(750), date(2026, 8, 1))  # 3 of 24 months: 6000 * 3 / 24 = 750

    assert goal.is_on_track(date(2026, 9, 1)) is True


def test_a_goal_is_behind_with_less_than_its_straight_line_share() -> None:
    goal = honeymoon()
    goal.contribute(ANA, Money.of("749.99", "EUR"), date(2026, 8, 1))

    assert goal.is_on_track(date(2026, 9, 1)) is False


def test_savings_in_other_currencies_count_towards_being_on_track() -> None:
    goal = honeymoon()
    goal.contribute(ANA, brl(4650), date(2026, 8, 1))  # EUR 750 at 6.20

    assert goal.is_on_track(date(2026, 9, 1), RATES) is True


def test_after_the_deadline_only_the_whole_target_is_on_track() -> None:
    goal = honeymoon()
    goal.contribute(ANA, eur(5999), date(2028, 5, 1))

    assert goal.is_on_track(date(2029, 1, 1)) is False

    goal.contribute(BRUNO, eur(1), date(2028, 5, 2))

    assert goal.is_on_track(date(2029, 1, 1)) is True


def test_a_goal_shorter_than_a_month_is_on_track_before_its_deadline() -> None:
    gift = Goal.create(
        "Presente da mãe", brl(300), members=[ANA], created_at=date(2026, 6, 10), deadline=date(2026, 6, 25)
    )

    assert gift.is_on_track(date(2026, 6, 10)) is True
    assert gift.is_on_track(date(2026, 6, 25)) is False

    gift.contribute(ANA, brl(300), date(2026, 6, 20))

    assert gift.is_on_track(date(2026, 6, 25)) is True
