"""scripts/gen_api_docs.py runs and its Array API list matches the one the name test checks."""
from __future__ import annotations

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_gen_api_docs_runs(tmp_path):
    gen = _load("gen_api_docs", os.path.join(ROOT, "scripts", "gen_api_docs.py"))
    out = tmp_path / "api.md"
    assert gen.main(["-o", str(out)]) == 0
    text = out.read_text()
    assert "## Paddle 3 tensor API" in text and "## Python Array API standard 2023.12" in text
    assert "| `matmul` | yes | `padax.matmul` |" in text
    assert "| `unique_all` | yes | `padax.numpy.unique_all` |" in text
    assert gen.main(["-o", str(out), "--check"]) == 0
    out.write_text(text + "stale")
    assert gen.main(["-o", str(out), "--check"]) == 1
    assert sum(len(gen.names(b)) for b in gen.PADDLE.values()) >= 300
    # the script's standard list is the one test_array_api_names checks
    names = _load("array_api_names", os.path.join(ROOT, "tests", "numpy", "test_array_api_names.py"))
    std = {n for k, b in gen.ARRAY_API.items() if "extension" not in k for n in b.split()}
    assert std == set(names.MAIN) - set(names.NEWER)
    assert set(gen.names(gen.ARRAY_API["linalg extension"])) == set(names.LINALG)
    assert set(gen.names(gen.ARRAY_API["fft extension"])) == set(names.FFT)
