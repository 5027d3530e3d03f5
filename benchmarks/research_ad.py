"""Higher-order differentiation workloads: Taylor mode, Laplacians, implicit differentiation.

padax and jax run the same programs: the 6th directional derivative of a 3-layer tanh
MLP by Taylor mode (padax.jet, jax.experimental.jet) and by six nested jvps (steady
state, and trace + compile + first call); the Laplacian of a 4-layer MLP in R^100 over a
batch of points (padax.laplacian, collapsed Taylor mode; jax has no Laplacian operator,
so its side is the trace of jax.hessian, what a jax user writes) and the trace of the
full Hessian in both; and the gradient through a 1000-iteration fixed point, implicitly
(padax.implicit_diff; jax.lax.custom_root with the same conjugate-gradient solve) and
unrolled.

`python -m benchmarks.research_ad` also prints padax's own ratios for the issue's goals
(jet vs nested jvp, Laplacian vs full Hessian) and the memory XLA assigns the implicit
and the unrolled gradients (compiled buffer sizes: temporaries besides the inputs and
outputs), and the compiled FLOPs behind the two ratio goals: under jit XLA's CSE merges
the 2^K identical terms of nested jvps with one tangent, so jet and nested jvp do the
same K+1 matmuls per hidden layer; the forward Laplacian pushes d first-order terms
forward once where the Hessian pushes them forward and back (about 0.42 of its FLOPs).
"""
from __future__ import annotations

import sys

import numpy as np

from benchmarks.harness import Settings, Workload, fmt_time, run_workload

_RNG = np.random.default_rng(7)
_DN = (((1,), (0,)), ((), ()))
_ORDER = 6

# 3-layer tanh MLP, a batch of points, one direction each
_J_B, _J_D, _J_H = 256, 16, 128
_J_WS = [(_RNG.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)
         for s in ((_J_D, _J_H), (_J_H, _J_H), (_J_H, _J_H), (_J_H, 1))]
_J_X = _RNG.standard_normal((_J_B, _J_D)).astype(np.float32)
_J_V = _RNG.standard_normal((_J_B, _J_D)).astype(np.float32)

# 4-layer MLP R^100 -> R, a batch of collocation points
_L_B, _L_D, _L_H = 32, 100, 128
_L_WS = [(_RNG.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)
         for s in ((_L_D, _L_H), (_L_H, _L_H), (_L_H, _L_H), (_L_H, 1))]
_L_X = _RNG.standard_normal((_L_B, _L_D)).astype(np.float32)
_HUTCHINSON = 8

# fixed point x = tanh(W x + theta), 1000 iterations
_F_N, _F_ITERS = 512, 1000
_F_W = (_RNG.standard_normal((_F_N, _F_N)) * (0.5 / np.sqrt(_F_N))).astype(np.float32)
_F_THETA = _RNG.standard_normal(_F_N).astype(np.float32)


def _mlp3(lax, ws, x):
    for w in ws[:-1]:
        x = lax.tanh(lax.dot_general(x, w, _DN))
    return lax.dot_general(x, ws[-1], _DN)


def _mlp4_point(lax, ws, x):  # one point in R^100 -> scalar
    h = x
    for w in ws[:-1]:
        h = lax.tanh(lax.dot_general(h, w, (((0,), (0,)), ((), ()))))
    return lax.dot_general(h, ws[-1], (((0,), (0,)), ((), ())))[0]


def _nested(fw, f, x, v, order):
    g = f
    for _ in range(order):
        g = (lambda h: lambda z: fw.jvp(h, (z,), (v,))[1])(g)
    return g(x)


def _zeros():
    return [np.zeros_like(_J_X)] * (_ORDER - 1)


# -- padax ------------------------------------------------------------------------------------

def _padax_jet_fn():
    import padax
    import padax.lax as lax
    return lambda ws, x, v: padax.jet(lambda z: _mlp3(lax, ws, z), (x,), ([v] + _zeros(),))[1][-1]


def _padax_nested_fn():
    import padax
    import padax.lax as lax
    return lambda ws, x, v: _nested(padax, lambda z: _mlp3(lax, ws, z), x, v, _ORDER)


def _padax_args(*arrays):
    import padax
    return [padax.tree.map(padax.device_put, a) for a in arrays]


def _padax_steady(make):
    def setup():
        import padax
        f = padax.jit(make())
        args = _padax_args(_J_WS, _J_X, _J_V)
        return lambda: f(*args).block_until_ready()
    return setup


def _padax_fresh(make):
    def setup():
        import padax
        padax.config.update("compilation_cache_dir", None)  # measure real compiles, not disk-cache hits
        args = _padax_args(_J_WS, _J_X, _J_V)
        return lambda: padax.jit(make())(*args).block_until_ready()
    return setup


def _padax_eager(make):
    def setup():
        args = _padax_args(_J_WS, _J_X, _J_V)
        f = make()
        return lambda: f(*args).block_until_ready()
    return setup


def _padax_laplacian():
    import padax
    import padax.lax as lax
    ws, x = _padax_args(_L_WS, _L_X)
    f = padax.jit(lambda ws, x: padax.vmap(padax.laplacian(lambda z: _mlp4_point(lax, ws, z)))(x))
    return lambda: f(ws, x).block_until_ready()


def _padax_hutchinson():
    import padax
    import padax.lax as lax
    ws, x = _padax_args(_L_WS, _L_X)
    lap = padax.laplacian(lambda z: _mlp4_point(lax, ws, z), method="hutchinson", key=padax.random.key(0),
                          num_samples=_HUTCHINSON)
    f = padax.jit(lambda ws, x: padax.vmap(lap)(x))
    return lambda: f(ws, x).block_until_ready()


def _padax_hessian_trace():
    import padax
    import padax.lax as lax
    ws, x = _padax_args(_L_WS, _L_X)
    f = padax.jit(lambda ws, x: padax.vmap(
        lambda z: padax.trace(padax.hessian(lambda y: _mlp4_point(lax, ws, y))(z)))(x))
    return lambda: f(ws, x).block_until_ready()


def _padax_fixed_point_fns():
    import padax
    import padax.lax as lax

    def step(x, theta, w):
        return lax.tanh(w @ x + theta)

    @padax.implicit_diff(fixed_point_fn=step, solve="normal_cg")
    def fixed_point(init, theta, w):
        return lax.fori_loop(0, _F_ITERS, lambda i, x: step(x, theta, w), init)

    def unrolled(init, theta, w):
        return lax.fori_loop(0, _F_ITERS, lambda i, x: step(x, theta, w), init)

    def loss(solver):
        return lambda theta, w: (solver(theta * 0, theta, w) ** 2).sum()
    return padax.jit(padax.grad(loss(fixed_point))), padax.jit(padax.grad(loss(unrolled)))


def _padax_fixed_point(which: int):
    def setup():
        theta, w = _padax_args(_F_THETA, _F_W)
        f = _padax_fixed_point_fns()[which]
        return lambda: f(theta, w).block_until_ready()
    return setup


# -- jax --------------------------------------------------------------------------------------

def _jax_jet_fn():
    import jax.lax as jlax
    from jax.experimental.jet import jet
    return lambda ws, x, v: jet(lambda z: _mlp3(jlax, ws, z), (x,), ([v] + _zeros(),))[1][-1]


def _jax_nested_fn():
    import jax
    import jax.lax as jlax
    return lambda ws, x, v: _nested(jax, lambda z: _mlp3(jlax, ws, z), x, v, _ORDER)


def _jax_args(*arrays):
    import jax
    return [jax.tree_util.tree_map(jax.device_put, a) for a in arrays]


def _jax_steady(make):
    def setup():
        import jax
        f = jax.jit(make())
        args = _jax_args(_J_WS, _J_X, _J_V)
        return lambda: f(*args).block_until_ready()
    return setup


def _jax_fresh(make):
    def setup():
        import jax
        args = _jax_args(_J_WS, _J_X, _J_V)
        return lambda: jax.jit(make())(*args).block_until_ready()
    return setup


def _jax_eager(make):
    def setup():
        args = _jax_args(_J_WS, _J_X, _J_V)
        f = make()
        return lambda: f(*args).block_until_ready()
    return setup


def _jax_hessian_trace():
    import jax
    import jax.lax as jlax
    import jax.numpy as jnp
    ws, x = _jax_args(_L_WS, _L_X)
    f = jax.jit(lambda ws, x: jax.vmap(lambda z: jnp.trace(jax.hessian(lambda y: _mlp4_point(jlax, ws, y))(z)))(x))
    return lambda: f(ws, x).block_until_ready()


def _jax_normal_cg(matvec, b):
    import jax
    from jax.scipy.sparse.linalg import cg
    vecmat = jax.linear_transpose(matvec, b)
    rhs = vecmat(b)[0]
    return cg(lambda v: vecmat(matvec(v))[0], rhs, tol=1e-6, maxiter=10 * b.size)[0]


def _jax_fixed_point_fns():
    import jax
    import jax.numpy as jnp

    def step(x, theta, w):
        return jnp.tanh(w @ x + theta)

    def fixed_point(init, theta, w):
        def solve(f, x0):
            return jax.lax.fori_loop(0, _F_ITERS, lambda i, x: step(x, theta, w), x0)

        def tangent_solve(g, y):
            return jax.lax.custom_linear_solve(g, y, _jax_normal_cg, transpose_solve=_jax_normal_cg)
        return jax.lax.custom_root(lambda x: step(x, theta, w) - x, init, solve, tangent_solve)

    def unrolled(init, theta, w):
        return jax.lax.fori_loop(0, _F_ITERS, lambda i, x: step(x, theta, w), init)

    def loss(solver):
        return lambda theta, w: (solver(theta * 0, theta, w) ** 2).sum()
    return jax.jit(jax.grad(loss(fixed_point))), jax.jit(jax.grad(loss(unrolled)))


def _jax_fixed_point(which: int):
    def setup():
        theta, w = _jax_args(_F_THETA, _F_W)
        f = _jax_fixed_point_fns()[which]
        return lambda: f(theta, w).block_until_ready()
    return setup


def workloads() -> list[Workload]:
    mlp = f"3-layer tanh MLP {_J_D}-{_J_H}-{_J_H}-{_J_H}-1, batch {_J_B}"
    lap = f"4-layer tanh MLP R^{_L_D} -> R ({_L_H} wide), vmapped over {_L_B} points"
    fp = f"x = tanh(W x + theta), n = {_F_N}, {_F_ITERS} iterations"
    return [
        Workload("jet6_mlp", f"jit: {_ORDER}th directional derivative of a {mlp} by Taylor mode "
                             "(padax.jet; jax.experimental.jet)",
                 {"padax": _padax_steady(_padax_jet_fn), "jax": _jax_steady(_jax_jet_fn)}, target=1.05),
        Workload("nested_jvp6_mlp", f"jit: the same derivative by {_ORDER} nested jvps (reference for jet)",
                 {"padax": _padax_steady(_padax_nested_fn), "jax": _jax_steady(_jax_nested_fn)}),
        Workload("jet6_mlp_eager", "eager (op by op, no compiler): jet6_mlp",
                 {"padax": _padax_eager(_padax_jet_fn), "jax": _jax_eager(_jax_jet_fn)}),
        Workload("nested_jvp6_mlp_eager", "eager (op by op, no compiler): nested_jvp6_mlp",
                 {"padax": _padax_eager(_padax_nested_fn), "jax": _jax_eager(_jax_nested_fn)}),
        Workload("jet6_mlp_compile", "trace + compile + first call of jet6_mlp",
                 {"padax": _padax_fresh(_padax_jet_fn), "jax": _jax_fresh(_jax_jet_fn)}, fresh=True),
        Workload("nested_jvp6_mlp_compile", "trace + compile + first call of nested_jvp6_mlp",
                 {"padax": _padax_fresh(_padax_nested_fn), "jax": _jax_fresh(_jax_nested_fn)}, fresh=True),
        Workload("laplacian_mlp100", f"jit: Laplacian of a {lap} (padax.laplacian, collapsed Taylor mode; jax: "
                                     "trace of jax.hessian, jax has no Laplacian operator)",
                 {"padax": _padax_laplacian, "jax": _jax_hessian_trace}),
        Workload("laplacian_hutchinson_mlp100", f"jit: Hutchinson estimate ({_HUTCHINSON} Rademacher samples) "
                                                f"of that Laplacian (padax; jax: trace of jax.hessian, exact)",
                 {"padax": _padax_hutchinson, "jax": _jax_hessian_trace}),
        Workload("hessian_trace_mlp100", f"jit: trace of the full Hessian of the {lap} (both: trace(hessian))",
                 {"padax": _padax_hessian_trace, "jax": _jax_hessian_trace}, target=1.05),
        Workload("implicit_fixed_point_grad", f"jit(grad) through a fixed point {fp}, implicit "
                                              "(padax.implicit_diff; jax.lax.custom_root), normal-equation CG",
                 {"padax": _padax_fixed_point(0), "jax": _jax_fixed_point(0)}),
        Workload("unrolled_fixed_point_grad", f"jit(grad) through the same {_F_ITERS} iterations, unrolled "
                                              "(reverse mode through the loop)",
                 {"padax": _padax_fixed_point(1), "jax": _jax_fixed_point(1)}),
    ]


# -- padax's own goals (python -m benchmarks.research_ad) ------------------------------------

def memory_bytes() -> dict[str, dict[str, int]]:
    """Compiled buffer sizes of the implicit and unrolled fixed-point gradients, padax and jax."""
    def sizes(m) -> dict[str, int]:
        return {"temp": int(m.temp_size_in_bytes), "argument": int(m.argument_size_in_bytes),
                "output": int(m.output_size_in_bytes)}
    out = {}
    theta, w = _padax_args(_F_THETA, _F_W)
    for name, f in zip(("implicit", "unrolled"), _padax_fixed_point_fns()):
        out[f"padax_{name}"] = sizes(f.lower(theta, w).compile().memory_analysis())
    jt, jw = _jax_args(_F_THETA, _F_W)
    for name, f in zip(("implicit", "unrolled"), _jax_fixed_point_fns()):
        out[f"jax_{name}"] = sizes(f.lower(jt, jw).compile().memory_analysis())
    return out


def _padax_flops(fn, *arrays) -> float:
    """FLOPs of padax's compiled program (XLA's cost analysis, after its CSE and fusion)."""
    import padax
    return float(padax.jit(fn).lower(*_padax_args(*arrays)).compile().cost_analysis()["flops"])


def flop_counts() -> dict[str, float]:
    """Compiled FLOPs of the programs behind padax's ratio goals. XLA's common-subexpression
    elimination merges the identical terms of nested jvps with one tangent (2^K -> O(K^2)),
    so both derivative programs do the same K+1 matmuls per hidden layer; the Laplacian pushes
    d first-order terms forward once, the Hessian pushes them forward and back."""
    import padax
    import padax.lax as lax
    lap = lambda ws, x: padax.vmap(padax.laplacian(lambda z: _mlp4_point(lax, ws, z)))(x)  # noqa: E731
    hess = lambda ws, x: padax.vmap(  # noqa: E731
        lambda z: padax.trace(padax.hessian(lambda y: _mlp4_point(lax, ws, y))(z)))(x)
    return {"jet": _padax_flops(_padax_jet_fn(), _J_WS, _J_X, _J_V),
            "nested_jvp": _padax_flops(_padax_nested_fn(), _J_WS, _J_X, _J_V),
            "laplacian": _padax_flops(lap, _L_WS, _L_X), "hessian_trace": _padax_flops(hess, _L_WS, _L_X)}


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m benchmarks.research_ad", description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="a couple of samples each: checks that everything runs")
    args = p.parse_args(argv)
    settings = Settings.for_smoke() if args.smoke else Settings(repeats=11)
    results = {}
    for w in workloads():
        w.group = "research_ad"
        res = run_workload(w, ["padax", "jax"], settings, log=lambda s: print(s, file=sys.stderr))
        results[w.name] = res
        cells = "  ".join(f"{fw} {fmt_time(t.median)}" if t.status == "ok" else f"{fw} {t.status}"
                          for fw, t in res.timings.items())
        r = res.ratio("jax")
        print(f"{w.name:28s} {cells}  padax/jax {r:.2f}" if r is not None else f"{w.name:28s} {cells}", flush=True)

    def med(name, fw="padax"):
        t = results[name].timings.get(fw)
        return t.median if t is not None and t.status == "ok" else float("nan")

    print("\npadax's goals:")
    print(f"  jet / nested jvp, order {_ORDER}, steady state:        {med('jet6_mlp') / med('nested_jvp6_mlp'):.2f} "
          "(goal <= 0.2)")
    print(f"  jet / nested jvp, order {_ORDER}, eager:               "
          f"{med('jet6_mlp_eager') / med('nested_jvp6_mlp_eager'):.2f}")
    print(f"  jet / nested jvp, order {_ORDER}, trace+compile+call:  "
          f"{med('jet6_mlp_compile') / med('nested_jvp6_mlp_compile'):.2f}")
    print(f"  jet: padax / jax:                                     {results['jet6_mlp'].ratio('jax'):.2f} "
          "(goal <= 1.05)")
    print(f"  laplacian / trace(full hessian):                      "
          f"{med('laplacian_mlp100') / med('hessian_trace_mlp100'):.2f} (goal <= 0.3)")
    print(f"  laplacian, Hutchinson ({_HUTCHINSON} samples) / trace(full hessian): "
          f"{med('laplacian_hutchinson_mlp100') / med('hessian_trace_mlp100'):.2f}")
    fl = flop_counts()
    print(f"  compiled FLOPs: jet {fl['jet'] / 1e6:.1f} M, nested jvp {fl['nested_jvp'] / 1e6:.1f} M "
          f"(ratio {fl['jet'] / fl['nested_jvp']:.2f}); laplacian {fl['laplacian'] / 1e6:.1f} M, full hessian "
          f"{fl['hessian_trace'] / 1e6:.1f} M (ratio {fl['laplacian'] / fl['hessian_trace']:.2f})")
    mem = memory_bytes()
    for fw in ("padax", "jax"):
        imp, unr = mem[f"{fw}_implicit"]["temp"], mem[f"{fw}_unrolled"]["temp"]
        print(f"  {fw}: fixed-point gradient temporaries: implicit {imp / 2**20:.2f} MiB, unrolled "
              f"{unr / 2**20:.2f} MiB -> {unr / max(imp, 1):.1f}x less (goal >= 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
