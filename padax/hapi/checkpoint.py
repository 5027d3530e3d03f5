"""Resumable training checkpoints in one file: `save_checkpoint(path, state)` / `load_checkpoint(path, target)`.

    state = {"network": model, "opt_state": opt_state, "key": key, "step": 120,
             "loader": loader.state_dict(), "scheduler": sched.state_dict()}
    padax.hapi.save_checkpoint("run/ckpt.pdckpt", state)
    ...
    state = padax.hapi.load_checkpoint("run/ckpt.pdckpt", target=fresh_state)   # the same structure back

`state` is any pytree (Layers, dicts, lists, optimizer states, keys, numbers, strings). Its leaves
are stored under their tree paths (`['network'].fc.weight`) with padax.save's format: raw array bytes
and JSON, never pickle, so loading runs no code from the file. The file is written atomically
(temp file, fsync, rename): a process killed mid-save leaves the previous checkpoint whole. A
damaged or truncated file raises `padax.serialization.LoadError`. Given a `target` (a pytree
shaped like the saved one, e.g. a freshly built model and `opt.init(model)`), the result has the
target's structure; keys or shapes that do not match raise `CheckpointMismatchError` listing them
all, or, with skip_mismatch=True, keep the target's values there (with a warning) and load the rest.
"""
from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

import padax
from padax import serialization, tree as tree_util

FORMAT = "padax.checkpoint"
FORMAT_VERSION = 1


class CheckpointMismatchError(ValueError):
    """A checkpoint does not fit the structure it is loaded into (missing/unexpected keys, other shapes).

    Args:
        *args: the message, as for any ValueError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "state.ckpt")
        ...     padax.hapi.save_checkpoint(path, {"w": padax.to_tensor([1.0, 2.0])})
        ...     try:
        ...         padax.hapi.load_checkpoint(path, {"w": padax.zeros([3])})
        ...     except padax.hapi.CheckpointMismatchError as e:
        ...         print(str(e).splitlines()[1].strip())
        ...
        ['w']: the checkpoint has float32[2], the target float32[3]
    """


def _is_array(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype")


def flatten_state(state: Any) -> dict[str, Any]:
    """{tree path: leaf} of a pytree (arrays as they are, numbers and strings kept)."""
    pairs, _ = tree_util.flatten_with_path(state)
    return {tree_util.keystr(path): leaf for path, leaf in pairs}


def save_checkpoint(path: str, state: Any) -> None:
    """Write the pytree `state` to the file `path` atomically (see the module docstring).

    Args:
        path: the file to write (atomically).
        state: a pytree of arrays, numbers, strings and None.

    Returns:
        None.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "state.ckpt")
        ...     padax.hapi.save_checkpoint(path, {"w": padax.to_tensor([1.0, 2.0]), "step": 3})
        ...     restored = padax.hapi.load_checkpoint(path, {"w": padax.zeros([2]), "step": 0})
        ...
        >>> restored["w"].tolist(), restored["step"]
        ([1.0, 2.0], 3)
    """
    path = os.fspath(path)
    flat = flatten_state(state)
    leaves = {}
    for key, leaf in flat.items():
        if isinstance(leaf, np.generic):
            leaf = np.asarray(leaf)
        if not (_is_array(leaf) or leaf is None or isinstance(leaf, (bool, int, float, str))):
            raise TypeError(f"save_checkpoint: the leaf at {key} is a {type(leaf).__name__}; checkpoints hold "
                            "arrays, numbers and strings (give objects' state_dict() instead)")
        leaves[key] = leaf
    serialization.save({"format": FORMAT, "format_version": FORMAT_VERSION, "leaves": leaves}, path)


def read_checkpoint(path: str) -> dict[str, Any]:
    """The {tree path: leaf} dict of a checkpoint file (numpy arrays), checked to be one."""
    path = os.fspath(path)
    content = serialization.load(path, return_numpy=True)
    if (not isinstance(content, dict) or content.get("format") != FORMAT
            or not isinstance(content.get("leaves"), dict)):
        raise serialization.LoadError(f"load_checkpoint: {path!r} is not a checkpoint written by save_checkpoint "
                                      "(for a .pdopt saved by Paddle, load the weights alone with "
                                      "Model.load(path, reset_optimizer=True))")
    if content.get("format_version", 0) > FORMAT_VERSION:
        raise serialization.LoadError(f"load_checkpoint: {path!r} was written by a newer padax")
    return content["leaves"]


def _describe(leaf: Any) -> str:
    if _is_array(leaf):
        return f"{np.dtype(leaf.dtype).name}{list(leaf.shape)}"
    return f"{type(leaf).__name__} {leaf!r}"


def _fits(saved: Any, current: Any) -> bool:
    if _is_array(current) != _is_array(saved):
        return False
    if _is_array(current):
        return tuple(saved.shape) == tuple(current.shape) and np.dtype(saved.dtype) == np.dtype(current.dtype)
    return type(saved) is type(current) or (isinstance(saved, (int, float)) and isinstance(current, (int, float))
                                            and not isinstance(saved, bool) and not isinstance(current, bool))


def restore_tree(target: Any, flat: dict[str, Any], where: str, skip_mismatch: bool = False,
                 prefix: str = "") -> tuple[Any, list[str]]:
    """`target` with its leaves replaced by the saved ones under `prefix` + their paths.

    Returns (restored tree, list of problems skipped). Raises CheckpointMismatchError listing every
    missing key, unexpected key and shape/dtype mismatch unless skip_mismatch."""
    pairs, treedef = tree_util.flatten_with_path(target)
    keys = [prefix + tree_util.keystr(p) for p, _ in pairs]
    own = {k for k in flat if k.startswith(prefix)} if prefix else set(flat)
    problems, leaves = [], []
    for key, (_, current) in zip(keys, pairs):
        if key not in flat:
            problems.append(f"missing {key} ({_describe(current)})")
            leaves.append(current)
            continue
        saved = flat[key]
        if not _fits(saved, current):
            problems.append(f"{key}: the checkpoint has {_describe(saved)}, the target {_describe(current)}")
            leaves.append(current)
            continue
        leaves.append(_like(saved, current))
    problems += [f"unexpected {k} ({_describe(flat[k])})" for k in sorted(own - set(keys))]
    if problems and not skip_mismatch:
        raise CheckpointMismatchError(f"{where} does not fit: {len(problems)} mismatch(es):\n  "
                                      + "\n  ".join(problems) + "\n(skip_mismatch=True loads the rest)")
    if problems:
        warnings.warn(f"{where}: skipped {len(problems)} mismatch(es): " + "; ".join(problems), stacklevel=3)
    return treedef.unflatten(leaves), problems


def _like(saved: Any, current: Any) -> Any:
    """A saved leaf in the kind of the current one (a Tensor on the device for a Tensor)."""
    if _is_array(current) and not isinstance(current, np.ndarray):
        return padax.device_put(np.asarray(saved))
    if isinstance(current, float) and not isinstance(saved, float):
        return float(saved)
    return saved


def load_checkpoint(path: str, target: Any = None, skip_mismatch: bool = False) -> Any:
    """Read a checkpoint: the {tree path: leaf} dict, or with `target` the target's structure filled in.

    Args:
        path: the checkpoint file.
        target: a pytree to fill (its structure and leaf shapes are checked); None returns the flat dict.
        skip_mismatch: on missing or unexpected keys or other shapes/dtypes, keep the target's values there (with a
            warning) instead of raising.

    Returns:
        The {tree path: leaf} dict, or `target`'s structure with the saved leaves.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "state.ckpt")
        ...     padax.hapi.save_checkpoint(path, {"w": padax.to_tensor([1.0, 2.0]), "step": 3})
        ...     flat = padax.hapi.load_checkpoint(path)  # no target: {tree path: leaf}
        ...     tree = padax.hapi.load_checkpoint(path, {"w": padax.zeros([2]), "step": 0})
        ...
        >>> sorted(flat), tree["w"].tolist()
        (["['step']", "['w']"], [1.0, 2.0])
    """
    flat = read_checkpoint(path)
    if target is None:
        return flat
    return restore_tree(target, flat, f"load_checkpoint({os.fspath(path)!r})", skip_mismatch)[0]
