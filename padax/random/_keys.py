"""PRNG keys and raw random bits: Threefry-2x32 (default) and XLA's RngBitGenerator ('rbg').

A key is a plain unsigned array, so it passes through jit, vmap and pytrees
like any other value and nothing is hidden:

* threefry2x32: uint32[2]. Threefry-2x32 (Salmon, Moraes, Dror, Shaw, "Parallel
  random numbers: as easy as 1, 2, 3", SC 2011) with 20 rounds is a keyed
  bijection of a pair of 32-bit words. Random bits are the hash of a counter
  (the flat index of each element) under the key, so an array of any shape is
  one vectorised computation, and `split`/`fold_in` are hashes too. Built from
  uint32 add, xor and shifts; the output is the same on every backend.
* rbg: uint32[4], two threefry keys side by side. `split`/`fold_in` act on both
  halves with threefry; bits come from `padax.lax.rng_bit_generator` (XLA's
  backend-chosen generator), which is faster on accelerators but whose stream
  depends on the backend.

The implementation is told by the key's shape, so keys need no wrapper type.
With a fixed key, values are the same eagerly, under jit and under vmap.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import dtypes, jit
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, aval_of, is_array, static_int
from padax.functional.lax.elementwise import (
    add,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    shift_left,
    shift_right_arithmetic,
    shift_right_logical,
)
from padax.functional.lax.random_bits import rng_bit_generator
from padax.functional.lax.structural import (
    broadcast_in_dim,
    concatenate,
    convert_element_type,
    iota,
    reshape,
    slice as _slice,
)

DEFAULT_IMPL = "threefry2x32"
_KEY_SIZE = {"threefry2x32": 2, "rbg": 4}
_IMPL_OF_SIZE = {2: "threefry2x32", 4: "rbg"}
_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: dtypes.uint64}
_MASK32 = 0xFFFFFFFF


# ---- validation ------------------------------------------------------------------------------

def impl_name(impl: Any) -> str:
    """'threefry2x32' (the default, also for None) or 'rbg'."""
    if impl is None:
        return DEFAULT_IMPL
    name = str(impl).lower()
    if name in ("threefry", "threefry2x32", "threefry_2x32"):
        return "threefry2x32"
    if name == "rbg":
        return "rbg"
    raise ValueError(f"unknown PRNG implementation {impl!r}; expected 'threefry2x32' or 'rbg'")


def check_key(op: str, key: Any, batch_ok: bool = False):
    """The key as an array (and its implementation name), or an error that says what a key is.

    Samplers take one key; a batch of keys (shape (..., 2)) is only accepted where
    `batch_ok`, and otherwise the message points to vmap.
    """
    if not is_array(key):
        if not isinstance(key, (np.ndarray, list, tuple)):
            raise op_type_error(op, f"expected a PRNG key (a uint32[2] array from padax.random.key), "
                                    f"got {type(key).__name__}: {key!r}")
        key = np.asarray(key)
        if key.dtype != np.uint32:
            raise op_type_error(op, f"a PRNG key must be uint32, got a {key.dtype} host array; "
                                    "make keys with padax.random.key(seed)")
    key = asarray(key)
    a = aval_of(key)
    if a.dtype != dtypes.uint32:
        raise op_type_error(op, f"a PRNG key must be uint32[2] (threefry2x32) or uint32[4] (rbg), got "
                                f"{a.str_short()}; make keys with padax.random.key(seed)")
    if a.ndim == 0 or a.shape[-1] not in _IMPL_OF_SIZE or (a.ndim != 1 and not batch_ok):
        hint = (" To draw with a batch of keys, map over them with padax.vmap."
                if a.ndim > 1 and a.shape[-1] in _IMPL_OF_SIZE else "")
        raise op_value_error(op, f"expected a single PRNG key, uint32[2] (threefry2x32) or uint32[4] "
                                 f"(rbg), got {a.str_short()}.{hint}")
    return key, _IMPL_OF_SIZE[a.shape[-1]]


def canonical_shape(op: str, shape: Any) -> tuple[int, ...]:
    """A static shape (int or sequence of non-negative ints) as a tuple."""
    if shape is None:
        return ()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (list, tuple)):
        raise op_type_error(op, f"shape must be an int or a tuple of ints, got {type(shape).__name__}: {shape!r}")
    out = tuple(static_int(op, d, "each shape entry") for d in shape)
    if any(d < 0 for d in out):
        raise op_value_error(op, f"shape {out} has a negative dimension")
    return out


# ---- Threefry-2x32 ---------------------------------------------------------------------------

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA  # the key-schedule constant of Threefry


def _rotl(x, r: int):
    return bitwise_or(shift_left(x, r), shift_right_logical(x, 32 - r))


def threefry2x32(k0, k1, x0, x1):
    """Threefry-2x32, 20 rounds: the keyed hash of counter words (x0, x1) under key words (k0, k1).

    Five groups of four add-rotate-xor rounds, with the key schedule (k0, k1, k0 ^ k1 ^ parity)
    injected before the first group and after each group.

    Args:
        k0, k1: the key words; x0, x1: the counter words. All four are uint32 arrays of one shape
            (broadcast the key words first).

    Returns:
        The two uint32 output words.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> zero = np.zeros(1, np.uint32)
        >>> [w.tolist() for w in padax.random.threefry2x32(zero, zero, zero, zero)]   # Random123's test vector
        [[1797259609], [2579123966]]
    """
    ks = (k0, k1, bitwise_xor(bitwise_xor(k0, k1), _PARITY))
    x0, x1 = add(x0, ks[0]), add(x1, ks[1])
    for group in range(5):
        for r in _ROTATIONS[group % 2]:
            x0 = add(x0, x1)
            x1 = bitwise_xor(_rotl(x1, r), x0)
        x0 = add(x0, ks[(group + 1) % 3])
        x1 = add(add(x1, ks[(group + 2) % 3]), group + 1)
    return x0, x1


def _words(key, shape):
    """The two uint32 words of a threefry key, each broadcast to `shape`."""
    w = [reshape(_slice(key, (i,), (i + 1,)), ()) for i in (0, 1)]
    return [broadcast_in_dim(v, shape, ()) for v in w]


def _counter(shape, word_bits: int = 32, tile_bits: int = 16):
    """(hi, lo): the row-major flat index of each element of `shape` as two uint32 words.

    Below 2**32 elements hi is zero and lo an iota. Larger draws count in tiles of
    2**tile_bits: index = a * 2**tile_bits + b, so hi = a >> (32 - tile_bits) and
    lo = (a mod 2**(32 - tile_bits)) << tile_bits | b, all in uint32 arithmetic (the same
    64-bit counter as jax's 2x32 iota). `word_bits` < 32 only serves tests.
    """
    n = math.prod(shape)
    if n < 2 ** word_bits:
        return broadcast_in_dim(np.uint32(0), tuple(shape), ()), reshape(iota(dtypes.uint32, n), shape)
    tile = 2 ** tile_bits
    rows = -(-n // tile)
    if rows >= 2 ** 32:
        raise ValueError(f"random bits for {n} elements (shape {shape}): more than 2**48 elements")
    a = broadcast_in_dim(iota(dtypes.uint32, rows), (rows, tile), (0,))
    b = broadcast_in_dim(iota(dtypes.uint32, tile), (rows, tile), (1,))
    def const(v):
        return broadcast_in_dim(np.uint32(v), (rows, tile), ())
    hi = shift_right_logical(a, const(word_bits - tile_bits))
    lo = bitwise_or(shift_left(bitwise_and(a, const(2 ** (word_bits - tile_bits) - 1)), const(tile_bits)), b)
    return tuple(reshape(_slice(reshape(w, (rows * tile,)), (0,), (n,)), shape) for w in (hi, lo))


def _threefry_hash(key, shape, counter):
    """Hash the counters (hi, lo) (uint32 arrays of `shape`) under a threefry key."""
    k0, k1 = _words(key, shape)
    return threefry2x32(k0, k1, *counter)


def _pair(a, b, shape):
    """Stack two uint32 arrays of `shape` along a new last axis of size 2."""
    s1 = tuple(shape) + (1,)
    return concatenate([reshape(a, s1), reshape(b, s1)], len(shape))


def _threefry_split(key, shape):
    b0, b1 = _threefry_hash(key, shape, _counter(shape))
    return _pair(b0, b1, shape)


def _threefry_fold_in(key, data):
    b0, b1 = _threefry_hash(key, (1,), (broadcast_in_dim(np.uint32(0), (1,), ()), reshape(data, (1,))))
    return concatenate([b0, b1], 0)


def _threefry_bits(key, nbits: int, shape):
    b0, b1 = _threefry_hash(key, shape, _counter(shape))
    if nbits == 64:
        hi = convert_element_type(b0, dtypes.uint64)
        return bitwise_or(shift_left(hi, 32), convert_element_type(b1, dtypes.uint64))
    out = bitwise_xor(b0, b1)
    return out if nbits == 32 else convert_element_type(out, _UINT[nbits])


def _halves(key):
    return _slice(key, (0,), (2,)), _slice(key, (2,), (4,))


# ---- impl-dispatching primitives of this package (unjitted; called inside jitted code) -------

def split_impl(key, impl: str, shape):
    if impl == "rbg":
        a, b = (_threefry_split(h, shape) for h in _halves(key))
        return concatenate([a, b], len(shape))
    return _threefry_split(key, shape)


def fold_in_impl(key, impl: str, data):
    """`data` is a uint32 scalar array."""
    if impl == "rbg":
        return concatenate([_threefry_fold_in(h, data) for h in _halves(key)], 0)
    return _threefry_fold_in(key, data)


def bits_impl(key, impl: str, nbits: int, shape):
    """Uniform random unsigned integers of `nbits` bits and `shape`."""
    if impl == "rbg":
        return rng_bit_generator(key, shape, _UINT[nbits])[1]
    return _threefry_bits(key, nbits, shape)


def words_impl(key, impl: str, shape, nbits: int, count: int, hi=None):
    """`count` independent arrays of random uint{nbits} words of `shape`, from as few hashes as
    possible (for samplers that need several words per element; compile time grows with hashes).

    Threefry, 32-bit: every hashed counter gives two 32-bit words, used as they are (not
    xor-ed together as `bits` does), and the counter's high word is `hi` (a uint32 scalar, 0 if
    None), so a rejection loop can draw round r from counters (r, i) without deriving a new key.
    Otherwise the words are one `bits` draw of shape (count,) + shape (from fold_in(key, hi)).
    """
    shape = tuple(shape)
    z = (0,) * len(shape)

    def rows(x, m):
        return [reshape(_slice(x, (j,) + z, (j + 1,) + shape), shape) for j in range(m)]

    if impl == "threefry2x32" and nbits == 32:
        m = (count + 1) // 2
        full = (m,) + shape
        k0, k1 = _words(key, full)
        c_hi, c_lo = _counter(full)
        h = c_hi if hi is None else add(c_hi, broadcast_in_dim(hi, full, ()))
        b0, b1 = threefry2x32(k0, k1, h, c_lo)
        r0, r1 = rows(b0, m), rows(b1, m)
        return [(r0 if i % 2 == 0 else r1)[i // 2] for i in range(count)]
    k = key if hi is None else fold_in_u32(key, impl, hi)
    return rows(bits_impl(k, impl, nbits, (count,) + shape), count)


def split2(key, impl: str):
    """Two subkeys (as a tuple), for samplers that need independent streams."""
    ks = split_impl(key, impl, (2,))
    n = _KEY_SIZE[impl]
    return tuple(reshape(_slice(ks, (i, 0), (i + 1, n)), (n,)) for i in (0, 1))


def fold_in_u32(key, impl: str, data):
    """fold_in with any integer scalar array (its low 32 bits)."""
    return fold_in_impl(key, impl, convert_element_type(data, dtypes.uint32))


# ---- seeds -----------------------------------------------------------------------------------

def _host_seed_words(seed: int) -> np.ndarray:
    if not -2 ** 63 <= seed < 2 ** 64:
        raise OverflowError(f"key: seed {seed} does not fit in 64 bits")
    v = seed & 0xFFFFFFFFFFFFFFFF  # two's complement
    return np.array([v >> 32, v & _MASK32], np.uint32)


def _traced_seed_words(seed):
    a = aval_of(seed)
    if a.dtype == dtypes.bool_:
        seed = convert_element_type(seed, dtypes.uint32)
        a = aval_of(seed)
    bits = np.dtype(a.dtype).itemsize * 8
    if bits == 64:
        hi = convert_element_type(shift_right_logical(seed, 32), dtypes.uint32)
        lo = convert_element_type(seed, dtypes.uint32)  # integer conversion keeps the low bits
    else:
        lo = convert_element_type(seed, dtypes.uint32)  # sign-extends signed types, then wraps
        if dtypes.is_unsigned(a.dtype):
            hi = convert_element_type(np.uint32(0), dtypes.uint32)
        else:
            hi = convert_element_type(shift_right_arithmetic(seed, bits - 1), dtypes.uint32)
    return concatenate([reshape(hi, (1,)), reshape(lo, (1,))], 0)


_seed_words_jit = jit(_traced_seed_words)


def seed_words(op: str, seed: Any):
    """uint32[2]: the [high, low] words of the seed's 64-bit two's-complement pattern."""
    if isinstance(seed, (bool, np.bool_)):
        seed = int(seed)
    if isinstance(seed, (int, np.integer)):
        return asarray(_host_seed_words(int(seed)))
    if not is_array(seed):
        arr = np.asarray(seed)
        if arr.shape != () or not (arr.dtype.kind in "iub"):
            raise op_type_error(op, f"seed must be an integer scalar, got {seed!r}")
        return asarray(_host_seed_words(int(arr)))
    a = aval_of(seed)
    if a.shape != () or not (dtypes.is_integer(a.dtype) or a.dtype == dtypes.bool_):
        raise op_type_error(op, f"seed must be an integer scalar, got {a.str_short()}")
    return _seed_words_jit(seed)


# ---- public key functions --------------------------------------------------------------------

def key(seed: Any, impl: str | None = None):
    """A PRNG key from an integer seed: uint32[2] for 'threefry2x32' (default), uint32[4] for 'rbg'.

    The seed may be a Python/numpy integer or an integer scalar array (also traced, so
    `jit(lambda s: key(s))` works). The key holds the seed's 64-bit two's-complement
    pattern as [high, low] 32-bit words (an 'rbg' key holds it twice), so
    `key(0) == [0, 0]` and `key(42) == [0, 42]`.

    Args:
        seed: an integer, or an integer scalar array (also traced).
        impl: 'threefry2x32' (default) or 'rbg'.

    Returns:
        The key, uint32[2] (threefry2x32) or uint32[4] (rbg).

    Examples:
        >>> import padax
        >>> padax.random.key(42).tolist()
        [0, 42]
    """
    words = seed_words("key", seed)
    if impl_name(impl) == "rbg":
        return concatenate([words, words], 0)
    return words


PRNGKey = key


def key_data(keys: Any):
    """The raw uint32 words of a key or a batch of keys (keys already are plain arrays).

    Args:
        keys: a key (..., 2) or (..., 4).

    Returns:
        The same uint32 array.

    Examples:
        >>> import padax
        >>> keys = padax.random.split(padax.random.key(0), 3)
        >>> padax.random.key_data(padax.random.key(42)).tolist(), padax.random.key_data(keys).shape
        ([0, 42], (3, 2))
    """
    keys, _ = check_key("key_data", keys, batch_ok=True)
    return keys


def wrap_key_data(data: Any, *, impl: str | None = None, dtype: Any = None):
    """Use raw uint32 words (..., 2) or (..., 4) as key(s), checking they fit `impl`.

    `dtype` (JAX's other spelling) may name the implementation, or be a key's own dtype: padax
    keys are their uint32 words, so `wrap_key_data(key_data(k), dtype=k.dtype)` gives k back.

    Args:
        data: uint32 words.
        impl: 'threefry2x32' (2 words) or 'rbg' (4 words); default: from the last dimension.
        dtype: the implementation's name, or a key's dtype.

    Returns:
        The key(s).

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> k = padax.random.wrap_key_data(np.array([0, 42], np.uint32), impl='threefry2x32')
        >>> k.tolist(), padax.random.uniform(k).tolist() == padax.random.uniform(padax.random.key(42)).tolist()
        ([0, 42], True)
    """
    if dtype is not None and impl is not None:
        raise op_value_error("wrap_key_data", "pass impl or dtype, not both")
    if dtype is not None and not (isinstance(dtype, str) and dtype.lower() != "uint32"):
        if np.dtype(dtype) != np.uint32:
            raise op_value_error("wrap_key_data", f"dtype {dtype!r} is not a key dtype: padax keys are uint32 "
                                                  "words; name the implementation ('threefry2x32' or 'rbg')")
        dtype = None
    impl = impl if dtype is None else dtype
    data, found = check_key("wrap_key_data", data, batch_ok=True)
    if impl is not None and impl_name(impl) != found:
        raise op_value_error("wrap_key_data", f"{aval_of(data).str_short()} is a {found} key, not {impl_name(impl)}")
    return data


def key_impl(key: Any) -> str:
    """'threefry2x32' or 'rbg', from the key's last dimension.

    Args:
        key: a key or a batch of keys.

    Returns:
        The implementation's name.

    Examples:
        >>> import padax
        >>> padax.random.key_impl(padax.random.key(0)), padax.random.key_impl(padax.random.key(0, impl='rbg'))
        ('threefry2x32', 'rbg')
    """
    return check_key("key_impl", key, batch_ok=True)[1]


def _split(key, shape, impl):
    return split_impl(key, impl, shape)


_split_jit = jit(_split, static_argnums=(1, 2))


def split(key: Any, num: int | Sequence[int] = 2):
    """`num` new independent keys (shape (num, 2), or shape + (2,) for a tuple `num`).

    Key i is the hash of the counter i under `key`, so the subkeys are independent of
    each other and of `key`'s own draws. Use each key once: split before drawing again.

    Args:
        key: a PRNG key.
        num: the number of keys, or a shape of keys.

    Returns:
        An array of keys, shape (num, 2) or num + (2,) (threefry).

    Examples:
        >>> import padax
        >>> k1, k2 = padax.random.split(padax.random.key(0))
        >>> k1.tolist(), padax.random.split(padax.random.key(0), (2, 3)).shape
        ([1797259609, 2579123966], (2, 3, 2))
    """
    key, impl = check_key("split", key)
    return _split_jit(key, canonical_shape("split", num), impl)


_split2_jit = jit(split2, static_argnums=(1,))


def split_pair(key: Any):
    """split(key) as a tuple of two keys (one compiled call)."""
    key, impl = check_key("split", key)
    return _split2_jit(key, impl)


def _fold_in(key, data, impl):
    return fold_in_u32(key, impl, data)


_fold_in_jit = jit(_fold_in, static_argnums=(2,))


def fold_in(key: Any, data: Any):
    """A new key from `key` and an integer (its low 32 bits): e.g. a step number or a device id.

    Different data give independent keys. fold_in(key, i) is the hash of the counter i under
    `key`, which makes it equal to split(key, n)[i] (as with jax's threefry keys): derive
    keys from one parent either by split or by fold_in, not both.

    Args:
        key: a PRNG key.
        data: an integer scalar (Python, numpy or array); its low 32 bits are used.

    Returns:
        A new key of the same kind.

    Examples:
        >>> import padax
        >>> k = padax.random.key(0)
        >>> padax.random.fold_in(k, 1).tolist() == padax.random.split(k, 4)[1].tolist()
        True
    """
    key, impl = check_key("fold_in", key)
    if is_array(data):
        a = aval_of(data)
        if a.shape != () or not (dtypes.is_integer(a.dtype) or a.dtype == dtypes.bool_):
            raise op_type_error("fold_in", f"data must be an integer scalar, got {a.str_short()}")
    else:
        if isinstance(data, (float, complex, np.floating, np.complexfloating)) or np.ndim(data) != 0:
            raise op_type_error("fold_in", f"data must be an integer scalar, got {data!r}")
        data = asarray(np.uint32(int(data) & _MASK32))
    return _fold_in_jit(key, data, impl)


def _bits(key, shape, dtype, impl):
    return bits_impl(key, impl, np.dtype(dtype).itemsize * 8, shape)


_bits_jit = jit(_bits, static_argnums=(1, 2, 3))


def bits(key: Any, shape: Sequence[int] = (), dtype: Any = dtypes.uint32):
    """Uniformly random unsigned integers of `shape`.

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the result's shape.
        dtype: uint8, uint16, uint32 or uint64.

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.bits(padax.random.key(0), (2,)).tolist()    # as jax.random.bits gives
        [4070199207, 4202968722]
    """
    key, impl = check_key("bits", key)
    d = dtypes.canonicalize_dtype(dtype)
    if d not in _UINT.values():
        raise op_type_error("bits", f"dtype must be an unsigned integer type (uint8, uint16, uint32, "
                                    f"uint64), got {d.name}")
    return _bits_jit(key, canonical_shape("bits", shape), d, impl)
