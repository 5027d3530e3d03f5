"""docs/numerics.md: on CPU, XLA runs compiled code with flush-to-zero on, so subnormal floats read
as zero in arithmetic (as in jax) while storing, reading back and moving bits (abs) keep them. If this test
fails, padax has started keeping subnormals: update docs/numerics.md."""
from pathlib import Path

import numpy as np
import pytest

import padax

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("dt,sub,normal", [(np.float32, 1e-40, 1e-30), (np.float64, 1e-310, 1e-300)])
def test_subnormals_flush_to_zero_in_cpu_computations(dt, sub, normal):
    if padax.default_backend() != "cpu":
        pytest.skip("the documented behaviour is XLA's CPU runtime")
    v = np.array([sub, normal], dt)
    assert np.finfo(dt).tiny > sub > 0  # a subnormal for numpy, which keeps it
    x = padax.to_tensor(v)
    np.testing.assert_array_equal(x.numpy(), v)  # stored and read back: kept
    for out in (x * 2.0, padax.jit(lambda t: t * 2.0)(x)):  # numpy: [2 * sub, 2 * normal]
        np.testing.assert_array_equal(out.numpy(), np.array([0.0, 2 * normal], dt))
    np.testing.assert_array_equal(padax.sum(x).numpy(), dt(normal))
    np.testing.assert_array_equal(padax.abs(-x).numpy(), v)  # bit moves keep it (documented)
    # a result that would be subnormal comes back as zero
    tiny = padax.to_tensor(np.array([np.sqrt(sub)], dt))
    assert float((tiny * tiny).numpy()[0]) == 0.0 and float(np.sqrt(sub) ** 2) != 0.0
    text = (ROOT / "docs" / "numerics.md").read_text()
    assert "flushed to zero" in text and "1.1754944e-38" in text
