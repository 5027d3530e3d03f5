"""Run Paddle's or JAX's own docstring examples under padax and count how many give their numbers.

`python scripts/doc_examples.py paddle|jax [NAMES...] [--json OUT] [--show N]`

For every public name that padax and the framework both expose (Paddle: padax, linalg, fft,
nn.functional; JAX: the transforms, numpy, lax, scipy.special, random, tree_util), the doctest
examples of the framework's docstring are run statement by statement twice in one process: with
the framework, then with its modules swapped for padax's (`import paddle` gives padax,
`jnp` is padax.numpy). The printed values are compared number by number (formats differ
between jax and padax; dtype and shape words are dropped before comparing, random examples count
as passed when they run, since the two generators differ).

An example is
- `skipped` when it needs what padax leaves out (static graphs, devices, Paddle's internals) or the
  framework itself fails on it here;
- `error` when padax raises where the framework does not;
- `differs` when both run and a printed number differs;
- `ok` otherwise.
The summary prints the counts; `--json` writes every example's result.
"""
from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import json
import math
import os
import re
import signal
import sys
import types
import warnings
from typing import Any, Callable

OUT_OF_SCOPE = re.compile(  # (the tape, in-place updates and paddle.jit run now: padax/interpreters/tape.py)
    r"enable_static|paddle\.static|paddle\.base"
    r"|cuda|CUDAPlace|paddle\.distributed|paddle\.inference"
    r"|paddle\.utils|paddle\.set_device|paddle\.device|paddle\.incubate|pin_memory")
# the idioms padax used to leave out before its tape and in-place updates (`--idioms` runs only these examples)
IDIOMS = re.compile(
    r"\.backward\(|\.\w+_\(|\bstop_gradient\s*=|set_value|\]\s*=[^=]|\bout=|inplace|\bassign\(\w+,\s*\w+\)"
    r"|\.register_hook|\.grad\b|paddle\.jit\.|\.gradient\(|\.clear_grad|paddle\.grad\(|no_grad")
RANDOM = re.compile(r"\brand|random|seed|normal\(|uniform|dropout|bernoulli|poisson|multinomial|shuffle"
                    r"|gumbel|sample|permutation|binomial|gamma\(|exponential_|PRNGKey|key\(")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)|True|False")
NOISE = re.compile(r"dtype=[\w.]+|shape=[\[\(][^\]\)]*[\]\)]|place=Place\([^)]*\)|stop_gradient=\w+"
                   r"|weak_type=\w+|float\d+|int\d+|uint\d+|complex\d+|bfloat16|float8\w*|\w+\d+\w*\(")
TIMEOUT_S = 30
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path[:1]:
    sys.path.insert(0, ROOT)  # measure the padax of this checkout, not an installed one


def _numbers(text: str) -> list[float]:
    out = []
    for tok in NUMBER.findall(NOISE.sub(" ", text)):
        out.append(1.0 if tok == "True" else 0.0 if tok == "False" else float(tok))
    return out


def _same(a: str, b: str) -> bool:
    xa, xb = _numbers(a), _numbers(b)
    if len(xa) != len(xb):
        return False
    for p, q in zip(xa, xb):
        if math.isnan(p) or math.isnan(q):
            if not (math.isnan(p) and math.isnan(q)):
                return False
        elif not math.isclose(p, q, rel_tol=2e-3, abs_tol=1e-4):
            return False
    return True


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_session(statements: list[str], modules: dict[str, Any], names: dict[str, Any]) -> list[tuple[str, str]]:
    """Run statements like an interactive session; for each, ('ok'|'raise', printed text)."""
    saved = {k: sys.modules.get(k) for k in modules}
    sys.modules.update(modules)
    ns: dict[str, Any] = {"__name__": "__doc_example__", **names}
    results = []
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for src in statements:
            buf = io.StringIO()
            signal.alarm(TIMEOUT_S)
            try:
                with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    code = compile(src, "<example>", "single")
                    exec(code, ns)  # noqa: S102 - the frameworks' own documentation examples
                results.append(("ok", buf.getvalue()))
            except _Timeout:
                results.append(("raise", "timeout"))
                break
            except BaseException as e:  # noqa: BLE001 - an example may raise anything
                results.append(("raise", f"{type(e).__name__}: {e}"[:300]))
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return results


def examples_of(obj: Any) -> list[str]:
    """The docstring's example statements, in order: one docstring is one session."""
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or ">>>" not in doc:
        return []
    doc = re.sub(r"#\s*doctest:.*$", "", doc, flags=re.M)  # option directives (+SKIP, +REQUIRES(...))
    try:
        return [e.source for e in doctest.DocTestParser().get_examples(doc)]
    except ValueError:  # a malformed example block
        return []


def compare(name: str, statements: list[str], ref: Callable, ours: Callable) -> dict:
    src = "".join(statements)
    if OUT_OF_SCOPE.search(src):
        return {"name": name, "status": "skipped", "why": "out of scope by design"}
    want = ref(statements)
    failed = [t for k, t in want if k == "raise"]
    if failed:
        return {"name": name, "status": "skipped", "why": "the framework raises here: " + failed[0][:120]}
    got = ours(statements)
    random = bool(RANDOM.search(src))
    for i, ((kw, tw), (kg, tg)) in enumerate(zip(want, got)):
        if kw == "ok" and kg == "raise":
            return {"name": name, "status": "error", "statement": statements[i].strip()[:200], "error": tg}
        if kw == "ok" and not random and not _same(tw, tg):
            return {"name": name, "status": "differs", "statement": statements[i].strip()[:200],
                    "want": tw.strip()[:300], "got": tg.strip()[:300]}
    if len(got) < len(want):
        return {"name": name, "status": "error", "statement": "", "error": got[-1][1] if got else "stopped"}
    return {"name": name, "status": "ok"}


def _public(mod: Any) -> list[str]:
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    return sorted(n for n in names if not n.startswith("_"))


def paddle_pairs(paddle: Any, padax: Any) -> list[tuple[str, Any]]:
    import padax.fft
    import padax.linalg
    import padax.nn.functional
    out = []
    for prefix, theirs, mine in (("", paddle, padax), ("linalg.", paddle.linalg, padax.linalg),
                                 ("fft.", paddle.fft, padax.fft),
                                 ("nn.functional.", paddle.nn.functional, padax.nn.functional)):
        for n in _public(mine):
            obj = getattr(theirs, n, None)
            if obj is not None and callable(obj) and not isinstance(obj, types.ModuleType):
                out.append((prefix + n, obj))
    return out


def jax_pairs(jax: Any, padax: Any) -> list[tuple[str, Any]]:
    import jax.numpy
    import jax.random
    import jax.scipy.special
    import jax.tree_util

    import padax.numpy
    import padax.random
    import padax.scipy.special
    import padax.tree_util
    out = []
    transforms = ("jit grad value_and_grad jvp vjp linearize linear_transpose jacfwd jacrev hessian vmap "
                  "make_jaxpr eval_shape checkpoint custom_jvp custom_vjp pure_callback debug").split()
    for n in transforms:
        if hasattr(padax, n) and hasattr(jax, n):
            out.append((n, getattr(jax, n)))
    for prefix, theirs, mine in (("numpy.", jax.numpy, padax.numpy), ("lax.", jax.lax, padax.lax),
                                 ("scipy.special.", jax.scipy.special, padax.scipy.special),
                                 ("random.", jax.random, padax.random),
                                 ("tree_util.", jax.tree_util, padax.tree_util)):
        for n in _public(mine):
            obj = getattr(theirs, n, None)
            if obj is not None and callable(obj) and not isinstance(obj, types.ModuleType):
                out.append((prefix + n, obj))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("framework", choices=("paddle", "jax"))
    ap.add_argument("names", nargs="*", help="only these names (as listed: 'linalg.det', 'numpy.sum')")
    ap.add_argument("--json", help="write every example's result here")
    ap.add_argument("--show", type=int, default=0, help="print the first N failures")
    ap.add_argument("--idioms", action="store_true",
                    help="only the examples that use the tape or in-place updates (IDIOMS)")
    args = ap.parse_args(argv)

    import numpy as np

    import padax
    if args.framework == "paddle":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import paddle
        paddle.set_device("cpu")
        pairs = paddle_pairs(paddle, padax)
        theirs_mods = {"paddle": paddle}
        ours_mods = {"paddle": padax, "paddle.nn": padax.nn, "paddle.nn.functional": padax.nn.functional,
                     "paddle.linalg": padax.linalg, "paddle.fft": padax.fft}

        def ref(st):
            paddle.seed(2023)
            with paddle.enable_grad():  # (an example may switch the grad mode off for good)
                return run_session(st, theirs_mods, {"paddle": paddle, "np": np})

        def ours(st):
            padax.seed(2023)
            with padax.enable_grad():  # (an example may switch the grad mode off for good)
                return run_session(st, ours_mods, {"paddle": padax, "np": np})
    else:
        import jax
        import jax.numpy as jnp

        import padax.numpy as pnp
        pairs = jax_pairs(jax, padax)
        ours_mods = {"jax": padax, "jax.numpy": pnp, "jax.lax": padax.lax, "jax.random": padax.random,
                     "jax.scipy": padax.scipy, "jax.scipy.special": padax.scipy.special,
                     "jax.tree_util": padax.tree_util, "jax.tree": padax.tree}

        def ref(st):
            return run_session(st, {}, {"jax": jax, "jnp": jnp, "np": np, "lax": jax.lax})

        def ours(st):
            return run_session(st, ours_mods, {"jax": padax, "jnp": pnp, "np": np, "lax": padax.lax})

    if args.names:
        pairs = [(n, o) for n, o in pairs if n in set(args.names)]
    results = []
    for name, obj in pairs:
        statements = examples_of(obj)
        if args.idioms and not IDIOMS.search("".join(statements)):
            continue
        if statements:
            results.append(compare(name, statements, ref, ours))
    counts = {k: sum(r["status"] == k for r in results) for k in ("ok", "differs", "error", "skipped")}
    tried = counts["ok"] + counts["differs"] + counts["error"]
    ran = counts["ok"] + counts["differs"]
    print(f"{args.framework}: {len(pairs)} shared names, {len(results)} examples; "
          f"{counts['skipped']} skipped; of {tried} tried: {ran} run ({100 * ran / max(tried, 1):.0f}%), "
          f"{counts['ok']} give the framework's numbers ({100 * counts['ok'] / max(tried, 1):.0f}%), "
          f"{counts['differs']} differ, {counts['error']} raise")
    shown = 0
    for r in results:
        if r["status"] in ("differs", "error") and shown < args.show:
            print(json.dumps(r)[:600])
            shown += 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"counts": counts, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
