"""`convert_state_dict`: rename and re-lay state dicts between PyTorch's and Paddle's (= padax's) layouts.

The differences handled, for the layers both frameworks share:
- Linear: PyTorch stores `weight` as [out_features, in_features], Paddle as [in, out]: transposed.
- BatchNorm: PyTorch's `running_mean` / `running_var` are Paddle's `_mean` / `_variance`; PyTorch's
  `num_batches_tracked` counter has no Paddle counterpart (dropped; added as 0 going to PyTorch).
- Conv, ConvTranspose, Embedding, LayerNorm, GroupNorm and biases have the same layout and names.
Which 2-D weights are Linear is read from `model` (a padax Layer) when it is given; without it every 2-D
`*.weight` is taken to be a Linear weight (pass `model` when the dict also holds Embedding tables).
Layers whose parameters are split differently (PyTorch's fused MultiheadAttention `in_proj_weight`, RNN gate
order) are not converted.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.nn as _nn

_LAYOUTS = ("torch", "paddle", "padax")
_BN_TORCH_TO_PADDLE = {"running_mean": "_mean", "running_var": "_variance"}


def _host(value: Any) -> np.ndarray:
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()
    return np.asarray(value)


def _linear_weights(model: Any) -> set[str]:
    return {f"{path}.weight" if path else "weight"
            for path, layer in model.named_sublayers(include_self=True) if isinstance(layer, _nn.Linear)}


def _split(key: str) -> tuple[str, str]:
    head, _, leaf = key.rpartition(".")
    return head, leaf


def _join(head: str, leaf: str) -> str:
    return f"{head}.{leaf}" if head else leaf


def convert_state_dict(state_dict: Any, from_: str = "torch", to: str = "paddle", model: Any = None) -> dict:
    """A new dict with `state_dict`'s arrays (numpy) renamed and transposed from the `from_` layout to `to`
    ('torch', or 'paddle' / 'padax', which share one layout). See the module docstring for what changes.

    Args:
        state_dict: name -> array (numpy, padax, Paddle or torch tensors).
        from_, to: the layouts.
        model: a padax Layer, to tell Linear weights from other 2-D weights (optional).

    Examples:
        >>> import numpy as np
        >>> from padax.utils import convert_state_dict
        >>> torch_sd = {"fc.weight": np.zeros((2, 3)), "bn.running_var": np.ones(2), "bn.num_batches_tracked": 5}
        >>> {k: v.shape for k, v in convert_state_dict(torch_sd, "torch", "padax").items()}
        {'fc.weight': (3, 2), 'bn._variance': (2,)}
    """
    for what, value in (("from_", from_), ("to", to)):
        if value not in _LAYOUTS:
            raise ValueError(f"convert_state_dict: {what}={value!r}; valid layouts are {list(_LAYOUTS)}")
    if not hasattr(state_dict, "items"):
        raise TypeError(f"convert_state_dict: expected a dict of name -> array, got {type(state_dict).__name__}")
    src, dst = ("paddle" if from_ == "padax" else from_), ("paddle" if to == "padax" else to)
    out = {k: _host(v) for k, v in state_dict.items()}
    if src == dst:
        return out
    linear = _linear_weights(model) if model is not None else None

    def is_linear(key: str, value: np.ndarray) -> bool:
        return key in linear if linear is not None else (value.ndim == 2 and _split(key)[1] == "weight")

    converted = {}
    if src == "torch":
        for key, value in out.items():
            head, leaf = _split(key)
            if leaf == "num_batches_tracked":
                continue
            key = _join(head, _BN_TORCH_TO_PADDLE.get(leaf, leaf))
            converted[key] = value.T.copy() if is_linear(key, value) else value
        return converted
    to_torch = {v: k for k, v in _BN_TORCH_TO_PADDLE.items()}
    for key, value in out.items():
        head, leaf = _split(key)
        converted[_join(head, to_torch.get(leaf, leaf))] = value.T.copy() if is_linear(key, value) else value
        if leaf == "_variance":
            converted[_join(head, "num_batches_tracked")] = np.zeros((), np.int64)
    return converted
