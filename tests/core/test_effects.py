"""Effects on equations: dead-code elimination keeps them; ordered ones get a token in the lowered program."""
import padax
from padax import lax
from padax.core.effects import jaxpr_effects, ordered_io_effect
from padax.core.jaxpr import dce_jaxpr
from padax.experimental import io_callback


def _prints(x):
    padax.debug.print("{}", x)
    y = x * 2  # noqa: F841  (unused: dead code)
    return x + 1


def test_dce_keeps_effects_drops_dead_code():
    closed = padax.make_jaxpr(_prints)(padax.ones([2]))
    kept = [e.primitive.name for e in dce_jaxpr(closed.jaxpr).eqns]
    assert "debug_callback" in kept and "mul" not in kept


def test_effects_of_nested_programs():
    def g(x):
        return lax.cond(x.sum() > 0, lambda: padax.jit(lambda v: io_callback(lambda a: a, padax.ShapeDtypeStruct(
            (2,), "float32"), v, ordered=True))(x), lambda: x)
    closed = padax.make_jaxpr(g)(padax.ones([2]))
    assert ordered_io_effect in jaxpr_effects(closed)
    assert not jaxpr_effects(padax.make_jaxpr(lambda v: v * 2)(padax.ones([2])))


def test_only_ordered_programs_carry_a_token():
    ordered = padax.jit(lambda x: padax.debug.print("{}", x, ordered=True)).lower(padax.ones([1])).as_text()
    unordered = padax.jit(lambda x: padax.debug.print("{}", x)).lower(padax.ones([1])).as_text()
    assert "stablehlo.create_token" in ordered and "!stablehlo.token" in ordered
    assert "token" not in unordered and "xla_ffi_python_cpu_callback" in unordered
