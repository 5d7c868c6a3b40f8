"""Unit tier: no real language model, ever. Script one with tests.fakes.scripted_model instead."""

from typing import Any

import pytest

from infra.llm import LiteLLMModel


@pytest.fixture(autouse=True)
def _no_real_language_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: LiteLLMModel, *args: Any, **kwargs: Any) -> None:
        # pytest.fail raises an OutcomeException (a BaseException): `except Exception` cannot hide it.
        pytest.fail("the unit tier must not construct infra.llm.LiteLLMModel; use ScriptedModel",
                    pytrace=False)

    monkeypatch.setattr(LiteLLMModel, "__init__", refuse)
