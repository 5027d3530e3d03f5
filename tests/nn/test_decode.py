"""BeamSearchDecoder, dynamic_decode and gather_tree vs Paddle on a small GRU decoder with the same
weights: token sequences, scores, lengths and final states; the jitted (fixed-length) loop."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import copy_weights

V, H, B, BEAM = 7, 8, 3, 3


def _decoders(end_token):
    paddle = paddle_oracle()
    paddle.seed(5)
    pe, pc, po = paddle.nn.Embedding(V, H), paddle.nn.GRUCell(H, H), paddle.nn.Linear(H, V)
    me, mc, mo = (copy_weights(nn.Embedding(V, H), pe), copy_weights(nn.GRUCell(H, H), pc),
                  copy_weights(nn.Linear(H, V), po))
    kw = dict(start_token=0, end_token=end_token, beam_size=BEAM)
    return (paddle.nn.BeamSearchDecoder(pc, embedding_fn=pe, output_fn=po, **kw),
            nn.BeamSearchDecoder(mc, embedding_fn=me, output_fn=mo, **kw))


H0 = np.random.default_rng(0).standard_normal((B, H)).astype(np.float32)


@pytest.mark.parametrize("end_token", [1, 2, 4])  # never / soon / at various steps finished
def test_beam_search_vs_paddle(end_token):
    paddle = paddle_oracle()
    pd, md = _decoders(end_token)
    p_ids, p_state, p_len = paddle.nn.dynamic_decode(pd, inits=paddle.to_tensor(H0), max_step_num=9,
                                                     return_length=True)
    ids, state, lengths = nn.dynamic_decode(md, inits=padax.to_tensor(H0), max_step_num=9, return_length=True)
    assert ids.shape == tuple(p_ids.shape) and ids.dtype == np.int64
    np.testing.assert_array_equal(np.asarray(ids), p_ids.numpy())
    np.testing.assert_array_equal(np.asarray(lengths), p_len.numpy())
    np.testing.assert_array_equal(np.asarray(state.finished), p_state.finished.numpy())
    np.testing.assert_allclose(np.asarray(state.log_probs), p_state.log_probs.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(state.cell_states), p_state.cell_states.numpy(), rtol=1e-5, atol=1e-5)


def test_time_major_and_jit_fixed_length():
    paddle = paddle_oracle()
    pd, md = _decoders(2)
    p_ids, _ = paddle.nn.dynamic_decode(pd, inits=paddle.to_tensor(H0), max_step_num=9, output_time_major=True)
    ids, _ = nn.dynamic_decode(md, inits=padax.to_tensor(H0), max_step_num=9, output_time_major=True)
    np.testing.assert_array_equal(np.asarray(ids), p_ids.numpy())
    steps = ids.shape[0]
    jitted = padax.jit(lambda h: nn.dynamic_decode(md, inits=h, max_step_num=9, return_length=True))
    j_ids, j_state, j_len = jitted(padax.to_tensor(H0))
    assert j_ids.shape == (B, 10, BEAM)  # always max_step_num + 1 steps under jit
    np.testing.assert_array_equal(np.asarray(j_ids)[:, :steps], np.moveaxis(np.asarray(ids), 0, 1))
    assert (np.asarray(j_ids)[:, steps:] == 2).all()  # finished beams only emit end_token
    with pytest.raises(ValueError, match="dynamic_decode: inside jit.*max_step_num"):
        padax.jit(lambda h: nn.dynamic_decode(md, inits=h))(padax.to_tensor(H0))


def test_gather_tree_vs_paddle():
    paddle = paddle_oracle()
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 9, (5, 2, 3)).astype(np.int64)
    parents = rng.integers(0, 3, (5, 2, 3)).astype(np.int64)
    np.testing.assert_array_equal(np.asarray(nn.functional.gather_tree(padax.to_tensor(ids), padax.to_tensor(parents))),
                                  paddle.nn.functional.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents))
                                  .numpy())


def test_tile_beam_merge_with_batch_and_custom_decoder():
    paddle = paddle_oracle()
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(nn.BeamSearchDecoder.tile_beam_merge_with_batch(padax.to_tensor(x), 2)),
                                  paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor(x), 2)
                                  .numpy())

    class Countdown(nn.decode.Decoder):  # a greedy decoder that stops each row after its own count
        def initialize(self, inits):
            return inits, inits, inits <= 0

        def step(self, time, inputs, states):
            return states, states - 1, inputs, states - 1 <= 0

    out, state, lengths = nn.dynamic_decode(Countdown(), inits=padax.to_tensor([3, 1, 2]), return_length=True)
    np.testing.assert_array_equal(np.asarray(out), [[3, 2, 1], [1, 0, -1], [2, 1, 0]])
    np.testing.assert_array_equal(np.asarray(lengths), [3, 1, 2])
    with pytest.raises(TypeError):
        nn.decode.Decoder()
