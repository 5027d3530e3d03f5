"""Ahead-of-time compilation: jit(f).trace / .lower / .compile and what a Compiled program reports."""
import numpy as np
import pytest

import padax

S = padax.ShapeDtypeStruct


def test_lower_compile_and_call():
    f = padax.jit(lambda a, b: padax.tanh(padax.matmul(a, b)))
    lowered = f.lower(S((4, 5), "float32"), S((5, 6), "float32"))
    text = lowered.as_text()
    assert "stablehlo.dot_general" in text and "func.func public @main" in text
    assert lowered.out_info == S((4, 6), "float32")
    assert lowered.in_tree == padax.tree.structure(((0, 0), {}))
    compiled = lowered.compile()
    a = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((5, 6)).astype(np.float32)
    np.testing.assert_allclose(compiled(padax.to_tensor(a), padax.to_tensor(b)).numpy(), np.tanh(a @ b), rtol=1e-5)
    assert "HloModule" in compiled.as_text() and "ENTRY" in compiled.as_text()
    assert compiled.runtime_executable() is not None


@pytest.mark.parametrize("m, n, k", [(4, 5, 6), (32, 16, 8)])
def test_cost_analysis_flops_of_matmul(m, n, k):
    compiled = padax.jit(lambda a, b: a @ b).lower(S((m, k), "float32"), S((k, n), "float32")).compile()
    cost = compiled.cost_analysis()
    assert cost["flops"] == 2 * m * n * k
    assert cost["bytes accessed"] == 4 * (m * k + k * n + m * n)


def test_memory_analysis_sizes():
    compiled = padax.jit(lambda a: (a * 2).sum(axis=0)).lower(S((16, 8), "float64")).compile()
    mem = compiled.memory_analysis()
    assert mem.argument_size_in_bytes == 16 * 8 * 8
    assert mem.output_size_in_bytes == 8 * 8
    assert mem.temp_size_in_bytes >= 0 and mem.alias_size_in_bytes == 0


def test_trace_gives_the_jaxpr():
    traced = padax.jit(lambda x: padax.exp(x) + 1).trace(S((3,), "float32"))
    assert [e.primitive.name for e in traced.jaxpr.eqns][0] == "exp"
    assert traced.out_info == S((3,), "float32")
    assert "stablehlo.exponential" in traced.lower().as_text()


def test_static_arguments_are_fixed_at_lowering():
    f = padax.jit(lambda x, n: x * n, static_argnums=1)
    compiled = f.lower(S((2,), "float32"), 3).compile()
    assert compiled(padax.ones([2])).tolist() == [3.0, 3.0]


def test_lower_with_wrong_rank_struct_raises_the_same_error_as_a_call():
    f = padax.jit(lambda a, b: padax.matmul(a, b))
    with pytest.raises(ValueError) as call_err:
        f(padax.ones([4, 5, 3]), padax.ones([5, 6]))
    with pytest.raises(ValueError) as lower_err:
        f.lower(S((4, 5, 3), "float32"), S((5, 6), "float32"))
    assert str(call_err.value) == str(lower_err.value)
    assert "matmul" in str(lower_err.value)


def test_compiled_checks_argument_types():
    compiled = padax.jit(lambda a: a + 1).lower(S((3,), "float32")).compile()
    with pytest.raises(TypeError, match=r"argument 0 is f32\[4\] but the program was lowered for f32\[3\]"):
        compiled(padax.ones([4]))
    with pytest.raises(TypeError, match="lowered for arguments"):
        compiled(padax.ones([3]), padax.ones([3]))
