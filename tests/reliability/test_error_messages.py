"""Bad input gets an error that names the op the user called, the offending value and the user's line,
never a bare conversion message from a shared helper, jaxlib's text, or a silently truncated argument."""
import math

import numpy as np
import pytest

import padax
import padax.lax as lax
import padax.nn as nn
import padax.nn.functional as F
import padax.numpy as pnp

HERE = "test_error_messages.py"
FOREIGN = ("stablehlo", "INVALID_ARGUMENT", "nanobind", "MLIR", "jaxlib", "Traceback", "Non-hashable")


def _x():
    return padax.ones([2, 3])


def _raises(call, kind, starts: str, contains: str = ""):
    with pytest.raises(kind) as e:
        call()
    msg = str(e.value)
    assert msg.startswith(starts), msg
    assert contains in msg and HERE in msg, msg
    assert not any(bit in msg for bit in FOREIGN), msg


# (call, the op the message starts with): non-numbers reach a shared conversion helper
CONVERSION = [
    (lambda x: padax.sqrt("x"), "sqrt"),
    (lambda x: padax.add(x, "x"), "add"),
    (lambda x: padax.clip(x, "a", 2), "clip"),
    (lambda x: padax.maximum(x, None), "maximum"),
    (lambda x: padax.log([1, "a"]), "log"),
    (lambda x: padax.outer(x, "x"), "outer"),
    (lambda x: F.relu(None), "relu"),
    (lambda x: pnp.sin("x"), "sin"),
    (lambda x: pnp.add(x, None), "add"),
    (lambda x: lax.add(x, "b"), "add"),
    (lambda x: padax.cast(x, "banana"), "cast"),
    (lambda x: x.astype("banana"), "astype"),
]


def test_conversion_errors_name_the_op_and_the_line_eager_and_under_jit():
    for call, op in CONVERSION:
        _raises(lambda: call(_x()), TypeError, f"{op}: ")
        _raises(lambda: padax.jit(call)(_x()), TypeError, f"{op}: ")
    _raises(lambda: padax.zeros([2], dtype="banana"), TypeError, "zeros: ", "unknown dtype name 'banana'")
    _raises(lambda: _x()["a"], IndexError, "getitem: ", "got str")
    _raises(lambda: _x()[0, 0, 0], IndexError, "getitem: ", "too many indices")
    _raises(lambda: padax.gather(_x(), padax.to_tensor([5])), IndexError, "gather: ", "index 5 is out of bounds")
    _raises(lambda: padax.to_tensor([1, "a"]), TypeError, "to_tensor: ")


def test_an_op_failing_inside_another_names_both():
    x = _x()
    _raises(lambda: F.mse_loss(x, padax.ones([3, 2])), ValueError, "mse_loss: in subtract: ", "(2, 3), (3, 2)")
    _raises(lambda: padax.mm(x, x), ValueError, "mm: in matmul: ", "[2, 3]")
    _raises(lambda: padax.std(x, axis=3), ValueError, "std: in var: ", "axis 3")
    _raises(lambda: x + padax.ones([4]), ValueError, "add: ", "(2, 3), (4,)")  # (Tensor.__add__ is add)
    _raises(lambda: padax.jit(lambda a: F.linear(a, padax.ones([4, 5])))(x), ValueError, "linear: in matmul: ")


# fractional sizes, axes and counts were truncated by int() (a silent wrong answer); now refused
FRACTIONAL = [
    (lambda x: lax.integer_pow(x, 1.5), "integer_pow"),
    (lambda x: lax.reshape(padax.ones([6]), (2.0, 3)), "reshape"),
    (lambda x: lax.slice(x, (0, 0), (1.5, 1)), "slice"),
    (lambda x: lax.dynamic_slice(x, (0, 0), (1.5, 1)), "dynamic_slice"),
    (lambda x: lax.broadcast(x, (2.5,)), "broadcast"),
    (lambda x: lax.iota("float32", 3.5), "iota"),
    (lambda x: lax.index_in_dim(x, 0.5), "index_in_dim"),
    (lambda x: lax.expand_dims(x, (0.5,)), "expand_dims"),
    (lambda x: lax.rev(x, (0.5,)), "rev"),
    (lambda x: lax.sort(x, dimension=0.5), "sort"),
    (lambda x: lax.top_k(x, 1.5), "top_k"),
    (lambda x: lax.cumsum(x, axis=0.5), "cumsum"),
    (lambda x: lax.argmax(x, 0.5, "int32"), "argmax"),
    (lambda x: lax.conv_general_dilated(padax.ones([1, 1, 4, 4]), padax.ones([1, 1, 2, 2]), (1.5, 1), "SAME"),
     "conv_general_dilated"),
    (lambda x: padax.topk(x, k=1.5), "topk"),
    (lambda x: padax.kthvalue(x, k=1.5), "kthvalue"),
    (lambda x: padax.repeat_interleave(x, 2.5), "repeat_interleave"),
    (lambda x: padax.unique(x, axis=0.5), "unique"),
    (lambda x: padax.gather(x, padax.to_tensor([0]), axis=0.5), "gather"),
    (lambda x: padax.shard_index(padax.to_tensor([[1]]), 10, 2.5, 0), "shard_index"),
    (lambda x: padax.multinomial(padax.ones([3]), num_samples=1.5), "multinomial"),
    (lambda x: F.pixel_shuffle(padax.ones([1, 4, 2, 2]), 2.0), "pixel_shuffle"),
    (lambda x: F.embedding(padax.to_tensor([0, 1]), padax.ones([5, 3]), padding_idx=1.5), "embedding"),
    (lambda x: F.interpolate(padax.ones([1, 1, 2, 2]), size=[4.5, 4]), "interpolate"),
    (lambda x: nn.Linear(2.5, 3), "Linear"),
    (lambda x: nn.LSTM(3, 4.5), "LSTM"),
    (lambda x: nn.BatchNorm2D(2.0), "BatchNorm2D"),
    (lambda x: nn.MultiHeadAttention(8, 2.0), "MultiHeadAttention"),
]


def test_fractional_sizes_axes_and_counts_are_refused_not_truncated():
    x = _x()
    for call, op in FRACTIONAL:
        _raises(lambda: call(x), TypeError, f"{op}: ", "must be")
    assert lax.integer_pow(padax.to_tensor([2.0]), 3).tolist() == [8.0]  # ints still work
    assert nn.Linear(np.int64(2), 3).weight.shape == (2, 3)
    assert padax.repeat_interleave(padax.to_tensor([1.0, 2.0]), [1, 2]).tolist() == [1.0, 2.0, 2.0]


def test_bad_values_are_refused_not_answered():
    x = _x()
    _raises(lambda: padax.arange(0, math.nan), ValueError, "arange: ", "end must be finite")
    _raises(lambda: padax.arange(0, 5, math.inf), ValueError, "arange: ", "step must be finite")
    _raises(lambda: padax.range(0, math.inf), ValueError, "range: ", "end must be finite")
    _raises(lambda: padax.arange("a"), TypeError, "arange: ", "must be a number")
    _raises(lambda: padax.full([2], "a"), TypeError, "full: ", "fill_value")
    _raises(lambda: padax.full_like(x, None), TypeError, "full_like: ", "fill_value")
    _raises(lambda: pnp.full((2,), "a"), TypeError, "full: ", "fill_value")
    _raises(lambda: F.unfold(padax.ones([1, 1, 4, 4]), [5, 5]), ValueError, "unfold: ", "no block fits")
    _raises(lambda: F.nll_loss(x, padax.ones([2])), TypeError, "nll_loss: ", "integer class indices")
    _raises(lambda: F.one_hot(padax.ones([2]), 3), TypeError, "one_hot: ", "f32[2]")
    _raises(lambda: padax.where(x > 0, x), TypeError, "where: ", "both x and y")
    with pytest.raises(ValueError, match="Adam: epsilon must be >= 0"):
        padax.optimizer.Adam(epsilon=-1.0, parameters=nn.Linear(2, 2).parameters())
    assert padax.full([2], [3.0]).tolist() == [3.0, 3.0]  # a one-element list still fills


def test_transform_misuse_is_named():
    x = _x()
    _raises(lambda: padax.grad(lambda a: a.sum(), argnums=1.5)(x), TypeError, "value_and_grad: ", "argnums")
    _raises(lambda: padax.jacrev(lambda a: a, argnums=2)(x), TypeError, "jacrev(<lambda>): ", "argnums=(2,)")
    _raises(lambda: padax.jacfwd(lambda a: a, argnums=(0, 1))(x), TypeError, "jacfwd(<lambda>): ")
    _raises(lambda: padax.jit(lambda a: "s")(x), TypeError, "jit(<lambda>) tracing: ", "returned a str")
    _raises(lambda: padax.jit(lambda a, n: a * n[0], static_argnums=1)(x, [1, 2]), ValueError,
            "jit(<lambda>): ", "must be hashable")
    _raises(lambda: lax.fori_loop(0, 3, lambda i, c: (c, c), x), TypeError, "fori_loop: body_fun ", "init_val")
    assert padax.grad(lambda a: a.sum(), argnums=-1)(x).shape == (2, 3)  # negative argnums still count back
