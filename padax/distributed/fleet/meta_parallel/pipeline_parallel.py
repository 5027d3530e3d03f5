"""Pipeline schedules over a 'pp' mesh axis, written with shard_map, ppermute and a scan over clock ticks.

The devices at position s of 'pp' run stage s of a PipelineLayer. Stages
may differ (an embedding first, a head last), so each stage's parameters
are packed into one row of a [num_stages, L] array split over 'pp' (one
per dtype); every device unpacks its own row and runs its stage through a
`switch` on its pp index. Activations travel to the next stage and
cotangents to the previous one with `ppermute`. Microbatch gradients are
accumulated; the loss is the mean over microbatches (and data replicas).

- FThenB (GPipe): all forward ticks, then the backward pass that autodiff
  derives from them (ppermute transposes to the reverse shift).
- 1F1B: every tick runs one forward and one backward microbatch, each stage
  keeping at most 2*num_stages-1 stage inputs (the backward recomputes the
  stage's forward from its stored input).
- VPP (interleaved, for a PipelineLayer with num_virtual_pipeline_stages V > 1):
  the layers are cut into num_stages*V chunks, chunk c on stage c % num_stages;
  microbatches circulate around the ring of stages V times, in groups of
  num_stages, so every tick runs one chunk (1/V of a stage) and the pipeline's
  fill and drain bubble shrinks V-fold; the backward pass is autodiff's.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

import padax as _padax
from padax.distributed.fleet import layout
from padax.distributed.fleet.meta_parallel.pp_layers import PipelineLayer
from padax.nn import Layer as _Layer
from padax.runtime import tree as tree_util
from padax.runtime.sharding import Mesh, PartitionSpec as P

SCHEDULES = ("FThenB", "1F1B", "VPP")


class _Packing:
    """Each chunk's parameter leaves packed into one padded row per dtype, and back.

    The packed arrays are [num_stages, V, width]: stage s's row v holds chunk v * num_stages + s.
    """

    def __init__(self, model: PipelineLayer):
        self.S, self.V = model.num_stages, model.num_virtual_pipeline_stages
        self.chunks = [model.chunk_layers(c) for c in range(model.num_chunks)]
        self.flat = [tree_util.flatten(layers) for layers in self.chunks]
        dts = []
        for leaves, _ in self.flat:
            for x in leaves:
                if np.dtype(x.dtype) not in dts:
                    dts.append(np.dtype(x.dtype))
        self.dtypes = dts
        self.width = {d: max(1, max(sum(int(np.prod(x.shape)) for x in leaves if np.dtype(x.dtype) == d)
                                    for leaves, _ in self.flat)) for d in dts}

    def pack(self, model_chunks: Sequence[Sequence[Any]]) -> dict:
        """{dtype name: [num_stages, V, width]} from per-chunk lists of layers."""
        out = {}
        for d in self.dtypes:
            rows = []
            for layers in model_chunks:
                parts = [_padax.reshape(x, [-1]) for x in tree_util.leaves(layers) if np.dtype(x.dtype) == d]
                n = sum(int(np.prod(p.shape)) for p in parts)
                if n < self.width[d]:
                    parts.append(_padax.zeros([self.width[d] - n], d))
                rows.append(_padax.concat(parts) if len(parts) > 1 else parts[0])
            out[d.name] = _padax.stack(rows).reshape([self.V, self.S, self.width[d]]).transpose([1, 0, 2])
        return out

    def unpack_chunk(self, c: int, rows: dict) -> list:
        """Chunk c's layers rebuilt from its packed rows ({dtype name: [width]})."""
        leaves, treedef = self.flat[c]
        offsets = {d.name: 0 for d in self.dtypes}
        out = []
        for x in leaves:
            name, n = np.dtype(x.dtype).name, int(np.prod(x.shape))
            o = offsets[name]
            out.append(rows[name][o:o + n].reshape(list(x.shape)))
            offsets[name] = o + n
        return treedef.unflatten(out)

    def unpack_all(self, packed: dict) -> list:
        """Per chunk, its layers from the full packed arrays ({dtype name: [num_stages, V, width]})."""
        return [self.unpack_chunk(c, {k: v[c % self.S, c // self.S] for k, v in packed.items()})
                for c in range(len(self.chunks))]


def _run_chunk(model: PipelineLayer, c: int, layers: Sequence[Any], x: Any) -> Any:
    lo, hi = model.segment_parts[c], model.segment_parts[c + 1]
    it = iter(layers)
    for kind, k in model._kinds[lo:hi]:
        x = next(it)(x) if kind == "layer" else model._fns[k](x)
    return x


def _boundary_aval(model: PipelineLayer, pack: _Packing, x_mb: Any) -> Any:
    """The shape/dtype passed between chunks (the same at every boundary, or an error naming them)."""
    C = model.num_chunks
    cur = _padax.eval_shape(lambda x: _run_chunk(model, 0, pack.chunks[0], x), x_mb)
    first = cur
    for c in range(1, C - 1):
        nxt = _padax.eval_shape(lambda x, c=c: _run_chunk(model, c, pack.chunks[c], x), cur)
        if (tuple(nxt.shape), nxt.dtype) != (tuple(first.shape), first.dtype):
            what = "stage" if C == model.num_stages else "chunk"
            raise ValueError(f"PipelineLayer: {what} {c} outputs {nxt.dtype}{list(nxt.shape)} but {what} 0 outputs "
                             f"{first.dtype}{list(first.shape)}; every stage boundary must pass the same shape "
                             "(ppermute moves one array between stages)")
        cur = nxt
    return first


def pipeline_value_and_grad(model: PipelineLayer, inputs: Any, labels: Any, *, mesh: Mesh,
                            num_microbatches: int, schedule: str = "1F1B", pp_axis: str = "pp",
                            data_axes: Sequence[str] = (), loss_fn: Callable | None = None) -> tuple[Any, Any]:
    """(mean loss over microbatches, gradient shaped like `model`) of `model` run as a pipeline.

    `inputs`/`labels` hold the whole batch (first dimension split into
    `num_microbatches`, and over `data_axes`); call it inside `padax.jit`.
    Equal, to rounding, to value_and_grad of the sequential model's mean
    microbatch loss.

    Args:
        model: the PipelineLayer.
        inputs, labels: the whole batch (pytrees of arrays).
        mesh: the Mesh; its `pp_axis` size must equal the number of stages.
        num_microbatches: how many pieces dimension 0 of the batch is cut into.
        schedule: 'FThenB', '1F1B', or 'VPP' (for layers with virtual stages).
        pp_axis: the pipeline mesh axis.
        data_axes: mesh axes the batch is also split over (data parallelism).
        loss_fn: `loss_fn(output, label)`; None uses the PipelineLayer's.

    Returns:
        A tuple (mean microbatch loss, gradient pytree shaped like `model`).

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> mesh = fleet.get_hybrid_communicate_group().mesh
        >>> model = mpu.PipelineLayer([mpu.LayerDesc(padax.nn.Linear, 2, 4), mpu.LayerDesc(padax.nn.Linear, 4, 1)],
        ...                           num_stages=1, loss_fn=padax.nn.MSELoss())
        >>> x, y = padax.ones([4, 2]), padax.zeros([4, 1])
        >>> loss, grads = padax.jit(lambda m: mpu.pipeline_value_and_grad(m, x, y, mesh=mesh, num_microbatches=2))(model)
        >>> bool(padax.allclose(loss, padax.nn.MSELoss()(model(x), y)))  # the mean microbatch loss
        True
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"pipeline schedule must be one of {SCHEDULES}, got {schedule!r}")
    V = model.num_virtual_pipeline_stages
    if (schedule == "VPP") != (V > 1):
        raise ValueError(f"pipeline: the interleaved schedule 'VPP' runs a PipelineLayer with "
                         f"num_virtual_pipeline_stages > 1 and FThenB/1F1B one without; got schedule {schedule!r} "
                         f"for num_virtual_pipeline_stages={V}")
    loss_fn = loss_fn or model.loss_fn
    if loss_fn is None:
        raise ValueError("pipeline: the PipelineLayer has no loss_fn; pass loss_fn=")
    S = model.num_stages
    if mesh.shape.get(pp_axis, 1) != S:
        raise ValueError(f"pipeline: the PipelineLayer has {S} stages but the mesh axis {pp_axis!r} has "
                         f"{mesh.shape.get(pp_axis, 1)} devices; they must be equal")
    others = [a for a in mesh.axis_names if a != pp_axis and a not in data_axes and mesh.shape[a] > 1]
    if others:
        raise ValueError(f"pipeline: mesh axes {others} (besides {pp_axis!r} and the data axes {tuple(data_axes)}) "
                         "have more than one device; padax's pipeline schedules combine only with data parallelism")
    M = int(num_microbatches)
    if V > 1 and M % S:
        raise ValueError(f"pipeline: the interleaved schedule sends microbatches around the {S} stages in groups "
                         f"of {S}; num_microbatches ({M}) must be a multiple of {S}")
    B = inputs.shape[0]
    data = layout.live_axes(mesh, data_axes)
    n_data = layout.axes_product(mesh, data)
    if B % (M * n_data):
        raise ValueError(f"pipeline: the batch ({B}) must split into {M} microbatches over {n_data} data-parallel "
                         f"replicas (divisible by {M * n_data})")
    pack = _Packing(model)
    packed = pack.pack(pack.chunks)
    xs = inputs.reshape([M, B // M] + list(inputs.shape[1:]))
    ys = labels.reshape([M, B // M] + list(labels.shape[1:]))
    dspec = layout.spec_entry(data)
    mb_local = _padax.ShapeDtypeStruct([B // M // n_data] + list(inputs.shape[1:]), inputs.dtype)
    act = _boundary_aval(model, pack, mb_local) if model.num_chunks > 1 else None
    if schedule == "VPP":
        local = _interleaved_body(model, pack, loss_fn, S, V, M, act, pp_axis, data)
    else:
        body = _fthenb_body if schedule == "FThenB" else _one_f_one_b_body
        local = body(model, pack, loss_fn, S, M, act, pp_axis, data)
    packed_spec = {k: P(pp_axis, None, None) for k in packed}
    fn = _padax.shard_map(local, mesh, in_specs=(packed_spec, P(None, dspec), P(None, dspec)),
                          out_specs=(P(), packed_spec), check_rep=False)
    loss, gpacked = fn(packed, xs, ys)
    return loss, _grads_like(model, pack.unpack_all(gpacked))


def _grads_like(model: PipelineLayer, grads_chunks: list) -> Any:
    """A model-shaped gradient from per-chunk lists of gradient layers."""
    by_id = {}
    for c, layers in enumerate(grads_chunks):
        for orig, g in zip(model.chunk_layers(c), layers):
            by_id[id(orig)] = g
    glist = [by_id[id(layer)] for layer in model.run_function]
    zeros = _padax.tree.map(_padax.zeros_like, model)
    zeros.run_function = type(model.run_function)(glist)
    return zeros


def _branches(model, pack, loss_fn, S, act):
    """Per chunk (stage): (rows, x_mb, received activation, y_mb) -> (activation to send, microbatch loss)."""

    def make(s):
        def branch(rows, x, recv, y):
            layers = pack.unpack_chunk(s, rows)
            out = _run_chunk(model, s, layers, x if s == 0 else recv)
            if s == S - 1:
                zero_act = _padax.zeros(list(act.shape), act.dtype) if act is not None else _padax.zeros([])
                return zero_act, _padax.mean(loss_fn(out, y)).astype("float32")
            return out, _padax.zeros([], "float32")
        return branch
    return [make(s) for s in range(S)]


def _local_rows(packed: dict) -> dict:
    """The device's own packed row (its only chunk)."""
    return {k: v[0, 0] for k, v in packed.items()}


def _fthenb_body(model, pack, loss_fn, S, M, act, pp_axis, data):
    lax = _padax.lax
    branches = _branches(model, pack, loss_fn, S, act)
    fwd_perm = [(i, i + 1) for i in range(S - 1)]

    def local_loss(rows, xs, ys):
        s = lax.axis_index(pp_axis) if S > 1 else 0
        init_act = _padax.zeros(list(act.shape), act.dtype) if act is not None else _padax.zeros([])

        def tick(carry, t):
            recv, total = carry
            m = t - s
            valid = (m >= 0) & (m < M)
            x_t = lax.dynamic_index_in_dim(xs, _padax.clip(t, 0, M - 1), 0, keepdims=False)
            y_t = lax.dynamic_index_in_dim(ys, _padax.clip(m, 0, M - 1), 0, keepdims=False)
            out, loss = lax.switch(s, branches, rows, x_t, recv, y_t) if S > 1 else branches[0](rows, x_t, recv, y_t)
            total = total + _padax.where(valid, loss, 0.0)
            nxt = lax.ppermute(out, pp_axis, fwd_perm) if S > 1 else out
            return (nxt, total), None

        (_, total), _ = lax.scan(tick, (init_act, _padax.zeros([], "float32")), _padax.arange(M + S - 1))
        return total / M

    def local(packed, xs, ys):
        rows = _local_rows(packed)
        loss, g = _padax.value_and_grad(local_loss)(rows, xs, ys)
        return _finish(loss, g, pp_axis, data, S)
    return local


def _finish(loss, g, pp_axis, data, S):
    lax = _padax.lax
    if S > 1:
        loss = lax.psum(loss, pp_axis)
    if data:
        loss = lax.pmean(loss, data)
        g = lax.pmean(g, data)
    return loss, {k: v.reshape([1, -1, v.shape[-1]]) for k, v in g.items()}


def _one_f_one_b_body(model, pack, loss_fn, S, M, act, pp_axis, data):
    lax = _padax.lax
    branches = _branches(model, pack, loss_fn, S, act)
    K = max(1, min(M, 2 * S - 1))
    fwd_perm = [(i, i + 1) for i in range(S - 1)]
    bwd_perm = [(i + 1, i) for i in range(S - 1)]

    def make_bwd(s):
        def bwd(rows, x, inp, ct, y):
            if s == 0:
                f = lambda r: branches[s](r, x, inp, y)  # noqa: E731  (the stage input is the microbatch)
                (out, loss), vjp_fn = _padax.vjp(f, rows)
                ct_out = ct if s < S - 1 else _padax.zeros_like(out)
                (g_rows,) = vjp_fn((ct_out, _padax.ones([], "float32") / M))
                return g_rows, _padax.zeros_like(inp), loss
            f = lambda r, a: branches[s](r, x, a, y)  # noqa: E731
            (out, loss), vjp_fn = _padax.vjp(f, rows, inp)
            ct_out = ct if s < S - 1 else _padax.zeros_like(out)
            g_rows, g_inp = vjp_fn((ct_out, _padax.ones([], "float32") / M))
            return g_rows, g_inp, loss
        return bwd
    bwds = [make_bwd(s) for s in range(S)]

    def local(packed, xs, ys):
        rows = _local_rows(packed)
        s = lax.axis_index(pp_axis) if S > 1 else 0
        zero_act = _padax.zeros(list(act.shape), act.dtype) if act is not None else _padax.zeros([])
        stash0 = _padax.zeros([K] + list(zero_act.shape), zero_act.dtype)
        g0 = tree_util.map(_padax.zeros_like, rows)

        def tick(carry, t):
            recv_act, recv_ct, stash, g_acc, total = carry
            m_f = t - s
            valid_f = (m_f >= 0) & (m_f < M)
            slot_f = _padax.clip(m_f, 0, M - 1) % K
            stash = _padax.where(valid_f, lax.dynamic_update_slice_in_dim(stash, recv_act[None], slot_f, 0), stash)
            x_f = lax.dynamic_index_in_dim(xs, _padax.clip(m_f, 0, M - 1), 0, keepdims=False)
            y_f = lax.dynamic_index_in_dim(ys, _padax.clip(m_f, 0, M - 1), 0, keepdims=False)
            out, _ = lax.switch(s, branches, rows, x_f, recv_act, y_f) if S > 1 else \
                branches[0](rows, x_f, recv_act, y_f)
            m_b = t - (2 * S - 2 - s)
            valid_b = (m_b >= 0) & (m_b < M)
            mb = _padax.clip(m_b, 0, M - 1)
            inp = lax.dynamic_index_in_dim(stash, mb % K, 0, keepdims=False)
            x_b = lax.dynamic_index_in_dim(xs, mb, 0, keepdims=False)
            y_b = lax.dynamic_index_in_dim(ys, mb, 0, keepdims=False)
            g_rows, ct_in, loss = lax.switch(s, bwds, rows, x_b, inp, recv_ct, y_b) if S > 1 else \
                bwds[0](rows, x_b, inp, recv_ct, y_b)
            g_acc = tree_util.map(lambda a, g: a + _padax.where(valid_b, g, _padax.zeros_like(g)), g_acc, g_rows)
            total = total + _padax.where(valid_b, loss, 0.0)
            ct_in = _padax.where(valid_b, ct_in, _padax.zeros_like(ct_in))
            if S > 1:
                out = lax.ppermute(out, pp_axis, fwd_perm)
                ct_in = lax.ppermute(ct_in, pp_axis, bwd_perm)
            return (out, ct_in, stash, g_acc, total), None

        init = (zero_act, zero_act, stash0, g0, _padax.zeros([], "float32"))
        (_, _, _, g, total), _ = lax.scan(tick, init, _padax.arange(M + 2 * S - 2))
        return _finish(total / M, g, pp_axis, data, S)
    return local


def _interleaved_body(model, pack, loss_fn, S, V, M, act, pp_axis, data):
    """The circular (interleaved) schedule: at tick t stage s runs microbatch m's chunk v * S + s, where
    u = t - s = g*S*V + v*S + i and m = g*S + i (group g of S microbatches, i-th in it): each microbatch
    goes around the ring of stages V times, one chunk per tick, and no stage is asked for two at once."""
    lax = _padax.lax
    C = S * V
    branches = _branches(model, pack, loss_fn, C, act)
    ring = [(i, (i + 1) % S) for i in range(S)]

    def local_loss(rows, xs, ys):
        s = lax.axis_index(pp_axis)
        init_act = _padax.zeros(list(act.shape), act.dtype)

        def tick(carry, t):
            recv, total = carry
            u = _padax.maximum(t - s, 0)
            v = (u // S) % V
            m = (u // C) * S + u % S
            valid = (t >= s) & (m < M)
            mb = _padax.clip(m, 0, M - 1)
            row = {k: lax.dynamic_index_in_dim(r, v, 0, keepdims=False) for k, r in rows.items()}
            x_t = lax.dynamic_index_in_dim(xs, mb, 0, keepdims=False)
            y_t = lax.dynamic_index_in_dim(ys, mb, 0, keepdims=False)
            out, loss = lax.switch(v * S + s, branches, row, x_t, recv, y_t)
            total = total + _padax.where(valid, loss, 0.0)
            return (lax.ppermute(out, pp_axis, ring), total), None

        (_, total), _ = lax.scan(tick, (init_act, _padax.zeros([], "float32")), _padax.arange(M * V + S - 1))
        return total / M

    def local(packed, xs, ys):
        rows = {k: v[0] for k, v in packed.items()}
        loss, g = _padax.value_and_grad(local_loss)(rows, xs, ys)
        return _finish(loss, g, pp_axis, data, S)
    return local


class PipelineParallel(_Layer):
    """fleet.distributed_model of a PipelineLayer: its schedule, microbatch count and mesh (the schedule is
    pp_configs' schedule_mode, or 'VPP' for a layer with virtual stages). A Layer holding the PipelineLayer
    as its sublayer `_layers`, as Paddle's: parameters(), named_parameters() ('_layers.' names),
    state_dict()/set_state_dict(), train()/eval() act on the pipelined layers.

    `value_and_grad(inputs, labels)` gives the mean loss and model-shaped
    gradients (call inside padax.jit); `train_batch([inputs, labels],
    optimizer, opt_state)` one pure step returning (loss, new model, new state).

    Args:
        layers: the PipelineLayer.
        hcg: fleet's HybridCommunicateGroup (the mesh and data axes).
        strategy: the DistributedStrategy whose pp_configs give accumulate_steps and schedule_mode.

    Returns:
        The pipelined model (`value_and_grad`, `train_batch`; calling it runs the layers in sequence).

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> strategy = fleet.DistributedStrategy()
        >>> strategy.hybrid_configs = {"pp_degree": 1, "pp_configs": {"accumulate_steps": 2}}
        >>> fleet.init(is_collective=True, strategy=strategy)
        >>> model = mpu.PipelineLayer([mpu.LayerDesc(padax.nn.Linear, 2, 1)], loss_fn=padax.nn.MSELoss())
        >>> pp = fleet.distributed_model(model)
        >>> type(pp).__name__, pp.accumulate_steps, pp.schedule_mode
        ('PipelineParallel', 2, '1F1B')
        >>> opt = padax.optimizer.SGD(learning_rate=0.1)
        >>> x, y = padax.ones([4, 2]), padax.zeros([4, 1])
        >>> loss, new_model, state = padax.jit(lambda m, s: pp.train_batch([x, y], opt, s, m))(model, opt.init(model))
        >>> bool(padax.allclose(loss, padax.nn.MSELoss()(model(x), y)))
        True
    """

    def __init__(self, layers: PipelineLayer, hcg: Any, strategy: Any) -> None:
        super().__init__()
        if not isinstance(layers, PipelineLayer):
            raise TypeError(f"PipelineParallel: expected a PipelineLayer, got {type(layers).__name__}")
        self._layers = layers
        self._mesh = hcg.mesh
        self._data_axes = hcg.data_axes
        cfg = strategy.pp_configs if strategy is not None else {"accumulate_steps": 1, "schedule_mode": "1F1B"}
        self.accumulate_steps = int(cfg["accumulate_steps"])
        self.micro_batch_size = cfg.get("micro_batch_size")
        self.schedule_mode = "VPP" if layers.num_virtual_pipeline_stages > 1 else cfg["schedule_mode"]
        if self.schedule_mode not in SCHEDULES:
            raise ValueError(f"pp_configs schedule_mode must be one of {SCHEDULES}, got {self.schedule_mode!r}")

    @property
    def model(self) -> PipelineLayer:
        return self._layers

    def value_and_grad(self, model: PipelineLayer, inputs: Any, labels: Any) -> tuple[Any, Any]:
        """(mean microbatch loss, model-shaped gradients) by the configured schedule."""
        if self.micro_batch_size is not None:
            n_data = layout.axes_product(self._mesh, layout.live_axes(self._mesh, self._data_axes))
            want = int(self.micro_batch_size) * self.accumulate_steps * n_data
            if inputs.shape[0] != want:
                raise ValueError(f"PipelineParallel: a batch of {inputs.shape[0]} rows, but pp_configs asks for "
                                 f"micro_batch_size {self.micro_batch_size} x accumulate_steps "
                                 f"{self.accumulate_steps} x {n_data} data replicas = {want}")
        return pipeline_value_and_grad(model, inputs, labels, mesh=self._mesh,
                                       num_microbatches=self.accumulate_steps, schedule=self.schedule_mode,
                                       data_axes=self._data_axes)

    def train_batch(self, data: Sequence[Any], optimizer: Any, opt_state: Any, model: PipelineLayer | None = None
                    ) -> tuple[Any, PipelineLayer, Any]:
        """One pipelined step on `data` = [inputs, labels]: (loss, new model, new optimizer state)."""
        model = model if model is not None else self._layers
        loss, grads = self.value_and_grad(model, data[0], data[1])
        new_model, new_state = optimizer.step(model, grads, opt_state)
        return loss, new_model, new_state

    def forward(self, x: Any) -> Any:
        return self._layers(x)


class PipelineParallelWithInterleave(PipelineParallel):
    """Paddle's name for the pipeline of a PipelineLayer with virtual stages (the interleaved 'VPP'
    schedule, which PipelineParallel also picks for such a layer).

    Args:
        layers: a PipelineLayer with num_virtual_pipeline_stages > 1.
        hcg: fleet's HybridCommunicateGroup.
        strategy: the DistributedStrategy.

    Returns:
        The pipelined model, run with the interleaved 'VPP' schedule.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> strategy = fleet.DistributedStrategy()
        >>> strategy.hybrid_configs = {"pp_degree": 1, "pp_configs": {"accumulate_steps": 2}}
        >>> fleet.init(is_collective=True, strategy=strategy)
        >>> model = mpu.PipelineLayer([mpu.LayerDesc(padax.nn.Linear, 2, 2), mpu.LayerDesc(padax.nn.Linear, 2, 1)],
        ...                           loss_fn=padax.nn.MSELoss(), num_virtual_pipeline_stages=2)
        >>> pp = mpu.PipelineParallelWithInterleave(model, fleet.get_hybrid_communicate_group(), strategy)
        >>> pp.schedule_mode, model.num_chunks
        ('VPP', 2)
        >>> opt = padax.optimizer.SGD(learning_rate=0.1)
        >>> x, y = padax.ones([4, 2]), padax.zeros([4, 1])
        >>> loss, new_model, state = padax.jit(lambda m, s: pp.train_batch([x, y], opt, s, m))(model, opt.init(model))
        >>> bool(padax.allclose(loss, padax.nn.MSELoss()(model(x), y)))      # the sequential model's loss
        True
    """

    def __init__(self, layers: PipelineLayer, hcg: Any, strategy: Any) -> None:
        if layers.num_virtual_pipeline_stages < 2:
            raise ValueError("PipelineParallelWithInterleave: the PipelineLayer has no virtual stages; build it "
                             "with num_virtual_pipeline_stages > 1 (or use PipelineParallel)")
        super().__init__(layers, hcg, strategy)
