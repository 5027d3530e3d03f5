"""Run snippets of user code in a fresh Python process, so a regression that aborts the process
(an XLA check failure, a segfault) fails one test instead of killing the test worker."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

_RUNNER = textwrap.dedent('''
    import json, sys, traceback
    import numpy as np
    import padax
    results = []
    for code in json.loads(sys.argv[1]):
        try:
            exec(code, {"padax": padax, "np": np})
            results.append({"code": code, "error": None})
        except BaseException as e:  # noqa: BLE001
            results.append({"code": code, "error": type(e).__name__, "message": str(e),
                            "module": type(e).__module__})
    print("RESULTS" + json.dumps(results))
''')


def run_snippets(snippets: list[str], timeout: float = 120, env: dict | None = None) -> list[dict]:
    """Each snippet's outcome: {'error': exception type name or None, 'message': ..., 'module': ...}."""
    proc = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(snippets)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    marker = [line for line in proc.stdout.splitlines() if line.startswith("RESULTS")]
    assert proc.returncode == 0 and marker, (
        f"the process died (exit code {proc.returncode}) running {snippets}:\n{proc.stderr[-3000:]}")
    return json.loads(marker[-1][len("RESULTS"):])
