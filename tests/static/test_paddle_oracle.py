"""padax.static training programs (static.nn layers, and paddle.nn Layers in static mode) against Paddle's static
graph (run in a subprocess: enable_static is global):
the same code (tests/static/models.py) with `padax` and with `paddle` as the module, the same initial weights
(ParamAttr with Assign initializers from numpy) and batches; losses per step, an intermediate fetch, the test
program's prediction and every final parameter (batch-norm statistics and Adam's steps included) compared."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import padax

from .models import build, train

HERE = os.path.dirname(os.path.abspath(__file__))
OPTIMIZERS = ("sgd", "momentum", "adam", "adamw", "adam_sched")
BATCHES = (5, 5, 3, 5)  # a second batch size replays the program recorded at the placeholder size


def _cases():
    rng = np.random.default_rng(0)
    cases, data = [], {}
    for model, opts in (("mlp", OPTIMIZERS), ("cnn", ("sgd", "adam")), ("layers", ("momentum", "adam"))):
        for opt in opts:
            key = f"{model}_{opt}_"
            xs = [1, 4, 4] if model == "cnn" else [4]
            if model != "cnn":
                w = dict(w0=rng.normal(size=(4, 8)), b0=rng.normal(size=8) * 0.1, w1=rng.normal(size=(8, 1)),
                         b1=np.zeros(1))
                if model == "layers":
                    w.update(bs=1 + rng.normal(size=8) * 0.1, bb=rng.normal(size=8) * 0.1)
                    del w["b0"]
            else:
                w = dict(cw=rng.normal(size=(3, 1, 3, 3)), cb=rng.normal(size=3) * 0.1, bs=1 + rng.normal(size=3) * 0.1,
                         bb=rng.normal(size=3) * 0.1, w1=rng.normal(size=(48, 1)) * 0.2, b1=np.zeros(1))
            params = list(w) + {"cnn": ["bm", "bv"], "layers": ["bnl_mean", "bnl_variance"]}.get(model, [])
            cases.append(dict(key=key, model=model, x_shape=xs, optimizer=opt, lr=0.05, steps=len(BATCHES),
                              params=params))
            data.update({key + k: v.astype("float32") for k, v in w.items()})
            for i, b in enumerate(BATCHES):
                data[f"{key}x{i}"] = rng.normal(size=[b] + xs).astype("float32")
                data[f"{key}y{i}"] = rng.normal(size=(b, 1)).astype("float32")
    return cases, data


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    pytest.importorskip("paddle")
    cases, data = _cases()
    d = tmp_path_factory.mktemp("static_oracle")
    next(c for c in cases if c["key"] == "mlp_adam_")["save"] = str(d / "paddle_saved" / "model")
    np.savez(d / "in.npz", cases=np.frombuffer(json.dumps(cases).encode(), np.uint8), **data)
    # the legacy program IR: Paddle 3's PIR programs have no clone(for_test=True)
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    r = subprocess.run([sys.executable, os.path.join(HERE, "paddle_oracle.py"), str(d / "in.npz"), str(d / "out.npz")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return cases, data, dict(np.load(d / "out.npz"))


class _Prefixed:
    def __init__(self, data, prefix):
        self.data, self.prefix = data, prefix

    def __getitem__(self, k):
        return self.data[self.prefix + k]


@pytest.mark.parametrize("case", [f"mlp_{o}_" for o in OPTIMIZERS] + ["cnn_sgd_", "cnn_adam_", "layers_momentum_",
                                                                           "layers_adam_"])
def test_training_matches_paddle(oracle, static, case):
    cases, data, ref = oracle
    cfg = next(c for c in cases if c["key"] == case)
    got = train(padax, cfg, _Prefixed(data, case))
    np.testing.assert_allclose(got["losses"], ref[case + "losses"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got["h0"], ref[case + "h0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["test_pred"], ref[case + "test_pred"], rtol=2e-5, atol=1e-5)
    for n in cfg["params"]:
        np.testing.assert_allclose(got["param_" + n], ref[case + "param_" + n], rtol=2e-5, atol=1e-6, err_msg=n)
    # the parameters moved: the comparison is not of initial values
    assert np.abs(got["param_w1"] - data[case + "w1"]).max() > 1e-4


def test_load_parameters_paddle_saved(oracle, static):
    cases, data, ref = oracle
    cfg = next(c for c in cases if c["key"] == "mlp_adam_")
    prog = build(padax, dict(cfg, steps=0), _Prefixed(data, "mlp_adam_"))
    scope = padax.static.Scope()
    with padax.static.scope_guard(scope):
        exe = padax.static.Executor()
        exe.run(prog["startup"])
        padax.static.load(prog["main"], cfg["save"], exe, var_list=cfg["params"])  # Paddle's .pdparams pickle
        for n in cfg["params"]:
            got = np.array(scope.find_var(n).get_tensor())
            np.testing.assert_allclose(got, ref["mlp_adam_param_" + n], rtol=1e-4, atol=1e-5)
            assert np.abs(got - data["mlp_adam_" + n]).max() > 1e-3  # the trained values, not the initial ones
