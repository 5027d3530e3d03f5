"""The public names of padax's user-facing modules, to hold them fixed across internal moves.

`python -m tests.layering.public_api --write` records them in `public_api.json`; the test compares.
A module is public when no part of its dotted name starts with `_` and it is not one of the internal
floors (core, the runtime, interpreters, functional, lowering, transforms). Its public names are its
`__all__`, or else the names not starting with `_` that are not modules and not foreign helpers
(typing names, numpy itself, ...): what `from padax.X import name` users rely on.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import types
import warnings
from pathlib import Path

SNAPSHOT = Path(__file__).with_name("public_api.json")
INTERNAL = ("padax.core", "padax.runtime", "padax.interpreters", "padax.functional",
            "padax.lowering", "padax.transforms", "padax.test_util", "padax.examples", "padax.data")


def public_modules() -> list[str]:
    import padax
    names = ["padax"]
    for info in pkgutil.walk_packages(padax.__path__, "padax."):
        name = info.name
        if any(part.startswith("_") for part in name.split(".")):
            continue
        if name in INTERNAL or name.startswith(tuple(p + "." for p in INTERNAL)):
            continue
        names.append(name)
    return sorted(names)


def _is_foreign(obj) -> bool:
    mod = getattr(obj, "__module__", None)
    if isinstance(obj, types.ModuleType):
        return True
    if mod is None:
        return False
    return isinstance(mod, str) and mod.split(".")[0] in ("typing", "__future__", "collections", "abc",
                                                           "functools", "dataclasses", "contextlib", "enum")


def public_names(modname: str) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = importlib.import_module(modname)
    if hasattr(mod, "__all__"):
        return sorted(set(mod.__all__))
    return sorted(n for n in dir(mod) if not n.startswith("_") and not _is_foreign(getattr(mod, n)))


def snapshot() -> dict[str, list[str]]:
    return {m: public_names(m) for m in public_modules()}


if __name__ == "__main__":
    snap = snapshot()
    if "--write" in sys.argv:
        SNAPSHOT.write_text(json.dumps(snap, indent=0, sort_keys=True) + "\n")
        print(f"wrote {len(snap)} modules, {sum(map(len, snap.values()))} names")
    else:
        print(json.dumps(snap, indent=1))
