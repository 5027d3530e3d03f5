"""Paddle's parameter groups: `parameters=[{"params": [...], "learning_rate": m, "weight_decay": wd, "beta1": ...}]`.

A group's `learning_rate` multiplies the optimizer's rate, its `weight_decay` (a float, L2, or a
regularizer; None or absent: the optimizer's) is its decay, its `grad_clip` (by default the optimizer's)
clips the group's gradients on their own (a global norm is per group), and any other key overrides that
hyperparameter of the optimizer for the group's parameters. As in Paddle, the group's rate (1.0 when not
given) and decay replace its parameters' ParamAttr learning_rate and regularizer (AdamW keeps the latter).
Only parameters in some group are updated, as in Paddle.
Parameters are matched to the leaves of the params tree by identity, the first time the optimizer
sees the tree (`init`, or the first `step` after building the optimizer, e.g. when resuming).
"""
from __future__ import annotations

import copy
from typing import Any, Sequence

from padax.regularizer import L2Decay as _L2Decay, WeightDecayRegularizer as _WeightDecayRegularizer

_RESERVED = ("params", "learning_rate", "weight_decay")


def is_param_groups(parameters: Any) -> bool:
    """Whether Paddle's `parameters=` argument is a list of group dicts (not a plain list of Tensors)."""
    return isinstance(parameters, (list, tuple)) and bool(parameters) and all(isinstance(g, dict)
                                                                            for g in parameters)


class ParamGroups:
    """The groups of one optimizer, and per group a copy of the optimizer carrying its settings."""

    def __init__(self, groups: Sequence[dict], op: str):
        self.op, self.groups = op, []
        for k, g in enumerate(groups):
            if "params" not in g:
                raise ValueError(f"{op}: parameter group {k} has no 'params' entry")
            params = g["params"]
            if isinstance(params, set):
                raise TypeError(f"{op}: parameter group {k}: 'params' must be an ordered list, not a set")
            params = list(params) if isinstance(params, (list, tuple)) else [params]
            scale = g.get("learning_rate", 1.0)
            if isinstance(scale, bool) or not isinstance(scale, (int, float)):
                raise TypeError(f"{op}: parameter group {k}: 'learning_rate' (a multiplier of the optimizer's "
                                f"rate) must be a number, got {type(scale).__name__}")
            self.groups.append(dict(g, params=params, learning_rate=float(scale)))
        ids = [id(p) for g in self.groups for p in g["params"]]
        if len(ids) != len(set(ids)):
            raise ValueError(f"{op}: some parameters appear in more than one parameter group")
        self.leaf_groups: tuple | None = None
        self.optimizers: list = []

    def bind(self, opt: Any) -> None:
        """Build each group's copy of `opt` (called once the optimizer's own settings exist)."""
        self.optimizers = []
        for k, g in enumerate(self.groups):
            clone = copy.copy(opt)
            for key, value in g.items():
                if key in _RESERVED:
                    continue
                if not hasattr(opt, key):
                    raise ValueError(f"{self.op}: parameter group {k} sets {key!r}, which {self.op} does not have")
                setattr(clone, key, value)
            if g.get("weight_decay") is not None:  # None: the optimizer's, as in Paddle
                wd = g["weight_decay"]
                if isinstance(wd, _WeightDecayRegularizer):
                    clone._regularizer = wd
                    clone.weight_decay = wd.coeff if isinstance(wd, _L2Decay) else 0.0
                elif isinstance(wd, (int, float)) and not isinstance(wd, bool):
                    clone.weight_decay = float(wd or 0.0)
                    clone._regularizer = _L2Decay(clone.weight_decay) if wd else None
                else:
                    raise TypeError(f"{self.op}: parameter group {k}: weight_decay must be a float or a "
                                    f"padax.regularizer, got {type(wd).__name__}")
            self.optimizers.append(clone)

    def resolve(self, leaves: list) -> tuple:
        """The group of each leaf (None: in no group, so not updated); matched by identity once."""
        if self.leaf_groups is not None and len(self.leaf_groups) == len(leaves):
            return self.leaf_groups
        where = {id(p): k for k, g in enumerate(self.groups) for p in g["params"]}
        found = tuple(where.get(id(x)) for x in leaves)
        missing = len(where) - sum(k is not None for k in found)
        if missing:
            raise ValueError(f"{self.op}: {missing} parameter(s) of the parameter groups are not leaves of the params "
                             "given; build the groups from the same model you pass to init()/step() (e.g. "
                             "net.fc.parameters()), and call opt.init(params) outside jit before a jitted step "
                             "(inside jit the parameters are tracers and cannot be matched)")
        self.leaf_groups = found
        return found

    def scale(self, k: int) -> float:
        return self.groups[k]["learning_rate"]
