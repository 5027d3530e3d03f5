"""padax never imports jax: not at import, not when computing, not when reading back."""
import subprocess
import sys
import textwrap

import pytest

_COMPUTE = textwrap.dedent("""
    import sys
    import numpy as np
    import padax, padax.lax as lax
    x = padax.device_put(np.arange(8, dtype=np.float32))
    y = lax.add(lax.exp(x), x)
    f = padax.jit(lambda a: lax.reduce_sum(lax.mul(a, a), (0,)))
    z = f(y)
    assert abs(z.item() - float(np.sum((np.exp(np.arange(8.)) + np.arange(8.)) ** 2))) / z.item() < 1e-5
    print(repr(y), y.numpy().sum(), float(z))
    print("JAX_LOADED", any((m == "jax" or m.startswith("jax.")) and sys.modules[m] is not None for m in list(sys.modules)))
""")


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_padax_never_imports_jax_even_when_installed():
    pytest.importorskip("jax")  # the interesting case: jax is installed and could be imported
    assert "JAX_LOADED False" in _run(_COMPUTE)


def test_padax_works_without_jax():
    # every `import jax...` fails at once, as on a machine without jax
    code = "import sys\nsys.modules['jax'] = None\n" + _COMPUTE
    assert "JAX_LOADED False" in _run(code)


def test_user_can_still_import_jax_after_padax():
    pytest.importorskip("jax")
    code = _COMPUTE + textwrap.dedent("""
        import jax, jax.numpy as jnp
        assert float(jnp.sum(jnp.arange(4.0))) == 6.0
        x = padax.device_put(np.ones(3, np.float32))
        assert float(lax.reduce_sum(lax.add(x, x), (0,))) == 6.0   # padax unaffected by jax's patches
        print("BOTH_OK")
    """)
    assert "BOTH_OK" in _run(code)
