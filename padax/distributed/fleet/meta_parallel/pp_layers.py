"""Paddle's PipelineLayer and LayerDesc: a model written as a list of layers, cut into pipeline stages.

    model = PipelineLayer([LayerDesc(Embed, vocab, d), *[LayerDesc(Block, d) for _ in range(4)],
                           LayerDesc(Head, d, vocab)], num_stages=4, loss_fn=nn.CrossEntropyLoss())

Calling the model runs every stage in turn (the sequential model); the
pipelined schedules (pipeline_parallel.py) run stage i on the devices at
position i of the 'pp' mesh axis.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.distributed.fleet import _state
from padax.nn.layer.container import LayerList
from padax.nn.layer.layers import Layer


class LayerDesc:
    """A layer to be built later: `LayerDesc(cls, *args, **kwargs).build_layer()` is `cls(*args, **kwargs)`.

    Args:
        layer_func: a padax.nn.Layer subclass.
        *inputs, **kwargs: its constructor arguments.

    Returns:
        The description; `build_layer()` constructs the layer.

    Examples:
        >>> import padax
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> desc = mpu.LayerDesc(padax.nn.Linear, 2, 3)  # built by the stage that owns it
        >>> desc, desc.build_layer().weight.shape
        (LayerDesc(Linear), (2, 3))
    """

    def __init__(self, layer_func: type, *inputs: Any, **kwargs: Any) -> None:
        if not (isinstance(layer_func, type) and issubclass(layer_func, Layer)):
            raise TypeError(f"LayerDesc: the first argument must be a padax.nn.Layer subclass, got {layer_func!r}")
        self.layer_func, self.inputs, self.kwargs = layer_func, inputs, kwargs

    def build_layer(self) -> Layer:
        return self.layer_func(*self.inputs, **self.kwargs)

    def __repr__(self) -> str:
        return f"LayerDesc({self.layer_func.__name__})"


def uniform_segments(n_items: int, num_stages: int) -> list[int]:
    """Stage boundaries splitting `n_items` layers as evenly as possible: stage i is items[b[i]:b[i+1]]."""
    if num_stages > n_items:
        raise ValueError(f"PipelineLayer: {n_items} layers cannot fill {num_stages} pipeline stages")
    base, extra = divmod(n_items, num_stages)
    bounds = [0]
    for i in range(num_stages):
        bounds.append(bounds[-1] + base + (1 if i < extra else 0))
    return bounds


class PipelineLayer(Layer):
    """A list of layers (LayerDesc, Layer, or parameter-free callables) cut into `num_stages` stages.

    `seg_method`: "uniform" (equal numbers of layers) or an explicit list of
    stage boundaries [0, b1, ..., n]. With `num_virtual_pipeline_stages` V > 1
    the layers are cut into num_stages x V chunks and stage s holds chunks s,
    s + num_stages, ... (the interleaved schedule 'VPP' runs them). `loss_fn(output, label)` gives the loss
    of one microbatch. `num_stages` defaults to fleet's pp_degree. Paddle's
    `topology`, `recompute_interval` and `recompute_ctx` are accepted; the
    stages come from fleet's mesh, and the 1F1B schedule always recomputes a
    stage's forward pass in its backward step.

    Args:
        layers: LayerDesc, Layer or parameter-free callables, run in order.
        num_stages: pipeline stages (default fleet's pp_degree, else 1).
        topology: accepted for Paddle compatibility (the stages come from fleet's mesh).
        loss_fn: `loss_fn(output, label)`, the loss of one microbatch.
        seg_method: 'uniform' (equal numbers of layers) or the stage boundaries [0, b1, ..., n].
        recompute_interval, recompute_ctx: accepted for Paddle compatibility (1F1B always recomputes forward passes).
        num_virtual_pipeline_stages: V > 1 cuts the layers into num_stages x V chunks for the 'VPP' schedule.

    Returns:
        The layer; called directly it runs every stage in sequence.

    Examples:
        >>> import padax
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> model = mpu.PipelineLayer([mpu.LayerDesc(padax.nn.Linear, 2, 4), padax.nn.ReLU(),
        ...                            mpu.LayerDesc(padax.nn.Linear, 4, 1)], num_stages=2, loss_fn=padax.nn.MSELoss())
        >>> model.segment_parts, model(padax.ones([3, 2])).shape  # stage boundaries over the 3 layers
        ([0, 2, 3], (3, 1))
    """

    def __init__(self, layers: Sequence[Any], num_stages: int | None = None, topology: Any = None,
                 loss_fn: Callable | None = None, seg_method: Any = "uniform", recompute_interval: int = 0,
                 recompute_ctx: Any = None, num_virtual_pipeline_stages: int | None = None) -> None:
        super().__init__()
        virtual = 1 if num_virtual_pipeline_stages is None else num_virtual_pipeline_stages
        if isinstance(virtual, bool) or not isinstance(virtual, int) or virtual < 1:
            raise ValueError(f"PipelineLayer: num_virtual_pipeline_stages must be a positive int, got "
                             f"{num_virtual_pipeline_stages!r}")
        if num_stages is None:
            num_stages = _state.hcg.degrees["pp"] if _state.hcg is not None else 1
        built, kinds, fns = [], [], []
        for i, item in enumerate(layers):
            if isinstance(item, LayerDesc):
                item = item.build_layer()
            if isinstance(item, Layer):
                kinds.append(("layer", len(built)))
                built.append(item)
            elif callable(item):
                kinds.append(("fn", len(fns)))
                fns.append(item)
            else:
                raise TypeError(f"PipelineLayer: layers[{i}] must be a LayerDesc, a Layer or a callable, "
                                f"got {type(item).__name__}")
        n = len(kinds)
        chunks = int(num_stages) * virtual
        if seg_method == "uniform":
            bounds = uniform_segments(n, chunks)
        elif isinstance(seg_method, (list, tuple)):
            bounds = [int(b) for b in seg_method]
            if len(bounds) != chunks + 1 or bounds[0] != 0 or bounds[-1] != n or sorted(bounds) != bounds:
                raise ValueError(f"PipelineLayer: seg_method boundaries must rise from 0 to {n} in {chunks} "
                                 f"steps (num_stages x num_virtual_pipeline_stages), got {bounds}")
        else:
            raise ValueError(f"PipelineLayer: seg_method must be 'uniform' or a list of boundaries, got "
                             f"{seg_method!r}")
        self.run_function = LayerList(built)
        self._kinds = tuple(kinds)
        self._fns = tuple(fns)
        self._bounds = tuple(bounds)
        self._num_stages = int(num_stages)
        self._virtual = virtual
        self._loss_fn = loss_fn

    @property
    def num_stages(self) -> int:
        return self._num_stages

    @property
    def num_virtual_pipeline_stages(self) -> int:
        return self._virtual

    def get_num_virtual_stages(self) -> int:
        """Paddle's name for num_virtual_pipeline_stages: chunks of layers per pipeline stage."""
        return self._virtual

    @property
    def num_chunks(self) -> int:
        """num_stages x num_virtual_pipeline_stages: the pieces the layers are cut into (chunk c runs on
        stage c % num_stages, so a stage holds non-contiguous chunks when there are virtual stages)."""
        return self._num_stages * self._virtual

    @property
    def segment_parts(self) -> list[int]:
        """Chunk boundaries: chunk c is layers[parts[c]:parts[c + 1]]."""
        return list(self._bounds)

    @property
    def loss_fn(self) -> Callable | None:
        return self._loss_fn

    def _apply(self, lo: int, hi: int, x: Any) -> Any:
        for kind, k in self._kinds[lo:hi]:
            x = self.run_function[k](x) if kind == "layer" else self._fns[k](x)
        return x

    def chunk_layers(self, chunk: int) -> list[Layer]:
        """The layers (with parameters) of chunk `chunk` (a stage when there are no virtual stages), in order."""
        lo, hi = self._bounds[chunk], self._bounds[chunk + 1]
        return [self.run_function[k] for kind, k in self._kinds[lo:hi] if kind == "layer"]

    def stage_layers(self, stage: int) -> list[Layer]:
        """The layers (with parameters) that pipeline stage `stage` holds: its chunks stage, stage +
        num_stages, ..., in order."""
        return [layer for c in range(stage, self.num_chunks, self._num_stages) for layer in self.chunk_layers(c)]

    def forward_chunk(self, chunk: int, x: Any) -> Any:
        """Chunk `chunk` alone applied to `x`."""
        return self._apply(self._bounds[chunk], self._bounds[chunk + 1], x)

    def forward_stage(self, stage: int, x: Any) -> Any:
        """Stage `stage` alone applied to `x` (its only chunk; with virtual stages use forward_chunk)."""
        if self._virtual > 1:
            raise ValueError(f"PipelineLayer.forward_stage: with {self._virtual} virtual stages a stage is "
                             f"{self._virtual} separate chunks; apply one with forward_chunk(chunk, x)")
        return self.forward_chunk(stage, x)

    def forward(self, x: Any) -> Any:
        """Every stage in turn: the sequential model."""
        return self._apply(0, len(self._kinds), x)

    def extra_repr(self) -> str:
        virtual = f", num_virtual_pipeline_stages={self._virtual}" if self._virtual > 1 else ""
        return f"num_stages={self._num_stages}{virtual}, segments={list(self._bounds)}"
