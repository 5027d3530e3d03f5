"""SimpleRNNCell/LSTMCell/GRUCell, RNN/BiRNN and SimpleRNN/LSTM/GRU against Paddle with the same weights:
outputs, final states, input and parameter gradients; state_dict keys; masking; dropout; jit/vmap."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


class Flat(nn.Layer):
    """Outputs and final states of a recurrent layer as one flat vector (so one cotangent covers both)."""

    def __init__(self, inner, pack=False, **call_kw):
        super().__init__()
        self.inner, self.call_kw, self.pack = inner, call_kw, pack

    def forward(self, *args):
        kw = {k: padax.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in self.call_kw.items()}
        if self.pack:  # (x, h, c) -> (x, (h, c))
            args = (args[0], tuple(args[1:]))
        out = self.inner(*args, **kw)
        return padax.concat([padax.flatten(t) for t in padax.tree.leaves(out)])


def _paddle_flat(inner, pack=False, **call_kw):
    paddle = paddle_oracle()

    class PFlat(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def forward(self, *args):
            kw = {k: paddle.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in call_kw.items()}
            if pack:
                args = (args[0], tuple(args[1:]))
            out = self.inner(*args, **kw)
            return paddle.concat([t.flatten() for t in paddle.utils.flatten(out)])

    return PFlat()


def _same(m, p, inputs, pack=False, rtol=1e-4, atol=1e-5, **call_kw):
    flat = Flat(m, pack, **call_kw)
    names = [n for n, _ in flat.named_parameters()]
    # Paddle's RNNs list each parameter once, under its flat alias (weight_ih_l0) where it has one
    aliases = {f"inner.{target}": f"inner.{alias}" for alias, target in getattr(m, "_state_aliases", list)()}
    return assert_same_run(flat, _paddle_flat(p, pack, **call_kw), inputs, rtol=rtol, atol=atol, params=names,
                           paddle_names=aliases)


def _compare(name, args, kw, inputs, call_kw=None, pack=False, rtol=1e-4, atol=1e-5):
    paddle = paddle_oracle()
    p = getattr(paddle.nn, name)(*args, **kw)
    m = getattr(nn, name)(*args, **kw)
    assert list(m.state_dict()) == list(p.state_dict())
    assert [tuple(v.shape) for v in m.state_dict().values()] == [tuple(v.shape) for v in p.state_dict().values()]
    copy_weights(m, p)
    return _same(m, p, inputs, pack, rtol, atol, **(call_kw or {}))


def test_cells_vs_paddle():
    x, h, c = _x(3, 4), _x(3, 5), _x(3, 5)
    _compare("SimpleRNNCell", (4, 5), {}, [x, h])
    _compare("SimpleRNNCell", (4, 5), dict(activation="relu"), [x, h])
    _compare("GRUCell", (4, 5), {}, [x, h])
    _compare("LSTMCell", (4, 5), {}, [x], call_kw={})  # zero initial states
    _compare("LSTMCell", (4, 5), dict(proj_size=2), [x, _x(3, 2), c], pack=True)
    m = nn.LSTMCell(4, 5)
    assert m.weight_ih.shape == (20, 4) and m.weight_hh.shape == (20, 5) and m.bias_hh.shape == (20,)
    w = m.weight_ih.numpy()
    assert np.abs(w).max() <= 1 / np.sqrt(5) and w.std() > 0.5 / np.sqrt(15)  # Uniform(-1/sqrt(h), 1/sqrt(h))
    out, (h1, c1) = m(padax.to_tensor(x), (padax.to_tensor(h), padax.to_tensor(c)))
    gates = x @ w.T + m.bias_ih.numpy() + h @ m.weight_hh.numpy().T + m.bias_hh.numpy()
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    i, f, g, o = np.split(gates, 4, axis=-1)
    c_ref = sig(f) * c + sig(i) * np.tanh(g)
    np.testing.assert_allclose(c1.numpy(), c_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out.numpy(), sig(o) * np.tanh(c_ref), rtol=1e-5, atol=1e-5)


def test_lstm_bidirectional_two_layers_masked_vs_paddle():
    lengths = np.array([6, 3, 1], np.int64)
    _compare("LSTM", (4, 5), dict(num_layers=2, direction="bidirect"), [_x(3, 6, 4)],
             call_kw=dict(sequence_length=lengths))


def test_gru_time_major_initial_states_vs_paddle():
    _compare("GRU", (4, 5), dict(num_layers=2, time_major=True, direction="bidirectional"),
             [_x(6, 3, 4), _x(4, 3, 5)])


def test_simple_rnn_and_lstm_proj_vs_paddle():
    _compare("SimpleRNN", (4, 5), dict(activation="relu"), [_x(2, 5, 4)],
             call_kw=dict(sequence_length=np.array([2, 5], np.int64)))
    _compare("LSTM", (4, 5), dict(proj_size=3), [_x(2, 5, 4), _x(1, 2, 3), _x(1, 2, 5)], pack=True)


def test_rnn_and_birnn_wrappers_vs_paddle():
    paddle = paddle_oracle()
    p = paddle.nn.RNN(paddle.nn.GRUCell(4, 5), is_reverse=True)
    m = copy_weights(nn.RNN(nn.GRUCell(4, 5), is_reverse=True), p)
    kw = dict(sequence_length=np.array([4, 2], np.int64))
    _same(m, p, [_x(2, 4, 4)], **kw)
    p = paddle.nn.BiRNN(paddle.nn.LSTMCell(4, 5), paddle.nn.LSTMCell(4, 5))
    m = copy_weights(nn.BiRNN(nn.LSTMCell(4, 5), nn.LSTMCell(4, 5)), p)
    assert list(m.state_dict()) == list(p.state_dict())
    _same(m, p, [_x(2, 4, 4)])


def test_rnn_dropout_jit_vmap_and_errors():
    m = nn.LSTM(4, 8, num_layers=2, dropout=0.5)
    x = padax.to_tensor(_x(3, 7, 4))

    @padax.jit
    def run(m, x, key):
        with nn.rng_scope(key):
            return m(x)[0]

    a, b = run(m, x, padax.random.key(1)), run(m, x, padax.random.key(1))
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.allclose(a.numpy(), run(m, x, padax.random.key(2)).numpy())
    m.eval()
    np.testing.assert_allclose(run(m, x, padax.random.key(3)).numpy(), m(x)[0].numpy(), rtol=1e-5, atol=1e-6)
    ys = padax.vmap(lambda xi: m(xi)[0])(x.reshape([3, 1, 7, 4]))
    np.testing.assert_allclose(ys.numpy().reshape(3, 7, 8), m(x)[0].numpy(), rtol=1e-5, atol=1e-5)
    g = padax.grad(lambda mm: (mm(x)[0] ** 2).mean())(m)
    assert g.state_dict()["1.cell.weight_hh"].shape == (32, 8)
    with pytest.raises(ValueError, match=r"LSTM input: expected 4 features along axis -1"):
        m(padax.ones([2, 3, 5]))
    with pytest.raises(ValueError, match="direction"):
        nn.GRU(3, 4, direction="backward")
    with pytest.raises(ValueError, match=r"initial states must be \[2, 3, hidden\]"):
        nn.GRU(4, 8, num_layers=2)(x, padax.zeros([1, 3, 8]))


class ScaledSum(nn.RNNCellBase):
    """A user cell (not one of Paddle's): h' = a * h + x, output 2 * h'."""

    def __init__(self, size):
        super().__init__()
        self.input_size, self.size = size, size
        self.a = self.create_parameter([size], default_initializer=nn.initializer.Constant(0.5))

    def forward(self, x, h=None):
        h = self.get_initial_states(x) if h is None else h
        new = self.a * h + x
        return 2 * new, new

    @property
    def state_shape(self):
        return (self.size,)


def test_rnn_with_a_user_cell_matches_a_python_loop():
    x = _x(2, 5, 3)
    lengths = np.array([5, 2])
    out, final = padax.jit(lambda m, x: m(x, sequence_length=padax.to_tensor(lengths)))(
        nn.RNN(ScaledSum(3), is_reverse=True), padax.to_tensor(x))
    ref_out, ref_final = np.zeros_like(x), np.zeros((2, 3), np.float32)
    for b in range(2):
        h = np.zeros(3, np.float32)
        for t in reversed(range(lengths[b])):
            h = 0.5 * h + x[b, t]
            ref_out[b, t] = 2 * h
        ref_final[b] = h
    np.testing.assert_allclose(final.numpy(), ref_final, rtol=1e-6)
    valid = np.arange(5)[None, :] < lengths[:, None]
    np.testing.assert_allclose(out.numpy()[valid], ref_out[valid], rtol=1e-6)
    g = padax.grad(lambda m: m(padax.to_tensor(x))[0].sum())(nn.RNN(ScaledSum(3)))
    assert g.cell.a.shape == (3,) and np.all(np.isfinite(g.cell.a.numpy()))
