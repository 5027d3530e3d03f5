"""padax.inference's Predictor (Paddle's paddle.inference): Config, handles, run(), run(list), clone() across
threads; outputs equal the eager model's."""
import os
import threading

import numpy as np
import pytest

import padax
from padax import inference, nn


class TwoHeads(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 16)
        self.cls = nn.Linear(16, 4)
        self.reg = nn.Linear(16, 1)

    def forward(self, image, scale):
        h = padax.nn.functional.relu(self.body(image)) * scale
        return {"logits": self.cls(h), "box": self.reg(h)}


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    padax.seed(1)
    m = TwoHeads().eval()
    path = str(tmp_path_factory.mktemp("pred") / "twoheads")
    padax.jit.save(m, path, input_spec=[padax.static.InputSpec([8, 6], "float32"),
                                        padax.static.InputSpec([8, 1], "float32")])
    return m, path


def _inputs(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((8, 6)).astype(np.float32), rng.uniform(0.5, 2, (8, 1)).astype(np.float32)


def _expected(m, x, s):
    out = m(padax.to_tensor(x), padax.to_tensor(s))
    return [out["logits"].numpy(), out["box"].numpy()]  # the saved outputs, flattened in order


def test_config_forms_and_settings(model_path):
    _, path = model_path
    for given in (path, path + ".padax", path + ".pdmodel", os.path.dirname(path)):
        assert inference.Config(given).prog_file() == path + ".padax"
    c = inference.Config(path + ".pdmodel", path + ".pdiparams")
    c.enable_use_gpu(256, 0)
    assert c.use_gpu() and c.gpu_device_id() == 0 and c.memory_pool_init_size_mb() == 256
    c.disable_gpu()
    c.switch_ir_optim(False)
    c.enable_memory_optim()
    c.set_cpu_math_library_num_threads(3)
    c.disable_glog_info()
    assert (c.use_gpu(), c.ir_optim(), c.enable_memory_optim_status(), c.cpu_math_library_num_threads(),
            c.glog_info_disabled()) == (False, False, True, 3, True)
    assert c.model_dir() == path + ".pdmodel" and c.params_file() == path + ".padax"
    with pytest.raises(ValueError, match="num_threads"):
        c.set_cpu_math_library_num_threads(0)
    with pytest.raises(inference.SavedProgramError, match="does not exist"):
        inference.create_predictor(inference.Config(path + "_missing"))


def test_handles_and_run(model_path):
    m, path = model_path
    pred = inference.create_predictor(inference.Config(path))
    assert pred.get_input_names() == ["image", "scale"]
    assert pred.get_output_names() == ["output_0", "output_1"]
    x, s = _inputs(0)
    h = pred.get_input_handle("image")
    assert h.name() == "image" and h.type() == inference.DataType.FLOAT32 and h.shape() == [8, 6]
    h.reshape([8, 6])
    h.copy_from_cpu(x)
    pred.get_input_handle("scale").copy_from_cpu(s.astype(np.float64))  # cast to the handle's dtype
    assert pred.run() is True
    got = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    for g, e in zip(got, _expected(m, x, s)):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)
    assert pred.get_output_handle("output_0").shape() == [8, 4]
    outs = pred.run(list(_inputs(1)))
    for g, e in zip(outs, _expected(m, *_inputs(1))):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6, atol=1e-6)


def test_errors(model_path):
    _, path = model_path
    pred = inference.create_predictor(inference.Config(path))
    with pytest.raises(KeyError, match="the inputs are \\['image', 'scale'\\]"):
        pred.get_input_handle("x")
    with pytest.raises(RuntimeError, match="no data for inputs"):
        pred.run()
    with pytest.raises(ValueError, match=r"saved for shape \[8, 6\], got \[4, 6\]"):
        pred.get_input_handle("image").reshape([4, 6])
    with pytest.raises(ValueError, match=r"expected shape \[8, 6\]"):
        pred.get_input_handle("image").copy_from_cpu(np.zeros((4, 6), np.float32))
    with pytest.raises(TypeError, match="expected float32 data, got complex64"):
        pred.get_input_handle("image").copy_from_cpu(np.zeros((8, 6), np.complex64))
    with pytest.raises(RuntimeError, match="run\\(\\) first"):
        pred.get_output_handle("output_0").copy_to_cpu()


def test_clones_in_threads(model_path):
    m, path = model_path
    main = inference.create_predictor(inference.Config(path))
    clones = [main.clone() for _ in range(4)]
    assert all(c._shared is main._shared for c in clones)  # one program, one set of weights
    results, errors = {}, []

    def work(i, pred):
        try:
            for j in range(5):
                x, s = _inputs(10 * i + j)
                pred.get_input_handle("image").copy_from_cpu(x)
                pred.get_input_handle("scale").copy_from_cpu(s)
                pred.run()
                results[(i, j)] = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i, p)) for i, p in enumerate(clones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 20
    for (i, j), got in results.items():
        for g, e in zip(got, _expected(m, *_inputs(10 * i + j))):
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


def test_saved_function(tmp_path):
    w = padax.to_tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    padax.jit.save(lambda v: v @ w, str(tmp_path / "f"), input_spec=[padax.static.InputSpec([2, 3], "float32")])
    pred = inference.create_predictor(inference.Config(str(tmp_path / "f")))
    assert pred.get_input_names() == ["v"]
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(pred.run([x])[0].numpy(), x @ np.arange(6).reshape(3, 2))
