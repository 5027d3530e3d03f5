"""Frozen parameters, partition/combine, filter_grad, and padax.optimizer stepping whole models."""
import numpy as np
import pytest

import padax
from padax import nn

F = nn.functional
RNG = np.random.default_rng(0)
X = padax.to_tensor(RNG.standard_normal((8, 4)).astype(np.float32))
Y = padax.to_tensor(RNG.integers(0, 3, 8))


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6, bias_attr=padax.ParamAttr(trainable=False))
        self.bn = nn.BatchNorm1D(6)
        self.drop = nn.Dropout(0.25)
        self.fc2 = nn.Linear(6, 3, bias_attr=False)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


def _loss(model, x, y):
    return F.cross_entropy(model(x), y)


def test_frozen_parameters_get_zero_gradient_and_stay_unchanged():
    model = Net()
    model.freeze("fc2.weight")
    g = padax.jit(padax.grad(lambda m: _loss(m.eval(), X, Y)))(model)
    for name in ("fc1.bias", "fc2.weight", "bn._mean", "bn._variance"):
        np.testing.assert_array_equal(g.get_parameter(name).numpy(), 0, err_msg=name)
    assert float(abs(g.fc1.weight).sum()) > 0
    opt = padax.optimizer.AdamW(0.1, weight_decay=0.5)
    state = opt.init(model)
    assert state["moment1"].fc2.weight is None and state["moment1"].fc1.weight is not None
    new, _ = padax.jit(opt.step)(model, g, state)
    np.testing.assert_array_equal(new.fc2.weight.numpy(), model.fc2.weight.numpy())
    np.testing.assert_array_equal(new.fc1.bias.numpy(), model.fc1.bias.numpy())
    np.testing.assert_array_equal(new.bn._variance.numpy(), model.bn._variance.numpy())
    assert not np.array_equal(new.fc1.weight.numpy(), model.fc1.weight.numpy())
    model.unfreeze("fc2.weight")
    assert model.param_info("fc2.weight").trainable


def test_partition_combine_and_filter_grad():
    model = Net().eval()
    diff, rest = nn.partition(model)
    assert diff.fc1.bias is None and rest.fc1.bias is not None and diff.bn._mean is None
    assert diff.fc1.weight is model.fc1.weight and rest.fc1.weight is None
    back = nn.combine(diff, rest)
    assert padax.tree.structure(back) == padax.tree.structure(model)
    mask = nn.trainable_mask(model)
    assert mask.fc1.weight is True and mask.fc1.bias is False and mask.bn._mean is False
    loss, g = padax.jit(nn.filter_value_and_grad(_loss))(model, X, Y)
    g_full = padax.jit(padax.grad(_loss))(model, X, Y)
    assert g.fc1.bias is None and g.bn._mean is None
    np.testing.assert_allclose(g.fc1.weight.numpy(), g_full.fc1.weight.numpy(), rtol=1e-6)
    assert float(loss) == pytest.approx(float(_loss(model, X, Y)))
    (g2, aux) = nn.filter_grad(lambda m: (_loss(m, X, Y), 7), has_aux=True)(model)
    assert int(aux) == 7 and g2.fc2.weight.shape == (6, 3)
    opt = padax.optimizer.SGD(0.5)
    new, _ = padax.jit(opt.step)(model, g, opt.init(model))
    np.testing.assert_allclose(new.fc1.weight.numpy(), model.fc1.weight.numpy() - 0.5 * g.fc1.weight.numpy(),
                               rtol=1e-6)
    np.testing.assert_array_equal(new.fc1.bias.numpy(), model.fc1.bias.numpy())


def test_the_documented_training_step_learns_and_updates_statistics():
    model = Net()
    opt = padax.optimizer.Adam(0.05)
    opt_state = opt.init(model)

    @padax.jit
    def train_step(model, opt_state, x, y, key):
        def loss_fn(model):
            with nn.rng_scope(key):
                logits = model(x)
            return F.cross_entropy(logits, y), model
        (loss, model), grads = padax.value_and_grad(loss_fn, has_aux=True)(model)
        model, opt_state = opt.step(model, grads, opt_state)
        return model, opt_state, loss

    key = padax.random.key(0)
    losses = []
    for _ in range(30):
        key, sub = padax.random.split(key)
        model, opt_state, loss = train_step(model, opt_state, X, Y, sub)
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    assert train_step._cache_size() == 1
    # running statistics followed the training batches
    h = X.numpy() @ model.fc1.weight.numpy() + model.fc1.bias.numpy()
    assert np.all(np.abs(model.bn._mean.numpy()) > 0)
    assert model.bn._mean.shape == (6,) and np.isfinite(h).all()
    # eval after training: a model state built in train mode steps in eval mode too
    model.eval()
    g = padax.jit(padax.grad(_loss))(model, X, Y)
    padax.jit(opt.step)(model, g, opt_state)


def test_per_parameter_learning_rate_and_need_clip():
    lin = nn.Linear(2, 2, weight_attr=padax.ParamAttr(learning_rate=0.1),
                    bias_attr=padax.ParamAttr(need_clip=False))
    grads = padax.tree.map(lambda p: padax.ones_like(p) * 10, lin)
    opt = padax.optimizer.SGD(1.0, grad_clip=nn.ClipGradByValue(1.0))
    new, _ = opt.step(lin, grads, opt.init(lin))
    np.testing.assert_allclose(new.weight.numpy(), lin.weight.numpy() - 0.1 * 1.0, rtol=1e-6)  # clipped, scaled
    np.testing.assert_allclose(new.bias.numpy(), lin.bias.numpy() - 10.0, rtol=1e-6)  # not clipped


def test_structure_errors():
    opt = padax.optimizer.SGD(0.1)
    m = nn.Linear(2, 2)
    with pytest.raises(ValueError, match="different structures"):
        opt.step(m, {"weight": padax.ones([2, 2])}, opt.init(m))
