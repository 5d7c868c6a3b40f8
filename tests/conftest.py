"""Session-wide test setup shared by every tier."""

import os

# litellm must never reach the network from tests: no model price map, no other lookups.
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
