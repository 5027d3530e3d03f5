"""padax.jit.load of a saved Layer gives a TranslatedLayer (Paddle's): state_dict, set_state_dict, parameters,
train/eval, calls, and jit / vmap / grad (the saved reverse-mode program) agree with the original layer."""
import numpy as np
import pytest

import padax
from padax import nn


def _net():
    padax.seed(0)
    m = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1D(8), nn.ReLU(), nn.Linear(8, 3))
    return m.eval()


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    m = _net()
    x = padax.to_tensor(np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32))
    path = str(tmp_path_factory.mktemp("tl") / "net")
    padax.jit.save(m, path, input_spec=[padax.static.InputSpec([5, 4], "float32", "image")])
    return m, x, path


def test_state_and_call(saved):
    m, x, path = saved
    t = padax.jit.load(path)
    assert isinstance(t, padax.inference.TranslatedLayer) and isinstance(t, nn.Layer)
    assert list(t.state_dict()) == list(m.state_dict())
    for k, v in m.state_dict().items():
        np.testing.assert_array_equal(t.state_dict()[k].numpy(), v.numpy())
    assert len(t.parameters()) == len(m.parameters()) == 8  # BatchNorm's statistics are frozen parameters
    for name, _ in m.named_parameters():
        assert t.param_info(name).trainable == m.param_info(name).trainable, name
    np.testing.assert_allclose(t(x).numpy(), m(x).numpy(), rtol=1e-6, atol=1e-6)
    assert t.input_spec[0].shape == (5, 4) and t.output_spec[0].shape == (5, 3)
    assert t.train() is t and t.training and not t.eval().training
    with pytest.raises(TypeError, match=r"argument 0 \('image'\) must be f32\[5,4\], got f32\[2,4\]"):
        t(padax.ones([2, 4]))


def test_set_state_dict_changes_the_output(saved):
    m, x, path = saved
    t = padax.jit.load(path)
    sd = {k: v.numpy() * 0.5 if k.endswith("weight") else v.numpy() for k, v in m.state_dict().items()}
    t.set_state_dict(sd)
    m2 = _net()
    m2.set_state_dict(sd)
    np.testing.assert_allclose(t(x).numpy(), m2(x).numpy(), rtol=1e-5, atol=1e-6)


def test_jit_vmap_grad(saved):
    m, x, path = saved
    t = padax.jit.load(path)
    np.testing.assert_allclose(padax.jit(lambda mm, v: mm(v))(t, x).numpy(), m(x).numpy(), rtol=1e-6, atol=1e-6)
    xs = padax.stack([x, 2 * x])
    np.testing.assert_allclose(padax.vmap(t)(xs).numpy(), padax.vmap(m)(xs).numpy(), rtol=1e-6, atol=1e-6)
    loss = lambda mm, v: (mm(v) ** 2).sum()  # noqa: E731
    gt, gm = padax.grad(loss, argnums=(0, 1))(t, x), padax.grad(loss, argnums=(0, 1))(m, x)
    for k, v in gm[0].state_dict().items():
        np.testing.assert_allclose(gt[0].state_dict()[k].numpy(), v.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
    np.testing.assert_allclose(gt[1].numpy(), gm[1].numpy(), rtol=1e-5, atol=1e-6)
    gj = padax.jit(padax.grad(loss))(t, x)
    np.testing.assert_allclose(gj.state_dict()["3.weight"].numpy(), gm[0].state_dict()["3.weight"].numpy(),
                               rtol=1e-5, atol=1e-6)


def test_fine_tune_with_an_optimizer(saved):
    m, x, path = saved
    t = padax.jit.load(path).train()
    y = padax.zeros([5, 3])
    opt = padax.optimizer.SGD(0.05)
    st = opt.init(t)
    loss = lambda mm: ((mm(x) - y) ** 2).mean()  # noqa: E731
    first = float(loss(t))
    for _ in range(5):
        g = padax.grad(loss)(t)
        t, st = opt.step(t, g, st)
    assert float(loss(t)) < first
    np.testing.assert_array_equal(t.state_dict()["1._mean"].numpy(), m.state_dict()["1._mean"].numpy())


def test_functions_still_load_as_translated_functions(tmp_path):
    w = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    padax.jit.save(lambda v: v @ w, str(tmp_path / "f"), input_spec=[padax.ones([1, 2])])
    f = padax.jit.load(str(tmp_path / "f"))
    assert isinstance(f, padax.inference.TranslatedFunction)
    assert f(padax.to_tensor([[1.0, 1.0]])).tolist() == [[4.0, 6.0]]


def test_training_mode_save_says_to_call_eval(tmp_path):
    m = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5))
    with pytest.raises(ValueError, match=r"training mode.*call model.eval\(\) before saving"):
        padax.jit.save(m, str(tmp_path / "m"), input_spec=[padax.ones([2, 4])])
