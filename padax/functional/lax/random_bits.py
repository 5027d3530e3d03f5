"""rng_bit_generator: XLA's stateless counter-based generator of raw random bits.

The key (state) is uint32[4] (or uint64[2] with x64); every call returns a
new key to chain and an array of uniformly distributed unsigned bits. The
bit stream depends on the algorithm and, for RNG_DEFAULT, on the backend.
"""
from __future__ import annotations

import enum

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import defzero_jvp
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, full
from padax.functional.lax.structural import concatenate, moveaxis, reshape, slice as slice_


class RandomAlgorithm(enum.IntEnum):
    """The bit generator XLA runs in `rng_bit_generator` (jax.lax.RandomAlgorithm's names and values).

    Args:
        value: 0 (RNG_DEFAULT, the backend's choice), 1 (RNG_THREE_FRY) or 2 (RNG_PHILOX); from_any also
            takes the names ('philox', 'rng_three_fry', ...).

    Returns:
        The RandomAlgorithm member.

    Examples:
        >>> from padax import lax
        >>> list(lax.RandomAlgorithm)
        [RandomAlgorithm.RNG_DEFAULT, RandomAlgorithm.RNG_THREE_FRY, RandomAlgorithm.RNG_PHILOX]
        >>> lax.RandomAlgorithm.from_any('philox')
        RandomAlgorithm.RNG_PHILOX
    """
    RNG_DEFAULT = 0       # the backend's choice
    RNG_THREE_FRY = 1     # Threefry-2x32
    RNG_PHILOX = 2        # Philox-4x32
    DEFAULT = 0
    THREE_FRY = 1
    PHILOX = 2

    def __repr__(self) -> str:
        return f"RandomAlgorithm.{self.name}"

    __str__ = __repr__

    @staticmethod
    def from_any(algorithm) -> "RandomAlgorithm":
        if isinstance(algorithm, str):
            name = algorithm.upper()
            name = name if name.startswith("RNG_") else "RNG_" + name
            if name not in RandomAlgorithm.__members__:
                raise ValueError(f"rng_bit_generator: unknown algorithm {algorithm!r}; expected "
                                 "'default', 'three_fry' or 'philox'")
            return RandomAlgorithm[name]
        return RandomAlgorithm(int(algorithm))


_BITS_DTYPES = (dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64)

rng_bit_generator_p = Primitive("rng_bit_generator", multiple_results=True)


@rng_bit_generator_p.def_abstract_eval
def _rbg_abstract(key, *, shape, dtype, algorithm):
    op = "rng_bit_generator"
    if not ((key.dtype == dtypes.uint32 and key.shape == (4,))
            or (key.dtype == dtypes.uint64 and key.shape == (2,))):
        raise op_type_error(op, f"key must be u32[4] (or u64[2]), got {key.str_short()}")
    if dtype not in _BITS_DTYPES:
        raise op_type_error(op, f"dtype must be uint8, uint16, uint32 or uint64, got {dtype.name}")
    if any(d < 0 for d in shape):
        raise op_value_error(op, f"shape {shape} has a negative dimension")
    return [ShapedArray(key.shape, key.dtype, False), ShapedArray(tuple(shape), dtype, False)]


def rng_bit_generator(key, shape, dtype=dtypes.uint32, algorithm=RandomAlgorithm.RNG_DEFAULT):
    """(new_key, bits): uniformly random unsigned `bits` of `shape` from a u32[4] `key` (XLA RngBitGenerator).

    Args:
        key: a uint32[4] (or uint64[2]) state.
        shape: the shape of the bits.
        dtype: uint8, uint16, uint32 or uint64.
        algorithm: a `RandomAlgorithm` (or 'default', 'three_fry', 'philox').

    Returns:
        The next key (same shape and dtype as `key`) and the `bits`.

    Examples:
        >>> import numpy as np
        >>> from padax import lax
        >>> key = np.array([0, 0, 0, 42], np.uint32)
        >>> new_key, bits = lax.rng_bit_generator(key, (3,), algorithm=lax.RandomAlgorithm.RNG_THREE_FRY)
        >>> new_key.tolist(), bits.tolist()           # the same bits as jax.lax.rng_bit_generator
        ([0, 0, 2, 42], [2814562516, 111458285, 3955861731])
    """
    d = dtypes.canonicalize(dtype)
    if d not in _BITS_DTYPES:
        raise TypeError(f"rng_bit_generator: dtype must be uint8, uint16, uint32 or uint64, got {d.name}")
    key = asarray(key)
    new_key, bits = rng_bit_generator_p.bind(key, shape=tuple(int(s) for s in shape), dtype=d,
                                             algorithm=RandomAlgorithm.from_any(algorithm))
    return new_key, bits


__all__ = ["RandomAlgorithm", "rng_bit_generator"]


# ---- differentiation and batching ----------------------------------------------------------
# Outputs are integers, so there is no derivative: the jvp rule only reports zero tangents.
# XLA's RngBitGenerator takes a single key, so a batch of keys becomes one generator call per
# key, unrolled at trace time (the batch size is static) and stacked. This keeps vmap(f) exactly
# equal to calling f on each key; the program grows linearly with the batch size, which suits
# the usual small key batches (jax instead draws every batch element from the first key).


def _rbg_batch(args, dims, *, shape, dtype, algorithm):
    keys, = args
    bd, = dims
    keys = moveaxis(keys, bd, 0)
    n, k = get_aval(keys).shape
    if n == 0:
        return [full((0, k), 0, get_aval(keys).dtype), full((0,) + tuple(shape), 0, dtype)], [0, 0]
    new_keys, bits = [], []
    for i in range(n):
        key = reshape(slice_(keys, (i, 0), (i + 1, k)), (k,))
        nk, b = rng_bit_generator_p.bind(key, shape=shape, dtype=dtype, algorithm=algorithm)
        new_keys.append(reshape(nk, (1, k)))
        bits.append(reshape(b, (1,) + tuple(shape)))
    if n == 1:
        return [new_keys[0], bits[0]], [0, 0]
    return [concatenate(new_keys, 0), concatenate(bits, 0)], [0, 0]


defzero_jvp(rng_bit_generator_p)
rng_bit_generator_p.batch_rule = _rbg_batch
