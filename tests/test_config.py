"""padax.config: every setting listed with its source; quiet C++ logs by default; PADAX_LOG_LEVEL; tracer leaks."""
import os
import subprocess
import sys

import numpy as np
import pytest

import padax
from padax.core.errors import UnexpectedTracerError


def _run(code: str, **env) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("TF_CPP_MIN_LOG_LEVEL", "PADAX_LOG_LEVEL")}
    full_env.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=full_env)


def test_import_and_compute_print_nothing_on_stderr():
    out = _run("import padax; padax.ones([2]).sum()")
    assert out.returncode == 0 and out.stderr == "" and out.stdout == ""


def test_log_level_info_brings_the_cpp_lines_back():
    out = _run("import padax; padax.ones([2]).sum()", PADAX_LOG_LEVEL="info")
    assert out.returncode == 0 and "pjrt_client.cc" in out.stderr


def test_describe_lists_every_setting_with_value_and_source():
    text = _run("import padax; padax.config.update('debug_nans', True); print(padax.config.describe())",
                PADAX_DEFAULT_DTYPE="float64").stdout
    rows = {line.split()[0]: line.split() for line in text.splitlines()[1:]}
    assert set(rows) == set(padax.config._names)
    assert rows["default_dtype"][1:3] == ["'float64'", "env"]
    assert rows["debug_nans"][1:3] == ["True", "set"]
    assert rows["enable_x64"][1:3] == ["True", "default"]


def test_config_sources_and_jax_names():
    assert padax.config.source("check_tracer_leaks") in ("default", "env PADAX_CHECK_TRACER_LEAKS")
    with padax.config.override("jax_debug_infs", True):
        assert padax.config.debug_infs and padax.config.source("debug_infs") == "set"
    with pytest.raises(ValueError, match="log_level"):
        padax.config.update("log_level", "loud")


@pytest.fixture
def leaks():
    with padax.config.override("check_tracer_leaks", True):
        yield


@pytest.mark.parametrize("transform", ["jit", "vmap", "grad"])
def test_check_tracer_leaks(leaks, transform):
    store = []

    def f(x):
        store.append(x * 2)
        return (x * 3).sum() if transform == "grad" else x * 3
    t = getattr(padax, transform)
    with pytest.raises(UnexpectedTracerError, match="outlived"):
        t(f)(padax.ones([2]))
    store.clear()
    assert t(lambda x: (x * 3).sum())(padax.ones([2])) is not None  # no leak: no error


def test_no_false_leak_reports_for_custom_rules_and_checkify(leaks):
    @padax.custom_vjp
    def root(x):
        return padax.sqrt(x)
    root.defvjp(lambda x: (root(x), x), lambda r, ct: (ct / (2 * padax.sqrt(r)),))
    g = padax.vmap(padax.grad(lambda x: padax.jit(root)(x)))(padax.to_tensor([4.0, 16.0]))
    assert g.tolist() == [0.25, 0.125]
    from padax import checkify, lax

    def loop(x):
        return lax.while_loop(lambda c: (checkify.check(c < 5, "big {}", c), c < 3)[1], lambda c: c + 1, x)
    err, out = checkify.checkify(padax.grad(lambda x: root(x) * lax.convert_element_type(loop(0), np.float32)))(
        padax.to_tensor(4.0))
    assert err.get() is None and float(out) == 0.75
