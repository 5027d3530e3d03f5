"""The vision fine-tuning example runs end to end on the bundled digits (tiny settings)."""
import pytest

from padax.examples import vision_finetune


@pytest.mark.slow
def test_vision_finetune_runs_and_learns():
    out = vision_finetune.main(["--pretrain-epochs", "1", "--finetune-epochs", "2", "--per-class", "10", "--quiet"])
    assert out["pretrain_acc"] > 0.5          # 5 classes: chance is 0.2
    assert out["finetune_acc"] > 0.35
    assert 0.0 <= out["scratch_acc"] <= 1.0
