"""Blockwise (flash-style) attention: the engine behind dot_product_attention(implementation='flash'),
flash_attention, flash_attn_unpadded and the FlashMask functions.

The keys and values are cut into blocks of `block_k` along the sequence; a scan walks the blocks
keeping, per query row, the running maximum m, the running sum l of exp(s - m) and the unnormalised
output, rescaled by exp(m_old - m_new) whenever the maximum grows (the online softmax). Only one
[Tq, block_k] block of scores exists at a time, so memory is O(T * d), not O(T^2). The backward pass
(a custom_vjp) keeps only the output and the row log-sum-exp, and recomputes each block's
probabilities in a second scan that accumulates dq and emits dk, dv (and the bias gradient) per block.

Masks are described, not materialised: causal and sliding windows compare positions (iotas or given
position arrays), padding compares indices with lengths, segments compare ids, FlashMask compares the
query row with each key column's start/end rows, and dense bool/additive masks are sliced per block.
Masked logits take `fill` (a large finite negative), so a fully masked row averages uniformly, as the
naive form does; the keys padded up to a whole block take -inf and never count.

Internal layout: q [B, Hk, G, Tq, D] (query head h = hk * G + g), k/v [B, Hk, Tk, D].
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from padax import custom_vjp, dtypes
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray
from padax.functional.creation import full, zeros
from padax.functional.lax.control import scan
from padax.functional.lax.dot import dot_general
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.manipulation import concat, pad, reshape, slice as slice_, transpose, unsqueeze
from padax.random import _samplers, fold_in


@dataclasses.dataclass(frozen=True)
class Spec:
    """The static part of a blockwise attention call (hashable: it keys the cached custom_vjp)."""
    scale: float
    causal: bool = False
    window: tuple[int, int] | None = None     # (left, right): keys j with i - left <= j <= i + right
    block_k: int = 128
    fill: float = -0.7 * float(np.finfo(np.float32).max)
    flashmask: str | None = None               # 'causal1', 'causal2', 'bi2', 'bi4' (start/end row layouts)
    dropout: float = 0.0                       # the rate of the blockwise dropout of the weights (needs a seed)


def _iota_like(shape: tuple[int, ...], axis: int) -> Any:
    return broadcasted_iota(dtypes.int32, shape, axis)


def _dense_block(t: Any, groups: int) -> Any:
    """A [Bb, Hb, Tqb, Tkb] bias/mask (Hb in {1, H}) as [Bb, Hk|1, G|1, Tqb, Tkb]."""
    bb, hb, tq, tk = t.aval.shape
    if hb == 1:
        return reshape(t, [bb, 1, 1, tq, tk])
    return reshape(t, [bb, hb // groups, groups, tq, tk])


def _blocks(x: Any, axis: int, nblk: int, bk: int, value: Any = 0) -> Any:
    """Pad axis `axis` of x to nblk * bk and move the block index to the front: [nblk, ..., bk, ...]."""
    n = x.aval.shape[axis]
    if n != nblk * bk:
        cfg = [0] * (2 * x.aval.ndim)
        cfg[2 * axis + 1] = nblk * bk - n
        x = pad(x, cfg, value=value)
    shape = list(x.aval.shape)
    x = reshape(x, shape[:axis] + [nblk, bk] + shape[axis + 1:])
    perm = [axis] + [i for i in range(x.aval.ndim) if i != axis]
    return transpose(x, perm)


def _unblocks(x: Any, axis: int, n: int) -> Any:
    """The inverse of _blocks for a [nblk, ...] stack whose block axis sits at `axis` (after removal)."""
    nblk = x.aval.shape[0]
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, x.aval.ndim))
    x = transpose(x, perm)
    shape = list(x.aval.shape)
    x = reshape(x, shape[:axis] + [nblk * shape[axis + 1]] + shape[axis + 2:])
    if x.aval.shape[axis] != n:
        starts = [0] * x.aval.ndim
        ends = list(x.aval.shape)
        ends[axis] = n
        x = slice_(x, list(range(x.aval.ndim)), starts, ends)
    return x


def _keep(spec: Spec, shape: tuple[int, ...], j0: Any, tk: int, rows: dict, cols: dict, mask_blk: Any,
          fm_blk: Any) -> tuple[Any, Any]:
    """(keep, real) for a score block of `shape` [B, Hk, G, Tq, Bk]: keep says which logits attend
    (None: all), real which columns are actual keys (None: all)."""
    b, hk, g, tq, bk = shape
    keep = None

    def both(a, c):
        return c if a is None else M.logical_and(a, c)

    col = M.add(_iota_like((1, 1, 1, 1, bk), 4), j0)                           # global key index
    real = M.less(col, tk) if tk % bk else None
    qpos = rows.get("pos")
    qpos = _iota_like((1, 1, 1, tq, 1), 3) if qpos is None else reshape(qpos, [b, 1, 1, tq, 1])
    kpos = cols.get("pos")
    kpos = col if kpos is None else reshape(kpos, [b, 1, 1, 1, bk])
    if spec.causal:
        keep = both(keep, M.greater_equal(qpos, kpos))
    if spec.window is not None:
        left, right = spec.window
        keep = both(keep, M.logical_and(M.less_equal(qpos, M.add(kpos, left)),
                                        M.greater_equal(qpos, M.subtract(kpos, right))))
    if "seg" in rows:
        keep = both(keep, M.equal(reshape(rows["seg"], [b, 1, 1, tq, 1]), reshape(cols["seg"], [b, 1, 1, 1, bk])))
    if "valid" in rows:
        keep = both(keep, reshape(rows["valid"], [b, 1, 1, tq, 1]))
    if "valid" in cols:
        keep = both(keep, reshape(cols["valid"], [b, 1, 1, 1, bk]))
    if mask_blk is not None:
        keep = both(keep, mask_blk)
    if fm_blk is not None:                                                     # [B, Hm, Bk, n] -> per column
        bm, hm = fm_blk.aval.shape[:2]
        idx = [reshape(fm_blk[..., i], [bm, hm, 1, 1, bk]) for i in range(fm_blk.aval.shape[-1])]
        row = _iota_like((1, 1, 1, tq, 1), 3)
        kind = spec.flashmask
        if kind == "causal1":
            masked = M.greater_equal(row, idx[0])
        elif kind in ("causal2", "bi4"):
            masked = M.logical_and(M.greater_equal(row, idx[0]), M.less(row, idx[1]))
            if kind == "bi4":
                masked = M.logical_or(masked, M.logical_and(M.greater_equal(row, idx[2]), M.less(row, idx[3])))
        else:                                                                  # 'bi2'
            masked = M.logical_or(M.greater_equal(row, idx[0]), M.less(row, idx[1]))
        keep = both(keep, M.logical_not(masked))
    return keep, real


def _scores(spec: Spec, q: Any, kb: Any, j0: Any, tk: int, rows: dict, colb: dict, bias_blk: Any, mask_blk: Any,
            fm_blk: Any) -> Any:
    s = M.multiply(dot_general(q, kb, (((4,), (3,)), ((0, 1), (0, 1)))), spec.scale)   # [B, Hk, G, Tq, Bk]
    if bias_blk is not None:
        s = M.add(s, bias_blk)
    keep, real = _keep(spec, tuple(s.aval.shape), j0, tk, rows, colb, mask_blk, fm_blk)
    if keep is not None:
        s = M.where(keep, s, spec.fill)
    if real is not None:
        s = M.where(real, s, -np.inf)
    return s


def _prepare(spec: Spec, k: Any, v: Any, bias: Any, mask: Any, cols: dict, fm: Any, groups: int):
    """The per-block stacks scanned over: k/v [nblk, B, Hk, Bk, D], dense masks/biases and column
    arrays cut along their key axis (left whole when that axis is broadcast)."""
    tk = k.aval.shape[2]
    bk = min(spec.block_k, tk)
    nblk = -(-tk // bk)
    xs: dict[str, Any] = {"j0": M.multiply(_iota_like((nblk,), 0), bk),
                          "k": _blocks(k, 2, nblk, bk), "v": _blocks(v, 2, nblk, bk)}
    whole: dict[str, Any] = {}
    for name, t in (("bias", bias), ("mask", mask)):
        if t is None:
            continue
        t = _dense_block(t, groups)
        if t.aval.shape[-1] == 1:
            whole[name] = t
        else:
            xs[name] = _blocks(t, 4, nblk, bk, value=False if name == "mask" else 0)
    for name, t in cols.items():
        xs["col_" + name] = _blocks(t, 1, nblk, bk)
    if fm is not None:
        xs["fm"] = _blocks(fm, 2, nblk, bk)
    return xs, whole, tk, nblk


def _block_inputs(x: dict, whole: dict) -> tuple[Any, Any, Any, dict]:
    bias_blk = x.get("bias", whole.get("bias"))
    mask_blk = x.get("mask", whole.get("mask"))
    colb = {k[4:]: val for k, val in x.items() if k.startswith("col_")}
    return bias_blk, mask_blk, x.get("fm"), colb


def _dropped(spec: Spec, seed: Any, j0: Any, p: Any) -> tuple[Any, Any]:
    """(kept mask, p with dropout: kept weights scaled by 1 / (1 - rate), others zero) for the block at
    key offset j0; the same seed and block draw the same mask in the forward and backward passes."""
    key = fold_in(seed, j0)
    kept = _samplers.bernoulli(key, 1.0 - spec.dropout, tuple(p.aval.shape))
    return kept, M.where(kept, M.divide(p, 1.0 - spec.dropout), M.cast(0, p.aval.dtype))


def _forward(spec: Spec, q, k, v, bias, mask, rows, cols, fm, seed=None):
    """(out [B, Hk, G, Tq, Dv], lse [B, Hk, G, Tq]) in the compute dtype."""
    groups = q.aval.shape[2]
    xs, whole, tk, _ = _prepare(spec, k, v, bias, mask, cols, fm, groups)
    b, hk, g, tq, _ = q.aval.shape
    dv = v.aval.shape[-1]

    def body(carry, x):
        m, l, acc = carry
        bias_blk, mask_blk, fm_blk, colb = _block_inputs(x, whole)
        s = _scores(spec, q, x["k"], x["j0"], tk, rows, colb, bias_blk, mask_blk, fm_blk)
        m_new = M.maximum(m, R.max(s, axis=-1))
        p = M.exp(M.subtract(s, unsqueeze(m_new, -1)))
        alpha = M.exp(M.subtract(m, m_new))
        l = M.add(M.multiply(alpha, l), R.sum(p, axis=-1))
        if spec.dropout > 0.0:
            _, p = _dropped(spec, seed, x["j0"], p)
        pv = dot_general(p, x["v"], (((4,), (2,)), ((0, 1), (0, 1))))         # [B, Hk, G, Tq, Dv]
        acc = M.add(M.multiply(unsqueeze(alpha, -1), acc), pv)
        return (m_new, l, acc), None

    ct = q.aval.dtype
    init = (full([b, hk, g, tq], -np.inf, ct), zeros([b, hk, g, tq], ct), zeros([b, hk, g, tq, dv], ct))
    (m, l, acc), _ = scan(body, init, xs)
    out = M.divide(acc, unsqueeze(l, -1))
    return out, M.add(m, M.log(l))


def _backward(spec: Spec, q, k, v, bias, mask, rows, cols, fm, seed, out, lse, dout):
    groups = q.aval.shape[2]
    xs, whole, tk, _ = _prepare(spec, k, v, bias, mask, cols, fm, groups)
    dsum = R.sum(M.multiply(dout, out), axis=-1)                              # [B, Hk, G, Tq]
    bias_whole = "bias" in whole

    def reduce_to(ds, shape):
        axes = [i for i, (a, b_) in enumerate(zip(ds.aval.shape, shape)) if b_ == 1 and a != 1]
        return R.sum(ds, axis=axes, keepdim=True) if axes else ds

    def body(carry, x):
        dq, dbias_acc = carry
        bias_blk, mask_blk, fm_blk, colb = _block_inputs(x, whole)
        s = _scores(spec, q, x["k"], x["j0"], tk, rows, colb, bias_blk, mask_blk, fm_blk)
        p = M.exp(M.subtract(s, unsqueeze(lse, -1)))
        dp = dot_general(dout, x["v"], (((4,), (3,)), ((0, 1), (0, 1))))       # [B, Hk, G, Tq, Bk]
        if spec.dropout > 0.0:                                                 # out = sum_j drop(p)_ij v_j
            kept, pd = _dropped(spec, seed, x["j0"], p)
            dv_blk = dot_general(pd, dout, (((2, 3), (2, 3)), ((0, 1), (0, 1))))
            dp = M.where(kept, M.divide(dp, 1.0 - spec.dropout), M.cast(0, dp.aval.dtype))
        else:
            dv_blk = dot_general(p, dout, (((2, 3), (2, 3)), ((0, 1), (0, 1))))   # [B, Hk, Bk, Dv]
        ds = M.multiply(p, M.subtract(dp, unsqueeze(dsum, -1)))
        dq = M.add(dq, M.multiply(dot_general(ds, x["k"], (((4,), (2,)), ((0, 1), (0, 1)))), spec.scale))
        dk_blk = M.multiply(dot_general(ds, q, (((2, 3), (2, 3)), ((0, 1), (0, 1)))), spec.scale)
        ys = {"dk": dk_blk, "dv": dv_blk}
        if bias is not None:
            if bias_whole:
                dbias_acc = M.add(dbias_acc, reduce_to(ds, whole["bias"].aval.shape))
            else:
                ys["dbias"] = reduce_to(ds, x["bias"].aval.shape)
        return (dq, dbias_acc), ys

    ct = q.aval.dtype
    dbias0 = zeros(list(whole["bias"].aval.shape), ct) if bias_whole else zeros([], ct)
    (dq, dbias_acc), ys = scan(body, (zeros(list(q.aval.shape), ct), dbias0), xs)
    dk = _unblocks(ys["dk"], 2, tk)
    dv = _unblocks(ys["dv"], 2, tk)
    dbias = None
    if bias is not None:
        db = dbias_acc if bias_whole else _unblocks(ys["dbias"], 4, tk)
        dbias = M.cast(reshape(db, list(bias.aval.shape)), bias.aval.dtype)
    return dq, dk, dv, dbias


def _encode(t: Any) -> Any:
    """Integer and bool operands cross the custom_vjp boundary as float32 (exact for the indices and
    flags used here): the custom rule then gives them zero cotangents like any other float input."""
    return None if t is None else M.cast(t, dtypes.float32)


def _arrays(*ts: Any) -> list:
    """The operands as padax arrays (a custom rule may be handed the caller's numpy arrays)."""
    return [None if t is None else asarray(t) for t in ts]


def encode_key(key: Any) -> Any:
    """A padax.random key (uint32 [2]) as four float32 16-bit halves, exact across the custom_vjp."""
    key = asarray(key)
    return M.cast(concat([M.floor_divide(key, 65536), M.remainder(key, 65536)]), dtypes.float32)


def _decode_key(seed: Any) -> Any:
    if seed is None:
        return None
    w = M.cast(asarray(seed), dtypes.uint32)
    return M.add(M.multiply(w[:2], 65536), w[2:])


def _decode(mask, rows, cols, fm):
    def back(name, t):
        t = asarray(t)
        return M.not_equal(t, 0.0) if name == "valid" else M.cast(t, dtypes.int32)
    mask, fm = _arrays(mask, fm)
    return (None if mask is None else M.not_equal(mask, 0.0),
            {n: back(n, t) for n, t in rows.items()}, {n: back(n, t) for n, t in cols.items()},
            None if fm is None else M.cast(fm, dtypes.int32))


@functools.lru_cache(maxsize=None)
def _kernel(spec: Spec):
    """The custom_vjp attention for one Spec: (q, k, v, bias, mask, rows, cols, fm) -> (out, lse), the
    mask, rows, cols and fm encoded as float32 (see _encode)."""

    @custom_vjp
    def attend(q, k, v, bias, mask, rows, cols, fm, seed):
        return _forward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm), _decode_key(seed))

    def fwd(q, k, v, bias, mask, rows, cols, fm, seed):
        out, lse = _forward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm), _decode_key(seed))
        return (out, lse), (q, k, v, bias, mask, rows, cols, fm, seed, out, lse)

    def bwd(res, cts):
        q, k, v, bias, mask, rows, cols, fm, seed, out, lse = res
        dout, _ = cts                                                          # lse is a statistic: no gradient
        dq, dk, dv, dbias = _backward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm),
                                      _decode_key(seed), *_arrays(out, lse, dout))
        return dq, dk, dv, dbias, None, {n: None for n in rows}, {n: None for n in cols}, None, None

    attend.defvjp(fwd, bwd)
    return attend


def attention(q: Any, k: Any, v: Any, *, spec: Spec, bias: Any = None, mask: Any = None, rows: dict | None = None,
              cols: dict | None = None, fm: Any = None, key: Any = None) -> tuple[Any, Any]:
    """Blockwise attention in Paddle's layout: q [B, Tq, H, D], k [B, Tk, Hk, D], v [B, Tk, Hk, Dv]
    -> (out [B, Tq, H, Dv] in q's dtype, lse [B, H, Tq] in the compute dtype: float64 for float64
    inputs, else float32).

    bias (additive, float) and mask (bool, True attends) broadcast to [B, H, Tq, Tk] with 4 dims;
    rows holds [B, Tq] arrays ('pos', 'seg', 'valid'), cols [B, Tk] arrays ('pos', 'seg', 'valid');
    fm is FlashMask's startend_row_indices [B, Hk|1, Tk, n] with spec.flashmask naming its layout;
    key is the padax.random key of the blockwise dropout (spec.dropout > 0), each key block drawing
    its mask from fold_in(key, block offset) in both passes.
    """
    b, tq, h, d = q.aval.shape
    hk = k.aval.shape[2]
    g = h // hk
    dt = q.aval.dtype
    ct = dtypes.float64 if dt == dtypes.float64 else dtypes.float32
    q5 = transpose(reshape(M.cast(q, ct), [b, tq, hk, g, d]), [0, 2, 3, 1, 4])
    k4 = transpose(M.cast(k, ct), [0, 2, 1, 3])
    v4 = transpose(M.cast(v, ct), [0, 2, 1, 3])
    if bias is not None:
        bias = M.cast(bias, ct)
    rows = {n: _encode(t) for n, t in (rows or {}).items()}
    cols = {n: _encode(t) for n, t in (cols or {}).items()}
    seed = encode_key(key) if spec.dropout > 0.0 else None
    out, lse = _kernel(spec)(q5, k4, v4, bias, _encode(mask), rows, cols, _encode(fm), seed)
    out = reshape(transpose(out, [0, 3, 1, 2, 4]), [b, tq, h, out.aval.shape[-1]])
    return M.cast(out, dt), reshape(lse, [b, h, tq])


def dense(q: Any, k: Any, v: Any, *, spec: Spec, bias: Any = None, mask: Any = None, rows: dict | None = None,
          cols: dict | None = None, fm: Any = None, dropout: float = 0.0, key: Any = None) -> tuple[Any, Any, Any]:
    """The same attention (same layouts and masks as `attention`) with the [Tq, Tk] probabilities
    materialised: (out [B, Tq, H, Dv], probs [B, H, Tq, Tk] after dropout, lse [B, H, Tq]). For
    dropout (kept weights scaled by 1 / (1 - dropout), drawn from `key`) and return_softmax."""
    b, tq, h, d = q.aval.shape
    tk, hk = k.aval.shape[1], k.aval.shape[2]
    g = h // hk
    dt = q.aval.dtype
    ct = dtypes.float64 if dt == dtypes.float64 else dtypes.float32
    q5 = transpose(reshape(M.cast(q, ct), [b, tq, hk, g, d]), [0, 2, 3, 1, 4])
    k4 = transpose(M.cast(k, ct), [0, 2, 1, 3])
    v4 = transpose(M.cast(v, ct), [0, 2, 1, 3])
    whole = Spec(**{**dataclasses.asdict(spec), "block_k": max(tk, 1)})
    bias_blk = None if bias is None else _dense_block(M.cast(bias, ct), g)
    mask_blk = None if mask is None else _dense_block(mask, g)
    s = _scores(whole, q5, k4, zeros([], dtypes.int32), tk, rows or {}, cols or {}, bias_blk, mask_blk, fm)
    m = R.max(s, axis=-1, keepdim=True)
    e = M.exp(M.subtract(s, m))
    den = R.sum(e, axis=-1, keepdim=True)
    p = M.divide(e, den)
    lse = M.add(reshape(m, list(m.aval.shape[:-1])), M.log(reshape(den, list(den.aval.shape[:-1]))))
    if dropout > 0.0:
        kept = _samplers.bernoulli(key, 1.0 - dropout, tuple(p.aval.shape))
        p = M.where(kept, M.divide(p, 1.0 - dropout), M.cast(0, ct))
    out = dot_general(p, v4, (((4,), (2,)), ((0, 1), (0, 1))))                # [B, Hk, G, Tq, Dv]
    out = reshape(transpose(out, [0, 3, 1, 2, 4]), [b, tq, h, out.aval.shape[-1]])
    return M.cast(out, dt), M.cast(reshape(p, [b, h, tq, tk]), dt), reshape(lse, [b, h, tq])
