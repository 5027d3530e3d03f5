"""`padax.Model`: Paddle's high-level training API (prepare / fit / evaluate / predict / save / load).

    model = padax.Model(net)
    model.prepare(padax.optimizer.Adam(1e-3), nn.CrossEntropyLoss(), padax.metric.Accuracy())
    model.fit(train_dataset, eval_dataset, batch_size=64, epochs=5, verbose=1)

Underneath it is the functional training step of docs/nn_state.md: `fit` compiles one train step
and one eval step (padax/hapi/steps.py) and carries the network, the optimizer state, the Dropout
key and the loss scale as a pytree from step to step. The Layer given to `Model` is kept up to date:
reading `model.network` (or using the Layer after `fit`) sees the trained values.

`save(path)` writes `path.pdparams` (the state_dict, as Paddle) and `path.pdopt`, a resumable
checkpoint (padax/hapi/checkpoint.py) with the parameters and buffers again, the optimizer state,
the learning rate and schedule, the step, the data loader's position, the Dropout key and padax's
global random key. `load(path)` restores all of it and the next `fit` continues where the saved run
stopped (mid-epoch included), giving the same parameters bit for bit on CPU as a run that never
stopped; `load(path, reset_optimizer=True)` loads the weights alone and starts fresh. Both files are
written atomically (.pdparams first), and `load` takes the weights from .pdopt when it resumes: the
.pdopt alone is a consistent checkpoint, so if a save is killed between the two files, `load` still
resumes the previous one whole (the price: the weights are on disk twice).

Differences from Paddle: `stop_training = True` set in a callback stops after the current batch
(Paddle: after the epoch); the default LRScheduler callback runs before the other callbacks at each
batch end, so a checkpoint taken there holds the already-advanced schedule.
"""
from __future__ import annotations

import inspect
import json
import os
import warnings
from typing import Any, Callable, Sequence

import numpy as np

import padax
import padax.io
import padax.io.sampler
import padax.metric
import padax.nn
import padax.optimizer.lr
import padax.serialization
from padax import tree as tree_util
from padax.hapi import checkpoint as ckpt
from padax.hapi.amp_wiring import NO_AMP, amp_plan, parse_amp_configs
from padax.hapi.callbacks import EarlyStopping, config_callbacks
from padax.hapi.model_summary import summary as _summary
from padax.hapi.steps import make_eval_step, make_predict_step, make_train_step, to_list

_SUFFIXES = ("", ".pdparams", ".pdopt", ".pdmodel")


def _strip_suffix(path: str) -> str:
    base, ext = os.path.splitext(os.fspath(path))
    if ext not in _SUFFIXES:
        raise ValueError(f"Model.load: unknown suffix {ext!r} in {path!r}; give the path prefix used with save")
    return base


def _host_lr(optimizer: Any) -> float:
    """The optimizer's current rate on the host: the schedule's `last_lr`, or its fixed rate."""
    return float(optimizer.get_lr())


def _json_default(v: Any) -> Any:
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    raise TypeError(f"Model.save: cannot store {type(v).__name__} in a checkpoint")


def _write_back(dst: Any, src: Any) -> None:
    """Copy the parameter and buffer values of `src` into the same-structured layer `dst` (in place)."""
    if dst is src:
        return
    for a, b in zip(dst.sublayers(include_self=True), src.sublayers(include_self=True)):
        a.__dict__["_parameters"].update(b.__dict__["_parameters"])
        a.__dict__["_buffers"].update(b.__dict__["_buffers"])


class Model:
    """Paddle's `paddle.Model`: wraps a Layer with its optimizer, loss and metrics for training.

    Args:
        network: the padax.nn.Layer to train.
        inputs: InputSpec(s) of the network's inputs (optional): how many batch fields are inputs, and the
            shapes for `summary()` and `save(path, training=False)`.
        labels: InputSpec(s) of the labels (optional; kept as in Paddle).

    Returns:
        The model; call `prepare`, then `fit`, `evaluate`, `predict`.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> x = np.linspace(-1, 1, 8, dtype="float32").reshape(8, 1)
        >>> data = padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(3 * x + 1)])
        >>> net = padax.nn.Linear(1, 1)
        >>> model = padax.Model(net)
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.5), padax.nn.MSELoss())
        >>> model.fit(data, batch_size=8, epochs=30, verbose=0, shuffle=False)
        >>> round(float(net.weight[0, 0]), 4), round(float(net.bias[0]), 4)  # learned y = 3 x + 1
        (3.0, 1.0)
        >>> model.predict(padax.io.TensorDataset([padax.to_tensor(x[:1])]), batch_size=1, verbose=0,
        ...               stack_outputs=True)[0].tolist()  # 3 * -1 + 1
        [[-2.0]]
    """

    def __init__(self, network: Any, inputs: Any = None, labels: Any = None):
        if not isinstance(network, padax.nn.Layer):
            raise TypeError(f"Model: network must be a padax.nn.Layer, got {type(network).__name__}")
        self.mode = "train"
        self._network = network          # the user's Layer, kept up to date
        self._inputs, self._labels = to_list(inputs), to_list(labels)
        self._optimizer: Any = None
        self._loss: Any = None
        self._metrics: list = []
        self._prepared = False
        self._amp_config = parse_amp_configs(None)
        self._plan = NO_AMP
        self._state: dict | None = None  # the training pytree (network, opt_state, key, scaler, grad_acc)
        self._stale = False              # the user's Layer lags behind self._state["network"]
        self._steps: dict = {}
        self._train_loader: Any = None
        self._train_iter: Any = None
        self._epoch = 0                  # the epoch fit is in (or the next one to run)
        self._resume: dict | None = None  # a loaded position for the next fit
        self._pending: dict | None = None  # training state loaded before prepare
        self.stop_training = False

    # -- the network ---------------------------------------------------------------------------
    @property
    def network(self) -> Any:
        """The Layer being trained, with the latest values."""
        if self._stale and self._state is not None:
            _write_back(self._network, self._state["network"])
            self._stale = False
        return self._network

    @network.setter
    def network(self, value: Any) -> None:
        self._network, self._state, self._stale, self._steps = value, None, False, {}

    def parameters(self, *args: Any, **kwargs: Any) -> list:
        """The network's parameters (Paddle's `Model.parameters()`)."""
        return self.network.parameters(*args, **kwargs)

    def _n_inputs(self) -> int:
        if self._inputs:
            return len(self._inputs)
        params = inspect.signature(type(self._network).forward).parameters.values()
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return max(len(positional) - 1, 1)  # less `self`

    # -- prepare -------------------------------------------------------------------------------
    def prepare(self, optimizer: Any = None, loss: Any = None, metrics: Any = None, amp_configs: Any = None) -> None:
        """Set the optimizer, the loss (a Layer or a function of (*outputs, *labels)) and the metrics."""
        if loss is not None and not (isinstance(loss, padax.nn.Layer) or callable(loss)):
            raise TypeError("Model.prepare: 'loss' must be a padax.nn.Layer or a callable function, got "
                            f"{type(loss).__name__}")
        metrics = to_list(metrics)
        for m in metrics:
            if not isinstance(m, padax.metric.Metric):
                raise TypeError(f"Model.prepare: {type(m).__name__} is not a subclass of padax.metric.Metric")
        self._amp_config = parse_amp_configs(amp_configs)
        self._plan, network, optimizer = amp_plan(self._amp_config, self.network, optimizer)
        self._optimizer, self._loss, self._metrics = optimizer, loss, metrics
        self._network = network
        self._state, self._steps, self._prepared = None, {}, True
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._restore_training(pending, skip_mismatch=False)

    def _require_prepared(self, what: str, need_optimizer: bool = False) -> None:
        if not self._prepared:
            raise RuntimeError(f"Model.{what}: the model is not prepared; call model.prepare(optimizer, loss, "
                               f"metrics) before {what}")
        if need_optimizer and (self._optimizer is None or self._loss is None):
            raise RuntimeError(f"Model.{what}: training needs an optimizer and a loss; pass both to "
                               "model.prepare(optimizer, loss, ...)")

    def _train_state(self) -> dict:
        if self._state is None:
            net = self._network.train()
            self._state = {"network": net, "opt_state": self._optimizer.init(net),
                           "key": padax.random.key(padax.io.sampler.global_seed()),
                           "scaler": self._plan.scaler_state(), "grad_acc": None}
        return self._state

    def _step(self, name: str) -> Callable:
        if name not in self._steps:
            if name == "train":
                self._steps[name] = make_train_step(self._loss, self._optimizer, self._metrics, self._plan)
            elif name == "eval":
                self._steps[name] = make_eval_step(self._loss, self._metrics, self._plan)
            else:
                self._steps[name] = make_predict_step(self._plan)
        return self._steps[name]

    def _eval_network(self) -> Any:
        net = self._state["network"] if self._state is not None else self._network
        return net.eval()

    # -- one batch -------------------------------------------------------------------------------
    @staticmethod
    def _tensors(xs: Any) -> list:
        return [x if isinstance(x, padax.Tensor) else padax.to_tensor(x) for x in to_list(xs)]

    def _metric_updates(self, metric_outs: list) -> list:
        return [m.update(*[np.asarray(o) for o in outs]) for m, outs in zip(self._metrics, metric_outs)]

    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        """One optimisation step on a batch: the losses (numpy), and the metrics' batch values if any."""
        out = self._train_batch(inputs, labels, update)
        self.network  # noqa: B018  (the user's Layer gets the new values)
        return out

    def _train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        self._require_prepared("train_batch", need_optimizer=True)
        state = self._train_state()
        if not state["network"].training:
            state["network"] = state["network"].train()
        lr = np.asarray(_host_lr(self._optimizer), np.float32)
        self._state, losses, metric_outs = self._step("train")(state, self._tensors(inputs), self._tensors(labels),
                                                               lr, update=bool(update))
        self._stale = True
        self.mode = "train"
        losses = [np.asarray(l) for l in losses]
        metrics = self._metric_updates(metric_outs)
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        """Loss and metrics on a batch in eval mode (no update)."""
        self._require_prepared("eval_batch")
        self.mode = "eval"
        losses, metric_outs = self._step("eval")(self._eval_network(), self._tensors(inputs), self._tensors(labels))
        losses = [np.asarray(l) for l in losses]
        metrics = self._metric_updates(metric_outs)
        if self._loss is not None and metrics:
            return losses, metrics
        return losses if self._loss is not None else metrics

    def predict_batch(self, inputs: Any) -> list:
        """The network's outputs (numpy) on a batch in eval mode."""
        self.mode = "test"
        return [np.asarray(o) for o in self._step("predict")(self._eval_network(), self._tensors(inputs))]

    # -- loops -----------------------------------------------------------------------------------
    def _loader(self, data: Any, batch_size: int, shuffle: bool, drop_last: bool, num_workers: int) -> Any:
        if isinstance(data, padax.io.IterableDataset):
            return padax.io.DataLoader(data, batch_size=batch_size, num_workers=num_workers, drop_last=drop_last)
        if isinstance(data, padax.io.Dataset):
            sampler = padax.io.DistributedBatchSampler(data, batch_size=batch_size, num_replicas=1, rank=0,
                                                       shuffle=shuffle, drop_last=drop_last)
            return padax.io.DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)
        if data is None:
            raise ValueError("Model: the data must be given (a padax.io.Dataset or DataLoader)")
        return data

    @staticmethod
    def _len(loader: Any) -> int | None:
        try:
            return len(loader)
        except TypeError:
            return None

    def _metrics_name(self) -> list[str]:
        names = ["loss"] if self._loss is not None else []
        for m in self._metrics:
            names.extend(to_list(m.name()))
        return names

    def _reset_metrics(self) -> None:
        for m in self._metrics:
            m.reset()

    def _run_one_epoch(self, loader: Any, callbacks: Any, mode: str) -> Any:
        logs: dict = {}
        outputs = []
        n_in = self._n_inputs()
        batches = iter(loader)
        if mode == "train":
            self._train_iter = batches  # alive, so that the loader's state_dict gives its position
        for step, data in enumerate(batches):
            data = tree_util.leaves(data)
            batch_size = data[0].shape[0] if data and len(data[0].shape) else 1
            callbacks.on_batch_begin(mode, step, logs)
            if mode == "predict":
                outputs.append(self.predict_batch(data[:n_in]))
            else:
                run = self._train_batch if mode == "train" else self.eval_batch
                outs = run(data[:n_in], data[n_in:])
                if self._loss is not None:
                    values = [[float(l) for l in (outs[0] if self._metrics else outs)]]
                else:
                    values = []
                for m in self._metrics:
                    values.extend(to_list(m.accumulate()))
                logs.update(zip(self._metrics_name(), values))
            logs["step"], logs["batch_size"] = step, batch_size
            callbacks.on_batch_end(mode, step, logs)
            if mode == "train" and self.stop_training:
                getattr(batches, "close", lambda: None)()  # stop the workers; the position stays readable
                break
        self._reset_metrics()
        return (logs, outputs) if mode == "predict" else logs

    def fit(self, train_data: Any = None, eval_data: Any = None, batch_size: int | Sequence[int] = 1,
            epochs: int = 1, eval_freq: int = 1, log_freq: int = 10, save_dir: str | None = None,
            save_freq: int = 1, verbose: int = 2, drop_last: bool = False, shuffle: bool = True,
            num_workers: int = 0, callbacks: Any = None) -> None:
        """Train for `epochs` (from the loaded position after `load`), evaluating every `eval_freq` epochs.

        Setting `model.stop_training = True` in a callback stops after the current batch."""
        self._require_prepared("fit", need_optimizer=True)
        if train_data is None:
            raise ValueError("Model.fit: train_data must be given")
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 2:
                raise ValueError("Model.fit: batch_size as a list is [train_batch_size, eval_batch_size]")
            train_bs, eval_bs = batch_size
        else:
            train_bs = eval_bs = batch_size
        train_loader = self._loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = self._loader(eval_data, eval_bs, False, False, num_workers) if eval_data is not None else None
        start = 0
        if self._resume is not None:
            resume, self._resume = self._resume, None
            start = resume["epoch"]
            if resume.get("loader") is not None and hasattr(train_loader, "set_state_dict"):
                train_loader.set_state_dict(resume["loader"])
        self._train_loader, self.stop_training = train_loader, False
        cbks = config_callbacks(callbacks, model=self, batch_size=train_bs, epochs=epochs,
                                steps=self._len(train_loader), log_freq=log_freq, verbose=verbose,
                                save_freq=save_freq, save_dir=save_dir, metrics=self._metrics_name())
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in cbks):
            warnings.warn("EarlyStopping needs validation data.")
        cbks.on_begin("train")
        logs: dict = {}
        for epoch in range(start, epochs):
            self._epoch = epoch
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            if self.stop_training and self._mid_epoch():
                break
            self._epoch = epoch + 1
            self.network  # noqa: B018  (the user's Layer gets the epoch's values)
            cbks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len(eval_loader), "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        self.network  # noqa: B018
        cbks.on_end("train", logs)

    def _mid_epoch(self) -> bool:
        state = self._loader_state()
        return state is not None and state.get("position", 0) > 0

    def evaluate(self, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Any = None) -> dict:
        """Loss and metrics over `eval_data`: {name: value}."""
        self._require_prepared("evaluate")
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        cbks.on_begin("eval", {"steps": self._len(loader), "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def predict(self, test_data: Any, batch_size: int = 1, num_workers: int = 0, stack_outputs: bool = False,
                verbose: int = 1, callbacks: Any = None) -> list:
        """The network's outputs over `test_data`: per output, the list of batch results (stacked with
        stack_outputs)."""
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = [list(o) for o in zip(*outputs)]
        if stack_outputs:
            outputs = [np.vstack(o) for o in outputs]
        cbks.on_end("predict", logs)
        return outputs

    # -- summary -------------------------------------------------------------------------------
    def summary(self, input_size: Any = None, dtype: Any = None) -> dict:
        """Print the network's table of layers (see padax.summary); {'total_params', 'trainable_params'}."""
        if input_size is None:
            shapes = [getattr(s, "shape", None) for s in self._inputs]
            if not shapes or any(s is None for s in shapes):
                raise ValueError("Model.summary: give input_size, or InputSpecs as Model(network, inputs=...)")
            input_size = [tuple(s) for s in shapes] if len(shapes) > 1 else tuple(shapes[0])
        return _summary(self.network, input_size, dtypes=dtype)

    # -- checkpoints ---------------------------------------------------------------------------
    def _loader_state(self) -> dict | None:
        getter = getattr(self._train_loader, "state_dict", None)
        return getter() if callable(getter) else None

    def _checkpoint(self) -> dict:
        """The resumable training state as a pytree for padax.hapi.save_checkpoint."""
        state = self._train_state()
        sched = self._optimizer._learning_rate
        meta = {"epoch": self._epoch, "loader": self._loader_state(),
                "lr": sched if isinstance(sched, (int, float)) else None,
                "scheduler": sched.state_dict() if isinstance(sched, padax.optimizer.lr.LRScheduler) else None,
                "amp_level": self._amp_config["level"]}
        return {"network": dict(self.network.state_dict()), "opt_state": state["opt_state"], "key": state["key"],
                "scaler": state["scaler"], "rng": padax.get_rng_state()[0].key, "meta": json.dumps(meta, default=_json_default)}

    def save(self, path: str, training: bool = True) -> None:
        """training=True: `path.pdparams` (state_dict) and `path.pdopt` (resumable checkpoint, see the
        module docstring). training=False: the inference program (padax.jit.save, needs Model inputs)."""
        path = os.fspath(path)
        if not training:
            if not self._inputs:
                raise RuntimeError("Model.save(training=False) saves the inference program and needs the input "
                                   "specs: Model(network, inputs=[padax.static.InputSpec(...)])")
            padax.jit.save(self._eval_network(), path, input_spec=self._inputs)
            return
        padax.save(dict(self.network.state_dict()), path + ".pdparams")
        if self._optimizer is not None and self._prepared:
            ckpt.save_checkpoint(path + ".pdopt", self._checkpoint())

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load `save(path)`'s files: the weights, and (unless reset_optimizer) the training state and the
        position the next `fit` resumes from. Mismatching keys/shapes raise, listing them; skip_mismatch=True
        loads the rest (and resets the optimizer, as Paddle)."""
        base = _strip_suffix(path)
        opt_file = base + ".pdopt"
        if not reset_optimizer and os.path.exists(opt_file):
            flat = ckpt.read_checkpoint(opt_file)
            skipped = self._restore_network(flat, "['network']", opt_file, skip_mismatch)
            if skipped:
                return
            if self._prepared and self._optimizer is not None:
                self._restore_training(flat, skip_mismatch)
            else:
                self._pending = flat
            return
        params_file = base + ".pdparams"
        if not os.path.exists(params_file):
            raise padax.serialization.LoadError(f"Model.load: {params_file!r} does not exist")
        params = padax.load(params_file, return_numpy=True)
        if not isinstance(params, dict):
            raise padax.serialization.LoadError(f"Model.load: {params_file!r} does not hold a state dict")
        flat = {f"['network'][{k!r}]": v for k, v in params.items()}
        self._restore_network(flat, "['network']", params_file, skip_mismatch)
        if self._state is not None:
            self._state = None  # the optimizer starts fresh from the loaded weights

    def _restore_network(self, flat: dict, prefix: str, where: str, skip_mismatch: bool) -> list:
        net = self.network
        restored, problems = ckpt.restore_tree(dict(net.state_dict()), flat, f"Model.load: {where!r}", skip_mismatch,
                                               prefix)
        net.set_state_dict(restored)
        if self._state is not None:
            _write_back(self._state["network"], net)
        return problems

    def _restore_training(self, flat: dict, skip_mismatch: bool) -> None:
        self._state = None
        state = self._train_state()
        for name in ("opt_state", "key", "scaler"):
            state[name], _ = ckpt.restore_tree(state[name], flat, f"Model.load: the checkpoint's {name}", skip_mismatch,
                                               f"[{name!r}]")
        state["grad_acc"] = None
        try:
            meta = json.loads(str(flat["['meta']"]))
        except (KeyError, ValueError) as e:
            what = "is missing" if isinstance(e, KeyError) else "is not valid JSON"
            raise padax.serialization.LoadError(
                f"Model.load: the checkpoint's training metadata {what} (the file is damaged)") from None
        if not isinstance(meta, dict):
            raise padax.serialization.LoadError("Model.load: the checkpoint's training metadata is not a JSON object "
                                                "(the file is damaged)")
        sched = self._optimizer._learning_rate
        if isinstance(sched, padax.optimizer.lr.LRScheduler) and meta.get("scheduler") is not None:
            sched.set_state_dict(meta["scheduler"])
        elif meta.get("lr") is not None and isinstance(sched, (int, float)):
            self._optimizer._learning_rate = float(meta["lr"])
        if "['rng']" in flat:
            padax.set_rng_state(np.asarray(flat["['rng']"]))
        self._epoch = int(meta.get("epoch", 0))
        self._resume = {"epoch": self._epoch, "loader": meta.get("loader")}
