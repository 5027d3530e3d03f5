"""Paddle's own docstring examples that use the tape or in-place updates (scripts/doc_examples.py `--idioms`:
`.backward()`, `.grad`, `paddle.grad`, `stop_gradient = ...`, `x[i] = v`, `x.add_(...)`, `out=`, ...), which
padax used to skip, now run under padax with Paddle's numbers."""
from __future__ import annotations

import json

from tests.conftest import paddle_oracle
from tests.test_doc_examples_script import _script

# examples that do not give Paddle's numbers, each for a reason that is not the tape or an in-place update
KNOWN = {
    "flatten": "Paddle's flatten returns a view: writing into the input changes it (padax shares no storage)",
    "from_dlpack": "a view again: Paddle's from_dlpack shares the numpy array's memory",
    "set_grad_enabled": "the example prints the context object's repr",
    "as_tensor": "the example calls the module paddle.tensor",
    "flops": "padax.flops counts primitives, not Paddle's layer types",
    "summary": "padax.summary passes the example's list of input sizes as separate arguments",
    "nn.functional.cross_entropy": "the example imports paddle.nn.loss, a module padax does not have",
}


def test_tape_and_in_place_doc_examples_give_paddle_numbers(tmp_path):
    paddle_oracle()
    out = tmp_path / "idioms.json"
    assert _script().main(["paddle", "--idioms", "--json", str(out)]) == 0
    results = json.loads(out.read_text())["results"]
    ok = {r["name"] for r in results if r["status"] == "ok"}
    bad = {r["name"]: r for r in results if r["status"] in ("differs", "error") and r["name"] not in KNOWN}
    assert not bad, json.dumps(bad, indent=1)[:3000]
    assert {"grad", "clone", "assign", "to_tensor", "scatter", "reshape", "unsqueeze",
            "nn.functional.adaptive_log_softmax_with_loss"} <= ok, sorted(ok)
    assert len(ok) >= 29
