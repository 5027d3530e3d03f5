"""The CNN example trains nn layers (Conv2D, BatchNorm2D, MaxPool2D, Dropout, Linear) to >= 97% on the digits."""
import numpy as np

from padax.examples import cnn_digits


def test_cnn_digits_reaches_97_percent():
    result = cnn_digits.main(["--epochs", "6", "--quiet"])
    assert result["test_acc"] >= 0.97
    assert result["losses"][-1] < result["losses"][0] / 4
    bn = result["model"].features[1]
    assert not np.allclose(bn._mean.numpy(), 0)  # the running statistics left the jitted steps
