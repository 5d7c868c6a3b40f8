"""The write commands (/gasto, /despesa, …): the same tools, previews and buttons as the agent's,
read with no model at all (contract §6)."""

from __future__ import annotations

from bot.app.chats import Chats
from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.proposals import Proposals, minted
from bot.commands.parsing import EVERY_MEMBER, SENDER, CommandUsageError, write_parser


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
        outcome = await self.proposals.propose(context, tool, arguments, operation_id or minted())
        return [outcome] if outcome is not None else []
