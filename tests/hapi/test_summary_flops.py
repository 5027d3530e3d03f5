"""padax.summary against Paddle's table, padax.flops against hand counts (sub-programs included)."""
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle


def _table(capsys, fn):
    info = fn()
    return capsys.readouterr().out, info


def test_summary_prints_paddles_table(capsys):
    paddle = paddle_oracle()
    padax.seed(0)
    net = nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                        nn.Linear(64, 10))
    ours, info = _table(capsys, lambda: padax.summary(net, (None, 1, 8, 8)))
    pnet = paddle.nn.Sequential(paddle.nn.Conv2D(1, 4, 3, padding=1), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
                                paddle.nn.MaxPool2D(2), paddle.nn.Flatten(), paddle.nn.Linear(64, 10))
    theirs, pinfo = _table(capsys, lambda: paddle.summary(pnet, (None, 1, 8, 8)))
    strip = lambda text: [l for l in text.splitlines() if l.strip()]  # noqa: E731
    # layer indices follow each framework's global layer counter; compare the table with them removed
    import re
    norm = lambda lines: [" ".join(re.sub(r"-\d+ ", "-N ", l).split()) for l in lines]  # noqa: E731
    assert norm(strip(ours)) == norm(strip(theirs))
    assert strip(ours)[0] == "-" * 75 and strip(ours)[2] == "=" * 75  # Paddle's minimum table width
    assert info == {k: int(v) for k, v in pinfo.items()}
    assert net.training  # restored after the eval-mode run


def test_model_summary_uses_the_input_specs(capsys):
    net = nn.Sequential(nn.Linear(8, 4), nn.Linear(4, 2))
    net.freeze("1.weight")  # Paddle counts only the trainable parameters of a layer as trainable
    model = padax.Model(net, inputs=[padax.static.InputSpec([None, 8], "float32", "x")])
    info = model.summary()
    out = capsys.readouterr().out
    assert "Linear-" in out and "[[1, 8]]" in out and "Total params: 46" in out
    assert info == {"total_params": 46, "trainable_params": 38}
    with pytest.raises(ValueError, match="input_size"):
        padax.Model(net).summary()


def test_flops_of_linear_and_conv_match_hand_counts():
    lin = nn.Linear(8, 4)
    # 2 x 4 outputs, 8 multiply-adds each, plus the bias add
    assert padax.flops(lin, [2, 8]) == 2 * 4 * 8 + 2 * 4
    conv = nn.Conv2D(3, 6, 3, padding=1, groups=3)
    # 2x6x5x5 outputs, each (3/3 input channels) x 3x3 multiply-adds, plus the bias add
    assert padax.flops(conv, [2, 3, 5, 5]) == 2 * 6 * 5 * 5 * 9 + 2 * 6 * 5 * 5
    conv_nb = nn.Conv2D(2, 4, (3, 2), stride=2, bias_attr=False)
    out = 1 * 4 * 3 * 4  # [1, 2, 7, 8] -> [1, 4, 3, 4]
    assert padax.flops(conv_nb, [1, 2, 7, 8]) == out * 2 * 3 * 2


def test_flops_count_inside_scan_cond_and_jit(capsys):
    w = padax.ones([4, 4])

    def body(c, _):
        return padax.matmul(c, w), None  # 1x4 @ 4x4: 16 multiply-adds

    def fn(x):
        c, _ = padax.lax.scan(body, x, None, length=5)
        y = padax.lax.cond(True, lambda v: v * 2.0, lambda v: padax.matmul(v, w), c)  # max branch: 16
        return padax.jit(lambda v: padax.exp(v))(y)  # 4 elements

    assert padax.flops(fn, [1, 4], print_detail=True) == 5 * 16 + 16 + 4
    out = capsys.readouterr().out
    assert "dot_general" in out and "Total Flops: 100" in out


def test_flops_custom_ops_replace_a_rule():
    lin = nn.Linear(8, 4)
    assert padax.flops(lin, [2, 8], custom_ops={"dot_general": lambda eqn: 1}) == 1 + 8
    with pytest.raises(TypeError, match="primitive names"):
        padax.flops(lin, [2, 8], custom_ops={nn.Linear: lambda *a: 0})
