"""padax.nn.Layer: a pytree for grad/jit/vmap/tree.map, Paddle's Layer API, containers, state_dict, errors."""
import collections

import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle

F = nn.functional
RNG = np.random.default_rng(0)


class MLP(nn.Layer):
    def __init__(self, din=3, hidden=5, dout=2):
        super().__init__()
        self.fc1 = nn.Linear(din, hidden)
        self.fc2 = nn.Linear(hidden, dout)
        self.act = "relu"

    def forward(self, x):
        return self.fc2(getattr(F, self.act)(self.fc1(x)))


def _np_mlp(m, x):
    h = np.maximum(x @ m.fc1.weight.numpy() + m.fc1.bias.numpy(), 0)
    return h @ m.fc2.weight.numpy() + m.fc2.bias.numpy()


X = RNG.standard_normal((4, 3)).astype(np.float32)


def test_grad_returns_a_model_shaped_gradient():
    m = MLP()
    g = padax.grad(lambda m, x: (m(x) ** 2).sum())(m, padax.to_tensor(X))
    assert type(g) is MLP and g.fc1.weight.shape == (3, 5)
    eps = 1e-3  # numerical check of one weight's gradient
    w = m.fc2.weight.numpy().copy()
    w[1, 0] += eps
    up = padax.tree.map(lambda a: a, m)
    up.fc2.weight = padax.to_tensor(w)
    w[1, 0] -= 2 * eps
    down = padax.tree.map(lambda a: a, m)
    down.fc2.weight = padax.to_tensor(w)
    num = ((_np_mlp(up, X) ** 2).sum() - (_np_mlp(down, X) ** 2).sum()) / (2 * eps)
    np.testing.assert_allclose(g.fc2.weight.numpy()[1, 0], num, rtol=2e-2)


def test_jit_retraces_only_on_static_change():
    f = padax.jit(lambda m, x: m(x))
    m1, m2 = MLP(), MLP()
    x = padax.to_tensor(X)
    np.testing.assert_allclose(f(m1, x).numpy(), _np_mlp(m1, X), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(f(m2, x).numpy(), _np_mlp(m2, X), rtol=1e-5, atol=1e-6)
    assert f._cache_size() == 1  # same configuration: same program
    m2.act = "tanh"
    f(m2, x)
    assert f._cache_size() == 2
    m1.eval()
    f(m1, x)
    assert f._cache_size() == 3


def test_tree_map_and_vmap_over_a_stacked_ensemble():
    models = [MLP() for _ in range(3)]
    doubled = padax.tree.map(lambda p: p * 2, models[0])
    assert isinstance(doubled, MLP) and doubled.act == "relu"
    np.testing.assert_allclose(doubled.fc1.weight.numpy(), 2 * models[0].fc1.weight.numpy())
    stacked = padax.tree.map(lambda *p: padax.stack(p), *models)
    assert stacked.fc1.weight.shape == (3, 3, 5)
    outs = padax.vmap(lambda m: m(padax.to_tensor(X)))(stacked).numpy()
    for i, m in enumerate(models):
        np.testing.assert_allclose(outs[i], _np_mlp(m, X), rtol=1e-5, atol=1e-6)
    paths = [padax.tree.keystr(p) for p, _ in padax.tree.flatten_with_path(models[0])[0]]
    assert paths == [".fc1.weight", ".fc1.bias", ".fc2.weight", ".fc2.bias"]


def test_paddle_layer_api():
    m = MLP()
    m.register_buffer("scale", padax.ones([2]))
    m.register_buffer("cache", padax.zeros([1]), persistable=False)
    m.extra = padax.zeros([3])  # a plain Tensor attribute is a non-persistable buffer (Paddle's rule)
    assert [n for n, _ in m.named_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert len(m.parameters()) == 4 and len(m.parameters(include_sublayers=False)) == 0
    assert [n for n, _ in m.named_buffers()] == ["scale", "cache", "extra"]
    assert list(m.state_dict()) == ["scale", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [n for n, _ in m.named_sublayers()] == ["fc1", "fc2"]
    assert m.sublayers(include_self=True)[0] is m and len(list(m.children())) == 2
    assert [n for n, _ in m.named_children()] == ["fc1", "fc2"]
    assert m.full_name().startswith("mlp_") and m.fc1.full_name().startswith("linear_")
    assert m.training and not m.eval().fc1.training and m.train().fc2.training
    seen = []
    assert m.apply(lambda layer: seen.append(type(layer).__name__)) is m
    assert seen == ["Linear", "Linear", "MLP"]
    m.to(dtype="float64")
    assert m.fc1.weight.dtype == padax.float64 and m.scale.dtype == padax.float64
    m.astype("float32")
    assert m.fc1.weight.dtype == padax.float32
    assert m.get_parameter("fc2.bias").shape == (2,) and m.get_sublayer("fc1") is m.fc1
    del m.extra
    assert "extra" not in dict(m.named_buffers())


def test_repr_like_paddle():
    paddle = paddle_oracle()
    ours = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Linear(3, 3)), nn.Dropout(0.1))
    theirs = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.Sequential(paddle.nn.Linear(3, 3)),
                                  paddle.nn.Dropout(0.1))
    assert repr(ours) == repr(theirs)


def test_containers():
    seq = nn.Sequential(("a", nn.Linear(3, 4)), ("b", nn.Linear(4, 2)))
    assert list(seq.state_dict()) == ["a.weight", "a.bias", "b.weight", "b.bias"]
    seq2 = nn.Sequential(collections.OrderedDict(a=nn.Linear(3, 4)))
    assert seq2["a"] is seq2[0]
    x = padax.to_tensor(X)
    np.testing.assert_allclose(seq(x).numpy(), seq.b(seq.a(x)).numpy())
    assert len(seq[0:1]) == 1 and seq[-1] is seq.b
    ll = nn.LayerList([nn.Linear(2, 2) for _ in range(3)])
    ll.append(nn.Linear(2, 1))
    ll.insert(0, nn.Identity())
    assert len(ll) == 5 and isinstance(ll[0], nn.Identity) and list(ll.state_dict())[0] == "1.weight"
    del ll[0]
    assert list(ll.state_dict())[0] == "0.weight"
    ld = nn.LayerDict({"x": nn.Linear(2, 2)})
    ld["y"] = nn.Linear(2, 3)
    assert list(ld.keys()) == ["x", "y"] and "y" in ld and len(ld) == 2
    pl = nn.ParameterList([padax.ones([2]), padax.zeros([3])])
    pl.append(padax.ones([1]))
    assert [n for n, _ in pl.named_parameters()] == ["0", "1", "2"] and len(pl) == 3
    g = padax.grad(lambda p: sum(t.sum() for t in p))(pl)
    np.testing.assert_array_equal(g[1].numpy(), 1.0)


def test_state_dict_round_trip_with_paddle():
    paddle = paddle_oracle()
    ours = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1D(4), nn.Linear(4, 2))
    theirs = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4), paddle.nn.Linear(4, 2))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.set_state_dict(theirs.state_dict())  # Paddle tensors straight in
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    ours.eval(), theirs.eval()
    np.testing.assert_allclose(ours(padax.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy(), rtol=1e-5,
                               atol=1e-6)
    ours = padax.tree.map(lambda p: p + 1, ours)
    theirs.set_state_dict({k: v.numpy() for k, v in ours.state_dict().items()})  # and back
    np.testing.assert_allclose(ours(padax.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy(), rtol=1e-5,
                               atol=1e-6)


def test_set_state_dict_lists_every_problem():
    m = MLP()
    sd = {k: v.numpy() for k, v in m.state_dict().items()}
    del sd["fc1.bias"], sd["fc2.weight"]
    sd["fc1.weight"] = np.zeros((9, 9), np.float32)
    sd["fc3.weight"] = np.zeros(1, np.float32)
    sd["extra"] = np.zeros(1, np.float32)
    with pytest.raises(ValueError) as e:
        m.set_state_dict(sd)
    msg = str(e.value)
    for part in ("fc1.weight: expected shape [3, 5], received [9, 9]", "missing keys (2)", "fc1.bias",
                 "fc2.weight", "unexpected keys (2)", "fc3.weight", "extra", "test_layer_base.py"):
        assert part in msg
    sd["fc1.weight"] = np.ones((3, 5), np.float32)
    missing, unexpected = m.set_state_dict(sd, strict=False)
    assert missing == ["fc1.bias", "fc2.weight"] and unexpected == ["fc3.weight", "extra"]
    np.testing.assert_array_equal(m.fc1.weight.numpy(), 1.0)


def test_tracer_leak_is_an_error_and_the_returned_model_carries_state():
    bn = nn.BatchNorm1D(2)
    x = padax.to_tensor(RNG.standard_normal((6, 2)).astype(np.float32))
    with pytest.raises(nn.LayerStateError, match="outside the transformation"):
        padax.vmap(lambda x: bn(x))(x.reshape([3, 2, 2]))
    np.testing.assert_array_equal(bn._mean.numpy(), 0)  # the outer layer kept its concrete state
    _, new = padax.jit(lambda m, x: (m(x), m))(bn, x)
    np.testing.assert_allclose(new._mean.numpy(), 0.1 * x.numpy().mean(0), rtol=1e-5)
    # the layer passed in gets the same statistics (jit writes the state back to its argument)
    np.testing.assert_array_equal(bn._mean.numpy(), new._mean.numpy())
    bn2 = nn.BatchNorm1D(2)
    padax.grad(lambda x: bn2(x).sum())(x)  # eager grad: statistics are concrete and update in place, as Paddle
    np.testing.assert_allclose(bn2._mean.numpy(), 0.1 * x.numpy().mean(0), rtol=1e-5)
    bn.eval()
    padax.jit(lambda x: bn(x))(x)  # eval mode updates nothing: a closure is fine


def test_error_names_layer_path_and_user_line():
    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.layers = nn.LayerList([nn.Linear(3, 3), nn.Linear(4, 2)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.layer1 = Block()

        def forward(self, x):
            return self.layer1(x)

    with pytest.raises(ValueError, match=r"^model\.layer1\.layers\.1 \(Linear\): Linear input: expected 4 features "
                                         r"along axis -1 .* received shape \[4, 3\] with 3 .*test_layer_base\.py"):
        Net()(padax.to_tensor(X))
    with pytest.raises(TypeError, match=r"model \(Linear\): Linear input: expected a floating-point tensor"):
        nn.Linear(3, 2)(padax.ones([2, 3], dtype="int32"))
    with pytest.raises(TypeError, match="has no forward"):
        nn.LayerList()(X)
    with pytest.raises(TypeError, match="sublayer"):
        m = MLP()
        m.fc1 = 3


def test_parameter_creation_and_assignment_rules():
    class P(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([2, 2])
            self.b = self.create_parameter([2], is_bias=True, attr=padax.ParamAttr(trainable=False))
            self.none = self.create_parameter([2], attr=False)

    p = P()
    assert [n for n, _ in p.named_parameters()] == ["w", "b"] and p.none is None
    assert p.param_info("w").trainable and not p.param_info("b").trainable
    p.w = p.w * 0  # a new value for an existing parameter keeps its metadata
    assert "w" in dict(p.named_parameters()) and p.param_info("w").trainable
    with pytest.raises(TypeError, match="parameter"):
        p.w = "x"


def test_replacing_a_sublayer_keeps_its_place_and_the_pytree_structure():
    # Paddle (and a dict) keep a sublayer's position when it is reassigned; padax used to move it last,
    # so a layer with a sublayer replaced no longer matched its optimizer state / gradients' structure
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.first = nn.Linear(2, 2)
            self.second = nn.ReLU()

    m = Two()
    before = padax.tree.structure(m)
    m.first = nn.Linear(2, 2)
    assert [n for n, _ in m.named_children()] == ["first", "second"]
    assert padax.tree.structure(m) == before
    m.second = None
    m.second = nn.Tanh()
    assert [n for n, _ in m.named_children()] == ["first", "second"]


def test_static_containers_deepcopy_and_structure_equality():
    import copy

    class Cfg(nn.Layer):
        def __init__(self, sizes):
            super().__init__()
            self.sizes = list(sizes)
            self.fc = nn.Linear(2, 2)

    assert padax.tree.structure(Cfg([1, 2])) == padax.tree.structure(Cfg([1, 2]))
    assert padax.tree.structure(Cfg([1, 2])) != padax.tree.structure(Cfg([1, 3]))
    m = Cfg([1])
    c = copy.deepcopy(m)
    assert padax.tree.structure(c) == padax.tree.structure(m)
    np.testing.assert_array_equal(c.fc.weight.numpy(), m.fc.weight.numpy())

    class Bad(nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = [nn.Linear(2, 2)]

    with pytest.raises(TypeError, match="LayerList"):
        Bad()


def test_state_dict_saves_and_loads(tmp_path):
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3))
    path = str(tmp_path / "m.pdparams")
    padax.save(m.state_dict(), path)
    fresh = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1D(3))
    fresh.set_state_dict(padax.load(path))
    for (k, a), (k2, b) in zip(m.state_dict().items(), fresh.state_dict().items()):
        assert k == k2
        np.testing.assert_array_equal(a.numpy(), b.numpy())
