"""Every layer class of paddle.nn has a padax.nn counterpart, except the few listed (with the reason)."""
import padax
from padax import nn
from tests.conftest import paddle_oracle

# Paddle layers without a padax counterpart yet (name: reason); none today.
NOT_YET: dict[str, str] = {}


def test_every_paddle_layer_has_a_padax_layer():
    paddle = paddle_oracle()
    names = {n for n in dir(paddle.nn) if n[0].isupper() and isinstance(getattr(paddle.nn, n), type)}
    missing = sorted(n for n in names - set(NOT_YET) if not hasattr(nn, n))
    assert not missing, missing
    for n in names - set(NOT_YET):
        if issubclass(getattr(paddle.nn, n), paddle.nn.Layer):
            assert issubclass(getattr(nn, n), nn.Layer), n
    assert nn.Conv2d is nn.Conv2D and nn.ModuleList is nn.LayerList


def test_parameter_dict():
    pd = nn.ParameterDict({"a": padax.ones([2]), "b": padax.zeros([3])})
    assert list(pd) == ["a", "b"] and pd["b"].shape == (3,) and len(pd) == 2
    pd["c"] = padax.ones([1])
    assert sorted(pd.state_dict()) == ["a", "b", "c"]
    g = padax.grad(lambda d: (d["a"] * 2).sum() + d["c"].sum())(pd)
    assert g["a"].numpy().tolist() == [2.0, 2.0] and g["b"].numpy().tolist() == [0.0, 0.0, 0.0]


def test_spectral_norm_layer_vs_paddle():
    import numpy as np
    from padax.test_util import check_grads
    from tests.nn.oracle import copy_weights
    paddle = paddle_oracle()
    paddle.seed(0)  # the power-iteration start vectors are random: a fixed draw keeps the check deterministic
    # eps is added to the norms (x / (|x| + eps)), as Paddle's kernel does; a large one shows it
    p = paddle.nn.SpectralNorm([4, 3, 2], dim=1, power_iters=3, eps=1e-3)
    m = copy_weights(nn.SpectralNorm([4, 3, 2], dim=1, power_iters=3, eps=1e-3), p)
    assert m.weight_u.shape == (3,) and m.weight_v.shape == (8,)
    w = np.random.default_rng(0).standard_normal((4, 3, 2)).astype(np.float32)
    for _ in range(2):  # neither framework writes the power-iteration vectors back
        np.testing.assert_allclose(m(padax.to_tensor(w)).numpy(), p(paddle.to_tensor(w)).numpy(), rtol=1e-5,
                                   atol=1e-6)
    # the gradient treats the iterated u, v as constants (Paddle's own kernel gives a different gradient)
    check_grads(lambda x: m(x), (padax.to_tensor(w.astype(np.float64)),), order=1, modes=["rev"], atol=1e-3,
                rtol=1e-3)


# padax additions to a Paddle signature (trailing, keyword-usable) and Paddle orderings kept from older Paddle
SIGNATURE_EXCEPTIONS = {"BatchNorm2D", "SyncBatchNorm", "Embedding"}


def test_constructor_signatures_match_paddle():
    import inspect
    paddle = paddle_oracle()
    checked = 0
    for n in dir(paddle.nn):
        pc = getattr(paddle.nn, n)
        if not (isinstance(pc, type) and issubclass(pc, paddle.nn.Layer)) or n in NOT_YET or n in SIGNATURE_EXCEPTIONS:
            continue

        def params(cls):
            return [(k, v.default) for k, v in inspect.signature(cls.__init__).parameters.items()
                    if k != "self" and v.kind not in (v.VAR_POSITIONAL, v.VAR_KEYWORD)]

        assert params(getattr(nn, n)) == params(pc), n
        checked += 1
    assert checked > 150


def test_functional_signatures_match_paddle():
    """Every Paddle argument of a padax.nn.functional function exists with Paddle's default, and Paddle's
    positional arguments come first in Paddle's order (padax may add trailing keywords)."""
    import inspect
    paddle = paddle_oracle()
    checked = 0
    for n in dir(nn.functional):
        ours, theirs = getattr(nn.functional, n), getattr(paddle.nn.functional, n, None)
        if n.startswith("_") or not inspect.isfunction(ours) or not inspect.isfunction(theirs):
            continue
        mine = inspect.signature(ours).parameters
        pos = [k for k, v in mine.items() if v.kind == v.POSITIONAL_OR_KEYWORD]
        their_pos = [k for k, v in inspect.signature(theirs).parameters.items() if v.kind == v.POSITIONAL_OR_KEYWORD]
        assert pos[:len(their_pos)] == their_pos, n
        for k, v in inspect.signature(theirs).parameters.items():
            assert k in mine and mine[k].default == v.default, (n, k)
        checked += 1
    assert checked > 110


def test_parameters_follow_the_default_dtype_as_in_paddle():
    """Without a dtype, parameters take padax.set_default_dtype's (batch norm keeps float32 statistics
    for float16); an explicit constructor dtype still wins."""
    paddle = paddle_oracle()
    layers = [("Linear", (3, 4), {}), ("Conv2D", (3, 4, 3), {}), ("BatchNorm2D", (3,), {}), ("LayerNorm", (4,), {}),
              ("Embedding", (5, 3), {}), ("SpectralNorm", ([3, 4],), {}), ("LayerNorm", (4,), dict(dtype="float32"))]
    for default in ("float64", "float16"):
        padax.set_default_dtype(default)
        paddle.set_default_dtype(default)
        try:
            for n, args, kw in layers:
                ours = {k: str(v.dtype) for k, v in getattr(nn, n)(*args, **kw).state_dict().items()}
                theirs = {k: str(v.dtype).replace("paddle.", "") for k, v in getattr(paddle.nn, n)(*args, **kw).state_dict().items()}
                assert ours == theirs, (default, n)
            assert repr(nn.Linear(3, 4)) == repr(paddle.nn.Linear(3, 4))  # Linear(..., dtype=float64)
        finally:
            padax.set_default_dtype("float32")
            paddle.set_default_dtype("float32")


def test_dropout_positional_order_is_paddles():
    import numpy as np
    paddle = paddle_oracle()
    x = np.ones((4, 6), np.float32)
    padax.seed(0)
    # Dropout(p, inplace, axis, mode): one mask value per row (axis=0), downscale mode keeps kept values
    y = nn.Dropout(0.5, False, 0, "downscale_in_infer")(padax.to_tensor(x)).numpy()
    assert set(np.unique(y)) <= {0.0, 1.0} and all(len(set(r)) == 1 for r in y)
    p = paddle.nn.Dropout(0.5, False, 0, "downscale_in_infer")
    p.eval()
    m = nn.Dropout(0.5, False, 0, "downscale_in_infer").eval()
    np.testing.assert_array_equal(m(padax.to_tensor(x)).numpy(), p(paddle.to_tensor(x)).numpy())
    np.testing.assert_array_equal(nn.functional.dropout(padax.to_tensor(x), 0.3, None, False, False,
                                                        "downscale_in_infer").numpy(),
                                  paddle.nn.functional.dropout(paddle.to_tensor(x), 0.3, None, False, False,
                                                               "downscale_in_infer").numpy())
    assert nn.Dropout(p=0.2, axis=1).axis == 1  # keywords keep working


def test_parameter_and_create_parameter_register_in_layers():
    import numpy as np

    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = padax.create_parameter([2, 3], "float32")
            self.frozen = padax.create_parameter([3], "float32", attr=padax.ParamAttr(trainable=False), is_bias=True)
            self.p = nn.Parameter(padax.ones([3]))
            self.q = nn.Parameter(padax.ones([3]), requires_grad=False)
            self.z = nn.Parameter([2, 2], "float64")
            self.buf = padax.ones([2])  # a plain Tensor is a buffer, as in Paddle

    m = Model()
    assert [n for n, _ in m.named_parameters()] == ["w", "frozen", "p", "q", "z"]
    assert [n for n, _ in m.named_buffers()] == ["buf"]
    assert m.z.dtype == np.float64 and m.z.numpy().tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert isinstance(m.p, nn.Parameter) and not isinstance(m.buf, nn.Parameter)
    g = padax.grad(lambda m: m.w.sum() + m.frozen.sum() + m.p.sum() + m.q.sum())(m)
    assert g.p.numpy().tolist() == [1.0] * 3 and g.q.numpy().tolist() == [0.0] * 3
    assert g.frozen.numpy().tolist() == [0.0] * 3 and g.w.numpy().tolist() == [[1.0] * 3] * 2
