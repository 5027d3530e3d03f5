"""padax.jit.to_static / save / load: a traced function stored as StableHLO plus weights, run again."""
import json
import os
import zipfile

import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.inference import SavedProgramError
from padax.static import InputSpec

_RNG = np.random.default_rng(0)
_W = _RNG.standard_normal((4, 3)).astype(np.float32)
_B = _RNG.standard_normal(3).astype(np.float32)


def _model(x):
    h = padax.matmul(x, padax.to_tensor(_W)) + padax.to_tensor(_B)
    return {"logits": h, "probs": padax.nn.functional.softmax(h, axis=-1)}, padax.tanh(h)


def _numpy_model(x):
    h = x @ _W + _B
    e = np.exp(h - h.max(-1, keepdims=True))
    return h, e / e.sum(-1, keepdims=True), np.tanh(h)


@pytest.fixture
def saved(tmp_path):
    path = str(tmp_path / "sub" / "model")
    padax.jit.save(_model, path, input_spec=[InputSpec([2, 4], "float32", "x")])
    return path


def test_round_trip_values_and_structure(saved):
    assert os.listdir(os.path.dirname(saved)) == ["model.padax"]
    f = padax.jit.load(saved)
    x = _RNG.standard_normal((2, 4)).astype(np.float32)
    out = f(padax.to_tensor(x))
    assert isinstance(out, tuple) and set(out[0]) == {"logits", "probs"}
    h, p, t = _numpy_model(x)
    np.testing.assert_allclose(out[0]["logits"].numpy(), h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[0]["probs"].numpy(), p, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1].numpy(), t, rtol=1e-5, atol=1e-6)
    # the same program as the original function: bit-identical results
    ref = _model(padax.to_tensor(x))
    np.testing.assert_array_equal(out[1].numpy(), ref[1].numpy())
    assert f.input_spec == [InputSpec([2, 4], "float32", "x")]
    assert [s.shape for s in f.output_spec] == [(2, 3)] * 3
    assert "stablehlo.dot_general" in f.program_text()


def test_host_inputs_are_converted_to_the_spec_dtype(saved):
    f = padax.jit.load(saved)
    x = _RNG.standard_normal((2, 4))  # float64 numpy
    np.testing.assert_allclose(f(x)[1].numpy(), _numpy_model(x.astype(np.float32))[2], rtol=1e-5, atol=1e-6)


def test_loaded_program_inside_jit_and_vmap(saved):
    f = padax.jit.load(saved)
    x = _RNG.standard_normal((2, 4)).astype(np.float32)
    g = padax.jit(lambda x: f(x)[1] * 2.0 + f(x)[0]["logits"])
    h, _, t = _numpy_model(x)
    np.testing.assert_allclose(g(padax.to_tensor(x)).numpy(), 2 * t + h, rtol=1e-5, atol=1e-5)
    assert "saved_program" in str(padax.make_jaxpr(g)(padax.to_tensor(x)))
    xs = _RNG.standard_normal((5, 2, 4)).astype(np.float32)
    out = padax.vmap(lambda x: f(x)[1])(padax.to_tensor(xs))
    assert out.shape == (5, 2, 3)
    np.testing.assert_allclose(out.numpy(), np.stack([_numpy_model(a)[2] for a in xs]), rtol=1e-5, atol=1e-6)


def test_to_static_carries_input_spec(tmp_path):
    @padax.jit.to_static(input_spec=[InputSpec([3], "float32"), InputSpec([3], "float32")])
    def f(a, b):
        return lax.add(lax.mul(a, b), 1.0)

    a, b = np.arange(3, dtype=np.float32), np.full(3, 2.0, np.float32)
    np.testing.assert_allclose(f(padax.to_tensor(a), padax.to_tensor(b)).numpy(), a * b + 1)
    padax.jit.save(f, str(tmp_path / "f"))
    np.testing.assert_allclose(padax.jit.load(str(tmp_path / "f"))(a, b).numpy(), a * b + 1)
    plain = padax.jit.to_static(lambda x: x * 3)
    np.testing.assert_allclose(plain(padax.to_tensor(a)).numpy(), a * 3)
    with pytest.raises(TypeError, match="input_spec"):
        padax.jit.save(plain, str(tmp_path / "g"))


def test_every_dtype_round_trips(tmp_path):
    w = padax.to_tensor(np.array([1.5, -2.25, 3.0], dtype=ml_dtypes.bfloat16))
    k = padax.to_tensor(np.array([7, -8, 9], dtype=np.int32))

    def f(x, i):
        return x * w, i + k, (x > 0)

    padax.jit.save(f, str(tmp_path / "d"), input_spec=[InputSpec([3], "bfloat16"), InputSpec([3], "int32")])
    g = padax.jit.load(str(tmp_path / "d"))
    x = np.array([2.0, 0.5, -1.0], dtype=ml_dtypes.bfloat16)
    i = np.array([1, 2, 3], np.int32)
    y, j, m = g(padax.to_tensor(x), padax.to_tensor(i))
    assert y.dtype == padax.bfloat16 and j.dtype == padax.int32 and m.dtype == padax.bool
    np.testing.assert_array_equal(y.numpy().astype(np.float32), (x * np.asarray(w.numpy())).astype(np.float32))
    np.testing.assert_array_equal(j.numpy(), i + np.array([7, -8, 9]))
    np.testing.assert_array_equal(m.numpy(), x.astype(np.float32) > 0)


def test_errors_name_the_problem(saved, tmp_path):
    f = padax.jit.load(saved)
    with pytest.raises(TypeError, match=r"argument 0 \('x'\) must be f32\[2,4\], got f32\[3,4\]"):
        f(padax.to_tensor(np.ones((3, 4), np.float32)))
    with pytest.raises(TypeError, match="takes 1 inputs, got 2"):
        f(np.ones((2, 4)), np.ones((2, 4)))
    with pytest.raises(TypeError, match="cannot be differentiated"):
        padax.grad(lambda x: f(x)[1].sum())(padax.to_tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(ValueError, match="not known"):
        padax.jit.save(_model, str(tmp_path / "n"), input_spec=[InputSpec([None, 4])])
    with pytest.raises(TypeError, match="outputs must be arrays"):
        padax.jit.save(lambda x: "text", str(tmp_path / "s"), input_spec=[InputSpec([2])])
    with pytest.raises(SavedProgramError, match="does not exist"):
        padax.jit.load(str(tmp_path / "missing"))


def test_damaged_or_foreign_files_are_refused(saved, tmp_path):
    data = open(saved + ".padax", "rb").read()
    truncated = str(tmp_path / "t")
    with open(truncated + ".padax", "wb") as fh:
        fh.write(data[: len(data) // 2])
    with pytest.raises(SavedProgramError, match="is damaged"):
        padax.jit.load(truncated)
    # a well-formed archive whose program is garbage
    with np.load(saved + ".padax", allow_pickle=False) as z:
        entries = {k: z[k] for k in z.files}
    entries["program"] = np.frombuffer(b"not stablehlo at all", np.uint8)
    bad = str(tmp_path / "b")
    np.savez(bad + ".padax", **entries)
    os.replace(bad + ".padax.npz", bad + ".padax")
    with pytest.raises(SavedProgramError, match="StableHLO"):
        padax.jit.load(bad)
    # from a newer padax
    manifest = json.loads(entries["manifest"].tobytes())
    manifest["format_version"] = 99
    entries["manifest"] = np.frombuffer(json.dumps(manifest).encode(), np.uint8)
    newer = str(tmp_path / "v")
    np.savez(newer + ".padax", **entries)
    os.replace(newer + ".padax.npz", newer + ".padax")
    with pytest.raises(SavedProgramError, match="newer padax"):
        padax.jit.load(newer)
    assert zipfile.is_zipfile(saved + ".padax")


def test_interrupted_save_keeps_the_previous_one(saved, monkeypatch):
    from padax.inference import saved as saved_mod
    before = open(saved + ".padax", "rb").read()

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        saved_mod.save(lambda x: x * 2, saved, input_spec=[InputSpec([2, 4])])
    monkeypatch.undo()
    assert open(saved + ".padax", "rb").read() == before
    assert [p for p in os.listdir(os.path.dirname(saved)) if p.endswith(".tmp")] == []
    assert padax.jit.load(saved)(np.ones((2, 4), np.float32))[1].shape == (2, 3)


def test_input_spec():
    s = InputSpec([None, 784], "float32", "x")
    assert s.shape == (-1, 784) and s.dtype == np.float32 and s.ndim == 2
    assert s.batch(8).shape == (8, -1, 784) and s.unbatch().shape == (784,)
    assert InputSpec.from_numpy(np.zeros((2, 3), np.int32)) == InputSpec((2, 3), "int32")
    assert InputSpec.from_tensor(padax.ones([5])).shape == (5,)
    assert repr(s) == "InputSpec(shape=(-1, 784), dtype=float32, name=x)"
    with pytest.raises(ValueError, match="sizes must be"):
        InputSpec([-3])


def test_loaded_program_as_a_frozen_part_of_a_differentiated_function(saved):
    # gradients flow around the loaded program when its inputs do not depend on what is differentiated
    f = padax.jit.load(saved)
    x = padax.to_tensor(_RNG.standard_normal((2, 4)).astype(np.float32))
    feats = f(x)[1]
    g = padax.grad(lambda w: (f(x)[1] * w).sum())(padax.ones([2, 3]))
    np.testing.assert_allclose(g.numpy(), feats.numpy(), rtol=1e-6)
