"""No public name of a user-facing module changes while the internals move (public_api.json)."""
from __future__ import annotations

import json

from . import public_api


def test_public_names_unchanged():
    recorded = json.loads(public_api.SNAPSHOT.read_text())
    now = public_api.snapshot()
    lost_modules = sorted(set(recorded) - set(now))
    assert not lost_modules, f"public modules gone: {lost_modules}"
    lost = {m: sorted(set(names) - set(now[m])) for m, names in recorded.items()}
    lost = {m: n for m, n in lost.items() if n}
    assert not lost, f"public names gone: {lost}"
    added = {m: sorted(set(now[m]) - set(recorded.get(m, ()))) for m in now}
    added = {m: n for m, n in added.items() if n}
    assert not added, (f"new public names (record them with `python -m tests.layering.public_api --write` if "
                       f"intended): {added}")
