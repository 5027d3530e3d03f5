"""Paddle's optimizers as pure state transitions.

    opt = padax.optimizer.AdamW(learning_rate=1e-3, weight_decay=0.01)
    state = opt.init(params)                         # a pytree: step count and per-parameter slots
    params, state = opt.step(params, grads, state)   # pure: jit it with the rest of the train step

`params` and `grads` are pytrees of the same structure (a dict of Tensors, a
layer). Nothing is mutated, so a whole training step (forward, backward,
update) compiles into one program. The update formulas are Paddle's kernels
(e.g. Adam's bias correction folded into the step size, epsilon scaled by
sqrt(1 - beta2^t)). `learning_rate` is a number or a `padax.optimizer.lr`
schedule, evaluated at the optimizer's own step count; `step(..., lr=x)`
overrides it for one call. `weight_decay` (a float) is L2 regularisation
added to the gradient, except in AdamW where it is decoupled (Paddle's
meaning). `grad_clip` is a `padax.nn.ClipGradBy*` object applied first. A plain
list for Paddle's `parameters=` is accepted and unused: the parameters are what
`step` is given. `weight_decay` may also be a `padax.regularizer.L1Decay`/`L2Decay`, and a
parameter's `ParamAttr(regularizer=...)` replaces the optimizer's for that parameter. Paddle's parameter groups
(`parameters=[{"params": net.fc.parameters(), "learning_rate": 0.1, "weight_decay": 1e-4}, ...]`) set
per-group rate multipliers, decay and hyperparameters (padax/optimizer/param_groups.py); as in Paddle, a
group's multiplier (default 1.0) replaces its parameters' ParamAttr learning_rate.

`params` may be a padax.nn.Layer: frozen parameters (ParamAttr(trainable=False),
`layer.freeze()`) and buffers (BatchNorm's statistics) are left unchanged and get no
slots, and a parameter's ParamAttr learning_rate multiplies the rate, as in Paddle.
"""
from __future__ import annotations

from typing import Any, Callable

import padax
from padax import tree as tree_util
from padax.core.errors import require_members
from padax.functional import tape_api as _tape
from padax.nn.filtering import is_inexact_array as _is_inexact_array, leaf_infos, param_info
from padax.optimizer.lr import LRScheduler
from padax.optimizer.param_groups import ParamGroups, is_param_groups
from padax.regularizer import L2Decay as _L2Decay, WeightDecayRegularizer as _WeightDecayRegularizer

_IN_PLACE = object()  # step() with no arguments: Paddle's stateful update


class Optimizer:
    """Base class: a subclass names its per-parameter `slots` and defines `_update` for one parameter.

    Args:
        learning_rate: a float, or a padax.optimizer.lr schedule evaluated at the optimizer's step count.
        parameters: Paddle's parameter list (unused: step gets the parameters) or parameter groups (dicts).
        weight_decay: an L2 coefficient (float) or a padax.regularizer.L1Decay/L2Decay.
        grad_clip: a padax.nn.ClipGradBy* applied to the gradients first.

    Examples:
        >>> import padax
        >>> class SignSGD(padax.optimizer.Optimizer):
        ...     def _update(self, p, g, slots, lr, t):
        ...         return p - lr * padax.sign(g), {}
        ...
        >>> opt = SignSGD(learning_rate=0.1)
        >>> w = padax.to_tensor([1.0, 2.0])
        >>> w, state = opt.step(w, padax.to_tensor([3.0, -0.5]), opt.init(w))
        >>> w.tolist(), int(state["step"])
        ([0.9, 2.1], 1)
    """

    slots: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "padax optimizer", {"_update": "_update(p, g, slots, lr, t) -> (new p, new slots)"})

    def __init__(self, learning_rate: float | LRScheduler = 0.001, parameters: Any = None,
                 weight_decay: float | None = None, grad_clip: Callable | None = None, name: str | None = None):
        if not isinstance(learning_rate, (int, float, LRScheduler)):
            raise TypeError(f"{type(self).__name__}: learning_rate must be a number or a padax.optimizer.lr "
                            f"schedule, got {type(learning_rate).__name__}")
        if isinstance(weight_decay, _WeightDecayRegularizer):
            self._regularizer: Any = weight_decay
            weight_decay = weight_decay.coeff if isinstance(weight_decay, _L2Decay) else None
        elif weight_decay is not None and (isinstance(weight_decay, bool)
                                           or not isinstance(weight_decay, (int, float))):
            raise TypeError(f"{type(self).__name__}: weight_decay must be a float (L2 coefficient) or a "
                            f"padax.regularizer.L1Decay/L2Decay, got {type(weight_decay).__name__}")
        else:
            self._regularizer = _L2Decay(float(weight_decay)) if weight_decay else None
        self._learning_rate = learning_rate
        self.weight_decay = float(weight_decay) if weight_decay else 0.0
        self.grad_clip = grad_clip
        self.name = name
        self._groups = ParamGroups(parameters, type(self).__name__) if is_param_groups(parameters) else None
        # Paddle's stateful protocol (opt.step() / clear_grad() on `parameters`): the list, and its state
        if self._groups is not None:
            self._parameter_list: list | None = [p for g in self._groups.groups for p in g["params"]]
        else:
            self._parameter_list = list(parameters) if parameters is not None else None
        self._eager_state: dict | None = None

    def _group_optimizers(self, leaves: list) -> list:
        """Per leaf, the optimizer (this one, or a parameter group's copy) and the group's rate multiplier;
        (None, 0) for a leaf outside every group."""
        if self._groups is None:
            return [(self, 1.0)] * len(leaves)
        if not self._groups.optimizers:
            self._groups.bind(self)  # now that the subclass has set its hyperparameters
        return [(None, 0.0) if k is None else (self._groups.optimizers[k], self._groups.scale(k))
                for k in self._groups.resolve(leaves)]

    # -- the functional protocol -------------------------------------------------------------
    def init(self, params: Any) -> dict:
        """The initial state: step 0 and, per slot, a tree shaped like `params` (zeros; None for a leaf the
        optimizer never updates: a frozen layer parameter, a buffer, or a None gradient's leaf)."""
        leaves, treedef = tree_util.flatten(params, is_leaf=_is_none)
        owners = self._group_optimizers(leaves)
        trainable = [o is not None and _updatable(p, info)
                     for p, info, (o, _) in zip(leaves, leaf_infos(params, none_leaves=True), owners)]
        state = {"step": padax.zeros([], "int32")}
        if self.multi_precision:
            masters = [p.astype("float32") if t and _is_low_precision(p) else None for p, t in zip(leaves, trainable)]
            state["master_weight"] = treedef.unflatten(masters)
            leaves = [p if m is None else m for p, m in zip(leaves, masters)]
        for slot in self.slots:
            state[slot] = treedef.unflatten([o._slot_init(slot, p) if t else None
                                             for p, t, (o, _) in zip(leaves, trainable, owners)])
        return state

    def _slot_init(self, slot: str, p: Any) -> Any:
        return padax.zeros_like(p)

    def step(self, params: Any = _IN_PLACE, grads: Any = None, state: dict | None = None,
             lr: Any = None) -> tuple[Any, dict] | None:
        """One update: returns (new params, new state). Called with no arguments, it is Paddle's `opt.step()`:
        the parameters given at construction are updated in place from their `.grad` (the tape's
        `loss.backward()`), the optimizer keeping its own state.

        `grads` is shaped like `params`; a None leaf (from padax.nn.filter_grad) means no gradient.
        Frozen layer parameters and buffers are returned unchanged; a parameter's
        ParamAttr(learning_rate=m) scales its rate by m, and need_clip=False keeps it out of grad_clip.
        """
        if params is _IN_PLACE:
            self._step_in_place()
            return None
        if state is None:
            raise TypeError(f"{type(self).__name__}.step(params, grads, state): the functional form needs the state "
                            "(opt.init(params)); opt.step() with no arguments updates the parameters in place")
        p_leaves, treedef = tree_util.flatten(params, is_leaf=_is_none)
        g_leaves = _aligned(self, treedef, grads, "grads")
        infos = leaf_infos(params, none_leaves=True)
        _refuse_non_float_params(self, params, p_leaves, g_leaves, infos)
        owners = self._group_optimizers(p_leaves)
        live = [g is not None and o is not None and _updatable(p, info)
                for p, g, info, (o, _) in zip(p_leaves, g_leaves, infos, owners)]
        clippable = [ok and (info is None or info.need_clip) for ok, info in zip(live, infos)]
        if self._groups is None:
            clips = [(self.grad_clip, clippable)]
        else:  # as Paddle, each group is clipped on its own (a global norm per group), by its own grad_clip
            clips = [(o.grad_clip, [c and owner is o for c, (owner, _) in zip(clippable, owners)])
                     for o in self._groups.optimizers]
        for clip_fn, members in clips:
            if clip_fn is not None and any(members):
                g_leaves = _clip(clip_fn, g_leaves, members)
        t = state["step"] + 1
        lr = self.lr_at(state["step"]) if lr is None else lr
        slot_leaves = [_aligned(self, treedef, state[s], f"state[{s!r}]") for s in self.slots]
        if "master_weight" in state:
            masters = _aligned(self, treedef, state["master_weight"], "state['master_weight']")
        else:
            masters = [None] * len(p_leaves)
            if self.multi_precision and any(ok and _is_low_precision(p) for ok, p in zip(live, p_leaves)):
                raise ValueError(f"{type(self).__name__}.step: multi_precision is on but the state has no float32 "
                                 "master weights (it was made before the parameters became low precision, e.g. "
                                 "before padax.amp.decorate); call init(params) again")
        new_p, new_slots, new_masters = [], [[] for _ in self.slots], []
        for i, (p, g) in enumerate(zip(p_leaves, g_leaves)):
            new_masters.append(masters[i])
            if not live[i]:
                new_p.append(p)
                for k in range(len(self.slots)):
                    new_slots[k].append(slot_leaves[k][i])
                continue
            low_dtype = p.dtype
            if masters[i] is not None:  # multi_precision: update the float32 master copy, then cast down
                p, g = masters[i], g.astype(masters[i].dtype)
            opt, scale = owners[i]
            reg = opt._regularizer_for(infos[i])
            if reg is not None:
                g = g + reg(p)
            if self._groups is None and infos[i] is not None:  # a group's rate replaces ParamAttr's, as in Paddle
                scale = scale * infos[i].learning_rate
            extra = {"info": infos[i]} if self._uses_param_info else {}
            p2, slots2 = opt._update(p, g, {s: sl[i] for s, sl in zip(self.slots, slot_leaves)},
                                     lr if scale == 1.0 else lr * scale, t, **extra)
            if masters[i] is not None:
                new_masters[i] = p2.astype(masters[i].dtype)
            new_p.append(p2.astype(low_dtype))
            for k, s in enumerate(self.slots):
                old = slot_leaves[k][i]
                new_slots[k].append(slots2[s] if old is None or slots2[s].dtype == old.dtype
                                    else slots2[s].astype(old.dtype))
        new_state = {"step": t}
        if "master_weight" in state:
            new_state["master_weight"] = treedef.unflatten(new_masters)
        for s, leaves in zip(self.slots, new_slots):
            new_state[s] = treedef.unflatten(leaves)
        return treedef.unflatten(new_p), new_state

    def _regularizer_for(self, info: Any) -> Any:
        """The gradient term of a parameter: its ParamAttr regularizer, else the optimizer's coupled one
        (none when the decay is decoupled, as in AdamW). In a parameter group the group's decay (by default the
        optimizer's) replaces the ParamAttr regularizer, as Paddle (except in AdamW, whose groups keep it)."""
        if info is not None and info.regularizer is not None and (self._groups is None or self._decoupled_decay):
            return info.regularizer
        return None if self._decoupled_decay else self._regularizer

    # Paddle's multi_precision (set by the constructor's flag or padax.amp.decorate at level O2): float16/bfloat16
    # parameters get float32 master copies in state["master_weight"]; the update runs on those in float32.
    multi_precision = False
    _decoupled_decay = False  # AdamW: weight decay applied to the parameter, not added to the gradient
    _uses_param_info = False  # _update also takes info= (the parameter's ParamInfo, None outside a layer)

    def lr_at(self, step: Any) -> Any:
        """The learning rate at a step count (a number, or a traced scalar under jit)."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate.value(step)
        return float(self._learning_rate)

    def get_lr(self) -> float:
        """Paddle's `get_lr()`: the schedule's current value (eager protocol), or the fixed rate."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate()
        return float(self._learning_rate)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(learning_rate={self._learning_rate!r})"

    # -- Paddle's stateful protocol: opt.step(), opt.clear_grad(), state_dict() ---------------------------
    def _stateful_params(self, what: str) -> list:
        if self._parameter_list is None:
            raise ValueError(f"{type(self).__name__}.{what}(): the optimizer was made without parameters; pass "
                             "parameters=model.parameters() (or use the functional form opt.step(params, grads, "
                             "state))")
        return self._parameter_list

    def _step_in_place(self, params: list | None = None) -> list:
        """Update `params` (default: the optimizer's) in place from their gradients; returns (param, grad) pairs."""
        params = self._stateful_params("step") if params is None else params
        with padax.no_grad():
            grads = [None if p.stop_gradient else p.grad for p in params]
            if self._eager_state is None:  # (made for real even when the first step is traced by jit)
                with _tape.compile_time_eval():
                    self._eager_state = self.init(list(self._parameter_list or params))
            owned = self._parameter_list or params
            if params is not owned:  # minimize(parameters=...): a sub-list of the optimizer's own
                index = {id(p): i for i, p in enumerate(owned)}
                full = [None] * len(owned)
                for p, g in zip(params, grads):
                    full[index[id(p)]] = g
                grads = full
            new_params, new_state = self.step(list(owned), grads, self._eager_state, lr=self._lr_now())
            for p, new in zip(owned, new_params):
                if new is not p:
                    p.set_value(new)
            # the state Tensors are updated in place too, so that a jitted step carries them as its state
            for old, new in zip(tree_util.leaves(self._eager_state), tree_util.leaves(new_state)):
                if new is not old:
                    old.set_value(new)
        return [(p, g) for p, g in zip(params, grads) if g is not None]

    def _lr_now(self) -> Any:
        """The current rate as a float32 Tensor, which a jitted step reads afresh at each call (a scheduler
        steps between calls). One Tensor per optimizer, updated in place when the rate changes, so that
        whatever holds it (a program's inputs) sees the new rate."""
        lr = self.get_lr()
        t = self.__dict__.get("_lr_tensor")
        if t is None or self.__dict__.get("_lr_value") != lr:
            with _tape.compile_time_eval():  # (for real, even while a step is traced)
                new = padax.to_tensor(lr, dtype="float32")
                if t is None:
                    t = self._lr_tensor = new
                else:
                    t.set_value(new)
            self._lr_value = lr
        return _tape.read_each_call(t, lambda: self._lr_now())

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of the optimizer's parameters (zeros, or None with set_to_zero=False)."""
        for p in self._stateful_params("clear_grad"):
            p.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def _minimize_dygraph(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                          no_grad_set: Any = None) -> tuple[list, list]:
        """Paddle's dygraph `minimize`: apply the gradients that `loss.backward()` left in `.grad`."""
        params = list(parameters) if parameters is not None else list(self._stateful_params("minimize"))
        if no_grad_set:
            skip = {id(p) for p in no_grad_set}
            params = [p for p in params if id(p) not in skip]
        return [], self._step_in_place(params)

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                 no_grad_set: Any = None) -> tuple[list, list]:
        """Paddle's `minimize(loss)`: in dygraph mode, one `step()` with the gradients of `loss.backward()`;
        on a static Variable (padax.static), record the gradients and this optimizer's update into the loss's
        Program (returns ([], [(param, grad), ...]))."""
        static = getattr(type(loss), "_static_minimize", None)  # padax.static.Variable carries its own minimize
        if static is not None:
            return static(loss, self, startup_program, parameters, no_grad_set)
        return self._minimize_dygraph(loss, startup_program, parameters, no_grad_set)

    def set_lr(self, value: float) -> None:
        """Set a fixed learning rate (not with an LRScheduler, as in Paddle)."""
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError(f"{type(self).__name__}.set_lr: the learning rate is an LRScheduler; step the "
                               "scheduler instead")
        self._learning_rate = float(value)

    def state_dict(self) -> dict:
        """The stateful optimizer's state, by Paddle-style names: `<param name>_<slot>_0` per slot, the step
        count, and the LRScheduler's state under "LR_Scheduler"."""
        out: dict = {}
        if self._eager_state is not None:
            names = self._param_names()
            for slot, leaves in self._eager_state.items():
                if slot == "step":
                    out["global_step"] = leaves
                    continue
                for n, v in zip(names, leaves):
                    if v is not None:
                        out[f"{n}_{slot}_0"] = v
        if isinstance(self._learning_rate, LRScheduler):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        """Load what `state_dict()` gave (the optimizer's parameters must be the same, in the same order)."""
        if "LR_Scheduler" in state_dict and isinstance(self._learning_rate, LRScheduler):
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        params = self._stateful_params("set_state_dict")
        if self._eager_state is None:
            self._eager_state = self.init(list(params))
        names = self._param_names()
        for slot, leaves in list(self._eager_state.items()):
            if slot == "step":
                if "global_step" in state_dict:
                    self._eager_state["step"] = padax.to_tensor(state_dict["global_step"], dtype="int32")
                continue
            self._eager_state[slot] = [padax.to_tensor(state_dict[f"{n}_{slot}_0"], dtype=v.dtype)
                                       if v is not None and f"{n}_{slot}_0" in state_dict else v
                                       for n, v in zip(names, leaves)]

    set_dict = set_state_dict

    def _param_names(self) -> list[str]:
        names = []
        for i, p in enumerate(self._stateful_params("state_dict")):
            info = param_info(p)
            names.append(info.name if info is not None and info.name else f"param_{i}")
        return names


def _is_none(x: Any) -> bool:
    return x is None


def _clip(clip_fn: Callable, g_leaves: list, members: list[bool]) -> list:
    """clip_fn applied to the gradients that take part in clipping (the rest pass through)."""
    clipped = tree_util.leaves(clip_fn([g if c else None for g, c in zip(g_leaves, members)]))
    it = iter(clipped)
    return [next(it) if c else g for g, c in zip(g_leaves, members)]


def _aligned(opt: Optimizer, treedef: Any, tree: Any, what: str) -> list:
    """`tree`'s leaves (None included) in the order of params' leaves. Layers that differ only in static
    settings (e.g. train/eval mode) line up too."""
    leaves, other = tree_util.flatten(tree, is_leaf=_is_none)
    if other != treedef and str(other) != str(treedef):
        raise ValueError(f"{type(opt).__name__}.step: params and {what} have different structures: "
                         f"{treedef} vs {other}")
    return leaves


def _refuse_non_float_params(opt: Optimizer, params: Any, p_leaves: list, g_leaves: list, infos: list) -> None:
    """A TypeError for a trainable integer/bool parameter given a real gradient: the optimizer cannot
    update it, and leaving it unchanged without a word hides the mistake (a float0 gradient, as
    `grad` gives for integer leaves, or a frozen parameter / buffer is fine)."""
    for i, (p, g, info) in enumerate(zip(p_leaves, g_leaves, infos)):
        if g is None or p is None or _is_inexact_array(p) or (info is not None and not info.trainable):
            continue
        g_dtype = getattr(g, "dtype", None)
        if g_dtype == padax.float0 or not hasattr(p, "dtype"):
            continue
        path = tree_util.keystr(tree_util.flatten_with_path(params, is_leaf=_is_none)[0][i][0])
        raise TypeError(f"{type(opt).__name__}.step: parameter {path} has dtype {p.dtype} and was given a gradient, "
                        "but optimizers update floating-point parameters only; create it as float "
                        "(.astype('float32')) or pass None as its gradient to leave it unchanged")


def _is_low_precision(p: Any) -> bool:
    return str(getattr(p, "dtype", "")) in ("float16", "bfloat16")


def _float32_slot(p: Any) -> Any:
    """Zeros for an Adam-family moment: float32 for a float16/bfloat16 parameter (Paddle keeps those moments
    in float32 with or without multi_precision), else the parameter's dtype."""
    return padax.zeros(p.shape, "float32") if _is_low_precision(p) else padax.zeros_like(p)


def _upcast(p: Any, g: Any) -> tuple[Any, Any]:
    """A float16/bfloat16 parameter and its gradient in float32, where Paddle's Adam-family kernels compute
    (float16 squares of small gradients underflow); other dtypes unchanged."""
    if _is_low_precision(p):
        return p.astype("float32"), g.astype("float32")
    return p, g


def _step_float64(t: Any) -> Any:
    """The step count as float64, for the bias corrections: in float32, 1 - beta2^t loses the ~1e-4 that
    rounding beta2 (0.999) costs, which (1 - beta2) * g^2 does not, and the first steps drift by ~1e-5."""
    return t.astype("float64")


def _compute_dtype(p: Any) -> str:
    """The dtype an Adam-family update runs in: float32 for float16/bfloat16 parameters (as Paddle's kernels),
    else the parameter's dtype."""
    return "float32" if _is_low_precision(p) else p.dtype


def _updatable(p: Any, info: Any) -> bool:
    """Whether the optimizer updates this leaf: a floating-point array that is not frozen or a buffer."""
    return _is_inexact_array(p) and (info is None or info.trainable)


class SGD(Optimizer):
    """p <- p - lr * g.

    Args:
        learning_rate, parameters, weight_decay, grad_clip: as `Optimizer`.
        multi_precision: keep float32 master weights for float16/bfloat16 parameters.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.SGD(learning_rate=0.1)
        >>> params = {"w": padax.to_tensor([1.0, -2.0])}
        >>> params, state = opt.step(params, {"w": padax.to_tensor([0.5, 0.5])}, opt.init(params))
        >>> params["w"].tolist()  # 1 - 0.1 * 0.5, -2 - 0.1 * 0.5
        [0.95, -2.05]
    """

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision: bool = False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.multi_precision = bool(multi_precision)

    def _update(self, p, g, slots, lr, t):
        return p - lr * g, {}


class Momentum(Optimizer):
    """v <- momentum * v + g; p <- p - lr * v (Nesterov: p <- p - lr * (g + momentum * v)).

    Args:
        momentum: the velocity's decay factor.
        use_nesterov: step along g + momentum * v instead of v.
        multi_precision: keep float32 master weights for float16/bfloat16 parameters.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Momentum(learning_rate=0.1, momentum=0.9)
        >>> w, g = padax.to_tensor([1.0]), padax.to_tensor([0.5])
        >>> state = opt.init(w)
        >>> w, state = opt.step(w, g, state)  # v = 0.5: w = 1 - 0.05
        >>> w, state = opt.step(w, g, state)  # v = 0.9 * 0.5 + 0.5 = 0.95: w = 0.95 - 0.095
        >>> w.tolist(), state["velocity"].tolist()
        ([0.855], [0.95])
    """

    slots = ("velocity",)

    def __init__(self, learning_rate=0.001, momentum: float = 0.9, parameters=None, use_nesterov: bool = False,
                 weight_decay=None, grad_clip=None, multi_precision: bool = False, rescale_grad: float = 1.0,
                 use_multi_tensor: bool = False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.multi_precision = bool(multi_precision)
        if rescale_grad != 1.0:
            raise ValueError(f"Momentum: rescale_grad={rescale_grad} is not supported; scale the loss instead")
        self.momentum, self.use_nesterov = float(momentum), bool(use_nesterov)

    def _update(self, p, g, slots, lr, t):
        v = self.momentum * slots["velocity"] + g
        step = g + self.momentum * v if self.use_nesterov else v
        return p - lr * step, {"velocity": v}


class Adam(Optimizer):
    """Adam with Paddle's bias correction: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);
    p <- p - lr_t * m / (sqrt(v) + eps * sqrt(1 - b2^t)).

    Args:
        beta1, beta2: decay rates of the first and second moment estimates.
        epsilon: added to the denominator (scaled by sqrt(1 - beta2^t), as Paddle).
        lazy_mode: accepted for Paddle compatibility (it only matters for sparse gradients, which padax has not).
        multi_precision: keep float32 master weights for float16/bfloat16 parameters (their moments are
            float32 either way, as in Paddle).
        use_multi_tensor: accepted for Paddle compatibility (a fusion switch; the result is the same).
        amsgrad: divide by the running maximum of the second moment (slot `moment2_max`) instead.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Adam(learning_rate=0.1)
        >>> params = {"w": padax.to_tensor([1.0, -2.0])}
        >>> params, state = opt.step(params, {"w": padax.to_tensor([0.5, 0.5])}, opt.init(params))
        >>> params["w"].tolist()  # the bias-corrected first step moves each weight by lr
        [0.9, -2.1]
        >>> state["moment1"]["w"].tolist(), state["moment2"]["w"].tolist()
        ([0.05, 0.05], [0.00025, 0.00025])
    """

    slots = ("moment1", "moment2")

    def __init__(self, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, amsgrad: bool = False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.multi_precision = bool(multi_precision)
        for n, b in (("beta1", beta1), ("beta2", beta2)):
            if not 0.0 <= b < 1.0:
                raise ValueError(f"{type(self).__name__}: {n} must be in [0, 1), got {b}")
        if not float(epsilon) >= 0.0:  # (NaN too) Paddle refuses a negative epsilon
            raise ValueError(f"{type(self).__name__}: epsilon must be >= 0, got {epsilon}")
        self.beta1, self.beta2, self.epsilon = float(beta1), float(beta2), float(epsilon)
        self.amsgrad = bool(amsgrad)
        if self.amsgrad:
            self.slots = ("moment1", "moment2", "moment2_max")

    def _slot_init(self, slot, p):
        return _float32_slot(p)

    def _update(self, p, g, slots, lr, t):
        p, g = _upcast(p, g)
        m = self.beta1 * slots["moment1"] + (1 - self.beta1) * g
        v = self.beta2 * slots["moment2"] + (1 - self.beta2) * g * g
        new_slots = {"moment1": m, "moment2": v}
        if "moment2_max" in slots:  # amsgrad (the optimizer's: a parameter group cannot switch it, as in Paddle)
            v = new_slots["moment2_max"] = padax.maximum(slots["moment2_max"], v)
        tf, dt = _step_float64(t), _compute_dtype(p)
        b1p, b2p = self.beta1 ** tf, self.beta2 ** tf
        corr2 = padax.sqrt(1 - b2p)
        lr_t, eps_t = (lr * corr2 / (1 - b1p)).astype(dt), (self.epsilon * corr2).astype(dt)
        return p - lr_t * (m / (padax.sqrt(v) + eps_t)), new_slots


class AdamW(Adam):
    """Adam with decoupled weight decay (Paddle's default coefficient 0.01): p <- p * (1 - lr * wd), then Adam.

    Args:
        weight_decay: the decoupled decay coefficient (default 0.01).
        beta1, beta2, epsilon, lazy_mode, multi_precision, amsgrad: as `Adam`.
        use_lowprecision_moment: keep a float16/bfloat16 parameter's moments in its own dtype (default float32).
        lr_ratio: param info -> a factor on this parameter's rate (decay and step); the ParamInfo of a layer
            parameter (None for an array outside a layer), where Paddle passes the Parameter.
        apply_decay_param_fun: parameter name -> whether to decay it (names are Paddle's, e.g. "linear_0.w_0";
            a parameter outside a layer has name None).

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.AdamW(learning_rate=0.1, weight_decay=0.1)
        >>> w = padax.to_tensor([1.0, -2.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5, 0.5]), opt.init(w))
        >>> w.tolist()  # decay first (w * (1 - 0.1 * 0.1)), then Adam's step of lr
        [0.89, -2.08]
    """

    _decoupled_decay = True

    def __init__(self, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters=None, weight_decay: float = 0.01, use_lowprecision_moment: bool = False,
                 lr_ratio: Callable[[Any], float] | None = None,
                 apply_decay_param_fun: Callable[[Any], bool] | None = None, grad_clip=None,
                 lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False, name=None):
        for what, fn in (("lr_ratio", lr_ratio), ("apply_decay_param_fun", apply_decay_param_fun)):
            if fn is not None and not callable(fn):
                raise TypeError(f"AdamW: {what} must be a function, got {type(fn).__name__}")
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, weight_decay, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)
        self.use_lowprecision_moment = bool(use_lowprecision_moment)
        self.lr_ratio, self.apply_decay_param_fun = lr_ratio, apply_decay_param_fun

    _uses_param_info = True

    def _slot_init(self, slot, p):
        return padax.zeros_like(p) if self.use_lowprecision_moment else _float32_slot(p)

    def _update(self, p, g, slots, lr, t, info=None):
        if self.lr_ratio is not None:
            lr = lr * float(self.lr_ratio(info))
        decay = self.weight_decay
        if decay and self.apply_decay_param_fun is not None \
                and not self.apply_decay_param_fun(info.name if info is not None else None):
            decay = 0.0
        p, g = _upcast(p, g)
        return super()._update(p * (1 - lr * decay) if decay else p, g, slots, lr, t)


class Adagrad(Optimizer):
    """acc <- acc + g^2; p <- p - lr * g / (sqrt(acc) + epsilon).

    Args:
        epsilon: added to the root of the accumulator.
        initial_accumulator_value: the accumulator's starting value.

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.Adagrad(learning_rate=0.1)
        >>> w, g = padax.to_tensor([1.0]), padax.to_tensor([0.5])
        >>> state = opt.init(w)
        >>> w, state = opt.step(w, g, state)  # acc = 0.25: w = 1 - 0.1 * 0.5 / 0.5
        >>> w, state = opt.step(w, g, state)  # acc = 0.5: w = 0.9 - 0.1 * 0.5 / sqrt(0.5)
        >>> w.tolist(), state["moment"].tolist()
        ([0.82929], [0.5])
    """

    slots = ("moment",)

    def __init__(self, learning_rate, epsilon: float = 1e-6, parameters=None, weight_decay=None, grad_clip=None,
                 name=None, initial_accumulator_value: float = 0.0):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.epsilon, self.initial_accumulator_value = float(epsilon), float(initial_accumulator_value)

    def _slot_init(self, slot, p):
        return padax.full_like(p, self.initial_accumulator_value)

    def _update(self, p, g, slots, lr, t):
        acc = slots["moment"] + g * g
        return p - lr * g / (padax.sqrt(acc) + self.epsilon), {"moment": acc}


class RMSProp(Optimizer):
    """ms <- rho * ms + (1 - rho) g^2 (centered: minus the mean gradient squared);
    mom <- momentum * mom + lr * g / sqrt(ms + epsilon); p <- p - mom.

    Args:
        rho: decay rate of the mean square.
        epsilon: added under the root.
        momentum: decay of the update's momentum (0: none).
        centered: subtract the squared mean gradient (variance instead of second moment).

    Examples:
        >>> import padax
        >>> opt = padax.optimizer.RMSProp(learning_rate=0.1, rho=0.95)
        >>> w = padax.to_tensor([1.0])
        >>> w, state = opt.step(w, padax.to_tensor([0.5]), opt.init(w))
        >>> state["mean_square"].tolist()  # 0.05 * 0.5 ** 2
        [0.0125]
        >>> w.tolist()  # 1 - 0.1 * 0.5 / sqrt(0.0125 + 1e-6)
        [0.5528]
    """

    slots = ("mean_square", "mean_grad", "momentum")

    def __init__(self, learning_rate, rho: float = 0.95, epsilon: float = 1e-6, momentum: float = 0.0,
                 centered: bool = False, parameters=None, weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        for what, v in (("rho", rho), ("epsilon", epsilon), ("momentum", momentum)):
            if not v >= 0:
                raise ValueError(f"RMSProp: {what} must be >= 0, got {v}")
        self.rho, self.epsilon, self.momentum, self.centered = float(rho), float(epsilon), float(momentum), centered

    def _update(self, p, g, slots, lr, t):
        ms = self.rho * slots["mean_square"] + (1 - self.rho) * g * g
        mg = slots["mean_grad"]
        if self.centered:
            mg = self.rho * mg + (1 - self.rho) * g
            denom = padax.sqrt(ms - mg * mg + self.epsilon)
        else:
            denom = padax.sqrt(ms + self.epsilon)
        mom = self.momentum * slots["momentum"] + lr * g / denom
        return p - mom, {"mean_square": ms, "mean_grad": mg, "momentum": mom}
