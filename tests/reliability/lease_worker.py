"""`python -m bot webhook` with a shorter inbox lease (RELIABILITY_LEASE_SECONDS): a killed
worker's update is claimed again after seconds instead of 90. Nothing else differs."""

from __future__ import annotations

import os
import sys
from datetime import timedelta

import bot.telegram.webhook
from bot.__main__ import main

bot.telegram.webhook.LEASE = timedelta(seconds=float(os.environ.get("RELIABILITY_LEASE_SECONDS", "90")))

if __name__ == "__main__":
    sys.exit(main(["webhook"]))
