"""The public-API fuzzer (tests/reliability/api_fuzz.py) on a fixed seed and time budget, in a child
process: every bad call gets a padax/Python error in padax's words, never an XLA/MLIR error, an
internal error, an abort or a hang. The slow tier runs it longer on more seeds."""
import json
import subprocess
import sys

import pytest


def _fuzz(seed: int, budget: float, tmp_path) -> dict:
    report = tmp_path / f"fuzz{seed}.json"
    proc = subprocess.run([sys.executable, "-m", "tests.reliability.api_fuzz", str(seed), str(budget), str(report)],
                          capture_output=True, text=True, timeout=budget + 300)
    current = (tmp_path / f"fuzz{seed}.json.current")
    last = current.read_text() if current.exists() else "?"
    assert proc.returncode == 0 and report.exists(), (
        f"the fuzzer's process died (exit code {proc.returncode}) during {last}:\n{proc.stderr[-3000:]}")
    return json.loads(report.read_text())


def _check(result: dict) -> None:
    assert result["calls"] >= 20, result  # the budget bought a sample (fewer calls on a loaded machine)
    assert result["outcomes"]["error"] > 0 and result["outcomes"]["ok"] > 0, result
    lines = [f"{v['call']}\n    {v['why']}: {v.get('error', '')}" for v in result["violations"]]
    assert not lines, f"{len(lines)} calls broke the error contract (seed {result['seed']}):\n" + "\n".join(lines)


def test_api_fuzzer_fixed_seed(tmp_path):
    _check(_fuzz(seed=0, budget=25, tmp_path=tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_api_fuzzer_longer(seed, tmp_path):
    _check(_fuzz(seed=seed, budget=240, tmp_path=tmp_path))
