"""Resumable checkpoints: bit-identical resume (mid-epoch too), atomic saves, damaged files, mismatches, no pickle."""
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import padax
from padax import nn
from padax.hapi import CheckpointMismatchError, load_checkpoint, save_checkpoint
from padax.serialization import LoadError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _data(n=192):
    from padax.demo import load_split
    x, y, _, _ = load_split(0)
    return padax.io.TensorDataset([x[:n], y[:n].astype(np.int64)[:, None]])


def _model(seed, hidden=32):
    """BatchNorm (state in the network), Dropout (the step key) and a step schedule (scheduler state)."""
    padax.seed(seed)
    net = nn.Sequential(nn.Linear(64, hidden), nn.BatchNorm1D(hidden), nn.ReLU(), nn.Dropout(0.3),
                        nn.Linear(hidden, 10))
    model = padax.Model(net)
    sched = padax.optimizer.lr.StepDecay(0.1, step_size=7, gamma=0.5)
    model.prepare(padax.optimizer.Momentum(sched, momentum=0.9), nn.CrossEntropyLoss(), padax.metric.Accuracy())
    return model


def _weights(model):
    return {k: np.asarray(v).copy() for k, v in model.network.state_dict().items()}


class _StopAt(padax.callbacks.Callback):
    """Saves the model after global step `k` and stops training there (a run cut off at step k)."""

    def __init__(self, k, path):
        super().__init__()
        self.k, self.path, self.seen = k, path, 0

    def on_train_batch_end(self, step, logs=None):
        self.seen += 1
        if self.seen == self.k:
            self.model.save(self.path)
            self.model.stop_training = True


@pytest.mark.parametrize("stop_at", [8, 12])  # mid-epoch (epoch 1, batch 2) and at an epoch's last batch
def test_a_run_stopped_at_step_k_and_resumed_is_bit_identical(tmp_path, stop_at):
    data = _data()
    full = _model(0)
    full.fit(data, batch_size=32, epochs=3, verbose=0)
    expected = _weights(full)

    cut = _model(0)
    path = str(tmp_path / "ckpt")
    cut.fit(data, batch_size=32, epochs=3, verbose=0, callbacks=[_StopAt(stop_at, path)])
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pdopt", "ckpt.pdparams"]

    resumed = _model(7)  # other initial weights and another global random state
    padax.rand([3])
    resumed.load(path)
    resumed.fit(data, batch_size=32, epochs=3, verbose=0)
    got = _weights(resumed)
    assert sorted(got) == sorted(expected)
    for k in expected:
        np.testing.assert_array_equal(got[k], expected[k], err_msg=k)
    assert resumed._optimizer.get_lr() == full._optimizer.get_lr()


def test_load_before_prepare_resumes_once_prepared(tmp_path):
    data = _data(128)
    a = _model(0)
    a.fit(data, batch_size=32, epochs=1, verbose=0)
    a.save(str(tmp_path / "m"))  # after epoch 0
    full = _model(0)
    full.fit(data, batch_size=32, epochs=2, verbose=0)

    padax.seed(5)
    net = nn.Sequential(nn.Linear(64, 32), nn.BatchNorm1D(32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 10))
    b = padax.Model(net)
    b.load(str(tmp_path / "m.pdparams"))  # a suffix is accepted; the training state waits for prepare
    b.prepare(padax.optimizer.Momentum(padax.optimizer.lr.StepDecay(0.1, step_size=7, gamma=0.5), momentum=0.9),
              nn.CrossEntropyLoss(), padax.metric.Accuracy())
    b.fit(data, batch_size=32, epochs=2, verbose=0)  # runs epoch 1 of 2
    for k, v in _weights(full).items():
        np.testing.assert_array_equal(_weights(b)[k], v, err_msg=k)


def test_reset_optimizer_loads_the_weights_alone(tmp_path):
    a = _model(0)
    a.fit(_data(64), batch_size=32, epochs=1, verbose=0)
    a.save(str(tmp_path / "m"))
    b = _model(3)
    b.load(str(tmp_path / "m"), reset_optimizer=True)
    for k, v in _weights(a).items():
        np.testing.assert_array_equal(_weights(b)[k], v)
    assert b._resume is None and b._state is None  # a fresh run: epoch 0, new optimizer state


def test_a_different_model_lists_the_mismatches_and_skip_mismatch_loads_the_rest(tmp_path):
    a = _model(0)
    a.fit(_data(64), batch_size=32, epochs=1, verbose=0)
    a.save(str(tmp_path / "m"))
    b = _model(1, hidden=16)
    with pytest.raises(CheckpointMismatchError) as info:
        b.load(str(tmp_path / "m"))
    msg = str(info.value)
    assert "['0.weight']: the checkpoint has float32[64, 32], the target float32[64, 16]" in msg
    assert "['4.weight']: the checkpoint has float32[32, 10], the target float32[16, 10]" in msg
    assert "skip_mismatch=True" in msg
    before = _weights(b)
    with pytest.warns(UserWarning, match="skipped"):
        b.load(str(tmp_path / "m"), skip_mismatch=True)
    after = _weights(b)
    np.testing.assert_array_equal(after["4.bias"], _weights(a)["4.bias"])  # same shape: loaded
    np.testing.assert_array_equal(after["0.weight"], before["0.weight"])  # mismatch: kept
    assert b._resume is None  # as Paddle: a partial load resets the optimizer

    # the plain-function form: missing and unexpected keys are listed too
    save_checkpoint(tmp_path / "c.pdckpt", {"w": np.ones((2, 3), np.float32), "extra": 1})
    with pytest.raises(CheckpointMismatchError, match=r"(?s)missing \['v'\].*unexpected \['extra'\]"):
        load_checkpoint(tmp_path / "c.pdckpt", target={"w": np.zeros((2, 3), np.float32), "v": 0})


def test_save_checkpoint_round_trips_a_training_pytree(tmp_path):
    padax.seed(0)
    net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1D(3))
    opt = padax.optimizer.Adam(1e-3)
    state = {"network": net, "opt_state": opt.init(net), "key": padax.random.key(3), "step": 12,
             "note": "epoch 2", "lr": 0.25}
    save_checkpoint(tmp_path / "s.pdckpt", state)
    padax.seed(9)
    fresh_net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1D(3))
    target = {"network": fresh_net, "opt_state": opt.init(fresh_net), "key": padax.random.key(0), "step": 0,
              "note": "", "lr": 0.0}
    back = load_checkpoint(tmp_path / "s.pdckpt", target=target)
    assert isinstance(back["network"], nn.Sequential) and back["step"] == 12 and back["note"] == "epoch 2"
    np.testing.assert_array_equal(np.asarray(back["network"][0].weight), np.asarray(net[0].weight))
    np.testing.assert_array_equal(np.asarray(back["key"]), np.asarray(state["key"]))
    flat = load_checkpoint(tmp_path / "s.pdckpt")
    assert "['network'].0.weight" in flat and flat["['lr']"] == 0.25
    with pytest.raises(TypeError, match="state_dict"):
        save_checkpoint(tmp_path / "bad.pdckpt", {"opt": opt})


def test_damaged_or_truncated_checkpoints_are_clear_errors(tmp_path):
    a = _model(0)
    a.train_batch([np.zeros((4, 64), np.float32)], [np.zeros((4, 1), np.int64)])
    a.save(str(tmp_path / "m"))
    raw = (tmp_path / "m.pdopt").read_bytes()
    (tmp_path / "m.pdopt").write_bytes(raw[: len(raw) // 2])
    before = _weights(a)
    with pytest.raises(LoadError, match="m.pdopt"):
        a.load(str(tmp_path / "m"))
    for k, v in _weights(a).items():  # nothing was half-loaded
        np.testing.assert_array_equal(v, before[k])
    (tmp_path / "m.pdopt").write_bytes(b"\x00" * 100)
    with pytest.raises(LoadError, match="not a padax"):
        a.load(str(tmp_path / "m"))
    (tmp_path / "other.pdopt").write_bytes(raw[:4] + bytes(reversed(raw[4:])))
    with pytest.raises(LoadError):
        load_checkpoint(tmp_path / "other.pdopt")
    padax.save({"a": np.ones(2)}, str(tmp_path / "plain.pdckpt"))
    with pytest.raises(LoadError, match="not a checkpoint"):
        load_checkpoint(tmp_path / "plain.pdckpt")


class _Boom:
    def __reduce__(self):
        return (os.system, ("touch PWNED_BY_PICKLE",))


def test_no_load_path_unpickles(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("m.pdparams", "m.pdopt"):
        with open(name, "wb") as f:
            pickle.dump({"0.weight": _Boom()}, f)
    model = _model(0)
    with pytest.raises(LoadError):
        model.load("m")
    with pytest.raises(LoadError):
        model.load("m", reset_optimizer=True)
    with pytest.raises(LoadError):
        load_checkpoint("m.pdopt")
    assert not os.path.exists("PWNED_BY_PICKLE")


_SAVER = textwrap.dedent("""
    import sys, numpy as np, padax
    from padax import nn
    padax.seed(0)
    model = padax.Model(nn.Sequential(nn.Linear(1200, 1200), nn.Linear(1200, 10)))
    model.prepare(padax.optimizer.Momentum(0.01), nn.CrossEntropyLoss())
    x, y = np.ones((2, 1200), np.float32), np.zeros((2, 1), np.int64)
    while True:  # keep saving new states until killed
        model.train_batch([x], [y])
        step = int(np.asarray(model._state["opt_state"]["step"]))
        print("saving", step, flush=True)
        model.save(sys.argv[1])
""")


def test_killing_a_save_leaves_the_previous_checkpoint_loadable(tmp_path):
    path = str(tmp_path / "run" / "ckpt")
    proc = subprocess.Popen([sys.executable, "-c", _SAVER, path], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        while True:  # kill during the third save (each writes ~17 MB in two files)
            words = proc.stdout.readline().split()
            assert words[0] == "saving", words
            if int(words[1]) == 3:
                break
        time.sleep(0.03)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    model = padax.Model(nn.Sequential(nn.Linear(1200, 1200), nn.Linear(1200, 10)))
    model.prepare(padax.optimizer.Momentum(0.01), nn.CrossEntropyLoss())
    model.load(path)  # a whole checkpoint: the .pdopt holds the weights and optimizer state of one step
    step = int(np.asarray(model._train_state()["opt_state"]["step"]))
    assert step in (2, 3)  # the previous save, or the killed one if it had finished
    # weights and optimizer state are those of that step: replay the same run here and compare
    padax.seed(0)
    ref = padax.Model(nn.Sequential(nn.Linear(1200, 1200), nn.Linear(1200, 10)))
    ref.prepare(padax.optimizer.Momentum(0.01), nn.CrossEntropyLoss())
    for _ in range(step):
        ref.train_batch([np.ones((2, 1200), np.float32)], [np.zeros((2, 1), np.int64)])
    for k, v in _weights(ref).items():
        np.testing.assert_array_equal(_weights(model)[k], v, err_msg=k)
    got_v = model._train_state()["opt_state"]["velocity"]
    np.testing.assert_array_equal(np.asarray(got_v[1].weight), np.asarray(ref._state["opt_state"]["velocity"][1].weight))
    params = padax.load(path + ".pdparams", return_numpy=True)
    assert params["1.weight"].shape == (1200, 10)  # the weights-only file is whole as well
    leftovers = [f for f in os.listdir(tmp_path / "run") if not f.endswith((".pdparams", ".pdopt"))]
    assert all(f.endswith(".tmp") for f in leftovers)  # only a killed writer's temporary, if any
