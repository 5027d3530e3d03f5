"""`auto_cast` (Paddle's mixed precision context) and `decorate` (O2: low-precision parameters).

    with padax.amp.auto_cast(level="O1", dtype="bfloat16"):
        loss = loss_fn(model, x, y)          # matmuls/convs in bfloat16, exp/log/sums in float32

The context installs an `AmpPolicy` consulted wherever a primitive is bound, so it acts in eager
mode and on everything traced inside it (jit, grad, vmap); a jitted function keeps separate
programs for each policy it was traced under.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterable, Iterator

import numpy as np

import padax.nn as nn
from padax import dtypes
from padax.amp import lists
from padax.amp.debugging import OperatorStats as _OperatorStats
from padax.amp.policy import AmpPolicy
from padax.core.trace import bind_policy, trace_state
from padax.functional._arrays import is_array as _is_array

_LEVELS = ("O0", "OD", "O1", "O2")


def _amp_dtype(dtype: Any, op: str) -> str:
    name = getattr(dtype, "name", dtype)
    name = str(name).lower() if name is not None else name
    if name not in ("float16", "bfloat16"):
        raise ValueError(f"{op}: dtype must be 'float16' or 'bfloat16', got {dtype!r}")
    return name


def _amp_level(level: Any, op: str) -> str:
    lvl = str(level).upper()
    if lvl not in _LEVELS:
        raise ValueError(f"{op}: level must be one of {', '.join(_LEVELS)}, got {level!r}")
    return lvl


def _custom(names: Iterable[str] | None, which: str) -> frozenset:
    if names is None:
        return frozenset()
    if isinstance(names, str):
        raise TypeError(f"padax.amp.auto_cast: {which} must be a list/set/tuple of op names, got the string {names!r}")
    return frozenset(names)


def make_policy(custom_white_list=None, custom_black_list=None, level: str = "O1", dtype: str = "float16",
                use_promote: bool = True) -> AmpPolicy | None:
    """The policy for these settings (None at level O0): Paddle's lists for (dtype, level) updated with
    the custom lists as Paddle does (a custom white name leaves the black list and vice versa)."""
    level, dtype = _amp_level(level, "padax.amp.auto_cast"), _amp_dtype(dtype, "padax.amp.auto_cast")
    if level == "O0":
        return None
    cw, cb = _custom(custom_white_list, "custom_white_list"), _custom(custom_black_list, "custom_black_list")
    if cw & cb:
        raise ValueError(f"padax.amp.auto_cast: op(s) {sorted(cw & cb)} are in both the custom white list and the "
                         "custom black list")
    unknown = lists.unknown_names(cw | cb)
    if unknown:
        raise ValueError(f"padax.amp.auto_cast: unknown op name(s) {unknown} in the custom lists; name Paddle ops "
                         "(e.g. 'matmul_v2', 'conv2d', 'softmax', 'elementwise_add') or padax primitives (e.g. "
                         "'dot_general', 'exp', 'reduce_sum'; see padax.make_jaxpr of your function)")
    bad = sorted(cw & lists.COMPOSITES)
    if bad:
        raise ValueError(f"padax.amp.auto_cast: {bad} in custom_white_list are composite ops in padax, computed "
                         "with primitives (exp, log, reduce_sum, ...) that every other op shares; list those "
                         "primitives instead if all of them should run in low precision")
    white = (lists.white_list()[dtype][level] - cb) | cw
    black = (lists.black_list()[dtype][level] - cw) | cb
    white_p, black_p = lists.primitives(white), lists.primitives(black)
    # a primitive named (directly or through its Paddle op) by a custom list follows that list
    white_p = (white_p - lists.primitives(cb)) | lists.primitives(cw)
    black_p = (black_p - lists.primitives(cw)) - white_p
    gray = "float32" if level == "OD" else ("low" if level == "O2" and not use_promote else "keep")
    return AmpPolicy(level, dtypes.canonicalize_dtype(dtype), white_p, black_p, gray, frozenset(black))


@contextlib.contextmanager
def auto_cast(enable: bool = True, custom_white_list: Iterable[str] | None = None,
              custom_black_list: Iterable[str] | None = None, level: str = "O1", dtype: str = "float16",
              use_promote: bool = True) -> Iterator[None]:
    """Paddle's `paddle.amp.auto_cast`: run white-list ops (matmul, conv, einsum, linear) in `dtype` and
    black-list ops (exp, log, reductions: so softmax, norms and losses) in float32 (O1); at O2 every op
    but the black list follows its (low-precision) inputs. `enable=False` turns mixed precision off inside.

    Examples:
        >>> import padax
        >>> x = padax.ones([2, 2])
        >>> with padax.amp.auto_cast(dtype="bfloat16"):
        ...     y = x @ x          # white list: low precision
        ...     z = padax.exp(y)   # black list: float32
        ...
        >>> str(y.dtype), str(z.dtype), y.tolist()
        ('bfloat16', 'float32', [[2.0, 2.0], [2.0, 2.0]])
    """
    policy = make_policy(custom_white_list, custom_black_list, level, dtype, use_promote) if enable else None
    outer = trace_state.bind_policy
    if isinstance(outer, _OperatorStats):  # keep counting operator stats around the new policy
        policy = outer.around(policy)
    with bind_policy(policy):
        yield


amp_guard = auto_cast


def autocast(device_type: str | None = None, dtype: str = "float16", enabled: bool = True,
             cache_enabled: bool = True):
    """Paddle's torch-style alias: `autocast(device_type, dtype, enabled)` is `auto_cast(enabled, dtype=dtype)`.

    Args:
        device_type: accepted for Paddle compatibility; unused.
        dtype: 'float16' or 'bfloat16'.
        enabled: False turns mixed precision off inside the block.
        cache_enabled: accepted; unused.

    Returns:
        The same context manager as `auto_cast(enabled, dtype=dtype)`.

    Examples:
        >>> import padax
        >>> with padax.amp.autocast("cpu", dtype="bfloat16"):
        ...     print(padax.amp.is_autocast_enabled(), padax.amp.get_autocast_dtype())
        ...
        True bfloat16
    """
    return auto_cast(enable=enabled, dtype=dtype)


def current_policy() -> AmpPolicy | None:
    """The active auto_cast policy (None outside auto_cast)."""
    policy = trace_state.bind_policy
    policy = getattr(policy, "inner", policy)  # (inside operator stats collection)
    return policy if isinstance(policy, AmpPolicy) else None


def is_autocast_enabled(device_type: Any = None) -> bool:
    """Whether an enabled `auto_cast` is active in this thread.

    Args:
        device_type: accepted for Paddle compatibility; unused.

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.amp.is_autocast_enabled()
        False
        >>> with padax.amp.auto_cast():
        ...     print(padax.amp.is_autocast_enabled())
        ...
        True
    """
    return current_policy() is not None


def get_autocast_dtype(device_type: Any = None) -> str:
    """The low-precision dtype of the active `auto_cast` ('float32' when none is active).

    Args:
        device_type: accepted for Paddle compatibility; unused.

    Returns:
        A dtype name: 'float16', 'bfloat16', or 'float32' outside auto_cast.

    Examples:
        >>> import padax
        >>> padax.amp.get_autocast_dtype()
        'float32'
        >>> with padax.amp.auto_cast(dtype="float16"):
        ...     print(padax.amp.get_autocast_dtype())
        ...
        float16
    """
    policy = current_policy()
    return "float32" if policy is None else policy.dtype.name


def _keeps_float32(layer: Any, dtype: str) -> bool:
    """Paddle's rule: batch norms keep float32 parameters; layer/instance norms too when casting to float16."""
    if getattr(layer, "_cast_to_low_precision", True) is False:
        return True
    if isinstance(layer, (nn.BatchNorm, nn.BatchNorm1D, nn.BatchNorm2D, nn.BatchNorm3D, nn.SyncBatchNorm)):
        return True
    return dtype == "float16" and isinstance(layer, (nn.LayerNorm, nn.InstanceNorm1D, nn.InstanceNorm2D,
                                                     nn.InstanceNorm3D))


def _excluded(layer: Any, excluded: tuple) -> bool:
    """Whether `layer` is one of the excluded layers or an instance of an excluded layer type."""
    return any(isinstance(layer, e) if isinstance(e, type) else layer is e for e in excluded)


def _cast_layer_params(model: Any, dtype: str, excluded: tuple) -> None:
    """Cast each sublayer's own float32 parameters to `dtype` in place, except float32-keeping/excluded layers."""
    target = dtypes.canonicalize_dtype(dtype)
    for layer in model.sublayers(include_self=True):
        if _keeps_float32(layer, dtype) or _excluded(layer, excluded):
            continue
        for name, p in list(layer.named_parameters(include_sublayers=False)):
            if _is_array(p) and p.dtype == np.float32:
                layer._set_tensor(name, p.astype(target))


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: bool | None = None, save_dtype: str | None = None, master_grad: bool = False,
             excluded_layers: Any = None) -> Any:
    """Paddle's `paddle.amp.decorate`. O1: nothing changes. O2: the models' float32 parameters become
    `dtype` (in place; batch norms keep float32, as in Paddle) and the optimizers keep float32 master
    weights (`master_weight` None or True), updating those and casting down. Returns models, or
    (models, optimizers) when optimizers are given.

    Args:
        models: a padax.nn.Layer or a list of them.
        optimizers: a padax optimizer, a list of them, or None.
        level: 'O1' (nothing changes) or 'O2' (parameters cast to `dtype`).
        dtype: 'float16' or 'bfloat16'.
        master_weight: for O2, keep float32 master weights in the optimizers (None or True: yes).
        save_dtype: only None is supported (each parameter is saved in its own dtype).
        master_grad: accepted for Paddle compatibility.
        excluded_layers: layers, or layer classes, whose parameters stay float32 under O2.

    Returns:
        `models` (cast in place for O2), or `(models, optimizers)` when optimizers are given.

    Examples:
        >>> import padax
        >>> model, opt = padax.nn.Linear(2, 2), padax.optimizer.AdamW(learning_rate=0.1)
        >>> model, opt = padax.amp.decorate(model, opt, level="O2", dtype="bfloat16")
        >>> str(model.weight.dtype), opt.multi_precision  # low-precision weights, float32 master copies
        ('bfloat16', True)
    """
    level, dtype = _amp_level(level, "padax.amp.decorate"), _amp_dtype(dtype, "padax.amp.decorate")
    model_list = models if isinstance(models, (list, tuple)) else [models]
    for m in model_list:
        if not isinstance(m, nn.Layer):
            raise TypeError(f"padax.amp.decorate: models must be padax.nn.Layer objects, got {type(m).__name__}")
    opt_list = [] if optimizers is None else (optimizers if isinstance(optimizers, (list, tuple)) else [optimizers])
    for o in opt_list:
        if not hasattr(o, "step") or not hasattr(o, "init"):
            raise TypeError(f"padax.amp.decorate: optimizers must be padax optimizers, got {type(o).__name__}")
    if save_dtype is not None:
        raise ValueError(f"padax.amp.decorate: save_dtype={save_dtype!r} is not supported: padax saves each "
                         "parameter in its own dtype; cast a copy (layer.astype(...)) before saving instead")
    if level == "O2":
        if excluded_layers is None:
            excluded: tuple = ()
        else:
            excluded = tuple(excluded_layers) if isinstance(excluded_layers, (list, tuple)) else (excluded_layers,)
        for m in model_list:
            _cast_layer_params(m, dtype, excluded)
        for o in opt_list:
            if master_weight is None or master_weight:
                o.multi_precision = True
    if optimizers is None:
        return models
    return models, optimizers
