"""state_dict / set_state_dict with Paddle's dotted names, so weights move between padax and Paddle."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from padax import dtypes
from padax.core.source_info import user_location
from padax.functional.creation import to_tensor as _to_tensor


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _entries(layer: Any, prefix: str, include_sublayers: bool):
    """(dotted name, owning layer, attribute name, canonical name) for parameters and persistable buffers.

    A layer may define `_state_aliases()` -> [(alias, dotted name below it)]: extra keys for the same
    values (Paddle's RNNs list each weight twice, e.g. `weight_ih_l0` and `0.cell.weight_ih`); for
    those the canonical name is the dotted one, else it is the key itself.
    """
    layers = layer.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, layer)]
    for path, owner in layers:
        d = owner.__dict__
        for name in d["_parameters"]:
            key = _join(path, name)
            yield key, owner, name, key
        for name in d["_buffers"]:
            if name not in d["_non_persistable"]:
                key = _join(path, name)
                yield key, owner, name, key
        aliases = getattr(owner, "_state_aliases", None)
        if aliases is not None and include_sublayers:
            for alias, target in aliases():
                sub, leaf = owner._owner(target)
                yield _join(path, alias), sub, leaf, _join(path, target)


def state_dict(layer: Any, destination: Any, include_sublayers: bool, prefix: str) -> collections.OrderedDict:
    out = collections.OrderedDict() if destination is None else destination
    for key, owner, name, _ in _entries(layer, prefix, include_sublayers):
        value = owner.__dict__["_parameters"].get(name, owner.__dict__["_buffers"].get(name))
        if value is not None:
            out[key] = value
    return out


def _host(value: Any) -> np.ndarray:
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()  # padax or Paddle tensors
    return np.asarray(value)


def set_state_dict(layer: Any, state: Any, strict: bool) -> tuple[list[str], list[str]]:
    if not hasattr(state, "keys"):
        raise TypeError(f"set_state_dict: expected a dict of name -> array, got {type(state).__name__}")
    entries = list(_entries(layer, "", True))
    targets = {key: (owner, name) for key, owner, name, _ in entries}
    given = {canonical for key, _, _, canonical in entries if key in state}  # a value under any of its keys
    missing = [k for k, _, _, canonical in entries if k == canonical and canonical not in given]
    unexpected = [k for k in state if k not in targets]
    mismatched, updates = [], []
    for key, (owner, name) in targets.items():
        if key not in state:
            continue
        current = owner.__dict__["_parameters"].get(name, owner.__dict__["_buffers"].get(name))
        value = _host(state[key])
        if current is not None and tuple(value.shape) != tuple(current.shape):
            mismatched.append(f"{key}: expected shape {list(current.shape)}, received {list(value.shape)}")
            continue
        dt = current.dtype if current is not None else dtypes.canonicalize_dtype(value.dtype)
        updates.append((owner, name, value, dt))
    problems = []
    if mismatched:
        problems.append("shape mismatches:\n    " + "\n    ".join(mismatched))
    if strict and missing:
        problems.append(f"missing keys ({len(missing)}): {missing}")
    if strict and unexpected:
        problems.append(f"unexpected keys ({len(unexpected)}): {unexpected}")
    if problems:
        raise ValueError(f"{type(layer).__name__}.set_state_dict: the state dict does not fit the model"
                         f"{user_location()}:\n  " + "\n  ".join(problems) +
                         ("\n(pass strict=False to load the matching keys and get the others back)"
                          if not mismatched else ""))
    for owner, name, value, dt in updates:
        owner._set_tensor(name, _to_tensor(value, dtype=dt))
    return missing, unexpected
