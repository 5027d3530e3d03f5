"""`padax.nn.Layer`: Paddle's layer base class, where every instance is a pytree.

A subclass defines `__init__` (creating parameters with `self.create_parameter`,
assigning Tensors and sublayers) and `forward`. Every subclass is registered as a
pytree node when it is defined: parameters, buffers and sublayers are children;
everything else is static (see `_pytree`). So `padax.grad(loss)(model, x, y)`
returns a model-shaped gradient and `padax.jit(step)(model, ...)` retraces only
when static configuration changes.

Parameters are plain immutable Tensors; their metadata (`ParamInfo`: name,
trainable, learning-rate multiplier, regularizer, need_clip) is kept by the layer.
A frozen parameter (`ParamAttr(trainable=False)`, `layer.freeze()`) and every
buffer read inside a transformation come with `stop_gradient`, so they get zero
gradient, and padax.optimizer leaves them unchanged.

State that Paddle updates in place (BatchNorm's running statistics) is assigned
to the layer during `forward`. Under a transformation the layer is the copy that
the transformation rebuilt from the model passed in; when the function returns,
the transformation (grad, vmap, jit, checkpoint) writes the update back to the
layer passed in (padax.core.node_state; docs/nn_state.md). Assigning a
traced value to a layer that lives outside the transformation (a closure) would
leak a tracer and raises an error.
"""
from __future__ import annotations

import collections
import dataclasses
import re
import weakref
from typing import Any, Callable, Iterator

import padax
from padax import dtypes
from padax.core import node_state
from padax.core.source_info import user_location
from padax.core.trace import EvalTrace, Tracer, current_trace
from padax.functional import tape_api as _tape
from padax.functional._arrays import is_array, static_int as _static_int
from padax.functional.creation import normalize_shape as _normalize_shape
from padax.nn import initializer as _initializer
from padax.nn.initializer._base import global_initializers as _global_initializers
from padax.nn.layer import _calls, _pytree, _state_dict
from padax.nn.param_attr import ParamAttr, ParamInfo

_name_counts: collections.Counter = collections.Counter()

# Installed by padax.static: `static_parameter(init, shape, dtype, info)` makes a layer's new parameter; in static
# mode it is a named input of the current Program (its value made now), else `init(shape, dtype)`.
# `static_assign(old, new)` is True when it recorded `new` as the Program's update of the persistable input `old`
# (BatchNorm's statistics), which the layer then keeps.
static_parameter: Any = None
static_assign: Any = None

# Tensors returned by create_parameter, so that assigning one to a layer makes it a parameter
# (a plain Tensor assigned to a layer becomes a buffer, as in Paddle).
_created: dict[int, tuple[weakref.ref, ParamInfo]] = {}


def _unique_name(prefix: str) -> str:
    n = _name_counts[prefix]
    _name_counts[prefix] += 1
    return f"{prefix}_{n}"


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _remember_parameter(value: Any, info: ParamInfo) -> None:
    if info.trainable:  # a leaf of Paddle's tape (stop_gradient=False): loss.backward() fills its .grad
        value.stop_gradient = False
    key = id(value)
    try:
        ref = weakref.ref(value, lambda _, k=key: _created.pop(k, None))
    except TypeError:  # a tracer (a layer built under vmap/jit): held until it is assigned
        ref = (lambda v: lambda: v)(value)
    _created[key] = (ref, info)


def _created_info(value: Any) -> ParamInfo | None:
    """The metadata create_parameter gave `value` (the entry is used up by the first assignment)."""
    entry = _created.get(id(value))
    if entry is None or entry[0]() is not value:
        return None
    if not isinstance(entry[0], weakref.ref):
        del _created[id(value)]
    return entry[1]


def config_ints(layer: Any, **values: Any) -> tuple[int, ...]:
    """A layer's integer settings (sizes, counts) as Python ints, in the order given: 2.5 or "a" is
    refused with an error naming the layer, never truncated by int()."""
    return tuple(_static_int(type(layer).__name__, v, name) for name, v in values.items())


class LayerStateError(RuntimeError):
    """A traced value was assigned to a layer that lives outside the transformation computing it (a closed-over
    layer under vmap; under jit its state is written back by each call instead).

    Args:
        message: what was assigned where.

    Examples:
        >>> import padax
        >>> bn = padax.nn.BatchNorm1D(2)
        >>> padax.vmap(lambda x: bn(x))(padax.ones([4, 3, 2]))
        Traceback (most recent call last):
            ...
        padax.nn.layer.layers.LayerStateError: BatchNorm1D._mean: a traced value (f32[2]) was assigned to...
    """


class Layer:
    """Base class of padax's layers (Paddle's `paddle.nn.Layer`), a pytree node.

    Args:
        name_scope: a prefix for the layer's name (Paddle's naming).
        dtype: the default dtype of the parameters it creates.

    Examples:
        >>> import padax
        >>> class Scale(padax.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = self.create_parameter([2], default_initializer=padax.nn.initializer.Constant(3.0))
        ...     def forward(self, x):
        ...         return (self.w * x).sum()
        >>> model = Scale()
        >>> [name for name, _ in model.named_parameters()], model(padax.to_tensor([1.0, 2.0])).item()
        (['w'], 9.0)
        >>> grads = padax.grad(lambda m, x: m(x))(model, padax.to_tensor([1.0, 2.0]))  # a Scale-shaped gradient
        >>> grads.w.tolist()
        [1.0, 2.0]
    """

    training: bool

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _pytree.register(cls)

    def __init__(self, name_scope: str | None = None, dtype: Any = "float32") -> None:
        d = self.__dict__
        d["_parameters"] = {}
        d["_param_info"] = {}
        d["_buffers"] = {}
        d["_non_persistable"] = set()
        d["_sub_layers"] = {}
        d["_full_name"] = _unique_name(name_scope or _snake(type(self).__name__))
        d["_aux"] = None
        d["_home"] = weakref.ref(current_trace())
        d["training"] = True
        d["_dtype"] = dtype

    # -- calling --------------------------------------------------------------------------
    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        forward = getattr(type(self), "forward", None)
        if forward is None:
            raise TypeError(f"{type(self).__name__} has no forward(); define forward in the subclass"
                            f"{user_location()}")
        for spec in self.__dict__.get("_reparams", ()):
            spec.before_forward(self)
        layers = _calls.stack.layers
        layers.append(self)
        try:
            out = forward(self, *inputs, **kwargs)
        except (TypeError, ValueError) as e:
            if getattr(e, "_padax_layer_path", None) is not None:
                raise
            new = _calls.annotate(e, self)
            if new is e:
                raise
            raise new.with_traceback(e.__traceback__) from None
        finally:
            layers.pop()
        for observe in _calls.observers:  # padax.summary records each layer's output shape
            observe(self, inputs, out)
        return out

    # -- attributes -------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        params = d.get("_parameters")
        if params is not None:
            if name in params:
                value = params[name]
                if isinstance(value, Tracer) and not d["_param_info"][name].trainable:
                    return _stop_gradient(value)
                return value
            if name in d["_buffers"]:
                value = d["_buffers"][name]
                return _stop_gradient(value) if isinstance(value, Tracer) else value
            if name in d["_sub_layers"]:
                return d["_sub_layers"][name]
            for spec in d.get("_reparams", ()):
                if spec.name == name:
                    return spec.compute(self)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if "_parameters" not in d:
            raise RuntimeError(f"{type(self).__name__}: call super().__init__() before assigning attributes")
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        params, buffers, subs = d["_parameters"], d["_buffers"], d["_sub_layers"]
        if name in params or name in buffers:
            self._set_tensor(name, value)
            return
        if isinstance(value, Layer):
            if name not in subs:  # replacing a sublayer keeps its place (the layer's pytree structure), as in Paddle
                self._forget(name)
            subs[name] = value
        elif name in subs:
            if value is not None:
                raise TypeError(f"{type(self).__name__}.{name} is a sublayer; assign a Layer or None, "
                                f"got {type(value).__name__}")
            subs[name] = None
        elif is_array(value):
            info = _created_info(value)
            self._forget(name)
            self._check_no_leak(name, value)
            if info is not None:
                params[name] = value
                d["_param_info"][name] = info
            else:  # a plain Tensor assigned to a layer is a non-persistable buffer (Paddle's rule)
                buffers[name] = value
                d["_non_persistable"].add(name)
        else:
            if isinstance(value, (list, tuple, dict)) and _holds_layers_or_arrays(value):
                raise TypeError(
                    f"{type(self).__name__}.{name}: a {type(value).__name__} of layers or tensors would be static "
                    f"configuration, invisible to grad/jit and state_dict{user_location()}. Use nn.LayerList / "
                    "nn.LayerDict / nn.Sequential for layers, nn.ParameterList or register_buffer for tensors.")
            object.__setattr__(self, name, value)
        d["_aux"] = None

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        if name in d["_parameters"] or name in d["_buffers"] or name in d["_sub_layers"]:
            self._forget(name)
        else:
            object.__delattr__(self, name)
        d["_aux"] = None

    def __dir__(self) -> list[str]:
        d = self.__dict__
        return sorted(set(super().__dir__()) | set(d["_parameters"]) | set(d["_buffers"]) | set(d["_sub_layers"]))

    def _forget(self, name: str) -> None:
        d = self.__dict__
        d["_parameters"].pop(name, None)
        d["_param_info"].pop(name, None)
        d["_buffers"].pop(name, None)
        d["_non_persistable"].discard(name)
        d["_sub_layers"].pop(name, None)
        d.pop(name, None)

    def _set_tensor(self, name: str, value: Any) -> None:
        """Replace the value of an existing parameter or buffer (metadata kept)."""
        d = self.__dict__
        if value is not None and not is_array(value):
            kind = "parameter" if name in d["_parameters"] else "buffer"
            raise TypeError(f"{type(self).__name__}.{name} is a {kind}; assign a Tensor or None, got "
                            f"{type(value).__name__}{user_location()}")
        store = d["_parameters"] if name in d["_parameters"] else d["_buffers"]
        if static_assign is not None and static_assign(store.get(name), value):
            return
        if not (self._lives_eagerly() and _tape.note_staged_write(self, name, value)):  # (a jitted step
            self._check_no_leak(name, value)  # updating a closed-over layer's state writes it back each call)
        store[name] = value
        if "_rebuilt" in d:  # a transformation's copy: the transformation carries the update back (node_state)
            node_state.note_assigned(self)

    def _lives_eagerly(self) -> bool:
        """Whether this layer was made by eager code (not rebuilt by a transformation or made inside one)."""
        home = self.__dict__.get("_home")
        t = home() if home is not None else None
        return t is None or type(t) is EvalTrace

    def _check_no_leak(self, name: str, value: Any) -> None:
        """A traced value may only be stored in a layer rebuilt inside the transformation tracing it."""
        if not isinstance(value, Tracer):
            return
        home = self.__dict__.get("_home")
        t = home() if home is not None else None
        while t is not None:
            if t is value._trace:
                return
            t = getattr(t, "parent", None)
        raise LayerStateError(
            f"{type(self).__name__}.{name}: a traced value ({value.aval.str_short()}) was assigned to a layer that "
            f"lives outside the transformation (jit/grad/vmap/...) computing it{user_location()}. The layer would "
            "keep a tracer after the transformation ends. Pass the model into the transformed function as an "
            "argument and return it, e.g. `loss, model = step(model, x)` (the returned model carries the new "
            "state; see docs/nn_state.md), or call model.eval() so the layer does not update its state.")

    # -- creating parameters and buffers -------------------------------------------------------
    def create_parameter(self, shape: Any, attr: Any = None, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Any = None, device: Any = None) -> Any:
        """A new parameter value (assign it to an attribute to register it), initialised by `attr`'s initializer,
        else the global one, else `default_initializer`, else XavierUniform (weights) / Constant(0) (biases).

        Returns None when attr is False. Random initializers draw from the enclosing
        `padax.nn.rng_scope` key, else from padax's global key.
        """
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            return None
        shape = list(_normalize_shape(f"{type(self).__name__}.create_parameter", shape))
        # as in Paddle, a parameter without a dtype takes the global default (padax.set_default_dtype)
        dtype = dtypes.canonicalize_dtype(dtype if dtype is not None else dtypes.default_float_dtype())
        init = attr.initializer
        if init is None:
            glob = _global_initializers.bias if is_bias else _global_initializers.weight
            init = glob or default_initializer or (_initializer.Constant(0.0) if is_bias
                                                   else _initializer.XavierUniform())
        info = attr._info(_unique_name(f"{self._full_name}.{'b' if is_bias else 'w'}"))
        value = init(shape, dtype) if static_parameter is None else static_parameter(init, shape, dtype, info)
        _remember_parameter(value, info)
        return value

    def add_parameter(self, name: str, parameter: Any) -> Any:
        """Register `parameter` (a Tensor, or None) as the parameter `name`."""
        if "." in name or not name:
            raise KeyError(f"add_parameter: invalid name {name!r}")
        d = self.__dict__
        if parameter is not None and not is_array(parameter):
            raise TypeError(f"add_parameter: {name!r} must be a Tensor or None, got {type(parameter).__name__}")
        info = (_created_info(parameter) if parameter is not None else None) or ParamInfo(
            _unique_name(f"{self._full_name}.w"))
        self._forget(name)
        self._check_no_leak(name, parameter)
        d["_parameters"][name] = parameter
        d["_param_info"][name] = info
        d["_aux"] = None
        return parameter

    register_parameter = add_parameter

    def register_buffer(self, name: str, tensor: Any, persistable: bool = True) -> None:
        """Register a buffer: state that is not trained (persistable ones go into state_dict)."""
        if not isinstance(name, str) or not name or "." in name:
            raise KeyError(f"register_buffer: invalid name {name!r}")
        if tensor is not None and not is_array(tensor):
            raise TypeError(f"register_buffer: {name!r} must be a Tensor or None, got {type(tensor).__name__}")
        d = self.__dict__
        self._forget(name)
        self._check_no_leak(name, tensor)
        d["_buffers"][name] = tensor
        if not persistable:
            d["_non_persistable"].add(name)
        d["_aux"] = None

    def add_sublayer(self, name: str, sublayer: Any) -> Any:
        """Register `sublayer` under `name` (a Layer or None)."""
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"add_sublayer: {name!r} must be a Layer, got {type(sublayer).__name__}")
        name = str(name)
        self._forget(name)
        self.__dict__["_sub_layers"][name] = sublayer
        self.__dict__["_aux"] = None
        return sublayer

    add_module = add_sublayer

    # -- parameter metadata ----------------------------------------------------------------------
    def param_info(self, name: str) -> ParamInfo:
        """The metadata of parameter `name` (dotted for a sublayer's, e.g. 'fc1.weight')."""
        owner, leaf = self._owner(name)
        if leaf not in owner.__dict__["_parameters"]:
            raise KeyError(f"{type(self).__name__} has no parameter {name!r}")
        return owner.__dict__["_param_info"][leaf]

    def _set_trainable(self, names: tuple[str, ...], trainable: bool) -> "Layer":
        targets = names or tuple(n for n, _ in self.named_parameters())
        for name in targets:
            owner, leaf = self._owner(name)
            infos = owner.__dict__["_param_info"]
            if leaf not in infos:
                raise KeyError(f"{type(self).__name__} has no parameter {name!r}")
            infos[leaf] = dataclasses.replace(infos[leaf], trainable=trainable)
            owner.__dict__["_aux"] = None
        return self

    def freeze(self, *names: str) -> "Layer":
        """Mark parameters (all of them if no names are given) not trainable: Paddle's stop_gradient=True.

        They then get zero gradient and padax.optimizer leaves them unchanged. In place; returns self.
        """
        return self._set_trainable(names, False)

    def unfreeze(self, *names: str) -> "Layer":
        """Mark parameters (all if no names are given) trainable again. In place; returns self."""
        return self._set_trainable(names, True)

    def _owner(self, dotted: str) -> tuple["Layer", str]:
        *path, leaf = dotted.split(".")
        layer = self
        for p in path:
            subs = layer.__dict__["_sub_layers"]
            if p not in subs or subs[p] is None:
                raise KeyError(f"{type(self).__name__} has no sublayer {'.'.join(path)!r}")
            layer = subs[p]
        return layer, leaf

    # -- traversal -------------------------------------------------------------------------
    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set: set | None = None
                        ) -> Iterator[tuple[str, "Layer"]]:
        """(dotted name, layer) for every sublayer, depth first (each layer object once)."""
        seen = set() if layers_set is None else layers_set
        if include_self and id(self) not in seen:
            seen.add(id(self))
            yield prefix, self
        for name, sub in self.__dict__["_sub_layers"].items():
            if sub is None:
                continue
            path = f"{prefix}.{name}" if prefix else name
            if id(sub) not in seen:
                seen.add(id(sub))
                yield path, sub
            yield from sub.named_sublayers(path, False, seen)

    def sublayers(self, include_self: bool = False) -> list["Layer"]:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self) -> Iterator[tuple[str, "Layer"]]:
        seen = set()
        for name, sub in self.__dict__["_sub_layers"].items():
            if sub is not None and id(sub) not in seen:
                seen.add(id(sub))
                yield name, sub

    def children(self) -> Iterator["Layer"]:
        for _, sub in self.named_children():
            yield sub

    def _named_members(self, table: str, prefix: str, include_sublayers: bool) -> Iterator[tuple[str, Any]]:
        layers = self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers else [(prefix, self)]
        for path, layer in layers:
            for name in layer.__dict__[table]:
                value = getattr(layer, name)
                if value is not None:
                    yield (f"{path}.{name}" if path else name), value

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True) -> Iterator[tuple[str, Any]]:
        """(dotted name, value) of every parameter (frozen ones included); a layer reached twice counts once."""
        return self._named_members("_parameters", prefix, include_sublayers)

    def parameters(self, include_sublayers: bool = True) -> list[Any]:
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True) -> Iterator[tuple[str, Any]]:
        """(dotted name, value) of every buffer, persistable or not."""
        return self._named_members("_buffers", prefix, include_sublayers)

    def buffers(self, include_sublayers: bool = True) -> list[Any]:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def get_sublayer(self, target: str) -> "Layer":
        """The sublayer at dotted path `target` ('' is the layer itself)."""
        layer = self
        for part in target.split(".") if target else ():
            sub = layer.__dict__["_sub_layers"].get(part)
            if sub is None:
                raise AttributeError(f"{type(self).__name__} has no sublayer {target!r}")
            layer = sub
        return layer

    def get_parameter(self, target: str) -> Any:
        owner, leaf = self._owner(target)
        if leaf not in owner.__dict__["_parameters"]:
            raise AttributeError(f"{type(self).__name__} has no parameter {target!r}")
        return getattr(owner, leaf)

    def get_buffer(self, target: str) -> Any:
        owner, leaf = self._owner(target)
        if leaf not in owner.__dict__["_buffers"]:
            raise AttributeError(f"{type(self).__name__} has no buffer {target!r}")
        return getattr(owner, leaf)

    # -- modes and bulk changes ------------------------------------------------------------------
    def train(self, mode: bool = True) -> "Layer":
        """Training mode for this layer and all sublayers (Dropout drops, BatchNorm updates statistics)."""
        for layer in self.sublayers(include_self=True):
            layer.training = bool(mode)
        return self

    def eval(self) -> "Layer":
        """Evaluation mode for this layer and all sublayers."""
        return self.train(False)

    def apply(self, fn: Callable[["Layer"], Any]) -> "Layer":
        """Call fn on every sublayer, then on self (children first, as Paddle). Returns self."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def to(self, device: Any = None, dtype: Any = None, blocking: Any = None) -> "Layer":
        """Cast floating-point parameters and buffers to `dtype` and/or place them on `device`. In place."""
        if isinstance(device, str) or device is None:
            device = None  # 'cpu'/'gpu' strings name the default device here
        target = None if dtype is None else dtypes.canonicalize_dtype(dtype)
        for layer in self.sublayers(include_self=True):
            d = layer.__dict__
            for table in (d["_parameters"], d["_buffers"]):
                for name, v in table.items():
                    if v is None or not is_array(v):
                        continue
                    if target is not None and dtypes.is_floating(v.dtype):
                        v = v.astype(target)
                    if device is not None:
                        v = padax.device_put(v, device)
                    layer._set_tensor(name, v)
            if target is not None and dtypes.is_floating(target):
                d["_dtype"] = target.name
                d["_aux"] = None
        return self

    def astype(self, dtype: Any = None) -> "Layer":
        """Cast floating-point parameters and buffers to `dtype`. In place; returns self."""
        return self.to(dtype=dtype)

    def float(self) -> "Layer":
        return self.astype("float32")

    def double(self) -> "Layer":
        return self.astype("float64")

    def half(self) -> "Layer":
        return self.astype("float16")

    def bfloat16(self) -> "Layer":
        return self.astype("bfloat16")

    def full_name(self) -> str:
        """The layer's unique name, e.g. 'linear_0'."""
        return self.__dict__["_full_name"]

    # -- state dict -------------------------------------------------------------------------------
    def state_dict(self, destination: Any = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True, keep_vars: bool = True
                   ) -> collections.OrderedDict:
        """Parameters and persistable buffers by dotted name ('fc1.weight', 'bn._mean', ...), as Paddle."""
        return _state_dict.state_dict(self, destination, include_sublayers, structured_name_prefix)

    def set_state_dict(self, state_dict: Any, use_structured_name: bool = True, strict: bool = True
                       ) -> tuple[list[str], list[str]]:
        """Load values (padax/numpy/Paddle tensors) by name, in place. Missing and unexpected keys and shape
        mismatches are all listed in one error (strict=False: only shape mismatches are errors, and the
        missing and unexpected keys are returned, as Paddle does)."""
        return _state_dict.set_state_dict(self, state_dict, strict)

    set_dict = set_state_dict
    load_dict = set_state_dict

    # -- printing ---------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The configuration shown inside the layer's repr (override in subclasses)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        subs = [f"({name}): " + _indent(repr(layer), 2) for name, layer in self.__dict__["_sub_layers"].items()]
        out = type(self).__name__ + "("
        if len(lines) > 1:
            out += "\n  " + "\n  ".join(lines) + "\n"
        elif lines:
            out += lines[0]
        if subs:
            out += "\n  " + "\n  ".join(subs) + "\n"
        return out + ")"


def _holds_layers_or_arrays(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return any(isinstance(v, Layer) or is_array(v)
               or (isinstance(v, (list, tuple, dict)) and _holds_layers_or_arrays(v)) for v in items)


def _indent(text: str, n: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * n + line for line in rest])


def _stop_gradient(value: Any) -> Any:
    return padax.stop_gradient(value)


_pytree.register(Layer)
node_state.install(pairs=_pytree.state_pairs, write=setattr, find=_pytree.find_layer,
                   changed=_pytree.changed_slots)
