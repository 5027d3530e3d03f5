"""padax.device: Paddle's device names answer for the backends installed here, as Paddle's do."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import padax
from tests.conftest import paddle_oracle


def test_queries_answer_for_what_is_installed():
    gpus = padax.device.cuda.device_count()
    platforms = {d.platform for d in padax.devices()}
    assert (gpus > 0) == bool(platforms & {"cuda", "rocm"}) or platforms == {"cpu"}
    assert padax.is_compiled_with_cuda() == bool(padax.device._platform_devices("cuda"))
    assert padax.is_compiled_with_xpu() is False and padax.is_compiled_with_ipu() is False
    assert padax.is_compiled_with_cinn() is False and padax.is_compiled_with_distribute() is True
    assert padax.is_compiled_with_custom_device("npu") is False
    assert padax.device.xpu.device_count() == 0
    assert padax.device.get_all_device_type()[0] == "cpu"
    assert padax.device.get_available_device()[0] == "cpu"
    assert padax.device.device_count() == gpus and padax.device.is_available() == (gpus > 0)


def test_matches_paddle_on_a_cpu_machine():
    paddle = paddle_oracle()
    if padax.device.cuda.device_count() or paddle.is_compiled_with_cuda():
        pytest.skip("compares the CPU-only answers")
    assert padax.get_device() == paddle.get_device() == "cpu"
    assert padax.device.cuda.device_count() == paddle.device.cuda.device_count() == 0
    assert padax.is_compiled_with_cuda() == paddle.is_compiled_with_cuda()
    assert str(padax.set_device("cpu")) == str(paddle.set_device("cpu")) == "Place(cpu)"
    assert str(padax.CPUPlace()) == str(paddle.CPUPlace())
    x = padax.ones([2])
    assert str(x.place) == str(paddle.ones([2]).place) and x.place == padax.CPUPlace() and x.place == "Place(cpu)"
    assert x.place.is_cpu_place() and not x.place.is_gpu_place()
    assert padax.device.get_device(x) == paddle.device.get_device(paddle.ones([2])) == -1
    for bad in ("gpu", "gpu:0", "xpu:1", "foo", "cpu:x"):
        with pytest.raises(ValueError):
            paddle.set_device(bad)
        with pytest.raises(ValueError):
            padax.set_device(bad)
    with pytest.raises(ValueError, match="available: cpu"):
        padax.CUDAPlace(0)


def test_creation_takes_device_and_tensor_methods_move():
    x = padax.zeros([2, 3], device="cpu")
    assert x.place == padax.CPUPlace()
    assert padax.to_tensor([1.0], place=padax.CPUPlace()).place == "Place(cpu)"
    assert padax.arange(3, device=padax.CPUPlace()).place.is_cpu_place()
    assert x.cpu().place == "Place(cpu)" and x.to("cpu").place == "Place(cpu)"
    padax.device.synchronize()
    with pytest.raises(ValueError):
        padax.device.cuda.synchronize()


def test_set_device_switches_the_default_device():
    """With two CPU devices, making the second the default moves new Tensors and compiled programs there,
    while Tensors made before stay (as in Paddle)."""
    code = """
import padax
from padax.runtime import backend
f = padax.jit(lambda a: a * 2)
x = padax.ones([3]) + 1
assert f(x).device == padax.devices()[0]
backend.set_default_device(padax.devices()[1])
y = padax.ones([3]) + 1
assert y.device == padax.devices()[1] and f(y).device == padax.devices()[1]
assert padax.to_tensor([1.0]).device == padax.devices()[1] and x.device == padax.devices()[0]
backend.set_default_device(padax.devices()[0])
assert (padax.ones([2]) * 3).device == padax.devices()[0]
print("ok")
"""
    env = dict(os.environ, PADAX_NUM_CPU_DEVICES="2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]


def test_dlpack_round_trip_with_paddle():
    paddle = paddle_oracle()
    import numpy as np
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = padax.from_dlpack(paddle.to_tensor(a))
    assert x.dtype == np.float32 and x.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(x), a)
    back = paddle.from_dlpack(padax.to_tensor(a))
    np.testing.assert_array_equal(back.numpy(), a)
    np.testing.assert_array_equal(np.from_dlpack(padax.to_tensor(a)), a)
    np.testing.assert_array_equal(np.asarray(padax.from_dlpack(padax.to_dlpack(padax.to_tensor(a)))), a)
    np.testing.assert_array_equal(np.asarray(padax.from_dlpack(paddle.to_dlpack(paddle.to_tensor(a)))), a)
    np.testing.assert_array_equal(paddle.from_dlpack(padax.to_dlpack(padax.to_tensor(a))).numpy(), a)
    capsule = padax.to_dlpack(padax.to_tensor(a))
    padax.from_dlpack(capsule)
    with pytest.raises((TypeError, ValueError, RuntimeError, BufferError)):
        padax.from_dlpack(capsule)          # a capsule is consumed once
    with pytest.raises(TypeError, match="capsule"):
        padax.from_dlpack([1.0, 2.0])
    assert padax.get_default_device() == "cpu" or padax.device.cuda.device_count()
