"""Dispatch overheads: eager ops, cached jit calls, trace+compile time, import and warm start.

padax and jax run the same lax-level programs (`padax.lax` / `jax.lax`:
same primitives, same shapes), so the ratio measures the machinery around
XLA, not different math. paddle runs its own eager ops and
`paddle.jit.to_static` on the CPU.

Tiny ops on float32[16] are timed three ways (issue 19): `*_16` rows in the
shared process (all frameworks imported, no wait: throughput), `*_16_latency`
rows waiting for every result, and `fresh_*` rows where each sample is a new
process importing one framework only (best of 20 loops of 300 calls, as the
issue measured). `import_*` and `demo_first_step` time whole new processes.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from benchmarks.harness import Unavailable, Workload, subprocess_env, with_cold_cache, with_warm_cache

_RNG = np.random.default_rng(0)
_A1000 = _RNG.standard_normal(1000).astype(np.float32)
_B1000 = _RNG.standard_normal(1000).astype(np.float32)
_M256A = _RNG.standard_normal((256, 256)).astype(np.float32)
_M256B = _RNG.standard_normal((256, 256)).astype(np.float32)
_V4A = np.arange(4, dtype=np.float32)
_V4B = np.arange(4, dtype=np.float32) + 0.5

# the 4-layer MLP of the compile workload
_MLP_WIDTHS = (64, 256, 256, 256, 10)
_MLP_BATCH = 128
_MLP_PARAMS = [((_RNG.standard_normal((i, o)) * np.sqrt(2.0 / i)).astype(np.float32),
                np.zeros((o,), np.float32)) for i, o in zip(_MLP_WIDTHS[:-1], _MLP_WIDTHS[1:])]
_MLP_X = _RNG.random((_MLP_BATCH, _MLP_WIDTHS[0]), dtype=np.float32)
_MLP_ONEHOT = np.eye(_MLP_WIDTHS[-1], dtype=np.float32)[_RNG.integers(0, _MLP_WIDTHS[-1], _MLP_BATCH)]

_MATMUL_DN = (((1,), (0,)), ((), ()))


def mlp_loss(L, params, x, onehot):
    """Forward + mean softmax cross-entropy of an MLP, written against a lax namespace
    (`padax.lax` or `jax.lax`: both take the same calls), so both trace the same program."""
    n = _MLP_BATCH
    h = x
    for i, (w, b) in enumerate(params):
        width = _MLP_WIDTHS[i + 1]
        h = L.add(L.dot_general(h, w, _MATMUL_DN), L.broadcast_in_dim(b, (n, width), (1,)))
        if i < len(params) - 1:
            h = L.max(h, 0.0)
    shape = (n, _MLP_WIDTHS[-1])
    z = L.sub(h, L.broadcast_in_dim(L.reduce_max(h, (1,)), shape, (0,)))
    lse = L.log(L.reduce_sum(L.exp(z), (1,)))
    logp = L.sub(z, L.broadcast_in_dim(lse, shape, (0,)))
    return L.mul(L.reduce_sum(L.mul(onehot, logp), (0, 1)), -1.0 / n)


# -- padax ---------------------------------------------------------------------------------

def _padax():
    import padax
    import padax.lax as lax
    return padax, lax


def padax_eager_add():
    padax, lax = _padax()
    x, y = padax.device_put(_A1000), padax.device_put(_B1000)
    return lambda: lax.add(x, y).block_until_ready()


def padax_eager_matmul():
    padax, lax = _padax()
    a, b = padax.device_put(_M256A), padax.device_put(_M256B)
    return lambda: lax.dot_general(a, b, _MATMUL_DN).block_until_ready()


def padax_api_add():
    padax, _ = _padax()
    if not hasattr(padax.Tensor, "__add__"):
        raise Unavailable("padax.Tensor has no operators yet")
    x, y = padax.to_tensor(_A1000), padax.to_tensor(_B1000)
    return lambda: (x + y).block_until_ready()


def padax_api_matmul():
    padax, _ = _padax()
    if not hasattr(padax, "matmul"):
        raise Unavailable("padax.matmul does not exist yet")
    a, b = padax.to_tensor(_M256A), padax.to_tensor(_M256B)
    return lambda: padax.matmul(a, b).block_until_ready()


def padax_jit_call():
    padax, lax = _padax()
    f = padax.jit(lambda x, y: lax.add(lax.mul(x, y), 1.0))
    x, y = padax.device_put(_V4A), padax.device_put(_V4B)
    return lambda: f(x, y).block_until_ready()


def padax_compile_mlp():
    padax, lax = _padax()
    padax.config.update("compilation_cache_dir", None)  # measure real compiles, not disk-cache hits
    params = [(padax.device_put(w), padax.device_put(b)) for w, b in _MLP_PARAMS]
    x, onehot = padax.device_put(_MLP_X), padax.device_put(_MLP_ONEHOT)

    def thunk():
        def loss(params, x, onehot):  # a fresh function object: nothing cached
            return mlp_loss(lax, params, x, onehot)
        return padax.jit(loss)(params, x, onehot).block_until_ready()
    return thunk


# -- jax -----------------------------------------------------------------------------------

def _jax():
    import jax
    import jax.lax as jlax
    return jax, jlax


def jax_eager_add():
    jax, jlax = _jax()
    x, y = jax.device_put(_A1000), jax.device_put(_B1000)
    return lambda: jlax.add(x, y).block_until_ready()


def jax_eager_matmul():
    jax, jlax = _jax()
    a, b = jax.device_put(_M256A), jax.device_put(_M256B)
    return lambda: jlax.dot_general(a, b, _MATMUL_DN).block_until_ready()


def jax_api_add():
    jax, _ = _jax()
    x, y = jax.device_put(_A1000), jax.device_put(_B1000)
    return lambda: (x + y).block_until_ready()


def jax_api_matmul():
    jax, _ = _jax()
    import jax.numpy as jnp
    a, b = jax.device_put(_M256A), jax.device_put(_M256B)
    return lambda: jnp.matmul(a, b).block_until_ready()


def jax_jit_call():
    jax, jlax = _jax()
    f = jax.jit(lambda x, y: jlax.add(jlax.mul(x, y), 1.0))
    x, y = jax.device_put(_V4A), jax.device_put(_V4B)
    return lambda: f(x, y).block_until_ready()


def jax_compile_mlp():
    jax, jlax = _jax()
    params = [(jax.device_put(w), jax.device_put(b)) for w, b in _MLP_PARAMS]
    x, onehot = jax.device_put(_MLP_X), jax.device_put(_MLP_ONEHOT)

    def thunk():
        def loss(params, x, onehot):
            return mlp_loss(jlax, params, x, onehot)
        return jax.jit(loss)(params, x, onehot).block_until_ready()
    return thunk


# -- paddle (CPU) ----------------------------------------------------------------------------

def _paddle():
    import paddle
    paddle.set_device("cpu")
    return paddle


def paddle_eager_add():
    paddle = _paddle()
    x, y = paddle.to_tensor(_A1000), paddle.to_tensor(_B1000)
    return lambda: paddle.add(x, y)


def paddle_eager_matmul():
    paddle = _paddle()
    a, b = paddle.to_tensor(_M256A), paddle.to_tensor(_M256B)
    return lambda: paddle.matmul(a, b)


def paddle_api_add():
    paddle = _paddle()
    x, y = paddle.to_tensor(_A1000), paddle.to_tensor(_B1000)
    return lambda: x + y


def _paddle_mul_add_one(x, y):
    return x * y + 1.0


def paddle_jit_call():
    paddle = _paddle()
    f = paddle.jit.to_static(_paddle_mul_add_one, full_graph=True)
    x, y = paddle.to_tensor(_V4A), paddle.to_tensor(_V4B)
    return lambda: f(x, y)


def _paddle_mlp_loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot):
    import paddle
    import paddle.nn.functional as F
    h = x
    for w, b, last in ((w0, b0, False), (w1, b1, False), (w2, b2, False), (w3, b3, True)):
        h = paddle.matmul(h, w) + b
        if not last:
            h = F.relu(h)
    logp = F.log_softmax(h, axis=1)
    return (onehot * logp).sum() * (-1.0 / _MLP_BATCH)


def paddle_compile_mlp():
    paddle = _paddle()
    if not hasattr(paddle, "jit") or not hasattr(paddle.jit, "to_static"):
        raise Unavailable("paddle.jit.to_static is missing")
    args = [paddle.to_tensor(a) for wb in _MLP_PARAMS for a in wb]
    args += [paddle.to_tensor(_MLP_X), paddle.to_tensor(_MLP_ONEHOT)]

    def thunk():
        def loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot):  # a fresh function: a fresh program cache
            return _paddle_mlp_loss(w0, b0, w1, b1, w2, b2, w3, b3, x, onehot)
        out = paddle.jit.to_static(loss, full_graph=True)(*args)
        return float(out)
    return thunk



# -- tiny ops on float32[16] (issue 19) ------------------------------------------------------------

_T16A = _RNG.standard_normal(16).astype(np.float32)
_T16B = _RNG.standard_normal(16).astype(np.float32)
_TINY_OPS = ("exp", "getitem", "sum", "reshape", "add", "api_add")


def _tiny(lib: str, op: str, block: bool):
    """A thunk running one tiny op of `lib` (padax, jax or paddle) on float32[16]."""
    if lib == "padax":
        import padax as m
        x, y = m.to_tensor(_T16A), m.to_tensor(_T16B)
        ops = {"exp": lambda: m.exp(x), "getitem": lambda: x[0], "sum": lambda: x.sum(),
               "reshape": lambda: x.reshape([4, 4]), "add": lambda: m.add(x, y), "api_add": lambda: x + y}
    elif lib == "jax":
        import jax
        import jax.numpy as m
        x, y = jax.device_put(_T16A), jax.device_put(_T16B)
        ops = {"exp": lambda: m.exp(x), "getitem": lambda: x[0], "sum": lambda: x.sum(),
               "reshape": lambda: x.reshape(4, 4), "add": lambda: m.add(x, y), "api_add": lambda: x + y}
    else:
        m = _paddle()
        x, y = m.to_tensor(_T16A), m.to_tensor(_T16B)
        ops = {"exp": lambda: m.exp(x), "getitem": lambda: x[0], "sum": lambda: x.sum(),
               "reshape": lambda: x.reshape([4, 4]), "add": lambda: m.add(x, y), "api_add": lambda: x + y}
    fn = ops[op]
    if block and lib != "paddle":  # (paddle's CPU eager ops return finished results)
        return lambda: fn().block_until_ready()
    return fn


def _jit10(lib: str):
    """A cached jit call taking a dict of 10 float32[16] arrays, returning their sum."""
    keys = [f"w{i}" for i in range(10)]
    if lib == "padax":
        import padax as m
        args = {k: m.to_tensor(_T16A + i) for i, k in enumerate(keys)}
        f = m.jit(lambda d: sum(d.values()))
    elif lib == "jax":
        import jax as m
        args = {k: m.device_put(_T16A + i) for i, k in enumerate(keys)}
        f = m.jit(lambda d: sum(d.values()))
    else:
        paddle = _paddle()
        args = {k: paddle.to_tensor(_T16A + i) for i, k in enumerate(keys)}
        g = paddle.jit.to_static(_paddle_sum10, full_graph=True)
        return lambda: g(*args.values())
    return lambda: f(args)


def _paddle_sum10(a, b, c, d, e, f, g, h, i, j):
    return a + b + c + d + e + f + g + h + i + j


def _setups(make):
    return {lib: (lambda lib=lib: make(lib)) for lib in ("padax", "jax", "paddle")}


# -- fresh processes ---------------------------------------------------------------------------------

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_FRESH_LOOPS, _FRESH_CALLS = 20, 300
_FRESH_SCRIPT = """
import gc, sys, time
sys.path.insert(0, {root!r})
from benchmarks import dispatch
thunk = dispatch.{maker}(*{args!r})
for _ in range(100):
    thunk()
best = float("inf")
for _ in range({loops}):
    gc.disable()
    t0 = time.perf_counter()
    for _ in range({calls}):
        thunk()
    best = min(best, time.perf_counter() - t0)
    gc.enable()
print(best / {calls})
"""


class _FreshProcess:
    """A thunk timed in a new process that imports only its framework: one sample = one process,
    the best of 20 loops of 300 calls (the harness's own call of the thunk does nothing)."""

    def __init__(self, maker: str, args: tuple):
        self.script = _FRESH_SCRIPT.format(root=_ROOT, maker=maker, args=args, loops=_FRESH_LOOPS,
                                           calls=_FRESH_CALLS)

    def __call__(self) -> None:
        return None

    def time_calls(self, number: int) -> float:
        out = subprocess.run([sys.executable, "-c", self.script], cwd=_ROOT, capture_output=True, text=True,
                             timeout=600, env=subprocess_env())
        if out.returncode != 0:
            raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed")
        return float(out.stdout.strip().splitlines()[-1]) * number


def _fresh(maker: str, *args):
    def setup():
        if args and args[0] != "padax":
            __import__(args[0])  # (only to report a missing framework as skipped)
        return _FreshProcess(maker, args)
    return setup


def _fresh_setups(maker: str, *rest):
    return {lib: _fresh(maker, lib, *rest) for lib in ("padax", "jax", "paddle")}


# -- whole processes: import, the demo's start-up ------------------------------------------------------

def _run_python(code: str, env: dict | None = None) -> None:
    out = subprocess.run([sys.executable, "-c", code], cwd=_ROOT, capture_output=True, text=True, timeout=600,
                         env=subprocess_env(env))
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-300:])


def _import(lib: str):
    def setup():
        __import__(lib)  # (a missing framework is reported as skipped)
        return lambda: _run_python(f"import {lib}")
    return setup


_DEMO_FIRST_STEP = """
import numpy as np
import padax
from padax import demo
x, y, _, _ = demo.load_split(0)
params = demo.init_params(0)
opt = padax.optimizer.Momentum(learning_rate=0.05, momentum=0.9)
state = opt.init(params)
step = demo.make_train_step(opt)
params, state, loss = step(params, state, padax.device_put(x[:32]), padax.device_put(y[:32]))
loss.block_until_ready()
"""


_EAGER_START = """
import numpy as np
import padax
x = padax.to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
y = padax.exp(x) + padax.sin(x) * 2 - padax.tanh(x) / 3
z = (y @ x.T).sum(axis=0)
w = padax.concat([x, y], axis=0).mean() + padax.sqrt(padax.abs(x)).max() + padax.log1p(x).min()
u = padax.where(x > 3, x, -x).cumsum(axis=1) + padax.clip(x, 1.0, 5.0)
float(w), np.asarray(u), np.asarray(z)
"""


def _demo_first_step(cache_dir: str) -> None:
    _run_python(_DEMO_FIRST_STEP, {"PADAX_COMPILATION_CACHE_DIR": cache_dir})


def _eager_start(cache_dir: str) -> None:
    _run_python(_EAGER_START, {"PADAX_COMPILATION_CACHE_DIR": cache_dir})


padax_demo_first_step_warm = with_warm_cache(_demo_first_step)
padax_demo_first_step_cold = with_cold_cache(_demo_first_step)


_TINY_TEXT = {"exp": "padax.exp / jnp.exp / paddle.exp", "getitem": "x[0]", "sum": "x.sum()",
              "reshape": "x.reshape([4, 4])", "add": "padax.add / jnp.add / paddle.add",
              "api_add": "the `x + y` operator"}


def _tiny_workloads() -> list[Workload]:
    out = []
    for op in _TINY_OPS:
        out.append(Workload(f"{op}_16", f"eager {_TINY_TEXT[op]} on float32[16], shared process, no wait "
                                        "(throughput; targets: <= 1.0x jax, <= 2x paddle)",
                            {lib: (lambda lib=lib, op=op: _tiny(lib, op, False)) for lib in ("padax", "jax", "paddle")},
                            target=1.0))
        out.append(Workload(f"{op}_16_latency", f"eager {_TINY_TEXT[op]} on float32[16], shared process, waiting "
                                                "for every result (latency; target <= 0.5x jax)",
                            {lib: (lambda lib=lib, op=op: _tiny(lib, op, True)) for lib in ("padax", "jax", "paddle")},
                            target=0.5))
    for op in ("exp", "sum", "getitem", "api_add"):
        out.append(Workload(f"fresh_{op}_16", f"eager {_TINY_TEXT[op]} on float32[16], each sample a new process "
                                              "importing one framework (best of 20 loops of 300 calls)",
                            _fresh_setups("_tiny", op, False), target=1.0, fresh=True))
    return out


def workloads() -> list[Workload]:
    return [
        Workload("eager_add", "eager elementwise add of two float32[1000] arrays (lax.add; paddle.add)",
                 {"padax": padax_eager_add, "jax": jax_eager_add, "paddle": paddle_eager_add}, target=1.0),
        Workload("eager_matmul", "eager float32[256,256] @ float32[256,256] (lax.dot_general; paddle.matmul)",
                 {"padax": padax_eager_matmul, "jax": jax_eager_matmul, "paddle": paddle_eager_matmul},
                 target=1.0),
        Workload("api_add", "eager `x + y` operator on two float32[1000] Tensors (Paddle-level API; "
                            "jax: Array.__add__)",
                 {"padax": padax_api_add, "jax": jax_api_add, "paddle": paddle_api_add}, target=1.0),
        Workload("api_matmul", "eager padax.matmul / jnp.matmul / paddle.matmul of float32[256,256] "
                               "(Paddle-level API)",
                 {"padax": padax_api_matmul, "jax": jax_api_matmul, "paddle": paddle_eager_matmul},
                 target=1.0),
        Workload("jit_call", "cached call of jit(lambda x, y: x * y + 1) on float32[4] "
                             "(paddle: jit.to_static)",
                 {"padax": padax_jit_call, "jax": jax_jit_call, "paddle": paddle_jit_call}, target=0.9),
        Workload("jit_call_10_args", "cached call of jit(lambda d: sum(d.values())) on a dict of 10 float32[16] "
                                     "(paddle: jit.to_static of 10 arguments)",
                 _setups(_jit10), target=0.9),
        Workload("fresh_jit_call_10_args", "jit_call_10_args, each sample a new process importing one framework "
                                           "(best of 20 loops of 300 calls)",
                 _fresh_setups("_jit10"), target=0.9, fresh=True),
        Workload("compile_mlp", "trace + lower + compile + first call of a 4-layer MLP "
                                f"({'-'.join(map(str, _MLP_WIDTHS))}, batch {_MLP_BATCH}) forward + "
                                "softmax cross-entropy, a fresh function each time "
                                "(paddle: first call of jit.to_static(full_graph=True), which builds "
                                "a static program but compiles no kernels, so it is not like for like)",
                 {"padax": padax_compile_mlp, "jax": jax_compile_mlp, "paddle": paddle_compile_mlp},
                 target=0.75, fresh=True),
        *_tiny_workloads(),
        Workload("import", "a new process running `import padax` / `import jax` / `import paddle` "
                           "(interpreter start-up included)",
                 {lib: _import(lib) for lib in ("padax", "jax", "paddle")}, target=1.0, fresh=True),
        Workload("demo_first_step", "a new process importing padax and running the demo's first training step "
                                    "(padax.demo's MLP, batch 32) with the compilation cache warm; baseline: the "
                                    "same with an empty cache",
                 {"padax": padax_demo_first_step_warm}, fresh=True,
                 baseline=padax_demo_first_step_cold, baseline_target=0.3),
        Workload("eager_start", "a new process importing padax and running ~25 distinct eager ops on small Tensors "
                                "(each a program of its own) with the compilation cache warm; baseline: the same "
                                "with an empty cache",
                 {"padax": with_warm_cache(_eager_start)}, fresh=True, baseline=with_cold_cache(_eager_start),
                 baseline_target=0.3),
    ]
