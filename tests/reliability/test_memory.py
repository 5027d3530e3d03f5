"""Executable caches are bounded: many distinct shapes through one jitted function keep memory flat,
and padax.clear_caches() frees every compiled program."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import padax


def test_each_jitted_function_keeps_at_most_jit_cache_size_programs():
    with padax.config.override("jit_cache_size", 4):
        f = padax.jit(lambda x: x * 2)
        for n in range(1, 11):
            np.testing.assert_array_equal(f(padax.ones([n])).numpy(), np.full(n, 2.0))
            np.testing.assert_array_equal(f(padax.ones([n])).numpy(), np.full(n, 2.0))  # via the C++ fast path
        assert f._cache_size() == 4
        assert type(f._dispatch)._cache_size(f._dispatch) <= 4  # the C++ dispatcher's fast paths are dropped too
        for n in range(1, 11):  # evicted signatures compile again and still give the right answer
            np.testing.assert_array_equal(f(padax.ones([n])).numpy(), np.full(n, 2.0))


def test_clear_caches_forgets_every_compiled_program():
    f = padax.jit(lambda x: x + 1)
    f(padax.ones([3]))
    padax.ones([3]) * 5  # an eager op's program
    assert f._cache_size() == 1
    padax.clear_caches()
    assert f._cache_size() == 0 and type(f._dispatch)._cache_size(f._dispatch) == 0
    np.testing.assert_array_equal(f(padax.ones([3])).numpy(), [2.0] * 3)
    np.testing.assert_array_equal((padax.ones([2]) * 5).numpy(), [5.0] * 2)


@pytest.mark.parametrize("value", [0, -3, "many", 2.5])
def test_jit_cache_size_must_be_a_positive_integer(value):
    with pytest.raises(ValueError, match="jit_cache_size .* must be a positive integer"):
        padax.config.update("jit_cache_size", value)


_RSS_PROGRAM = textwrap.dedent('''
    import padax
    def rss_mib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096 / 2 ** 20
    padax.config.update("jit_cache_size", 16)
    f = padax.jit(lambda x: (x * 2 + 1).sum())
    marks = {}
    for i in range(10_000):  # 250 distinct shapes, 40 calls each
        f(padax.ones([1 + i // 40]))
        if i in (2_000, 9_999):
            marks[i] = rss_mib()
    print("GROWTH", marks[9_999] - marks[2_000], f._cache_size())
''')


@pytest.mark.slow
def test_rss_stays_flat_over_10000_calls_with_250_shapes():
    """Unbounded, the 200 programs compiled after the first mark hold about 50 MiB (0.27 MiB each, measured)."""
    proc = subprocess.run([sys.executable, "-c", _RSS_PROGRAM], capture_output=True, text=True, timeout=1200)
    line = [x for x in proc.stdout.splitlines() if x.startswith("GROWTH")]
    assert proc.returncode == 0 and line, proc.stderr[-2000:]
    growth, kept = float(line[0].split()[1]), int(line[0].split()[2])
    assert kept == 16
    assert growth < 15, f"RSS grew {growth:.1f} MiB over 8000 calls with a cache bound of 16 programs"


def test_xla_running_out_of_memory_is_a_memory_error():
    from tests.reliability.isolated import run_snippets
    big = "[2 ** 20, 2 ** 20]"  # 4 TiB of float32: no machine running this has it
    results = run_snippets([f"padax.jit(lambda: padax.zeros({big}) + 1)()",
                            f"padax.to_tensor(1.0).expand({big})",
                            "from padax.core.errors import OutOfMemoryError\nassert issubclass(OutOfMemoryError, MemoryError)"])
    for r in results[:2]:
        assert r["error"] == "OutOfMemoryError" and r["module"] == "padax.core.errors", r
        assert "out of memory on cpu:0" in r["message"] and "4.1e+03 GiB" in r["message"], r
    assert results[2]["error"] is None, results[2]


_FAST_PATH_OOM = '''
import resource
f = padax.jit(lambda x: padax.broadcast_to(x, [2 ** 14, 2 ** 14]) + 1)   # a 1 GiB result
x = padax.ones([2 ** 14])
for _ in range(3):
    y = f(x); del y   # from the second call on, jaxlib's C++ dispatcher runs it
big = padax.ones([2 ** 13, 2 ** 13])
for _ in range(3):
    z = big * 2.0; del z   # an eager op, also on the C++ path after its first call
vm = [int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmSize")][0]
resource.setrlimit(resource.RLIMIT_AS, (vm + 2 ** 27, resource.RLIM_INFINITY))   # 128 MiB of room left
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limit via /proc and RLIMIT_AS")
def test_out_of_memory_on_the_cpp_fast_path_names_program_shapes_and_line():
    from tests.reliability.isolated import run_snippets
    # one process each: the address-space limit stays for the rest of the process
    jit_call, = run_snippets([_FAST_PATH_OOM + "f(x)\n"])
    eager_op, = run_snippets([_FAST_PATH_OOM + "big * 2.0\n"])
    last_line = f"(at <string>:{_FAST_PATH_OOM.count(chr(10)) + 1} (<module>))"
    for r in (jit_call, eager_op):
        assert r["error"] == "OutOfMemoryError" and r["module"] == "padax.core.errors", r
        assert "out of memory on cpu:0" in r["message"] and "RESOURCE_EXHAUSTED" in r["message"], r
        assert last_line in r["message"], r   # the user's line
    assert "jit(<lambda>) called with (f32[16384])" in jit_call["message"] and "1 GiB" in jit_call["message"]
    assert "the padax op 'mul' called with (f32[8192,8192], f32[8192,8192])" in eager_op["message"], eager_op
