"""LeNet-5 for 28x28 single-channel images (Paddle's layout: `features` conv stack, `fc` classifier)."""
from __future__ import annotations

import padax
from padax import nn


class LeNet(nn.Layer):
    """LeNet: two conv+pool stages and three Linear layers (`num_classes <= 0` leaves out the classifier).

    Args:
        num_classes: outputs of the last Linear layer; `<= 0` leaves out the three Linear layers.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits for (N, 1, 28, 28) inputs.

    Examples:
        >>> import padax
        >>> from padax.vision.models import LeNet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return LeNet(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        61610
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 1, 28, 28), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                                      nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(padax.flatten(x, 1))
        return x
