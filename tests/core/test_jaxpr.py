"""make_jaxpr output, the pretty printer, source info, eval_jaxpr."""
import numpy as np

import padax
import padax.lax as lax
from padax.core.jaxpr import eval_jaxpr


def test_make_jaxpr_prints_readably():
    jaxpr = padax.make_jaxpr(lambda x, y: lax.mul(lax.add(x, y), x))(
        np.ones(3, np.float32), np.ones(3, np.float32))
    assert str(jaxpr) == (
        "{ lambda ; a:f32[3] b:f32[3]. let\n"
        "    c:f32[3] = add a b\n"
        "    d:f32[3] = mul c a\n"
        "  in (d,) }")


def test_params_literals_and_multiple_outputs():
    jaxpr = padax.make_jaxpr(lambda x: (lax.reduce_sum(x, (0,)), lax.add(x, 2.0)))(np.ones((2,), np.float32))
    text = str(jaxpr)
    assert "reduce_sum[axes=(0,)] a" in text
    assert "2.0:f32[]" in text
    assert text.rstrip().endswith("in (b, d) }")


def test_every_equation_has_user_source_info():
    jaxpr = padax.make_jaxpr(lambda x: lax.exp(lax.neg(x)))(np.ones(2, np.float32))
    for eqn in jaxpr.eqns:
        assert eqn.source_info is not None
        assert eqn.source_info.filename.endswith("test_jaxpr.py")


def test_eval_jaxpr_matches_direct_call():
    f = lambda x: lax.tanh(lax.mul(x, 3.0))  # noqa: E731
    x = np.linspace(-1, 1, 5).astype(np.float32)
    closed = padax.make_jaxpr(f)(x)
    (out,) = eval_jaxpr(closed.jaxpr, closed.consts, padax.device_put(x))
    np.testing.assert_allclose(out.numpy(), np.tanh(3 * x), rtol=1e-6)


def test_static_argnums_in_make_jaxpr():
    jaxpr = padax.make_jaxpr(lambda x, n: lax.integer_pow(x, n), static_argnums=1)(np.ones(2, np.float32), 3)
    assert "integer_pow[y=3]" in str(jaxpr)


def test_weak_type_of_python_scalar_args():
    jaxpr = padax.make_jaxpr(lambda x: lax.neg(x))(1.0)
    assert jaxpr.in_avals[0].weak_type and jaxpr.out_avals[0].weak_type
