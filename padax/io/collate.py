"""Paddle's default collation: a list of samples -> one batch with the samples' structure.

numpy arrays (and padax Tensors) are stacked on a new axis 0, numbers become a numpy array,
strings stay a list, dicts are collated key by key and lists/tuples field by field (a list
comes out, as in Paddle). Everything stays on the host; the DataLoader puts the arrays on
the device afterwards.
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import padax


class SampleShapeError(ValueError):
    """Samples of one batch disagree in the shape of a field (`where`: the field's path in the sample).

    Args:
        where: the field's path in the sample.
        first, other: the positions of the two disagreeing samples.
        first_shape, other_shape: their shapes.
        indices: the dataset indices of the batch (to name the samples), or None.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> padax.io.default_collate_fn([np.zeros(2), np.zeros(3)])
        Traceback (most recent call last):
            ...
        padax.io.collate.SampleShapeError: cannot batch samples of different shapes: batch element 1...
    """

    def __init__(self, where: str, first: int, first_shape: tuple, other: int, other_shape: tuple,
                 indices: Sequence[int] | None = None):
        self.where, self.first, self.other, self.indices = where, first, other, indices
        self.first_shape, self.other_shape = first_shape, other_shape
        if indices is None:
            a, b = f"batch element {first}", f"batch element {other}"
        else:
            a, b = f"sample index {indices[first]}", f"sample index {indices[other]}"
        field = f" in field {where}" if where else ""
        super().__init__(f"cannot batch samples of different shapes{field}: {b} has shape {other_shape} but "
                         f"{a} has shape {first_shape}; make the dataset return equal shapes (pad or resize) or "
                         "pass a collate_fn that handles them")

    def with_indices(self, indices: Sequence[int]) -> "SampleShapeError":
        """The same error naming the samples by their dataset indices."""
        return SampleShapeError(self.where, self.first, self.first_shape, self.other, self.other_shape, indices)

    def __reduce__(self):
        return SampleShapeError, (self.where, self.first, self.first_shape, self.other, self.other_shape,
                                  self.indices)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, padax.Tensor)


def _stack(batch: list, where: str) -> np.ndarray:
    arrays = [np.asarray(x) for x in batch]
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise SampleShapeError(where, 0, shape, i, a.shape)
    return np.stack(arrays)


def _collate(batch: list, where: str) -> Any:
    sample = batch[0]
    if isinstance(sample, (np.ndarray, np.generic)) or _is_tensor(sample):
        return _stack(batch, where)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return list(batch)
    if isinstance(sample, Mapping):
        return {k: _collate([d[k] for d in batch], f"{where}[{k!r}]") for k in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        for i, s in enumerate(batch):
            if len(s) != n:
                raise ValueError(f"cannot batch samples with different numbers of fields{where and ' at ' + where}: "
                                 f"batch element {i} has {len(s)}, element 0 has {n}")
        return [_collate(list(fields), f"{where}[{j}]") for j, fields in enumerate(zip(*batch))]
    raise TypeError(f"default_collate_fn: samples may hold numpy arrays, Tensors, numbers, strings, dicts, "
                    f"lists and tuples, got {type(sample).__name__}{where and ' at ' + where}")


def default_collate_fn(batch: list) -> Any:
    """Stack a list of samples into one batch (Paddle's default collation).

    Args:
        batch: a list of samples: arrays, numbers, strings, or dicts/lists/tuples of them.

    Returns:
        One batch of the samples' structure with each field stacked into a numpy array (strings: a list).

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> batch = padax.io.default_collate_fn([(np.ones(2), 0), (np.zeros(2), 1)])
        >>> [type(f).__name__ for f in batch], batch[0].shape, batch[1].tolist()
        (['ndarray', 'ndarray'], (2, 2), [0, 1])
        >>> padax.io.default_collate_fn([{"x": np.ones(3)}, {"x": np.ones(3)}])["x"].shape
        (2, 3)
    """
    if not isinstance(batch, (list, tuple)) or not batch:
        raise ValueError("default_collate_fn: expected a non-empty list of samples")
    return _collate(list(batch), "")


def default_convert_fn(batch: Any) -> Any:
    """The collation without batching (batch_size=None): padax Tensors become numpy, the rest is kept.

    Args:
        batch: one sample.

    Returns:
        The sample with padax Tensors converted to numpy arrays.

    Examples:
        >>> import padax
        >>> padax.io.default_convert_fn({"x": padax.ones([2]), "name": "a"})
        {'x': array([1., 1.], dtype=float32), 'name': 'a'}
    """
    if _is_tensor(batch):
        return np.asarray(batch)
    if isinstance(batch, (np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {k: default_convert_fn(v) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        return [default_convert_fn(v) for v in batch]
    return batch
