"""The Telegram adapter's wiring: a python-telegram-bot Application whose services open in
post_init and close in post_shutdown, and the `polling` and `remind` entry points."""

from __future__ import annotations

import logging
from datetime import datetime

from telegram.ext import Application

from bot.app.schedule import Delivered
from bot.bootstrap import DEFAULT, Services, bootstrap
from bot.telegram import commands, handlers, media
from bot.telegram.periodic import jobs, run_due, start_schedule, stop_schedule
from bot.telegram.rate_limit import SharedGroupLimiter
from bot.telegram.sending import SERVICE
from bot.telegram.updates import MEDIA
from domain.agent.model import LanguageModel
from domain.clock import Clock, utc_now
from infra.db.stores.group_sends import GroupSendWindow
from infra.settings import Settings

log = logging.getLogger(__name__)

SERVICES = "services"
WARM_UP = "litellm-warm-up"


def build_application(settings: Settings, *, webhook: bool = False, model: LanguageModel | None = DEFAULT,
                      clock: Clock = utc_now, periodic: bool = True) -> Application:
    """A PTB Application; with `periodic`, it also checks every minute for reminders due
    (bot/telegram/periodic.py)."""
    assert settings.telegram_bot_token is not None
    api = settings.telegram_api_base_url.rstrip("/")
    # The per-group limit counts in the database, so it holds across webhook workers.
    limiter = SharedGroupLimiter(max_retries=3)

    async def post_init(app: Application) -> None:
        services = await bootstrap(settings, model=model, clock=clock)
        limiter.window = GroupSendWindow(services.database)
        app.bot_data[SERVICES] = services
        app.bot_data[SERVICE] = services.service
        app.bot_data[MEDIA] = services.media
        await app.bot.set_my_commands(commands.menu())
        await start_schedule(app, services, clock=clock, periodic=periodic)
        if settings.llm_model:
            # litellm takes seconds to import: on a worker thread now, not in the first message.
            from domain.tools.registry import build_schemas
            from infra.llm import warm_up

            app.bot_data[WARM_UP] = warm_up(build_schemas)

    async def post_shutdown(app: Application) -> None:
        await stop_schedule(app)
        services: Services | None = app.bot_data.get(SERVICES)
        if services is not None:
            await services.database.dispose()

    builder = (
        Application.builder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(f"{api}/bot")
        .base_file_url(f"{api}/file/bot")
        .rate_limiter(limiter)
        .post_init(post_init)
        .post_shutdown(post_shutdown)
    )
    if webhook:
        builder = builder.updater(None)
    app = builder.build()
    handlers.register(app)
    commands.register(app)
    media.register(app)
    return app


def run_polling(settings: Settings) -> int:
    """`household-bot polling`: long polling, for local use."""
    app = build_application(settings)
    app.run_polling(allowed_updates=handlers.ALLOWED_UPDATES, drop_pending_updates=False)
    return 0


async def remind(settings: Settings, *, now: datetime | None = None, clock: Clock = utc_now) -> Delivered:
    """`household-bot remind`: sends what is due now, through the same sends and window as the
    bot (bot/telegram/rate_limit.py), runs the housekeeping once, and returns."""
    app = build_application(settings, clock=clock, periodic=False, model=None)
    await app.initialize()
    try:
        await app.post_init(app)  # type: ignore[misc]
        try:
            moment = now or clock()
            delivered = await run_due(app, moment)
            services: Services = app.bot_data[SERVICES]
            for job in jobs(app, services)[1:]:
                await job(moment)
            return delivered
        finally:
            await app.post_shutdown(app)  # type: ignore[misc]
    finally:
        await app.shutdown()


def services_of(app: Application) -> Services:
    services: Services = app.bot_data[SERVICES]
    return services
