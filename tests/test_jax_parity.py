"""JAX programs under padax: jax's names and behaviour, checked against jax itself.

Snippets that failed when JAX's tutorials (Quickstart, Automatic differentiation,
Pytrees, Custom pytrees, Gradient checkpointing, Custom derivative rules, Writing
custom interpreters, Common gotchas, the autodiff cookbook) were run with
`import padax as jax; import padax.numpy as jnp`, each compared with jax's answer.
"""
import collections
import dataclasses
import functools

import numpy as np
import pytest

import padax
import padax.numpy as pnp

jax = pytest.importorskip("jax")
import jax.ad_checkpoint  # noqa: E402  (a submodule jax does not import itself)
jnp = jax.numpy


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# ---- padax.tree_util ------------------------------------------------------------------------------

TREE = {"b": [1.0, (2.0, None)], "a": collections.OrderedDict(z=3.0, y=4.0),
        "c": collections.defaultdict(list, q=5.0)}


def test_tree_util_names_flatten_like_jax():
    pt, jt = padax.tree_util, jax.tree_util
    assert pt.tree_leaves(TREE) == jt.tree_leaves(TREE)
    leaves, treedef = pt.tree_flatten(TREE)
    assert pt.tree_unflatten(treedef, leaves) == TREE
    assert pt.tree_structure(TREE).num_leaves == jt.tree_structure(TREE).num_leaves
    assert pt.tree_map(lambda x, y: x * y, TREE, TREE) == jt.tree_map(lambda x, y: x * y, TREE, TREE)
    for simple, sep in ((False, ""), (True, "/")):
        ours = [pt.keystr(p, simple=simple, separator=sep) for p, _ in pt.tree_leaves_with_path(TREE)]
        theirs = [jt.keystr(p, simple=simple, separator=sep) for p, _ in jt.tree_leaves_with_path(TREE)]
        assert ours == theirs
    ours = pt.tree_map_with_path(lambda p, x: pt.keystr(p) + str(x), TREE)
    assert ours == jt.tree_map_with_path(lambda p, x: jt.keystr(p) + str(x), TREE)
    assert pt.tree_reduce(lambda a, b: a + b, TREE, 10.0) == jt.tree_reduce(lambda a, b: a + b, TREE, 10.0)
    assert pt.all_leaves([1, 2.0]) and not pt.all_leaves([1, None]) and not pt.all_leaves([[1]])
    assert pt.treedef_is_leaf(pt.tree_structure(1)) and pt.treedef_is_leaf(pt.tree_structure(None))
    assert not pt.treedef_is_leaf(pt.tree_structure([1]))
    outer, inner = pt.tree_structure([0, 0]), pt.tree_structure((0, 0, 0))
    x = [(1, 2, 3), (4, 5, 6)]
    assert pt.tree_transpose(outer, inner, x) == jt.tree_transpose(jt.tree_structure([0, 0]),
                                                                   jt.tree_structure((0, 0, 0)), x)
    assert pt.tree_transpose(outer, None, x) == ([1, 4], [2, 5], [3, 6])
    assert isinstance(pt.tree_flatten_with_path({"k": 1})[0][0][0][0], pt.DictKey)
    assert padax.tree.leaves_with_path([7]) == [((pt.SequenceKey(0),), 7)]


def test_register_pytree_helpers_as_in_jax():
    @padax.tree_util.register_pytree_node_class
    class Special:
        def __init__(self, x, y):
            self.x, self.y = x, y

        def tree_flatten(self):
            return ((self.x, self.y), None)

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    out = padax.jit(lambda s: Special(s.x * 2, s.y + 1))(Special(pnp.ones(2), 3.0))
    close(out.x, [2.0, 2.0])
    close(out.y, 4.0)

    class Keyed:
        def __init__(self, w, b):
            self.w, self.b = w, b

    padax.tree_util.register_pytree_with_keys(
        Keyed, lambda k: (((padax.tree_util.GetAttrKey("w"), k.w), (padax.tree_util.GetAttrKey("b"), k.b)), None),
        lambda aux, ch: Keyed(*ch))
    paths = [padax.tree_util.keystr(p) for p, _ in padax.tree_util.tree_leaves_with_path({"m": Keyed(1, 2)})]
    assert paths == ["['m'].w", "['m'].b"]

    @functools.partial(padax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["op"])
    @dataclasses.dataclass
    class Struct:
        x: object
        op: str

    leaves, treedef = padax.tree_util.tree_flatten(Struct(pnp.ones(2), "add"))
    assert len(leaves) == 1 and treedef.unflatten(leaves).op == "add"


def test_partial_is_a_pytree_through_jit():
    f = padax.tree_util.Partial(lambda a, b: a * b, pnp.asarray(3.0))
    assert len(padax.tree_util.tree_leaves(f)) == 1
    close(padax.jit(lambda g, x: g(x))(f, 2.0), 6.0)
    g = padax.tree_util.Partial(functools.partial(lambda a, b, c: a + b + c, 1.0), 2.0)
    assert padax.tree_util.tree_leaves(g) == [2.0] and g(3.0) == 6.0


# ---- padax.lax primitives, jacobian, ShapeDtypeStruct, scalar types ----------------------------------

JAX_PRIMITIVES = sorted(n for n in dir(jax.lax) if n.endswith("_p"))
MISSING_IN_PADAX = {  # jax primitives padax does not have (no op of padax needs them)
    "after_all_p", "approx_top_k_p", "bessel_i0e_p", "bessel_i1e_p", "copy_p", "create_token_p", "cumlogsumexp_p",
    "dce_sink_p", "device_put_p", "eq_to_p", "igamma_grad_a_p", "igamma_p", "igammac_p", "le_to_p",
    "linear_solve_p", "lt_to_p", "mulhi_p", "optimization_barrier_p", "ragged_all_to_all_p", "reduce_p",
    "reduce_precision_p", "reduce_window_p", "reduce_xor_p", "regularized_incomplete_beta_p", "rng_uniform_p",
    "scatter_sub_p", "select_and_gather_add_p", "select_and_scatter_add_p", "select_and_scatter_p", "split_p",
    "stack_p", "stage_p", "tile_p", "unstack_p", "zeta_p"}


def test_lax_exports_jaxs_primitive_names():
    have = [n for n in JAX_PRIMITIVES if n not in MISSING_IN_PADAX]
    assert len(have) >= 115
    for name in have:
        assert isinstance(getattr(padax.lax, name), padax.extend.core.Primitive), name
    assert sorted(set(JAX_PRIMITIVES) - set(have)) == sorted(MISSING_IN_PADAX)
    # the objects are the ones jaxprs carry, so interpreters can dispatch on them
    eqns = padax.make_jaxpr(lambda x: pnp.sum(pnp.sin(x) * x))(pnp.ones(3)).jaxpr.eqns
    assert [e.primitive for e in eqns] == [padax.lax.sin_p, padax.lax.mul_p, padax.lax.reduce_sum_p]
    close(padax.grad(lambda x: padax.lax.stop_gradient(x) * x)(3.0), 3.0)


def test_custom_interpreter_walks_a_jaxpr():
    """The 'Writing custom interpreters' inverse interpreter, with padax.extend.core."""
    core = padax.extend.core
    inverse = {padax.lax.exp_p: pnp.log, padax.lax.tanh_p: pnp.arctanh}

    def invert(fun):
        def wrapped(y):
            closed = padax.make_jaxpr(fun)(y)
            env = dict(zip(closed.jaxpr.outvars, [y]))
            env.update(zip(closed.jaxpr.constvars, closed.literals))
            for eqn in closed.jaxpr.eqns[::-1]:
                val = eqn.outvars[0].val if type(eqn.outvars[0]) is core.Literal else env[eqn.outvars[0]]
                env[eqn.invars[0]] = inverse[eqn.primitive](val)
            return env[closed.jaxpr.invars[0]]
        return wrapped

    f = lambda x: pnp.exp(pnp.tanh(x))  # noqa: E731
    xs = (np.arange(5) + 1.0) / 5.0
    close(invert(f)(f(0.4)), 0.4)
    jf = lambda x: jnp.exp(jnp.tanh(x))  # noqa: E731
    expected = jax.vmap(jax.grad(lambda y: jnp.arctanh(jnp.log(y))))(jf(xs))
    close(padax.jit(padax.vmap(padax.grad(invert(f))))(f(pnp.asarray(xs, dtype="float32"))), expected, 1e-4)


def test_jacobian_shape_dtype_struct_and_scalar_types():
    f = lambda x: pnp.sin(x) * x[0]  # noqa: E731
    x = np.array([0.3, 0.5, 0.7], np.float32)
    close(padax.jacobian(f)(x), jax.jacobian(lambda v: jnp.sin(v) * v[0])(x))
    s = padax.ShapeDtypeStruct.like(pnp.ones((2, 3)))
    assert (s.shape, s.dtype, len(s)) == ((2, 3), np.float32, 2)
    assert padax.eval_shape(lambda v: v.sum(0), s) == padax.ShapeDtypeStruct((3,), np.float32)
    one = pnp.float32(1)
    assert one.shape == () and one.dtype == np.float32 and pnp.int8(3).dtype == pnp.int8 == np.int8
    assert pnp.zeros(2, dtype=pnp.float16).dtype == np.float16 and np.dtype(pnp.bfloat16) == jnp.bfloat16
    for a in ("float32", "bfloat16", "int8", "uint32", "complex64", "bool"):
        for b in ("generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
                  "complexfloating"):
            assert pnp.issubdtype(getattr(pnp, a + ("_" if a == "bool" else "")), getattr(pnp, b)) == \
                jnp.issubdtype(getattr(jnp, a + ("_" if a == "bool" else "")), getattr(jnp, b)), (a, b)
    assert pnp.issubdtype(pnp.floating, pnp.inexact) and not pnp.issubdtype(pnp.integer, pnp.floating)


def test_numpy_positional_options_as_in_jax():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    close(pnp.tensordot(a, b, 2), jnp.tensordot(a, b, 2))
    close(pnp.sum(a, 0), jnp.sum(a, 0))
    close(pnp.mean(a, (0, 2), None, None, True), jnp.mean(a, (0, 2), None, None, True))
    close(pnp.std(a, ddof=1), jnp.std(a, ddof=1))
    assert pnp.zeros(3, pnp.int32).dtype == np.int32
    assert pnp.ones_like(a, shape=(5,)).shape == (5,)
    close(pnp.linspace(0.0, 1.0, 5, retstep=True)[1], jnp.linspace(0.0, 1.0, 5, retstep=True)[1])
    x = np.ones((3, 3), np.float32)
    jaxpr = padax.make_jaxpr(lambda v: pnp.dot(v, v, precision=padax.lax.Precision.HIGHEST))(x)
    assert jaxpr.eqns[0].params["precision"] == (padax.lax.Precision.HIGHEST,) * 2


# ---- out-of-range indexing ------------------------------------------------------------------------

def test_out_of_range_indexing_as_in_jax():
    xp, xj = pnp.arange(10), jnp.arange(10)
    for get in (lambda x: x[11], lambda x: x[-11], lambda x: x[np.array([1, 11, -20])],
                lambda x: x.at[11].get(mode="fill", fill_value=-1),
                lambda x: x.at[np.array([1, 11])].get(mode="fill", fill_value=-1)):
        np.testing.assert_array_equal(get(xp), get(xj))
    for upd in (lambda x: x.at[11].set(5), lambda x: x.at[11].set(5, mode="clip"),
                lambda x: x.at[np.array([1, 11])].add(5), lambda x: x.at[-11].add(5),
                lambda x: x.at[np.array([1, 11])].max(7, mode="promise_in_bounds", unique_indices=True)):
        np.testing.assert_array_equal(upd(xp), upd(xj))
    for i in (-12, -1, 10):
        np.testing.assert_array_equal(padax.jit(lambda x, i: x.at[i].set(100))(xp, i),
                                      jax.jit(lambda x, i: x.at[i].set(100))(xj, i))
        np.testing.assert_array_equal(padax.jit(lambda x, i: x[i])(xp, i), jax.jit(lambda x, i: x[i])(xj, i))
    y = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(pnp.asarray(y).at[1:3, 5].get(mode="fill", fill_value=-1),
                                  jnp.asarray(y).at[1:3, 5].get(mode="fill", fill_value=-1))


# ---- checkpointing ---------------------------------------------------------------------------------

def _g(W, x, np_):
    return np_.sin(np_.dot(W, x))


def _residual_lines(print_fn, f, *args) -> list[str]:
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_fn(f, *args)
    # the value's type and what it is: source lines and columns differ between the frameworks; jax moves
    # offloaded dot outputs to host memory (a device_put), padax keeps them where they are
    lines = buf.getvalue().replace("<host>", "").replace("output of device_put", "output of dot_general")
    return sorted(" ".join(line.split()[:4]).replace(" from", "") for line in lines.splitlines())


@pytest.mark.parametrize("policy", ["none", "nothing_saveable", "dots_with_no_batch_dims_saveable",
                                    "save_only_these_names", "save_any_names_but_these",
                                    "save_from_both_policies", "offload_dot_with_no_batch_dims"])
def test_checkpoint_policies_save_what_jax_saves(policy):
    def make(lib, np_):
        cn = lib.ad_checkpoint.checkpoint_name
        pol = lib.checkpoint_policies

        def f(W1, W2, x):
            x = cn(_g(W1, x, np_), name="a")
            return np_.sum(cn(_g(W2, x, np_), name="b"))

        choice = {"none": None, "nothing_saveable": pol.nothing_saveable,
                  "dots_with_no_batch_dims_saveable": pol.dots_with_no_batch_dims_saveable,
                  "save_only_these_names": pol.save_only_these_names("a"),
                  "save_any_names_but_these": pol.save_any_names_but_these("a"),
                  "save_from_both_policies": pol.save_from_both_policies(pol.dots_saveable,
                                                                         pol.save_only_these_names("b")),
                  "offload_dot_with_no_batch_dims": pol.offload_dot_with_no_batch_dims("device", "pinned_host")}
        return f if policy == "none" else lib.checkpoint(f, policy=choice[policy])

    W1 = np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)
    W2 = np.linspace(-1, 1, 30, dtype=np.float32).reshape(6, 5)
    x = np.linspace(0, 1, 4, dtype=np.float32)
    fp, fj = make(padax, pnp), make(jax, jnp)
    for a, b in zip(padax.grad(fp, (0, 1, 2))(W1, W2, x), jax.grad(fj, (0, 1, 2))(W1, W2, x)):
        close(a, b)
    assert (_residual_lines(padax.ad_checkpoint.print_saved_residuals, fp, W1, W2, x)
            == _residual_lines(jax.ad_checkpoint.print_saved_residuals, fj, W1, W2, x))


def test_checkpoint_policy_as_a_function():
    def policy(prim, *avals, **params):
        return prim is padax.lax.sin_p
    f = padax.checkpoint(lambda x: pnp.sum(pnp.cos(pnp.sin(x))), policy=policy)
    close(padax.grad(f)(np.ones(3, np.float32)), jax.grad(lambda x: jnp.sum(jnp.cos(jnp.sin(x))))(np.ones(3)))
    kinds = [w for _, w in padax.ad_checkpoint.saved_residuals(f, np.ones(3, np.float32))]
    assert any("output of sin" in k for k in kinds) and not any("output of cos" in k for k in kinds)


# ---- jit of any callable, custom rules ----------------------------------------------------------------

def test_jit_of_partial_and_callable_objects():
    class Scale:
        def __call__(self, x):
            return 2 * x

    close(padax.jit(functools.partial(lambda a, b: a + b, 1.0))(2.0), 3.0)
    close(padax.jit(Scale())(pnp.ones(2)), [2.0, 2.0])


def test_jvp_of_custom_vjp_is_a_type_error():
    @padax.custom_vjp
    def f(x):
        return pnp.sin(x)
    f.defvjp(lambda x: (pnp.sin(x), pnp.cos(x)), lambda c, g: (c * g,))
    for call in (lambda: padax.jvp(f, (1.0,), (1.0,)), lambda: padax.jit(lambda x: padax.jvp(f, (x,), (x,)))(1.0),
                 lambda: padax.jacfwd(f)(1.0)):
        with pytest.raises(TypeError, match="forward-mode autodiff"):
            call()
    close(padax.grad(f)(1.0), np.cos(1.0))


def test_custom_jvp_with_python_control_flow_runs_under_grad():
    def make(lib):
        @lib.custom_jvp
        def f(x):
            if x > 0:  # Python control flow on the primal, as in the custom derivative rules tutorial
                return 2.0 * x
            return x

        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return f(x), (3.0 if x > 0 else 1.0) * t
        return f

    fp, fj = make(padax), make(jax)
    for v in (-1.0, 2.0):
        close(padax.grad(fp)(v), jax.grad(fj)(v))
        close(padax.grad(padax.grad(fp))(v), jax.grad(jax.grad(fj))(v))
    out = padax.jvp(fp, (2.0,), (1.0,))
    close(out[0], 4.0)
    close(out[1], 3.0)


def test_grad_of_a_real_function_of_complex_input():
    """The autodiff cookbook's complex example: jax's convention for real outputs."""
    fp = lambda z: pnp.real(z) ** 2 + pnp.imag(z) ** 2  # noqa: E731
    fj = lambda z: jnp.real(z) ** 2 + jnp.imag(z) ** 2  # noqa: E731
    close(padax.grad(fp)(3.0 + 4j), jax.grad(fj)(3.0 + 4j))
    close(padax.grad(pnp.sin, holomorphic=True)(3.0 + 4j), jax.grad(jnp.sin, holomorphic=True)(3.0 + 4j), 1e-4)
    with pytest.raises(TypeError, match=r"holomorphic=True\) requires complex inputs"):
        padax.grad(pnp.sin, holomorphic=True)(3.0)


# ---- configuration ------------------------------------------------------------------------------

def test_config_takes_jaxs_names():
    cfg = padax.config
    assert cfg.jax_enable_x64 is cfg.enable_x64 and cfg.read("jax_enable_x64") is cfg.enable_x64
    assert cfg.jax_threefry_partitionable is True and cfg.jax_default_prng_impl == "threefry2x32"
    cfg.update("jax_threefry_partitionable", True)
    with pytest.raises(ValueError, match="only threefry_partitionable=True"):
        cfg.update("jax_threefry_partitionable", False)
    with cfg.override("jax_default_matmul_precision", "float32"):
        assert cfg.jax_default_matmul_precision == "float32"
        eqn = padax.make_jaxpr(lambda v: v @ v)(np.ones((2, 2), np.float32)).jaxpr.eqns[0]
        assert eqn.params["precision"] == (padax.lax.Precision.HIGHEST,) * 2
    with padax.default_matmul_precision("bfloat16"):
        eqn = padax.make_jaxpr(lambda v: v @ v)(np.ones((2, 2), np.float32)).jaxpr.eqns[0]
        assert eqn.params["precision"] == (padax.lax.Precision.DEFAULT,) * 2
    assert cfg.default_matmul_precision is None
    with cfg.override("jax_platforms", "cpu"):
        assert padax.devices()[0].platform == "cpu"
    with pytest.raises(AttributeError):
        cfg.jax_no_such_setting


# ---- padax.numpy.convolve/correlate, padax.scipy, pytree keywords, axis_size ------------------------

@pytest.mark.parametrize("n,m", [(5, 3), (4, 6)])
def test_convolve_and_correlate_as_in_jax(n, m):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    v = rng.standard_normal(m).astype(np.float32)
    for mode in ("full", "same", "valid"):
        close(pnp.convolve(a, v, mode), jnp.convolve(a, v, mode), 1e-4)
        close(pnp.correlate(a, v, mode), jnp.correlate(a, v, mode), 1e-4)
    close(padax.grad(lambda x: pnp.convolve(x, v, "same").sum())(a.real),
          jax.grad(lambda x: jnp.convolve(x, v, "same").sum())(a.real), 1e-4)


def test_scipy_special_and_norm_as_in_jax():
    import jax.scipy as jsp
    x = np.linspace(-3, 3, 7).astype(np.float32)
    close(padax.scipy.stats.norm.logpdf(x, 1.0, 2.0), jsp.stats.norm.logpdf(x, 1.0, 2.0))
    close(padax.scipy.stats.norm.cdf(x), jsp.stats.norm.cdf(x))
    close(padax.scipy.stats.norm.ppf(np.array([0.1, 0.5, 0.9])), jsp.stats.norm.ppf(np.array([0.1, 0.5, 0.9])), 1e-4)
    a = np.array([[1.0, 2, 3], [-np.inf, 0, 1]], np.float32)
    b = np.array([[1.0, -1, 1], [1, 1, 1]], np.float32)
    close(padax.scipy.special.logsumexp(a, 1), jsp.special.logsumexp(a, 1))
    for u, w in zip(padax.scipy.special.logsumexp(a, 1, b=b, return_sign=True),
                    jsp.special.logsumexp(a, 1, b=b, return_sign=True)):
        close(u, w)
    close(padax.scipy.special.xlogy(np.array([0.0, 2.0]), np.array([0.0, 3.0])),
          jsp.special.xlogy(np.array([0.0, 2.0]), np.array([0.0, 3.0])))
    close(padax.grad(lambda m: padax.scipy.stats.norm.logpdf(1.0, m, 2.0))(0.5),
          jax.grad(lambda m: jsp.stats.norm.logpdf(1.0, m, 2.0))(0.5))


def test_jax_keyword_names_and_static_axis_size():
    t = padax.tree_util
    out = t.tree_transpose(outer_treedef=t.tree_structure([0, 0]), inner_treedef=t.tree_structure((0, 0)),
                           pytree_to_transpose=[(1, 2), (3, 4)])
    assert out == ([1, 3], [2, 4])
    sizes = []
    padax.vmap(lambda v: sizes.append(padax.lax.axis_size("b")) or v, axis_name="b")(pnp.ones(3))
    assert sizes == [3] and isinstance(sizes[0], int)
    assert isinstance(padax.devices()[0], padax.Device)
    close(padax.lax.pcast(pnp.ones(2), "i", to="varying"), [1.0, 1.0])


def test_host_and_device_helpers():
    tree = {"a": pnp.ones(2), "b": 3}
    got = padax.device_get(tree)
    assert isinstance(got["a"], np.ndarray) and got["b"] == 3
    assert padax.block_until_ready(tree) is tree
    assert padax.local_device_count() == jax.local_device_count() and padax.default_backend() == "cpu"
    assert (padax.process_index(), padax.process_count()) == (jax.process_index(), jax.process_count())
    assert padax.grad(lambda x, i: x * i, argnums=1, allow_int=True)(2.0, 3).dtype == padax.float0
