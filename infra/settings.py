"""Settings from the environment (and `.env`), as contract §5 names them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./household.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = None
    telegram_api_base_url: str = "https://api.telegram.org"
    webhook_secret: SecretStr | None = None
    webhook_url: str | None = None
    host: str = "0.0.0.0"
    port: int = 8080

    database_url: str = DEFAULT_DATABASE_URL

    llm_model: str | None = None
    llm_api_base: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout: float = 30.0
    llm_num_retries: int = 2
    llm_max_tokens: int = Field(default=1024, ge=1)
    llm_fallbacks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Media (contract §8): photos go to VISION_MODEL (else LLM_MODEL); voice notes to
    # TRANSCRIPTION_MODEL, whose endpoint and key default to LLM_API_BASE / LLM_API_KEY.
    vision_model: str | None = None
    transcription_model: str = "openai/whisper-1"
    transcription_api_base: str | None = None
    transcription_api_key: SecretStr | None = None

    household_timezone: str = "America/Sao_Paulo"
    # Bill reminders and the monthly closing go out from this hour on (HOUSEHOLD_TIMEZONE); the
    # webhook and polling processes look for what is due every SCHEDULE_CHECK_SECONDS (0: never,
    # leaving it to `household-bot remind` from a platform scheduler).
    reminder_hour: int = Field(default=9, ge=0, le=23)
    schedule_check_seconds: float = Field(default=60.0, ge=0)
    operation_ttl_hours: float = 48.0
    # Finished updates are kept this long in the inbox, then purged (bot/housekeeping.py).
    inbox_retention_days: float = Field(default=30.0, gt=0)
    # Where `household-bot console` writes /exportar's CSV and /grafico's PNG (git-ignored).
    data_dir: Path = Path("data")
    # Planning rates, BRL per unit: EXCHANGE_RATES='{"EUR": "6.20", "USD": "5.40"}'
    exchange_rates: dict[str, Decimal] = Field(default_factory=dict)

    @field_validator("llm_fallbacks", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("llm_model", "llm_api_base", "webhook_url", "vision_model",
                     "transcription_api_base", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value
