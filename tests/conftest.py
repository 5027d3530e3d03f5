"""Shared test helpers: dtype matrices, tolerances, random inputs, comparisons."""
from __future__ import annotations

import atexit
import functools
import os
import shutil
import sys
import tempfile

# where each xdist worker's crash and hang stacks go (its stderr is not shown): the controller prints them
if "PADAX_TEST_CRASH_DIR" not in os.environ:
    os.environ["PADAX_TEST_CRASH_DIR"] = _crash_dir = tempfile.mkdtemp(prefix="padax-test-crashes-")
    atexit.register(shutil.rmtree, _crash_dir, ignore_errors=True)

# the tests' compiled programs go to a throwaway persistent cache, not the user's (~/.cache/padax)
if "PADAX_COMPILATION_CACHE_DIR" not in os.environ:
    os.environ["PADAX_COMPILATION_CACHE_DIR"] = _cache = tempfile.mkdtemp(prefix="padax-test-xla-cache-")
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

import ml_dtypes  # noqa: E402
import numpy as np
import pytest

import padax

FLOAT_DTYPES = [np.float32, np.float16, ml_dtypes.bfloat16]
FLOAT_DTYPES_X64 = [np.float64]
INT_DTYPES = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]
COMPLEX_DTYPES = [np.complex64]
ALL_DTYPES = [np.bool_] + INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

_TOL = {np.dtype(np.float64): 1e-12, np.dtype(np.float32): 1e-5, np.dtype(np.complex64): 1e-5,
        np.dtype(np.complex128): 1e-12, np.dtype(np.float16): 2e-3,
        np.dtype(ml_dtypes.bfloat16): 1.6e-2, np.dtype(ml_dtypes.float8_e4m3fn): 1.3e-1,
        np.dtype(ml_dtypes.float8_e5m2): 2.6e-1}


def tol(dtype, scale: float = 1.0) -> float:
    """Relative tolerance that fits a dtype (0 for exact integer/bool results)."""
    return _TOL.get(np.dtype(dtype), 0.0) * scale


def assert_close(actual, expected, dtype=None, rtol=None, atol=None, check_dtype=True):
    """Compare a padax result with a numpy reference using dtype-appropriate tolerances."""
    a = np.asarray(actual)
    e = np.asarray(expected)
    dt = np.dtype(dtype) if dtype is not None else e.dtype
    if check_dtype:
        assert a.dtype == dt, f"dtype {a.dtype} != expected {dt}"
    assert a.shape == e.shape, f"shape {a.shape} != expected {e.shape}"
    r = tol(dt) if rtol is None else rtol
    at = r if atol is None else atol
    if dt.kind in "fcV" or dt in _TOL:
        np.testing.assert_allclose(a.astype(np.complex128 if dt.kind == "c" else np.float64),
                                   e.astype(np.complex128 if dt.kind == "c" else np.float64),
                                   rtol=r, atol=at, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e)


def rand(shape, dtype, rng=None, low=-3.0, high=3.0):
    """Random host array of a dtype (bool/int/float/complex) for value tests."""
    rng = rng or np.random.default_rng(0)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) > 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, int(low) * 10), min(info.max, int(high) * 10 + 1)
        return rng.integers(lo, hi, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dt)
    return rng.uniform(low, high, shape).astype(dt)


def paddle_oracle():
    """PaddlePaddle (CPU) as a test oracle, imported on first use; skips the test where it is not installed."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle = pytest.importorskip("paddle")
    paddle.set_device("cpu")
    _restore_crash_handlers()
    return paddle


def _restore_crash_handlers() -> None:
    """Take the crash signals back from glog's failure handler, which Paddle installs (also later than its import).

    glog's handler unwinds the C++ stack from inside the signal; a crash inside the unwinder itself (seen in
    long-lived workers, in libgcc's _Unwind_Find_FDE) then deadlocks the worker on the unwinder's lock forever.
    Python's faulthandler prints the Python stacks and then hands the signal to the *previous* handler, so that
    handler is first reset to the default (the worker dies; xdist reports it and `pytest_handlecrashitem` reruns
    the test once in a fresh worker).
    """
    if "paddle" not in sys.modules:
        return
    import faulthandler
    import signal
    faulthandler.disable()
    for name in ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    faulthandler.enable(file=_crash_log(), all_threads=True)


@functools.cache
def _crash_log():
    """This process's file for faulthandler's stacks (stderr outside xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return sys.__stderr__
    return open(os.path.join(os.environ["PADAX_TEST_CRASH_DIR"], worker + ".log"), "a")


def pytest_runtest_teardown(item, nextitem):
    _restore_crash_handlers()   # for tests that import paddle themselves, or make it reinstall glog's handler
    if nextitem is None or nextitem.path != item.path:
        _free_oracle_programs()


def _free_oracle_programs() -> None:
    """jax (a test oracle) keeps every program it compiled; a long worker would collect tens of thousands,
    each holding memory mappings (Linux allows 65,530 per process). padax bounds its own
    (config.live_executable_limit); the oracle's are dropped after each test file."""
    jax = sys.modules.get("jax")
    if jax is not None and hasattr(jax, "clear_caches"):
        jax.clear_caches()


# A test that runs longer than this many seconds is taken to hang (e.g. deadlocked in native code): its
# worker prints every thread's Python stack and exits, and the test is rerun once (below). 0 turns it off.
_TEST_TIMEOUT_S = float(os.environ.get("PADAX_TEST_TIMEOUT", "600"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    import faulthandler
    if _TEST_TIMEOUT_S > 0:
        faulthandler.dump_traceback_later(_TEST_TIMEOUT_S, exit=True, file=_crash_log())
    try:
        yield
    finally:
        if _TEST_TIMEOUT_S > 0:
            faulthandler.cancel_dump_traceback_later()


_crash_reruns: set[str] = set()


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    """(pytest-xdist) A test whose worker crashed or hung runs once more in a fresh worker; a second crash fails.

    Such a crash has so far come only from native code shared by the test oracles and XLA in one long-lived
    process (see `_restore_crash_handlers`), never from the test's own assertions: those fail as usual.
    """
    log = os.path.join(os.environ["PADAX_TEST_CRASH_DIR"], f"{report.node.gateway.id}.log")
    if os.path.exists(log):
        with open(log) as f:
            sys.stderr.write(f"\n[padax tests] {log}:\n" + f.read()[-6000:])
    if crashitem in _crash_reruns:
        return
    _crash_reruns.add(crashitem)
    sys.stderr.write(f"\n[padax tests] the worker running {crashitem} crashed or hung; running it again\n")
    sched.mark_test_pending(crashitem)
    report.outcome = "rerun"


def pytest_report_teststatus(report, config):
    if report.outcome == "rerun":
        return "rerun", "R", "RERUN"


@pytest.fixture
def x64():
    """Run a test with 64-bit types enabled."""
    with padax.enable_x64(True):
        yield


@pytest.fixture
def jax_x32():
    """Run a test with the jax oracle in its default 32-bit mode: several test modules turn jax's x64
    on for their float64 oracles at import, which changes jax's default dtypes and random draws."""
    jax = pytest.importorskip("jax")
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", previous)


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or os.environ.get("PADAX_RUN_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_ignore_collect(collection_path, config):
    """Under --doctest-modules (pyproject.toml) pytest would import every .py file here to look for
    doctests, and helper modules of one basename in two folders (nn/oracle.py, nn/functional/oracle.py)
    collide; only test files and conftests are collected under tests/ (the doctests live in padax/)."""
    if collection_path.suffix == ".py" and not collection_path.name.startswith(("test_", "conftest")):
        return True
    return None
