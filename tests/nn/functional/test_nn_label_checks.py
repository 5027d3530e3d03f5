"""Class labels and embedding ids outside their range, and float labels: one rule eagerly and under
jit. Eagerly a ValueError (as Paddle); compiled, the values are unknown while tracing, the label
matches no class (the id reads the clamped row), and checkify's index_checks report it."""
import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax import checkify
from tests.conftest import paddle_oracle

LOGP = np.log(np.array([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]], np.float32))
TABLE = np.arange(6, dtype=np.float32).reshape(3, 2)

CALLS = {
    "cross_entropy": lambda x, t, lab: F.cross_entropy(x, lab),
    "nll_loss": lambda x, t, lab: F.nll_loss(x, lab),
    "one_hot": lambda x, t, lab: F.one_hot(lab, 3),
    "embedding": lambda x, t, lab: F.embedding(lab, t),
}


@pytest.mark.parametrize("op", sorted(CALLS))
@pytest.mark.parametrize("bad", [3, -1, 7])
def test_out_of_range_eager_raises_and_checkify_reports_it_under_jit(op, bad):
    fn = CALLS[op]
    args = (padax.to_tensor(LOGP), padax.to_tensor(TABLE))
    lab = padax.to_tensor([0, bad])
    what = "id" if op == "embedding" else "label"
    with pytest.raises(ValueError, match=rf"{op}: {what} {bad} at .*out of range"):
        fn(*args, lab)
    # compiled: no error is possible, the documented value comes back ...
    out = padax.jit(fn)(*args, lab)
    if op in ("cross_entropy", "nll_loss"):  # the bad label adds 0; 'mean' still counts it
        np.testing.assert_allclose(out.numpy(), -LOGP[0, 0] / 2, rtol=1e-6)
    elif op == "one_hot":
        np.testing.assert_array_equal(out.numpy(), [[1, 0, 0], [0, 0, 0]])
    else:
        np.testing.assert_array_equal(out.numpy(), [TABLE[0], TABLE[0 if bad < 0 else 2]])
    # ... and checkify names the op, the value and the user's line
    err, _ = checkify.checkify(padax.jit(fn), errors=checkify.index_checks)(*args, lab)
    msg = err.get()
    assert msg is not None and f"{op}: {what} {bad} at flat index 1 is out of range" in msg, msg
    assert "test_nn_label_checks.py" in msg, msg
    ok, _ = checkify.checkify(padax.jit(fn), errors=checkify.index_checks)(*args, padax.to_tensor([0, 2]))
    assert ok.get() is None
    # user_checks alone do not turn these on
    assert checkify.checkify(padax.jit(fn), errors=checkify.user_checks)(*args, lab)[0].get() is None


def test_ignore_index_is_not_reported():
    err, out = checkify.checkify(padax.jit(F.cross_entropy), errors=checkify.index_checks)(
        padax.to_tensor(LOGP), padax.to_tensor([0, -100]))
    assert err.get() is None
    np.testing.assert_allclose(out.numpy(), -LOGP[0, 0] / 2, rtol=1e-6)


def test_float_labels_whole_numbers_as_paddle_fractions_refused():
    paddle = paddle_oracle()
    x = padax.to_tensor(LOGP)
    # whole-number float labels are class indices, as Paddle (eagerly and under jit)
    want = paddle.nn.functional.cross_entropy(paddle.to_tensor(LOGP), paddle.to_tensor([0.0, 1.0])).numpy()
    np.testing.assert_allclose(F.cross_entropy(x, padax.to_tensor([0.0, 1.0])).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(padax.jit(F.cross_entropy)(x, padax.to_tensor([0.0, 1.0])).numpy(), want, rtol=1e-6)
    # 0.3 and 1.7: Paddle truncates them to 0 and 1 silently; padax refuses eagerly ...
    with pytest.raises(ValueError, match=r"cross_entropy: float label 0.3 at index \[0\] is not a whole number.*"
                                         r"soft_label=True"):
        F.cross_entropy(x, padax.to_tensor([0.3, 1.7]))
    # ... and checkify reports them under jit
    err, _ = checkify.checkify(padax.jit(F.cross_entropy), errors=checkify.index_checks)(
        x, padax.to_tensor([0.0, 1.7]))
    assert "label 1.7" in err.get() and "not a whole number" in err.get()
    # nll_loss, one_hot and embedding refuse float labels altogether, as Paddle
    for call in (lambda: F.nll_loss(x, padax.to_tensor([0.0, 1.0])), lambda: F.one_hot(padax.to_tensor([0.0]), 3),
                 lambda: F.embedding(padax.to_tensor([0.0]), padax.to_tensor(TABLE))):
        with pytest.raises(TypeError, match="integer"):
            call()


def test_embedding_negative_id_refused_as_paddle_and_layer_agrees():
    emb = padax.nn.Embedding(3, 2)
    with pytest.raises(ValueError, match=r"embedding: id -1 at flat index 0 is out of range: ids must be in \[0, 3\)"):
        emb(padax.to_tensor([-1]))
    # in range: the rows, eagerly and compiled
    ids = padax.to_tensor([[2, 0], [1, 1]])
    np.testing.assert_array_equal(padax.jit(lambda m, i: m(i))(emb, ids).numpy(), emb.weight.numpy()[ids.numpy()])


@pytest.mark.parametrize("kw,label", [
    ({}, [2, 0]),
    ({"reduction": "none"}, [2, 0]),
    ({"reduction": "sum", "weight": np.array([1.0, 2.0, 0.5], np.float32)}, [2, 0]),
    ({"soft_label": True}, [[0.5, 0.0, 0.5], [1.0, 0.0, 0.0]]),
    ({"ignore_index": 1}, [1, 0]),
])
def test_cross_entropy_with_masked_logits_as_paddle(kw, label):
    """A masked class (logit -inf) that the label gives no weight contributes nothing (Paddle's value),
    where 0 * -inf used to make the loss NaN."""
    paddle = paddle_oracle()
    logits = np.array([[0.0, -np.inf, 1.0], [2.0, -np.inf, -np.inf]], np.float32)
    lab = np.array(label, np.float32 if kw.get("soft_label") else np.int64)
    pkw = {k: paddle.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    want = paddle.nn.functional.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(lab), **pkw).numpy()
    xkw = {k: padax.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    for got in (F.cross_entropy(padax.to_tensor(logits), padax.to_tensor(lab), **xkw),
                padax.jit(lambda x, y: F.cross_entropy(x, y, **xkw))(padax.to_tensor(logits), padax.to_tensor(lab))):
        assert np.isfinite(got.numpy()).all()
        np.testing.assert_allclose(got.numpy().reshape(want.shape), want, rtol=1e-6)
    # nll_loss on the log-softmax, and the gradient stays finite (zero at the masked classes)
    logp = F.log_softmax(padax.to_tensor(logits))
    if not kw:
        np.testing.assert_allclose(F.nll_loss(logp, padax.to_tensor(lab)).numpy(), want, rtol=1e-6)
        g = padax.grad(lambda x: F.cross_entropy(x, padax.to_tensor(lab)))(padax.to_tensor(logits)).numpy()
        assert np.isfinite(g).all() and (g[:, 1] == 0).all()


def test_smooth_l1_loss_refuses_a_rank_mismatch_as_paddle():
    """A [N, 1] input against a [N] label broadcast to [N, N] (0.25 for the probe below); Paddle refuses it."""
    paddle = paddle_oracle()
    x, y = np.array([[1.0], [2.0]], np.float32), np.array([1.0, 2.0], np.float32)
    with pytest.raises(ValueError, match="rank"):
        paddle.nn.functional.smooth_l1_loss(paddle.to_tensor(x), paddle.to_tensor(y))
    with pytest.raises(ValueError, match=r"smooth_l1_loss: input f32\[2,1\] and label f32\[2\] must have the same rank"):
        F.smooth_l1_loss(padax.to_tensor(x), padax.to_tensor(y))
    want = paddle.nn.functional.smooth_l1_loss(paddle.to_tensor(x[:, 0]), paddle.to_tensor(y + 0.5)).numpy()
    np.testing.assert_allclose(F.smooth_l1_loss(padax.to_tensor(x[:, 0]), padax.to_tensor(y + 0.5)).numpy(), want,
                               rtol=1e-6)


def test_multi_margin_losses_check_their_labels():
    """multi_margin_loss with label 5 of 3 classes gave 0.7822 (a clamped score); Paddle refuses it."""
    paddle = paddle_oracle()
    x = np.log(np.array([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]], np.float32))
    for bad in (5, -1):
        with pytest.raises(ValueError, match="expected >= 0 and < 3"):
            paddle.nn.functional.multi_margin_loss(paddle.to_tensor(x), paddle.to_tensor([0, bad]))
        with pytest.raises(ValueError, match=rf"multi_margin_loss: label {bad} at index \[1\] is out of range"):
            F.multi_margin_loss(padax.to_tensor(x), padax.to_tensor([0, bad]))
    want = paddle.nn.functional.multi_margin_loss(paddle.to_tensor(x), paddle.to_tensor([0, 1])).numpy()
    np.testing.assert_allclose(F.multi_margin_loss(padax.to_tensor(x), padax.to_tensor([0, 1])).numpy(), want,
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"multi_label_margin_loss: label 3 at index \[0, 1\] is out of range"):
        F.multi_label_margin_loss(padax.to_tensor(x), padax.to_tensor([[0, 3, -1], [1, -1, 0]]))
    F.multi_label_margin_loss(padax.to_tensor(x), padax.to_tensor([[0, -1, 7], [1, 2, -1]]))  # -1 ends the targets


def test_log_softmax_is_exact_where_paddle_floors_and_smoothing_over_a_masked_class_is_inf():
    """docs/numerics.md: Paddle 3.3's CPU log_softmax floors at -64; padax keeps exact values."""
    paddle = paddle_oracle()
    v = np.array([[0.0, -100.0]], np.float32)
    assert paddle.nn.functional.log_softmax(paddle.to_tensor(v)).numpy()[0, 1] == -64.0
    np.testing.assert_allclose(F.log_softmax(padax.to_tensor(v)).numpy(), [[0.0, -100.0]], atol=1e-6)
    loss = F.cross_entropy(padax.to_tensor([[0.0, -np.inf, 1.0]]), padax.to_tensor([0]), label_smoothing=0.1)
    assert np.isposinf(loss.numpy())
