"""The composition root: settings in, the application's services out, with production defaults
that tests override (`model=`, `clock=`, `transcriber=`). Telegram and the console both start here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.app.media import MediaService, Transcriber
from bot.app.ports import Sender
from bot.app.schedule import Schedule
from bot.app.service import HouseholdService
from domain.agent.model import LanguageModel
from domain.clock import Clock, utc_now
from domain.money import DEFAULT_RATES, FixedRates
from infra.db.engine import Database
from infra.db.storage import SqlStorage
from infra.db.stores.schedule import ScheduleStore
from infra.settings import Settings

DEFAULT: Any = object()  # "use the production default" for an override left out


@dataclass
class Services:
    settings: Settings
    database: Database
    storage: SqlStorage
    service: HouseholdService
    media: MediaService

    def schedule(self, sender: Sender, *, clock: Clock = utc_now) -> Schedule:
        """Reminders and the monthly closing, sent through `sender` (the adapter's)."""
        return Schedule(self.storage, ScheduleStore(self.database), sender, self.service.month,
                        timezone=self.settings.household_timezone,
                        reminder_hour=self.settings.reminder_hour, clock=clock)


def default_model(settings: Settings) -> LanguageModel | None:
    """LLM_MODEL through litellm, or None (the commands still work)."""
    if not settings.llm_model:
        return None
    from infra.llm import model_from_settings

    return model_from_settings(settings, settings.llm_model, fallbacks=settings.llm_fallbacks)


def default_transcriber(settings: Settings) -> Transcriber | None:
    """TRANSCRIPTION_MODEL through litellm; its endpoint and key default to the chat model's."""
    if not settings.llm_model:
        return None  # nobody to hand the transcript to
    from infra.llm import LiteLLMTranscriber

    key = settings.transcription_api_key or settings.llm_api_key
    return LiteLLMTranscriber(
        settings.transcription_model,
        api_base=settings.transcription_api_base or settings.llm_api_base,
        api_key=key.get_secret_value() if key else None,
    )


def default_vision_model(settings: Settings) -> LanguageModel | None:
    """VISION_MODEL when set (with LLM_API_BASE / LLM_API_KEY); otherwise photos go to LLM_MODEL."""
    if not settings.vision_model:
        return None
    from infra.llm import model_from_settings

    return model_from_settings(settings, settings.vision_model)


async def bootstrap(settings: Settings, *, model: LanguageModel | None = DEFAULT, clock: Clock = utc_now,
                    transcriber: Transcriber | None = None) -> Services:
    """Everything the bot needs, on the database of `settings`."""
    database = Database(settings.database_url)
    storage = SqlStorage(database, clock=clock, ttl=timedelta(hours=settings.operation_ttl_hours))
    rates = FixedRates(settings.exchange_rates) if settings.exchange_rates else DEFAULT_RATES
    service = HouseholdService(storage, model=default_model(settings) if model is DEFAULT else model,
                               clock=clock, timezone=settings.household_timezone, rates=rates)
    media = MediaService(service, transcriber=transcriber or default_transcriber(settings),
                         vision=default_vision_model(settings))
    return Services(settings, database, storage, service, media)
