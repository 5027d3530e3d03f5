"""scripts/doc_examples.py runs Paddle's docstring examples under padax and compares the numbers."""
from __future__ import annotations

import importlib.util
import json
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _script():
    spec = importlib.util.spec_from_file_location("doc_examples", os.path.join(ROOT, "scripts", "doc_examples.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_number_comparison_ignores_formats_but_not_values():
    s = _script()
    paddle_out = "Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [0.73105860, 2.])"
    jax_out = "Array([0.7310586, 2.       ], dtype=float32)"
    assert s._same(paddle_out, jax_out)
    assert not s._same(paddle_out, "Array([0.74, 2.], dtype=float32)")
    assert not s._same(paddle_out, "Array([0.7310586], dtype=float32)")
    assert s._same("nan True", "nan True") and not s._same("nan", "1.0")


def test_runs_paddle_examples(tmp_path):
    pytest.importorskip("paddle")
    s = _script()
    out = tmp_path / "r.json"
    assert s.main(["paddle", "cumsum", "linalg.det", "tensor_split", "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["counts"]["ok"] == 3 and len(res["results"]) == 3


def test_out_of_scope_examples_are_skipped():
    s = _script()
    for src in ["paddle.enable_static()", "paddle.distributed.init_parallel_env()", "x.cuda()"]:
        assert s.OUT_OF_SCOPE.search(src), src
    for src in ["y = paddle.add(x, y)", "z = x[0]", "paddle.zeros(shape=[2, 3])", "a == b", "x.add_(y)",
                "loss.backward()", "x[0] = 1", "paddle.msort(x, out=o)"]:
        assert not s.OUT_OF_SCOPE.search(src), src
