"""Paddle's stateful random functions: the draws differ (different generators), so these compare the
dtypes and shapes Paddle's argument combinations give; tests/random checks the distributions."""
from tests.paddle_parity._harness import A, Arr, I, case

F, D, I32, I64 = "float32", "float64", "int32", "int64"


def rc(path, *args, **kwargs):
    return case(path, *args, values=False, **kwargs)


CASES = [
    rc("rand", [2, 3]), rc("rand", [2, 3], "float64"), rc("rand", (4,), dtype="float16"), rc("rand", Arr([2, 3], I64)),
    rc("rand", [2], "complex64"),
    rc("randn", [2, 3]), rc("randn", [2, 3], "float64"), rc("randn", [Arr(2, I64), 3]), rc("randn", [2], "complex128"),
    rc("randint", 0, 10, [2, 3]), rc("randint", 5), rc("randint", -3, 3, [4], "int32"), rc("randint", 10, shape=(2,)),
    rc("randint", high=4, shape=[3]), rc("randint", 0, 10, [2, 3], dtype="int64"),
    rc("randperm", 5), rc("randperm", 6, "int32"), rc("randperm", 4, dtype="float64"),
    rc("uniform", [2, 3]), rc("uniform", [2, 3], "float64", -1.0, 2.0), rc("uniform", [4], min=-5, max=5, seed=3),
    rc("uniform", [3], "complex64"),
    rc("normal", shape=[3]), rc("normal", 1.0, 2.0, [2, 3]), rc("normal", A((2, 3))), rc("normal", 0.0, A((4,), D, 0.5, 2)),
    rc("normal", A((3,), D), A((3,), F, 0.5, 1)), rc("normal", A((2, 2)), 2.0), rc("normal", 1 + 1j, 2.0, [3]),
    rc("normal", A((3,), "complex64")), rc("normal", 1 + 1j, A((2, 2), D, 0.5, 1)),
    rc("standard_normal", [2, 3]), rc("standard_normal", [3], "float64"),
    rc("log_normal", shape=[2, 3]), rc("log_normal", 0.0, 1.0, [4]), rc("log_normal", A((3,), D), A((3,), D, 0.1, 1)),
    rc("bernoulli", A((3, 4), F, 0, 1)), rc("bernoulli", A((3, 4), D, 0, 1)), rc("bernoulli", A((3, 4), F, 0, 1), 0.3),
    rc("poisson", A((3, 4), F, 0, 5)), rc("poisson", A((3, 4), D, 0, 20)),
    rc("standard_gamma", A((3, 4), F, 0.5, 3)), rc("standard_gamma", A((3, 4), D, 0.5, 3)),
    rc("multinomial", A((4,), F, 0.1, 1)), rc("multinomial", A((4,), F, 0.1, 1), 3),
    rc("multinomial", A((2, 4), D, 0.1, 1), 5, True), rc("multinomial", A((2, 4), F, 0.1, 1), 4, False),
    rc("binomial", I((3, 4), 1, 20), A((3, 4), F, 0, 1)), rc("binomial", I((3, 4), 1, 20, I32), A((3, 4), D, 0, 1)),
    rc("rand_like", A((2, 3))), rc("rand_like", A((2, 3), D)), rc("rand_like", A((2, 3)), dtype="float64"),
    rc("randn_like", A((2, 3), D)), rc("randn_like", A((2, 3)), "float64"),
    rc("randint_like", A((2, 3), I64), 0, 5), rc("randint_like", A((2, 3), I32), 5), rc("randint_like", A((2, 3)), 0, 5),
    rc("randint_like", A((2, 3)), 0, 5, "int64"),
    rc("empty", [2, 3], "int32"), rc("empty_like", A((2, 3), D)),
    rc("create_parameter", [3, 4], "float32"), rc("create_parameter", [4], "float64", is_bias=True),
    rc("create_parameter", [2, 3, 3, 3], "float32"),
]
