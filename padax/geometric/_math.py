"""Segment reductions: rows of `data` that share a segment id are summed / averaged / maxed / mined.

The output has max(segment_ids) + 1 rows (Paddle's rule: it needs concrete ids) or `out_size` rows
when given (a padax keyword, for static shapes under jit and vmap). Empty segments are 0.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax
from padax.geometric._message_passing import _index, _reduce


def _segment(op: str, data: Any, segment_ids: Any, reduce_op: str, out_size: int | None) -> Any:
    data = padax.asarray(data)
    ids = _index(op, "segment_ids", segment_ids)
    if ids.shape[0] != data.shape[0]:
        raise ValueError(f"{op}: segment_ids needs one entry per row of data ({data.shape[0]}), got "
                         f"{ids.shape[0]}")
    if out_size is None:
        try:
            host = np.asarray(ids)
        except TypeError as e:
            raise TypeError(f"{op}: the number of segments is max(segment_ids) + 1, which needs concrete ids; "
                            f"under jit or vmap pass out_size=<number of segments>") from e
        rows = int(host.max()) + 1 if host.size else 0
    else:
        rows = int(out_size)
    return _reduce(data, ids, rows, reduce_op)


def segment_sum(data: Any, segment_ids: Any, name: str | None = None, *, out_size: int | None = None) -> Any:
    """Sum of the rows of data that share a segment id.

    Args:
        data: an array [N, ...] (float or int).
        segment_ids: int32/int64 [N], the segment of each row (Paddle expects them sorted; padax does not).
        name: unused (Paddle's).
        out_size: padax's keyword: the number of segments (default max(segment_ids) + 1, which needs
            concrete ids; give it under jit or vmap).

    Returns:
        An array [num_segments, ...] of data's dtype; empty segments are 0.

    Examples:
        >>> import padax
        >>> data = padax.to_tensor([[1., 2., 3.], [3., 2., 1.], [4., 5., 6.]])
        >>> padax.geometric.segment_sum(data, padax.to_tensor([0, 0, 1])).tolist()
        [[4.0, 4.0, 4.0], [4.0, 5.0, 6.0]]
    """
    return _segment("segment_sum", data, segment_ids, "sum", out_size)


def segment_mean(data: Any, segment_ids: Any, name: str | None = None, *, out_size: int | None = None) -> Any:
    """Mean of the rows of data that share a segment id (arguments as `segment_sum`).

    Args:
        data: an array [N, ...].
        segment_ids: int32/int64 [N].
        name: unused (Paddle's).
        out_size: padax's keyword: the number of segments (see `segment_sum`).

    Returns:
        An array [num_segments, ...]; empty segments are 0.

    Examples:
        >>> import padax
        >>> data = padax.to_tensor([[1., 2., 3.], [3., 2., 1.], [4., 5., 6.]])
        >>> padax.geometric.segment_mean(data, padax.to_tensor([0, 0, 1])).tolist()
        [[2.0, 2.0, 2.0], [4.0, 5.0, 6.0]]
    """
    return _segment("segment_mean", data, segment_ids, "mean", out_size)


def segment_max(data: Any, segment_ids: Any, name: str | None = None, *, out_size: int | None = None) -> Any:
    """Elementwise maximum over the rows of data that share a segment id (arguments as `segment_sum`).

    Args:
        data: an array [N, ...].
        segment_ids: int32/int64 [N].
        name: unused (Paddle's).
        out_size: padax's keyword: the number of segments (see `segment_sum`).

    Returns:
        An array [num_segments, ...]; empty segments are 0 (as Paddle).

    Examples:
        >>> import padax
        >>> data = padax.to_tensor([[1., 2., 3.], [3., 2., 1.], [4., 5., 6.]])
        >>> padax.geometric.segment_max(data, padax.to_tensor([0, 0, 2])).tolist()
        [[3.0, 2.0, 3.0], [0.0, 0.0, 0.0], [4.0, 5.0, 6.0]]
    """
    return _segment("segment_max", data, segment_ids, "max", out_size)


def segment_min(data: Any, segment_ids: Any, name: str | None = None, *, out_size: int | None = None) -> Any:
    """Elementwise minimum over the rows of data that share a segment id (arguments as `segment_sum`).

    Args:
        data: an array [N, ...].
        segment_ids: int32/int64 [N].
        name: unused (Paddle's).
        out_size: padax's keyword: the number of segments (see `segment_sum`).

    Returns:
        An array [num_segments, ...]; empty segments are 0 (as Paddle).

    Examples:
        >>> import padax
        >>> data = padax.to_tensor([[1., 2., 3.], [3., 2., 1.], [4., 5., 6.]])
        >>> padax.geometric.segment_min(data, padax.to_tensor([0, 0, 1])).tolist()
        [[1.0, 2.0, 1.0], [4.0, 5.0, 6.0]]
    """
    return _segment("segment_min", data, segment_ids, "min", out_size)
