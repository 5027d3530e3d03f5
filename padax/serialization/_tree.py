"""Trees of arrays, numbers and strings as JSON: encode_tree (arrays set aside, by index) and
decode_tree (arrays put back, as Tensors where they were)."""
from __future__ import annotations

import collections
from typing import Any, Sequence

import numpy as np

from padax.core.abstract import ShapedArray
from padax.runtime.put import device_put


def _is_array(obj: Any) -> bool:
    return isinstance(obj, np.ndarray) or isinstance(getattr(obj, "aval", None), ShapedArray)


def encode_tree(obj: Any, arrays: list, op: str = "padax.save", values: bool = True, where: str = "") -> Any:
    """The JSON description of `obj`; its arrays (Tensors, tracers, numpy) are appended to `arrays`.

    With `values=False` only arrays, None and containers are allowed (what a traced function returns).
    """
    if _is_array(obj):
        arrays.append(obj)
        return {"array": len(arrays) - 1, "tensor": not isinstance(obj, np.ndarray)}
    if obj is None:
        return {"value": None}
    if values and isinstance(obj, np.generic):
        arrays.append(np.asarray(obj))
        return {"array": len(arrays) - 1, "scalar": True}
    if values and isinstance(obj, (bool, int, float, str)):
        return {"value": obj}
    if values and isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    if type(obj) in (list, tuple):
        kind = "list" if type(obj) is list else "tuple"
        return {kind: [encode_tree(o, arrays, op, values, f"{where}[{i}]") for i, o in enumerate(obj)]}
    if type(obj) is dict or (values and type(obj) is collections.OrderedDict):  # (a Layer's state_dict)
        keys = list(obj)
        if not all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in keys):
            raise TypeError(f"{op}: dict keys must be str or int (at {where or 'the top'})")
        return {"dict": [[k, encode_tree(obj[k], arrays, op, values, f"{where}[{k!r}]")] for k in keys]}
    if not values:
        raise TypeError(f"{op}: outputs must be arrays, or tuples/lists/dicts of them (and None); got "
                        f"{type(obj).__name__} (at {where or 'the top'})")
    raise TypeError(f"{op}: cannot save {type(obj).__name__} (at {where or 'the top'}). padax saves "
                    "Tensors, numpy arrays, numbers, strings and dicts/lists/tuples of them; it never pickles.")


def decode_tree(node: Any, arrays: Sequence, return_numpy: bool = False) -> Any:
    """The object `encode_tree` described, with `arrays` in place (host arrays become Tensors where they were)."""
    if "array" in node:
        a = arrays[node["array"]]
        if node.get("scalar"):
            return a[()]
        if node.get("tensor") and not return_numpy and isinstance(a, np.ndarray):
            return device_put(a)
        return a
    if "value" in node:
        return node["value"]
    if "complex" in node:
        return complex(*node["complex"])
    if "list" in node:
        return [decode_tree(n, arrays, return_numpy) for n in node["list"]]
    if "tuple" in node:
        return tuple(decode_tree(n, arrays, return_numpy) for n in node["tuple"])
    return {k: decode_tree(n, arrays, return_numpy) for k, n in node["dict"]}


def tree_is_valid(node: Any, n_arrays: int) -> bool:
    """Whether `node` is a description `encode_tree` could have written for `n_arrays` arrays (each index
    in range), so that decoding a damaged or hand-edited file fails at load, not at first use."""
    if not isinstance(node, dict) or len(node) == 0:
        return False
    if "array" in node:
        i = node["array"]
        return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n_arrays
    if "value" in node:
        return node["value"] is None or isinstance(node["value"], (bool, int, float, str))
    if "complex" in node:
        c = node["complex"]
        return isinstance(c, list) and len(c) == 2 and all(isinstance(v, (int, float)) for v in c)
    for kind in ("list", "tuple"):
        if kind in node:
            return isinstance(node[kind], list) and all(tree_is_valid(n, n_arrays) for n in node[kind])
    if "dict" in node:
        items = node["dict"]
        return isinstance(items, list) and all(
            isinstance(it, list) and len(it) == 2 and isinstance(it[0], (str, int)) and not isinstance(it[0], bool)
            and tree_is_valid(it[1], n_arrays) for it in items)
    return False
