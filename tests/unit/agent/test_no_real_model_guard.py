"""The unit tier's guard (tests/unit/conftest.py): constructing a real model fails the test."""

import contextlib

import pytest

from infra.llm import LiteLLMModel


def test_constructing_a_litellm_model_in_the_unit_tier_fails_the_test() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"must not construct infra\.llm\.LiteLLMModel"):
        LiteLLMModel("openai/gpt-4o-mini", api_key="sk-never-used")


def test_the_guard_cannot_be_swallowed_by_a_broad_except() -> None:
    with pytest.raises(pytest.fail.Exception), contextlib.suppress(Exception):
        LiteLLMModel("anthropic/claude-3-5-sonnet-20241022")
