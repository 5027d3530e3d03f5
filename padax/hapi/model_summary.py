"""`padax.summary` (Paddle's table of layers, output shapes and parameter counts) and `padax.flops`.

`summary` runs the network abstractly (padax.eval_shape: shapes only, nothing computed) and records
each layer call's input and output shapes. `flops` counts the floating-point operations of the
traced program, every primitive included (inside scan/cond/while/jit sub-programs too), instead of a
per-layer table: a multiply-add of a matmul or convolution counts as one operation (Paddle's
convention), reductions count their input elements, other arithmetic its output elements, and data
movement (reshape, transpose, broadcast, slicing, gathers, dtype conversion) nothing. A scan body
counts `length` times; a while loop's body once (its trip count is not known before running); a
cond the most expensive branch.
"""
from __future__ import annotations

import inspect
import numbers
from collections import OrderedDict
from typing import Any, Callable, Sequence

import numpy as np

import padax
import padax.nn
from padax.extend.core import ClosedJaxpr as _ClosedJaxpr, Jaxpr as _Jaxpr
from padax.nn.layer import _calls

# -- input sizes ----------------------------------------------------------------------------------

def _is_shape(x: Any) -> bool:
    return isinstance(x, (list, tuple)) and all(isinstance(i, numbers.Number) or i is None for i in x)


def _check_shape(shape: Sequence) -> tuple[int, ...]:
    out, unknown = [], 0
    for item in shape:
        if item is not None and (isinstance(item, bool) or not isinstance(item, (int, np.integer))):
            raise TypeError(f"summary: input sizes must be integers (None or -1 for the batch), got {item!r}")
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("summary: in input_size only the batch dimension may be None or -1")
            item = 1
        elif item <= 0:
            raise ValueError(f"summary: expected input sizes greater than zero, got {item}")
        out.append(int(item))
    return tuple(out)


def _input_shapes(input_size: Any) -> list[tuple[int, ...]]:
    """A list of shapes from Paddle's input_size forms (a shape, an int, an InputSpec, or a list of them)."""
    if isinstance(input_size, int):
        return [(input_size,)]
    if hasattr(input_size, "shape") and not isinstance(input_size, (list, tuple)):
        return [_check_shape(tuple(input_size.shape))]
    if _is_shape(input_size):
        return [_check_shape(input_size)]
    if isinstance(input_size, (list, tuple)):
        return [s for item in input_size for s in _input_shapes((item,) if isinstance(item, int) else item)]
    raise TypeError(f"summary: input_size must be a shape tuple, an InputSpec or a list of them, got "
                    f"{type(input_size).__name__}")


def _specs(input_size: Any, dtypes: Any) -> list:
    shapes = _input_shapes(input_size)
    dts = list(dtypes) if isinstance(dtypes, (list, tuple)) else [dtypes or "float32"] * len(shapes)
    if len(dts) != len(shapes):
        raise ValueError(f"summary: {len(shapes)} input shapes but {len(dts)} dtypes")
    return [padax.ShapeDtypeStruct(s, d) for s, d in zip(shapes, dts)]


def _with_eval(net: Any, fn: Callable[[], Any]) -> Any:
    training = net.training
    net.eval()
    try:
        return fn()
    finally:
        net.train(training)


# -- summary --------------------------------------------------------------------------------------

def _shape_of(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_shape_of(v) for v in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _record_layers(net: Any, specs: list) -> OrderedDict:
    """{'Conv2D-1': {input_shape, output_shape, nb_params, trainable_params, trainable}} for each layer call."""
    table: OrderedDict = OrderedDict()
    has_children = bool(net.sublayers())

    def observe(layer: Any, inputs: Any, output: Any) -> None:
        if isinstance(layer, (padax.nn.Sequential, padax.nn.LayerList, padax.nn.LayerDict)):
            return
        if has_children and layer.__dict__["_full_name"] == net.__dict__["_full_name"]:
            return
        try:
            idx = int(layer.__dict__["_full_name"].split("_")[-1])
        except ValueError:
            idx = len(table)
        params = layer.__dict__["_parameters"]
        infos = layer.__dict__["_param_info"]
        counts = {n: int(np.prod(p.shape)) for n, p in params.items() if p is not None}
        trainable = {n: c for n, c in counts.items() if infos[n].trainable}
        table[f"{type(layer).__name__}-{idx + 1}"] = {
            "input_shape": _shape_of(list(inputs)), "output_shape": _shape_of(output),
            "nb_params": sum(counts.values()), "trainable_params": sum(trainable.values()),
            "trainable": bool(trainable) or not counts}

    _calls.observers.append(observe)
    try:
        padax.eval_shape(lambda n, *xs: n(*xs), net, *specs)
    finally:
        _calls.observers.remove(observe)
    return table


def _numel(shape: Any) -> int:
    if shape and isinstance(shape[0], list):
        return sum(_numel(s) for s in shape)
    return int(np.prod(shape)) if shape else 0


def summary_string(net: Any, input_size: Any, dtypes: Any = None) -> tuple[str, dict]:
    """The table `summary` prints, and {'total_params', 'trainable_params'}."""
    specs = _specs(input_size, dtypes)
    table = _record_layers(net, specs)
    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for name, row in table.items():
        widths["layer"] = max(widths["layer"], len(name))
        widths["input"] = max(widths["input"], len(str(row["input_shape"])))
        widths["output"] = max(widths["output"], len(str(row["output_shape"])))
        widths["params"] = max(widths["params"], len(str(row["nb_params"])))
    table_width = max(75, sum(widths.values()) + 5)

    def line(a: str, b: str, c: str, d: str) -> str:
        return (f"{a:^{widths['layer']}} {b:^{widths['input']}} {c:^{widths['output']}} "
                f"{d:^{widths['params']}}\n")

    out = "-" * table_width + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    out += "=" * table_width + "\n"
    total = trainable = total_output = 0
    for name, row in table.items():
        out += line(name, str(row["input_shape"]), str(row["output_shape"]), f"{row['nb_params']:,}")
        total += row["nb_params"]
        total_output += _numel(row["output_shape"])
        if row["trainable"]:
            trainable += row["trainable_params"]
    input_mb = sum(abs(np.prod(s.shape) * 4.0 / 1024 ** 2) for s in specs)
    output_mb = abs(2.0 * total_output * 4.0 / 1024 ** 2)
    params_mb = abs(total * 4.0 / 1024 ** 2)
    out += "=" * table_width + "\n"
    out += f"Total params: {total:,}\nTrainable params: {trainable:,}\nNon-trainable params: {total - trainable:,}\n"
    out += "-" * table_width + "\n"
    out += (f"Input size (MB): {input_mb:0.2f}\nForward/backward pass size (MB): {output_mb:0.2f}\n"
            f"Params size (MB): {params_mb:0.2f}\nEstimated Total Size (MB): {input_mb + output_mb + params_mb:0.2f}\n")
    out += "-" * table_width + "\n"
    return out, {"total_params": int(total), "trainable_params": int(trainable)}


def summary(net: Any, input_size: Any = None, dtypes: Any = None, input: Any = None) -> dict:
    """Print Paddle's table of the network's layers (input/output shapes, parameter counts) for inputs of
    `input_size` (a shape, an InputSpec or a list of them; a None/-1 batch dimension becomes 1) or of the
    example `input`; returns {'total_params', 'trainable_params'}.

    Args:
        net: the padax.nn.Layer.
        input_size: a shape, an InputSpec or a list of them (a None/-1 batch dimension becomes 1).
        dtypes: the input dtypes (default float32).
        input: example inputs, used when input_size is None.

    Returns:
        A dict {'total_params': int, 'trainable_params': int}; the table is printed.

    Examples:
        >>> import padax
        >>> info = padax.summary(padax.nn.Linear(4, 3), (1, 4))  # doctest: +ELLIPSIS
        ---...
         Layer (type)       Input Shape          Output Shape         Param #
        ===...
           Linear-...           [[1, 4]]              [1, 3]               15
        ===...
        Total params: 15
        ...
        >>> info
        {'total_params': 15, 'trainable_params': 15}
    """
    if not isinstance(net, padax.nn.Layer):
        raise TypeError(f"summary: net must be a padax.nn.Layer, got {type(net).__name__}")
    if input_size is None and input is None:
        raise ValueError("summary: input_size and input cannot both be None")
    if input_size is None:
        xs = input if isinstance(input, (list, tuple)) else list(input.values()) if isinstance(input, dict) else [input]
        input_size = [tuple(x.shape) for x in xs]
        dtypes = dtypes or [str(np.dtype(x.dtype)) for x in xs]
    text, info = _with_eval(net, lambda: summary_string(net, input_size, dtypes))
    print(text)
    return info


# -- flops ----------------------------------------------------------------------------------------

FREE = frozenset({
    "reshape", "broadcast_in_dim", "transpose", "squeeze", "expand_dims", "convert_element_type", "slice",
    "dynamic_slice", "dynamic_update_slice", "concatenate", "pad", "gather", "iota", "rev", "copy", "copy_p",
    "stop_gradient", "select_n", "bitcast_convert_type", "device_put", "optimization_barrier", "squeeze_p",
    "reduce_precision", "sharding_constraint", "argsort_indices"})


def _size(var: Any) -> int:
    return int(np.prod(var.aval.shape)) if hasattr(var, "aval") and hasattr(var.aval, "shape") else 0


def _dot_flops(eqn: Any) -> int:
    (lhs_contract, _), _ = eqn.params["dimension_numbers"]
    k = int(np.prod([eqn.invars[0].aval.shape[d] for d in lhs_contract]))
    return _size(eqn.outvars[0]) * k


def _conv_flops(eqn: Any) -> int:
    rhs = eqn.invars[1].aval.shape
    spec = eqn.params["dimension_numbers"].rhs_spec
    per_output = rhs[spec[1]] * int(np.prod([rhs[d] for d in spec[2:]]))
    return _size(eqn.outvars[0]) * per_output


RULES: dict[str, Callable[[Any], int]] = {"dot_general": _dot_flops, "conv_general_dilated": _conv_flops}


def _sub_jaxprs(value: Any) -> list:
    if isinstance(value, _ClosedJaxpr):
        return [value.jaxpr]
    if isinstance(value, _Jaxpr):
        return [value]
    if isinstance(value, (list, tuple)):
        return [j for v in value for j in _sub_jaxprs(v)]
    return []


def count_jaxpr(jaxpr: Any, rules: dict, per_primitive: dict) -> int:
    """The FLOPs of a jaxpr (and its sub-programs); adds each primitive's share to `per_primitive`."""
    total = 0
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        subs = [j for v in eqn.params.values() for j in _sub_jaxprs(v)]
        if subs:
            costs = [count_jaxpr(j, rules, per_primitive) for j in subs]
            if name == "cond":
                n = max(costs)
            else:
                n = sum(costs) * (int(eqn.params.get("length", 1)) if name == "scan" else 1)
                if name == "scan":  # the body was added to per_primitive once; add the other iterations' share
                    _scale_last(per_primitive, subs, rules, int(eqn.params.get("length", 1)) - 1)
            total += n
            continue
        if name in rules:
            n = int(rules[name](eqn))
        elif name in FREE:
            n = 0
        elif name.startswith(("reduce_", "argmax", "argmin", "cum")):
            n = sum(_size(v) for v in eqn.invars)
        else:
            n = sum(_size(v) for v in eqn.outvars)
        per_primitive[name] = per_primitive.get(name, 0) + n
        total += n
    return total


def _scale_last(per_primitive: dict, subs: list, rules: dict, extra: int) -> None:
    if extra <= 0:
        return
    share: dict = {}
    for j in subs:
        count_jaxpr(j, rules, share)
    for k, v in share.items():
        per_primitive[k] = per_primitive.get(k, 0) + v * extra


def flops(net: Any, input_size: Any, custom_ops: dict | None = None, print_detail: bool = False) -> int:
    """FLOPs of one forward pass of `net` (a Layer or a function) on inputs of `input_size` (see the module
    docstring for what counts). `custom_ops` maps primitive names to functions eqn -> FLOPs that replace
    the built-in counting; print_detail prints the count per primitive.

    Args:
        net: a padax.nn.Layer or a function.
        input_size: the input shape, or a list of shapes (float32 inputs).
        custom_ops: {primitive name: function eqn -> FLOPs} replacing the built-in counts.
        print_detail: print the count per primitive.

    Returns:
        The FLOP count (int).

    Examples:
        >>> import padax
        >>> padax.flops(padax.nn.Linear(4, 3), [2, 4])  # 2 * 4 * 3 multiply-adds + 2 * 3 bias additions
        30
    """
    if not (isinstance(net, padax.nn.Layer) or inspect.isfunction(net) or inspect.ismethod(net)):
        raise TypeError(f"flops: net must be a padax.nn.Layer or a function, got {type(net).__name__}")
    rules = dict(RULES)
    for k, fn in (custom_ops or {}).items():
        if not isinstance(k, str) or not callable(fn):
            raise TypeError("flops: custom_ops maps primitive names (str, e.g. 'dot_general') to functions "
                            f"eqn -> int; got {type(k).__name__} -> {type(fn).__name__}")
        rules[k] = fn
    specs = _specs(input_size, None)
    if isinstance(net, padax.nn.Layer):
        closed = _with_eval(net, lambda: padax.make_jaxpr(lambda n, *xs: n(*xs))(net, *specs))
    else:
        closed = padax.make_jaxpr(net)(*specs)
    per_primitive: dict = {}
    total = count_jaxpr(closed.jaxpr, rules, per_primitive)
    if print_detail:
        width = max([len(k) for k in per_primitive] + [9])
        print(f"{'Primitive':<{width}}  {'FLOPs':>14}")
        for k, v in sorted(per_primitive.items(), key=lambda kv: -kv[1]):
            print(f"{k:<{width}}  {v:>14,}")
        print(f"Total Flops: {total}     Total Params: "
              f"{sum(int(np.prod(p.shape)) for p in net.parameters()) if isinstance(net, padax.nn.Layer) else 0}")
    return int(total)
