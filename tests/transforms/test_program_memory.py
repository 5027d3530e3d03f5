"""Compiled programs are freed: with the jitted function that owns them, by padax.clear_caches(), and when
more than config.live_executable_limit are alive (each holds memory mappings of machine code; a process that
runs out of them crashes inside XLA's JIT)."""
import gc

import numpy as np
import pytest

import padax
from padax.runtime.backend import live_executable_count
from padax.lowering import compile as compile_mod


@pytest.fixture
def fresh_caches():
    padax.clear_caches()
    gc.collect()
    yield live_executable_count()
    padax.clear_caches()


def test_a_dropped_jitted_function_frees_its_programs(fresh_caches):
    base = fresh_caches
    for n in range(1, 21):  # a new function each time, as `jit(lambda ...)` in a loop
        out = padax.jit(lambda a: a * 2.0 + 1.0)(padax.ones((n,)))
        np.testing.assert_array_equal(out.numpy(), np.full((n,), 3.0, np.float32))
    assert live_executable_count() <= base + 1  # (refcounting alone frees them: no cycle through C++)

    f = padax.jit(lambda a: a - 1.0)
    for n in range(1, 6):
        f(padax.ones((n,)))
    assert live_executable_count() == base + 5  # kept while the function lives
    del f
    assert live_executable_count() == base


def test_clear_caches_frees_eager_programs(fresh_caches):
    base = fresh_caches
    for n in range(1, 11):
        x = padax.ones((n,))
        padax.exp(x)           # a compiled twin (padax/functional/_fast.py)
        x.sum()                # another twin
        padax.lax.cos(x)       # a one-primitive program
    assert live_executable_count() >= base + 30
    padax.clear_caches()
    assert live_executable_count() == base
    np.testing.assert_allclose(padax.exp(padax.zeros((3,))).numpy(), np.ones(3))  # and they come back


def test_live_programs_stay_under_the_limit(fresh_caches, monkeypatch):
    base = fresh_caches
    monkeypatch.setattr(compile_mod, "_CHECK_EVERY", 4)
    with padax.config.override("live_executable_limit", base + 12):
        peak = 0
        for n in range(1, 61):
            x = padax.arange(n, dtype="float32")
            np.testing.assert_allclose(padax.lax.sin(x).numpy(), np.sin(np.arange(n, dtype=np.float32)),
                                       rtol=1e-6)
            peak = max(peak, live_executable_count())
        assert peak <= base + 12 + 4  # (checked every 4 new programs)
    assert padax.config.live_executable_limit == 4096


def test_the_limit_is_a_setting():
    assert padax.config.live_executable_limit == 4096
    for bad in ("many", -1, 1.5, True):
        with pytest.raises(ValueError, match="live_executable_limit"):
            padax.config.update("live_executable_limit", bad)


def test_programs_held_outside_the_caches_are_named_once(fresh_caches, monkeypatch, caplog):
    base = fresh_caches
    monkeypatch.setattr(compile_mod, "_CHECK_EVERY", 1)
    monkeypatch.setattr(compile_mod, "_warned_held", False)
    x = padax.ones((2,))
    with padax.config.override("live_executable_limit", base + 4), caplog.at_level("WARNING", logger="padax"):
        # AOT-compiled programs belong to the user's objects: emptying padax's caches cannot free them
        kept = [padax.jit(lambda a, k=k: a + k).lower(x).compile() for k in range(8)]
    assert live_executable_count() >= base + 8
    np.testing.assert_array_equal(kept[7](x).numpy(), [8.0, 8.0])
    assert sum("stay alive after emptying" in r.getMessage() for r in caplog.records) == 1
