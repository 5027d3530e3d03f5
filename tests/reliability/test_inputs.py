"""Inputs that used to give silently wrong answers: integers out of range, fractional shapes and axes."""
import numpy as np
import pytest

import padax
import padax.numpy as pnp

OUT_OF_RANGE = [
    lambda: padax.to_tensor(300, dtype="int8"),
    lambda: padax.to_tensor(-1, dtype="uint8"),
    lambda: padax.to_tensor(2 ** 70),
    lambda: padax.to_tensor([1, 2 ** 70]),
    lambda: padax.to_tensor([1, 2 ** 40], dtype="int32"),
    lambda: padax.to_tensor(np.array([2 ** 40]), dtype="int32"),
    lambda: padax.device_put(np.array([300]), dtype="int8"),
    lambda: pnp.asarray([2 ** 40], dtype=pnp.int32),
]


@pytest.mark.parametrize("make", OUT_OF_RANGE)
def test_integers_out_of_range_raise_overflow_error(make):
    with pytest.raises(OverflowError, match="out of range"):
        make()


def test_integers_in_range_convert_exactly():
    assert padax.to_tensor(255, dtype="uint8").item() == 255
    assert padax.to_tensor(-128, dtype="int8").item() == -128
    assert padax.to_tensor(2 ** 40).item() == 2 ** 40 and padax.to_tensor(2 ** 40).dtype == np.int64
    np.testing.assert_array_equal(padax.to_tensor(np.arange(5), dtype="int8").numpy(), np.arange(5))
    with padax.enable_x64(False):  # 32-bit-only mode narrows int64 data: refused when values do not fit
        assert padax.to_tensor(np.array([2 ** 20])).dtype == np.int32
        with pytest.raises(OverflowError, match="int32"):
            padax.to_tensor(np.array([2 ** 40]))


FRACTIONAL = [
    (lambda: padax.zeros([2.5, 3]), "zeros"),
    (lambda: padax.ones([2.0]), "ones"),
    (lambda: padax.full([2.5], 1), "full"),
    (lambda: padax.eye(2.5), "eye"),
    (lambda: padax.reshape(padax.ones([6]), [1.5, 6.9]), "reshape"),
    (lambda: padax.mean(padax.ones([2, 3]), axis=1.5), "mean"),
    (lambda: padax.tile(padax.ones([2]), [1.5]), "tile"),
    (lambda: padax.broadcast_to(padax.ones([1]), [2.5]), "broadcast_to"),
    (lambda: padax.expand(padax.ones([1]), [2.5]), "expand"),
    (lambda: padax.linspace(0, 1, 5.5), "linspace"),
    (lambda: padax.randn([2.5]), "randn"),
    (lambda: padax.squeeze(padax.ones([1, 2]), axis=0.0), "squeeze"),
    (lambda: padax.flip(padax.ones([2]), 0.5), "flip"),
    (lambda: padax.concat([padax.ones([2])], axis=0.5), "concat"),
    (lambda: pnp.zeros((2.5,)), "zeros"),
    (lambda: pnp.sum(pnp.ones(3), axis=0.5), "sum"),
    (lambda: pnp.reshape(pnp.ones(6), (2.0, 3)), "reshape"),
    (lambda: pnp.split(pnp.ones(4), 2.0), "split"),
    (lambda: pnp.roll(pnp.ones(4), 1.5), "roll"),
]


@pytest.mark.parametrize("call,op", FRACTIONAL)
def test_fractional_shapes_and_axes_are_refused(call, op):
    with pytest.raises(TypeError, match=f"{op}: .*must be (an integer|integers)"):
        call()


def test_integer_like_shapes_still_work():
    assert padax.zeros([np.int64(2), padax.to_tensor(3)]).shape == (2, 3)
    assert padax.sum(padax.ones([2, 3]), axis=padax.to_tensor([1])).shape == (2,)
    assert pnp.ones(np.int32(3)).shape == (3,)
    assert [p.shape for p in pnp.split(pnp.ones(4), [1, 3])] == [(1,), (2,), (1,)]


@pytest.mark.parametrize("value", ["0", "abc", "-2", "2.5"])
def test_bad_num_cpu_devices_env_is_a_clear_error(value):
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-c", "import padax"], capture_output=True, text=True,
                          env={**__import__("os").environ, "PADAX_NUM_CPU_DEVICES": value}, timeout=120)
    assert proc.returncode != 0
    assert "PADAX_NUM_CPU_DEVICES" in proc.stderr and "positive integer" in proc.stderr
    assert "invalid literal" not in proc.stderr


@pytest.mark.parametrize("value", [0, 2.5, True, "x"])
def test_bad_num_cpu_devices_setting_is_refused(value):
    with pytest.raises(ValueError, match="positive integer"):
        padax.config.update("num_cpu_devices", value)
    assert padax.config.num_cpu_devices >= 1


def test_device_put_place_strings():
    assert padax.device_put(np.ones(2), "cpu").device == padax.devices()[0]
    assert padax.device_put(padax.ones([2]), "cpu:0").device == padax.devices()[0]
    with pytest.raises(ValueError, match=r"device 'gpu:7' is not available; padax has: cpu:0"):
        padax.device_put(padax.ones([2]), "gpu:7")
    with pytest.raises(ValueError, match="unknown device 'banana'"):
        padax.device_put(np.ones(2), "banana")
