"""`padax.amp.debugging`: Paddle's operator statistics (which dtype each op ran in) and `check_numerics`.

    with padax.amp.debugging.collect_operator_stats():
        with padax.amp.auto_cast(dtype="bfloat16"):
            loss = loss_fn(model, x, y)
    # prints, per primitive, its calls in float16 / bfloat16 / float32 / other dtypes

Calls are counted where primitives are bound (the same place `auto_cast` casts), after the cast, so
the table shows the dtype each op ran in. Eager ops count on every call; a jitted function counts
its program's primitives when it is traced (it is traced afresh inside each collection).
"""
from __future__ import annotations

import collections
import contextlib
import enum
from typing import Any, Iterator

import numpy as np

import padax
from padax.amp.policy import _F32, _LOW
from padax.core.trace import Tracer, bind_policy, trace_state
from padax.functional import _fast

_COLUMNS = (np.dtype("float16"), sorted(_LOW, key=str)[0], _F32)  # float16, bfloat16, float32; then other


class DebugMode(enum.Enum):
    """Paddle's check modes: abort on NaN/inf (eager), report NaN/inf, report overflow, report all."""
    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3


class OperatorStats:
    """A bind policy that counts primitive calls by dtype, around an optional inner (auto_cast) policy.
    Compared by identity: a jitted function is traced afresh inside each collection."""

    def __init__(self, inner: Any = None, counts: dict | None = None):
        self.inner = inner
        self.counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0]) if counts is None else counts

    def around(self, inner: Any) -> "OperatorStats":
        """The same counters around another inner policy (an auto_cast entered inside the collection)."""
        return OperatorStats(inner, self.counts)

    def __call__(self, prim, args: tuple, params: dict) -> tuple:
        if self.inner is not None:
            args = self.inner(prim, args, params)
        dt = next((a.dtype for a in args if getattr(a, "dtype", None) is not None
                   and (np.dtype(a.dtype).kind in "fc" or np.dtype(a.dtype) in _LOW)), None)
        column = _COLUMNS.index(dt) if dt in _COLUMNS else 3
        self.counts[prim.name][column] += 1
        return args


def _print_operator_stats(counts: dict) -> None:
    print("<{:-^120}>".format(" op list "))
    print("<{:-^40}".format(" Op Name "), "|", "{:-^17}".format(" FP16 Calls "), "|", "{:-^17}".format(" BF16 Calls "),
          "|", "{:-^17}".format(" FP32 Calls"), "|", "{:-^17}>".format(" Other Calls "))
    for name in sorted(counts):
        c = counts[name]
        print(f"  {name:<40}|  {c[0]:<17}|  {c[1]:<17}|  {c[2]:<17}|  {c[3]:<17}")
    print("<{:-^120}>\n".format(" op count: " + str(len(counts)) + " "))


_active: list = []  # (context manager, stats) of enable_operator_stats_collection, innermost last


def enable_operator_stats_collection() -> None:
    """Start counting primitive calls by dtype in this thread (printed by `disable_operator_stats_collection`)."""
    outer = trace_state.bind_policy
    stats = OperatorStats(outer.inner if isinstance(outer, OperatorStats) else outer)
    cm = bind_policy(stats)
    cm.__enter__()
    _fast.suspend()  # the compiled twins of eager ops would skip the counting bind
    _active.append((cm, stats))


def disable_operator_stats_collection() -> dict:
    """Stop counting, print Paddle's table of calls per op and dtype, and return it
    ({primitive name: [float16, bfloat16, float32, other] calls})."""
    if not _active:
        raise RuntimeError("padax.amp.debugging.disable_operator_stats_collection: collection is not enabled")
    cm, stats = _active.pop()
    cm.__exit__(None, None, None)
    _fast.resume()
    counts = {k: list(v) for k, v in stats.counts.items()}
    _print_operator_stats(counts)
    return counts


@contextlib.contextmanager
def collect_operator_stats() -> Iterator[None]:
    """Count primitive calls by dtype inside the block and print the table at its end."""
    enable_operator_stats_collection()
    try:
        yield
    finally:
        disable_operator_stats_collection()


def check_numerics(tensor: Any, op_type: str = "", var_name: str = "",
                   debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT) -> tuple[Any, Any]:
    """Paddle's check: (stats, values) with stats = [NaN count, inf count, zero count] (int64) and values =
    [max, min, mean] (float32; max and min skip NaNs). In CHECK_NAN_INF_AND_ABORT mode a tensor with a
    NaN or inf raises RuntimeError; that needs concrete values, so inside jit use DebugMode.CHECK_NAN_INF
    (or padax.checkify)."""
    x = padax.to_tensor(tensor) if not hasattr(tensor, "dtype") else tensor
    xf = x.astype("float32")
    nan, inf = padax.isnan(xf), padax.isinf(xf)
    stats = padax.stack([nan.sum(), inf.sum(), (xf == 0).sum()]).astype("int64")
    big = padax.to_tensor(np.float32(np.inf))
    has = (~nan).any()
    vmax = padax.where(has, padax.where(nan, -big, xf).max(), padax.to_tensor(np.float32(np.nan)))
    vmin = padax.where(has, padax.where(nan, big, xf).min(), padax.to_tensor(np.float32(np.nan)))
    values = padax.stack([vmax, vmin, xf.mean()])
    if debug_mode is DebugMode.CHECK_NAN_INF_AND_ABORT:
        if isinstance(stats, Tracer):
            raise TypeError("padax.amp.debugging.check_numerics: DebugMode.CHECK_NAN_INF_AND_ABORT needs concrete "
                            "values and cannot abort inside jit/grad/vmap; use DebugMode.CHECK_NAN_INF there (and "
                            "test the returned stats) or padax.checkify")
        s = np.asarray(stats)
        if s[0] or s[1]:
            raise RuntimeError(f"There are NAN or INF (num_nan={s[0]}, num_inf={s[1]}, num_zero={s[2]}) in "
                               f"[op={op_type}, tensor={var_name}, dtype={x.dtype}]")
    return stats, values


__all__ = ["DebugMode", "check_numerics", "collect_operator_stats", "enable_operator_stats_collection",
           "disable_operator_stats_collection"]
