"""The composition root: settings in, a running python-telegram-bot Application out."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram.ext import Application

from bot import command_registry, handlers, media
from bot.media_service import MediaService, Transcriber
from bot.rate_limit import SharedGroupLimiter
from bot.schedule import start_schedule, stop_schedule
from bot.service import HouseholdService
from domain.agent.clock import Clock, utc_now
from domain.agent.model import LanguageModel
from domain.rates import DEFAULT_RATES, FixedRates
from infra.db.engine import Database
from infra.db.group_sends import GroupSendWindow
from infra.db.storage import SqlStorage
from infra.settings import Settings

log = logging.getLogger(__name__)

SERVICES = "services"
WARM_UP = "litellm-warm-up"
_DEFAULT: Any = object()


@dataclass
class Services:
    database: Database
    storage: SqlStorage
    service: HouseholdService
    media: MediaService


def default_model(settings: Settings) -> LanguageModel | None:
    if not settings.llm_model:
        return None
    from infra.llm import model_from_settings

    return model_from_settings(settings, settings.llm_model, fallbacks=settings.llm_fallbacks)


async def bootstrap(settings: Settings, *, model: LanguageModel | None = _DEFAULT,
                    clock: Clock = utc_now, transcriber: Transcriber | None = None) -> Services:
    """Everything the bot needs, with production defaults that tests override."""
    database = Database(settings.database_url)
    storage = SqlStorage(database, clock=clock, ttl=timedelta(hours=settings.operation_ttl_hours))
    rates = FixedRates(settings.exchange_rates) if settings.exchange_rates else DEFAULT_RATES
    service = HouseholdService(
        storage,
        model=default_model(settings) if model is _DEFAULT else model,
        clock=clock,
        timezone=settings.household_timezone,
        ttl=timedelta(hours=settings.operation_ttl_hours),
        rates=rates,
    )
    return Services(database, storage, service,
                    media.media_service(settings, service, transcriber=transcriber))


def build_application(settings: Settings, *, webhook: bool = False,
                      model: LanguageModel | None = _DEFAULT, clock: Clock = utc_now,
                      periodic: bool = True) -> Application:
    """A PTB Application whose services open in post_init and close in post_shutdown; with
    `periodic`, it also checks every minute for reminders due (bot/schedule.py)."""
    assert settings.telegram_bot_token is not None
    api = settings.telegram_api_base_url.rstrip("/")
    # The per-group limit counts in the database, so it holds across webhook workers.
    limiter = SharedGroupLimiter(max_retries=3)

    async def post_init(app: Application) -> None:
        services = await bootstrap(settings, model=model, clock=clock)
        limiter.window = GroupSendWindow(services.database)
        app.bot_data[SERVICES] = services
        app.bot_data[handlers.SERVICE] = services.service
        app.bot_data[media.MEDIA] = services.media
        await app.bot.set_my_commands(command_registry.menu())
        await start_schedule(app, services, settings, clock=clock, periodic=periodic)
        if settings.llm_model:
            # litellm takes seconds to import: on a worker thread now, not in the first message.
            from domain.agent.toolbox import build_schemas
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
    command_registry.register(app)
    media.register(app)
    return app
