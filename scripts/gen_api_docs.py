#!/usr/bin/env python
"""Generate docs/api.md: padax's coverage of Paddle 3's tensor API and of the Array API standard.

    python scripts/gen_api_docs.py            # (re)write docs/api.md
    python scripts/gen_api_docs.py --check    # exit 1 if docs/api.md is out of date
    python scripts/gen_api_docs.py -o FILE    # write elsewhere

The name lists below are data: Paddle 3's `paddle.*` / `paddle.linalg.*` /
`paddle.fft.*` tensor functions (in-place `_` variants and non-tensor
utilities left out), and the Array API standard 2023.12 namespace with its
`linalg` and `fft` extensions. Each name is looked up in padax at generation
time, so the tables show what exists in the working tree.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- Paddle 3 tensor API, by area -------------------------------------------------------------------

PADDLE = {
    "creation": """
        arange assign clone complex diag diag_embed diagflat empty empty_like eye full full_like linspace logspace
        meshgrid ones ones_like polar to_tensor tril tril_indices triu triu_indices vander zeros zeros_like
        """,
    "math (elementwise)": """
        abs acos acosh add add_n addmm angle asin asinh atan atan2 atanh baddbmm ceil clip conj copysign cos
        cosh deg2rad digamma divide erf erfinv exp expm1 floor floor_divide floor_mod fmax fmin frac frexp
        gammainc gammaincc gammaln gcd heaviside hypot i0 i0e i1 i1e imag increment lcm ldexp lerp lgamma log
        log10 log1p log2 logaddexp logit maximum minimum mod multigammaln multiply nan_to_num neg nextafter
        polygamma pow rad2deg real reciprocal remainder renorm round rsqrt scale sgn sigmoid sign signbit sin sinc
        sinh sqrt square stanh subtract tan tanh trunc
        """,
    "reduction and statistics": """
        all amax amin any count_nonzero cummax cummin cumprod cumsum cumulative_trapezoid diff histogram
        histogramdd bincount kthvalue logcumsumexp logsumexp max mean median min mode nanmean nanmedian
        nanquantile nansum prod quantile reduce_as std sum trapezoid var
        """,
    "manipulation": """
        as_complex as_real as_strided atleast_1d atleast_2d atleast_3d block_diag broadcast_shape
        broadcast_tensors broadcast_to cartesian_prod cast chunk column_stack combinations concat crop
        diagonal diagonal_scatter dsplit dstack expand expand_as flatten flip hsplit hstack moveaxis numel rank
        repeat_interleave reshape roll rot90 row_stack select_scatter shape shard_index slice slice_scatter split
        squeeze stack strided_slice swapaxes swapdims t tensor_split tile tolist transpose unbind unflatten unfold
        unsqueeze unstack view view_as vsplit vstack
        """,
    "indexing, search and sort": """
        argmax argmin argsort bucketize gather gather_nd index_add index_fill index_put index_sample index_select
        masked_fill masked_scatter masked_select multiplex nonzero put_along_axis scatter scatter_nd
        scatter_nd_add searchsorted sort take take_along_axis topk unique unique_consecutive where
        """,
    "logic, bitwise and tests": """
        allclose bitwise_and bitwise_invert bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift
        bitwise_xor equal equal_all greater_equal greater_than is_complex is_empty is_floating_point is_integer
        is_tensor isclose isfinite isin isinf isnan isneginf isposinf isreal less_equal less_than logical_and
        logical_not logical_or logical_xor not_equal
        """,
    "linear algebra (paddle.*)": """
        bmm cdist cross dist dot einsum inner inverse kron matmul mm mv outer pdist tensordot trace
        """,
    "linear algebra (paddle.linalg.*)": """
        cholesky cholesky_inverse cholesky_solve cond corrcoef cov det eig eigh eigvals eigvalsh
        householder_product inv lstsq lu lu_solve lu_unpack matrix_exp matrix_norm matrix_power matrix_rank
        multi_dot norm ormqr pca_lowrank pinv qr slogdet solve svd svd_lowrank svdvals triangular_solve vecdot
        vector_norm
        """,
    "fft (paddle.fft.*)": """
        fft fft2 fftfreq fftn fftshift hfft hfft2 hfftn ifft ifft2 ifftn ifftshift ihfft ihfft2 ihfftn irfft
        irfft2 irfftn rfft rfft2 rfftfreq rfftn
        """,
    "random": """
        bernoulli binomial get_rng_state log_normal multinomial normal poisson rand randint randint_like randn
        randperm seed set_rng_state standard_gamma standard_normal uniform
        """,
    "aliases and torch-style names": """
        argwhere as_tensor asarray broadcast_shapes cat clamp concatenate div eq from_dlpack from_numpy ge ger
        greater gt histogram_bin_edges inverse le less lt manual_seed matrix_transpose msort mul narrow ne permute
        rand_like randn_like range ravel reverse scatter_add scatter_reduce sub take_along_dim to_dlpack
        true_divide vecdot view_as_complex view_as_real
        """,
    "devices, printing and state": """
        CPUPlace CUDAPlace create_parameter get_cuda_rng_state get_device is_compiled_with_cuda
        is_compiled_with_rocm is_compiled_with_xpu set_cuda_rng_state set_device set_printoptions
        """,
}

# where to look for a Paddle name, per area (first hit wins)
PADDLE_WHERE = {
    "linear algebra (paddle.linalg.*)": ["padax.linalg"],
    "fft (paddle.fft.*)": ["padax.fft"],
    "random": ["padax", "padax.random"],
}
PADDLE_DEFAULT_WHERE = ["padax", "padax.nn.functional"]

# ---- Array API standard 2023.12 ---------------------------------------------------------------------

ARRAY_API = {
    "constants": "e inf nan newaxis pi",
    "creation": """arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like
                   tril triu zeros zeros_like""",
    "data type functions": "astype can_cast finfo iinfo isdtype result_type",
    "data types": "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128",
    "elementwise": """abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
                      bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp
                      expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal
                      log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum
                      multiply negative not_equal positive pow real remainder round sign signbit sin sinh square
                      sqrt subtract tan tanh trunc""",
    "indexing": "take",
    "inspection": "__array_namespace_info__",
    "linear algebra": "matmul matrix_transpose tensordot vecdot",
    "manipulation": """broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll
                       squeeze stack tile unstack""",
    "searching": "argmax argmin nonzero searchsorted where",
    "sets": "unique_all unique_counts unique_inverse unique_values",
    "sorting": "argsort sort",
    "statistical": "cumulative_sum max mean min prod std sum var",
    "utility": "all any",
    "linalg extension": """cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank
                           matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot
                           vector_norm""",
    "fft extension": """fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift
                        ifftshift""",
}
ARRAY_API_WHERE = {"linalg extension": "padax.numpy.linalg", "fft extension": "padax.numpy.fft"}


def names(block: str) -> list[str]:
    return sorted(set(block.split()))


def _lookup(name: str, modules: list[str]) -> str | None:
    for m in modules:
        try:
            mod = importlib.import_module(m)
        except ImportError:
            continue
        if hasattr(mod, name):
            return f"{m}.{name}"
    return None


def _table(rows: list[tuple[str, str | None]]) -> list[str]:
    out = ["| name | in padax | where |", "| --- | --- | --- |"]
    for n, where in rows:
        out.append(f"| `{n}` | {'yes' if where else '**no**'} | {f'`{where}`' if where else ''} |")
    return out


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.0f}%" if n else "-"


def _extras(provided: list[str], area: str) -> str:
    return ", ".join(f"`{n}`" for n in sorted(set(provided) - set(names(ARRAY_API[area]))))


def render() -> str:
    sys.path.insert(0, ROOT)
    import padax  # noqa: F401  (the package under this checkout)
    paddle_sections, paddle_summary = [], []
    tot_n = tot_k = 0
    for area, block in PADDLE.items():
        rows = [(n, _lookup(n, PADDLE_WHERE.get(area, PADDLE_DEFAULT_WHERE))) for n in names(block)]
        k = sum(1 for _, w in rows if w)
        tot_n += len(rows)
        tot_k += k
        paddle_summary.append(f"| {area} | {len(rows)} | {k} | {_pct(k, len(rows))} |")
        paddle_sections += [f"### {area}", "", *_table(rows), ""]
    api_sections, api_summary = [], []
    atot_n = atot_k = 0
    for area, block in ARRAY_API.items():
        mod = ARRAY_API_WHERE.get(area, "padax.numpy")
        rows = [(n, _lookup(n, [mod])) for n in names(block)]
        k = sum(1 for _, w in rows if w)
        atot_n += len(rows)
        atot_k += k
        api_summary.append(f"| {area} | {len(rows)} | {k} | {_pct(k, len(rows))} |")
        api_sections += [f"### {area}", "", *_table(rows), ""]
    import padax.numpy as pnp
    standard = {n for b in ARRAY_API.values() for n in b.split()}
    extras = sorted(n for n in dir(pnp) if not n.startswith("_") and n not in standard
                    and n not in ("annotations", "linalg", "fft"))
    lines = [
        "# padax API coverage",
        "",
        "Generated by `scripts/gen_api_docs.py` from the working tree; do not edit by hand.",
        "",
        "## Paddle 3 tensor API",
        "",
        "Paddle's `paddle.*`, `paddle.linalg.*` and `paddle.fft.*` tensor functions (in-place `_` variants",
        "left out), looked up in `padax`, `padax.linalg`, `padax.fft`, `padax.random` and",
        "`padax.nn.functional`.",
        "",
        "| area | names | in padax | coverage |",
        "| --- | --- | --- | --- |",
        *paddle_summary,
        f"| **total** | {tot_n} | {tot_k} | {_pct(tot_k, tot_n)} |",
        "",
        *paddle_sections,
        "## Python Array API standard 2023.12 (`padax.numpy`)",
        "",
        "The standard's namespace, looked up in `padax.numpy` (extensions in `padax.numpy.linalg` and",
        "`padax.numpy.fft`).",
        "",
        "| area | names | in padax | coverage |",
        "| --- | --- | --- | --- |",
        *api_summary,
        f"| **total** | {atot_n} | {atot_k} | {_pct(atot_k, atot_n)} |",
        "",
        *api_sections,
        "## `padax.numpy` beyond the standard",
        "",
        "NumPy names and later-standard functions also provided by `padax.numpy`:",
        "",
        ", ".join(f"`{n}`" for n in extras),
        "",
        "`padax.numpy.linalg` extras: " + _extras(pnp.linalg.__all__, "linalg extension") + ".",
        "",
        "`padax.numpy.fft` extras: " + _extras(pnp.fft.__all__, "fft extension") + ".",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "api.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 if the output file is not up to date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"{args.output} is out of date; run python scripts/gen_api_docs.py", file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
