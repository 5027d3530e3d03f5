"""fleet's process-wide settings: the strategy and hybrid mesh of the last `fleet.init`."""
from __future__ import annotations

from typing import Any

hcg: Any = None
strategy: Any = None
