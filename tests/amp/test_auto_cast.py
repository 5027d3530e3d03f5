"""auto_cast: which primitives run in which dtype (O1/O2/OD, custom lists) in eager mode and under
jit/grad/vmap, against Paddle's lists; gradients come back in the parameters' dtype."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import nn
from padax.amp import lists

F = nn.functional
BF16 = np.dtype(padax.bfloat16)
F32 = np.dtype("float32")


def _operand_dtypes(closed) -> dict[str, set]:
    """primitive name -> the set of floating dtypes its operands had, over every equation (nested too)."""
    seen: dict[str, set] = {}

    def walk(jaxpr):
        for e in jaxpr.eqns:
            for v in e.invars:
                dt = np.dtype(v.aval.dtype)
                if dt.kind == "f" or dt == BF16:
                    seen.setdefault(e.primitive.name, set()).add(dt)
            for p in e.params.values():
                sub = getattr(p, "jaxpr", None)
                if sub is not None:
                    walk(sub)
    walk(closed.jaxpr)
    return seen


class _Net(nn.Layer):
    def __init__(self):
        super().__init__()
        padax.seed(0)
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.norm = nn.LayerNorm(64)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        h = F.relu(self.conv(x)).mean(axis=1).reshape([x.shape[0], 64])
        return F.log_softmax(self.fc(self.norm(h)), axis=-1)


def _loss(net, x, y):
    return F.cross_entropy(net(x), y)


def _inputs():
    rng = np.random.default_rng(0)
    return padax.to_tensor(rng.normal(size=(2, 1, 8, 8)).astype("float32")), padax.to_tensor(np.array([1, 3]))


def _dtypes_under(fn, *args, **amp):
    with padax.amp.auto_cast(**amp):
        return _operand_dtypes(padax.make_jaxpr(fn)(*args))


def test_lists_are_paddles():
    paddle = pytest.importorskip("tests.conftest").paddle_oracle()
    for dt in ("float16", "bfloat16"):
        for lvl in ("OD", "O1", "O2"):
            assert set(padax.amp.white_list()[dt][lvl]) == set(paddle.amp.white_list()[dt][lvl])
            assert set(padax.amp.black_list()[dt][lvl]) == set(paddle.amp.black_list()[dt][lvl])


def test_o1_white_ops_low_black_ops_float32():
    net, (x, y) = _Net(), _inputs()
    seen = _dtypes_under(_loss, net, x, y, dtype="bfloat16")
    assert seen["dot_general"] == {BF16} and seen["conv_general_dilated"] == {BF16}
    for prim in ("exp", "log", "reduce_sum", "rsqrt"):
        if prim in seen:
            assert seen[prim] == {F32}, prim
    assert {"exp", "reduce_sum"} <= set(seen)
    # every primitive of a Paddle black-list op runs in float32, every white-list primitive in bfloat16
    for prim in lists.primitives(lists.FP16_BLACK_LIST) & set(seen):
        assert seen[prim] == {F32}, prim
    for prim in lists.primitives(lists.WHITE_LIST) & set(seen):
        assert seen[prim] == {BF16}, prim


def test_o1_grad_and_vmap_and_float16():
    net, (x, y) = _Net(), _inputs()
    seen = _dtypes_under(padax.grad(_loss), net, x, y, dtype="float16")
    assert seen["dot_general"] == {np.dtype("float16")}
    assert seen["exp"] == {F32}
    with padax.amp.auto_cast(dtype="bfloat16"):
        g = padax.eval_shape(padax.grad(_loss), net, x, y)
        v = padax.vmap(lambda a, b: a @ b)(padax.ones([3, 2, 4]), padax.ones([3, 4, 5]))
    assert v.dtype == BF16
    assert all(p.dtype == F32 for p in padax.tree.leaves(g))  # gradients in the parameters' dtype


def test_o2_only_black_list_in_float32():
    net, (x, y) = _Net(), _inputs()
    net = padax.amp.decorate(net, level="O2", dtype="bfloat16")
    assert net.fc.weight.dtype == BF16 and net.norm.weight.dtype == BF16  # bf16: LayerNorm is cast as well
    seen = _dtypes_under(_loss, net, x.astype("bfloat16"), y, level="O2", dtype="bfloat16")
    assert seen["dot_general"] == {BF16} and seen["conv_general_dilated"] == {BF16}
    a, b = padax.ones([2, 3], "bfloat16"), padax.ones([3, 2], "bfloat16")
    prog = lambda a, b: padax.log(padax.exp(a @ b))  # noqa: E731
    seen = _dtypes_under(prog, a, b, level="O2", dtype="bfloat16")
    assert seen["exp"] == {BF16} and seen["log"] == {BF16}  # Paddle's O2 black list has neither
    seen = _dtypes_under(prog, a, b, level="O1", dtype="bfloat16")
    assert seen["exp"] == {F32} and seen["log"] == {F32}
    # use_promote=False: gray ops take low precision even from float32 inputs
    seen = _dtypes_under(lambda a: padax.tanh(a) + 1.0, padax.ones([3]), level="O2", dtype="bfloat16",
                         use_promote=False)
    assert seen["tanh"] == {BF16}
    # custom black list at O2 (a composite Paddle name): softmax's exp and sums back in float32
    seen = _dtypes_under(prog, a, b, level="O2", dtype="bfloat16", custom_black_list=["softmax"])
    assert seen["exp"] == {F32} and seen["log"] == {F32} and seen["dot_general"] == {BF16}


def test_od_only_white_list_low():
    seen = _dtypes_under(lambda a, b: padax.tanh(a @ b), padax.ones([2, 3]), padax.ones([3, 2]),
                         level="OD", dtype="bfloat16")
    assert seen["dot_general"] == {BF16} and seen["tanh"] == {F32}


def test_custom_lists():
    net, (x, y) = _Net(), _inputs()
    seen = _dtypes_under(_loss, net, x, y, dtype="bfloat16", custom_black_list=["matmul_v2"])
    assert seen["dot_general"] == {F32} and seen["conv_general_dilated"] == {BF16}
    seen = _dtypes_under(lambda a: padax.exp(a), padax.ones([3]), dtype="bfloat16", custom_white_list=["exp"])
    assert seen["exp"] == {BF16}
    seen = _dtypes_under(lambda a: padax.tanh(a), padax.ones([3]), dtype="bfloat16", custom_black_list=["tanh"])
    assert seen == {"tanh": {F32}}  # a padax primitive name: float32 operands stay float32
    with pytest.raises(ValueError, match="both"):
        padax.amp.auto_cast(custom_white_list=["exp"], custom_black_list=["exp"]).__enter__()
    with pytest.raises(ValueError, match="composite"):
        padax.amp.auto_cast(custom_white_list=["softmax"]).__enter__()
    with pytest.raises(ValueError, match="unknown op"):
        padax.amp.auto_cast(custom_black_list=["matmull"]).__enter__()
    seen = _dtypes_under(lambda a, b: padax.tanh(a @ b), padax.ones([2, 3]), padax.ones([3, 2]),
                         dtype="bfloat16", custom_black_list=["tanh"])
    assert seen["dot_general"] == {BF16} and seen["tanh"] == {F32}  # a Paddle gray op name on the black list
    with pytest.raises(ValueError, match="level"):
        padax.amp.auto_cast(level="O3").__enter__()
    with pytest.raises(ValueError, match="dtype"):
        padax.amp.auto_cast(dtype="float64").__enter__()


def test_eager_values_and_gradients_match_manual_casts():
    rng = np.random.default_rng(1)
    x = padax.to_tensor(rng.normal(size=(4, 8)).astype("float32"))
    w = padax.to_tensor(rng.normal(size=(8, 3)).astype("float32"))

    def f(w, x):
        return padax.exp(x @ w).sum()

    def manual(w, x):
        return padax.exp((x.astype("bfloat16") @ w.astype("bfloat16")).astype("float32")).sum()

    with padax.amp.auto_cast(dtype="bfloat16"):
        eager = x @ w
        val, g = padax.value_and_grad(f)(w, x)
    assert eager.dtype == BF16
    ref = np.asarray(x.astype("bfloat16")).astype(np.float32) @ np.asarray(w.astype("bfloat16")).astype(np.float32)
    np.testing.assert_allclose(np.asarray(eager.astype("float32")), ref, rtol=1e-2, atol=1e-2)
    mval, mg = padax.value_and_grad(manual)(w, x)
    assert g.dtype == F32
    np.testing.assert_allclose(float(val), float(mval), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(g), np.asarray(mg), rtol=1e-6)
    # and the float32 gradient of the low-precision program is close to the float32 program's
    np.testing.assert_allclose(np.asarray(g), np.asarray(padax.grad(f)(w, x)), rtol=5e-2, atol=5e-2)


def test_jit_keeps_a_program_per_policy_and_nesting():
    mm = padax.jit(lambda a, b: a @ b)
    a, b = padax.ones([2, 3]), padax.ones([3, 2])
    assert mm(a, b).dtype == F32 and mm(a, b).dtype == F32  # the second call takes the C++ fast path
    with padax.amp.auto_cast(dtype="bfloat16"):
        assert mm(a, b).dtype == BF16
        assert padax.amp.is_autocast_enabled() and padax.amp.get_autocast_dtype() == "bfloat16"
        with padax.amp.auto_cast(enable=False):
            assert mm(a, b).dtype == F32 and not padax.amp.is_autocast_enabled()
        with padax.amp.auto_cast(dtype="float16"):
            assert mm(a, b).dtype == np.dtype("float16")
        assert mm(a, b).dtype == BF16
    assert mm(a, b).dtype == F32 and padax.amp.get_autocast_dtype() == "float32"

    def outer(a, b):  # auto_cast inside a jitted function, around a nested jit
        with padax.amp.auto_cast(dtype="bfloat16"):
            return mm(a, b)
    assert padax.jit(outer)(a, b).dtype == BF16


def test_supported_queries():
    assert padax.amp.is_bfloat16_supported() and padax.amp.is_float16_supported("cpu")
