"""The compiled programs behind `padax.Model`: one jitted train step, one eval step, one predict step.

The training state is a pytree `{"network", "opt_state", "key", "scaler", "grad_acc"}` that goes in
and comes back out (BatchNorm's statistics travel with the network, Dropout draws from a key split
per step, see docs/nn_state.md). The learning rate is an argument (a float32 scalar), so schedules
and ReduceLROnPlateau change it without recompiling.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import padax
from padax import nn, tree as tree_util


def to_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _total(losses: list) -> Any:
    return losses[0] if len(losses) == 1 else padax.add_n(losses)


def _metric_outputs(metrics: Sequence[Any], outputs: list, labels: list) -> list:
    return [to_list(m.compute(*outputs, *labels)) for m in metrics]


def _add(a: Any, b: Any) -> Any:
    return tree_util.map(lambda x, y: x if y is None else x + y, a, b, is_leaf=lambda v: v is None)


class _AtRate:
    """An optimizer whose `step` uses the rate `lr` (what GradScaler.apply_gradients calls)."""

    def __init__(self, optimizer: Any, lr: Any):
        self.optimizer, self.lr = optimizer, lr

    def step(self, params: Any, grads: Any, state: Any) -> Any:
        return self.optimizer.step(params, grads, state, lr=self.lr)


def make_train_step(loss_fn: Callable, optimizer: Any, metrics: Sequence[Any], plan: Any) -> Callable:
    """jit of (state, inputs, labels, lr, update) -> (state, losses, metric outputs); `update` is static:
    False adds the gradients to state["grad_acc"] (Paddle's train_batch(update=False)), True applies them."""

    scaler = plan.scaler

    def objective(net, inputs, labels, key, scaler_state):
        with nn.rng_scope(key), plan.autocast():
            outputs = to_list(net(*inputs))
        losses = to_list(loss_fn(*outputs, *labels))
        total = _total(losses)
        if scaler is not None:
            total = scaler.scale_loss(total, scaler_state)
        return total, (net, outputs, losses)

    def step(state, inputs, labels, lr, update):
        key, sub = padax.random.split(state["key"])
        (_, (net, outputs, losses)), grads = padax.value_and_grad(objective, has_aux=True)(
            state["network"], inputs, labels, sub, state["scaler"])
        if state["grad_acc"] is not None:
            grads = _add(grads, state["grad_acc"])
        new = {**state, "key": key}
        if not update:
            new["network"], new["grad_acc"] = net, grads
            return new, losses, _metric_outputs(metrics, outputs, labels)
        if scaler is None:
            new_net, opt_state = optimizer.step(net, grads, state["opt_state"], lr=lr)
        else:  # unscale; skip the update on inf/nan gradients; adapt the loss scale
            new_net, opt_state, new["scaler"] = scaler.apply_gradients(
                _AtRate(optimizer, lr), net, grads, state["opt_state"], state["scaler"])
        new["network"], new["opt_state"], new["grad_acc"] = new_net, opt_state, None
        return new, losses, _metric_outputs(metrics, outputs, labels)

    return padax.jit(step, static_argnames=("update",))


def make_eval_step(loss_fn: Callable | None, metrics: Sequence[Any], plan: Any) -> Callable:
    """jit of (network in eval mode, inputs, labels) -> (losses, metric outputs)."""
    def step(net, inputs, labels):
        with plan.autocast():
            outputs = to_list(net(*inputs))
        losses = to_list(loss_fn(*outputs, *labels)) if loss_fn is not None else []
        return losses, _metric_outputs(metrics, outputs, labels)

    return padax.jit(step)


def make_predict_step(plan: Any) -> Callable:
    """jit of (network in eval mode, inputs) -> list of outputs."""
    def step(net, inputs):
        with plan.autocast():
            return to_list(net(*inputs))

    return padax.jit(step)
