"""jax.example_libraries.optimizers on padax: an optimizer is an `(init_fun, update_fun, get_params)` triple.

`opt_state = init_fun(params)`, `opt_state = update_fun(step, grads, opt_state)`, `get_params(opt_state)`;
the state is a pytree (OptimizerState), so it goes through jit. The update rules and schedules are
jax's, so a jax script importing `jax.example_libraries.optimizers` gives the same numbers with
`padax.example_libraries.optimizers`.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, NamedTuple

import padax.numpy as jnp
from padax import tree as tree_util


class OptimizerState(NamedTuple):
    """The state of every parameter leaf, flattened: (packed_state, tree_def, subtree_defs)."""

    packed_state: Any
    tree_def: Any
    subtree_defs: Any


tree_util.register_node(OptimizerState, lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
                        lambda aux, xs: OptimizerState(xs[0], aux[0], aux[1]))


class Optimizer(NamedTuple):
    init_fn: Callable
    update_fn: Callable
    params_fn: Callable


Schedule = Callable[[Any], Any]

__all__ = ["Optimizer", "OptimizerState", "adagrad", "adam", "adamax", "clip_grads", "constant",
           "exponential_decay", "inverse_time_decay", "l2_norm", "make_schedule", "momentum", "nesterov",
           "optimizer", "pack_optimizer_state", "piecewise_constant", "polynomial_decay", "rmsprop",
           "rmsprop_momentum", "sgd", "sm3", "unpack_optimizer_state"]


def optimizer(opt_maker: Callable) -> Callable[..., Optimizer]:
    """Lift an optimizer over single arrays (init, update, get_params) to one over pytrees of parameters."""
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args: Any, **kwargs: Any) -> Optimizer:
        init, update, get_params = opt_maker(*args, **kwargs)

        def tree_init(x0_tree):
            x0_flat, tree = tree_util.flatten(x0_tree)
            flat = [tree_util.flatten(init(x0)) for x0 in x0_flat]
            return OptimizerState([s for s, _ in flat], tree, [t for _, t in flat])

        def tree_update(i, grad_tree, opt_state):
            states_flat, tree, subtrees = opt_state
            grad_flat, tree2 = tree_util.flatten(grad_tree)
            if tree2 != tree:
                raise TypeError(f"optimizer update: the gradient tree {tree2} does not match the parameter tree "
                                f"{tree} the optimizer was initialised with")
            new = [tree_util.flatten(update(i, g, tree_util.unflatten(t, s)))
                   for g, s, t in zip(grad_flat, states_flat, subtrees)]
            for (_, t2), t in zip(new, subtrees):
                if t2 != t:
                    raise TypeError(f"optimizer update: the state {t2} it produced does not match its input {t}")
            return OptimizerState([s for s, _ in new], tree, subtrees)

        def tree_get_params(opt_state):
            states_flat, tree, subtrees = opt_state
            return tree_util.unflatten(tree, [get_params(tree_util.unflatten(t, s))
                                              for s, t in zip(states_flat, subtrees)])
        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


def _first(state):
    return state[0]


@optimizer
def sgd(step_size: Any):
    """Stochastic gradient descent: x - step_size(i) * g.

    Examples:
        >>> import padax
        >>> from padax.example_libraries import optimizers
        >>> init, update, get_params = optimizers.sgd(0.1)
        >>> s = update(0, {"w": padax.ones([2])}, init({"w": padax.zeros([2])}))
        >>> get_params(s)["w"].tolist()
        [-0.1, -0.1]
    """
    step_size = make_schedule(step_size)
    return (lambda x0: x0), (lambda i, g, x: x - step_size(i) * g), (lambda x: x)


@optimizer
def momentum(step_size: Any, mass: float):
    """Heavy-ball momentum: v = mass * v + g; x - step_size(i) * v."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, _first


@optimizer
def nesterov(step_size: Any, mass: float):
    """Nesterov momentum: v = mass * v + g; x - step_size(i) * (mass * v + g)."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, _first


@optimizer
def adagrad(step_size: Any, momentum: float = 0.9):
    """Adagrad with momentum on the normalised gradient (jax's form)."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        inv = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * inv) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0))), update, _first


@optimizer
def rmsprop(step_size: Any, gamma: float = 0.9, eps: float = 1e-8):
    """RMSProp: a running average of squared gradients scales the step."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq + eps), avg_sq
    return (lambda x0: (x0, jnp.zeros_like(x0))), update, _first


@optimizer
def rmsprop_momentum(step_size: Any, gamma: float = 0.9, eps: float = 1e-8, momentum: float = 0.9):
    """RMSProp with momentum on the scaled step."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq, mom = state
        avg_sq = avg_sq * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq + eps)
        return x - mom, avg_sq, mom
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0))), update, _first


@optimizer
def adam(step_size: Any, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
    """Adam with bias-corrected moments (jax's form: eps added to sqrt(v_hat)).

    Examples:
        >>> import padax
        >>> from padax.example_libraries import optimizers
        >>> init, update, get_params = optimizers.adam(0.1)
        >>> [round(v, 4) for v in get_params(update(0, padax.ones([2]), init(padax.zeros([2])))).tolist()]
        [-0.1, -0.1]
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        mhat = m / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))
        vhat = v / (1 - jnp.asarray(b2, m.dtype) ** (i + 1))
        return x - step_size(i) * mhat / (jnp.sqrt(vhat) + eps), m, v
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0))), update, _first


@optimizer
def adamax(step_size: Any, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
    """Adamax: Adam with the infinity norm in place of the second moment."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        return x - (step_size(i) / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))) * m / (u + eps), m, u
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0))), update, _first


@optimizer
def sm3(step_size: Any, momentum: float = 0.9):
    """SM3: per-axis accumulators of squared gradients (memory O(sum of dims), not O(size))."""
    step_size = make_schedule(step_size)

    def along(ndim: int, v: Any, axis: int) -> Any:
        return v[tuple(slice(None) if k == axis else None for k in range(ndim))]

    def init(x0):
        shape = _Shape(tuple(x0.shape))  # (static in the state's tree: it survives jit)
        x0 = jnp.atleast_1d(x0)
        return x0, jnp.zeros_like(x0), [jnp.zeros(n, x0.dtype) for n in x0.shape], shape

    def update(i, g, state):
        x, m, vs, shape = state
        accum = functools.reduce(jnp.minimum, [along(g.ndim, v, k) for k, v in enumerate(vs)]) + jnp.square(g)
        inv = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0.0)
        m = (1.0 - momentum) * (g * inv) + momentum * m
        vs = [jnp.max(accum, axis=tuple(a for a in range(x.ndim) if a != k)) for k in range(x.ndim)]
        return x - step_size(i) * m, m, vs, shape

    return init, update, lambda state: jnp.reshape(state[0], state[3].dims)


@tree_util.register_static
class _Shape(NamedTuple):
    """A parameter's shape kept in an optimizer state as static structure, not as leaves."""

    dims: tuple


def constant(step_size: Any) -> Schedule:
    """The schedule that is `step_size` at every step."""
    return lambda i: step_size


def exponential_decay(step_size: Any, decay_steps: Any, decay_rate: Any) -> Schedule:
    """step_size * decay_rate ** (i / decay_steps)."""
    return lambda i: step_size * decay_rate ** (i / decay_steps)


def inverse_time_decay(step_size: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False) -> Schedule:
    """step_size / (1 + decay_rate * i / decay_steps), the ratio floored with `staircase`."""
    if staircase:
        return lambda i: step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    return lambda i: step_size / (1 + decay_rate * i / decay_steps)


def polynomial_decay(step_size: Any, decay_steps: Any, final_step_size: Any, power: float = 1.0) -> Schedule:
    """From step_size to final_step_size over decay_steps along (1 - i / decay_steps) ** power."""
    def schedule(i):
        i = jnp.minimum(i, decay_steps)
        return (1 - i / decay_steps) ** power * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries: Any, values: Any) -> Schedule:
    """values[k] for steps after the k-th boundary (len(values) == len(boundaries) + 1).

    Examples:
        >>> from padax.example_libraries import optimizers
        >>> s = optimizers.piecewise_constant([10, 20], [1.0, 0.5, 0.1])
        >>> [float(s(i)) for i in (0, 15, 25)]
        [1.0, 0.5, 0.1]
    """
    boundaries, values = jnp.asarray(boundaries), jnp.asarray(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("piecewise_constant: boundaries and values must be sequences")
    if boundaries.shape[0] != values.shape[0] - 1:
        raise ValueError(f"piecewise_constant: needs one value more than boundaries, got {values.shape[0]} "
                         f"values for {boundaries.shape[0]} boundaries")
    return lambda i: values[jnp.sum(i > boundaries)]


def make_schedule(scalar_or_schedule: Any) -> Schedule:
    """A schedule from a schedule (unchanged) or a scalar (constant)."""
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(f"make_schedule: expected a scalar or a callable, got {type(scalar_or_schedule).__name__}")


def l2_norm(tree: Any) -> Any:
    """The l2 norm of all the leaves of a tree together."""
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in tree_util.leaves(tree)))


def clip_grads(grad_tree: Any, max_norm: Any) -> Any:
    """The gradients scaled down to l2 norm `max_norm` when their norm is larger."""
    norm = l2_norm(grad_tree)
    return tree_util.map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """A leaf standing for one parameter's state tree in unpack_optimizer_state's result."""

    def __init__(self, subtree: Any):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state: OptimizerState) -> Any:
    """The state as a parameter-shaped tree whose leaves are JoinPoints of each leaf's state (to save it)."""
    states_flat, tree, subtrees = opt_state
    return tree_util.unflatten(tree, [JoinPoint(tree_util.unflatten(t, s)) for s, t in zip(states_flat, subtrees)])


def pack_optimizer_state(marked_pytree: Any) -> OptimizerState:
    """The inverse of unpack_optimizer_state."""
    sentinels, tree = tree_util.flatten(marked_pytree, is_leaf=lambda x: isinstance(x, JoinPoint))
    flat = [tree_util.flatten(s.subtree) for s in sentinels]
    return OptimizerState([f for f, _ in flat], tree, [t for _, t in flat])
