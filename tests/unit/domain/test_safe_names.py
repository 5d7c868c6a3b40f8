"""Names people read are safe (issue 17): one normalizer where names enter the domain, a
look-alike fold for members, group titles of 128 characters, and sums that render sanely."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from bot.texts import messages, previews, reports
from domain.budget import Budget
from domain.errors import DuplicateName, InvalidArgument, LookAlikeName
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryGoalRepository
from domain.money import Money, Period
from domain.reports import BudgetReport, ExpenseStatus
from domain.text import safe_text, shorten, skeleton
from domain.tools.goals import CreateGoalTool

FAKE_GOAL = "Viagem\nValor da meta: R$ 100,00" + "\n" * 30


@pytest.mark.parametrize(("raw", "safe"), [
    ("  Lua   de\tmel ", "Lua de mel"),
    ("Ana\u200b", "Ana"),
    ("\u202eanA", "anA"),  # a right-to-left override
    ("Bru\u200dno\ufeff", "Bruno"),
    ("Ｖｉａｇｅｍ", "Viagem"),  # fullwidth, by NFKC
    ("Viagem\nValor da meta: R$ 100,00\n\n\n", "Viagem Valor da meta: R$ 100,00"),
    ("Ana\x00", "Ana"),
    ("\u3164", ""),  # a Hangul filler renders as nothing
    ("Água e Luz", "Água e Luz"),
])
def test_the_normalizer_keeps_what_a_person_reads_and_drops_what_hides_or_moves_text(
        raw: str, safe: str) -> None:
    assert safe_text(raw) == safe


@pytest.mark.parametrize("look_alike", [
    "Ana\u200b", "\u0410na", "An\u0430", "\u200fAna", "ANA", "Αna", "Ana\u3164",
])
def test_a_member_whose_name_only_looks_like_anothers_is_refused(look_alike: str) -> None:
    household = Household.create("Casa", "BRL")
    household.add_member("Ana")

    with pytest.raises(DuplicateName):
        household.add_member(look_alike)

    assert [m.name for m in household.members] == ["Ana"]


def test_a_cyrillic_look_alike_is_refused_as_a_look_alike() -> None:
    household = Household.create("Casa", "BRL")
    household.add_member("Ana")

    with pytest.raises(LookAlikeName, match="parecem demais"):
        household.add_member("\u0410na")


def test_different_names_stay_different_after_the_fold() -> None:
    household = Household.create("Casa", "BRL")
    for name in ("Ana", "Ane", "Bruno", "Anna", "Beatriz", "José", "Joseane"):
        household.add_member(name)

    assert skeleton("Ana") != skeleton("Anna")
    assert len(household.members) == 7


def test_an_invisible_only_name_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        Household.create("Casa", "BRL").add_member("\u200b\u200e ")


def test_a_group_title_of_128_characters_is_taken_and_shortened_for_display() -> None:
    title = "Casa " + "x" * 123
    household = Household.create(title, "BRL")

    assert household.name == title
    welcome = messages.welcome_text(household.name, "Ana", created=True, joined=True)
    assert shorten(title, messages.HOUSEHOLD_SHOWN) in welcome and title not in welcome
    with pytest.raises(InvalidArgument):
        Household.create("x" * 129, "BRL")


def test_expense_and_goal_names_enter_the_domain_normalized() -> None:
    budget = Budget.create("BRL")
    expense = budget.register("Mercado\u200b\n\nTotal: R$ 0", Money.of(10, "BRL"),
                              category="Casa\u202e", payment_method="Pix\u0000")
    goal = Goal.create(FAKE_GOAL, Money.of(1000, "BRL"),
                       members=[Household.create("C", "BRL").add_member("Ana")],
                       created_at=datetime(2026, 6, 1).date())

    assert (expense.name, expense.category, expense.payment_method) == ("Mercado Total: R$ 0", "Casa", "Pix")
    assert goal.name == "Viagem Valor da meta: R$ 100,00"


async def test_a_goal_preview_shows_the_normalized_name_so_no_line_can_be_faked() -> None:
    household = Household.create("Casa", "BRL")
    household.add_member("Ana")
    tool = CreateGoalTool.create(goal_repo=InMemoryGoalRepository(), household=household,
                                 now=lambda: datetime(2026, 6, 15, 12, tzinfo=UTC))

    receipt = await tool.create_goal(name=FAKE_GOAL, target={"amount": 100000, "currency": "BRL"},
                                     contributors=["Ana\u200b"],
                                     operation_id="op-1")
    text = previews.preview_text("createGoal", receipt.preview)

    assert receipt.preview["name"] == "Viagem Valor da meta: R$ 100,00"
    assert receipt.preview["contributors"] == ["Ana"]
    assert "\n\n\n" not in text
    assert [line for line in text.splitlines() if line.startswith("Valor da meta")] == [
        "Valor da meta: R$ 100.000,00"]


def _brl(amount: str) -> Money:
    return Money(Decimal(amount), "BRL")


def test_a_months_percentages_have_a_ceiling() -> None:
    brl = _brl
    status = BudgetReport(Period(2026, 6), (ExpenseStatus("Mercado", brl("0.03"), brl("2000000000")),),
                          brl("0.03"), brl("2999999999999.97"), None)

    text = reports.budget_report_text(status)

    assert "mais de 999 %" in text
    assert "6666666" not in text
    assert "R$ 2.999.999.999.999,97" in text
