"""The sealed holdout set (eval/holdout.jsonl) is well formed and consistent with the tools.

The oracle of the harness's self-test replays each holdout case's expected calls against the real
tools (on the fake OpenAI-compatible server, no network) and must pass every case: an expectation
the tools cannot meet is a broken case, not a weak model. The free-text reader is left out here,
so this says nothing about what it reads; only `eval/run.py --cases eval/holdout.jsonl` measures
that. On success nothing here prints a case's text.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from eval.fixture import load_cases
from eval.make_cases import dumps
from eval.make_holdout import OUT as HOLDOUT
from eval.make_holdout import build
from eval.run import DEFAULT_CASES, run_cases, summarize
from tests.fakes.llm_server import FakeLLMServer
from tests.integration.llm.test_eval_harness import CONCURRENCY, Oracle, model_for


@pytest.fixture
def provider() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def test_the_holdout_file_is_what_make_holdout_writes() -> None:
    same = HOLDOUT.read_text(encoding="utf-8") == "".join(dumps(c) + "\n" for c in build())
    assert same, "eval/holdout.jsonl is stale: rerun eval/make_holdout.py"


def test_every_holdout_case_is_in_the_holdout_split_with_a_unique_opening() -> None:
    cases = load_cases(HOLDOUT, "all")  # not a fixture argument: a failure shows no texts
    assert len(cases) >= 40
    assert all(c.split == "holdout" and c.id.startswith("holdout-") for c in cases)
    assert len(load_cases(HOLDOUT, "holdout")) == len(cases)
    assert load_cases(HOLDOUT, "dev") == [] and load_cases(HOLDOUT, "test") == []
    openings = [(c.turns[0]["sender"], c.turns[0]["text"]) for c in cases]
    assert len(openings) == len(set(openings)), "two holdout cases open with the same message"
    known = {(c.turns[0]["sender"], c.turns[0]["text"]) for c in load_cases(DEFAULT_CASES, "all")}
    assert not any(o in known for o in openings), "a holdout case opens like a dev/test case"


async def test_the_oracle_passes_every_holdout_case_with_no_unconfirmed_write(provider: FakeLLMServer) -> None:
    cases = load_cases(HOLDOUT, "all")  # not a fixture argument: a failure shows ids, not texts
    provider.responder = Oracle(cases)

    results = await run_cases(cases, model_for(provider), concurrency=CONCURRENCY, use_reader=False)

    failed = sorted(r.case_id for r in results if not r.passed)
    assert failed == []
    summary = summarize(results, 1)
    assert summary["pass_rate"] == 1.0
    refused = sorted({r.case_id for r in results for t in r.turns for c in t.calls if "error" in c})
    assert refused == []
    assert summary["unconfirmed_writes"] == 0
    assert summary["harness_errors"] == 0
    assert summary["argument_errors"] == []
    turns = [t for r in results for t in r.turns]
    assert summary["persisted_writes"] == sum(t.saves for t in turns) > 0
