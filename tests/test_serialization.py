"""padax.save / padax.load: trees of arrays in one npz file, every dtype, no pickle, atomic."""
import os

import ml_dtypes
import numpy as np
import pytest

import padax
from padax.serialization import LoadError


def test_state_dict_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    state = {
        "linear.weight": padax.to_tensor(rng.standard_normal((4, 3)).astype(np.float32)),
        "linear.bias": padax.to_tensor(np.zeros(3, np.float32)),
        "emb": padax.to_tensor(rng.standard_normal((2, 2)).astype(ml_dtypes.bfloat16)),
        "steps": 12, "lr": 1e-3, "name": "mlp", "betas": (0.9, 0.999), "flags": [True, None],
        "z": 1 + 2j, "np": np.arange(5, dtype=np.int16), "scalar": np.float64(2.5), 3: "int key",
    }
    path = str(tmp_path / "ckpt" / "model.pdparams")
    padax.save(state, path)
    back = padax.load(path)
    assert list(back) == list(state)
    for k in ("linear.weight", "linear.bias", "emb"):
        assert isinstance(back[k], padax.Tensor) and back[k].dtype == state[k].dtype
        np.testing.assert_array_equal(np.asarray(back[k].numpy()), np.asarray(state[k].numpy()))
    assert back["steps"] == 12 and back["lr"] == 1e-3 and back["name"] == "mlp"
    assert back["betas"] == (0.9, 0.999) and back["flags"] == [True, None] and back["z"] == 1 + 2j
    assert back[3] == "int key"
    assert isinstance(back["np"], np.ndarray) and back["np"].dtype == np.int16
    np.testing.assert_array_equal(back["np"], np.arange(5))
    assert back["scalar"] == 2.5 and isinstance(back["scalar"], np.float64)
    as_numpy = padax.load(path, return_numpy=True)
    assert isinstance(as_numpy["linear.weight"], np.ndarray)


def test_single_tensor_and_empty_arrays(tmp_path):
    path = str(tmp_path / "t.pdtensor")
    padax.save(padax.zeros([0, 3]), path)
    assert padax.load(path).shape == (0, 3)


def test_unsavable_objects_are_refused(tmp_path):
    with pytest.raises(TypeError, match=r"cannot save object \(at \['a'\]\[1\]\).*never pickles"):
        padax.save({"a": [1, object()]}, str(tmp_path / "x"))
    with pytest.raises(TypeError, match="keys must be str or int"):
        padax.save({(1, 2): 3}, str(tmp_path / "x"))
    assert not os.path.exists(tmp_path / "x")


def test_damaged_and_foreign_files(tmp_path):
    with pytest.raises(LoadError, match="does not exist"):
        padax.load(str(tmp_path / "nope"))
    good = str(tmp_path / "g")
    padax.save({"w": padax.ones([100])}, good)
    data = open(good, "rb").read()
    with open(tmp_path / "cut", "wb") as f:
        f.write(data[:-40])
    with pytest.raises(LoadError):
        padax.load(str(tmp_path / "cut"))
    np.savez(str(tmp_path / "foreign.npz"), x=np.ones(3))
    with pytest.raises(LoadError, match="not a readable|not written by padax"):
        padax.load(str(tmp_path / "foreign.npz"))
    with open(tmp_path / "pickle", "wb") as f:  # a pickle naming any class is refused, never unpickled
        import collections
        import pickle
        pickle.dump({"w": collections.Counter("ab")}, f)
    with pytest.raises(LoadError, match="refused to load global 'collections.Counter'"):
        padax.load(str(tmp_path / "pickle"))


def test_interrupted_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "m")
    padax.save({"v": 1}, path)
    before = open(path, "rb").read()
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError, match="disk full"):
        padax.save({"v": 2}, path)
    monkeypatch.undo()
    assert open(path, "rb").read() == before and padax.load(path) == {"v": 1}
    assert os.listdir(tmp_path) == ["m"]
