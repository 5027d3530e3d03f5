"""Deployment workloads: int8 inference of a digits MLP (padax.quantization PTQ, int8 x int8 -> int32 matmuls)
against the float32 model (the baseline), and the per-call overhead of a `padax.inference` Predictor against
calling the `padax.jit.load`-ed layer directly (the baseline).

The MLP is 64 -> 256 -> 256 -> 10 with ReLUs, run on all 1797 bundled digits images per call (jitted);
PTQ calibrates with abs-max observers (per-channel weights) on the Linear and Conv2D layers only. The CNN
row is padax/examples/cnn_digits' DigitsCNN (two Conv-BN-ReLU-MaxPool blocks and a Linear) with int8
convolutions (on CPU their integers are convolved in float32, exactly: see QuantizedConv2D). The Predictor
row uses a batch of 8 images (`run([x])`, host data in and out): what serving one small request costs.
`model_sizes()` gives the on-disk sizes of the saved float32 and int8 models (`python -m benchmarks.quantization`).
"""
from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

from benchmarks.harness import Workload

_SMOKE = "--smoke" in sys.argv
_H = 16 if _SMOKE else 256
_DIR = tempfile.mkdtemp(prefix="padax_bench_quant_")


def _images() -> np.ndarray:
    from padax.data import load_digits
    images, _ = load_digits()
    return images.reshape(len(images), 64).astype(np.float32) / 16.0


def _config():
    """Observers for the Linear and Conv2D layers only (their inputs are quantized inside the int8 layers; no
    fake quantization between BatchNorm, ReLU and pooling)."""
    from padax import nn
    from padax.quantization import QuantConfig
    from padax.quantization.observers import AbsMaxChannelWiseWeightObserver, AbsmaxObserver
    config = QuantConfig(activation=None, weight=None)
    config.add_type_config([nn.Linear, nn.Conv2D], activation=AbsmaxObserver(),
                           weight=AbsMaxChannelWiseWeightObserver())
    return config


def _models():
    import padax
    from padax import nn
    from padax.quantization import PTQ
    padax.seed(0)
    model = nn.Sequential(nn.Linear(64, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, 10)).eval()
    ptq = PTQ(_config())
    q = ptq.quantize(model)
    q(padax.to_tensor(_images()[:512]))
    return model, ptq.convert(q)


def _cnn_models():
    import padax
    from padax.examples.cnn_digits import DigitsCNN
    from padax.quantization import PTQ
    padax.seed(0)
    model = DigitsCNN(width=8 if _SMOKE else 32).eval()
    ptq = PTQ(_config())
    q = ptq.quantize(model)
    q(padax.to_tensor(_images()[:256].reshape(-1, 1, 8, 8)))
    return model, ptq.convert(q)


def _forward(int8: bool, cnn: bool = False):
    import padax
    model, qmodel = _cnn_models() if cnn else _models()
    m = qmodel if int8 else model
    x = padax.to_tensor(_images().reshape(-1, 1, 8, 8) if cnn else _images())
    f = padax.jit(lambda mm, v: mm(v))

    def run():
        return f(m, x).block_until_ready()
    run()
    return run


def padax_int8():
    return _forward(True)


def padax_float32():
    return _forward(False)


def padax_cnn_int8():
    return _forward(True, cnn=True)


def padax_cnn_float32():
    return _forward(False, cnn=True)


def _saved(batch: int = 8) -> tuple[str, np.ndarray]:
    import padax
    model, _ = _models()
    x = _images()[:batch]
    path = os.path.join(_DIR, "float_b8")
    padax.jit.save(model, path, input_spec=[x])
    return path, x


def padax_predictor():
    import padax
    path, x = _saved()
    pred = padax.inference.create_predictor(padax.inference.Config(path))

    def run():
        return pred.run([x])[0].numpy()
    run()
    return run


def padax_jit_load():
    import padax
    path, x = _saved()
    layer = padax.jit.load(path)

    def run():
        return layer(x).numpy()
    run()
    return run


def model_sizes() -> dict[str, int]:
    """Bytes on disk of the saved float32 and int8 MLPs (input spec: the 1797 images)."""
    import padax
    model, qmodel = _models()
    x = _images()
    out = {}
    for name, m in (("float32", model), ("int8", qmodel)):
        path = os.path.join(_DIR, f"size_{name}")
        padax.jit.save(m, path, input_spec=[x])
        with np.load(path + ".padax", allow_pickle=False) as z:
            weights = sum(z[k].nbytes for k in z.files if k[0] == "p" and k[1:].isdigit())
        out[name] = os.path.getsize(path + ".padax")
        out[name + "_weights"] = weights
    return out


def workloads() -> list[Workload]:
    return [
        Workload("int8_mlp_digits", f"digits MLP 64-{_H}-{_H}-10, 1797 images, PTQ int8 (int32 accumulate); "
                 "baseline: float32", {"padax": padax_int8}, baseline=padax_float32),
        Workload("int8_cnn_digits", "digits CNN (examples/cnn_digits, width 32), 1797 images, PTQ int8 convs and "
                 "Linear (int32 accumulate); baseline: float32", {"padax": padax_cnn_int8},
                 baseline=padax_cnn_float32),
        Workload("predictor_run_b8", "Predictor.run([x]) of the saved float MLP, batch 8, host in/out; baseline: "
                 "the jit.load-ed layer called on the same host array", {"padax": padax_predictor},
                 baseline=padax_jit_load),
    ]


if __name__ == "__main__":
    print(model_sizes())
