"""Settings from the environment (and `.env`), as contract §5 names them."""

from __future__ import annotations

from decimal import Decimal
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
    llm_fallbacks: Annotated[list[str], NoDecode] = Field(default_factory=list)

    household_timezone: str = "America/Sao_Paulo"
    operation_ttl_hours: float = 48.0
    # Finished updates are kept this long in the inbox, then purged (bot/housekeeping.py).
    inbox_retention_days: float = Field(default=30.0, gt=0)
    # Planning rates, BRL per unit: EXCHANGE_RATES='{"EUR": "6.20", "USD": "5.40"}'
    exchange_rates: dict[str, Decimal] = Field(default_factory=dict)

    @field_validator("llm_fallbacks", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("llm_model", "llm_api_base", "webhook_url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value
