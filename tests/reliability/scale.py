"""The two settings of the reliability suite: short for CI (the default), long for the report.

`RELIABILITY_LONG=1` selects the long one; everything else reads the numbers from `SCALE`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

LONG = os.environ.get("RELIABILITY_LONG", "").strip().lower() in {"1", "true", "yes"}


@dataclass(frozen=True)
class Scale:
    name: str
    slow_model_seconds: float  # case 3: how long the model takes (70 s is the case as written)
    race_rounds: int  # cases 4, 5, 10: how many races each run
    kill_rounds: int  # case 12: how many workers are killed mid-confirmation, per backend
    drop_rounds: int  # case 14: connection drops per kind of drop
    hostile_rounds: int  # cases 6, 7, 20: how many times each hostile press is repeated
    machine_examples: int  # case 18: hypothesis examples per backend
    machine_steps: int  # case 18: steps per example
    soak_seconds: float  # case 19
    soak_chats: int  # case 19


SHORT = Scale("short", slow_model_seconds=20.0, race_rounds=2, kill_rounds=2, drop_rounds=1,
              hostile_rounds=1, machine_examples=25, machine_steps=15, soak_seconds=10.0,
              soak_chats=50)
LONG_SCALE = Scale("long", slow_model_seconds=70.0, race_rounds=10, kill_rounds=10, drop_rounds=5,
                   hostile_rounds=5, machine_examples=200, machine_steps=30, soak_seconds=60.0,
                   soak_chats=50)

SCALE = LONG_SCALE if LONG else SHORT
