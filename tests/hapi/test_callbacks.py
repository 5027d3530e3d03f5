"""padax.callbacks and the progress bar: hook order, log formats, checkpoints, schedules, early stopping, scalars."""
import glob
import os
import struct

import numpy as np
import pytest

import padax
from padax import nn
from padax.hapi.progressbar import ProgressBar


def _data(n=96, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8)).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.int64)
    return padax.io.TensorDataset([x, y])


def _model(lr=0.1):
    padax.seed(0)
    model = padax.Model(nn.Sequential(nn.Linear(8, 2)))
    model.prepare(padax.optimizer.SGD(lr), nn.CrossEntropyLoss(), padax.metric.Accuracy())
    return model


class Recorder(padax.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            calls = object.__getattribute__(self, "calls")
            return lambda *args: calls.append((name, *[a for a in args if isinstance(a, int)]))
        return object.__getattribute__(self, name)


def test_hooks_are_called_in_paddles_order_with_logs():
    rec = Recorder()
    model = _model()
    model.fit(_data(64), _data(32, 1), batch_size=32, epochs=2, verbose=0, callbacks=[rec])
    names = [c[0] for c in rec.calls]
    assert names[0] == "on_train_begin" and names[-1] == "on_train_end"
    assert names[1:9] == ["on_epoch_begin", "on_train_batch_begin", "on_train_batch_end", "on_train_batch_begin",
                          "on_train_batch_end", "on_epoch_end", "on_eval_begin", "on_eval_batch_begin"]
    assert names.count("on_eval_end") == 2 and names.count("on_train_batch_end") == 4
    assert rec.params == {"batch_size": 32, "epochs": 2, "steps": 2, "verbose": 0, "metrics": ["loss", "acc"]}


def test_progress_bar_formats_like_paddle(capsys):
    bar = ProgressBar(num=10, verbose=2)
    bar.update(5, [("loss", [0.123456]), ("acc", 0.5), ("lr", 1e-5)])
    line = capsys.readouterr().out
    assert line.startswith("step  5/10 - loss: 0.1235 - acc: 0.5000 - lr: 1.0000e-05 - ")
    assert line.rstrip().endswith("/step")
    bar = ProgressBar(num=4, verbose=1, width=8)
    bar.update(2, [("loss", 1.5)])
    out = capsys.readouterr().out
    assert "step 2/4 [===>....] - loss: 1.5000 - ETA: " in out
    bar.update(4, [("loss", 1.0)])
    assert "step 4/4 [========] - loss: 1.0000 - " in capsys.readouterr().out
    with pytest.raises(TypeError):
        ProgressBar(num=0)


def test_fit_prints_paddles_log_lines(capsys):
    _model().fit(_data(64), _data(32, 1), batch_size=16, epochs=1, verbose=2, log_freq=2)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("The loss value printed in the log is the current step")
    assert out[1] == "Epoch 1/1"
    assert out[2].startswith("step 2/4 - loss: ") and " - acc: " in out[2]
    assert out[3].startswith("step 4/4 - loss: ")  # printed at the epoch end, as Paddle
    assert "Eval begin..." in out and "Eval samples: 32" in out


def test_model_checkpoint_saves_every_save_freq_epochs_and_final(tmp_path, capsys):
    model = _model()
    model.fit(_data(64), batch_size=32, epochs=3, verbose=0, save_dir=str(tmp_path), save_freq=2)
    files = sorted(os.listdir(tmp_path))
    assert files == ["0.pdopt", "0.pdparams", "2.pdopt", "2.pdparams", "final.pdopt", "final.pdparams"]
    assert f"save checkpoint at {os.path.abspath(tmp_path / 'final')}" in capsys.readouterr().out
    final = padax.load(str(tmp_path / "final.pdparams"), return_numpy=True)
    np.testing.assert_array_equal(final["0.weight"], np.asarray(model.network[0].weight))


def test_lr_scheduler_steps_per_batch_by_default_and_per_epoch_on_request():
    for cb, expected_epoch in ((None, 6), (padax.callbacks.LRScheduler(by_step=False, by_epoch=True), 3)):
        padax.seed(0)
        sched = padax.optimizer.lr.ExponentialDecay(0.1, gamma=0.5)
        model = padax.Model(nn.Sequential(nn.Linear(8, 2)))
        model.prepare(padax.optimizer.SGD(sched), nn.CrossEntropyLoss())
        model.fit(_data(64), batch_size=32, epochs=3, verbose=0, callbacks=cb)
        assert sched.last_epoch == expected_epoch
        assert sched() == pytest.approx(0.1 * 0.5 ** expected_epoch)
    with pytest.raises(ValueError, match="mutually exclusive"):
        padax.callbacks.LRScheduler(by_step=True, by_epoch=True)


def test_the_learning_rate_reaches_the_compiled_step():
    # lr 0: nothing moves; the same program then moves with a rate set on the host (no recompilation needed)
    model = _model(lr=0.0)
    before = np.asarray(model.network[0].weight).copy()
    model.fit(_data(32), batch_size=32, epochs=1, verbose=0)
    np.testing.assert_array_equal(np.asarray(model.network[0].weight), before)
    model._optimizer._learning_rate = 0.5
    model.fit(_data(32), batch_size=32, epochs=1, verbose=0)
    assert not np.array_equal(np.asarray(model.network[0].weight), before)


class _FixedEval(padax.callbacks.Callback):
    """Replaces the eval logs' loss by a scripted sequence (runs before the callbacks under test)."""

    def __init__(self, values):
        super().__init__()
        self.values = list(values)

    def on_eval_end(self, logs=None):
        logs["loss"] = [self.values.pop(0)]


def test_early_stopping_stops_after_patience_and_saves_the_best(tmp_path, capsys):
    stopper = padax.callbacks.EarlyStopping("loss", mode="min", patience=2, verbose=1)
    rec = Recorder()
    model = _model()
    model.fit(_data(32), _data(32, 1), batch_size=32, epochs=10, verbose=0, save_dir=str(tmp_path),
              callbacks=[_FixedEval([1.0, 0.5, 0.6, 0.7, 0.1]), stopper, rec])
    assert [c[0] for c in rec.calls].count("on_epoch_end") == 4  # best at epoch 2, two worse ones, stop
    assert "Epoch 4: Early stopping." in capsys.readouterr().out
    assert os.path.exists(tmp_path / "best_model.pdparams")


def test_reduce_lr_on_plateau_multiplies_a_fixed_rate():
    reducer = padax.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=1, verbose=0, min_lr=0.02)
    model = _model(lr=0.1)
    model.fit(_data(32), _data(32, 1), batch_size=32, epochs=5, verbose=0,
              callbacks=[_FixedEval([1.0, 1.0, 1.0, 0.2, 1.0]), reducer])
    # no improvement at evals 2, 3 (-> 0.05, 0.025) and 5 (-> max(0.0125, min_lr))
    assert model._optimizer.get_lr() == pytest.approx(0.02)
    with pytest.raises(ValueError, match="factor"):
        padax.callbacks.ReduceLROnPlateau(factor=1.5)


def _scalars(log_dir):
    """(tag, step, value) of every scalar in the TensorBoard event files under log_dir."""
    from tensorboardX.proto import event_pb2
    out = []
    for path in glob.glob(os.path.join(log_dir, "events.out.tfevents.*")):
        raw = open(path, "rb").read()
        pos = 0
        while pos < len(raw):
            (n,) = struct.unpack("<Q", raw[pos:pos + 8])
            event = event_pb2.Event.FromString(raw[pos + 12:pos + 12 + n])
            pos += 12 + n + 4
            for v in event.summary.value:
                out.append((v.tag, event.step, v.simple_value))
    return out


def test_visualdl_writes_train_and_eval_scalars(tmp_path):
    pytest.importorskip("tensorboardX")  # in the test extra; the callback's ImportError names the package
    logs = {}

    class Keep(padax.callbacks.Callback):
        def on_train_batch_end(self, step, l=None):
            logs.setdefault("train", []).append(l["loss"][0])

    model = _model()
    model.fit(_data(64), _data(32, 1), batch_size=32, epochs=2, verbose=0,
              callbacks=[Keep(), padax.callbacks.VisualDL(str(tmp_path))])
    scalars = _scalars(str(tmp_path))
    train = [(s, v) for t, s, v in scalars if t == "train/loss"]
    assert [s for s, _ in train] == [1, 2, 3, 4]
    np.testing.assert_allclose([v for _, v in train], logs["train"], rtol=1e-6)
    assert sorted({t for t, _, _ in scalars}) == ["eval/acc", "eval/loss", "train/acc", "train/loss"]
    assert [s for t, s, _ in scalars if t == "eval/loss"] == [0, 1]
