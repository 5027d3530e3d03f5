"""The base of the parameter-free layers: one nn.functional op applied with the constructor's settings.

Settings are static configuration (a change retraces under jit); Tensor settings (a loss's class
weights) are kept as non-persistable buffers, so they are pytree children and not in state_dict,
as in Paddle where they are plain attributes.
"""
from __future__ import annotations

from typing import Any, Callable

from padax.functional._arrays import is_array
from padax.nn.layer._calls import check_input
from padax.nn.layer.layers import Layer


class FunctionalLayer(Layer):
    """Calls `_op(*inputs, **settings)`; `_ranks` (if set) are the accepted ranks of the first input."""

    _op: Callable[..., Any]
    _ranks: tuple[int, ...] | None = None
    _layout: str = ""
    _floating: bool = False
    _with_training: bool = False  # pass training=self.training (RReLU)

    def __init__(self, **settings: Any) -> None:
        super().__init__()
        static, tensors = {}, []
        for k, v in settings.items():
            if is_array(v):
                tensors.append(k)
                setattr(self, k, v)
            else:
                static[k] = v
        self._settings, self._tensor_settings = static, tuple(tensors)

    def forward(self, *inputs: Any) -> Any:
        if self._ranks is not None or self._floating:
            check_input(self, inputs[0], ndims=self._ranks, layout=self._layout, floating=self._floating)
        kw = dict(self._settings)
        for k in self._tensor_settings:
            kw[k] = getattr(self, k)
        if self._with_training:
            kw["training"] = self.training
        return type(self)._op(*inputs, **kw)

    def extra_repr(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self._settings.items() if v is not None)
