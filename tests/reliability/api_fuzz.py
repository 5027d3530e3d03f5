"""A seeded fuzzer for padax's public API: calls public functions with wrong ranks, dtypes, axes,
out-of-range sizes and non-tensor objects, and records every outcome that breaks the error contract.

The contract (README "Errors"): bad input raises a Python/padax error type (TypeError, ValueError,
OverflowError, MemoryError, padax's own errors) whose text is padax's; never a jaxlib/MLIR/XLA error
type or text, never an internal AttributeError/IndexError/KeyError/ZeroDivisionError/SystemError,
never an abort or a hang.

Run as a program (the test runs it in a child process, so an abort fails the test, not the worker):
    python -m tests.reliability.api_fuzz SEED BUDGET_SECONDS REPORT.json
Before each call the child writes the call to REPORT.json.current, so a crash names its call.
"""
from __future__ import annotations

import inspect
import json
import random
import re
import signal
import sys
import time

import numpy as np

# functions that change process state, touch files, the network or other processes, take
# functions to transform, or block: out of scope for argument fuzzing
SKIP = {
    "save", "load", "seed", "manual_seed", "set_device", "set_default_device", "set_default_dtype",
    "set_printoptions", "set_rng_state", "set_cuda_rng_state", "get_rng_state", "get_cuda_rng_state",
    "disable_jit", "enable_x64", "default_matmul_precision", "clear_caches", "from_dlpack", "to_dlpack",
    "jit", "grad", "value_and_grad", "vmap", "jvp", "vjp", "linearize", "linear_transpose", "jacfwd", "jacrev",
    "jacobian", "hessian", "hessian_diag", "hvp", "jacobian_diag", "laplacian", "jet", "make_jaxpr",
    "eval_shape", "checkpoint", "recompute", "remat", "custom_gradient", "closure_convert", "implicit_diff",
    "pure_callback", "shard_map", "make_mesh", "reshard", "device_put", "device_get", "block_until_ready",
    "increment", "create_parameter", "cond", "switch", "while_loop", "fori_loop", "scan", "map", "vectorize",
    "frompyfunc", "piecewise", "apply_along_axis", "apply_over_axes", "fromfunction", "load", "save", "savez",
    "loadtxt", "savetxt", "genfromtxt", "fromfile", "tofile", "set_printoptions", "printoptions",
    # global mode switches: Paddle's static-graph mode and the tape's grad mode would change every later call
    "enable_static", "disable_static", "set_grad_enabled", "no_grad", "enable_grad",
}

ERROR_TYPES_OK = (TypeError, ValueError, OverflowError, MemoryError)
INTERNAL = (AttributeError, IndexError, KeyError, ZeroDivisionError, SystemError, UnboundLocalError, NameError,
            AssertionError, RecursionError, StopIteration)
FOREIGN_TEXT = ("stablehlo", "mhlo.", "INVALID_ARGUMENT", "INTERNAL:", "UNIMPLEMENTED", "FAILED_PRECONDITION",
                "incompatible function arguments", "nanobind", "MLIR", "loc(", "jaxlib", "Traceback")


def modules():
    import padax
    import padax.fft
    import padax.linalg
    import padax.nn.functional
    import padax.numpy
    import padax.numpy.fft
    import padax.numpy.linalg
    return {"padax": padax, "padax.nn.functional": padax.nn.functional, "padax.numpy": padax.numpy,
            "padax.linalg": padax.linalg, "padax.fft": padax.fft, "padax.numpy.linalg": padax.numpy.linalg,
            "padax.numpy.fft": padax.numpy.fft}


def constructors() -> dict:
    """Classes whose constructors take user configuration (layers, optimizers, clipping)."""
    import padax.nn
    import padax.optimizer
    return {"padax.nn": padax.nn, "padax.optimizer": padax.optimizer}


def public_functions() -> list[tuple[str, str, object]]:
    out = []
    for mod_name, mod in modules().items():
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or name in SKIP or not inspect.isfunction(fn):
                continue
            if name.startswith(("is_compiled", "set_", "get_")) or name[0].isupper():
                continue
            out.append((mod_name, name, fn))
    for mod_name, mod in constructors().items():
        for name in sorted(dir(mod)):
            cls = getattr(mod, name)
            if name[:1].isupper() and inspect.isclass(cls) and not issubclass(cls, BaseException) \
                    and getattr(cls, "__module__", "").startswith("padax"):
                out.append((mod_name, name, cls))
    return out


class Values:
    """Argument values: well-formed tensors of random rank/dtype and the bad values users pass."""

    DTYPES = ("float32", "float64", "int32", "int64", "bool", "complex64", "float16", "int8", "uint8")

    def __init__(self, rng: random.Random):
        self.rng = rng

    def tensor(self):
        import padax
        rng = self.rng
        shape = [rng.choice((0, 1, 2, 3)) if rng.random() < 0.15 else rng.choice((1, 2, 3))
                 for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4)))]
        dtype = rng.choice(self.DTYPES)
        data = np.random.default_rng(rng.randrange(2 ** 31)).standard_normal(shape) * 3
        return padax.to_tensor(data.astype(dtype) if dtype != "bool" else data > 0)

    def bad(self):
        rng = self.rng
        return rng.choice((
            lambda: None, lambda: "bogus", lambda: 2.5, lambda: -1, lambda: -7, lambda: 0, lambda: 3,
            lambda: 2 ** 40, lambda: 2 ** 70, lambda: float("nan"), lambda: True, lambda: object(),
            lambda: [1, 2.5], lambda: [[1, 2], [3]], lambda: {"a": 1}, lambda: (2, -3), lambda: [2 ** 40, 2 ** 40],
            lambda: np.array([1.5, 2.0]), lambda: "float128", lambda: [], lambda: (1.5,),
        ))()

    def any(self):
        return self.tensor() if self.rng.random() < 0.6 else self.bad()


def make_call(fn, values: Values):
    """(args, kwargs) for `fn`: its required parameters and some optional ones, from `values`."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [values.any() for _ in range(values.rng.choice((1, 2)))], {}
    args, kwargs = [], {}
    for p in sig.parameters.values():
        if p.name == "name":
            continue
        if p.kind is p.VAR_POSITIONAL:
            args += [values.any() for _ in range(values.rng.choice((0, 1, 2)))]
        elif p.kind is p.VAR_KEYWORD:
            continue
        elif p.default is p.empty and p.kind is p.KEYWORD_ONLY:
            kwargs[p.name] = values.any()
        elif p.default is p.empty:
            args.append(values.any())
        elif values.rng.random() < 0.3:
            kwargs[p.name] = values.any()
    return args, kwargs


def describe(mod: str, name: str, args, kwargs) -> str:
    def one(v):
        if hasattr(v, "aval"):
            return f"Tensor({v.aval.str_short()})"
        text = repr(v)
        return text if len(text) < 60 else text[:57] + "..."
    parts = [one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()]
    return f"{mod}.{name}({', '.join(parts)})"


def judge(err: BaseException | None) -> str | None:
    """Why this outcome breaks the contract, or None when it keeps it."""
    if err is None:
        return None
    kind = type(err)
    text = str(err)
    if kind.__module__.startswith(("jaxlib", "nanobind")) or "RuntimeError" in kind.__name__ and "Jax" in kind.__name__:
        return f"a jaxlib error type {kind.__module__}.{kind.__name__}"
    op_index_error = isinstance(err, IndexError) and re.match(r"[\w.]+: ", text)  # "take: index 5 is out of ..."
    if isinstance(err, INTERNAL) and not isinstance(err, ERROR_TYPES_OK) and not op_index_error:
        return f"an internal {kind.__name__}"
    if not isinstance(err, ERROR_TYPES_OK) and not kind.__module__.startswith("padax") and not op_index_error:
        return f"an unexpected error type {kind.__module__}.{kind.__name__}"
    for bit in FOREIGN_TEXT:
        if bit in text:
            return f"XLA/MLIR/binding text ({bit!r}) in the message"
    return None


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run(seed: int, budget: float, report: str, per_call_limit: int = 20, calls_per_function: int = 2) -> dict:
    rng = random.Random(seed)
    values = Values(rng)
    functions = public_functions()
    rng.shuffle(functions)
    signal.signal(signal.SIGALRM, _alarm)
    violations, ncalls, outcomes = [], 0, {"ok": 0, "error": 0}
    start = time.monotonic()
    for mod, name, fn in functions:
        if time.monotonic() - start > budget:
            break
        for _ in range(calls_per_function):
            args, kwargs = make_call(fn, values)
            call = describe(mod, name, args, kwargs)
            with open(report + ".current", "w") as f:
                f.write(call)
            signal.alarm(per_call_limit)
            err = None
            try:
                fn(*args, **kwargs)
            except _Timeout:
                violations.append({"call": call, "why": f"no answer within {per_call_limit} s (a hang?)"})
                continue
            except BaseException as e:  # noqa: BLE001
                err = e
            finally:
                signal.alarm(0)
            ncalls += 1
            outcomes["error" if err is not None else "ok"] += 1
            why = judge(err)
            if why is not None:
                violations.append({"call": call, "why": why, "error": f"{type(err).__name__}: {str(err)[:400]}"})
    result = {"seed": seed, "calls": ncalls, "functions": len(functions), "outcomes": outcomes,
              "seconds": round(time.monotonic() - start, 1), "violations": violations}
    with open(report, "w") as f:
        json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    out = run(int(sys.argv[1]), float(sys.argv[2]), sys.argv[3])
    print(json.dumps({k: v for k, v in out.items() if k != "violations"}), len(out["violations"]), "violations")
    sys.exit(0)
