"""spectral_norm (Paddle's name): weight = weight_orig / sigma, sigma the largest singular value estimated by
power iteration on buffers weight_u, weight_v (updated before each forward in training mode)."""
from __future__ import annotations

from typing import Any

from padax import stop_gradient as _stop_gradient
from padax.functional import math as M, reduction as R
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import reshape, transpose
from padax.nn.functional._rng import next_key as _next_key
from padax.nn.utils.reparam import Reparam, add_reparam
from padax.random import _keys, _samplers


def _normalize(x: Any, eps: float) -> Any:
    return x / M.maximum(M.sqrt(R.sum(M.square(x))), eps)


class SpectralNorm(Reparam):
    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float):
        self.name, self.n_power_iterations, self.dim, self.eps = name, n_power_iterations, dim, eps

    def matrix(self, w: Any) -> Any:
        if self.dim != 0:
            w = transpose(w, [self.dim] + [i for i in range(w.ndim) if i != self.dim])
        return reshape(w, [w.shape[0], -1])

    def before_forward(self, layer: Any) -> None:
        if not layer.training:
            return
        mat = _stop_gradient(self.matrix(getattr(layer, self.name + "_orig")))
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        for _ in range(self.n_power_iterations):
            v = _normalize(matmul(mat, u, transpose_x=True), self.eps)
            u = _normalize(matmul(mat, v), self.eps)
        setattr(layer, self.name + "_u", u)
        setattr(layer, self.name + "_v", v)

    def compute(self, layer: Any) -> Any:
        w = getattr(layer, self.name + "_orig")
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        sigma = R.sum(u * matmul(self.matrix(w), v))
        return w / sigma


def spectral_norm(layer: Any, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None, key: Any = None) -> Any:
    """Replace parameter `name` by `name_orig` plus buffers `name_u`, `name_v` (random unit vectors drawn from
    `key`, padax.nn.rng_scope's or the global key); `layer.<name>` is then weight_orig / sigma. dim defaults to 0
    (1 for Linear and transposed convolutions, as Paddle). In place; returns the layer.

    Args:
        layer: the Layer holding the parameter.
        name: the parameter's attribute name.
        n_power_iterations: power iterations per forward call.
        eps: added to norms in the iteration.
        dim: the axis treated as the output rows (None: 0, or 1 for Linear and transposed convolutions).
        key: a padax.random key for u and v (padax's addition).

    Returns:
        The same layer, modified in place.

    Examples:
        >>> import padax
        >>> layer = padax.nn.Linear(2, 2, weight_attr=padax.nn.initializer.Assign([[3.0, 0.0], [0.0, 1.0]]))
        >>> layer = padax.nn.utils.spectral_norm(layer, n_power_iterations=20, key=padax.random.key(0))
        >>> sorted(name for name, _ in layer.named_parameters()), sorted(name for name, _ in layer.named_buffers())
        (['bias', 'weight_orig'], ['weight_u', 'weight_v'])
        >>> _ = layer(padax.ones([1, 2]))  # a training-mode call runs the power iteration
        >>> padax.numpy.round(layer.weight, 4).tolist()  # weight_orig divided by its largest singular value, 3
        [[1.0, 0.0], [0.0, 0.3333]]
    """
    if n_power_iterations <= 0:
        raise ValueError(f"spectral_norm: n_power_iterations must be positive, got {n_power_iterations}")
    d = layer.__dict__
    if name not in d["_parameters"]:
        raise ValueError(f"spectral_norm: {type(layer).__name__} has no parameter {name!r}")
    if dim is None:  # the output-feature axis: 1 for Linear ([in, out]) and transposed convolutions
        names = {c.__name__ for c in type(layer).__mro__}
        dim = 1 if names & {"Linear", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose"} else 0
    w = d["_parameters"][name]
    spec = SpectralNorm(name, n_power_iterations, dim, eps)
    h, wd = spec.matrix(w).shape
    k_u, k_v = _keys.split_pair(_next_key("spectral_norm") if key is None else key)
    u = _normalize(_samplers.normal(k_u, (h,), w.dtype), eps)
    v = _normalize(_samplers.normal(k_v, (wd,), w.dtype), eps)
    info = d["_param_info"][name]
    layer._forget(name)
    layer.add_parameter(name + "_orig", w)
    d["_param_info"][name + "_orig"] = info
    d["_aux"] = None
    layer.register_buffer(name + "_u", u)
    layer.register_buffer(name + "_v", v)
    add_reparam(layer, spec)
    return layer
