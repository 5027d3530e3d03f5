"""jax.example_libraries.stax on padax: layers as `(init_fun, apply_fun)` pairs.

`init_fun(rng, input_shape) -> (output_shape, params)` and `apply_fun(params, inputs, **kwargs)`; the
combinators `serial`, `parallel`, `FanOut`, ... build networks from them. Layouts and defaults are
jax's (Conv: NHWC inputs with HWIO kernels; Dense weights glorot_normal, biases normal(1e-2)), so a
jax script that imports `jax.example_libraries.stax` runs with `padax.example_libraries.stax`.
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import padax
import padax.numpy as jnp
from padax import lax, random
from padax.nn import elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus, standardize
from padax.nn.initializers import glorot_normal, normal, ones, zeros

__all__ = ["AvgPool", "BatchNorm", "Conv", "Conv1DTranspose", "ConvTranspose", "Dense", "Dropout", "Elu", "Exp",
           "FanInConcat", "FanInSum", "FanOut", "Flatten", "Gelu", "GeneralConv", "GeneralConvTranspose",
           "Identity", "LeakyRelu", "LogSoftmax", "MaxPool", "Relu", "Selu", "Sigmoid", "Softmax", "Softplus",
           "SumPool", "Tanh", "elementwise", "parallel", "serial", "shape_dependent"]


def _output_shape(apply_fun: Callable, params: Any, input_shape: tuple) -> tuple:
    """The output shape of apply_fun on inputs of `input_shape` (traced, nothing computed). A -1 (any
    size, as jax's stax allows for the batch) is traced at two sizes: the dimensions that follow it are -1."""
    def at(fill: int) -> tuple:
        spec = padax.ShapeDtypeStruct(tuple(d if d >= 0 else fill for d in input_shape), jnp.float32)
        return tuple(padax.eval_shape(lambda p, x: apply_fun(p, x), params, spec).shape)
    one = at(1)
    if all(d >= 0 for d in input_shape):
        return one
    return tuple(a if a == b else -1 for a, b in zip(one, at(2)))


def Dense(out_dim: int, W_init: Callable = glorot_normal(), b_init: Callable = normal()) -> tuple:
    """A fully connected layer: inputs @ W + b.

    Examples:
        >>> import padax
        >>> from padax.example_libraries import stax
        >>> init, apply = stax.Dense(3)
        >>> shape, params = init(padax.random.key(0), (2, 4))
        >>> shape, apply(params, padax.ones([2, 4])).shape
        ((2, 3), (2, 3))
    """
    def init_fun(rng, input_shape):
        k1, k2 = random.split(rng)
        return tuple(input_shape[:-1]) + (out_dim,), (W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b
    return init_fun, apply_fun


def _conv_layer(conv: Callable, dimension_numbers: tuple, out_chan: int, filter_shape: tuple, strides: Any,
                padding: Any, W_init: Callable | None, b_init: Callable) -> tuple:
    """A (transposed) convolution layer: `conv(inputs, W, strides)` plus a bias broadcast along 'C'."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    strides = tuple(strides or (1,) * len(filter_shape))
    W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return conv(inputs, W, strides) + b

    def init_fun(rng, input_shape):
        it = iter(filter_shape)
        kernel_shape = [out_chan if c == "O" else input_shape[lhs_spec.index("C")] if c == "I" else next(it)
                        for c in rhs_spec]
        k1, k2 = random.split(rng)
        params = (W_init(k1, kernel_shape), b_init(k2, [out_chan if c == "C" else 1 for c in out_spec]))
        return _output_shape(apply_fun, params, tuple(input_shape)), params
    return init_fun, apply_fun


def GeneralConv(dimension_numbers: tuple, out_chan: int, filter_shape: tuple, strides: Any = None,
                padding: Any = "VALID", W_init: Callable | None = None, b_init: Callable = normal(1e-6)) -> tuple:
    """A convolution with explicit layouts (lhs, rhs, out specs such as ('NHWC', 'HWIO', 'NHWC')).

    Examples:
        >>> import padax
        >>> from padax.example_libraries import stax
        >>> init, apply = stax.Conv(4, (3, 3), padding="SAME")
        >>> init(padax.random.key(0), (1, 8, 8, 2))[0]
        (1, 8, 8, 4)
    """
    one = (1,) * len(filter_shape)
    conv = lambda x, W, st: lax.conv_general_dilated(x, W, st, padding, one, one, dimension_numbers=dimension_numbers)
    return _conv_layer(conv, dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init)


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(dimension_numbers: tuple, out_chan: int, filter_shape: tuple, strides: Any = None,
                         padding: Any = "VALID", W_init: Callable | None = None,
                         b_init: Callable = normal(1e-6)) -> tuple:
    """A transposed convolution (lax.conv_transpose) with explicit layouts."""
    conv = lambda x, W, st: lax.conv_transpose(x, W, st, padding, dimension_numbers=dimension_numbers)
    return _conv_layer(conv, dimension_numbers, out_chan, filter_shape, strides, padding, W_init, b_init)


Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(axis: Any = (0, 1, 2), epsilon: float = 1e-5, center: bool = True, scale: bool = True,
              beta_init: Callable = zeros, gamma_init: Callable = ones) -> tuple:
    """Normalisation by the batch's statistics over `axis` (stax keeps no running statistics).

    Examples:
        >>> import padax
        >>> from padax.example_libraries import stax
        >>> init, apply = stax.BatchNorm(axis=(0,))
        >>> _, params = init(padax.random.key(0), (4, 3))
        >>> [round(v, 4) for v in apply(params, padax.arange(12.0).reshape([4, 3])).mean(0).tolist()]
        [0.0, 0.0, 0.0]
    """
    axis = (axis,) if isinstance(axis, int) else tuple(axis)

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k1, k2 = random.split(rng)
        return tuple(input_shape), (beta_init(k1, shape) if center else (), gamma_init(k2, shape) if scale else ())

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        ed = tuple(None if i in axis else slice(None) for i in range(x.ndim))
        z = standardize(x, axis, epsilon=epsilon)
        if center and scale:
            return gamma[ed] * z + beta[ed]
        if center:
            return z + beta[ed]
        return gamma[ed] * z if scale else z
    return init_fun, apply_fun


def elementwise(fun: Callable, **fun_kwargs: Any) -> tuple:
    """A layer applying `fun(x, **fun_kwargs)` to its input, with no parameters."""
    return (lambda rng, input_shape: (input_shape, ()),
            lambda params, inputs, **kwargs: fun(inputs, **fun_kwargs))


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _pooling_layer(kind: str) -> Callable:
    def PoolingLayer(window_shape: tuple, strides: Any = None, padding: Any = "VALID", spec: str | None = None):
        window_shape, strides = tuple(window_shape), tuple(strides or (1,) * len(window_shape))
        non_spatial = (0, len(window_shape) + 1) if spec is None else (spec.index("N"), spec.index("C"))
        for i in sorted(non_spatial):
            window_shape = window_shape[:i] + (1,) + window_shape[i:]
            strides = strides[:i] + (1,) + strides[i:]

        def apply_fun(params, inputs, **kwargs):
            if kind == "max":
                return lax.reduce_window_max(inputs, window_shape, strides, padding)
            out = lax.reduce_window_sum(inputs, window_shape, strides, padding)
            if kind == "avg":  # divided by the number of elements each window covers (padding excluded)
                out = out / lax.reduce_window_sum(jnp.ones_like(inputs), window_shape, strides, padding)
            return out

        def init_fun(rng, input_shape):
            return _output_shape(apply_fun, (), tuple(input_shape)), ()
        return init_fun, apply_fun
    PoolingLayer.__name__ = {"max": "MaxPool", "sum": "SumPool", "avg": "AvgPool"}[kind]
    PoolingLayer.__doc__ = f"{PoolingLayer.__name__} over windows of the spatial axes (NHWC unless `spec`)."
    return PoolingLayer


MaxPool, SumPool, AvgPool = _pooling_layer("max"), _pooling_layer("sum"), _pooling_layer("avg")

Flatten = (lambda rng, input_shape: ((input_shape[0], math.prod(input_shape[1:])), ()),
           lambda params, inputs, **kwargs: jnp.reshape(inputs, (inputs.shape[0], -1)))
Identity = (lambda rng, input_shape: (input_shape, ()), lambda params, inputs, **kwargs: inputs)
FanInSum = (lambda rng, input_shape: (input_shape[0], ()), lambda params, inputs, **kwargs: sum(inputs))


def FanOut(num: int) -> tuple:
    """A layer copying its input into `num` branches (for `parallel`)."""
    return (lambda rng, input_shape: ([input_shape] * num, ()), lambda params, inputs, **kwargs: [inputs] * num)


def FanInConcat(axis: int = -1) -> tuple:
    """A layer concatenating its branches' outputs along `axis`."""
    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        size = sum(s[ax] for s in input_shape)
        return tuple(input_shape[0][:ax]) + (size,) + tuple(input_shape[0][ax + 1:]), ()
    return init_fun, lambda params, inputs, **kwargs: jnp.concatenate(inputs, axis)


def Dropout(rate: float, mode: str = "train") -> tuple:
    """Dropout as jax's stax: `rate` is the probability of *keeping* a unit, and apply_fun needs an
    `rng=` key in train mode."""
    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng")
        if rng is None:
            raise ValueError("stax.Dropout: apply_fun needs a key in train mode, apply_fun(params, inputs, "
                             "rng=key) with key = padax.random.key(...)")
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, tuple(inputs.shape))
        return jnp.where(keep, inputs / rate, 0)
    return (lambda rng, input_shape: (input_shape, ())), apply_fun


def serial(*layers: tuple) -> tuple:
    """The layers one after the other (each gets its own key, split from the one given).

    Examples:
        >>> import padax
        >>> from padax.example_libraries import stax
        >>> init, apply = stax.serial(stax.Dense(8), stax.Relu, stax.Dense(2), stax.LogSoftmax)
        >>> shape, params = init(padax.random.key(0), (-1, 4))
        >>> shape, apply(params, padax.ones([3, 4])).shape
        ((-1, 2), (3, 2))
    """
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        params = []
        for fn in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, p = fn(layer_rng, input_shape)
            params.append(p)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, len(layers)) if rng is not None else (None,) * len(layers)
        for fn, p, r in zip(apply_funs, params, rngs):
            inputs = fn(p, inputs, rng=r, **kwargs)
        return inputs
    return init_fun, apply_fun


def parallel(*layers: tuple) -> tuple:
    """The layers side by side: the input is a list with one entry per layer (see FanOut)."""
    init_funs, apply_funs = zip(*layers) if layers else ((), ())

    def init_fun(rng, input_shape):
        rngs = random.split(rng, len(layers))
        shapes, params = zip(*[fn(r, s) for fn, r, s in zip(init_funs, rngs, input_shape)])
        return list(shapes), list(params)

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, len(layers)) if rng is not None else (None,) * len(layers)
        return [fn(p, x, rng=r, **kwargs) for fn, p, x, r in zip(apply_funs, params, inputs, rngs)]
    return init_fun, apply_fun


def shape_dependent(make_layer: Callable) -> tuple:
    """A layer built from the input shape: `make_layer(input_shape)` returns (init_fun, apply_fun)."""
    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)
    return init_fun, apply_fun
