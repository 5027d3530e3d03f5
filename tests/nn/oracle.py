"""Helpers for padax.nn tests: run a padax layer and a Paddle layer with the same weights, forward and backward."""
from __future__ import annotations

import numpy as np

import padax
from tests.conftest import paddle_oracle


def copy_weights(padax_layer, paddle_layer):
    """Move Paddle's weights into the padax layer through state_dict (numpy arrays)."""
    padax_layer.set_state_dict({k: v.numpy() for k, v in paddle_layer.state_dict().items()})
    return padax_layer


def _diff_inputs(inputs, grad_inputs):
    """Indexes of the inputs to differentiate: the floating ones (grad_inputs True) or those listed."""
    if isinstance(grad_inputs, (tuple, list)):
        return list(grad_inputs)
    return [i for i, a in enumerate(inputs) if grad_inputs and a.dtype.kind == "f"]


def paddle_run(layer, inputs, cot, grad_inputs=True):
    """(output, input grads, {param name: grad}) of sum(layer(*inputs) * cot) in Paddle."""
    paddle = paddle_oracle()
    diff = _diff_inputs(inputs, grad_inputs)
    xs = [paddle.to_tensor(a, stop_gradient=i not in diff) for i, a in enumerate(inputs)]
    layer.clear_gradients()
    out = layer(*xs)
    (out * paddle.to_tensor(cot)).sum().backward()
    gx = [x.grad.numpy() if x.grad is not None else None for x in xs]
    gp = {n: p.grad.numpy() for n, p in layer.named_parameters() if p.grad is not None}
    return out.numpy(), gx, gp


def padax_run(model, inputs, cot, grad_inputs=True):
    """(output, input grads, {param name: grad}) of sum(model(*inputs) * cot) in padax; also the model after."""
    xs = [padax.to_tensor(a) for a in inputs]
    diff = _diff_inputs(inputs, grad_inputs)

    def loss(m, *args):
        full = list(xs)
        for i, a in zip(diff, args):
            full[i] = a
        out = m(*full)
        return (out * padax.to_tensor(cot)).sum(), (out, m)

    argnums = tuple(range(1 + len(diff)))
    run = padax.jit(padax.value_and_grad(loss, argnums=argnums, has_aux=True))  # one compile, not one per op
    (_, (out, after)), grads = run(model, *[xs[i] for i in diff])
    gx = [None] * len(inputs)
    for i, g in zip(diff, grads[1:]):
        gx[i] = np.asarray(g)
    gp = {n: np.asarray(g) for n, g in grads[0].named_parameters()}
    return np.asarray(out), gx, gp, after


def assert_same_run(model, paddle_layer, inputs, rng=None, rtol=1e-5, atol=1e-5, grad_inputs=True,
                    params=None, paddle_names=None):
    """Forward outputs, input gradients and parameter gradients of padax and Paddle agree."""
    rng = rng or np.random.default_rng(1)
    out_shape = padax.eval_shape(lambda m, *xs: m(*xs), model, *[padax.to_tensor(a) for a in inputs]).shape
    cot = rng.standard_normal(out_shape).astype(np.float32)
    p_out, p_gx, p_gp = paddle_run(paddle_layer, inputs, cot, grad_inputs)
    out, gx, gp, after = padax_run(model, inputs, cot, grad_inputs)
    np.testing.assert_allclose(out, p_out, rtol=rtol, atol=atol)
    for a, b in zip(gx, p_gx):
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    names = params if params is not None else list(p_gp)
    assert names or params == [], "no parameter gradients compared"
    for n in names:
        pn = (paddle_names or {}).get(n, n)  # a parameter Paddle lists under another name
        np.testing.assert_allclose(gp[n], p_gp[pn], rtol=rtol, atol=atol, err_msg=n)
    return after
