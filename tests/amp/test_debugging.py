"""padax.amp.debugging: operator stats count each op once, in the dtype it ran in; check_numerics as Paddle's."""
import numpy as np
import pytest

import padax
from padax.amp import debugging


def test_operator_stats_count_each_call_in_its_dtype(capsys):
    x, w = padax.ones([2, 3]), padax.ones([3, 2])
    debugging.enable_operator_stats_collection()
    with padax.amp.auto_cast(dtype="bfloat16"):
        assert padax.amp.is_autocast_enabled()
        for _ in range(3):  # repeated eager ops: counted once per call (also on the C++ fast path)
            padax.exp(x @ w)
    x @ w
    counts = debugging.disable_operator_stats_collection()
    assert counts["dot_general"] == [0, 3, 1, 0] and counts["exp"] == [0, 0, 3, 0]
    assert counts["convert_element_type"] == [0, 3, 6, 0]
    out = capsys.readouterr().out
    assert "BF16 Calls" in out and "dot_general" in out and "op count: 3" in out
    assert not padax.amp.is_autocast_enabled()
    with debugging.collect_operator_stats():  # a jitted function counts its program when traced
        padax.jit(lambda a: padax.tanh(a) * 2.0)(x)
    assert "tanh" in capsys.readouterr().out
    with pytest.raises(RuntimeError, match="not enabled"):
        debugging.disable_operator_stats_collection()


def test_check_numerics_matches_paddle():
    from tests.conftest import paddle_oracle
    paddle = paddle_oracle()
    from paddle.amp.debugging import DebugMode as PMode
    from paddle.amp.debugging import check_numerics as pcheck
    for data in ([1.0, np.nan, np.inf, 0.0, -3.0, 0.0], [1.0, 2.0, 0.0, -3.0], [np.nan]):
        a = np.array(data, np.float32)
        s, v = debugging.check_numerics(padax.to_tensor(a), "op", "x", debugging.DebugMode.CHECK_NAN_INF)
        ps, pv = pcheck(paddle.to_tensor(a), "op", "x", PMode.CHECK_NAN_INF)
        np.testing.assert_array_equal(np.asarray(s), ps.numpy())
        np.testing.assert_allclose(np.asarray(v), pv.numpy())
    with pytest.raises(RuntimeError, match="NAN or INF"):
        debugging.check_numerics(padax.to_tensor(np.array([np.inf], np.float32)), "op", "x")
    stats = padax.jit(lambda t: debugging.check_numerics(t, debug_mode=debugging.DebugMode.CHECK_NAN_INF)[0])(
        padax.to_tensor(np.array([np.nan, 0.0], np.float32)))
    np.testing.assert_array_equal(np.asarray(stats), [1, 0, 1])
    with pytest.raises(TypeError, match="CHECK_NAN_INF"):
        padax.jit(lambda t: debugging.check_numerics(t)[0])(padax.ones([2]))
