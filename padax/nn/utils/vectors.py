"""parameters_to_vector / vector_to_parameters (Paddle's names)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.functional.manipulation import concat, reshape
from padax.nn.layer.layers import Layer as _Layer


def _params(parameters: Any) -> list:
    return parameters.parameters() if isinstance(parameters, _Layer) else list(parameters)


def parameters_to_vector(parameters: Any, name: str | None = None) -> Any:
    """All parameters (a list, or a Layer's parameters()) flattened and concatenated into one 1-D tensor.

    Args:
        parameters: a list of Tensors, or a Layer's parameters().

    Returns:
        A 1-D Tensor of all their elements.

    Examples:
        >>> import padax
        >>> layer = padax.nn.Linear(2, 3, weight_attr=padax.nn.initializer.Constant(1.0))
        >>> vec = padax.nn.utils.parameters_to_vector(layer)
        >>> vec.shape, vec.tolist()
        ((9,), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    """
    params = _params(parameters)
    if not params:
        raise ValueError("parameters_to_vector: no parameters given")
    return concat([reshape(p, [-1]) for p in params], axis=0)


def vector_to_parameters(vec: Any, parameters: Any, name: str | None = None) -> Any:
    """Cut `vec` into pieces shaped like the parameters. Given a list, returns the new tensors (padax tensors are
    immutable); given a Layer, also assigns them to its parameters in place (as Paddle) and returns the layer.

    Args:
        vec: a 1-D Tensor with as many elements as the parameters together.
        parameters: a list of Tensors or a Layer.

    Returns:
        The new tensors (a list), or the Layer with its parameters replaced.

    Examples:
        >>> import padax
        >>> layer = padax.nn.Linear(2, 1)
        >>> _ = padax.nn.utils.vector_to_parameters(padax.to_tensor([1.0, 2.0, 3.0]), layer)
        >>> layer.weight.tolist(), layer.bias.tolist()
        ([[1.0], [2.0]], [3.0])
    """
    params = _params(parameters)
    sizes = [int(np.prod(p.shape)) for p in params]
    if vec.ndim != 1 or vec.shape[0] != sum(sizes):
        raise ValueError(f"vector_to_parameters: vec must be 1-D with {sum(sizes)} elements, got shape "
                         f"{list(vec.shape)}")
    out, start = [], 0
    for p, n in zip(params, sizes):
        out.append(reshape(vec[start:start + n], list(p.shape)).astype(p.dtype))
        start += n
    if not isinstance(parameters, _Layer):
        return out
    names = [n for n, _ in parameters.named_parameters()]
    for dotted, value in zip(names, out):
        owner, leaf = parameters._owner(dotted)
        owner._set_tensor(leaf, value)
    return parameters
