"""Multi-device tests run in one child pytest process that has 8 CPU devices.

The CPU client's device count is fixed when it is created, and the rest of
the suite expects one device, so tests marked `spmd` are not run in the
parent process: the first one reached starts a child
`pytest <the selected spmd tests>` with PADAX_NUM_CPU_DEVICES=8 (once per
test session, shared by pytest-xdist workers through a lock file), and every
parent test then reports its own outcome from the child's results. Running
pytest with PADAX_NUM_CPU_DEVICES=8 already set runs them in-process.
"""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys

import pytest

N_DEVICES = 8
_CHILD_ENV = "PADAX_SHARDING_TEST_CHILD"
_RESULTS_ENV = "PADAX_SHARDING_TEST_RESULTS"
_CHILD_TIMEOUT_S = 900


def _in_process() -> bool:
    return os.environ.get(_CHILD_ENV) == "1" or os.environ.get("PADAX_NUM_CPU_DEVICES", "1") == str(N_DEVICES)


def pytest_configure(config):
    config.addinivalue_line("markers", "spmd: needs 8 CPU devices (runs in a child process with 8 devices)")


@pytest.fixture
def mesh8():
    """A 1-d mesh ('i',) of the 8 CPU devices (None in a parent process that delegates)."""
    if not _in_process():
        return None
    import padax
    return padax.make_mesh((N_DEVICES,), ("i",))


@pytest.fixture
def mesh42():
    """A (4, 2) mesh with axes ('x', 'y') (None in a parent process that delegates)."""
    if not _in_process():
        return None
    import padax
    return padax.make_mesh((4, 2), ("x", "y"))


# ---- child side: record each test's outcome ------------------------------------------------

_child_results: dict = {}


def pytest_runtest_logreport(report):
    if os.environ.get(_CHILD_ENV) != "1":
        return
    r = _child_results.setdefault(report.nodeid, {"outcome": "passed", "longrepr": ""})
    if report.failed:
        r["outcome"] = "failed"
        r["longrepr"] += f"[{report.when}] " + str(report.longrepr) + "\n"
    elif report.skipped and r["outcome"] == "passed":
        r["outcome"] = "skipped"
        lr = report.longrepr
        r["longrepr"] = lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get(_RESULTS_ENV)
    if os.environ.get(_CHILD_ENV) == "1" and path:
        with open(path, "w") as f:
            json.dump(_child_results, f)


# ---- parent side: run the child once, report from its results --------------------------------

_parent_cache: dict = {}


def _selected_spmd_ids(session) -> list[str]:
    return [it.nodeid for it in session.items if it.get_closest_marker("spmd") is not None
            and not any(m.name == "skip" for m in it.iter_markers())]


def _run_child(config, session) -> dict:
    if "results" in _parent_cache:
        return _parent_cache["results"]
    root = str(config.rootpath)
    shared = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    base = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"padax-sharding-{shared}")
    os.makedirs(base, exist_ok=True)
    results_path = os.path.join(base, "results.json")
    with open(os.path.join(base, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one child per session; other workers wait and read
        try:
            if not os.path.exists(results_path):
                ids = _selected_spmd_ids(session)
                env = dict(os.environ, PADAX_NUM_CPU_DEVICES=str(N_DEVICES), **{_CHILD_ENV: "1"},
                           **{_RESULTS_ENV: results_path + ".tmp"})
                env.pop("PYTEST_XDIST_WORKER", None)
                env.pop("PYTEST_XDIST_TESTRUNUID", None)
                cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                       "--rootdir", root, *ids]
                if config.getoption("--runslow", default=False):
                    cmd.append("--runslow")
                proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True,
                                      timeout=_CHILD_TIMEOUT_S)
                if not os.path.exists(results_path + ".tmp"):
                    raise RuntimeError("the 8-device child pytest run produced no results:\n"
                                       + proc.stdout[-4000:] + proc.stderr[-4000:])
                os.replace(results_path + ".tmp", results_path)
            with open(results_path) as f:
                results = json.load(f)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    _parent_cache["results"] = results
    return results


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if _in_process() or pyfuncitem.get_closest_marker("spmd") is None:
        return None
    results = _run_child(pyfuncitem.config, pyfuncitem.session)
    r = results.get(pyfuncitem.nodeid)
    if r is None:
        pytest.fail(f"no result for {pyfuncitem.nodeid} from the 8-device child run", pytrace=False)
    if r["outcome"] == "skipped":
        pytest.skip(r["longrepr"])
    if r["outcome"] == "failed":
        pytest.fail("in the 8-device child process:\n" + r["longrepr"], pytrace=False)
    return True
