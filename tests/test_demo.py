"""The bundled digits data and the `python -m padax.demo` training run."""
import os
import subprocess
import sys

import numpy as np
import pytest

import padax
from padax import demo
from padax.data import DIGITS_PATH, load_digits


def test_load_digits_shapes_values_and_classes():
    images, labels = load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8
    assert labels.shape == (1797,) and labels.dtype == np.int64
    assert images.min() == 0 and images.max() == 16
    counts = np.bincount(labels, minlength=10)
    assert len(counts) == 10 and counts.min() >= 170 and counts.max() <= 185
    # fresh copies: mutating one result does not leak into the next
    images[0, 0, 0] = 99
    assert load_digits()[0][0, 0, 0] != 99


def test_digits_file_has_no_pickled_objects():
    with np.load(DIGITS_PATH, allow_pickle=False) as f:
        assert sorted(f.files) == ["images", "labels"]
        assert all(f[k].dtype != object for k in f.files)


def test_split_is_fixed_by_seed_and_scaled():
    a = demo.load_split(0)
    b = demo.load_split(0)
    c = demo.load_split(1)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[1], c[1])
    x_train, y_train, x_test, y_test = a
    assert x_train.shape[1] == 64 and x_train.dtype == np.float32
    assert 0.0 <= x_train.min() and x_train.max() == 1.0
    assert len(x_train) + len(x_test) == 1797
    assert y_train.dtype == np.int32


def test_demo_grads_match_jax():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    x, y, _, _ = demo.load_split(0)
    x, y = x[:40], y[:40]
    params = demo.init_params(7)
    loss, grads = padax.jit(padax.value_and_grad(demo.loss_fn))(params, padax.device_put(x), padax.device_put(y))
    assert float(padax.jit(demo.loss_fn)(params, padax.device_put(x), padax.device_put(y))) == pytest.approx(
        float(loss), rel=1e-6)

    def ref_loss(p):
        h = jnp.maximum(x @ p["w1"] + p["b1"], 0.0)
        logits = h @ p["w2"] + p["b2"]
        return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(len(y)), y])

    ref_value, ref_grads = jax.value_and_grad(ref_loss)({k: np.asarray(v) for k, v in params.items()})
    np.testing.assert_allclose(float(loss), float(ref_value), rtol=1e-5)
    assert sorted(grads) == sorted(params)
    for k in params:
        g, r = np.asarray(grads[k]), np.asarray(ref_grads[k])
        assert g.shape == r.shape
        np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-6 * np.abs(r).max())


def test_demo_trains_well_above_chance():
    result = demo.main(["--epochs", "3", "--quiet", "--seed", "0"])
    assert result["test_acc"] > 0.8          # chance is 0.1
    assert result["train_acc"][-1] > 0.8
    assert result["losses"][-1] < 0.5 * result["losses"][0]
    assert len(result["losses"]) == 3


def test_demo_saves_and_reloads(tmp_path):
    prefix = str(tmp_path / "out" / "mlp")
    result = demo.main(["--epochs", "2", "--quiet", "--save", prefix])
    assert result["reloaded_test_acc"] == result["test_acc"] > 0.8
    assert sorted(os.listdir(tmp_path / "out")) == ["mlp.padax", "mlp.pdparams"]
    assert os.stat(prefix + ".padax").st_mode & 0o044 == 0o044 & ~_umask()  # not left private to the owner
    params = padax.load(prefix + ".pdparams")["params"]
    np.testing.assert_array_equal(np.asarray(params["w2"]), np.asarray(result["params"]["w2"]))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_demo_cli_fails_below_90_percent(capsys):
    # lr 0: the weights never move, accuracy stays near chance -> non-zero exit
    assert demo._cli(["--epochs", "1", "--lr", "0", "--quiet"]) == 1
    assert "FAILED" in capsys.readouterr().err


def test_demo_as_module():
    out = subprocess.run([sys.executable, "-m", "padax.demo", "--epochs", "2", "--batch-size", "64"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "epoch   2" in out.stdout
    acc = float(out.stdout.split("test accuracy")[1].split()[0])
    assert acc >= 0.9


def test_readme_quick_start_runs(capsys):
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
    assert blocks, "README.md has no python quick-start block"
    namespace = {"__name__": "readme"}
    for block in blocks:  # the blocks build on each other, as a reader runs them
        exec(compile(block, "README.md", "exec"), namespace)
    out = capsys.readouterr().out
    assert "[ 5. 50.]" in out and "reduce_sum" in out
    assert "(3, 4) (8, 3, 4) (3, 3)" in out
