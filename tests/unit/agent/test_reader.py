"""The free-text reader (domain/agent/reader.py): the commonest spends with no model, and nothing
it is not sure of (contract §9, issue 25)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from domain.agent.chat import PREVIEWS_SENT, READER, AgentChat
from domain.agent.conversation import InMemoryConversationStore, Message
from domain.agent.model import FailureKind
from domain.agent.reader import SpendReader
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.ledger import InMemoryLedger
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.tools.base import HouseholdBinding
from domain.tools.registry import household_tools
from tests.fakes.scripted_model import ScriptedModel, say

TODAY = date(2026, 7, 1)  # a Wednesday, the first of the month: "ontem" is June


def household() -> tuple[Household, Budget, list[Goal]]:
    house = Household.create("Casa", "BRL", id="h1")
    ana, bruno = house.add_member("Ana", id="m-ana"), house.add_member("Bruno", id="m-bruno")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name, aliases in [("Mercado", ["supermercado", "feira"]), ("Luz", ["conta de luz", "Enel"]),
                          ("Uber", ["99", "táxi"]), ("Farmácia", ["drogaria"]), ("Gás", ["botijão"]),
                          ("Restaurantes", ["ifood"]), ("Condomínio", ["taxa do prédio"]), ("Aluguel", []),
                          ("Luz e gás", ["EDP"])]:
        budget.register(name, Money.of(500, "BRL"), aliases=aliases)
    goals = [Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=[ana, bruno],
                         created_at=date(2026, 1, 1)),
             Goal.create("Carro novo", Money.of(40000, "BRL"), members=[ana, bruno], created_at=date(2026, 1, 1))]
    return house, budget, goals


def reader() -> SpendReader:
    house, budget, goals = household()
    return SpendReader.of(house, budget, goals, TODAY)


def spend(expense: str, amount: str, period: str = "2026-07", **more: Any) -> dict[str, Any]:
    return {"name": "recordSpend", "arguments": {"expense": expense, "period": period,
                                                 "amount": {"amount": amount, "currency": "BRL"}, **more}}


@pytest.mark.parametrize(("text", "calls"), [
    ("gastei 37,90 no mercado", [spend("Mercado", "37.90")]),
    ("paguei 120 de luz ontem", [spend("Luz", "120", "2026-06")]),
    ("mercado 25", [spend("Mercado", "25")]),
    ("uber 23,50 pro aeroporto", [spend("Uber", "23.50")]),
    ("pedimos ifood ontem, deu 89,90", [spend("Restaurantes", "89.90", "2026-06")]),
    ("paguei duzentos e cinquenta de luz", [spend("Luz", "250")]),
    ("cem reais de farmácia hj, tô gripada 🤧", [spend("Farmácia", "100")]),
    ("a taxa do prédio veio 1.500 esse mês", [spend("Condomínio", "1500")]),
    ("o gás acabou, comprei botijão por 120", [spend("Gás", "120")]),
    ("paguei a EDP, 87,30", [spend("Luz e gás", "87.30")]),
    ("peguei um 99 de 23,50", [spend("Uber", "23.50")]),
    ("o Bruno pagou 120 de luz", [spend("Luz", "120", paidBy="Bruno")]),
    ("pago pela Ana: 50 de mercado", [spend("Mercado", "50", paidBy="Ana")]),
    ("gastei 150 na farmácia, mas é pessoal", [spend("Farmácia", "150", shared=False)]),
    ("gastei 45 no mercado, é só meu", [spend("Mercado", "45", shared=False)]),
    ("lança 320 de uber no mês passado", [spend("Uber", "320", "2026-06")]),
    ("gastei 50 no mercado e 30 na farmácia", [spend("Mercado", "50"), spend("Farmácia", "30")]),
    ("mercado 50, farmácia 30", [spend("Mercado", "50"), spend("Farmácia", "30")]),
    ("o Bruno gastou 50 no mercado", [spend("Mercado", "50", paidBy="Bruno")]),
    ("Bruno, gastei 50 no mercado", [spend("Mercado", "50")]),  # the spouse called: Ana's spend
    ("gastei 50 no mercado agora", [spend("Mercado", "50")]),
    ("gastei 50 no mercado, pode registrar", [spend("Mercado", "50")]),
    ("a Ana comprou remédio na drogaria, 45", [spend("Farmácia", "45", paidBy="Ana")]),
    ("a gente gastou 50 no mercado", [spend("Mercado", "50")]),
    ("paguei 45 d aula extra na farmacya", [spend("Farmácia", "45")]),  # one typo, beside a spend
    ("gastei 50 no mecrado", [spend("Mercado", "50")]),                  # two letters swapped
    ("gastei 80 no supermecado", [spend("Mercado", "80")]),              # the alias, a letter short
    ("paguei 300 do aluguek", [spend("Aluguel", "300")]),
    ("mercdo 50", [spend("Mercado", "50")]),                            # a typo beside an amount
    ("farmacai 32", [spend("Farmácia", "32")]),
    ("dia 1º paguei a luz, 119,90", [spend("Luz", "119.90")]),            # an ordinal day
    ("paguei 120 de luz no pix", [spend("Luz", "120")]),               # how it was paid
    ("foi a Ana que pagou 50 no mercado", [spend("Mercado", "50", paidBy="Ana")]),
    ("gastei 50 no mercado no fim de semana", [spend("Mercado", "50", "2026-06")]),  # Saturday 27 June
    ("chegou a conta de luz: 187,40, já paguei", [spend("Luz", "187.40")]),  # "já" before a bill paid
    ("uber ida e volta do aeroporto 120", [spend("Uber", "120")]),
    ("mês passado a luz veio 139,90, lança a diferença de 19,90", [spend("Luz", "19.90", "2026-06")]),
    ("paguei a mensalidade do condomínio, 480", [spend("Condomínio", "480")]),  # a month's bill paid
    ("a taxa do prédio deu 455 com o desconto", [spend("Condomínio", "455")]),  # the amount paid, discount taken
    ("paguei 85 de farmácia no mês retrasado", [spend("Farmácia", "85", "2026-05")]),
    ("gastei 85 na farmácia há dois meses", [spend("Farmácia", "85", "2026-05")]),
    ("comprei umas frutas na feira, 30", [spend("Mercado", "30")]),  # "umas" before no amount
    ("gastei 45 na farmácia só pra mim", [spend("Farmácia", "45", shared=False)]),
    ("fiz o pix do aluguel, 2500", [spend("Aluguel", "2500")]),  # how the rent was paid
    ("coloca o condomínio, 430, já fiz o pix", [spend("Condomínio", "430")]),  # paid, by pix
    ("luz 120, fiz pix", [spend("Luz", "120")]),
    ("paguei o condomínio, 430, sem multa ufa", [spend("Condomínio", "430")]),  # a remark
    ("lança 50 no mercado, blz?", [spend("Mercado", "50")]),   # a tag question asks for nothing
    ("mercado 50 ok?", [spend("Mercado", "50")]),
])
def test_the_commonest_spends_are_read_with_no_model(text: str, calls: list[dict[str, Any]] | None) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "quanto gastei no mercado e na luz?",    # a question about two expenses
    "não, era 40?",                          # a correction asked
    "mercado 50?",                           # a spend asked about
    "gastei 50 no mercado? blz?",
    "o aluguel subiu uns 200",               # a change by an amount (to one: adjustments.py)
    "internet foi pra 120 semana passada",
    "sobe o mercado pra 1.800 que tá faltando",
    "não, foi 250",                          # a correction: the model reads the conversation
    "era 40 no mercado",
    "eu e o Bruno colocamos 2k no carro novo",  # a goal, two members
    "vou aportar 250 na amsterdam",          # a plan
    "gastei 80 no salão",                    # no expense of that name
    "o Pedro pagou 200 do mercado",          # not a member
    "o Pedro gastou 200 no mercado",
    "foi o Pedro que pagou 50 no mercado",
    "paguei 120 de luz e o Bruno pagou 50 de mercado",  # two payers: whose is which is the model's
    "o Bruno pagou 50 de mercado e eu 120 de luz",
    "o Bruno pagou a luz 120, o mercado 50 foi comigo",
    "mandei 100 no pix pro mercado",         # a transfer, not a spend paid by pix
    "paguei 120 pro Bruno no pix",
    "condomínio 430, fiz o pix pro Bruno",   # money sent to the spouse: an acerto
    "condomínio 430, te fiz o pix",
    "gastei 50 no mercadinho",               # more than one letter away
    "comprei 2 pizzas por 80 no ifood",      # two numbers for one expense
    "gastei 300 euros no mercado",           # another currency
    "gastei 50 no mercado e na farmácia",    # one amount, two expenses
    "comprei a geladeira em 10x de 300 no mercado",  # installments
    "gastei uns 50 no mercado",              # not an exact amount
    "mercado",                               # no amount
    "gastei 50 no mercado ontem e na sexta", # two days
    "já gastamos 1500 no mercado esse mês",  # a running total, not a spend
    "o mercado tá em 1500",
    "já gastei 200 no mercado",              # a spend, or the month's total so far?
    "coloca o mercado em 1800",              # what the Mercado is set to: a new expected amount
    "a luz veio 250, diferença de 30 pro mês passado",  # a difference told, not asked to record
    "lança a diferença no mercado",          # which difference: the model computes or asks
    "mercado acumulado 1500",
    "economizei 50 no mercado",              # a saving
    "gastei 50 a menos no mercado",
    "tive 50 de desconto no mercado",
    "separa 50 pro mercado",                 # money set aside
    "deixa 50 pro mercado",
    "a luz vence dia 10, 189,90",            # a due date
    "amanhã gasto 200 no mercado",           # a plan
    "gasolina tá 6,20 o litro",              # a unit price
    "gastei 50 no mercado no fim do mês",    # which month's end: the model asks
    "gastei 150 no mercado livre",           # a web shop, not the Mercado
    "uber eats 45",                          # a meal delivered, not a ride
    "gastei 230 no mercado, sendo 30 de farmácia",  # 30 of the 230: a part, not a second spend
    "mensalidade do condomínio 480",         # what it costs a month, or paid? the model's
    "paguei 200 no mercado com desconto de 20",  # which is the discount, which the spend
    "gastei 85 na farmácia duas semanas atrás",  # time counted back the reader does not date
    "gastei 85 na farmácia há 2 meses",
    "gastei 85 na farmácia na semana retrasada",
    "comprei remédio pra mim, 45",           # for the speaker: split or not is the model's to ask
    "tirei 200 do mercado",                  # taken out of it, or spent?
])
def test_anything_the_reader_is_not_sure_of_is_left_to_the_model(text: str) -> None:
    assert reader().read(text) is None


def tools_for(budget: Budget, house: Household, ledger: InMemoryLedger | None = None) -> tuple[
        list[Any], InMemoryBudgetRepository, InMemoryOperationLog]:
    ledger = ledger or InMemoryLedger()
    repo = InMemoryBudgetRepository(ledger)
    operations = InMemoryOperationLog()
    now = datetime(2026, 7, 1, 15, tzinfo=UTC)
    tools = household_tools(HouseholdBinding(
        household=house, budget_id=budget.id, budgets=repo, goals=InMemoryGoalRepository(ledger),
        operations=operations, clock=lambda: now, ledger=ledger))
    return tools, repo, operations


async def chat_with(model: ScriptedModel | None) -> tuple[AgentChat, InMemoryBudgetRepository]:
    house, budget, goals = household()
    tools, repo, operations = tools_for(budget, house)
    await repo.save(budget)
    chat = AgentChat.create(model, tools, operations=operations,
                            reader=SpendReader.of(house, budget, goals, TODAY).read)
    return chat, repo


async def test_a_message_the_reader_takes_makes_no_model_request_and_comes_back_as_previews() -> None:
    model = ScriptedModel()  # any request would fail the test: the script is empty
    chat, repo = await chat_with(model)

    reply = await chat.send("gastei 50 no mercado e 30 na farmácia", sender="Ana")

    assert model.requests == [] and reply.text == "" and reply.failure is None
    assert [(c.name, c.source) for c in reply.tool_calls] == [("recordSpend", READER)] * 2
    assert [r.preview["delta"]["amount"] for r in reply.receipts] == [50, 30]
    assert all(not r.confirmed for r in reply.receipts)
    assert repo.saves == 1  # the fixture's own save: a preview writes nothing


async def test_the_readers_message_and_preview_enter_the_conversation_the_model_sees_next() -> None:
    model = ScriptedModel(say("Vocês gastaram R$ 50,00 no mercado em julho."))
    chat, _ = await chat_with(model)

    await chat.send("gastei 50 no mercado", sender="Ana")
    await chat.send("e quanto deu o mercado até agora?", sender="Ana")

    [request] = model.requests
    history = request.messages[:-1]
    assert history[0] == {"role": "user", "content": "[Ana] gastei 50 no mercado"}
    assert history[1]["tool_calls"][0]["function"]["name"] == "recordSpend"
    assert history[2]["role"] == "tool" and '"amount":"50"' in history[2]["content"]
    assert history[3] == {"role": "assistant", "content": PREVIEWS_SENT}


class CountingConversations(InMemoryConversationStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def recent(self, conversation_id: str, turns: int) -> list[Message]:
        self.reads += 1
        return await super().recent(conversation_id, turns)


async def test_a_plain_spend_the_reader_takes_never_reads_the_conversation_only_a_correction_does() -> None:
    house, budget, goals = household()
    tools, repo, operations = tools_for(budget, house)
    await repo.save(budget)
    conversations = CountingConversations()
    chat = AgentChat.create(ScriptedModel(), tools, operations=operations, conversations=conversations,
                            reader=SpendReader.of(house, budget, goals, TODAY).read)

    await chat.send("gastei 50 no mercado", sender="Ana")
    await chat.send("paguei 120 de luz ontem", sender="Bruno")
    assert conversations.reads == 0

    [corrected] = (await chat.send("não, era 110", sender="Bruno")).tool_calls
    assert conversations.reads == 1
    assert corrected.source == READER and corrected.args["expense"] == "Luz"
    assert corrected.args["amount"] == {"amount": "110", "currency": "BRL"}


@pytest.mark.parametrize(("correction", "changed"), [
    ("não, era 40", {"amount": {"amount": "40", "currency": "BRL"}}),
    ("ops, foi 45,50", {"amount": {"amount": "45.50", "currency": "BRL"}}),
    ("foi mal, isso foi mês passado", {"period": "2026-06"}),
    ("na verdade foram 50 euros", None),  # another currency than the household's: the model's to ask
])
async def test_a_correction_of_the_last_proposal_is_read_with_no_model(correction: str,
                                                                         changed: dict[str, Any] | None) -> None:
    model = ScriptedModel(say("Em euros? Pode confirmar o valor?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    corrected = await chat.send(correction, sender="Ana")

    if changed is None:
        assert len(model.requests) == 1 and not corrected.receipts
        return
    assert model.requests == []
    [call_made] = corrected.tool_calls
    assert call_made.source == READER and not call_made.result.confirmed
    expected = {"expense": "Mercado", "period": "2026-07", "amount": {"amount": "50", "currency": "BRL"}}
    assert {k: call_made.args[k] for k in expected} == {**expected, **changed}


@pytest.mark.parametrize(("correction", "amount"), [
    ("não pera, 45, esqueci o desconto do app", "45"),    # a reason, in a clause of its own
    ("amor foi 45, vc trocou os números", "45"),           # called, then the value said again
    ("foi 45,50 pq tinha desconto", "45.50"),
    ("põe 45, o preço veio mais caro", "45"),
    ("errei, foram 45 😅 olhei a nota errada", "45"),      # a reason after an emoji: a clause of its own
    ("opa, errei o número kkk foi 45", "45"),              # and after a laugh
    ("lança 45 no mercado, tinha digitado errado", "45"),  # the slip said last
])
async def test_a_correction_with_a_reason_beside_it_is_read_with_no_model(correction: str, amount: str) -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    [call_made] = (await chat.send(correction, sender="Ana")).tool_calls

    assert model.requests == [] and call_made.source == READER
    assert call_made.args["expense"] == "Mercado" and call_made.args["amount"]["amount"] == amount


@pytest.mark.parametrize("correction", ["não, foi na farmácia", "ops, era drogaria", "foi na farmácia"])
async def test_a_correction_naming_another_expense_moves_the_spend_there_with_no_model(correction: str) -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    await chat.send("o Bruno pagou 50 no mercado", sender="Ana")

    [call_made] = (await chat.send(correction, sender="Ana")).tool_calls

    assert model.requests == [] and call_made.source == READER and not call_made.result.confirmed
    assert {k: call_made.args[k] for k in ("expense", "amount", "paidBy")} == {
        "expense": "Farmácia", "amount": {"amount": "50", "currency": "BRL"}, "paidBy": "Bruno"}


@pytest.mark.parametrize("correction", ["errei, era 45 do supermercado", "não, foi 45 no mercado"])
async def test_a_correction_that_names_the_spends_own_expense_again_corrects_its_amount(correction: str) -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    [call_made] = (await chat.send(correction, sender="Ana")).tool_calls

    assert model.requests == [] and call_made.source == READER
    assert call_made.args["expense"] == "Mercado" and call_made.args["amount"]["amount"] == "45"


@pytest.mark.parametrize("correction", [
    "não, foi na farmácia e foi 40",     # two things at once
    "não, foi no mercado e na farmácia",  # two expenses
    "não era farmácia, era uber",          # the one denied is not the spend's
    "não, foi na farmácia do Bruno",      # and who paid, maybe
    "não, foi no mercado",                # the same expense: what is wrong, then?
])
async def test_a_correction_of_the_expense_that_says_more_is_the_models(correction: str) -> None:
    await assert_the_model_answers_after_a_spend(correction, sender="Ana")


async def assert_the_model_answers_after_a_spend(text: str, sender: str) -> None:
    model = ScriptedModel(say("Pode me dizer mais?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send(text, sender=sender)

    assert len(model.requests) == 1 and not reply.receipts


def test_a_correction_of_a_card_purchases_day_moves_it_to_that_days_fatura() -> None:
    last = {"name": "recordSpend", "operationId": "op-1", "arguments": {
        "expense": "Mercado", "period": "2026-07", "amount": {"amount": "50", "currency": "BRL"},
        "card": "Nubank", "date": "2026-07-01"}}

    [call] = reader_with_cards().read("não, foi anteontem", last)

    assert call["arguments"]["date"] == "2026-06-29" and call["arguments"]["period"] == "2026-06"
    assert call["corrects"] == "op-1"


async def test_a_value_said_again_with_an_expense_is_a_new_spend_not_a_correction() -> None:
    chat, _ = await chat_with(ScriptedModel())
    await chat.send("gastei 50 no mercado", sender="Ana")

    [call_made] = (await chat.send("foi 120 de luz", sender="Ana")).tool_calls

    assert call_made.args["expense"] == "Luz" and call_made.args["amount"]["amount"] == "120"
    assert len(await chat.operations.pending()) == 2  # the spend at the market still waits


async def test_a_correction_replaces_the_preview_it_corrects_and_keeps_who_paid() -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    first = (await chat.send("gastei 52 no mercado", sender="Bruno")).receipts[0]

    corrected = await chat.send("amor foi 25, vc trocou os números", sender="Ana")

    [call_made] = corrected.tool_calls
    assert call_made.args["paidBy"] == "Bruno"  # Ana corrects Bruno's spend: still his
    assert corrected.superseded == [first.operation_id]
    old = await chat.operations.get(first.operation_id)
    assert old is not None and old.status.value == "cancelled" and old.decided_by == "Ana"
    [confirmed] = (await chat.send("verdade, confirma", sender="Bruno")).receipts
    assert confirmed.operation_id == call_made.result.operation_id and confirmed.persisted
    assert model.requests == []


@pytest.mark.parametrize("text", ["não, era 40 no uber", "não, era 40 pro Bruno", "não, era 40 e 30",
                                  "não quero mais", "ops, era 40 de cartão",
                                  "não, 40, mas é pessoal",           # a reason that changes whose it is
                                  "não, 40, foi no nubank",           # or the card
                                  "foi 10, a mais",                   # by an amount, not to it
                                  "não 40 esqueci o desconto"])       # a reason with no clause of its own
async def test_a_correction_that_says_more_than_one_new_value_goes_to_the_model(text: str) -> None:
    model = ScriptedModel(say("Pode explicar?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    await chat.send(text, sender="Ana")

    assert len(model.requests) == 1


@pytest.mark.parametrize("text", ["pode confirmar", "sim", "sim, pode lançar", "confirma aí por favor", "👍",
                                  "isso", "fechado", "beleza", "tá certo", "manda ver", "lança aí", "✅",
                                  "sim amor", "ok obrigado", "valeu, pode confirmar", "tá ótimo", "top"])
async def test_a_yes_to_the_one_preview_waiting_confirms_it_with_no_model(text: str) -> None:
    model = ScriptedModel(say("?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send(text, sender="Bruno")

    assert model.requests == []
    [receipt] = reply.receipts
    assert receipt.confirmed and receipt.persisted


@pytest.mark.parametrize("text", ["isso?", "certo, e o mercado?", "não tá certo", "isso, mas foi 40", "bom dia",
                                  "valeu", "obrigado"])  # thanks alone is no yes
async def test_words_that_ask_or_say_more_than_yes_are_the_models_even_with_one_preview_waiting(text: str) -> None:
    await assert_the_model_answers_after_a_spend(text, sender="Bruno")


async def test_a_yes_after_a_correction_that_proposed_nothing_is_the_models_not_the_old_preview() -> None:
    model = ScriptedModel(say("Entendi, 45?"), say("Qual valor, 50 ou 45?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")
    await chat.send("não pera, acho que foi 45", sender="Ana")  # the model proposed nothing

    reply = await chat.send("ok confirma", sender="Bruno")

    assert len(model.requests) == 2 and not reply.receipts  # the R$ 50,00 preview is still waiting


@pytest.mark.parametrize("text", ["pode confirmar", "confirma os dois", "sim pros dois", "confirma ambos"])
async def test_a_yes_to_the_previews_one_message_proposed_confirms_them_all_with_no_model(text: str) -> None:
    model = ScriptedModel(say("?"))
    chat, repo = await chat_with(model)
    await chat.send("gastei 50 no mercado e 30 na farmácia", sender="Ana")

    reply = await chat.send(text, sender="Bruno")

    assert model.requests == []
    assert len(reply.receipts) == 2 and all(r.confirmed and r.persisted for r in reply.receipts)
    july = Period(2026, 7)
    budget = await repo.load("b1", periods=(july,))
    assert budget.find_by_name("Mercado").actual_for(july) == Money.of(50, "BRL")
    assert budget.find_by_name("Farmácia").actual_for(july) == Money.of(30, "BRL")


@pytest.mark.parametrize("text", ["confirma as duas", "sim, os dois", "pode lançar ambos", "confirma as duas!"])
async def test_a_yes_to_two_previews_with_one_waiting_is_the_models_and_confirms_nothing(text: str) -> None:
    model = ScriptedModel(say("Só vi uma prévia: R$ 50,00 no Mercado. Qual é a outra?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    reply = await chat.send(text, sender="Ana")

    assert len(model.requests) == 1 and reply.receipts == []
    assert len(await chat.operations.pending()) == 1


async def test_nela_after_a_contribution_already_written_is_that_goal_with_no_model() -> None:
    house, budget, goals = household()
    ledger = InMemoryLedger()
    budgets, goal_repo = InMemoryBudgetRepository(ledger), InMemoryGoalRepository(ledger)
    await budgets.save(budget)
    for goal in goals:
        await goal_repo.save(goal)
    operations = InMemoryOperationLog()
    tools = household_tools(HouseholdBinding(
        household=house, budget_id=budget.id, budgets=budgets, goals=goal_repo, operations=operations,
        clock=lambda: datetime(2026, 7, 1, 15, tzinfo=UTC), ledger=ledger))
    model = ScriptedModel()  # any request would fail the test
    chat = AgentChat.create(model, tools, operations=operations,
                            reader=SpendReader.of(house, budget, goals, TODAY).read)
    await chat.send("coloquei 500 no carro novo", sender="Ana")
    assert (await chat.send("sim", sender="Bruno")).receipts[0].persisted

    reply = await chat.send("guardei 200 nela", sender="Bruno")

    assert model.requests == [] and [c.args["goal"] for c in reply.tool_calls] == ["Carro novo"]
    assert not reply.receipts[0].confirmed


async def test_a_yes_with_previews_of_two_messages_waiting_is_the_models_to_sort_out() -> None:
    model = ScriptedModel(say("Qual dos dois?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")
    await chat.send("gastei 30 na farmácia", sender="Bruno")

    reply = await chat.send("pode confirmar", sender="Bruno")

    assert len(model.requests) == 1 and not reply.receipts


async def test_without_a_model_a_message_the_reader_does_not_take_is_not_configured_and_not_stored() -> None:
    chat, _ = await chat_with(None)

    taken = await chat.send("mercado 25", sender="Ana")
    left = await chat.send("quanto falta pra Amsterdam?", sender="Ana")

    assert taken.receipts and taken.failure is None
    assert left.failure is FailureKind.NOT_CONFIGURED and not left.tool_calls
    stored = await chat.conversations.recent(chat.conversation_id, 10)
    assert [m["content"] for m in stored if m["role"] == "user"] == ["[Ana] mercado 25"]


async def test_a_reader_call_a_tool_refuses_goes_to_the_model_instead() -> None:
    house, budget, goals = household()
    tools, repo, operations = tools_for(budget, house)
    await repo.save(budget)
    stale = SpendReader.of(house, budget, goals, TODAY)
    archived = await repo.load(budget.id)
    archived.archive("Mercado", since=Period(2026, 7))  # archived since the reader was built
    await repo.save(archived)
    model = ScriptedModel(say("Mercado foi arquivado; quer reativar?"))
    chat = AgentChat.create(model, tools, operations=operations, reader=stale.read)

    reply = await chat.send("gastei 50 no mercado", sender="Ana")

    assert len(model.requests) == 1 and reply.text == "Mercado foi arquivado; quer reativar?"


# --------------------------------------------------------------------------- issue 24: a card named


def reader_with_cards() -> SpendReader:
    house, budget, goals = household()
    budget.register_card("Nubank", 3, 10, aliases=["roxinho"])
    budget.register_card("Itaú Visa", 25, 5, aliases=["itaú"])
    return SpendReader.of(house, budget, goals, TODAY)


@pytest.mark.parametrize(("text", "calls"), [
    ("gastei 50 no mercado no nubank", [spend("Mercado", "50", card="Nubank")]),
    ("paguei 89,90 de farmácia no roxinho", [spend("Farmácia", "89.90", card="Nubank")]),
    ("mercado 120 na itaú visa", [spend("Mercado", "120", card="Itaú Visa")]),
    # the purchase's day decides its fatura, so a day named goes with it
    ("gastei 50 no mercado no nubank ontem", [spend("Mercado", "50", "2026-06", card="Nubank", date="2026-06-30")]),
])
def test_a_spend_on_a_card_the_household_has_is_read_with_its_card(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader_with_cards().read(text) == calls


@pytest.mark.parametrize("text", [
    "gastei 50 no mercado no nubank e no itaú visa",  # two cards
    "gastei 50 no mercado, nubank",                   # a card not said as "no <cartão>"
    "gastei 50 no mercado no cartão",                 # which card?
    "farmácia 45 no visa",                            # a part of a card's name: never a spend off the card
])
def test_a_card_the_reader_is_unsure_of_goes_to_the_model(text: str) -> None:
    assert reader_with_cards().read(text) is None


def test_a_brand_the_household_named_an_expense_after_is_that_expense() -> None:
    house, budget, goals = household()
    budget.register("Compras online", Money.of(300, "BRL"), aliases=["mercado livre"])
    reader = SpendReader.of(house, budget, goals, TODAY)

    assert reader.read("gastei 150 no mercado livre") == [spend("Compras online", "150")]


def test_without_a_card_by_that_name_a_word_after_no_is_just_a_word() -> None:
    assert reader().read("gastei 50 no mercado no centro") == [spend("Mercado", "50")]


async def test_a_correction_of_a_spend_already_confirmed_is_the_models_not_a_second_spend() -> None:
    model = ScriptedModel(say("Quer desfazer o de 50 e lançar 40?"))
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")
    await chat.send("sim", sender="Bruno")

    reply = await chat.send("não, era 40", sender="Ana")

    assert len(model.requests) == 1 and not reply.receipts


def test_a_payer_called_by_a_nickname_that_begins_only_their_name_is_that_member() -> None:
    house = Household.create("Casa", "BRL", id="h1")
    house.add_member("Júlia", id="m-julia")
    house.add_member("Rafael", id="m-rafael")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    budget.register("Diarista", Money.of(600, "BRL"))
    read = SpendReader.of(house, budget, [], TODAY).read

    assert read("o Rafa pagou a diarista, 600") == [spend("Diarista", "600", paidBy="Rafael")]
    assert read("o Ra pagou a diarista, 600") == [spend("Diarista", "600", paidBy="Rafael")]  # where only a person stands
    assert read("o Jo pagou a diarista, 600") is None  # begins no member's name: someone else


def test_a_typo_is_taken_for_an_expense_only_when_one_name_is_that_near_and_no_other_name_is_the_word() -> None:
    house = Household.create("Casa", "BRL", id="h1")
    ana = house.add_member("Ana", id="m-ana")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name in ("Viagens", "Escola", "Escolta", "Academia"):
        budget.register(name, Money.of(100, "BRL"))
    goals = [Goal.create("Viagem Chile", Money.of(9000, "BRL"), members=[ana], created_at=date(2026, 1, 1))]
    read = SpendReader.of(house, budget, goals, TODAY).read

    assert read("paguei 45 na acdemia") == [spend("Academia", "45")]
    assert read("gastei 500 na viagem") is None   # the goal's word, one letter from the expense's
    assert read("paguei 80 na escolra") is None   # one letter from two expenses
    assert read("paguei 80 na escola") == [spend("Escola", "80")]


@pytest.mark.parametrize(("text", "calls"), [
    ("gastei 50 no mercado no nubank", [spend("Mercado", "50", card="Nubank")]),
    ("paguei 89,90 de farmácia no cartão itaú", [spend("Farmácia", "89.90", card="Itaú Visa")]),
    ("paguei 89,90 de farmácia no cartão do roxinho", [spend("Farmácia", "89.90", card="Nubank")]),
    ("gastei 900 no mercado em 3x no nubank", [spend("Mercado", "900", card="Nubank", installments=3)]),
    ("farmácia 120 em 2 vezes no itaú", [spend("Farmácia", "120", card="Itaú Visa", installments=2)]),
    ("gastei 300 no mercado no nubank em 3 parcelas", [spend("Mercado", "300", card="Nubank", installments=3)]),
    ("900 na farmácia parcelado em 3x no nubank", [spend("Farmácia", "900", card="Nubank", installments=3)]),
    ("farmácia 45 no crédito do roxinho", [spend("Farmácia", "45", card="Nubank")]),
    ("mercado 900 parcelado em 3 no nubank", [spend("Mercado", "900", card="Nubank", installments=3)]),
    ("farmácia 480 em 3 vezes sem juros no nubank", [spend("Farmácia", "480", card="Nubank", installments=3)]),
    ("mercado 900 em 3x sem juros no nubank", [spend("Mercado", "900", card="Nubank", installments=3)]),
    ("mercado 90 no cartão de crédito do itaú", [spend("Mercado", "90", card="Itaú Visa")]),
])
def test_a_spend_on_a_card_the_household_has_with_its_parcelas_is_read_with_no_model(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader_with_cards().read(text) == calls


@pytest.mark.parametrize("text", [
    "gastei 900 no mercado em 3x",                  # parcelas on no card named
    "gastei 900 no mercado no cartão em 3x",        # which card?
    "gastei 900 no mercado em 10x de 90 no nubank",  # the purchase, or each parcela?
    "comprei 2x 50 no mercado no nubank",           # two of 50, or 50 in 2x?
    "comprei 2 x 50 no mercado no nubank",          # a product
    "gastei 900 no mercado em 3x no nubank e 50 na farmácia",  # parcelas for which purchase?
    "gastei 900 no mercado em 3x e 2x no nubank",   # two counts
    "gastei 900 no mercado em 99x no nubank",       # more parcelas than a card takes
    "gastei 900 no mercado parcelado no nubank",    # parcelado, in how many?
    "mercado 900 no nubank sem juros",              # "sem juros" with no parcelas told
])
def test_a_card_spend_the_reader_is_not_sure_of_is_left_to_the_model(text: str) -> None:
    assert reader_with_cards().read(text) is None


def test_a_card_whose_name_has_a_digit_is_a_card_not_an_amount() -> None:
    house, budget, goals = household()
    budget.register_card("C6 Carbon", 8, 15, aliases=["C6"])
    read = SpendReader.of(house, budget, goals, TODAY).read

    assert read("gastei 630 na farmácia em 3x no C6") == [
        spend("Farmácia", "630", card="C6 Carbon", installments=3)]
    # "parcelei" away from its count, and "no total": the same parcelas, the whole price
    assert read("parcelei a compra do mercado em 3x no C6, 900 no total") == [
        spend("Mercado", "900", card="C6 Carbon", installments=3)]
    assert read("gastei 630 na farmácia, 900 no total") is None  # a total of what?


@pytest.mark.parametrize(("text", "calls"), [
    ("comprei remédio 45 na drogaria", [spend("Farmácia", "45")]),
    ("gastei 80 no restaurante", [spend("Restaurantes", "80")]),
    ("gastei 20 nos supermercados", [spend("Mercado", "20")]),
])
def test_an_expense_said_in_the_singular_or_the_plural_is_that_expense(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


def test_expenses_that_differ_only_by_a_plural_s_are_left_to_the_model() -> None:
    house, budget, goals = household()
    budget.register("Restaurante", Money.of(100, "BRL"))

    assert SpendReader.of(house, budget, goals, TODAY).read("gastei 80 no restaurante") is None


def test_money_sent_to_the_spouse_for_a_bill_is_an_acerto_not_a_spend() -> None:
    [call] = reader().read("te fiz o pix da luz, 120") or []
    assert call["name"] == "settleUp"


# --------------------------------------------------------------------------- the fourth dev batch's forms


def reader_with_two_banks() -> SpendReader:
    """Cards with no alias, and two that share a bank's name."""
    house, budget, goals = household()
    budget.register_card("Itaú Click", 25, 5)
    budget.register_card("Banrisul Mastercard", 10, 20)
    budget.register_card("Banrisul Visa", 12, 22)
    return SpendReader.of(house, budget, goals, TODAY)


@pytest.mark.parametrize(("text", "calls"), [
    ("mercado 342,18 no cartão do itaú", [spend("Mercado", "342.18", card="Itaú Click")]),
    ("farmácia 89 no cartão itaú", [spend("Farmácia", "89", card="Itaú Click")]),
    ("farmácia: mil e duzentos no itaú em 3x", [spend("Farmácia", "1200", card="Itaú Click", installments=3)]),
])
def test_a_card_named_by_one_word_of_its_name_after_cartao_or_with_parcelas_is_that_card(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader_with_two_banks().read(text) == calls


@pytest.mark.parametrize("text", [
    "mercado 342,18 no itaú",                  # the bank's debit, or its card?
    "mercado 342,18 no cartão do banrisul",    # which of the two Banrisul cards?
    "mercado 900 no banrisul em 3x",
    "mercado 342,18 no cartão de débito do itaú",
])
def test_one_word_of_a_card_that_may_be_the_bank_or_another_card_is_the_models(text: str) -> None:
    assert reader_with_two_banks().read(text) is None


@pytest.mark.parametrize(("text", "calls"), [
    ("Enel tá pago tb, 118,34", [spend("Luz", "118.34")]),
    ("a luz tá paga, 198,62", [spend("Luz", "198.62")]),
    ("custou 89,90 a mensalidade da drogaria", [spend("Farmácia", "89.90")]),
    ("quem pagou o mercado foi o Bruno, 76,80", [spend("Mercado", "76.80", paidBy="Bruno")]),
    ("quem comprou o botijão foi a Ana, 120", [spend("Gás", "120", paidBy="Ana")]),
])
def test_a_bill_said_paid_or_the_member_who_paid_it_named_after_quem_pagou_is_a_spend(
        text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "o mercado tá em 500",                          # a running total
    "a mensalidade da drogaria custa 89,90",        # a standing price
    "quem pagou o mercado foi o Pedro, 76,80",      # not a member
    "quem pagou o mercado, 76,80",                  # asked, not told
    "quem pagou o mercado foi eu, 76,80",
])
def test_a_total_a_price_or_a_payer_the_reader_does_not_know_is_the_models(text: str) -> None:
    assert reader().read(text) is None


# --------------------------------------------------------------------------- the fifth dev batch's forms


@pytest.mark.parametrize(("text", "calls"), [
    ("Gastei R$ 137,90 no supermercado agora há pouco.", [spend("Mercado", "137.90")]),
    ("Olha, tipo assim, o botijão acabou e eu comprei outro, deu 120.", [spend("Gás", "120")]),
    ("fui no mercado depois do trabalho e gastei 312", [spend("Mercado", "312")]),
    ("farmácia 159,90, tá tudo caro demais 😤", [spend("Farmácia", "159.90")]),
    ("passei na drogaria, 62,30, era o remédio da febre do pequeno", [spend("Farmácia", "62.30")]),
    ("gastei 89 reais e 90 centavos na farmácia", [spend("Farmácia", "89.90")]),
    ("Registre, por favor, uma despesa de R$ 230,00 com uber.", [spend("Uber", "230.00")]),
    ("Prezado assistente, favor registrar o pagamento da conta de luz no valor de R$ 187,45.",
     [spend("Luz", "187.45")]),
    ("parcela do condomínio 161,37", [spend("Condomínio", "161.37")]),  # one of a bill's, paid
    ("Hoje fui na drogaria e gastei 38,90, e depois no supermercado mais 156,20.",
     [spend("Farmácia", "38.90"), spend("Mercado", "156.20")]),
])
def test_a_spend_with_a_remark_a_filler_or_the_time_of_day_is_read(text: str, calls: list[dict[str, Any]]) -> None:
    assert reader().read(text) == calls


@pytest.mark.parametrize("text", [
    "mercado 300, tá em 800 esse mês",            # a running total in its own clause
    "mercado 300, já tá acumulado",
    "mercado 300, era pra ser 200",               # a second amount
    "mercado 300, depois do dia 10 eu vejo",
    "gastei 300 no mercado, era da Ana",          # whose it is: the model's
    "cria uma despesa de 230 com uber",           # a new expense asked for
    "quero registrar uma despesa nova, 230 de uber",
    "registrar 230 de uber todo mês",
    "gastei 50 no mercado e depois vou na farmácia",
    "o condomínio é 900",                          # a standing price…
    "parcela do condomínio 161,37 no cartão",     # a card's parcela, or the bill's?
])
def test_a_clause_that_says_more_than_a_remark_is_the_models(text: str) -> None:
    assert reader().read(text) is None


def test_several_spends_each_on_its_own_day_are_each_in_that_days_month() -> None:
    house, budget, goals = household()
    budget.register_card("Nubank", 3, 10)
    read = SpendReader.of(house, budget, goals, date(2026, 10, 2)).read  # a Friday: "anteontem" is September

    assert read("farmacia ontem deu 45, e o mercado anteontem 52") == [
        spend("Farmácia", "45", "2026-10"), spend("Mercado", "52", "2026-09")]
    assert read("farmacia 45 e mercado 52, ontem e anteontem") is None  # which day is whose?
    assert read("farmacia ontem 45 e mercado 52 anteontem") is None
    assert read("farmacia ontem 45 no nubank e mercado anteontem 52") is None


def test_a_pause_before_the_amount_is_no_price_and_parcelas_may_be_said_in_words() -> None:
    house, budget, goals = household()
    budget.register_card("Bradesco", 3, 10)
    read = SpendReader.of(house, budget, goals, TODAY).read

    assert read("Paguei o condomínio, é... novecentos reais em três vezes no cartão do Bradesco.") == [
        spend("Condomínio", "900", card="Bradesco", installments=3)]
    assert read("o condomínio é novecentos reais em três vezes no cartão do Bradesco") is None  # a price


@pytest.mark.parametrize(("correction", "change"), [
    ("não é mercado, é farmácia", {"expense": "Farmácia"}),            # the old one denied, the new one said
    ("ops, foi na drogaria, não no supermercado", {"expense": "Farmácia"}),
    ("foi no nubank", {"card": "Nubank"}),                              # a card told after the preview
    ("passei no cartão itaú, esqueci de falar", {"card": "Itaú Visa"}),
    ("foi o Bruno que pagou", {"paidBy": "Bruno"}),                     # who paid
    ("ah não, foi 45 e foi ontem", {"amount": {"amount": "45", "currency": "BRL"}, "period": "2026-06"}),
    ("na vdd foi ontem", {"period": "2026-06"}),
    ("corrige pra 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("o valor certo é 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("pera, foram 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("ih, errei, é 45,90", {"amount": {"amount": "45.90", "currency": "BRL"}}),
    ("digitei errado, é 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("foi 45, não 50", {"amount": {"amount": "45", "currency": "BRL"}}),      # the old amount denied
    ("não foi hoje, foi ontem", {"period": "2026-06"}),                       # the old day denied
    ("essa foi em junho", {"period": "2026-06"}),
    ("paguei ontem, esqueci de lançar", {"period": "2026-06"}),               # the day told late
    ("o Bruno que pagou", {"paidBy": "Bruno"}),
    ("na real foi o Bruno que pagou, eu só tô lançando", {"paidBy": "Bruno"}),
    ("troca pra 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("é 45 na verdade", {"amount": {"amount": "45", "currency": "BRL"}}),    # the correction word last
    ("valor errado, é 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("opa, 50 não, 45", {"amount": {"amount": "45", "currency": "BRL"}}),     # the old amount, then its "não"
    ("muda pro mês passado", {"period": "2026-06"}),
    ("me enganei, 45", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("*45", {"amount": {"amount": "45", "currency": "BRL"}}),               # the chat's asterisk
    ("45*", {"amount": {"amount": "45", "currency": "BRL"}}),
    ("foi no crédito do nubank", {"card": "Nubank"}),
    ("50 não, 45, arredondei errado", {"amount": {"amount": "45", "currency": "BRL"}}),  # opens with the old amount denied
])
def test_a_correction_of_the_expense_card_payer_or_amount_and_day_is_read_against_the_preview(
        correction: str, change: dict[str, Any]) -> None:
    last = {**spend("Mercado", "50"), "operationId": "op-1"}

    assert reader_with_cards().read(correction, last) == [
        {**spend("Mercado", "50"), "arguments": {**last["arguments"], **change}, "corrects": "op-1"}]


@pytest.mark.parametrize("correction", [
    "foi o Pedro que pagou",                 # not a member
    "foi no nubank e o Bruno pagou",         # two things at once
    "não era mercado",                       # and what was it?
    "passei no cartão, esqueci de falar",    # which card?
    "foi 45, não 60",                        # 60 was never the amount: which is denied?
    "em 3x",                                 # parcelas of a spend on no card
    "o Pedro que pagou",                     # not a member
    "paguei ontem 45",                       # a value beside the day: a new spend, or a correction?
    "opa, 45 não, 50",                       # "não" after 45, which was never the amount
    "45 não 50",                             # which one "não" denies is not written
    "45 não, 50",                            # 45 was never the amount
])
def test_a_correction_of_card_or_payer_the_reader_is_unsure_of_is_the_models(correction: str) -> None:
    last = {**spend("Mercado", "50"), "operationId": "op-1"}
    assert reader_with_cards().read(correction, last) is None


@pytest.mark.parametrize("correction", ["foi no itaú, não no nubank", "foi no itaú, não no roxinho"])
def test_a_card_said_with_the_old_one_denied_moves_the_purchase_to_it(correction: str) -> None:
    last = {**spend("Mercado", "900", card="Nubank"), "operationId": "op-1"}

    assert reader_with_cards().read(correction, last) == [
        {**spend("Mercado", "900", card="Itaú Visa"), "corrects": "op-1"}]


def test_a_card_said_denying_one_it_was_never_on_is_the_models() -> None:
    last = {**spend("Mercado", "900", card="Nubank"), "operationId": "op-1"}
    assert reader_with_cards().read("foi no nubank, não no itaú", last) is None


@pytest.mark.parametrize(("told", "change"), [
    ("em 3x", {"installments": 3}),
    ("parcelei em 2 vezes", {"installments": 2}),
    ("ops, foi em 4x", {"installments": 4}),
    ("foi no itaú, em 3x", {"card": "Itaú Visa", "installments": 3}),
    ("em três vezes", {"installments": 3}),
    ("parcelado em 2", {"installments": 2}),                 # the count by the verb, alone after "em"
])
def test_parcelas_told_after_a_card_purchases_preview_are_read_against_it(told: str, change: dict[str, Any]) -> None:
    last = {**spend("Mercado", "900", card="Nubank"), "operationId": "op-1"}

    assert reader_with_cards().read(told, last) == [
        {**spend("Mercado", "900", card="Nubank"), "arguments": {**last["arguments"], **change}, "corrects": "op-1"}]


@pytest.mark.parametrize("told", ["quem pagou fui eu", "fui eu que paguei", "eu que paguei"])
def test_the_member_speaking_told_as_the_payer_is_who_the_chat_fills_in(told: str) -> None:
    last = {**spend("Mercado", "50", paidBy="Ana"), "operationId": "op-1"}

    assert reader_with_cards().read(told, last) == [{**spend("Mercado", "50"), "corrects": "op-1"}]


async def test_the_spouse_saying_they_paid_moves_the_preview_to_them_with_no_model() -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    first = (await chat.send("gastei 52 no mercado", sender="Ana")).receipts[0]

    told = await chat.send("quem pagou fui eu", sender="Bruno")

    [call_made] = told.tool_calls
    assert call_made.source == READER and call_made.received["paidBy"] == "Bruno"
    assert told.superseded == [first.operation_id] and model.requests == []


@pytest.mark.parametrize(("text", "payer"), [("o Bru pagou o mercado, 210", "Bruno"),
                                              ("foi o Bru que pagou o mercado, 210", "Bruno"),
                                              ("a An pagou o mercado, 210", "Ana")])
def test_a_short_nickname_right_before_pagou_is_the_member_it_begins(text: str, payer: str) -> None:
    assert reader().read(text) == [spend("Mercado", "210", paidBy=payer)]


@pytest.mark.parametrize("text", ["o Zé pagou o mercado, 210",   # begins no member's name: someone else
                                  "a Bru e o An pagaram o mercado, 210"])  # not right before "pagou"
def test_a_short_nickname_that_begins_no_member_or_stands_apart_is_the_models(text: str) -> None:
    assert reader().read(text) is None


@pytest.mark.parametrize(("text", "amount"), [("cancela, era 45", "45"), ("cancela esse, é 45", "45"),
                                              ("lança de novo, 45", "45"), ("de novo, 45", "45"),
                                              ("esquece, era 45", "45"), ("apaga e lança 45", "45"),
                                              ("cancela e lança 45", "45"), ("cancela esse, lança 45", "45"),
                                              ("anula, foi 45", "45"), ("esquece esse, o certo é 45", "45")])
def test_a_cancel_or_a_redo_before_the_value_said_again_corrects_the_last_preview(text: str, amount: str) -> None:
    last = {**spend("Mercado", "50"), "operationId": "op-1"}

    assert reader().read(text, last) == [{**spend("Mercado", amount), "corrects": "op-1"}]


@pytest.mark.parametrize("text", ["cancela, lancei ontem",       # cancel it: it was already written
                                  "cancela o mercado de 50",     # cancel, nothing more
                                  "apaga e lança 45 no mercado", # a redo that names the expense again
                                  "esquece, era outra coisa"])
def test_a_cancel_that_says_more_is_the_models(text: str) -> None:
    last = {**spend("Mercado", "50"), "operationId": "op-1"}
    assert reader().read(text, last) is None


def test_again_with_the_expense_named_is_a_new_spend_not_a_correction() -> None:
    last = {**spend("Mercado", "50"), "operationId": "op-1"}
    assert reader().read("de novo no mercado, 45", last) == [spend("Mercado", "45")]


def test_agora_vai_after_a_spend_is_a_remark() -> None:
    assert reader().read("paguei a luz, 109,90, agora vai 💪") == [spend("Luz", "109.90")]


# --------------------------------------------------------------------------- nicknames that end a name


def mila_and_rique() -> SpendReader:
    """Camila and Henrique, called Mila and Rique, saving for a trip whose name holds "pra"."""
    house = Household.create("Casa", "BRL", id="h1")
    camila, henrique = house.add_member("Camila", id="m-c"), house.add_member("Henrique", id="m-h")
    budget = Budget.create("BRL", id="b1", household_id="h1")
    for name in ("Mercado", "Farmácia"):
        budget.register(name, Money.of(500, "BRL"))
    goals = [Goal.create("Viagem pra Porto Seguro", Money.of(8000, "BRL"), members=[camila, henrique],
                         created_at=date(2026, 1, 1))]
    return SpendReader.of(house, budget, goals, TODAY)


@pytest.mark.parametrize(("text", "payer"), [("a Mila pagou o mercado, 210", "Camila"),
                                              ("Mila pagou o mercado, 210", "Camila"),  # first, no article
                                              ("o Rique comprou remédio na farmácia, 210", "Henrique")])
def test_a_nickname_that_ends_one_members_name_where_only_a_person_stands_is_that_member(text: str,
                                                                                       payer: str) -> None:
    expense = "Farmácia" if "farmácia" in text else "Mercado"
    assert mila_and_rique().read(text) == [spend(expense, "210", paidBy=payer)]


def test_who_paid_told_late_by_a_nickname_that_ends_a_name_is_that_member() -> None:
    last = {**spend("Mercado", "145"), "operationId": "op-1"}
    assert mila_and_rique().read("quem pagou foi o Rique", last) == [
        {**spend("Mercado", "145", paidBy="Henrique"), "corrects": "op-1"}]


def test_a_name_of_three_letters_ending_a_members_is_someone_else() -> None:
    _, budget, _ = household()
    luana = Household.create("Casa", "BRL", id="h2")
    luana.add_member("Luana", id="m-l")
    luana.add_member("Bruno", id="m-b")
    assert SpendReader.of(luana, budget, [], TODAY).read("a Ana pagou o mercado, 210") is None


def test_a_word_of_a_goals_name_that_any_correction_holds_does_not_stop_the_correction() -> None:
    last = {**spend("Mercado", "89"), "operationId": "op-1"}
    assert mila_and_rique().read("troca pra 98", last) == [{**spend("Mercado", "98"), "corrects": "op-1"}]


async def test_an_asterisk_correction_in_the_chat_reads_the_preview_before_it_with_no_model() -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    first = (await chat.send("gastei 50 no mercado", sender="Ana")).receipts[0]

    corrected = await chat.send("*45", sender="Ana")

    [call_made] = corrected.tool_calls
    assert call_made.source == READER and call_made.args["amount"] == {"amount": "45", "currency": "BRL"}
    assert corrected.superseded == [first.operation_id] and model.requests == []


def test_credit_with_no_card_named_is_the_models() -> None:
    assert reader_with_cards().read("mercado 90 no crédito") is None


def test_a_purchase_divided_in_two_after_its_preview_is_the_models_it_may_be_the_bill_split() -> None:
    last = {**spend("Mercado", "900", card="Nubank"), "operationId": "op-1"}
    assert reader_with_cards().read("dividi em 2", last) is None


async def test_a_correction_that_opens_with_the_old_amount_denied_reads_the_preview_before_it() -> None:
    model = ScriptedModel()
    chat, _ = await chat_with(model)
    await chat.send("gastei 50 no mercado", sender="Ana")

    [call_made] = (await chat.send("50 não, 45, arredondei errado", sender="Ana")).tool_calls

    assert call_made.source == READER and call_made.args["amount"] == {"amount": "45", "currency": "BRL"}
    assert model.requests == []


@pytest.mark.parametrize("text", [
    "paguei 45 de farmácia, não divide",
    "uber 27,50 pra casa da minha mãe, esse é por minha conta, n divide",
    "comprei remédio pra mim na drogaria, 43,20. é pessoal",  # "pra mim", and said to be the speaker's own
    "pão de queijo só pra mim no mercado, 18,50",
])
def test_a_spend_said_to_be_the_speakers_own_is_kept_out_of_the_split(text: str) -> None:
    [call] = reader().read(text) or [{}]
    assert call["arguments"]["shared"] is False


def test_pessoal_opening_a_message_calls_the_group_and_the_spend_is_shared() -> None:
    assert reader().read("pessoal, paguei 120 de luz") == [spend("Luz", "120")]


def test_a_spends_preview_told_late_to_be_the_speakers_own_is_corrected_to_that() -> None:
    last = {**spend("Mercado", "38.70"), "operationId": "op-1"}
    assert reader().read("ah, essa é só minha, não divide", last) == [
        {**spend("Mercado", "38.70", shared=False), "corrects": "op-1"}]


@pytest.mark.parametrize("text", ["semana que vem tem que pagar a luz, 200", "falta pagar o condomínio, 650",
                                  "mês que vem o ifood vai ser 90", "próxima semana: uber 40"])
def test_a_bill_still_to_pay_is_no_spend(text: str) -> None:
    assert reader().read(text) is None


def fuelled() -> SpendReader:
    house, budget, goals = household()
    budget.register("Combustível", Money.of(500, "BRL"), aliases=["gasolina", "posto"])
    return SpendReader.of(house, budget, goals, TODAY)


@pytest.mark.parametrize(("text", "call"), [
    ("abasteci 200", spend("Combustível", "200")),
    ("o Bruno abasteceu, 180", spend("Combustível", "180", paidBy="Bruno")),
    ("abasteci 150 no posto", spend("Combustível", "150")),
])
def test_fuelling_names_the_one_expense_for_fuel(text: str, call: dict[str, Any]) -> None:
    assert fuelled().read(text) == [call]


def test_fuelling_is_no_expense_where_none_or_two_are_for_fuel() -> None:
    assert reader().read("abasteci 200") is None
    house, budget, goals = household()
    budget.register("Gasolina", Money.of(500, "BRL"))
    budget.register("Etanol", Money.of(100, "BRL"))
    assert SpendReader.of(house, budget, goals, TODAY).read("abasteci 200") is None


@pytest.mark.parametrize(("text", "call"), [
    ("o ifood de ontem foi o Bruno q pagou, 78,50", spend("Restaurantes", "78.50", "2026-06", paidBy="Bruno")),
    ("paguei a luz agora, 119,90", spend("Luz", "119.90")),
    ("mês passado paguei 120 de luz e não lancei", spend("Luz", "120", "2026-06")),
    ("gastei 50 no mercado, Bruno", spend("Mercado", "50")),  # the spouse called last
])
def test_chat_shorthand_a_time_aside_a_late_record_and_a_vocative_change_nothing_in_the_spend(
        text: str, call: dict[str, Any]) -> None:
    assert reader().read(text) == [call]


def test_now_before_an_amount_is_a_new_expected_amount_not_a_spend() -> None:
    read = reader().read("a luz agora é 150")
    assert not read or read[0]["name"] != "recordSpend"


def test_who_paid_told_late_with_the_spouse_called_is_the_speaker() -> None:
    last = {**spend("Luz", "98.40", paidBy="Bruno"), "operationId": "op-1"}
    assert reader().read("essa fui eu q paguei, Bruno", last) == [{**spend("Luz", "98.40"), "corrects": "op-1"}]


def test_pago_opening_a_clause_before_a_day_is_a_bill_still_to_pay() -> None:
    assert reader().read("chegou a conta da luz, 79,12, pago na sexta") is None


def test_a_bill_paid_on_a_day_is_a_spend() -> None:
    assert reader().read("luz paga na sexta, 79,12") == [spend("Luz", "79.12", "2026-06")]


@pytest.mark.parametrize("text", ["essa fui eu q paguei, Bru", "Bru, essa fui eu que paguei"])
def test_who_paid_told_late_with_the_spouse_called_by_a_short_nickname_is_the_speaker(text: str) -> None:
    last = {**spend("Luz", "98.40", paidBy="Bruno"), "operationId": "op-1"}
    assert reader().read(text, last) == [{**spend("Luz", "98.40"), "corrects": "op-1"}]


def test_a_name_and_an_amount_with_no_space_between_are_a_spend() -> None:
    assert reader().read("drogaria37,90") == [spend("Farmácia", "37.90")]


def test_the_car_that_was_fuelled_is_not_the_goal_named_after_a_car() -> None:
    assert fuelled().read("a Aninha abasteceu o carro hj, 180") == [spend("Combustível", "180", paidBy="Ana")]


def test_the_invoice_of_an_expense_that_is_no_card_is_a_spend_on_it() -> None:
    assert reader().read("fatura da Enel 109,90") == [spend("Luz", "109.90")]
    assert reader_with_cards().read("fatura do Nubank 900") is None


@pytest.mark.parametrize("correction", ["ah, isso foi dia 30, mês passado", "ah, foi dia 30, ainda do mês passado"])
def test_a_day_and_its_month_told_together_correct_a_spends_month(correction: str) -> None:
    last = {**spend("Restaurantes", "74.50"), "operationId": "op-1"}
    assert reader().read(correction, last) == [
        {**spend("Restaurantes", "74.50", "2026-06"), "corrects": "op-1"}]


@pytest.mark.parametrize(("text", "call"), [
    ("ifood pro Bruno, 38", spend("Restaurantes", "38")),          # whom it was for: still the couple's
    ("o Bruno pagou a luz agora, 98", spend("Luz", "98", paidBy="Bruno")),
    ("IFOOD 38 REAIS 😋 valeu cada centavo!!!", spend("Restaurantes", "38")),
])
def test_whom_a_spend_was_for_now_after_anyone_paid_and_a_happy_remark_change_nothing(
        text: str, call: dict[str, Any]) -> None:
    assert reader().read(text) == [call]


@pytest.mark.parametrize("text", ["paguei 50 pro Bruno", "mandei 50 pro Bruno de mercado"])
def test_money_that_went_to_the_spouse_is_no_spend_for_them(text: str) -> None:
    read = reader().read(text)
    assert not read or read[0]["name"] != "recordSpend"


def test_who_paid_told_late_with_the_spouse_called_fondly_is_the_speaker() -> None:
    last = {**spend("Luz", "900", paidBy="Bruno"), "operationId": "op-1"}
    assert reader().read("fui eu q paguei essa, mozão", last) == [{**spend("Luz", "900"), "corrects": "op-1"}]


@pytest.mark.parametrize("text", ["oi pessoal, paguei 120 de luz", "bom dia pessoal, paguei 120 de luz"])
def test_pessoal_after_a_greeting_calls_the_group_and_the_spend_is_shared(text: str) -> None:
    assert reader().read(text) == [spend("Luz", "120")]


@pytest.mark.parametrize(("text", "call"), [
    ("bom dia ☀️ o Theo acordou com febre de novo. passei na drogaria e gastei 64,90. vc chega q horas?",
     spend("Farmácia", "64.90")),
    ("amor hoje foi corrido, reunião até as 7 😩 paguei a luz, 120. chego em 20 min", spend("Luz", "120")),
    ("mercado 75,30 (voltei pq esqueci o sabão kkk)", spend("Mercado", "75.30")),
    ("Bruno vc viu o jogo? perdemos de novo 🤦‍♂️ enfim, peguei um 99 na volta, 23,50", spend("Uber", "23.50")),
    ("tava com preguiça de cozinhar, pedi ifood, 72,40 🤤 o Theo já dormiu", spend("Restaurantes", "72.40")),
    # the day of a sentence that chats is not the spend's (today is the 1st: "ontem" is June)
    ("vc viu o jogo ontem? paguei a luz, 120", spend("Luz", "120")),
    ("tua mãe ligou, disse que vem domingo 🙃 comprei pão e leite na feira, 23,50", spend("Mercado", "23.50")),
])
def test_sentences_of_small_talk_around_a_spend_change_nothing_in_it(text: str, call: dict[str, Any]) -> None:
    assert reader().read(text) == [call]


@pytest.mark.parametrize("text", [
    "mercado 300. brincadeira kkk",                      # taken back
    "paguei a luz, 120. a Ana vai me acertar depois",    # an acerto to come
    "luz 120. vence amanhã",                             # a bill still to pay
    "mercado 200. foi o Bruno",                          # who paid, told apart
    "mercado 200. e o aluguel?",                         # another expense
    "farmácia 45. cinquenta com o remédio do Theo",      # an amount in words
])
def test_a_sentence_that_tells_anything_of_the_money_is_no_small_talk(text: str) -> None:
    assert reader().read(text) is None


@pytest.mark.parametrize(("text", "seen"), [
    ("bom dia ☀️ o Theo acordou com febre. acho que gastei uns 64 na drogaria. vc chega q horas?",
     "acho que gastei uns 64 na drogaria."),
    ("que trânsito 🤬 pelo menos o uber foi 38,50 só kkk", "pelo menos o uber foi 38,50 só kkk."),
    ("acho que gastei uns 64 na drogaria", "acho que gastei uns 64 na drogaria"),   # nothing to drop
    ("mercado 200. e o aluguel?", "mercado 200. e o aluguel?"),                     # each sentence tells
    ("bom dia ☀️ tudo bem?", "bom dia ☀️ tudo bem?"),                               # nothing but chat
])
def test_the_model_reads_a_message_the_reader_leaves_without_its_small_talk(text: str, seen: str) -> None:
    assert reader().focus(text) == seen


def test_the_speakers_own_told_in_a_sentence_apart_still_keeps_the_spend_out_of_the_split() -> None:
    assert reader().read("gastei 50 no mercado. é só meu 😅") == [spend("Mercado", "50", shared=False)]


@pytest.mark.parametrize(("text", "call"), [
    ("bruno passei no supermercado e gastei duzentos e trinta reais e sessenta centavos", spend("Mercado", "230.60")),
    ("amor paguei agora a conta de luz deu cento e vinte reais tá bom", spend("Luz", "120")),
    ("gastei 50 no mercado viu", spend("Mercado", "50")),
    ("peguei um 99, 23,50 tá", spend("Uber", "23.50")),
    ("comprei um botijão novo, 120", spend("Gás", "120")),
])
def test_a_voice_note_with_no_commas_calls_the_spouse_first_and_closes_with_a_word_to_them(
        text: str, call: dict[str, Any]) -> None:
    assert reader().read(text) == [call]


def test_a_spouse_named_before_their_own_paid_verb_paid_whatever_closes_the_message() -> None:
    assert reader().read("Bruno pagou 50 no mercado tá") == [spend("Mercado", "50", paidBy="Bruno")]


@pytest.mark.parametrize("text", ["agora é 150 de luz", "a conta de luz nova é 150"])
def test_now_before_a_value_and_a_new_things_price_are_no_spend(text: str) -> None:
    read = reader().read(text)
    assert read is None or all(call["name"] != "recordSpend" for call in read)


def test_a_sentence_that_only_names_a_day_dates_the_spend_beside_it() -> None:
    assert reader().read("foi ontem. paguei a luz, 120") == [spend("Luz", "120", "2026-06")]


def test_a_number_of_years_or_litres_is_no_amount() -> None:
    assert reader().read("o Theo faz 4 anos sábado!! bora fazer um bolo no mercado?") is None
    assert reader().read("abasteci 40 litros") is None


def test_a_card_spend_beside_a_day_named_in_small_talk_is_the_models_since_the_day_decides_its_fatura() -> None:
    house, budget, goals = household()
    budget.register_card("Nubank", 3, 10)
    card_reader = SpendReader.of(house, budget, goals, TODAY)
    assert card_reader.read("vc viu o jogo ontem? gastei 50 no mercado no nubank") is None
    assert card_reader.read("bom dia ☀️ gastei 50 no mercado no nubank") == [spend("Mercado", "50", card="Nubank")]


@pytest.mark.parametrize(("text", "call"), [
    ("ana fiz a feira hoje cedo tipo deu setenta e quatro reais né tinha promoção de manga trouxe um monte",
     spend("Mercado", "74")),
    ("amor peguei um uber pra voltar do médico deu vinte e cinco reais e quarenta centavos tipo tava chovendo muito né",
     spend("Uber", "25.40")),
])
def test_a_voice_note_parts_into_sentences_at_a_word_said_to_the_spouse_and_tipo_is_a_filler(
        text: str, call: dict[str, Any]) -> None:
    assert reader().read(text) == [call]


@pytest.mark.parametrize("text", [
    "uber tipo 50",                                                                 # a guess
    "ana fiz a feira hoje deu setenta e quatro reais né o Bruno que pagou a metade",  # who paid, told after
])
def test_tipo_before_an_amount_and_a_payer_after_a_spoken_break_stay_the_models(text: str) -> None:
    assert reader().read(text) is None
