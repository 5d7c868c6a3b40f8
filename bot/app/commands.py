"""The write commands (/gasto, /despesa, …): the same tools, previews and buttons as the agent's,
read with no model at all (contract §6)."""

from __future__ import annotations

from typing import Any

from bot.app.chats import ChatContext, Chats
from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.proposals import Proposals, minted
from bot.commands.calls import EVERY_MEMBER, SENDER, write_parser
from bot.commands.parsing import CardWords, CommandUsageError
from domain.errors import DomainError


class Commands:
    def __init__(self, chats: Chats, proposals: Proposals) -> None:
        self.chats = chats
        self.proposals = proposals

    async def propose(self, chat_id: int, speaker: Speaker, command: str, text: str, *,
                      operation_id: str | None = None) -> list[Outcome]:
        """A write command's preview, through the same tool and log as the agent.

        The bot mints the operation id from the Telegram update (`operation_id`), so an update
        processed again after a crash finds its operation instead of proposing a second one.
        """
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, member = found
        try:
            tool, arguments = write_parser(command)(text, self.chats.today(), context.household.currency)
        except CommandUsageError as usage:
            return [Reply(str(usage))]
        refusal = self.chats.month_refusal(context, arguments.get("period"))
        if refusal is not None:
            return [Reply(refusal)]
        arguments = {key: (member.name if value is SENDER else value) for key, value in arguments.items()}
        if arguments.get("contributors") is EVERY_MEMBER:
            arguments["contributors"] = [m.name for m in context.household.members]
        if isinstance(arguments.get("card"), CardWords):
            arguments = await self._card_or_expense(context, arguments)
        outcome = await self.proposals.propose(context, tool, arguments, operation_id or minted())
        return [outcome] if outcome is not None else []

    async def _card_or_expense(self, context: ChatContext, arguments: dict[str, Any]) -> dict[str, Any]:
        """``/gasto 20 lanche na escola``: "na escola" names a card only when no card answers to
        "escola" and an expense answers to "lanche na escola"; otherwise it is the card (an
        unknown one is then refused naming the household's cards)."""
        words: CardWords = arguments["card"]
        budget = await self.proposals.storage.budgets.load(context.link.budget_id, periods=())
        whole = f"{arguments['expense']} {words.preposition} {words.name}"
        try:
            budget.find_card(words.name)
        except DomainError:
            try:
                budget.find_by_name(whole)
            except DomainError:
                pass
            else:
                return {key: value for key, value in {**arguments, "expense": whole}.items() if key != "card"}
        return {**arguments, "card": words.name}
