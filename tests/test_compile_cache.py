"""The persistent compilation cache: hits across processes, LRU size bound, atomic files, unusable dirs."""
import os
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import padax
from padax.lowering import compile_cache


@pytest.fixture
def cache(tmp_path):
    with padax.config.override("compilation_cache_dir", str(tmp_path)), \
            padax.config.override("compilation_cache_min_compile_time", 0.0):
        yield tmp_path


def test_default_dir_is_per_user_xdg(monkeypatch):
    from padax.config import default_cache_dir
    monkeypatch.setenv("XDG_CACHE_HOME", "/some/where")
    assert default_cache_dir() == "/some/where/padax/xla"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == os.path.expanduser("~/.cache/padax/xla")


def test_entries_written_whole_and_reused(cache):
    f = lambda x: padax.sin(x) * 3 + 0.125  # noqa: E731
    padax.jit(f)(padax.ones([3]))
    entries = list(cache.glob("*.xla"))
    assert len(entries) == 1 and not list(cache.glob("*.tmp"))
    g = lambda x: padax.sin(x) * 3 + 0.125  # noqa: E731  (a new function, the same program: loaded)
    np.testing.assert_allclose(padax.jit(g)(padax.ones([3])).numpy(), np.sin(np.ones(3)) * 3 + 0.125, rtol=1e-6)


def test_min_compile_time_skips_fast_programs(tmp_path):
    with padax.config.override("compilation_cache_dir", str(tmp_path)), \
            padax.config.override("compilation_cache_min_compile_time", 60.0):
        padax.jit(lambda x: x * 1.5 - 2)(padax.ones([2]))  # compiled in less than a minute: no file
    assert not list(tmp_path.glob("*.xla"))


def test_programs_with_host_callbacks_are_not_cached(cache):
    padax.jit(lambda x: (padax.debug.print("{}", x), x + 1)[1])(padax.ones([1]))
    assert not list(cache.glob("*.xla"))


def test_lru_eviction_keeps_the_recently_used(tmp_path):
    paths = []
    for i in range(4):
        p = tmp_path / f"k{i}.xla"
        p.write_bytes(b"x" * 100)
        os.utime(p, (time.time() - 100 + i, time.time() - 100 + i))
        paths.append(p)
    os.utime(paths[0])  # k0 used most recently
    assert compile_cache.evict(str(tmp_path), 250) == 2
    assert sorted(p.name for p in tmp_path.glob("*.xla")) == ["k0.xla", "k3.xla"]
    assert compile_cache.evict(str(tmp_path), -1) == 0


def test_size_bound_applies_on_write(cache):
    with padax.config.override("compilation_cache_max_size", 1):
        padax.jit(lambda x: padax.cos(x) + 0.375)(padax.ones([3]))
    assert not list(cache.glob("*.xla"))  # larger than the bound: evicted at once


def test_unwritable_dir_warns_once_and_runs(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with padax.config.override("compilation_cache_dir", str(blocker / "cache")), \
            padax.config.override("compilation_cache_min_compile_time", 0.0):
        with pytest.warns(RuntimeWarning, match="cannot be used"):
            assert padax.jit(lambda x: x * 7.5)(padax.ones([2])).tolist() == [7.5, 7.5]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert padax.jit(lambda x: x * 8.5)(padax.ones([2])).tolist() == [8.5, 8.5]


_SECOND_PROCESS = textwrap.dedent("""
    import padax, padax.lowering.compile as C
    compiled = []
    real = C._jaxlib.compile
    C._jaxlib.compile = lambda *a, **k: compiled.append(1) or real(*a, **k)
    f = padax.jit(lambda x: (padax.tanh(x) @ x.T).sum() + 0.875)
    print(float(f(padax.ones([8, 8]))), len(compiled))
""")


def test_second_process_loads_instead_of_compiling(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path), PADAX_COMPILATION_CACHE_MIN_COMPILE_TIME="0")
    runs = [subprocess.run([sys.executable, "-c", _SECOND_PROCESS], capture_output=True, text=True, timeout=120,
                           env=env) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-2000:]
    (v1, n1), (v2, n2) = (r.stdout.split() for r in runs)
    assert v1 == v2 and int(n1) >= 1 and int(n2) < int(n1)


def test_a_corrupt_entry_is_recompiled_and_replaced(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path), PADAX_COMPILATION_CACHE_MIN_COMPILE_TIME="0")
    run = lambda: subprocess.run([sys.executable, "-c", _SECOND_PROCESS], capture_output=True, text=True,  # noqa
                                 timeout=120, env=env)
    first = run()
    (entry,) = tmp_path.glob("*.xla")
    entry.write_bytes(b"not an executable")
    second = run()
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stdout.split()[0] == first.stdout.split()[0] and int(second.stdout.split()[1]) >= 1
    assert entry.read_bytes() != b"not an executable" and not second.stderr


def test_a_damaged_entry_never_reaches_xla(cache, monkeypatch):
    # an entry cut short, with a flipped byte, or written in another format is a miss, checked in Python:
    # jaxlib is never asked to deserialize it (its C++ error path is not safe in every process)
    f = lambda x: padax.cos(x) * 5 + 0.375  # noqa: E731
    want = padax.jit(f)(padax.ones([3])).numpy()
    (entry,) = cache.glob("*.xla")
    good = entry.read_bytes()
    assert good.startswith(compile_cache._HEADER)
    from padax.runtime import _jaxlib
    calls = []
    real = _jaxlib.deserialize_executable
    monkeypatch.setattr(_jaxlib, "deserialize_executable", lambda *a, **k: calls.append(1) or real(*a, **k))
    flipped = bytearray(good)
    flipped[-10] ^= 0xFF
    for damaged in (good[: len(good) // 2], bytes(flipped), good[len(compile_cache._HEADER) + 32:]):
        entry.write_bytes(damaged)
        g = lambda x: padax.cos(x) * 5 + 0.375  # noqa: E731  (a new function: looks the program up again)
        np.testing.assert_array_equal(padax.jit(g)(padax.ones([3])).numpy(), want)
        assert not calls and entry.read_bytes() != damaged   # recompiled and replaced
    h = lambda x: padax.cos(x) * 5 + 0.375  # noqa: E731
    padax.jit(h)(padax.ones([3]))
    assert calls                                              # a whole entry is loaded


_RACER = textwrap.dedent("""
    import sys, padax
    k = int(sys.argv[1])
    shared = padax.jit(lambda x: (padax.tanh(x) * 1.25).sum())      # every process: the same entry
    own = padax.jit(lambda x: (x * x).sum() + k)                     # a constant of its own: its own entry
    print(float(shared(padax.ones([4]))), float(own(padax.ones([4]))))
""")


def test_concurrent_processes_share_the_cache(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path), PADAX_COMPILATION_CACHE_MIN_COMPILE_TIME="0")
    procs = [subprocess.Popen([sys.executable, "-c", _RACER, str(k)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for k in range(3)]
    results = [p.communicate(timeout=180) for p in procs]
    assert all(p.returncode == 0 for p in procs), results[0][1][-2000:]
    for k, (out, _) in enumerate(results):
        shared, own = map(float, out.split())
        assert shared == pytest.approx(4 * np.tanh(1.0) * 1.25, rel=1e-6) and own == 4.0 + k
    assert len(list(tmp_path.glob("*.xla"))) == 4 and not list(tmp_path.glob("*.tmp"))


# -- programs found by the fingerprint of their jaxpr (padax/lowering/fingerprint.py) ---------------------

def _fingerprint(f, *args, name="f", donated=()):
    from padax.lowering.fingerprint import program_fingerprint
    return program_fingerprint(padax.make_jaxpr(f)(*args).jaxpr, name, donated)


def test_fingerprint_changes_with_the_program_and_not_with_the_source_line():
    x = padax.ones([3])
    base = _fingerprint(lambda x: padax.sin(x) * 3.0, x)
    same = _fingerprint(lambda x: padax.sin(x) * 3.0, x)   # another line, another function: the same program
    assert base is not None and same == base
    assert _fingerprint(lambda x: padax.sin(x) * 3.5, x) != base          # a literal
    assert _fingerprint(lambda x: padax.cos(x) * 3.0, x) != base          # a primitive
    assert _fingerprint(lambda x: padax.sin(x) * 3.0, padax.ones([4])) != base              # a shape
    assert _fingerprint(lambda x: padax.sin(x) * 3.0, padax.ones([3], "float64")) != base   # a dtype
    assert _fingerprint(lambda x: padax.sin(x) * 3.0, x, name="g") != base                  # the module name
    assert _fingerprint(lambda x: padax.sin(x) * 3.0, x, donated=(True,)) != base           # donation
    assert _fingerprint(lambda x: x.sum(axis=0), padax.ones([2, 2])) != _fingerprint(
        lambda x: x.sum(axis=1), padax.ones([2, 2]))                                     # a param


def test_fingerprint_sees_weak_types_and_x64():
    strong = _fingerprint(lambda x: x + 1, padax.ones([2], "int32"))
    weak = _fingerprint(lambda x: x + 1, 1)
    assert strong != weak
    with padax.config.override("enable_x64", False):
        narrow = _fingerprint(lambda x: x * 2.0, np.ones(2))
    assert narrow != _fingerprint(lambda x: x * 2.0, np.ones(2))


def test_no_fingerprint_for_user_primitives_and_opaque_params():
    from padax.extend.core import Primitive
    from padax.lowering import register_lowering
    from padax.core.abstract import ShapedArray
    my_p = Primitive("my_double_for_fingerprint")
    my_p.abstract_eval = lambda a: ShapedArray(a.shape, a.dtype)
    register_lowering(my_p, lambda ctx, a: a)
    assert not my_p.lowering_by_padax
    assert _fingerprint(lambda x: my_p.bind(x) + 1, padax.ones([2])) is None
    # a pure_callback holds a Python function: no faithful byte form
    cb = lambda x: padax.pure_callback(np.sin, padax.ShapeDtypeStruct((2,), "float32"), x)  # noqa: E731
    assert _fingerprint(cb, padax.ones([2])) is None


_WARM_PROCESS = textwrap.dedent("""
    import sys, numpy as np, padax
    import padax.lowering.compile as C
    compiled = []
    real = C._jaxlib.compile
    C._jaxlib.compile = lambda *a, **k: compiled.append(1) or real(*a, **k)
    a = padax.to_tensor(np.array([[4.0, 1.0], [1.0, 3.0]], np.float32))
    step = padax.jit(lambda a: (padax.linalg.cholesky(a) * 0.5).sum())   # a LAPACK call in the program
    v = float(step(a))
    print(v, len(compiled), int(any(m.startswith("jaxlib.mlir") for m in sys.modules)))
""")


def test_warm_process_neither_lowers_nor_compiles(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path), PADAX_COMPILATION_CACHE_MIN_COMPILE_TIME="0")
    runs = [subprocess.run([sys.executable, "-c", _WARM_PROCESS], capture_output=True, text=True, timeout=120,
                           env=env) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr[-2000:]
    (v1, n1, mlir1), (v2, n2, mlir2) = (r.stdout.split() for r in runs)
    expected = 0.5 * (2.0 + 0.5 + np.sqrt(3.0 - 0.25))
    assert float(v1) == pytest.approx(expected, rel=1e-6) and v2 == v1
    assert int(n1) >= 1 and mlir1 == "1"
    assert int(n2) == 0 and mlir2 == "0"   # loaded by fingerprint: LAPACK set up, nothing lowered


def test_fingerprinted_entry_for_a_changed_program_is_not_reused(cache):
    f = padax.jit(lambda x: x * 2.0 + 1.0)
    assert f(padax.ones([2])).tolist() == [3.0, 3.0]
    g = padax.jit(lambda x: x * 2.0 + 1.5)
    assert g(padax.ones([2])).tolist() == [3.5, 3.5]
    assert len(list(cache.glob("*.xla"))) == 2


def test_common_programs_have_fingerprints():
    import padax.nn.functional as F
    x, w = padax.ones([4, 8]), padax.ones([8, 8])
    img, k = padax.ones([2, 3, 8, 8]), padax.ones([4, 3, 3, 3])
    programs = [
        (lambda x: F.cross_entropy(F.log_softmax(x), padax.to_tensor(np.array([1, 2, 3, 0]))), x),  # custom_jvp
        (lambda i: F.max_pool2d(F.conv2d(i, k), 2), img),                        # conv dimension numbers
        (lambda x: x[padax.to_tensor(np.array([0, 2]))] + x[1:3], x),            # gather dimension numbers
        (lambda x: padax.grad(lambda w: padax.checkpoint(lambda w: F.gelu(x @ w).sum())(w))(w), x),
        (lambda x: padax.lax.scan(lambda c, r: (c + r, c * 2), x[0], x)[0], x),
        (lambda x: padax.lax.cond(x.sum() > 0, lambda a: a + 1, lambda a: a - 1, x), x),
        (lambda x: padax.jit(lambda y: padax.sort(y, axis=1))(x), x),
    ]
    for f, arg in programs:
        assert _fingerprint(f, arg) is not None


_EAGER_PROCESS = textwrap.dedent("""
    import numpy as np, padax
    import padax.lowering.compile as C
    compiled = []
    real = C._jaxlib.compile
    C._jaxlib.compile = lambda *a, **k: compiled.append(1) or real(*a, **k)
    x = padax.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = (padax.exp(x) * 0.5 + padax.sin(x)).sum(axis=1)
    print(repr(y.numpy().tobytes()), len(compiled))
""")


def test_eager_programs_of_a_second_process_come_from_the_cache(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path))
    env.pop("PADAX_COMPILATION_CACHE_MIN_COMPILE_TIME", None)  # the default: every program is written
    runs = [subprocess.run([sys.executable, "-c", _EAGER_PROCESS], capture_output=True, text=True, timeout=120,
                           env=env) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr[-2000:]
    (b1, n1), (b2, n2) = (r.stdout.rsplit(" ", 1) for r in runs)
    assert b1 == b2 and int(n1) >= 3 and int(n2) == 0


def test_size_bound_is_enforced_once_a_minute_or_per_quarter_of_the_bound(tmp_path, monkeypatch):
    scans = []
    real_evict = compile_cache.evict
    monkeypatch.setattr(compile_cache, "evict", lambda d, m: scans.append(d) or real_evict(d, m))
    with padax.config.override("compilation_cache_dir", str(tmp_path)), \
            padax.config.override("compilation_cache_max_size", 4000):
        compile_cache.put("a" * 64, b"x" * 100)     # no marker yet: scan
        compile_cache.put("b" * 64, b"x" * 100)     # scanned a moment ago, 100 < 4000 / 4 bytes since: no scan
        assert len(scans) == 1
        compile_cache.put("c" * 64, b"x" * 1000)    # 1100 bytes written since the scan: scan
        assert len(scans) == 2
        marker = tmp_path / ".last-eviction"
        os.utime(marker, (time.time() - 120, time.time() - 120))
        compile_cache.put("d" * 64, b"x" * 10)      # the last scan is over a minute old: scan
        assert len(scans) == 3
        compile_cache.put("e" * 64, b"x" * 3500)    # over the bound: the least recently used go
        assert len(scans) == 4 and compile_cache.size_bytes() <= 4000
        assert (tmp_path / ("e" * 64 + ".xla")).exists()


_OVERRIDE_PROCESS = textwrap.dedent("""
    import padax
    from padax.lowering import register_lowering
    from padax.lowering._mlir import hlo
    from padax.functional.lax.elementwise import exp_p
    register_lowering(exp_p, lambda ctx, x: hlo.negate(x))   # before padax's rules have loaded
    print(padax.jit(lambda x: padax.exp(x))(padax.ones([2])).tolist(), exp_p.lowering_by_padax)
""")


def test_a_users_rule_registered_before_the_first_lowering_wins(tmp_path):
    env = dict(os.environ, PADAX_COMPILATION_CACHE_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", _OVERRIDE_PROCESS], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split("]")[0] + "]" == "[-1.0, -1.0]" and r.stdout.strip().endswith("False")


def test_source_stamp_follows_the_lowering_sources(tmp_path, monkeypatch):
    from padax.lowering import fingerprint
    (tmp_path / "lowering").mkdir()
    rule = tmp_path / "lowering" / "rule.py"
    rule.write_text("x = 1\n")
    monkeypatch.setattr(fingerprint, "_PACKAGE_ROOT", str(tmp_path))
    monkeypatch.setattr(fingerprint, "_stamp", [])
    first = fingerprint._source_stamp()
    assert fingerprint._source_stamp() == first               # once per process
    fingerprint._stamp.clear()
    rule.write_text("x = 22\n")                               # an edited rule: another stamp
    assert fingerprint._source_stamp() != first
