"""weight_norm / remove_weight_norm (Paddle's names): weight = g * v / ||v||, the norm over all axes but `dim`."""
from __future__ import annotations

from typing import Any

from padax.functional import math as M, reduction as R
from padax.functional.manipulation import reshape
from padax.nn.utils.reparam import Reparam, add_reparam, remove_reparam


def _norm_except_dim(v: Any, dim: int) -> Any:
    """The L2 norm of v over every axis but `dim` (dim -1: over all, a scalar)."""
    if dim == -1:
        return M.sqrt(R.sum(M.square(v)))
    axes = [i for i in range(v.ndim) if i != dim]
    return M.sqrt(R.sum(M.square(v), axis=axes)) if axes else M.abs(v)


class WeightNorm(Reparam):
    def __init__(self, name: str, dim: int):
        self.name, self.dim = name, dim

    def compute(self, layer: Any) -> Any:
        g = getattr(layer, self.name + "_g")
        v = getattr(layer, self.name + "_v")
        if self.dim == -1:
            return v * (g / (_norm_except_dim(v, -1) + 1e-12))
        norm = M.maximum(_norm_except_dim(v, self.dim), 1e-12)
        bshape = [v.shape[self.dim] if i == self.dim else 1 for i in range(v.ndim)]
        return v * reshape(g / norm, bshape)


def weight_norm(layer: Any, name: str = "weight", dim: int | None = 0) -> Any:
    """Replace parameter `name` by `name_g` (magnitude, shape [w.shape[dim]], or [] for dim None) and `name_v`
    (direction); `layer.<name>` is then g * v / ||v||. In place; returns the layer.

    Args:
        layer: the Layer holding the parameter.
        name: the parameter's attribute name.
        dim: the axis keeping one magnitude per slice (None: one magnitude for the whole tensor).

    Returns:
        The same layer, modified in place.

    Examples:
        >>> import padax
        >>> linear = padax.nn.Linear(2, 3, weight_attr=padax.nn.initializer.Constant(2.0))
        >>> layer = padax.nn.utils.weight_norm(linear, dim=1)
        >>> sorted(name for name, _ in layer.named_parameters())
        ['bias', 'weight_g', 'weight_v']
        >>> layer.weight_g.tolist(), layer.weight.tolist()[0]
        ([2.8284, 2.8284, 2.8284], [2.0, 2.0, 2.0])
    """
    d = layer.__dict__
    if name not in d["_parameters"]:
        raise ValueError(f"weight_norm: {type(layer).__name__} has no parameter {name!r}")
    w = d["_parameters"][name]
    nd = w.ndim
    dim = -1 if dim is None else dim
    if not -nd <= dim < nd:
        raise ValueError(f"weight_norm: dim must be in [-{nd}, {nd}) for a weight of shape {list(w.shape)}")
    if dim != -1:
        dim %= nd
    info = d["_param_info"][name]
    g = _norm_except_dim(w, dim)
    layer._forget(name)
    layer.add_parameter(name + "_v", w)
    layer.add_parameter(name + "_g", g)
    d["_param_info"][name + "_v"] = d["_param_info"][name + "_g"] = info
    d["_aux"] = None
    add_reparam(layer, WeightNorm(name, dim))
    return layer


def remove_weight_norm(layer: Any, name: str = "weight") -> Any:
    """Undo weight_norm: `name` becomes one parameter again, with the current computed value.

    Args:
        layer: a Layer given to weight_norm.
        name: the parameter's attribute name.

    Returns:
        The same layer, modified in place.

    Examples:
        >>> import padax
        >>> layer = padax.nn.utils.weight_norm(padax.nn.Linear(2, 3))
        >>> layer = padax.nn.utils.remove_weight_norm(layer)
        >>> sorted(name for name, _ in layer.named_parameters())
        ['bias', 'weight']
    """
    spec = remove_reparam(layer, WeightNorm, name)
    info = layer.__dict__["_param_info"][name + "_v"]
    w = spec.compute(layer)
    layer._forget(name + "_g")
    layer._forget(name + "_v")
    layer.add_parameter(name, w)
    layer.__dict__["_param_info"][name] = info
    layer.__dict__["_aux"] = None
    return layer
