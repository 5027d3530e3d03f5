"""ruff's checks on padax/ (configured in pyproject.toml): unused imports and redefinitions."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _ruff() -> list[str] | None:
    exe = Path(sys.executable).with_name("ruff")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("ruff")
    return [found] if found else None


def test_ruff_is_clean():
    ruff = _ruff()
    if ruff is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    run = subprocess.run([*ruff, "check", "--no-cache", "padax"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
