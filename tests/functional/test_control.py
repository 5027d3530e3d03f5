"""Control flow primitives (cond/switch, while_loop, fori_loop, scan, map): values against
Python loops, eagerly and under jit; nesting; closures; pytrees; vmap; error messages."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.transforms.batching import vmap
from tests.conftest import assert_close

F32 = np.float32


def _x(n=3, lo=0.1, hi=1.0):
    return np.linspace(lo, hi, n).astype(F32)


def _jaxpr_prims(closed):
    """Names of all primitives in a jaxpr, nested bodies included."""
    names = []

    def walk(j):
        for e in j.eqns:
            names.append(e.primitive.name)
            for v in e.params.values():
                for b in (v if isinstance(v, tuple) else (v,)):
                    if hasattr(b, "jaxpr") and hasattr(b, "consts"):
                        walk(b.jaxpr)
    walk(closed.jaxpr)
    return names


# ---- cond / switch ------------------------------------------------------------------------------

def test_cond_values_pytrees_eager_and_jit():
    x, y = _x(), _x(3, -1.0, 2.0)

    def f(p, x, y):
        return lax.cond(p, lambda a, b: {"s": a + b["v"], "t": (a * 2.0,)},
                        lambda a, b: {"s": a - b["v"], "t": (lax.sin(a),)}, x, {"v": y})

    jf = padax.jit(f)
    for p in (True, False, F32(0.0), np.int32(3)):
        exp_s = x + y if p else x - y
        exp_t = x * 2 if p else np.sin(x)
        for fn in (f, jf):
            out = fn(p, x, y)
            assert_close(out["s"], exp_s)
            assert_close(out["t"][0], exp_t)
    assert jf._cache_size() <= 3  # traced predicate: no retrace per value (bool, f32, i32 signatures)


def test_switch_clamps_index_and_jit_closure():
    x = _x()
    branches = [lambda a: a, lambda a: a * 2.0, lambda a: lax.neg(a)]
    refs = [x, x * 2, -x]
    jf = padax.jit(lambda i, a: lax.switch(i, branches, a))
    for i in (-4, 0, 1, 2, 7):
        exp = refs[min(max(i, 0), 2)]
        assert_close(lax.switch(i, branches, x), exp)
        assert_close(jf(np.int32(i), x), exp)
    assert jf._cache_size() == 1
    # one branch: no cond at all; no operands: branches close over values
    assert_close(lax.switch(3, [lambda: x * 3.0]), x * 3)
    y = _x(3, 2.0, 3.0)
    g = padax.jit(lambda p, a, b: lax.cond(p, lambda: a * b, lambda: b))
    assert_close(g(True, x, y), x * y)
    assert_close(g(False, x, y), y)


def test_cond_literal_and_integer_outputs():
    def f(p, x):
        return lax.cond(p, lambda a: (a, 1), lambda a: (a * 0.0, 2), x)

    for p, k in ((True, 1), (False, 2)):
        out, n = padax.jit(f)(p, _x())
        assert int(n) == k
    # a weakly typed branch output joins a strong one as strong
    out = lax.cond(True, lambda: 1.0, lambda: padax.to_tensor(np.float32(2.0)))
    assert out.dtype == np.float32 and float(out) == 1.0


# ---- while_loop / fori_loop -------------------------------------------------------------------

def test_while_loop_pytree_carry_eager_and_jit():
    def f(x):
        def cond_fun(c):
            return lax.lt(c["i"], 10) & (c["v"].sum() < 50.0)

        def body_fun(c):
            return {"i": c["i"] + 1, "v": c["v"] * 1.5, "hist": (c["hist"][0] + c["v"],)}
        return lax.while_loop(cond_fun, body_fun, {"i": 0, "v": x, "hist": (padax.zeros_like(x),)})

    x = _x()
    i, v, h = 0, x.copy(), np.zeros_like(x)
    while i < 10 and v.sum() < 50:
        i, v, h = i + 1, v * F32(1.5), h + v
    for fn in (f, padax.jit(f)):
        out = fn(x)
        assert int(out["i"]) == i
        assert_close(out["v"], v)
        assert_close(out["hist"][0], h)


def test_fori_loop_static_is_scan_dynamic_is_while():
    x = _x()

    def body(i, c):
        return c * 0.5 + i

    def ref(lo, hi):
        c = x.copy()
        for i in range(lo, hi):
            c = c * F32(0.5) + F32(i)
        return c

    for lo, hi in ((0, 4), (2, 7), (3, 3), (5, 2)):
        assert_close(lax.fori_loop(lo, hi, body, x), ref(lo, hi))
    jd = padax.jit(lambda lo, hi, a: lax.fori_loop(lo, hi, body, a))
    for lo, hi in ((0, 4), (2, 7), (5, 2)):
        assert_close(jd(np.int32(lo), np.int32(hi), x), ref(lo, hi))
    assert_close(padax.jit(lambda a: lax.fori_loop(1, 6, body, a, unroll=2))(x), ref(1, 6))
    static = _jaxpr_prims(padax.make_jaxpr(lambda a: lax.fori_loop(0, 3, body, a))(x))
    dynamic = _jaxpr_prims(padax.make_jaxpr(lambda n, a: lax.fori_loop(0, n, body, a))(np.int32(3), x))
    assert "scan" in static and "while" not in static
    assert "while" in dynamic and "scan" not in dynamic


def test_weak_init_is_promoted_to_the_body_type():
    out = lax.fori_loop(0, 3, lambda i, c: c + 0.5, 0)
    assert out.dtype == np.float32 and float(out) == 1.5
    c, ys = lax.scan(lambda c, x: (c + x, c), 0.0, np.arange(3, dtype=F32))
    assert c.dtype == np.float32 and not c.aval.weak_type
    assert_close(ys, np.array([0, 0, 1], F32))


# ---- scan / map ---------------------------------------------------------------------------------

def _scan_ref(init, xs, reverse):
    c, s = init
    ys = [None] * len(xs["a"])
    order = range(len(xs["a"]))[::-1] if reverse else range(len(xs["a"]))
    for i in order:
        a, b = xs["a"][i], xs["b"][i]
        c, s = c * F32(0.9) + a, s + b.sum()
        ys[i] = (c * b[0], s)
    return (c, s), (np.stack([y[0] for y in ys]), np.stack([y[1] for y in ys]))


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_pytrees_reverse_unroll(reverse):
    rng = np.random.default_rng(0)
    xs = {"a": rng.standard_normal((5, 3)).astype(F32), "b": rng.standard_normal((5, 2)).astype(F32)}
    init = (np.ones(3, F32), F32(0.0))

    def f(init, xs, unroll):
        def step(carry, x):
            c, s = carry
            c = c * 0.9 + x["a"]
            s = s + x["b"].sum()
            return (c, s), (c * x["b"][0], s)
        return lax.scan(step, init, xs, reverse=reverse, unroll=unroll)

    (ec, es), (ey0, ey1) = _scan_ref(init, xs, reverse)
    runs = [f(init, xs, 1)] + [padax.jit(f, static_argnums=2)(init, xs, u) for u in (1, 2, True)]
    for (c, s), (y0, y1) in runs:
        assert_close(c, ec, rtol=1e-5)
        assert_close(s, es, rtol=1e-5)
        assert_close(y0, ey0, rtol=1e-5)
        assert_close(y1, ey1, rtol=1e-5)


def test_scan_length_without_xs_zero_length_and_map():
    c, ys = lax.scan(lambda c, x: (c * 2.0, c), F32(1.0), None, length=4)
    assert float(c) == 16.0 and ys.shape == (4,)
    assert_close(ys, np.array([1, 2, 4, 8], F32))
    c, ys = padax.jit(lambda x: lax.scan(lambda c, x: (c + x, x * 2.0), np.ones(2, F32), x))(np.zeros((0, 2), F32))
    assert float(c.sum()) == 2.0 and ys.shape == (0, 2)
    xs = _x(4)
    out = lax.map(lambda v: {"sq": v * v, "neg": -v}, xs)
    assert_close(out["sq"], xs * xs)
    assert_close(out["neg"], -xs)


def test_nested_scan_in_cond_in_while_with_closure_under_jit():
    w = _x(3, 0.5, 1.0)

    @padax.jit
    def f(x, scale):
        def body(c):
            i, v = c

            def inner(v):
                acc, ys = lax.scan(lambda a, xi: (a + xi * scale, a), v[0], v)
                return v + acc
            v = lax.cond(lax.rem(i, 2) == 0, inner, lambda v: v * w, v)
            return i + 1, v
        return lax.while_loop(lambda c: c[0] < 4, body, (0, x))[1]

    def ref(x, scale):
        v = x.copy()
        for i in range(4):
            if i % 2 == 0:
                acc = v[0]
                for xi in v:
                    acc = acc + xi * scale
                v = v + acc
            else:
                v = v * w
        return v

    x = _x()
    assert_close(f(x, F32(0.5)), ref(x, F32(0.5)), rtol=1e-5)
    assert_close(f(x, F32(-1.0)), ref(x, F32(-1.0)), rtol=1e-5)


# ---- vmap ---------------------------------------------------------------------------------------

def test_vmap_cond_batched_operands_and_batched_predicate():
    xs = np.stack([_x(), -_x(), _x() * 3]).astype(F32)

    def f(x):
        return lax.cond(x.sum() > 0, lambda a: lax.sin(a), lambda a: a * 2.0, x)

    exp = np.stack([np.sin(x) if x.sum() > 0 else x * 2 for x in xs])
    assert_close(vmap(f)(xs), exp, rtol=1e-6)
    assert_close(padax.jit(vmap(f))(xs), exp, rtol=1e-6)
    prims = _jaxpr_prims(padax.make_jaxpr(vmap(f))(xs))
    assert "select_n" in prims and "cond" not in prims
    # unbatched predicate, batched operand: stays a cond
    g = lambda p, x: lax.cond(p, lambda a: a + 1.0, lambda a: a - 1.0, x)  # noqa: E731
    assert_close(vmap(g, in_axes=(None, 0))(True, xs), xs + 1)
    assert "cond" in _jaxpr_prims(padax.make_jaxpr(vmap(g, in_axes=(None, 0)))(True, xs))
    # switch with a batched index only
    idx = np.array([0, 2, 1, 5], np.int32)
    out = vmap(lambda i: lax.switch(i, [lambda: F32(10.0), lambda: F32(20.0), lambda: F32(30.0)]))(idx)
    assert_close(out, np.array([10, 30, 20, 30], F32))


def test_vmap_while_unbatched_and_batched_predicate():
    x = _x()

    # batched carry, unbatched predicate (trip count is shared)
    def f(v):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0), (0, v))

    n, v = vmap(f)(np.stack([x, x + 1]))
    assert_close(n, np.array([3, 3], np.int64))
    assert "reduce_or" not in _jaxpr_prims(padax.make_jaxpr(vmap(f))(np.stack([x, x + 1])))
    assert_close(v, np.stack([x, x + 1]) * 8)

    # batched predicate: a masked loop, each element stops on its own
    def g(v, limit):
        return lax.while_loop(lambda c: c[1] < limit, lambda c: (c[0] + 1, c[1] * 2.0), (0, v))

    starts = np.array([0.6, 1.05, 1.5, 7.0], F32)
    n, v = padax.jit(vmap(g, in_axes=(0, None)))(starts, F32(5.0))
    assert_close(n, np.array([4, 3, 2, 0], np.int64))
    assert_close(v, np.array([9.6, 8.4, 6.0, 7.0], F32))
    assert "reduce_or" in _jaxpr_prims(padax.make_jaxpr(vmap(g, in_axes=(0, None)))(starts, F32(5.0)))
    # batched cond consts only (the limit)
    n, v = vmap(g, in_axes=(None, 0))(F32(1.0), np.array([1.5, 5.0], F32))
    assert_close(n, np.array([1, 3], np.int64))


def test_vmap_scan_batched_xs_consts_and_init():
    rng = np.random.default_rng(1)
    xs = rng.standard_normal((4, 6, 3)).astype(F32)  # batch 4, length 6
    w = rng.standard_normal((4, 3)).astype(F32)

    def f(w, c0, xs):
        return lax.scan(lambda c, x: (lax.tanh(c * w + x), c.sum()), c0, xs)

    def ref(w, c0, xs):
        c, ys = c0, []
        for x in xs:
            ys.append(c.sum())
            c = np.tanh(c * w + x)
        return c, np.stack(ys)

    c0 = np.zeros(3, F32)
    for in_axes, args in [((0, None, 0), (w, c0, xs)), ((None, None, 1), (w[0], c0, xs.transpose(1, 0, 2))),
                          ((0, None, None), (w, c0, xs[0])), ((None, 0, None), (w[0], xs[:, 0], xs[0]))]:
        c, ys = vmap(f, in_axes=in_axes)(*args)
        for b in range(4):
            per = [a if ax is None else np.take(a, b, axis=ax) for a, ax in zip(args, in_axes)]
            ec, eys = ref(*per)
            assert_close(c[b], ec, rtol=1e-5, atol=1e-6)
            assert_close(ys[b], eys, rtol=1e-5, atol=1e-6)


# ---- errors -------------------------------------------------------------------------------------

def test_branch_type_mismatch_errors_name_the_leaf_and_types():
    x = _x()
    with pytest.raises(TypeError) as e:
        lax.cond(True, lambda a: {"u": a, "v": a}, lambda a: {"u": a, "v": a[:2]}, x)
    msg = str(e.value)
    assert "output['v']" in msg and "f32[3]" in msg and "f32[2]" in msg and "true_fn" in msg and "false_fn" in msg
    with pytest.raises(TypeError, match="tree structure"):
        lax.cond(True, lambda a: (a, a), lambda a: a, x)
    with pytest.raises(TypeError, match=r"output\[1\] is f32\[3\] in branches\[0\] but i32\[3\] in branches\[2\]"):
        lax.switch(0, [lambda a: (a, a), lambda a: (a, a), lambda a: (a, a.astype("int32"))], x)
    with pytest.raises(TypeError, match="pred must be a scalar"):
        lax.cond(x > 0, lambda a: a, lambda a: a, x)


def test_carry_type_change_errors_name_the_leaf_and_types():
    x = _x()
    with pytest.raises(TypeError) as e:
        lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1][:2]), (0, x))
    msg = str(e.value)
    assert "carry[1]" in msg and "f32[3]" in msg and "f32[2]" in msg and "body_fun" in msg
    with pytest.raises(TypeError, match=r"carry\['h'\] is f32\[3\] in init but f returns f16\[3\]"):
        lax.scan(lambda c, x: ({"h": c["h"].astype("float16")}, x), {"h": x}, x)
    with pytest.raises(TypeError, match="structure"):
        lax.scan(lambda c, x: ((c, c), x), x, x)
    with pytest.raises(TypeError, match="bool scalar"):
        lax.while_loop(lambda c: c, lambda c: c, x)
    with pytest.raises(ValueError, match="leading axis"):
        lax.scan(lambda c, x: (c, x), x, {"a": np.zeros((2, 1), F32), "b": np.zeros((3,), F32)})
    with pytest.raises(TypeError, match="pair"):
        lax.scan(lambda c, x: c, x, x)


def test_eager_calls_reuse_compiled_programs():
    from padax.transforms import dispatch  # eager control flow's compiled programs are cached there
    x = _x()

    def f(x):  # fresh lambdas (and jaxprs) on every call
        return lax.cond(x.sum() > 0, lambda a: a * 2.0, lambda a: a + 1.0, x)

    f(x)
    n = len(dispatch._eager_cache)
    for _ in range(3):
        assert_close(f(x), x * 2)
    assert_close(f(-x), -x + 1)
    assert len(dispatch._eager_cache) == n


def test_collectives_inside_bodies_see_the_vmapped_axis():
    x = np.arange(6, dtype=F32).reshape(2, 3)

    def f(v):
        c, ys = lax.scan(lambda c, xi: (c + lax.psum(xi, "i"), c), 0.0, v)
        return c, lax.cond(v.sum() > 4, lambda a: lax.pmax(a, "i"), lambda a: a * 0.0, v)

    c, y = vmap(f, axis_name="i")(x)
    assert_close(c, np.array([15, 15], F32))
    assert_close(y, np.array([[0, 0, 0], [3, 4, 5]], F32))


@pytest.mark.parametrize("length,err,msg", [
    (2 ** 70, ValueError, r"scan: length 1180591620717411303424 is more steps than a compiled loop can count"),
    (2 ** 31, ValueError, r"scan: length 2147483648 is more steps"),
    (3.5, TypeError, r"scan: length must be an int, got float 3.5"),   # int(3.5) used to run 3 steps
    (True, TypeError, r"scan: length must be an int, got bool"),
    (-1, ValueError, r"scan: length must be non-negative, got -1"),
])
def test_scan_length_is_checked(length, err, msg):
    """An astronomically long scan raised an internal OverflowError while lowering."""
    body = lambda c, x: (c + 1, None)  # noqa: E731
    for run in (lambda: lax.scan(body, 0, None, length=length),
                lambda: padax.jit(lambda c: lax.scan(body, c, None, length=length))(0)):
        with pytest.raises(err, match=msg + r".*test_control.py"):
            run()
    np.testing.assert_array_equal(lax.scan(body, 0, None, length=np.int64(3))[0].numpy(), 3)


def test_fori_loop_static_bounds_beyond_the_step_counter():
    with pytest.raises(ValueError, match=r"fori_loop: the static bounds \[0, 1099511627776\) give 1099511627776 "
                                         r"steps, more than a compiled loop can count"):
        lax.fori_loop(0, 2 ** 40, lambda i, c: c + 1, 0)
    with pytest.raises(ValueError, match=r"fori_loop: bound 1180591620717411303424 does not fit the int64"):
        lax.fori_loop(2 ** 70, 2 ** 70 + 3, lambda i, c: c + 1, 0)
    assert int(lax.fori_loop(2 ** 40, 2 ** 40 + 3, lambda i, c: c + 1, 0)) == 3
