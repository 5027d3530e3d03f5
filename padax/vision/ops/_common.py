"""Argument handling shared by the detection ops."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional._checks import arg


def tensor(op: str, x: Any, what: str, ndim: int | None = None, last: int | None = None) -> Any:
    """x as a padax array, checked to have `ndim` axes and a last axis of size `last`."""
    x = arg(op, x, what)
    if ndim is not None and x.ndim != ndim:
        raise op_value_error(op, f"{what} must have {ndim} axes, got shape {list(x.shape)}")
    if last is not None and x.shape[-1] != last:
        raise op_value_error(op, f"{what} must have a last axis of {last}, got shape {list(x.shape)}")
    return x


def float_tensor(op: str, x: Any, what: str, ndim: int | None = None, last: int | None = None) -> Any:
    x = tensor(op, x, what, ndim, last)
    return x if padax.is_floating_point(x) else x.astype(padax.get_default_dtype())


def pair(op: str, v: Any, what: str) -> tuple[int, int]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v), int(v)
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return int(v[0]), int(v[1])
    raise op_type_error(op, f"{what} must be an int or a pair of ints, got {v!r}")


def host(op: str, x: Any, what: str, hint: str) -> np.ndarray:
    """The value of x on the host; an error saying `hint` when x is being traced (jit, grad of a
    data-dependent size, ...)."""
    if isinstance(x, Tracer):
        raise op_type_error(op, f"{what} decides the output's size, which is not known while tracing; {hint}")
    return np.asarray(x)


def check_boxes_num(op: str, boxes_num: Any, num_rois: int, batch: int) -> Any:
    """boxes_num [N] (RoI counts per image) as int32, checked against the batch and (when concrete)
    against the number of boxes."""
    counts = tensor(op, boxes_num, "boxes_num", ndim=1)
    if counts.shape[0] != batch:
        raise op_value_error(op, f"boxes_num must have one count per image ({batch}), got shape {list(counts.shape)}")
    if not isinstance(counts, Tracer) and int(np.asarray(counts).sum()) != num_rois:
        raise op_value_error(op, f"boxes_num {np.asarray(counts).tolist()} does not add up to the {num_rois} boxes")
    return counts.astype("int32")


def roi_batch_index(counts: Any, num_rois: int) -> Any:
    """int32 [R]: the image each RoI belongs to, from the per-image counts."""
    ends = padax.cumsum(counts)
    return (padax.arange(num_rois, dtype="int32")[:, None] >= ends[None, :]).astype("int32").sum(axis=1)


def round_half_away(x: Any) -> Any:
    """C's round(): halves go away from zero (numpy and padax.round go to even)."""
    return padax.sign(x) * padax.floor(padax.abs(x) + 0.5)
