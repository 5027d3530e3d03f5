"""Sharding workloads: a data-parallel training step on 1, 2, 4 and 8 CPU devices, a tensor-parallel
Transformer block and a ZeRO-3 training step on 8.

The step is padax.demo's MLP (64-128-10, softmax cross-entropy, SGD with
momentum) on a batch of 1024 split over a 'data' mesh axis of n devices
(parameters replicated), compiled by jit with in_shardings/out_shardings;
jax runs the same function with jax.jit and NamedSharding. "The same
function" includes Paddle's loss semantics: cross_entropy's default
ignore_index=-100 makes the mean one over the labels that are not ignored,
so both sides all-reduce that count (a plain `jnp.mean` would skip it and
measure a cheaper program: about 13% at 8 devices).

The tensor-parallel block is fleet.meta_parallel.ParallelTransformerLayer
(Megatron layout) on a (dp 2, mp 4) mesh; the ZeRO-3 step is an MLP under
group_sharded_parallel(level="p_g_os") with Adam on 8 devices. jax runs the
same formulas with the same parameter shardings and the same sharding
constraints at the same points (tp_block.py's layouts written out).

A process's CPU device count is fixed when its client is created (jax reads
XLA_FLAGS=--xla_force_host_platform_device_count=8 at import), so each
framework runs in one worker subprocess with 8 CPU devices
(`python -m benchmarks.sharding --worker padax|jax`); the n-device step uses
the first n of them. A thunk sends the worker one "step" line and waits for
its "ok": both frameworks pay the same small pipe round trip per call.
"""
from __future__ import annotations

import atexit
import os
import subprocess
import sys

import numpy as np

from benchmarks.harness import Unavailable, Workload

N_DEVICES = (1, 2, 4, 8)
_BATCH = 1024
_N_IN, _N_HIDDEN, _N_OUT = 64, 128, 10
_LR, _MOMENTUM = 0.05, 0.9
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _data():
    rng = np.random.default_rng(3)
    params = {"w1": (rng.standard_normal((_N_IN, _N_HIDDEN)) * np.sqrt(2 / _N_IN)).astype(np.float32),
              "b1": np.zeros((_N_HIDDEN,), np.float32),
              "w2": (rng.standard_normal((_N_HIDDEN, _N_OUT)) * np.sqrt(2 / _N_HIDDEN)).astype(np.float32),
              "b2": np.zeros((_N_OUT,), np.float32)}
    x = rng.random((_BATCH, _N_IN), dtype=np.float32)
    y = rng.integers(0, _N_OUT, _BATCH).astype(np.int32)
    return params, x, y


# -- worker side ---------------------------------------------------------------------------------

def _padax_step(n: int):
    import padax
    from padax import demo
    from padax.sharding import NamedSharding, P
    mesh = padax.make_mesh((n,), ("data",))
    rep, batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))
    params, x, y = _data()
    optimizer = padax.optimizer.Momentum(learning_rate=_LR, momentum=_MOMENTUM)
    step = padax.jit(demo.make_train_step(optimizer).fun, in_shardings=(rep, rep, batch, batch),
                     out_shardings=rep)
    params = padax.device_put(params, rep)
    state = {"p": params, "v": padax.device_put(optimizer.init(params), rep)}
    xb, yb = padax.device_put(x, batch), padax.device_put(y, batch)

    def run():
        state["p"], state["v"], loss = step(state["p"], state["v"], xb, yb)
        loss.block_until_ready()
    return run


def _jax_step(n: int):
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(jax.devices()[:n]), ("data",))
    rep, batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))

    def loss_fn(p, x, y):
        # the same function padax computes: Paddle's cross_entropy (ignore_index=-100) averages over
        # the labels that are not ignored, which costs a second (scalar) all-reduce on several devices
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logp = jax.nn.log_softmax(logits, axis=-1)
        valid = y != -100
        nll = -jnp.take_along_axis(logp, jnp.where(valid, y, 0)[:, None], axis=1)[:, 0]
        count = jnp.sum(valid.astype(logp.dtype))
        return jnp.sum(nll * valid) / jnp.where(count == 0, count + 1, count)

    def train_step(p, v, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        v = jax.tree_util.tree_map(lambda v, g: v * _MOMENTUM + g, v, g)
        p = jax.tree_util.tree_map(lambda p, v: p - _LR * v, p, v)
        return p, v, loss

    step = jax.jit(train_step, in_shardings=(rep, rep, batch, batch), out_shardings=rep)
    params, x, y = _data()
    state = {"p": jax.device_put(params, rep), "v": jax.device_put({k: np.zeros_like(v) for k, v in params.items()},
                                                                  rep)}
    xb, yb = jax.device_put(x, batch), jax.device_put(y, batch)

    def run():
        state["p"], state["v"], loss = step(state["p"], state["v"], xb, yb)
        loss.block_until_ready()
    return run


def _make(fw: str, key: str):
    """The step named `key`: a device count (data parallel), "tp" or "zero3"."""
    from benchmarks import sharding_recipes as recipes
    if key == "tp":
        return recipes.padax_tp_block() if fw == "padax" else recipes.jax_tp_block()
    if key == "zero3":
        return recipes.padax_zero3_step() if fw == "padax" else recipes.jax_zero3_step()
    return (_padax_step if fw == "padax" else _jax_step)(int(key))


def _worker_main(fw: str) -> None:
    steps: dict = {}
    out = sys.stdout
    for line in sys.stdin:
        cmd, _, n = line.strip().partition(" ")
        if cmd == "quit":
            break
        if cmd == "setup":
            if n not in steps:
                steps[n] = _make(fw, n)
                steps[n]()  # compile
            out.write("ready\n")
        elif cmd == "step":
            steps[n]()
            out.write("ok\n")
        out.flush()


# -- harness side --------------------------------------------------------------------------------

_workers: dict = {}


def _worker(fw: str) -> subprocess.Popen:
    p = _workers.get(fw)
    if p is not None and p.poll() is None:
        return p
    env = dict(os.environ)
    if fw == "padax":
        env["PADAX_NUM_CPU_DEVICES"] = "8"
    else:
        import importlib.util
        if importlib.util.find_spec("jax") is None:
            raise Unavailable("jax is not installed")
        env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()
        env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONPATH"] = _ROOT + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.Popen([sys.executable, "-m", "benchmarks.sharding", "--worker", fw], cwd=_ROOT, env=env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         bufsize=1)
    _workers[fw] = p
    return p


def _ask(p: subprocess.Popen, line: str, expect: str) -> None:
    p.stdin.write(line + "\n")
    p.stdin.flush()
    got = p.stdout.readline().strip()
    if got != expect:
        raise RuntimeError(f"benchmark worker answered {got!r} to {line!r} (exit status {p.poll()})")


def _setup(fw: str, n: int | str):
    def setup():
        p = _worker(fw)
        try:
            _ask(p, f"setup {n}", "ready")
        except (BrokenPipeError, RuntimeError) as e:
            raise Unavailable(f"{fw} worker failed: {e}") from None
        line = f"step {n}\n"

        def thunk():
            p.stdin.write(line)
            p.stdin.flush()
            p.stdout.readline()
        return thunk
    return setup


@atexit.register
def _stop_workers() -> None:
    for p in _workers.values():
        if p.poll() is None:
            try:
                p.stdin.write("quit\n")
                p.stdin.flush()
                p.wait(timeout=5)
            except Exception:
                p.kill()


def workloads() -> list[Workload]:
    counts = (1, 8) if "--smoke" in sys.argv else N_DEVICES  # a smoke run checks both ends only
    return [Workload(f"dp_step_{n}dev", f"data-parallel SGD step, MLP {_N_IN}-{_N_HIDDEN}-{_N_OUT}, batch {_BATCH} "
                                        f"split over {n} CPU device{'s' if n > 1 else ''} (jit, in/out_shardings; Paddle's "
                                        "ignore_index mean in the loss on both sides)",
                     {"padax": _setup("padax", n), "jax": _setup("jax", n)}, target=1.05)
            for n in counts] + [
        Workload("tp_block_8dev", "tensor-parallel Transformer block training step (Megatron layout: d 256, 8 heads, "
                                  "ffn 1024, batch 8 x seq 128) on a (dp 2, mp 4) mesh of 8 CPU devices",
                 {"padax": _setup("padax", "tp"), "jax": _setup("jax", "tp")}, target=1.05),
        Workload("zero3_step_8dev", "ZeRO-3 training step (MLP 512-1024-1024-512, Adam, batch 256): parameters, "
                                    "gradients and Adam state split over 8 CPU devices",
                 {"padax": _setup("padax", "zero3"), "jax": _setup("jax", "zero3")}, target=1.05)]


def _process_cpu_s(p: subprocess.Popen) -> float:
    """User + system CPU seconds the worker process has used so far (Linux /proc)."""
    with open(f"/proc/{p.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def compare_cpu_time(key: str, steps: int = 10, blocks: int = 8) -> dict:
    """Per-step CPU milliseconds of each framework's worker for step `key` ("tp", "zero3" or a device count),
    over `blocks` blocks of `steps` steps alternating padax and jax. Unlike wall time this does not depend
    on how a loaded machine schedules the 8 device threads (see PROFILING.md)."""
    thunks = {fw: _setup(fw, key)() for fw in ("padax", "jax")}
    out: dict = {fw: [] for fw in thunks}
    for b in range(blocks):
        for fw in (("padax", "jax") if b % 2 == 0 else ("jax", "padax")):
            start = _process_cpu_s(_workers[fw])
            for _ in range(steps):
                thunks[fw]()
            out[fw].append((_process_cpu_s(_workers[fw]) - start) / steps * 1e3)
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker_main(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--cpu-time":
        import statistics
        ms = compare_cpu_time(sys.argv[2])
        for fw, v in ms.items():
            print(f"{fw}: CPU ms per step {sorted(round(x, 1) for x in v)}")
        print(f"padax/jax (medians): {statistics.median(ms['padax']) / statistics.median(ms['jax']):.3f}")
    else:
        print("usage: python -m benchmarks.sharding --worker padax|jax (used by python -m benchmarks)\n"
              "       python -m benchmarks.sharding --cpu-time tp|zero3|N (per-step CPU time, padax beside jax)")
