"""Shared pieces of the text datasets: the mode check and the file lookup (padax.vision.datasets' rules)."""
from __future__ import annotations

from padax.vision.datasets._files import check_mode, locate

__all__ = ["check_mode", "locate"]
