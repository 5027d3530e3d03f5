"""Paddle's free-standing parameter constructors: `nn.Parameter(data)` and `create_parameter(shape, dtype)`.

padax parameters are plain Tensors; what makes one a parameter is the metadata (trainable,
learning rate, regularizer, ...) remembered for it, so that assigning it to a Layer attribute
registers a parameter (any other Tensor assigned to a layer becomes a buffer, as in Paddle).
`isinstance(t, nn.Parameter)` is True for Tensors made by these constructors or a layer's
create_parameter.
"""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax._battery_aliases import create_parameter as _new_parameter_value
from padax.functional._arrays import asarray
from padax.functional.creation import zeros
from padax.nn.layer.layers import _created, _remember_parameter, _unique_name
from padax.nn.param_attr import ParamAttr, ParamInfo


def _info(name: str | None, trainable: bool, kwargs: dict) -> ParamInfo:
    lr = kwargs.get("optimize_attr", {}).get("learning_rate", 1.0)
    return ParamInfo(name or _unique_name("_eager_param_base"), trainable, float(lr), kwargs.get("regularizer"),
                     kwargs.get("need_clip", True), kwargs.get("do_model_average") is not False)


class _ParameterMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        entry = _created.get(id(obj))  # looked up without using the entry up (as assignment does)
        return entry is not None and entry[0]() is obj


class Parameter(metaclass=_ParameterMeta):
    """Parameter(data, requires_grad=True, **kw) makes a parameter holding `data`'s values;
    Parameter(shape, dtype, **kw) one of zeros. Keywords as Paddle: name, trainable (shape form),
    optimize_attr={'learning_rate': ...}, regularizer, need_clip, do_model_average. Returns a Tensor.

    Args:
        args: (data, requires_grad=True) or (shape, dtype).
        kwargs: name, trainable, optimize_attr, regularizer, need_clip, do_model_average.

    Examples:
        >>> import padax
        >>> w = padax.nn.Parameter(padax.to_tensor([1.0, 2.0]))
        >>> isinstance(w, padax.nn.Parameter), isinstance(padax.ones([2]), padax.nn.Parameter)
        (True, False)
        >>> padax.nn.Parameter([2, 3], "float32").tolist()
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        if (args and isinstance(args[0], (list, tuple))) or "shape" in kwargs:
            return cls._by_shape(*args, **kwargs)
        return cls._by_tensor(*args, **kwargs)

    @staticmethod
    def _by_shape(shape: Any, dtype: Any, **kwargs: Any) -> Any:
        if dtype is None:
            raise ValueError("Parameter: dtype must be given with a shape")
        if any(int(s) < 0 for s in shape):
            raise ValueError(f"Parameter: every dimension must be non-negative, got {list(shape)}")
        value = zeros([int(s) for s in shape], dtypes.canonicalize_dtype(dtypes.to_dtype(dtype)))
        _remember_parameter(value, _info(kwargs.get("name"), kwargs.get("trainable", True), kwargs))
        return value

    @staticmethod
    def _by_tensor(data: Any = None, requires_grad: bool = True, **kwargs: Any) -> Any:
        value = asarray([] if data is None else data)
        value = value + 0 if value is data else value  # a new Tensor: the caller's keeps its own role
        _remember_parameter(value, _info(kwargs.get("name"), requires_grad, kwargs))
        return value


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None, is_bias: bool = False,
                     default_initializer: Any = None) -> Any:
    """A new parameter Tensor of `shape` and `dtype` (Paddle's paddle.create_parameter): initialised by
    attr's initializer, else default_initializer, else zeros (bias) / Xavier-uniform (weight), and
    carrying attr's trainable / learning_rate / regularizer, so that assigning it to a Layer makes it a
    parameter there."""
    pattr = ParamAttr._to_attr(attr)
    pattr = ParamAttr() if pattr is False else pattr
    value = _new_parameter_value(shape, dtype, name=name, attr=pattr, is_bias=is_bias,
                                 default_initializer=default_initializer)
    _remember_parameter(value, pattr._info(name or _unique_name("create_parameter")))
    return value
