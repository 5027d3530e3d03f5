"""Taylor rules of the shape, indexing, reduction, cumulative, windowed, sorting, fft, dot
and conv primitives.

Most are linear (each coefficient goes through the primitive) or bilinear (dot, conv);
the order-based ones (max/min reductions, cummax, sort, top_k, max windows and their
select_and_gather/scatter pair, scatters)
are locally linear and go through their jvp rules; products (reduce_prod, cumprod,
scatter_mul) use the jvp-derived rule of `_common`.
"""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.functional.lax import (
    conv as C,
    cumulative as CU,
    dot as D,
    fft as F,
    indexing as IX,
    reductions as R,
    sorting as SO,
    structural as S,
    windowed as W,
    windowed_select as WS,
)
from padax.functional.lax.precision import reduce_precision_p
from padax.transforms.jet import def_taylor
from padax.transforms.jet_rules._common import (
    bilinear_rule,
    checked,
    concrete,
    differing_terms,
    from_jvp_rule,
    host,
    linear_rule,
    locally_linear_rule,
    not_smooth,
    zero_rule,
)


def _convert(primals, series, *, new_dtype, weak_type):
    (x,), (xs,) = primals, series
    out = S.convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if not (dtypes.is_inexact(new_dtype) and dtypes.is_inexact(get_aval(x).dtype)):
        return out, None
    return out, [None if t is None else S.convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=False)
                 for t in xs]


def_taylor(S.convert_element_type_p, _convert)
for _p in (S.broadcast_in_dim_p, S.reshape_p, S.transpose_p, S.squeeze_p, S.slice_p, S.concatenate_p,
           S.pad_p, S.rev_p, S.select_n_p, S.dynamic_slice_p, S.dynamic_update_slice_p,
           R.reduce_sum_p, CU.cumsum_p, W.reduce_window_sum_p, IX.gather_p, IX.scatter_add_p, F.fft_p):
    def_taylor(_p, linear_rule(_p))
def_taylor(S.bitcast_convert_type_p, zero_rule(S.bitcast_convert_type_p))
for _p in (R.argmax_p, R.argmin_p, R.reduce_and_p, R.reduce_or_p):
    def_taylor(_p, zero_rule(_p))


def _check_clamp(primals, series):
    lo, x, hi = primals
    xv = host(x)
    shape = xv.shape
    for bound, bs in ((lo, series[0]), (hi, series[2])):
        tie = xv == np.broadcast_to(host(bound), shape)
        not_smooth("clamp", tie & differing_terms(series[1], bs, shape),
                   "where the operand meets a bound with a different series")


def_taylor(S.clamp_p, checked(locally_linear_rule(S.clamp_p), _check_clamp))

# products: through their jvp rules (which use cumulative products, so their jets recurse in order)
for _p in (R.reduce_prod_p, CU.cumprod_p, IX.scatter_mul_p):
    def_taylor(_p, from_jvp_rule(_p))

# selections: the jvp rule maps each coefficient
# (select_and_gather_add / select_and_scatter_add: linear in their values, piecewise constant in the
# operand that picks the positions)
for _p in (IX.scatter_p, IX.scatter_min_p, IX.scatter_max_p, W.reduce_window_max_p, W.reduce_window_min_p,
           SO.top_k_p, WS.select_and_gather_add_p, WS.select_and_scatter_add_p):
    def_taylor(_p, locally_linear_rule(_p))


def _check_reduce_ties(name: str, pick):
    def check(primals, series, *, axes):
        x = host(primals[0])
        ext = pick(x, axis=axes, keepdims=True) if axes else x
        hit = x == ext
        bad = np.zeros(np.shape(pick(x, axis=axes)) if axes else x.shape, bool)
        for t in series[0]:
            if t is None or not axes:
                continue
            tv = host(t).real
            bad |= np.where(hit, tv, -np.inf).max(axis=axes) != np.where(hit, tv, np.inf).min(axis=axes)
        not_smooth(name, bad, "where elements tie for the extremum with different series")
    return check


def_taylor(R.reduce_max_p, checked(locally_linear_rule(R.reduce_max_p), _check_reduce_ties("reduce_max", np.max)))
def_taylor(R.reduce_min_p, checked(locally_linear_rule(R.reduce_min_p), _check_reduce_ties("reduce_min", np.min)))


def _check_cum_ties(name: str, greater):
    def check(primals, series, *, axis, reverse):
        x = np.moveaxis(host(primals[0]), axis, -1)
        terms = [np.moveaxis(host(t), axis, -1) if t is not None else np.zeros_like(x) for t in series[0]]
        if reverse:
            x, terms = x[..., ::-1], [t[..., ::-1] for t in terms]
        run = x[..., 0]
        holder = [t[..., 0] for t in terms]
        bad = np.zeros(x.shape[:-1], bool)
        for i in range(1, x.shape[-1]):
            xi = x[..., i]
            tie = xi == run
            for h, t in zip(holder, terms):
                bad |= tie & (t[..., i] != h)
            take = tie | greater(xi, run)
            run = np.where(take, xi, run)
            holder = [np.where(take, t[..., i], h) for h, t in zip(holder, terms)]
        not_smooth(name, bad, "where an element ties with the running extremum with a different series")
    return check


def_taylor(CU.cummax_p, checked(locally_linear_rule(CU.cummax_p), _check_cum_ties("cummax", np.greater)))
def_taylor(CU.cummin_p, checked(locally_linear_rule(CU.cummin_p), _check_cum_ties("cummin", np.less)))


def _sort(primals, series, *, dimension, is_stable, num_keys):
    out, out_series = _sort_linear(primals, series, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    if concrete(primals, series) and out_series is not None:
        _check_sorted_ties(out[:num_keys], out_series[:num_keys], dimension)
    return out, out_series


_sort_linear = locally_linear_rule(SO.sort_p)


def _check_sorted_ties(keys, key_series, dimension: int) -> None:
    """Adjacent sorted elements that tie in their leading keys but whose series differ swap
    places on one side of the expansion point: the sorted values have no series there."""
    ks = [np.moveaxis(host(k), dimension, -1) for k in keys]
    decided = np.zeros(ks[0].shape[:-1] + (max(ks[0].shape[-1] - 1, 0),), bool)
    bad = np.zeros_like(decided)
    for k, s in zip(ks, key_series):
        tie = (k[..., 1:] == k[..., :-1]) & ~decided
        if s is not None:
            for t in s:
                if t is None:
                    continue
                tv = np.moveaxis(host(t), dimension, -1)
                bad |= tie & (tv[..., 1:] != tv[..., :-1])
        decided |= ~tie
    not_smooth("sort", bad, "where keys tie with different series")


def_taylor(SO.sort_p, _sort)
def_taylor(D.dot_general_p, bilinear_rule(D.dot_general_p))
def_taylor(C.conv_general_dilated_p, bilinear_rule(C.conv_general_dilated_p))


def _install_precision() -> None:
    def_taylor(reduce_precision_p, linear_rule(reduce_precision_p))


_install_precision()
