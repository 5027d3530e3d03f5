"""Debugging aids that should cost nothing when unused, and the persistent compilation cache.

* `print_unused`: a jitted 2000-step loop whose body carries a `debug.print` behind a
  `cond` that is never true; the baseline is the same loop and cond with no print in
  the branch (target: at most 5% slower: an unused print costs nothing). jax runs the
  same loop with `jax.debug.print`.
* `print_unused_vs_no_cond`: the same, against the loop without the cond at all (what the
  check itself costs in such a small loop body).
* `demo_warm_cache`: a new process running `python -m padax.demo --epochs 3` with the
  persistent compilation cache already holding the demo's programs; the baseline is the
  same process with an empty cache each time (it compiles everything).
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from benchmarks.harness import Workload, subprocess_env, with_cold_cache, with_warm_cache

_STEPS, _N = 2000, 64
_RNG = np.random.default_rng(3)
_W = (_RNG.standard_normal((_N, _N)) / np.sqrt(_N)).astype(np.float32)
_X0 = _RNG.standard_normal((_N,)).astype(np.float32)


def _loop(L, print_fn, guard: bool = True):
    """A tanh recurrence whose steps check a predicate that is never true; with print_fn the true
    branch prints (else it does nothing); guard=False leaves the check out."""
    def run(w, x):
        def body(i, x):
            x = L.tanh(L.dot_general(x, w, (((0,), (0,)), ((), ()))))
            if guard:
                taken = (lambda v: (print_fn("huge {}", v), v)[1]) if print_fn is not None else (lambda v: v * 2)
                x = L.cond(L.reduce_sum(x, (0,)) > 1e30, taken, lambda v: v, x)
            return x
        return L.fori_loop(0, _STEPS, body, x)
    return run


def padax_print_unused():
    import padax
    import padax.lax as lax
    f = padax.jit(_loop(lax, padax.debug.print))
    w, x = padax.device_put(_W), padax.device_put(_X0)
    return lambda: f(w, x).block_until_ready()


def padax_print_baseline():
    import padax
    import padax.lax as lax
    f = padax.jit(_loop(lax, None))
    w, x = padax.device_put(_W), padax.device_put(_X0)
    return lambda: f(w, x).block_until_ready()


def padax_no_guard():
    import padax
    import padax.lax as lax
    f = padax.jit(_loop(lax, None, guard=False))
    w, x = padax.device_put(_W), padax.device_put(_X0)
    return lambda: f(w, x).block_until_ready()


def jax_print_unused():
    import jax
    import jax.lax as jlax
    f = jax.jit(_loop(jlax, jax.debug.print))
    w, x = jax.device_put(_W), jax.device_put(_X0)
    return lambda: f(w, x).block_until_ready()


# -- the demo's start-up with a warm or cold compilation cache -------------------------------------

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _demo(cache_dir: str) -> None:
    env = subprocess_env({"PADAX_COMPILATION_CACHE_DIR": cache_dir})
    out = subprocess.run([sys.executable, "-m", "padax.demo", "--epochs", "3", "--quiet"], cwd=_ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"padax.demo failed: {out.stderr[-500:]}")


padax_demo_warm_cache = with_warm_cache(_demo)
padax_demo_cold_cache = with_cold_cache(_demo)


def workloads() -> list[Workload]:
    return [
        Workload("print_unused", f"jit of a {_STEPS}-step fori_loop (tanh(x @ W), {_N}x{_N}) whose body has a "
                                 "debug.print behind a never-true cond; baseline: the loop without them",
                 {"padax": padax_print_unused, "jax": jax_print_unused},
                 baseline=padax_print_baseline, baseline_target=1.05),
        Workload("print_unused_vs_no_cond", "the print_unused loop; baseline: the loop without the cond",
                 {"padax": padax_print_unused}, baseline=padax_no_guard),
        Workload("demo_warm_cache", "a new process running `python -m padax.demo --epochs 3` with the "
                                    "compilation cache warm; baseline: the same with an empty cache",
                 {"padax": padax_demo_warm_cache}, fresh=True,
                 baseline=padax_demo_cold_cache, baseline_target=0.8),
    ]
