"""Fixtures for every test item, the doctests in padax/ included (tests/conftest.py has the test helpers)."""
from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _static_mode_left_off():
    """Paddle's static-graph mode is global: an example or test that turned it on (and failed before turning it
    off) must not leave the next test staging into its Program."""
    yield
    mode = sys.modules.get("padax.static.mode")
    if mode is not None and not mode.in_dynamic_mode():
        mode.disable_static()
