"""padax.autograd: Paddle-layout jacobian/hessian, jvp/vjp, PyLayer."""
import numpy as np

import padax


def test_jacobian_layout_single_and_multiple_inputs():
    x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y = padax.to_tensor([[0.5, -1.0], [2.0, 1.0]])
    j = padax.autograd.jacobian(lambda a: a * a, x)
    assert j.shape == (4, 4)
    np.testing.assert_allclose(j.numpy(), np.diag(2 * x.numpy().ravel()))
    jx, jy = padax.autograd.jacobian(lambda a, b: padax.matmul(a, b), [x, y])
    assert jx.shape == (4, 4) and jy.shape == (4, 4)
    # d(a @ b)[i, k] / d a[i, j] = b[j, k]: rows (i, k), columns (i, j)
    np.testing.assert_allclose(jx.numpy(), np.kron(np.eye(2), y.numpy().T))
    # d(a @ b)[i, k] / d b[j, k] = a[i, j]: rows (i, k), columns (j, k)
    np.testing.assert_allclose(jy.numpy(), np.kron(x.numpy(), np.eye(2)))


def test_jacobian_multiple_outputs_is_nested():
    x = padax.to_tensor([1.0, 2.0, 3.0])
    j = padax.autograd.jacobian(lambda a, b: (a * b, (a + b).sum()), [x, x])
    assert len(j) == 2 and len(j[0]) == 2
    assert j[0][0].shape == (3, 3) and j[1][0].shape == (1, 3)
    np.testing.assert_allclose(j[1][1].numpy(), np.ones((1, 3)))


def test_hessian_of_scalar_function():
    x = padax.to_tensor([0.5, -1.0, 2.0])
    h = padax.autograd.hessian(lambda a: (a * a * a).sum(), x)
    np.testing.assert_allclose(h.numpy(), np.diag(6 * x.numpy()), rtol=1e-6)
    blocks = padax.autograd.hessian(lambda a, b: (a * b).sum(), [x, x])
    np.testing.assert_allclose(blocks[0][1].numpy(), np.eye(3))
    np.testing.assert_allclose(blocks[0][0].numpy(), np.zeros((3, 3)))


def test_functional_jvp_vjp_default_vectors():
    x = padax.to_tensor([1.0, 2.0])
    out, t = padax.autograd.jvp(lambda a: a * a, x)
    np.testing.assert_allclose(t.numpy(), [2.0, 4.0])
    out, g = padax.autograd.vjp(lambda a: a * a, x)
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])


class Cube(padax.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x ** 3 * scale

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 3 * x * x * dy * ctx.scale


def test_pylayer_gradients_eager_jit_vmap():
    x = padax.to_tensor([1.0, -2.0, 3.0])
    f = lambda a: Cube.apply(a, 2.0).sum()  # noqa: E731
    np.testing.assert_allclose(f(x).numpy(), 2 * np.sum(x.numpy() ** 3))
    expected = 6 * x.numpy() ** 2
    np.testing.assert_allclose(padax.grad(f)(x).numpy(), expected)
    np.testing.assert_allclose(padax.jit(padax.grad(f))(x).numpy(), expected)
    per_ex = padax.vmap(padax.grad(lambda a: Cube.apply(a, 2.0)))(x)
    np.testing.assert_allclose(per_ex.numpy(), expected)


class WrongGrad(padax.autograd.PyLayer):
    """backward deliberately returns 0: proves padax uses the user's rule."""

    @staticmethod
    def forward(ctx, x):
        return x * 5.0

    @staticmethod
    def backward(ctx, dy):
        return dy * 0.0


def test_pylayer_backward_is_really_used():
    g = padax.grad(lambda a: WrongGrad.apply(a).sum())(padax.to_tensor([1.0, 2.0]))
    np.testing.assert_allclose(g.numpy(), [0.0, 0.0])


def test_pylayer_without_backward_is_a_clear_error():
    import pytest

    class NoBackward(padax.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

    with pytest.raises(TypeError, match="NoBackward must define a static backward"):
        NoBackward.apply(padax.to_tensor([1.0]))
