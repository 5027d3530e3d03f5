"""Lowering of the linear-algebra primitives: LAPACK kernels from jaxlib (CPU).

The decompositions become `stablehlo.custom_call @lapack_<t><routine>_ffi` ops in
XLA's typed-FFI form (api_version 4, attributes in a dictionary `backend_config`).
What the kernels expect (checked against jaxlib 0.10.2; see JAXLIB_NOTES.md):

- operands and results that are (batches of) matrices are column-major, which is
  asked for with the layout `(r-2, r-1, r-3, ..., 0)`; vectors and scalars (pivots,
  eigen/singular values, info) keep the default row-major layout;
- leading dimensions are batch dimensions, the kernel loops over them;
- most kernels return an int32 `info` per matrix: 0 is success; where it is not, the
  matrix results are replaced by NaN here (the convention jax uses) since a compiled
  program cannot raise;
- attributes are ui8 characters: potrf `uplo`, syevd/heevd `mode` and `uplo`, gesdd
  `mode`, geev `compute_left`/`compute_right`, gees `mode`/`sort`; gehrd's `low`/`high`
  are i32.

The names resolve because `padax.runtime._jaxlib.register_lapack_targets` registers
them with the CPU client; `initialize_lapack` (called here, on first use) hands the
kernels scipy's LAPACK. triangular_solve needs no kernel: StableHLO has the op.
"""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.functional.lax import linalg as L
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, ir_constant, register_lowering, require_runtime
from padax.lowering.rules.elementwise import compare
from padax.lowering.rules.reductions import reduce_region

_PREFIX = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}
_I32 = np.dtype(np.int32)


def _target(routine: str, dtype) -> str:
    return f"lapack_{_PREFIX[np.dtype(dtype).name]}{routine}_ffi"


def _layout_attr(aval: ShapedArray, matrix: bool) -> ir.Attribute:
    r = aval.ndim
    order = ((r - 2, r - 1) + tuple(range(r - 3, -1, -1))) if matrix else tuple(range(r - 1, -1, -1))
    return ir.DenseIntElementsAttr.get(np.asarray(order, dtype=np.int64), type=ir.IndexType.get())


def _attr(v) -> ir.Attribute:
    """A kernel attribute: a character flag as ui8, an integer as i32."""
    if isinstance(v, str):
        return ir.IntegerAttr.get(ir.IntegerType.get_unsigned(8), ord(v))
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), int(v))


def _lapack_call(name: str, operands, in_avals, out_avals, attrs=None, aliases=None) -> list[ir.Value]:
    """One typed-FFI LAPACK custom call. Arrays of the operands' full rank are treated as
    matrices (column-major); lower-rank ones as vectors/scalars (row-major)."""
    require_runtime("lapack")
    rank = max(a.ndim for a in in_avals)
    n_batch = rank - 2
    results = [aval_to_ir_type(a) for a in out_avals]
    kwargs = {}
    if aliases:
        kwargs["output_operand_aliases"] = ir.ArrayAttr.get([
            hlo.OutputOperandAlias.get(output_tuple_indices=[o] if len(results) > 1 else [],
                                       operand_index=i, operand_tuple_indices=[])
            for i, o in aliases.items()])
    op = hlo.CustomCallOp(
        results, list(operands), name,
        has_side_effect=False,
        backend_config=ir.DictAttr.get({k: _attr(v) for k, v in (attrs or {}).items()}),
        api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        operand_layouts=ir.ArrayAttr.get([_layout_attr(a, a.ndim == rank) for a in in_avals]),
        result_layouts=ir.ArrayAttr.get([_layout_attr(a, a.ndim == rank) for a in out_avals]),
        **kwargs)
    # lets the SPMD partitioner split the call along its batch dimensions
    op.attributes["mhlo.frontend_attributes"] = ir.DictAttr.get(
        {"num_batch_dims": ir.StringAttr.get(str(n_batch))})
    return list(op.results)


# ---- small emitters ---------------------------------------------------------------------------

def _iota(shape, dim: int) -> ir.Value:
    return hlo.iota(aval_to_ir_type(ShapedArray(tuple(shape), _I32)), ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), dim))


def _triangle(x: ir.Value, aval: ShapedArray, lower: bool) -> ir.Value:
    """Zero the strict upper (lower=True) or strict lower triangle of each matrix."""
    nd = aval.ndim
    rows, cols = _iota(aval.shape, nd - 2), _iota(aval.shape, nd - 1)
    keep = compare(cols, rows, "LE" if lower else "GE", _I32)
    return hlo.select(keep, x, full_like_aval(0, aval))


def _ok(info: ir.Value, batch: tuple, direction: str = "EQ") -> ir.Value:
    return compare(info, full_like_aval(0, ShapedArray(batch, _I32)), direction, _I32)


def _nan_unless(ok: ir.Value, x: ir.Value, aval: ShapedArray, n_batch: int) -> ir.Value:
    """x where the matrix's factorisation succeeded (ok over the batch dims), NaN elsewhere."""
    pred_t = aval_to_ir_type(ShapedArray(aval.shape, np.dtype(np.bool_)))
    okb = hlo.broadcast_in_dim(pred_t, ok, ir.DenseI64ArrayAttr.get(list(range(n_batch))))
    nan = np.nan if not dtypes.is_complex(aval.dtype) else complex(np.nan, np.nan)
    return hlo.select(okb, x, full_like_aval(nan, aval))


def _slice(x: ir.Value, aval: ShapedArray, limits) -> ir.Value:
    """x[..., :limits[0], :limits[1]]."""
    nd = aval.ndim
    return hlo.slice(x, ir.DenseI64ArrayAttr.get([0] * nd),
                     ir.DenseI64ArrayAttr.get(list(aval.shape[:-2]) + list(limits)),
                     ir.DenseI64ArrayAttr.get([1] * nd))


# ---- cholesky -----------------------------------------------------------------------------------

@register_lowering(L.cholesky_p)
def _cholesky(ctx, a):
    aval, = ctx.avals_in
    batch = aval.shape[:-2]
    info_aval = ShapedArray(batch, _I32)
    f, info = _lapack_call(_target("potrf", aval.dtype), [a], [aval], [aval, info_aval],
                           attrs={"uplo": "L"}, aliases={0: 0})
    f = _triangle(f, aval, lower=True)  # potrf leaves the input's upper triangle in place
    return _nan_unless(_ok(info, batch), f, aval, len(batch))


# ---- triangular_solve (native StableHLO op) -----------------------------------------------------

@register_lowering(L.triangular_solve_p)
def _triangular_solve(ctx, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    if conjugate_a and not transpose_a:
        a = _conj(a)  # conj(a) without transposing: not an XLA mode, so conjugate first
        mode = "NO_TRANSPOSE"
    elif transpose_a:
        mode = "ADJOINT" if conjugate_a else "TRANSPOSE"
    else:
        mode = "NO_TRANSPOSE"
    return hlo.triangular_solve(a, b, ir.BoolAttr.get(left_side), ir.BoolAttr.get(lower),
                                ir.BoolAttr.get(unit_diagonal), hlo.TransposeAttr.get(mode))


def _conj(x: ir.Value) -> ir.Value:
    return hlo.complex(hlo.real(x), hlo.negate(hlo.imag(x)))


# ---- lu -----------------------------------------------------------------------------------------

def _pivots_to_permutation(pivots: ir.Value, piv_aval: ShapedArray, m: int) -> ir.Value:
    """Apply the row swaps i <-> pivots[..., i] (0-based, in order) to the identity order.

    A stablehlo.while over the k swaps; each step reads the two entries to exchange with
    one-hot masks and sums (no gather), so it works unchanged for any batch shape.
    """
    batch = piv_aval.shape[:-1]
    nb = len(batch)
    k = piv_aval.shape[-1]
    perm_aval = ShapedArray(batch + (m,), _I32)
    perm0 = _iota(perm_aval.shape, nb)
    i_t = aval_to_ir_type(ShapedArray((), _I32))
    types = [i_t, aval_to_ir_type(perm_aval), aval_to_ir_type(piv_aval)]
    loop = hlo.WhileOp(types, [ir_constant(np.int32(0)), perm0, pivots])
    cond = loop.regions[0].blocks.append(*types)
    with ir.InsertionPoint(cond):
        hlo.return_([compare(cond.arguments[0], ir_constant(np.int32(k)), "LT", _I32)])
    body = loop.regions[1].blocks.append(*types)
    with ir.InsertionPoint(body):
        i, perm, piv = body.arguments
        zero = ir_constant(np.int32(0))
        j = hlo.dynamic_slice(piv, [zero] * nb + [i], ir.DenseI64ArrayAttr.get(list(batch) + [1]))
        j = hlo.reshape(aval_to_ir_type(ShapedArray(batch, _I32)), j)
        bcast = lambda v: hlo.broadcast_in_dim(aval_to_ir_type(perm_aval), v,  # noqa: E731
                                               ir.DenseI64ArrayAttr.get(list(range(nb))))
        pos = _iota(perm_aval.shape, nb)
        at_i = compare(pos, hlo.broadcast_in_dim(aval_to_ir_type(perm_aval), i, ir.DenseI64ArrayAttr.get([])),
                       "EQ", _I32)
        at_j = compare(pos, bcast(j), "EQ", _I32)
        zeros = full_like_aval(0, perm_aval)

        def pick(mask):
            return reduce_region([hlo.select(mask, perm, zeros)], [ir_constant(np.int32(0))], [nb],
                                 [ShapedArray(batch, _I32)], [_I32],
                                 lambda accs, xs: [hlo.add(accs[0], xs[0])])[0]
        v_i, v_j = pick(at_i), pick(at_j)
        new = hlo.select(at_i, bcast(v_j), hlo.select(at_j, bcast(v_i), perm))
        hlo.return_([hlo.add(i, ir_constant(np.int32(1))), new, piv])
    return loop.results[1]


@register_lowering(L.lu_p)
def _lu(ctx, a):
    aval, = ctx.avals_in
    _, piv_aval, perm_aval = ctx.avals_out
    batch = aval.shape[:-2]
    info_aval = ShapedArray(batch, _I32)
    f, piv, info = _lapack_call(_target("getrf", aval.dtype), [a], [aval], [aval, piv_aval, info_aval],
                                aliases={0: 0})
    piv = hlo.subtract(piv, full_like_aval(1, piv_aval))  # LAPACK's pivots are 1-based
    # info > 0 only says U is exactly singular: the factorisation is still valid
    f = _nan_unless(_ok(info, batch, "GE"), f, aval, len(batch))
    perm = _pivots_to_permutation(piv, piv_aval, aval.shape[-2])
    return [f, piv, perm]


@register_lowering(L.lu_pivots_to_permutation_p)
def _lu_pivots_to_permutation(ctx, pivots, *, permutation_size):
    return _pivots_to_permutation(pivots, ctx.avals_in[0], permutation_size)


# ---- qr -----------------------------------------------------------------------------------------

@register_lowering(L.qr_p)
def _qr(ctx, a, *, full_matrices):
    aval, = ctx.avals_in
    q_aval, r_aval = ctx.avals_out
    *batch, m, n = aval.shape
    batch = tuple(batch)
    k = min(m, n)
    taus_aval = ShapedArray(batch + (k,), aval.dtype)
    h, taus = _lapack_call(_target("geqrf", aval.dtype), [a], [aval], [aval, taus_aval], aliases={0: 0})
    # R: the upper triangle of the first rows of h
    r = h if r_aval.shape == aval.shape else _slice(h, aval, (r_aval.shape[-2], n))
    r = _triangle(r, r_aval, lower=False)
    # Q: orgqr/ungqr expands the k reflectors stored below h's diagonal into q's columns
    cols = q_aval.shape[-1]
    if cols < n:
        hq, hq_aval = _slice(h, aval, (m, cols)), ShapedArray(batch + (m, cols), aval.dtype)
    elif cols > n:
        hq_aval = ShapedArray(batch + (m, cols), aval.dtype)
        zero = ir_constant(np.zeros((), aval.dtype))
        nd = aval.ndim
        hq = hlo.pad(h, zero, ir.DenseI64ArrayAttr.get([0] * nd),
                     ir.DenseI64ArrayAttr.get([0] * (nd - 1) + [cols - n]), ir.DenseI64ArrayAttr.get([0] * nd))
    else:
        hq, hq_aval = h, aval
    routine = "ungqr" if dtypes.is_complex(aval.dtype) else "orgqr"
    q, = _lapack_call(_target(routine, aval.dtype), [hq, taus], [hq_aval, taus_aval], [q_aval], aliases={0: 0})
    return [q, r]


# ---- eigh ---------------------------------------------------------------------------------------

@register_lowering(L.eigh_p)
def _eigh(ctx, a, *, lower):
    aval, = ctx.avals_in
    w_aval, v_aval = ctx.avals_out
    batch = aval.shape[:-2]
    routine = "heevd" if dtypes.is_complex(aval.dtype) else "syevd"
    v, w, info = _lapack_call(_target(routine, aval.dtype), [a], [aval],
                              [v_aval, w_aval, ShapedArray(batch, _I32)],
                              attrs={"mode": "V", "uplo": "L" if lower else "U"}, aliases={0: 0})
    ok = _ok(info, batch)
    return [_nan_unless(ok, w, w_aval, len(batch)), _nan_unless(ok, v, v_aval, len(batch))]


# ---- svd ----------------------------------------------------------------------------------------

@register_lowering(L.svd_p)
def _svd(ctx, a, *, full_matrices, compute_uv):
    aval, = ctx.avals_in
    *batch, m, n = aval.shape
    batch = tuple(batch)
    k = min(m, n)
    s_aval = ctx.avals_out[0]
    if compute_uv:
        u_aval, vt_aval = ctx.avals_out[1:]
    else:  # the kernel still declares U and VT buffers; mode 'N' leaves them untouched
        u_aval = ShapedArray(batch + (m, k), aval.dtype)
        vt_aval = ShapedArray(batch + (k, n), aval.dtype)
    mode = "N" if not compute_uv else ("A" if full_matrices else "S")
    _, s, u, vt, info = _lapack_call(_target("gesdd", aval.dtype), [a], [aval],
                                     [aval, s_aval, u_aval, vt_aval, ShapedArray(batch, _I32)],
                                     attrs={"mode": mode}, aliases={0: 0})
    ok = _ok(info, batch)
    nb = len(batch)
    outs = [_nan_unless(ok, s, s_aval, nb)]
    if compute_uv:
        outs += [_nan_unless(ok, u, u_aval, nb), _nan_unless(ok, vt, vt_aval, nb)]
    return outs


# ---- eig ----------------------------------------------------------------------------------------

@register_lowering(L.eig_p)
def _eig(ctx, a, *, compute_left, compute_right):
    aval, = ctx.avals_in
    batch = aval.shape[:-2]
    nb = len(batch)
    w_aval = ctx.avals_out[0]
    vec_aval = ShapedArray(aval.shape, w_aval.dtype)
    info_aval = ShapedArray(batch, _I32)
    attrs = {"compute_left": "V" if compute_left else "N", "compute_right": "V" if compute_right else "N"}
    if dtypes.is_complex(aval.dtype):
        w, vl, vr, info = _lapack_call(_target("geev", aval.dtype), [a], [aval],
                                       [w_aval, vec_aval, vec_aval, info_aval], attrs=attrs)
    else:  # real kernels return the real and imaginary parts of the eigenvalues separately
        part = ShapedArray(aval.shape[:-1], aval.dtype)
        wr, wi, vl, vr, info = _lapack_call(_target("geev", aval.dtype), [a], [aval],
                                            [part, part, vec_aval, vec_aval, info_aval], attrs=attrs)
        w = hlo.complex(wr, wi)
    ok = _ok(info, batch)
    outs = [_nan_unless(ok, w, w_aval, nb)]
    if compute_left:
        outs.append(_nan_unless(ok, vl, vec_aval, nb))
    if compute_right:
        outs.append(_nan_unless(ok, vr, vec_aval, nb))
    return outs


# ---- schur, hessenberg, householder_product ------------------------------------------------------

@register_lowering(L.schur_p)
def _schur(ctx, a, *, compute_schur_vectors):
    aval, = ctx.avals_in
    batch = aval.shape[:-2]
    nb = len(batch)
    info_aval = ShapedArray(batch, _I32)
    w = ShapedArray(aval.shape[:-1], aval.dtype)
    # real kernels return the eigenvalues' real and imaginary parts, complex ones the values;
    # `sdim` (the count of selected eigenvalues) precedes info and is unused without sorting
    eigs = [w] if dtypes.is_complex(aval.dtype) else [w, w]
    t, z, *_, info = _lapack_call(_target("gees", aval.dtype), [a], [aval],
                                  [aval, aval, *eigs, info_aval, info_aval],
                                  attrs={"mode": "V" if compute_schur_vectors else "N", "sort": "N"},
                                  aliases={0: 0})
    ok = _ok(info, batch)
    outs = [_nan_unless(ok, t, aval, nb)]
    if compute_schur_vectors:
        outs.append(_nan_unless(ok, z, aval, nb))
    return outs


@register_lowering(L.hessenberg_p)
def _hessenberg(ctx, a):
    aval, = ctx.avals_in
    taus_aval = ctx.avals_out[1]
    batch = aval.shape[:-2]
    nb = len(batch)
    packed, taus, info = _lapack_call(_target("gehrd", aval.dtype), [a], [aval],
                                      [aval, taus_aval, ShapedArray(batch, _I32)],
                                      attrs={"low": 1, "high": aval.shape[-1]}, aliases={0: 0})
    ok = _ok(info, batch)
    return [_nan_unless(ok, packed, aval, nb), _nan_unless(ok, taus, taus_aval, nb)]


@register_lowering(L.householder_product_p)
def _householder_product(ctx, a, taus):
    aval, taus_aval = ctx.avals_in
    routine = "ungqr" if dtypes.is_complex(aval.dtype) else "orgqr"
    q, = _lapack_call(_target(routine, aval.dtype), [a, taus], [aval, taus_aval], [aval], aliases={0: 0})
    return q
