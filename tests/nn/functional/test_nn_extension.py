"""padax.nn.functional sequence_mask, temporal_shift, npair_loss and diag_embed vs Paddle."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check

RNG = np.random.default_rng(0)


def test_against_paddle():
    PF = paddle_oracle().nn.functional
    x = RNG.standard_normal((6, 8, 2, 3)).astype(np.float32)
    xl = np.moveaxis(x, 1, -1).copy()
    a, p = RNG.standard_normal((2, 5, 4)).astype(np.float32)
    labels = np.array([1, 2, 1, 0, 2], np.int64)

    def run(M, x, xl, a, p, labels, d):
        return (M.temporal_shift(x, 3), M.temporal_shift(x, 2, 0.2), M.temporal_shift(xl, 3, data_format="NHWC"),
                M.npair_loss(a, p, labels), M.diag_embed(d))
    check(lambda *v: run(F, *v), lambda *v: run(PF, *v), [x, xl, a, p, labels, a[:2]], diff=(0, 1, 2, 3, 5))
    lengths = np.array([[3, 1], [0, 5]])
    check(lambda n: (F.sequence_mask(n, 5), F.sequence_mask(n, 4, "float32"), F.sequence_mask(n, 6, "bool")),
          lambda n: (PF.sequence_mask(n, 5), PF.sequence_mask(n, 4, "float32"), PF.sequence_mask(n, 6, "bool")),
          [lengths], diff=())
    assert F.sequence_mask(padax.to_tensor(lengths)).shape == (2, 2, 5)   # maxlen = max(x)
    with pytest.raises(ValueError, match="sequence_mask: maxlen=None reads max"):
        padax.jit(F.sequence_mask)(padax.to_tensor(lengths))
