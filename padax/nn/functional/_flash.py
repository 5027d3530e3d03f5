"""Blockwise (flash-style) attention: the engine behind dot_product_attention(implementation='flash'),
flash_attention, flash_attn_unpadded, the FlashMask functions and variable-length attention.

Queries are cut into blocks of `block_q` rows and keys/values into blocks of `block_k`. A scan walks
the query blocks; for each, a loop walks the key blocks keeping, per query row, the running
maximum m, the running sum l of exp(s - m) and the unnormalised output, rescaled by
exp(m_old - m_new) whenever the maximum grows (the online softmax). Only one [block_q, block_k] block
of scores exists at a time, so memory is O(T * d), not O(T^2). Causal and sliding-window masks
(on the default positions) bound the key blocks each query block visits: the blocks above the
diagonal take a conditional's empty branch and are never computed (the loop keeps a fixed length so
that the backward pass can itself be differentiated). The backward pass (a custom_vjp) keeps the output, the row
log-sum-exp and which rows saw no key, and walks the same blocks again, recomputing each block's
probabilities, accumulating dq per query block and dk, dv (and the bias gradient) in place.

Masks are described, not materialised: causal and sliding windows compare positions (iotas or given
position arrays), padding compares indices with lengths, segments compare ids, FlashMask compares the
query row with each key column's start/end rows, and dense bool/additive masks are sliced per block.
Masked logits take `fill` (a large finite negative); a row that sees no key at all averages all the
values uniformly, as the materialised form does. Keys padded up to a whole block take -inf.

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
from padax.functional.creation import arange, full, zeros
from padax.functional.lax.control import cond, fori_loop, scan
from padax.functional.lax.dot import dot_general
from padax.functional.lax.structural import (
    broadcasted_iota,
    dynamic_slice_in_dim,
    dynamic_update_slice,
    dynamic_update_slice_in_dim,
)
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
    block_q: int | None = None                 # None: block_k


def _iota_like(shape: tuple[int, ...], axis: int) -> Any:
    return broadcasted_iota(dtypes.int32, shape, axis)


def _dense_block(t: Any, groups: int) -> Any:
    """A [Bb, Hb, Tqb, Tkb] bias/mask (Hb in {1, H}) as [Bb, Hk|1, G|1, Tqb, Tkb]."""
    bb, hb, tq, tk = t.aval.shape
    if hb == 1:
        return reshape(t, [bb, 1, 1, tq, tk])
    return reshape(t, [bb, hb // groups, groups, tq, tk])


def _pad_to(x: Any, axis: int, n: int, value: Any = 0) -> Any:
    """x padded with `value` along axis up to n (a broadcast, size-1 axis is left as it is)."""
    m = x.aval.shape[axis]
    if m in (1, n):
        return x
    cfg = [0] * (2 * x.aval.ndim)
    cfg[2 * axis + 1] = n - m
    return pad(x, cfg, value=value)


def _dyn(x: Any, axis: int, start: Any, size: int) -> Any:
    """x[..., start:start + size, ...] along axis; a broadcast (size-1) axis is left whole."""
    if x is None or x.aval.shape[axis] == 1:
        return x
    return dynamic_slice_in_dim(x, start, size, axis)


def _dyn_add(x: Any, update: Any, axis: int, start: Any) -> Any:
    """x with update added into its slice at start along axis."""
    return dynamic_update_slice_in_dim(x, M.add(_dyn(x, axis, start, update.aval.shape[axis]), update), start, axis)


def _trim(x: Any, axis: int, n: int) -> Any:
    if x.aval.shape[axis] == n:
        return x
    starts, ends = [0] * x.aval.ndim, list(x.aval.shape)
    ends[axis] = n
    return slice_(x, list(range(x.aval.ndim)), starts, ends)


def _unblocks(x: Any, axis: int, n: int) -> Any:
    """A scan's stack [nblk, ..., blk, ...] (blk at `axis` of the rest) as [..., nblk * blk, ...] cut to n."""
    nblk = x.aval.shape[0]
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, x.aval.ndim))
    x = transpose(x, perm)
    shape = list(x.aval.shape)
    x = reshape(x, shape[:axis] + [nblk * shape[axis + 1]] + shape[axis + 2:])
    return _trim(x, axis, n)


def _keep(spec: Spec, shape: tuple[int, ...], q0: Any, j0: Any, tk: int, rows: dict, cols: dict, mask_blk: Any,
          fm_blk: Any) -> tuple[Any, Any]:
    """(keep, real) for the score block of `shape` [B, Hk, G, bq, bk] at rows q0.. and keys j0..:
    keep says which logits attend (None: all), real which columns are actual keys (None: all)."""
    b, hk, g, bq, bk = shape
    keep = None

    def both(a, c):
        return c if a is None else M.logical_and(a, c)

    col = M.add(_iota_like((1, 1, 1, 1, bk), 4), j0)                           # global key index
    row = M.add(_iota_like((1, 1, 1, bq, 1), 3), q0)                           # global query index
    real = M.less(col, tk) if tk % bk else None
    qpos = rows.get("pos")
    qpos = row if qpos is None else reshape(qpos, [b, 1, 1, bq, 1])
    kpos = cols.get("pos")
    kpos = col if kpos is None else reshape(kpos, [b, 1, 1, 1, bk])
    if spec.causal:
        keep = both(keep, M.greater_equal(qpos, kpos))
    if spec.window is not None:
        left, right = spec.window
        keep = both(keep, M.logical_and(M.less_equal(qpos, M.add(kpos, left)),
                                        M.greater_equal(qpos, M.subtract(kpos, right))))
    if "seg" in rows:
        keep = both(keep, M.equal(reshape(rows["seg"], [b, 1, 1, bq, 1]), reshape(cols["seg"], [b, 1, 1, 1, bk])))
    if "valid" in rows:
        keep = both(keep, reshape(rows["valid"], [b, 1, 1, bq, 1]))
    if "valid" in cols:
        keep = both(keep, reshape(cols["valid"], [b, 1, 1, 1, bk]))
    if mask_blk is not None:
        keep = both(keep, mask_blk)
    if fm_blk is not None:                                                     # [B, Hm, bk, n] -> per column
        bm, hm = fm_blk.aval.shape[:2]
        idx = [reshape(fm_blk[..., i], [bm, hm, 1, 1, bk]) for i in range(fm_blk.aval.shape[-1])]
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


def _scores(spec: Spec, q: Any, kb: Any, q0: Any, j0: Any, tk: int, rows: dict, colb: dict, bias_blk: Any,
            mask_blk: Any, fm_blk: Any) -> Any:
    s = M.multiply(dot_general(q, kb, (((4,), (3,)), ((0, 1), (0, 1)))), spec.scale)   # [B, Hk, G, bq, bk]
    if bias_blk is not None:
        s = M.add(s, bias_blk)
    keep, real = _keep(spec, tuple(s.aval.shape), q0, j0, tk, rows, colb, mask_blk, fm_blk)
    if keep is not None:
        s = M.where(keep, s, spec.fill)
    if real is not None:
        s = M.where(real, s, -np.inf)
    return s


@dataclasses.dataclass
class _Tiles:
    """The operands padded to whole blocks, with the block sizes and the key-block range rule."""
    spec: Spec
    q: Any
    k: Any
    v: Any
    bias: Any
    mask: Any
    rows: dict
    cols: dict
    fm: Any
    tq: int
    tk: int
    bq: int
    bk: int
    nq: int
    nk: int

    @classmethod
    def make(cls, spec: Spec, q, k, v, bias, mask, rows, cols, fm) -> "_Tiles":
        groups = q.aval.shape[2]
        tq, tk = q.aval.shape[3], k.aval.shape[2]
        bq, bk = min(spec.block_q or spec.block_k, tq), min(spec.block_k, tk)
        nq, nk = -(-tq // bq), -(-tk // bk)
        tqp, tkp = nq * bq, nk * bk

        def both_axes(t, value):
            return None if t is None else _pad_to(_pad_to(_dense_block(t, groups), 3, tqp, value), 4, tkp, value)
        return cls(spec, _pad_to(q, 3, tqp), _pad_to(k, 2, tkp), _pad_to(v, 2, tkp), both_axes(bias, 0),
                   both_axes(mask, False), {n: _pad_to(t, 1, tqp, False if n == "valid" else -3)
                                            for n, t in rows.items()},
                   {n: _pad_to(t, 1, tkp, False if n == "valid" else -4) for n, t in cols.items()},
                   None if fm is None else _pad_to(fm, 2, tkp), tq, tk, bq, bk, nq, nk)

    def key_range(self, i: Any) -> tuple[Any, Any]:
        """The key blocks [lo, hi) that query block i can see: bounded by causality and the window
        when positions are the indices themselves, else all of them."""
        spec = self.spec
        if "pos" in self.rows or "pos" in self.cols or not (spec.causal or spec.window is not None):
            return 0, self.nk
        last = M.add(M.multiply(i, self.bq), self.bq - 1)
        hi_key = last
        lo = 0
        if spec.window is not None:
            left, right = spec.window
            hi_key = M.add(last, min(right, 0) if spec.causal else right)
            lo = M.floor_divide(M.maximum(M.subtract(M.multiply(i, self.bq), left), 0), self.bk)
        hi = M.minimum(M.add(M.floor_divide(M.maximum(hi_key, 0), self.bk), 1), self.nk)
        return lo, hi

    def query_block(self, i: Any) -> dict:
        q0 = M.multiply(i, self.bq)
        return {"q0": q0, "q": _dyn(self.q, 3, q0, self.bq), "rows": {n: _dyn(t, 1, q0, self.bq)
                                                                        for n, t in self.rows.items()},
                "bias": _dyn(self.bias, 3, q0, self.bq), "mask": _dyn(self.mask, 3, q0, self.bq)}

    def scores(self, qb: dict, j: Any) -> tuple[Any, Any]:
        j0 = M.multiply(j, self.bk)
        kb = _dyn(self.k, 2, j0, self.bk)
        s = _scores(self.spec, qb["q"], kb, qb["q0"], j0, self.tk, qb["rows"],
                    {n: _dyn(t, 1, j0, self.bk) for n, t in self.cols.items()}, _dyn(qb["bias"], 4, j0, self.bk),
                    _dyn(qb["mask"], 4, j0, self.bk), _dyn(self.fm, 2, j0, self.bk))
        return s, j0


def _key_loop(lo: Any, hi: Any, nk: int, body: Any, init: Any) -> Any:
    """Run body(j, state) for the key blocks lo <= j < hi: a fixed-length loop (differentiable again,
    for second derivatives) whose iterations outside the range take a conditional's no-op branch."""
    if isinstance(lo, int) and isinstance(hi, int):
        return fori_loop(lo, hi, body, init)

    def step(j, st):
        inside = M.logical_and(M.greater_equal(j, lo), M.less(j, hi))
        return cond(inside, lambda s: body(j, s), lambda s: s, st)
    return fori_loop(0, nk, step, init)


def _dropped(spec: Spec, seed: Any, block: Any, p: Any) -> tuple[Any, Any]:
    """(kept mask, p with dropout: kept weights scaled by 1 / (1 - rate), others zero) for one block;
    the same seed and block index draw the same mask in the forward and backward passes."""
    kept = _samplers.bernoulli(fold_in(seed, block), 1.0 - spec.dropout, tuple(p.aval.shape))
    return kept, M.where(kept, M.divide(p, 1.0 - spec.dropout), M.cast(0, p.aval.dtype))


def _mean_values(v: Any, tk: int) -> Any:
    """The uniform average of the real values, [B, Hk, 1, 1, Dv]: the output of a row that sees no key."""
    return reshape(R.mean(_trim(v, 2, tk), axis=2), [v.aval.shape[0], v.aval.shape[1], 1, 1, v.aval.shape[3]])


def _forward(spec: Spec, q, k, v, bias, mask, rows, cols, fm, seed=None):
    """(out [B, Hk, G, Tq, Dv], lse [B, Hk, G, Tq], blind [B, Hk, G, Tq]: rows that saw no key)."""
    t = _Tiles.make(spec, q, k, v, bias, mask, rows, cols, fm)
    b, hk, g = q.aval.shape[:3]
    dv = v.aval.shape[-1]
    ct = q.aval.dtype
    mean_v = _mean_values(t.v, t.tk)

    def q_step(_, i):
        qb = t.query_block(i)
        lo, hi = t.key_range(i)

        def body(j, st):
            m, l, acc = st
            s, j0 = t.scores(qb, j)
            m_new = M.maximum(m, R.max(s, axis=-1))
            p = M.exp(M.subtract(s, unsqueeze(m_new, -1)))
            alpha = M.exp(M.subtract(m, m_new))
            l = M.add(M.multiply(alpha, l), R.sum(p, axis=-1))
            if spec.dropout > 0.0:
                _, p = _dropped(spec, seed, M.add(M.multiply(i, t.nk), j), p)
            pv = dot_general(p, _dyn(t.v, 2, j0, t.bk), (((4,), (2,)), ((0, 1), (0, 1))))   # [B, Hk, G, bq, Dv]
            return m_new, l, M.add(M.multiply(unsqueeze(alpha, -1), acc), pv)

        init = (full([b, hk, g, t.bq], -np.inf, ct), zeros([b, hk, g, t.bq], ct), zeros([b, hk, g, t.bq, dv], ct))
        m, l, acc = _key_loop(lo, hi, t.nk, body, init)
        blind = M.less_equal(m, spec.fill)
        l = M.where(M.greater(l, 0), l, M.cast(1, ct))
        out = M.where(unsqueeze(blind, -1), mean_v, M.divide(acc, unsqueeze(l, -1)))
        lse = M.where(blind, spec.fill + float(np.log(max(t.tk, 1))), M.add(m, M.log(l)))
        return None, (out, lse, blind)

    _, (out, lse, blind) = scan(q_step, None, arange(t.nq, dtype=dtypes.int32))
    return _unblocks(out, 3, t.tq), _unblocks(lse, 3, t.tq), _unblocks(blind, 3, t.tq)


def _reduce_to(x: Any, shape: tuple[int, ...]) -> Any:
    axes = [i for i, (a, b_) in enumerate(zip(x.aval.shape, shape)) if b_ == 1 and a != 1]
    return R.sum(x, axis=axes, keepdim=True) if axes else x


def _backward(spec: Spec, q, k, v, bias, mask, rows, cols, fm, seed, out, lse, blind, dout):
    t = _Tiles.make(spec, q, k, v, bias, mask, rows, cols, fm)
    tqp = t.nq * t.bq
    ct = q.aval.dtype
    dsum = _pad_to(R.sum(M.multiply(dout, out), axis=-1), 3, tqp)             # [B, Hk, G, Tq]
    dout_p, lse_p, blind_p = _pad_to(dout, 3, tqp), _pad_to(lse, 3, tqp), _pad_to(blind, 3, tqp, True)

    def q_step(carry, i):
        dk_f, dv_f, db_f = carry
        qb = t.query_block(i)
        q0 = qb["q0"]
        dob, lseb = _dyn(dout_p, 3, q0, t.bq), unsqueeze(_dyn(lse_p, 3, q0, t.bq), -1)
        dsb, blb = unsqueeze(_dyn(dsum, 3, q0, t.bq), -1), unsqueeze(_dyn(blind_p, 3, q0, t.bq), -1)
        lo, hi = t.key_range(i)

        def body(j, st):
            dq, dk_f, dv_f, db_f = st
            s, j0 = t.scores(qb, j)
            p = M.where(blb, M.cast(0, ct), M.exp(M.subtract(s, lseb)))
            vb = _dyn(t.v, 2, j0, t.bk)
            dp = dot_general(dob, vb, (((4,), (3,)), ((0, 1), (0, 1))))       # [B, Hk, G, bq, bk]
            if spec.dropout > 0.0:                                             # out = sum_j drop(p)_ij v_j
                kept, pd = _dropped(spec, seed, M.add(M.multiply(i, t.nk), j), p)
                dv_blk = dot_general(pd, dob, (((2, 3), (2, 3)), ((0, 1), (0, 1))))
                dp = M.where(kept, M.divide(dp, 1.0 - spec.dropout), M.cast(0, ct))
            else:
                dv_blk = dot_general(p, dob, (((2, 3), (2, 3)), ((0, 1), (0, 1))))   # [B, Hk, bk, Dv]
            ds = M.multiply(p, M.subtract(dp, dsb))
            kb = _dyn(t.k, 2, j0, t.bk)
            dq = M.add(dq, M.multiply(dot_general(ds, kb, (((4,), (2,)), ((0, 1), (0, 1)))), spec.scale))
            dk_blk = M.multiply(dot_general(ds, qb["q"], (((2, 3), (2, 3)), ((0, 1), (0, 1)))), spec.scale)
            dk_f, dv_f = _dyn_add(dk_f, dk_blk, 2, j0), _dyn_add(dv_f, dv_blk, 2, j0)
            if t.bias is not None:
                blk = _reduce_to(ds, tuple(_dyn(qb["bias"], 4, j0, t.bk).aval.shape))
                starts = [0, 0, 0, q0 if t.bias.aval.shape[3] != 1 else 0, j0 if t.bias.aval.shape[4] != 1 else 0]
                cur = _dyn(_dyn(db_f, 3, q0, t.bq), 4, j0, t.bk)
                db_f = dynamic_update_slice(db_f, M.add(cur, blk), starts)
            return dq, dk_f, dv_f, db_f

        init = (zeros(list(qb["q"].aval.shape), ct), dk_f, dv_f, db_f)
        dq, dk_f, dv_f, db_f = _key_loop(lo, hi, t.nk, body, init)
        return (dk_f, dv_f, db_f), dq

    db0 = zeros(list(t.bias.aval.shape), ct) if t.bias is not None else zeros([], ct)
    (dk_f, dv_f, db_f), dq = scan(q_step, (zeros(list(t.k.aval.shape), ct), zeros(list(t.v.aval.shape), ct), db0),
                                  arange(t.nq, dtype=dtypes.int32))
    dq, dk, dv = _unblocks(dq, 3, t.tq), _trim(dk_f, 2, t.tk), _trim(dv_f, 2, t.tk)
    # a row that saw no key averaged every value: each real key's value gets 1 / Tk of its cotangent
    seen_none = R.sum(M.where(unsqueeze(blind, -1), dout, M.cast(0, ct)), axis=[2, 3], keepdim=True)   # [B,Hk,1,1,Dv]
    dv = M.add(dv, reshape(M.divide(seen_none, float(max(t.tk, 1))), [dv.aval.shape[0], dv.aval.shape[1], 1,
                                                                      dv.aval.shape[3]]))
    dbias = None
    if bias is not None:
        db = _trim(_trim(db_f, 3, t.tq), 4, t.tk)
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
        return _forward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm), _decode_key(seed))[:2]

    def fwd(q, k, v, bias, mask, rows, cols, fm, seed):
        out, lse, blind = _forward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm),
                                   _decode_key(seed))
        return (out, lse), (q, k, v, bias, mask, rows, cols, fm, seed, out, lse, blind)

    def bwd(res, cts):
        q, k, v, bias, mask, rows, cols, fm, seed, out, lse, blind = res
        dout, _ = cts                                                          # lse is a statistic: no gradient
        dq, dk, dv, dbias = _backward(spec, *_arrays(q, k, v, bias), *_decode(mask, rows, cols, fm),
                                      _decode_key(seed), *_arrays(out, lse, blind, dout))
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
    its mask from fold_in(key, block index) in both passes.
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
    zero = zeros([], dtypes.int32)
    s = _scores(whole, q5, k4, zero, zero, tk, rows or {}, cols or {}, bias_blk, mask_blk, fm)
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
