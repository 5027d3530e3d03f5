"""Thunks shared by the benchmark modules for padax's side of a workload."""
from __future__ import annotations

from typing import Any, Callable


def sgd_train_step(model: Any, x: Any, y: Any, lr: float, obvious: bool = False) -> Callable[[], Any]:
    """A thunk running one jitted SGD step of `model` on (x, y) with cross entropy, carrying the model and
    the optimizer state from call to call, and blocking on the loss. The step threads the model out of the
    loss as aux (docs/nn_state.md's hand-threaded idiom), or with `obvious` is written the way a new user
    writes it (no aux: grad carries BatchNorm's statistics back to the model passed in)."""
    import padax
    import padax.nn.functional as F
    opt = padax.optimizer.SGD(learning_rate=lr)
    opt_state = opt.init(model)
    x, y = padax.to_tensor(x), padax.to_tensor(y)

    @padax.jit
    def step(model, opt_state, x, y):
        if obvious:
            loss, grads = padax.value_and_grad(lambda m, x, y: F.cross_entropy(m(x), y))(model, x, y)
        else:
            def loss_fn(m):
                return F.cross_entropy(m(x), y), m
            (loss, model), grads = padax.value_and_grad(loss_fn, has_aux=True)(model)
        model, opt_state = opt.step(model, grads, opt_state)
        return model, opt_state, loss

    state = [model, opt_state]

    def run():
        state[0], state[1], loss = step(state[0], state[1], x, y)
        return loss.block_until_ready()
    return run
