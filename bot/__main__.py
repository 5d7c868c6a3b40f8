"""`household-bot polling | webhook | console | migrate | remind | doctor` (also `python -m bot ...`)."""

from __future__ import annotations

import argparse
import logging
import sys

COMMANDS = {
    "polling": "long-polling bot (local use)",
    "webhook": "serve the Telegram webhook on $HOST:$PORT",
    "console": "the same chat in a terminal, no Telegram needed",
    "migrate": "apply the database migrations (alembic upgrade head) on DATABASE_URL",
    "remind": "send the bill reminders and monthly closings due now, then exit (for a platform scheduler)",
    "doctor": "check the database, Telegram, the webhook and the models, one line each; exit 1 if one fails",
}


# Libraries whose INFO lines are for their own developers (alembic's plugin setup and each
# migration, PTB's start and stop, every HTTP request, litellm's every call): only their warnings
# reach the log. httpx also logs full request URLs, and PTB's carry the bot token.
QUIET = ("alembic", "httpx", "httpcore", "telegram", "LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "asyncio")


def quiet_libraries() -> None:
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="household-bot", description="Household finance bot for Telegram")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, help_text in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    args = parser.parse_args(argv)
    # The console is for a person reading the chat: only problems go to the log there.
    level = logging.WARNING if args.command in ("console", "doctor") else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    quiet_libraries()

    from infra.settings import Settings

    settings = Settings()
    if args.command == "migrate":
        from bot.texts.console import migrated
        from infra.db.migrate import head_revision, upgrade

        print(migrated(len(upgrade(settings.database_url)), head_revision()))
        return 0
    if args.command == "doctor":
        from bot.doctor import run

        # Each failure is the doctor's own line; the adapters' warnings about it would repeat it.
        for name in ("infra.llm", "infra.db"):
            logging.getLogger(name).setLevel(logging.ERROR)
        return run(settings)
    if args.command == "console":
        from bot.console.main import run_console

        return run_console(settings)
    if settings.telegram_bot_token is None:
        print("TELEGRAM_BOT_TOKEN não está definido: crie um bot com @BotFather e coloque o token "
              "no ambiente ou em .env. Para testar sem Telegram: household-bot console", file=sys.stderr)
        return 2
    if args.command == "remind":
        import asyncio

        from bot.telegram.application import remind

        delivered = asyncio.run(remind(settings))
        print(f"Lembretes enviados: {delivered.reminders}; fechamentos do mês: {delivered.closings}.")
        return 0
    if args.command == "polling":
        from bot.telegram.application import run_polling

        return run_polling(settings)
    if settings.webhook_secret is None:
        print("WEBHOOK_SECRET não está definido: o modo webhook exige um segredo "
              "(ex.: WEBHOOK_SECRET=$(openssl rand -hex 32)).", file=sys.stderr)
        return 2
    from bot.telegram.webhook import run_webhook

    return run_webhook(settings)


if __name__ == "__main__":
    sys.exit(main())
