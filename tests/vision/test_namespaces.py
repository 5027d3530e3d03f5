"""padax.vision's transforms, datasets and ops offer every public name of Paddle's."""
import warnings

import pytest

from tests.conftest import paddle_oracle


@pytest.mark.parametrize("sub", ["transforms", "datasets", "ops"])
def test_every_paddle_name_exists(sub):
    import importlib
    paddle_oracle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = importlib.import_module(f"paddle.vision.{sub}")
    ours = importlib.import_module(f"padax.vision.{sub}")
    missing = [n for n in theirs.__all__ if not hasattr(ours, n)]
    assert not missing, f"padax.vision.{sub} lacks {missing}"
