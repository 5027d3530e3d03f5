"""The CPU client runs programs inline by default; `cpu_async_dispatch` hands them to a worker thread."""
import os
import subprocess
import sys
import textwrap

import numpy as np

import padax
import padax.lax as lax

_DN = (((1,), (0,)), ((), ()))

# a program long enough (~0.1-1 s) that an async dispatch returns well before it finishes
_HEAVY = textwrap.dedent("""
    import numpy as np, padax, padax.lax as lax
    DN = (((1,), (0,)), ((), ()))
    a = padax.device_put(np.full((1024, 1024), 1e-3, np.float32))
    f = padax.jit(lambda a: lax.dot_general(lax.dot_general(lax.dot_general(a, a, DN), a, DN), a, DN))
    f(a).block_until_ready()  # compile outside the check
    y = f(a)
    print("ASYNC", padax.config.cpu_async_dispatch, "READY_AT_RETURN", y.is_ready())
    y.block_until_ready()
    print("READY_AFTER_WAIT", y.is_ready())
    print("VALUE", float(y[0, 0]))
""")


def _run(code: str, **env) -> str:
    full_env = {k: v for k, v in os.environ.items() if k != "PADAX_CPU_ASYNC_DISPATCH"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=dict(full_env, **env))
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_values_are_correct():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 64)).astype(np.float32), rng.standard_normal((64, 64)).astype(np.float32)
    y = lax.dot_general(padax.device_put(a), padax.device_put(b), _DN)
    np.testing.assert_allclose(y.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_inline_by_default_results_are_ready_when_the_call_returns():
    out = _run(_HEAVY)
    assert "ASYNC False READY_AT_RETURN True" in out
    # each product with `a` multiplies every entry by 1024 * 1e-3
    assert abs(float(out.split("VALUE ")[1]) - 1e-3 * 1.024 ** 3) < 1e-6


def test_async_dispatch_returns_before_the_program_finishes():
    out = _run(_HEAVY, PADAX_CPU_ASYNC_DISPATCH="1")
    assert "ASYNC True READY_AT_RETURN False" in out
    assert "READY_AFTER_WAIT True" in out
    assert abs(float(out.split("VALUE ")[1]) - 1e-3 * 1.024 ** 3) < 1e-6


def test_switching_the_setting_replaces_the_client():
    code = textwrap.dedent("""
        import numpy as np, padax
        from padax.runtime import backend
        c0 = backend.get_client("cpu")
        padax.config.update("cpu_async_dispatch", True)
        c1 = backend.get_client("cpu")
        x = padax.to_tensor(np.arange(4.0, dtype=np.float32))
        print("NEW_CLIENT", c1 is not c0, "SUM", float((x * 2).sum()))
    """)
    out = _run(code)
    assert "NEW_CLIENT True SUM 12.0" in out


def test_malloc_thresholds_are_set_with_the_cpu_client_unless_disabled():
    code = textwrap.dedent("""
        import padax
        from padax.runtime import host_memory
        padax.to_tensor([1.0]).block_until_ready()  # creates the CPU client
        print("APPLIED", host_memory._applied)
    """)
    import platform
    out = _run(code)
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert "APPLIED {'mmap_threshold': 33554432, 'trim_threshold': 268435456}" in out
    assert "APPLIED {}" in _run(code, PADAX_MALLOC_TUNING="0")
