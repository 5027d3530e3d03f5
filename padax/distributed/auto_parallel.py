"""Paddle's auto-parallel API (2.6+/3.x): shard_layer, shard_optimizer, shard_dataloader, to_static.

The user marks layouts with ProcessMesh and placements (shard_tensor);
everything else is laid out by these helpers, and `to_static` compiles the
whole training step with padax.jit so that XLA's SPMD partitioner
completes the layouts and inserts the communication.

    mesh = dist.ProcessMesh([0, 1, 2, 3, 4, 5, 6, 7], dim_names=["x"])
    layer = dist.shard_layer(layer, mesh, shard_fn)        # shard_fn shard_tensor's chosen weights
    opt = dist.shard_optimizer(opt, dist.ShardingStage1("x", mesh))
    loader = dist.shard_dataloader(loader, mesh, shard_dims="x")
    model = dist.to_static(layer, loader, loss_fn, opt)
    for x, y in loader:
        loss = model(x, y)
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import padax as _padax
from padax.distributed._placements import _as_mesh
from padax.distributed.fleet import layout
from padax.distributed.fleet.optimizer import ShardedOptimizer
from padax.nn.layer.layers import Layer
from padax.runtime import tree as tree_util
from padax.runtime.sharding import NamedSharding, PartitionSpec

__all__ = ["shard_layer", "shard_optimizer", "shard_dataloader", "to_static", "DistModel", "ShardDataloader",
           "ShardingStage1", "ShardingStage2", "ShardingStage3", "Strategy"]


def _pm(mesh: Any) -> Any:
    return _as_mesh(mesh)


class _ShardedIO(Layer):
    """A layer with shard_layer's input_fn/output_fn applied around its forward."""

    def __init__(self, layer: Layer, process_mesh: Any, input_fn: Callable | None, output_fn: Callable | None):
        super().__init__()
        self._layer = layer
        self._process_mesh, self._input_fn, self._output_fn = process_mesh, input_fn, output_fn

    def forward(self, *inputs: Any) -> Any:
        if self._input_fn is not None:
            inputs = self._input_fn(inputs, self._process_mesh)
            inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
        out = self._layer(*inputs)
        return self._output_fn(out, self._process_mesh) if self._output_fn is not None else out

    def state_dict(self, *args: Any, **kwargs: Any):
        return self._layer.state_dict(*args, **kwargs)


def shard_layer(layer: Layer, process_mesh: Any, shard_fn: Callable | None = None, input_fn: Callable | None = None,
                output_fn: Callable | None = None) -> Layer:
    """Lay every parameter of `layer` out on `process_mesh`.

    `shard_fn(name, sublayer, process_mesh)` is called for every sublayer
    (name as in named_sublayers, "" for the layer itself) and may assign
    `dist.shard_tensor(...)` values to its parameters; every parameter it
    leaves is replicated on the mesh. `input_fn(inputs, mesh)` /
    `output_fn(outputs, mesh)` re-lay the inputs and outputs (the layer is then
    wrapped in one that applies them).

    Args:
        layer: the padax.nn.Layer whose parameters to lay out.
        process_mesh: the ProcessMesh.
        shard_fn: `shard_fn(name, sublayer, mesh)` called for every sublayer; it may assign `dist.shard_tensor(...)`
            parameters. Parameters it leaves are replicated.
        input_fn: `input_fn(inputs, mesh)` re-lays the inputs before each call.
        output_fn: `output_fn(outputs, mesh)` re-lays the outputs after each call.

    Returns:
        `layer` itself, its parameters now on the mesh; or a wrapping layer when input_fn/output_fn are given.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["mp"])
        >>> def shard_fn(name, sublayer, mesh):
        ...     if isinstance(sublayer, padax.nn.Linear):
        ...         sublayer.weight = dist.shard_tensor(sublayer.weight, mesh, [dist.Shard(1)])
        ...
        >>> net = dist.shard_layer(padax.nn.Linear(2, 4), pm, shard_fn)  # weight columns split over "mp"
        >>> net(padax.ones([1, 2])).shape
        (1, 4)
    """
    if not isinstance(layer, Layer):
        raise TypeError(f"shard_layer: expected a padax.nn.Layer, got {type(layer).__name__}")
    pm = _pm(process_mesh)
    if shard_fn is not None:
        for name, sub in [("", layer)] + list(layer.named_sublayers()):
            shard_fn(name, sub, pm)
    mesh = pm.mesh

    def place(x: Any) -> Any:
        s = getattr(x, "sharding", None)
        if isinstance(s, NamedSharding) and s.mesh == mesh:
            return x
        return layout.lay_out(x, NamedSharding(mesh, PartitionSpec()))
    placed = tree_util.map(place, layer)
    _copy_values(placed, layer)
    if input_fn is not None or output_fn is not None:
        return _ShardedIO(layer, pm, input_fn, output_fn)
    return layer


def _copy_values(src: Layer, dst: Layer) -> None:
    """Assign every parameter and buffer of `src` to the same place in `dst` (shard_layer works in place)."""
    for name, value in src.named_parameters():
        _set_by_path(dst, name, value)
    for name, value in src.named_buffers():
        _set_by_path(dst, name, value)


def _set_by_path(layer: Layer, path: str, value: Any) -> None:
    *subs, leaf = path.split(".")
    for s in subs:
        layer = getattr(layer, s)
    setattr(layer, leaf, value)


class _ShardingStage:
    stage = 0

    def __init__(self, sharding_mesh_dim: int | str, mesh: Any = None) -> None:
        self.sharding_mesh_dim, self.mesh = sharding_mesh_dim, mesh

    def axis(self, mesh: Any) -> str:
        names = list(mesh.axis_names)
        d = self.sharding_mesh_dim
        if isinstance(d, int):
            if not 0 <= d < len(names):
                raise ValueError(f"{type(self).__name__}: mesh dimension {d} is out of range for the mesh axes {names}")
            return names[d]
        if d not in names:
            raise ValueError(f"{type(self).__name__}: {d!r} is not a dimension of the mesh {names}")
        return d


class ShardingStage1(_ShardingStage):
    """shard_optimizer's shard_fn for ZeRO-1: optimizer slots split over one mesh dimension.

    Args:
        sharding_mesh_dim: the mesh dimension to split over, by index or name.
        mesh: the ProcessMesh; None uses the mesh the parameters live on.

    Returns:
        A shard_fn for `shard_optimizer`.

    Examples:
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([[0]], dim_names=["dp", "mp"])
        >>> stage = dist.ShardingStage1("dp", pm)
        >>> stage.stage, stage.axis(pm.mesh)
        (1, 'dp')
    """
    stage = 1


class ShardingStage2(_ShardingStage):
    """ZeRO-2: slots and gradients split over one mesh dimension.

    Args:
        sharding_mesh_dim: the mesh dimension to split over, by index or name.
        mesh: the ProcessMesh; None uses the mesh the parameters live on.

    Returns:
        A shard_fn for `shard_optimizer`.

    Examples:
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([[0]], dim_names=["dp", "mp"])
        >>> stage = dist.ShardingStage2(1)  # a mesh dimension by index
        >>> stage.stage, stage.axis(pm.mesh)
        (2, 'mp')
    """
    stage = 2


class ShardingStage3(_ShardingStage):
    """ZeRO-3: slots, gradients and parameters split over one mesh dimension.

    Args:
        sharding_mesh_dim: the mesh dimension to split over, by index or name.
        mesh: the ProcessMesh; None uses the mesh the parameters live on.

    Returns:
        A shard_fn for `shard_optimizer`.

    Examples:
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> stage = dist.ShardingStage3("dp")
        >>> stage.stage, stage.axis(pm.mesh)
        (3, 'dp')
    """
    stage = 3


class _AutoShardedOptimizer(ShardedOptimizer):
    """shard_optimizer's result: the mesh and sharding axis are read from the parameters at init."""

    def __init__(self, optimizer: Any, shard_fn: _ShardingStage | None) -> None:
        mesh = _pm(shard_fn.mesh).mesh if shard_fn is not None and shard_fn.mesh is not None else None
        super().__init__(optimizer, mesh, (), 0)
        self._shard_fn = shard_fn

    def _mesh_axis_names(self) -> tuple[str, ...]:
        dim = getattr(self._shard_fn, "sharding_mesh_dim", None)
        return (dim,) if isinstance(dim, str) else super()._mesh_axis_names()

    def init(self, params: Any) -> dict:
        if self._mesh is None:
            super()._record(params)  # finds the parameters' mesh
        if self._shard_fn is not None:
            self._stage = self._shard_fn.stage
            self._shard_axes = (self._shard_fn.axis(self._mesh),)
        return super().init(params)


def shard_optimizer(optimizer: Any, shard_fn: _ShardingStage | None = None,
                    gradient_accumulation_steps: int = 1) -> ShardedOptimizer:
    """`optimizer` whose state follows its parameters' layouts, or ZeRO-split by ShardingStage1/2/3.

    Args:
        optimizer: a padax optimizer.
        shard_fn: ShardingStage1/2/3 to ZeRO-split the state; None makes the state follow the parameters' layouts.
        gradient_accumulation_steps: only 1 is supported.

    Returns:
        A ShardedOptimizer with the wrapped optimizer's `init`/`step`.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> opt = dist.shard_optimizer(padax.optimizer.Momentum(0.1), dist.ShardingStage1("dp", pm))
        >>> w = {"w": padax.ones([4])}
        >>> state = opt.init(w)  # the velocity slot split over "dp"
        >>> w, state = opt.step(w, {"w": padax.ones([4])}, state)
        >>> w["w"].tolist()
        [0.9, 0.9, 0.9, 0.9]
    """
    if shard_fn is not None and not isinstance(shard_fn, _ShardingStage):
        raise TypeError("shard_optimizer: shard_fn must be dist.ShardingStage1/2/3(mesh_dim, mesh), got "
                        f"{type(shard_fn).__name__}")
    if gradient_accumulation_steps != 1:
        raise ValueError("shard_optimizer: gradient_accumulation_steps other than 1 is not supported; accumulate "
                         "over microbatches in the step (or use the pipeline schedules)")
    return _AutoShardedOptimizer(optimizer, shard_fn)


class ShardDataloader:
    """A DataLoader whose batches come out laid out on a mesh, split along dimension 0 over `shard_dims`.

    Args:
        dataloader: an iterable of batches (e.g. padax.io.DataLoader) yielding global batches.
        meshes: the ProcessMesh (or a list holding one mesh; per-input meshes are not supported).
        input_keys: for dict batches, the keys to keep (None keeps all).
        shard_dims: mesh dimension(s), by index or name, that dimension 0 of every array is split over; None replicates.
        is_dataset_splitted: only False is supported (padax's loader yields the global batch).

    Returns:
        An iterable of batches laid out on the mesh.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> ds = padax.io.TensorDataset([padax.to_tensor(np.arange(8.0, dtype="float32").reshape(4, 2))])
        >>> loader = dist.ShardDataloader(padax.io.DataLoader(ds, batch_size=2), pm, shard_dims="dp")
        >>> len(loader), [batch[0].tolist() for batch in loader][0]  # batches split along dimension 0 over "dp"
        (2, [[0.0, 1.0], [2.0, 3.0]])
    """

    def __init__(self, dataloader: Any, meshes: Any, input_keys: Sequence[str] | None = None,
                 shard_dims: Any = None, is_dataset_splitted: bool = False) -> None:
        if is_dataset_splitted:
            raise ValueError("shard_dataloader: is_dataset_splitted=True (each process loads its own part) is not "
                             "supported; padax's loader yields the global batch, which is split here")
        if isinstance(meshes, (list, tuple)):
            if len({id(m) for m in meshes}) > 1 and len(set(meshes)) > 1:
                raise ValueError("shard_dataloader: one mesh per input (pipeline meshes) is not supported; pass one "
                                 "ProcessMesh")
            meshes = meshes[0]
        self._loader = dataloader
        self._pm = _pm(meshes)
        self._input_keys = list(input_keys) if input_keys is not None else None
        if shard_dims is None:
            axes: tuple = ()
        else:
            dims = shard_dims if isinstance(shard_dims, (list, tuple)) else [shard_dims]
            axes = tuple(self._pm.dim_names[d] if isinstance(d, int) else d for d in dims)
            bad = [a for a in axes if a not in self._pm.dim_names]
            if bad:
                raise ValueError(f"shard_dataloader: shard_dims {bad} are not dimensions of the mesh "
                                 f"{self._pm.dim_names}")
        self._axes = axes

    def _lay_out(self, batch: Any) -> Any:
        mesh = self._pm.mesh
        if self._axes:
            return layout.shard_batch(batch, mesh, self._axes, "shard_dataloader")
        return tree_util.map(lambda x: layout.lay_out(x, NamedSharding(mesh, PartitionSpec())), batch)

    def __iter__(self):
        for batch in self._loader:
            if isinstance(batch, dict) and self._input_keys is not None:
                batch = {k: batch[k] for k in self._input_keys}
            yield self._lay_out(batch)

    def __call__(self):
        return iter(self)

    def __len__(self) -> int:
        return len(self._loader)


def shard_dataloader(dataloader: Any, meshes: Any, input_keys: Sequence[str] | None = None, shard_dims: Any = None,
                     is_dataset_splitted: bool = False) -> ShardDataloader:
    """Paddle's dist.shard_dataloader: batches split over the mesh dimension(s) `shard_dims`.

    Args:
        dataloader: an iterable of batches (e.g. padax.io.DataLoader) yielding global batches.
        meshes: the ProcessMesh (or a list holding one mesh; per-input meshes are not supported).
        input_keys: for dict batches, the keys to keep (None keeps all).
        shard_dims: mesh dimension(s), by index or name, that dimension 0 of every array is split over; None replicates.
        is_dataset_splitted: only False is supported (padax's loader yields the global batch).

    Returns:
        A `ShardDataloader` yielding batches laid out on the mesh.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> ds = padax.io.TensorDataset([padax.to_tensor(np.ones((4, 3), "float32"))])
        >>> loader = dist.shard_dataloader(padax.io.DataLoader(ds, batch_size=2), pm, shard_dims="dp")
        >>> [batch[0].shape for batch in loader]
        [(2, 3), (2, 3)]
    """
    return ShardDataloader(dataloader, meshes, input_keys, shard_dims, is_dataset_splitted)


class _ShardingConfig:
    def __init__(self) -> None:
        self.enable, self.stage, self.sharding_mesh_dim = False, 1, 0


class Strategy:
    """Paddle's auto-parallel Strategy; padax reads its `sharding` settings (enable, stage 1-3, and the
    mesh dimension to split over, `sharding_mesh_dim`).

    Args:
        config: a dict; its 'sharding' entry may set `enable`, `stage` (1-3) and `sharding_mesh_dim`.

    Returns:
        The strategy; other settings are not read.

    Examples:
        >>> import padax.distributed as dist
        >>> strategy = dist.Strategy({"sharding": {"enable": True, "stage": 2, "sharding_mesh_dim": "dp"}})
        >>> strategy.sharding.enable, strategy.sharding.stage, strategy.sharding.sharding_mesh_dim
        (True, 2, 'dp')
    """

    def __init__(self, config: dict | None = None) -> None:
        self.sharding = _ShardingConfig()
        for key, value in (config or {}).get("sharding", {}).items():
            if not hasattr(self.sharding, key):
                raise ValueError(f"Strategy: unknown sharding setting {key!r}; padax reads enable, stage and "
                                 "sharding_mesh_dim")
            setattr(self.sharding, key, value)


class DistModel:
    """to_static's result: a compiled train/eval/predict step holding the current model and optimizer state.

    In "train" mode (default with an optimizer) `model(inputs, labels)` runs
    one step and returns the loss; "eval" returns the loss only; "predict"
    the outputs. `state_dict()` gives the current parameters.

    Args:
        layer: the padax.nn.Layer to run.
        loss: `loss(outputs, *labels)`, or None for predict only.
        optimizer: an optimizer (wrapped by `shard_optimizer` if it is not already), or None.
        strategy: a Strategy whose sharding settings pick a ZeRO stage, or None.

    Returns:
        The model; call it on a batch (`model(inputs, labels)`) to run one compiled step of the current mode.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> net = padax.nn.Linear(2, 1)
        >>> model = dist.to_static(net, None, loss=padax.nn.MSELoss())  # no optimizer: evaluation mode
        >>> type(model).__name__
        'DistModel'
        >>> x, y = padax.ones([4, 2]), padax.zeros([4, 1])
        >>> bool(padax.allclose(model(x, y), ((net(x) - y) ** 2).mean()))  # one compiled loss evaluation
        True
    """

    def __init__(self, layer: Layer, loss: Callable | None, optimizer: Any, strategy: Strategy | None) -> None:
        if optimizer is not None and not isinstance(optimizer, ShardedOptimizer):
            optimizer = shard_optimizer(optimizer)
        if optimizer is not None and strategy is not None and strategy.sharding.enable:
            optimizer._shard_fn = {1: ShardingStage1, 2: ShardingStage2, 3: ShardingStage3}[
                strategy.sharding.stage](strategy.sharding.sharding_mesh_dim)
        self.network, self._loss, self._opt = layer, loss, optimizer
        self._opt_state = optimizer.init(layer) if optimizer is not None else None
        self._mode = "train" if optimizer is not None and loss is not None else \
            "eval" if loss is not None else "predict"

        def train_step(model, state, inputs, labels):
            def objective(m):
                return self._loss(m(*inputs), *labels)
            value, grads = _padax.value_and_grad(objective)(model)
            model, state = self._opt.step(model, grads, state)
            return model, state, value
        self._train = _padax.jit(train_step)
        self._eval = _padax.jit(lambda model, inputs, labels: self._loss(model(*inputs), *labels))
        self._predict = _padax.jit(lambda model, inputs: model(*inputs))

    def train(self) -> None:
        if self._opt is None or self._loss is None:
            raise ValueError("DistModel.train: to_static needs both loss and optimizer for training")
        self._mode = "train"

    def eval(self) -> None:
        if self._loss is None:
            raise ValueError("DistModel.eval: to_static needs a loss for evaluation")
        self._mode = "eval"

    def predict(self) -> None:
        self._mode = "predict"

    def __call__(self, *args: Any) -> Any:
        if self._mode == "predict":
            return self._predict(self.network, tuple(args))
        if len(args) < 2:
            raise ValueError(f"DistModel in {self._mode} mode takes (inputs..., labels); got {len(args)} argument(s)")
        inputs, labels = tuple(args[:-1]), (args[-1],)
        if self._mode == "eval":
            return self._eval(self.network, inputs, labels)
        self.network, self._opt_state, loss = self._train(self.network, self._opt_state, inputs, labels)
        return loss

    def state_dict(self, mode: str = "all") -> dict:
        """The current parameters (mode 'param' or 'all'), and with 'opt'/'all' the optimizer state leaves."""
        out = dict(self.network.state_dict()) if mode in ("all", "param") else {}
        if mode in ("all", "opt") and self._opt_state is not None:
            leaves = tree_util.leaves(self._opt_state)
            out.update({f"opt_state.{i}": v for i, v in enumerate(leaves)})
        return out


def to_static(layer: Layer, loader: Any = None, loss: Callable | None = None, optimizer: Any = None,
              strategy: Strategy | None = None, input_spec: Any = None) -> DistModel:
    """A DistModel running `layer` with `loss` and `optimizer` as one compiled SPMD step.

    The loader is not consumed (iterate it yourself and call the model on
    each batch); its batches are expected already laid out (shard_dataloader).

    Args:
        layer: the padax.nn.Layer to run.
        loader: accepted for Paddle compatibility; not consumed.
        loss: `loss(outputs, *labels)`, or None for predict only.
        optimizer: the optimizer, or None for eval/predict.
        strategy: a Strategy (its sharding settings are read).
        input_spec: accepted for Paddle compatibility; unused.

    Returns:
        A `DistModel` whose call runs one jitted train, eval or predict step.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> net = padax.nn.Linear(2, 3)
        >>> model = dist.to_static(net)  # no loss, no optimizer: prediction mode
        >>> model(padax.ones([4, 2])).shape
        (4, 3)
        >>> trainer = dist.to_static(net, None, padax.nn.MSELoss(), dist.shard_optimizer(padax.optimizer.SGD(0.1)))
        >>> x, y = padax.ones([4, 2]), padax.zeros([4, 3])
        >>> first = float(trainer(x, y))          # one compiled training step: loss, gradients, update
        >>> float(trainer(x, y)) < first
        True
    """
    return DistModel(layer, loss, optimizer, strategy)
