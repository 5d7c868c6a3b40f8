"""The fixed prompt size per model call: system prompt + tool schemas, and the working memory.

Every call the agent makes carries the rules and the schemas first (a stable prefix, so prompt
caches hit), then the history, then the member's newest message prefixed with the working memory
of what that message names (issue 25). The rules, the schemas and a typical message's memory bound
the cost of a turn from below; the whole household's memory is counted too, for comparison. The household is a realistic large one: 30 expenses
with pt-BR names and aliases, 5 goals, two members. Counting is offline (litellm's bundled
tokenizers), no model is called:

    LITELLM_OFFLINE_MODE=true /work/venv/bin/python bench/prompt_size.py [--json]

Issue 9 set the goal at <= 1500 tokens for gpt-4o-mini; issue 23 (settleUp, balance, who paid) at <= 1600,
which issue 25 keeps for this round's tools: rules + schemas + a typical message's memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.agent.chat import AgentChat
from domain.agent.prompt import RULES, system_prompt
from domain.agent.working_memory import working_memory
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.ledger import InMemoryLedger
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.tools.base import HouseholdBinding
from domain.tools.registry import household_tools
from infra.llm import count_prompt_tokens

GOAL_TOKENS = 1600
MODELS = ["gpt-4o-mini", "claude-3-5-sonnet-20241022"]
TODAY = date(2026, 6, 15)
MESSAGE = "acho que gastei 37,90 no mercado"
"""A typical message the model gets: its memory holds Mercado in full and the other names."""

# name, expected BRL, aliases, spent so far this month
EXPENSES: list[tuple[str, str, list[str], str]] = [
    ("Aluguel", "2800", ["aluguel do apê"], "2800"),
    ("Condomínio", "650", ["condominio"], "650"),
    ("IPTU", "180", [], "180"),
    ("Conta de luz", "220", ["luz", "Enel"], "0"),
    ("Conta de água", "95", ["água", "Sabesp"], "0"),
    ("Gás", "60", ["gás encanado", "Comgás"], "0"),
    ("Internet", "120", ["wifi", "Vivo Fibra"], "120"),
    ("Celular Ana", "60", ["plano da Ana"], "60"),
    ("Celular Bruno", "60", ["plano do Bruno"], "60"),
    ("Mercado", "1500", ["supermercado", "feira"], "612.37"),
    ("Padaria", "150", ["pão"], "48.50"),
    ("Açougue", "250", ["carne"], "96.80"),
    ("Farmácia", "200", ["remédios", "drogaria"], "37.90"),
    ("Plano de saúde", "1100", ["Unimed", "convênio"], "1100"),
    ("Academia", "200", ["Smart Fit"], "200"),
    ("Combustível", "500", ["gasolina", "posto"], "230"),
    ("Estacionamento", "120", [], "35"),
    ("Uber", "250", ["99", "táxi"], "74.20"),
    ("Seguro do carro", "210", ["seguro auto"], "210"),
    ("IPVA", "150", [], "150"),
    ("Netflix", "45", [], "44.90"),
    ("Spotify", "35", [], "34.90"),
    ("Streaming", "80", ["Prime Video", "Disney+", "Max"], "0"),
    ("Restaurantes", "600", ["ifood", "delivery", "jantar fora"], "287.40"),
    ("Diarista", "600", ["faxina", "faxineira"], "300"),
    ("Pet", "300", ["ração", "veterinário", "Thor"], "129.90"),
    ("Cartão de crédito", "1800", ["fatura", "Nubank"], "0"),
    ("Presentes", "150", ["aniversários"], "0"),
    ("Cursos", "250", ["inglês", "Alura"], "250"),
    ("Cabeleireiro", "150", ["barbearia", "salão"], "60"),
]


def now() -> datetime:
    return datetime(2026, 6, 15, 15, 0, tzinfo=UTC)


def build() -> tuple[str, str, list[dict[str, Any]]]:
    """The household, its tools wired as the bot wires them; returns (MESSAGE's memory, the whole
    household's memory, schemas)."""
    household = Household.create("Casa da Ana e do Bruno", "BRL", id="h1")
    ana = household.add_member("Ana", id="m-ana")
    bruno = household.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id=household.id)
    period = Period.of(TODAY)
    for name, expected, aliases, spent in EXPENSES:
        expense = budget.register(name, Money.of(expected, "BRL"), aliases=aliases)
        if spent != "0":
            expense.replace_actual(period, Money.of(spent, "BRL"))
    budget.set_income(Money.of(18500, "BRL"))

    def goal(name: str, amount: int, currency: str, deadline: date | None, members: list[Any]) -> Goal:
        return Goal.create(name, Money.of(amount, currency), members=members, created_at=date(2026, 1, 10),
                           deadline=deadline, household_id=household.id)

    amsterdam = goal("Amsterdam Setembro/2026", 6000, "EUR", date(2026, 9, 1), [ana, bruno])
    amsterdam.contribute(ana, Money.of(1500, "BRL"), date(2026, 5, 5))
    amsterdam.contribute(bruno, Money.of(800, "EUR"), date(2026, 6, 2))
    reserve = goal("Reserva de emergência", 30000, "BRL", None, [ana, bruno])
    reserve.contribute(bruno, Money.of("4250.75", "BRL"), date(2026, 4, 1))
    honeymoon = goal("Lua de mel", 6000, "EUR", date(2028, 6, 1), [ana, bruno])
    car = goal("Carro novo", 45000, "BRL", date(2027, 6, 30), [ana, bruno])
    car.contribute(ana, Money.of(2000, "BRL"), date(2026, 3, 1))
    laptop = goal("Notebook do Bruno", 8000, "BRL", date(2026, 12, 1), [bruno])
    goals = [amsterdam, reserve, honeymoon, car, laptop]

    budgets, goal_repo, operations = InMemoryBudgetRepository(), InMemoryGoalRepository(), InMemoryOperationLog()
    tools = household_tools(HouseholdBinding(household=household, budget_id=budget.id, budgets=budgets,
                                             goals=goal_repo, operations=operations, clock=now,
                                             ledger=InMemoryLedger()))
    memory = working_memory(household, budget, goals, TODAY, message=MESSAGE)
    whole = working_memory(household, budget, goals, TODAY)
    schemas = AgentChat.create(_NoModel(), tools, system_prompt=system_prompt()).schemas()
    return memory, whole, schemas


class _NoModel:
    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        raise AssertionError("the benchmark calls no model")


def measure(model: str, memory: str, whole: str, schemas: list[dict[str, Any]]) -> dict[str, Any]:
    def count(text: str | None, tools: list[dict[str, Any]] | None = None) -> int:
        messages = [{"role": "system", "content": text}] if text is not None else []
        return count_prompt_tokens(model, messages, tools)

    fixed = count(RULES, schemas)
    total = count_prompt_tokens(model, [{"role": "system", "content": RULES},
                                        {"role": "user", "content": memory}], schemas)
    return {
        "model": model,
        "total": total,
        "rules_and_schemas": fixed,
        "system_prompt_rules": count(RULES),
        "working_memory": count(memory),
        "whole_household_memory": count(whole),
        "tool_schemas": fixed - count(RULES),
        "per_tool": {s["function"]["name"]: count("", [s]) - count("") for s in schemas},
        "over_goal": max(0, total - GOAL_TOKENS),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    memory, whole, schemas = build()
    results = []
    for model in MODELS:
        try:
            results.append(measure(model, memory, whole, schemas))
        except Exception as error:  # a tokenizer that needs the network
            results.append({"model": model, "error": f"{type(error).__name__}: {error}"})
    if options.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    print(f"Household: {len(EXPENSES)} expenses, 5 goals, 2 members, {len(schemas)} tools offered to the model; "
          f"rules {len(RULES)} chars, a typical message's memory {len(memory)} chars "
          f"(the whole household's: {len(whole)}), "
          f"schemas {len(json.dumps(schemas, ensure_ascii=False, separators=(',', ':')))} chars as JSON.")
    for r in results:
        if "error" in r:
            print(f"\n{r['model']}: counting failed offline: {r['error']}")
            continue
        verdict = "within" if r["total"] <= GOAL_TOKENS else f"{r['over_goal']} over"
        print(f"\n{r['model']}: {r['total']} tokens fixed per call ({verdict} the {GOAL_TOKENS} goal)")
        print(f"  system prompt (rules)   {r['system_prompt_rules']:>5}")
        print(f"  working memory          {r['working_memory']:>5}  (of {MESSAGE!r}; "
              f"the whole household's would be {r['whole_household_memory']})")
        print(f"  tool schemas ({len(schemas)})       {r['tool_schemas']:>5}")
        per_tool = sorted(r["per_tool"].items(), key=lambda kv: -kv[1])
        print("  per tool: " + ", ".join(f"{name} {n}" for name, n in per_tool))
    print("\n(The parts are counted separately, each with its own message overhead, so they add up "
          "to a few tokens more than the total.)")


if __name__ == "__main__":
    main()
