"""Every padax name with a Paddle counterpart against real Paddle (the oracle): values, dtypes and shapes
over the argument combinations Paddle documents (tables in cases_*.py), the same signatures (parameter
names, order and defaults), and a check that the tables leave no such name out."""
from __future__ import annotations

import inspect

import pytest

import padax
from tests.conftest import paddle_oracle
from tests.paddle_parity import (cases_creation, cases_linalg, cases_manipulation, cases_math, cases_random,
                                 cases_reduction)
from tests.paddle_parity._harness import A, Arr, Case, case, run_case

_TABLES = (cases_math, cases_creation, cases_reduction, cases_manipulation, cases_linalg, cases_random)

# the rest of Paddle's Tensor methods, beyond the functions run as methods below
_METHOD_CASES = [
    case("Tensor.astype", A((3, 4)), "float64"), case("Tensor.cast", A((3, 4), "int32"), "float32"),
    case("Tensor.dim", A((2, 3, 4))), case("Tensor.ndimension", A((3, 4))), case("Tensor.numel", A((3, 4))),
    case("Tensor.tolist", A((3, 4), "int64")), case("Tensor.reshape", A((3, 4)), 4, 3),
    case("Tensor.reshape", A((3, 4)), [2, -1]), case("Tensor.transpose", A((3, 4)), [1, 0]),
    case("Tensor.expand", A((1, 4)), 3, 4), case("Tensor.tile", A((3, 4)), [2, 1]), case("Tensor.clone", A((3,))),
    case("Tensor.float", A((3,), "int64")), case("Tensor.double", A((3,))), case("Tensor.half", A((3,))),
    case("Tensor.bfloat16", A((3,))), case("Tensor.int", A((3,))), case("Tensor.long", A((3,))),
    case("Tensor.short", A((3,))), case("Tensor.char", A((3,))), case("Tensor.byte", A((3,), "int32", 0, 9)),
    case("Tensor.bool", A((3,))), case("Tensor.cfloat", A((3,))), case("Tensor.cdouble", A((3,))),
    case("Tensor.float16", A((3,))), case("Tensor.float32", A((3,), "int32")), case("Tensor.float64", A((3,))),
    case("Tensor.int8", A((3,))), case("Tensor.int16", A((3,))), case("Tensor.int32", A((3,))),
    case("Tensor.int64", A((3,))), case("Tensor.uint8", A((3,), "int32", 0, 9)), case("Tensor.complex64", A((3,))),
    case("Tensor.complex128", A((3,))),
    case("Tensor.to", A((3,)), "float64"), case("Tensor.to", A((3,)), "cpu"), case("Tensor.to", A((3,)), A((2,), "int64")),
    case("Tensor.to", A((3,)), dtype="int32"), case("Tensor.type_as", A((3,)), A((2,), "int32")),
    case("Tensor.new_zeros", A((3,), "int32"), [2, 3]), case("Tensor.new_ones", A((3,)), [2], dtype="float64"),
    case("Tensor.new_full", A((3,), "int64"), [2], 7), case("Tensor.new_empty", A((3,)), [2, 2], values=False),
    case("Tensor.repeat", A((2, 3)), 2, 1), case("Tensor.repeat", A((2, 3)), [1, 2, 2]),
    case("Tensor.permute", A((2, 3, 4)), 2, 0, 1), case("Tensor.permute", A((2, 3, 4)), [1, 2, 0]),
    case("Tensor.split_with_sizes", A((5, 2)), [2, 3]), case("Tensor.split_with_sizes", A((2, 5)), [1, 4], 1),
    case("Tensor.fill_diagonal_tensor", A((3, 3)), A((3,))), case("Tensor.fill_diagonal_tensor", A((3, 4)), A((3,)), 1),
    case("Tensor.detach", A((3,))), case("Tensor.contiguous", A((3,))), case("Tensor.cpu", A((3,))),
    case("Tensor.value", A((3,))),
    case("Tensor.element_size", A((3,), "float64")), case("Tensor.is_contiguous", A((3,))), case("Tensor.stride", A((2, 3, 4))),
    case("Tensor.stride", A((2, 3, 4)), 1), case("Tensor.get_strides", A((2, 3))), case("Tensor.is_same_shape", A((2, 3)), A((2, 3))),
    case("Tensor.is_dense", A((3,))), case("Tensor.is_dist", A((3,))), case("Tensor.is_sparse", A((3,))),
    case("Tensor.get_device", A((3,))), case("Tensor.dense_dim", A((2, 3))), case("Tensor.sparse_dim", A((2, 3))),
    case("Tensor.is_floating_point", A((3,))), case("Tensor.is_integer", A((3,), "int32")), case("Tensor.is_complex", A((3,))),
    case("Tensor.is_empty", A((0, 3))), case("Tensor.item", A((1,), "int64")), case("Tensor.numpy", A((2, 3))),
    case("Tensor.clamp", A((3, 4)), -1.0, 1.0), case("Tensor.cholesky", Arr([[4.0, 2.0], [2.0, 3.0]])),
    case("Tensor.multinomial", A((4,), "float32", 0.1, 1), 2, values=False),
]


# padax Tensor methods that Paddle's Tensor does not have (padax's own conveniences)
_PADAX_ONLY_METHODS = {"zeros_like", "ones_like", "full_like", "positive", "crop"}


def _method_variants() -> list[Case]:
    """Each Tensor method that is also a function, called as a method on its first case's first argument."""
    seen, out = set(), []
    for table in _TABLES:
        for c in table.CASES:
            name = c.path.removeprefix("linalg.")
            if "." in name or name in seen or not c.args or not isinstance(c.args[0], (A, Arr)):
                continue
            if not (hasattr(padax.Tensor, name) and callable(getattr(padax.Tensor, name, None))) \
                    or name in _PADAX_ONLY_METHODS:
                continue
            seen.add(name)
            out.append(Case("Tensor." + name, c.args, c.kwargs, c.values, c.raises, c.rtol, c.atol,
                            "Tensor." + c.id, c.post, c.jit))
    return out


ALL_CASES = [c for t in _TABLES for c in t.CASES] + _METHOD_CASES + _method_variants()


@pytest.fixture(scope="module")
def paddle():
    return paddle_oracle()


@pytest.mark.parametrize("c", ALL_CASES, ids=[c.id for c in ALL_CASES])
def test_value_dtype_shape(c: Case, paddle) -> None:
    run_case(c, paddle)


# ---- signatures ---------------------------------------------------------------------------------------

# padax takes Paddle's parameters under Paddle's names, in Paddle's order, with Paddle's defaults; these
# differ on purpose:
_SIGNATURE_EXCEPTIONS = {
    "grad": "a JAX transform (padax.grad(f)) and Paddle's tape gradient grad(outputs, inputs, ...) in one name",
    "load": "padax.load(path, return_numpy=False): one more option",
    "seed": "padax.seed(seed) returns the generator state as Paddle does; same parameter",
    "swapaxes": "Paddle's swapaxes(x, perm) is an alias of transpose; padax takes (x, axis0, axis1) and also a perm",
    "swapdims": "as swapaxes",
    "trunc": "trunc(x): Paddle calls its parameter `input`, padax `x` (positional use is the same)",
    "Tensor.trunc": "as trunc",
    "Tensor.swapaxes": "as swapaxes", "Tensor.swapdims": "as swapaxes",
}


def _params(fn):
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None


def _differences(pf, xf, method: bool) -> list[str]:
    P = inspect.Parameter
    pp, xp = _params(pf), _params(xf)
    if pp is None or xp is None:
        return []
    if method:  # the Tensor itself, whatever each framework calls it
        pp, xp = pp[1:], xp[1:]
    if any(p.kind == P.VAR_KEYWORD for p in xp) and any(p.kind == P.VAR_POSITIONAL for p in xp):
        return []
    varargs = any(p.kind == P.VAR_POSITIONAL for p in xp)  # x.reshape(2, 3) as well as x.reshape([2, 3])
    xd = {p.name: p for p in xp}
    issues = []
    ppos = [p.name for p in pp if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    xpos = [p.name for p in xp if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    if xpos[:len(ppos)] != ppos and not varargs:
        issues.append(f"positional parameters: Paddle {ppos}, padax {xpos}")
    for p in pp:
        if p.kind in (P.VAR_KEYWORD, P.VAR_POSITIONAL):
            continue
        q = xd.get(p.name)
        if q is None:
            if not any(x.kind == P.VAR_KEYWORD for x in xp) and not (varargs and p.name in ppos[:1]):
                issues.append(f"missing parameter {p.name}")
        elif p.default is not P.empty and q.default is not P.empty:
            a, b = p.default, q.default
            if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                a, b = list(a), list(b)
            if a != b:
                issues.append(f"default of {p.name}: Paddle {p.default!r}, padax {q.default!r}")
        elif (p.default is P.empty) != (q.default is P.empty):
            issues.append(f"{p.name} is {'required' if p.default is P.empty else 'optional'} in Paddle")
    return issues


def _common_names(paddle):
    def pub(m):
        return {n for n in dir(m) if not n.startswith("_")}
    out = []
    for prefix, pm, xm in (("", paddle, padax), ("linalg.", paddle.linalg, padax.linalg),
                           ("fft.", paddle.fft, padax.fft), ("Tensor.", paddle.Tensor, padax.Tensor)):
        for n in sorted(pub(pm) & pub(xm)):
            pf, xf = getattr(pm, n), getattr(xm, n)
            if inspect.isclass(pf) or inspect.ismodule(pf) or not callable(pf) or not callable(xf):
                continue
            if inspect.isclass(xf) or inspect.ismodule(xf):
                continue
            out.append((prefix + n, pf, xf))
    return out


def test_signatures_match_paddle(paddle) -> None:
    bad = []
    for name, pf, xf in _common_names(paddle):
        if name in _SIGNATURE_EXCEPTIONS:
            continue
        issues = _differences(pf, xf, name.startswith("Tensor."))
        if issues:
            bad.append(f"{name}: " + "; ".join(issues))
    assert not bad, "signatures that differ from Paddle's:\n" + "\n".join(bad)


# ---- coverage: the tables leave no common name out -----------------------------------------------------

# names with a Paddle counterpart whose behaviour is checked elsewhere, or that are not tensor functions
_NOT_IN_TABLES = {
    "grad", "jit", "seed", "manual_seed", "save", "load", "set_printoptions", "set_device", "get_device",
    "set_default_dtype", "get_default_dtype", "set_rng_state", "get_rng_state", "set_cuda_rng_state",
    "get_cuda_rng_state", "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
    "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device", "is_compiled_with_distribute",
    "is_tensor", "is_complex", "is_floating_point", "is_integer", "is_empty", "iinfo", "finfo", "vmap", "jacobian",
    "hessian", "increment", "in_dynamic_mode", "device_count", "get_flags", "set_flags", "summary", "flops",
    "from_dlpack", "to_dlpack", "get_default_device", "set_default_device",  # tests/device
    "disable_static", "enable_static",  # tests/paddle_parity/test_namespaces_and_info.py
    "is_grad_enabled",  # the tape's modes: tests/tape (against Paddle)
    "Tensor.to_sparse_coo", "Tensor.to_sparse_csr",  # tests/sparse/test_tensor_methods.py (against Paddle)
    # the tape's methods (tests/tape, against Paddle), in-place refusals, printing
    "Tensor.backward", "Tensor.clear_grad", "Tensor.clear_gradient", "Tensor.register_hook", "Tensor.retain_grads",
    "Tensor.gradient", "Tensor.set_value", "Tensor.set_tensor", "Tensor.set_string_list", "Tensor.set_vocab",
    "Tensor.apply", "Tensor.cuda", "Tensor.block_until_ready", "Tensor.is_sparse_coo", "Tensor.is_sparse_csr",
    "Tensor.is_selected_rows", "Tensor.to_dense", "Tensor.is_tensor",
    "Tensor.pin_memory",  # Paddle's CPU build refuses it (no pinned memory); padax returns the Tensor
    # methods whose first argument is a list of Tensors (checked as the functions concat, stack, ...)
    "Tensor.block_diag", "Tensor.broadcast_shape", "Tensor.broadcast_tensors", "Tensor.concat", "Tensor.stack",
    "Tensor.multi_dot", "Tensor.multiplex", "Tensor.add_n",
}


def test_every_common_name_has_a_case(paddle) -> None:
    covered = {c.path for c in ALL_CASES}
    missing = []
    for name, _, _ in _common_names(paddle):
        if name in covered or name in _NOT_IN_TABLES or name.endswith("_"):
            continue
        if name.startswith("Tensor.") and name[len("Tensor."):].startswith("__"):
            continue
        missing.append(name)
    assert not missing, "padax names with a Paddle counterpart and no parity case: " + ", ".join(missing)
