"""Paddle's training callbacks (`padax.callbacks`): hooks that `Model.fit`/`evaluate`/`predict` call.

A callback sees the Model (`self.model`), the run's parameters (`self.params`: batch_size, epochs,
steps, verbose, metrics) and, per batch or epoch, a `logs` dict with the loss, the metrics and
the batch size. `config_callbacks` adds the defaults as Paddle does (a ProgBarLogger when verbose,
a ModelCheckpoint, an LRScheduler stepping per batch). One deliberate difference: the default
LRScheduler runs first at each batch end, so a checkpoint written by a later callback holds the
schedule already advanced past that batch and a resumed run continues with the same rates.
"""
from __future__ import annotations

import numbers
import os
import time
import warnings
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import numpy as np

from padax.hapi.progressbar import ProgressBar
from padax.optimizer.lr import LRScheduler as _Schedule

if TYPE_CHECKING:
    from padax.hapi.model import Model

MODES = ("train", "eval", "predict")


class Callback:
    """Base class with Paddle's hooks; every hook does nothing unless overridden.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> class Recorder(padax.callbacks.Callback):
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         print(epoch, sorted(logs))
        ...
        >>> x = np.ones((4, 1), "float32")
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.1), padax.nn.MSELoss())
        >>> model.fit(padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)]), batch_size=4, epochs=2,
        ...           verbose=0, callbacks=[Recorder()])
        0 ['batch_size', 'loss', 'step']
        1 ['batch_size', 'loss', 'step']
    """

    def __init__(self) -> None:
        self.model: Model | None = None
        self.params: dict = {}

    def set_params(self, params: dict) -> None:
        self.params = params

    def set_model(self, model: "Model") -> None:
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None: ...
    def on_train_end(self, logs: dict | None = None) -> None: ...
    def on_eval_begin(self, logs: dict | None = None) -> None: ...
    def on_eval_end(self, logs: dict | None = None) -> None: ...
    def on_predict_begin(self, logs: dict | None = None) -> None: ...
    def on_predict_end(self, logs: dict | None = None) -> None: ...
    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None: ...


class CallbackList:
    """Calls a hook on every callback in order."""

    def __init__(self, callbacks: Sequence[Callback]):
        self.callbacks = list(callbacks)

    def __iter__(self) -> Iterator[Callback]:
        return iter(self.callbacks)

    def append(self, callback: Callback) -> None:
        self.callbacks.append(callback)

    def set_params(self, params: dict) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model: "Model") -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"callbacks: mode must be one of {MODES}, got {mode!r}")

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


def config_callbacks(callbacks: Any = None, model: "Model | None" = None, batch_size: int | None = None,
                     epochs: int | None = None, steps: int | None = None, log_freq: int = 2, verbose: int = 2,
                     save_freq: int = 1, save_dir: str | None = None, metrics: list[str] | None = None,
                     mode: str = "train") -> CallbackList:
    """The callbacks of a run: the user's plus Paddle's defaults, bound to the model and the run's params."""
    cbks = list(callbacks if isinstance(callbacks, (list, tuple)) else [callbacks] if callbacks else [])
    for c in cbks:
        if not isinstance(c, Callback):
            raise TypeError(f"callbacks must be padax.callbacks.Callback instances, got {type(c).__name__}")
    if verbose and not any(isinstance(c, ProgBarLogger) for c in cbks):
        cbks.insert(0, ProgBarLogger(log_freq, verbose=verbose))
    if not any(isinstance(c, ModelCheckpoint) for c in cbks):
        cbks.append(ModelCheckpoint(save_freq, save_dir))
    for c in cbks:
        if isinstance(c, EarlyStopping):
            c.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in cbks):
        cbks.insert(0, LRScheduler())
    out = CallbackList(cbks)
    out.set_model(model)
    out.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                    "metrics": (metrics or []) if mode != "test" else []})
    return out


class ProgBarLogger(Callback):
    """Prints loss and metrics every `log_freq` steps: verbose 1 a live bar, 2 a line per print, 3 also timings.

    Args:
        log_freq: steps between two prints.
        verbose: 0 silent, 1 a live bar, 2 a line per print, 3 also timings.

    Returns:
        The callback, for Model.fit's `callbacks`.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> x = np.ones((4, 1), "float32")
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.1), padax.nn.MSELoss())
        >>> model.fit(padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)]), batch_size=4, epochs=1,
        ...           callbacks=[padax.callbacks.ProgBarLogger(log_freq=1, verbose=2)])  # doctest: +ELLIPSIS
        The loss value printed in the log is the current step, ...
        Epoch 1/1
        step 1/1 - loss: ... - ...s/step
    """

    def __init__(self, log_freq: int = 1, verbose: int = 2):
        super().__init__()
        self.log_freq, self.verbose = max(1, int(log_freq)), verbose
        self.epochs = self.steps = None

    def _printing(self) -> bool:
        return bool(self.verbose)

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = _Timer()
        if self._printing():
            print("The loss value printed in the log is the current step, and the metric is the average value "
                  "of previous steps.")

    def on_epoch_begin(self, epoch, logs=None):
        self.steps, self.epoch, self.train_step = self.params["steps"], epoch, 0
        if self.epochs and self._printing():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer.batch_start = time.time()

    def _updates(self, logs: dict, mode: str) -> None:
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            values.extend(timer.report())
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode: str) -> None:
        getattr(self, f"_{mode}_timer").data_ready()

    def _batch_end(self, mode: str, logs: dict | None, total: int | None) -> None:
        logs = logs or {}
        setattr(self, f"{mode}_step", getattr(self, f"{mode}_step") + 1)
        getattr(self, f"_{mode}_timer").batch_done(logs.get("batch_size", 1))
        step = getattr(self, f"{mode}_step")
        if self._printing() and step % self.log_freq == 0 and (total is None or step < total):
            self._updates(logs, mode)

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin("train")

    def on_train_batch_end(self, step, logs=None):
        self._batch_end("train", logs, self.steps)

    def on_epoch_end(self, epoch, logs=None):
        if self._printing() and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps, self.eval_metrics = logs.get("steps"), logs.get("metrics", [])
        self.eval_step = self.evaled_samples = 0
        self._eval_timer = _Timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._printing():
            print("Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin("eval")

    def on_eval_batch_end(self, step, logs=None):
        self.evaled_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("eval", logs, self.eval_steps)

    def on_eval_end(self, logs=None):
        if self._printing() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs=None):
        logs = logs or {}
        self.test_steps, self.test_metrics = logs.get("steps"), logs.get("metrics", [])
        self.test_step = self.tested_samples = 0
        self._test_timer = _Timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._printing():
            print("Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin("test")

    def on_predict_batch_end(self, step, logs=None):
        self.tested_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("test", logs, self.test_steps)

    def on_predict_end(self, logs=None):
        if self._printing():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class _Timer:
    """Reader and batch time, for verbose=3's avg_reader_cost / avg_batch_cost / ips."""

    def __init__(self) -> None:
        self.data = self.batch = 0.0
        self.count = self.samples = 0
        self.batch_start = self.data_end = time.time()

    def data_ready(self) -> None:
        self.data_end = time.time()
        self.data += self.data_end - self.batch_start

    def batch_done(self, samples: int) -> None:
        now = time.time()
        self.batch += now - self.data_end
        self.count += 1
        self.samples += samples
        self.batch_start = now

    def report(self) -> list[tuple[str, str]]:
        cnt, total = max(self.count, 1), (self.data + self.batch) or 1e-12
        out = [("avg_reader_cost", f"{self.data / cnt:.5f} sec"), ("avg_batch_cost", f"{self.batch / cnt:.5f} sec"),
               ("ips", f"{max(self.samples, 1) / total:.5f} samples/sec")]
        self.data = self.batch = 0.0
        self.count = self.samples = 0
        return out


class ModelCheckpoint(Callback):
    """Saves `model.save(save_dir/{epoch})` every `save_freq` epochs and `save_dir/final` at the end.

    Args:
        save_freq: save every this many epochs.
        save_dir: the folder (nothing is saved when None).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import padax
        >>> x = np.ones((4, 1), "float32")
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.1), padax.nn.MSELoss())
        >>> with tempfile.TemporaryDirectory() as d:
        ...     model.fit(padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)]), batch_size=4, epochs=1,
        ...               verbose=0, callbacks=[padax.callbacks.ModelCheckpoint(save_dir=d)])
        ...     print(sorted(os.listdir(d)))  # doctest: +ELLIPSIS
        save checkpoint at .../0
        save checkpoint at .../final
        ['0.pdopt', '0.pdparams', 'final.pdopt', 'final.pdparams']
    """

    def __init__(self, save_freq: int = 1, save_dir: str | None = None):
        super().__init__()
        self.save_freq, self.save_dir = max(1, int(save_freq)), save_dir

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def _saving(self) -> bool:
        return bool(self.model is not None and self.save_dir)

    def on_epoch_end(self, epoch, logs=None):
        if self._saving() and epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        if self._saving():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _optimizer_schedule(model: Any) -> Any:
    opt = getattr(model, "_optimizer", None) if model is not None else None
    sched = getattr(opt, "_learning_rate", None)
    return sched if isinstance(sched, _Schedule) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate schedule after every batch (`by_step`) or every epoch (`by_epoch`).

    Args:
        by_step: step the schedule after every batch.
        by_epoch: step it after every epoch instead (not both).

    Returns:
        The callback, for Model.fit's `callbacks`.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> x = np.ones((4, 1), "float32")
        >>> sched = padax.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=sched), padax.nn.MSELoss())
        >>> model.fit(padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)]), batch_size=2, epochs=3,
        ...           verbose=0, callbacks=[padax.callbacks.LRScheduler(by_step=False, by_epoch=True)])
        >>> sched.last_epoch, round(sched(), 4)  # stepped once per epoch: 0.1 * 0.5 ** 3
        (3, 0.0125)
    """

    def __init__(self, by_step: bool = True, by_epoch: bool = False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("LRScheduler: by_step and by_epoch are mutually exclusive")
        self.by_step, self.by_epoch = by_step, by_epoch

    def on_epoch_end(self, epoch, logs=None):
        sched = _optimizer_schedule(self.model)
        if self.by_epoch and sched is not None:
            sched.step()

    def on_train_batch_end(self, step, logs=None):
        sched = _optimizer_schedule(self.model)
        if self.by_step and sched is not None:
            sched.step()


def _monitored(logs: dict | None, monitor: str, who: str) -> float | None:
    """The monitored number from eval logs (first element of a list), or None with a warning."""
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {who} should be loss or metric name.")
        return None
    value = logs[monitor]
    if isinstance(value, (list, tuple)):
        value = value[0]
    return value if isinstance(value, numbers.Number) else None


class EarlyStopping(Callback):
    """Stops training when the monitored eval quantity stops improving for `patience` evaluations.

    Args:
        monitor: the eval log entry watched ('loss', 'acc', ...).
        mode: 'min', 'max', or 'auto' ('max' when the name contains 'acc').
        patience: evaluations without improvement before training stops.
        min_delta: the smallest change that counts as an improvement.
        baseline: a value the monitored quantity must beat.
        save_best_model: save the best model under the fit's save_dir.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> x = np.ones((4, 1), "float32")
        >>> data = padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)])
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.0), padax.nn.MSELoss())  # the loss never improves
        >>> stop = padax.callbacks.EarlyStopping(monitor="loss", patience=1, save_best_model=False)
        >>> model.fit(data, eval_data=data, batch_size=4, epochs=10, verbose=0, callbacks=[stop])
        Epoch 2: Early stopping.
    """

    def __init__(self, monitor: str = "loss", mode: str = "auto", patience: int = 0, verbose: int = 1,
                 min_delta: float = 0, baseline: float | None = None, save_best_model: bool = True):
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.save_best_model, self.save_dir = save_best_model, None
        self.wait_epoch = self.stopped_epoch = 0
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        bigger = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.monitor_op = np.greater if bigger else np.less
        self.min_delta = abs(min_delta) * (1 if bigger else -1)

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        self.best_value = self.baseline if self.baseline is not None else (
            np.inf if self.monitor_op is np.less else -np.inf)

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value, self.wait_epoch = current, 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    print(f"Best checkpoint has been saved at "
                          f"{os.path.abspath(os.path.join(self.save_dir, 'best_model'))}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a fixed learning rate by `factor` when the monitored eval quantity stops improving.

    Args:
        monitor, mode, min_delta: as `EarlyStopping`.
        factor: multiplies the learning rate on a plateau (< 1).
        patience: evaluations without improvement before the rate is reduced.
        cooldown: evaluations to wait after a reduction.
        min_lr: the rate is not reduced below this.

    Examples:
        >>> import padax
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.1), padax.nn.MSELoss())
        >>> plateau = padax.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=0)
        >>> plateau.set_model(model)
        >>> for eval_loss in [1.0, 0.5, 0.5, 0.5]:  # improves once, then stalls twice (fit calls this after each eval)
        ...     plateau.on_eval_end({"loss": [eval_loss]})
        ...
        >>> model._optimizer.get_lr()  # 0.1 halved twice
        0.025
    """

    def __init__(self, monitor: str = "loss", factor: float = 0.1, patience: int = 10, verbose: int = 1,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0):
        super().__init__()
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        self.mode = mode
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op, self.best = (lambda a, b: np.less(a, b - self.min_delta)), np.inf
        else:
            self.monitor_op, self.best = (lambda a, b: np.greater(a, b + self.min_delta)), -np.inf
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        opt = self.model._optimizer
        if not isinstance(getattr(opt, "_learning_rate", None), (int, float)):
            warnings.warn(f"Expected learning_rate be float, bug got {type(opt._learning_rate)}.")
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = float(opt._learning_rate)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    opt._learning_rate = new_lr
                    if self.verbose > 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0
        self.epoch += 1


class VisualDL(Callback):
    """Writes the train loss/metrics per step and the eval ones per epoch as scalars under `log_dir`.

    The files are TensorBoard event files written by tensorboardX (`pip install padax[test]` or
    `pip install tensorboardX`); VisualDL and TensorBoard both read them. Tags are `train/<name>` and
    `eval/<name>`, as in Paddle.

    Args:
        log_dir: the folder the event files are written to.

    Returns:
        The callback, for Model.fit's `callbacks`.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import padax
        >>> x = np.ones((4, 1), "float32")
        >>> model = padax.Model(padax.nn.Linear(1, 1))
        >>> model.prepare(padax.optimizer.SGD(learning_rate=0.1), padax.nn.MSELoss())
        >>> with tempfile.TemporaryDirectory() as d:
        ...     model.fit(padax.io.TensorDataset([padax.to_tensor(x), padax.to_tensor(x)]), batch_size=4, epochs=1,
        ...               verbose=0, callbacks=[padax.callbacks.VisualDL(log_dir=d)])
        ...     print([f.split(".")[0] for f in os.listdir(d)])  # a TensorBoard event file
        ['events']
    """

    def __init__(self, log_dir: str):
        super().__init__()
        self.log_dir = log_dir
        self.epochs = self.steps = None
        self.epoch = 0

    def _writer(self) -> Any:
        if not hasattr(self, "writer"):
            try:
                from tensorboardX import SummaryWriter  # optional dependency: tensorboardX
            except ImportError:
                raise ImportError("padax.callbacks.VisualDL writes its logs with tensorboardX, which is not "
                                  "installed: pip install tensorboardX") from None
            self.writer = SummaryWriter(self.log_dir)
        return self.writer

    def on_train_begin(self, logs=None):
        self.epochs, self.train_metrics = self.params["epochs"], self.params["metrics"]
        self._is_fit, self.train_step = True, 0

    def on_epoch_begin(self, epoch, logs=None):
        self.steps, self.epoch = self.params["steps"], epoch

    def _updates(self, logs: dict, mode: str) -> None:
        step = self.train_step if mode == "train" else self.epoch
        writer = self._writer()
        for k in getattr(self, f"{mode}_metrics"):
            if k not in logs:
                continue
            value = logs[k][0] if isinstance(logs[k], (list, tuple)) else logs[k]
            if isinstance(value, numbers.Number):
                writer.add_scalar(f"{mode}/{k}", float(value), step)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps, self.eval_metrics = logs.get("steps"), logs.get("metrics", [])

    def _close(self) -> None:
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_train_end(self, logs=None):
        self._close()

    def on_eval_end(self, logs=None):
        self._updates(logs or {}, "eval")
        if not getattr(self, "_is_fit", False):
            self._close()
