"""A child forked after padax started XLA fails at once with a clear error (it used to hang)."""
import subprocess
import sys
import textwrap
import time

import pytest

CHILD_AFTER_CLIENT = textwrap.dedent('''
    import os, signal, time
    import padax
    y = padax.matmul(padax.ones([64, 64]), padax.ones([64, 64]))
    pid = os.fork()
    if pid == 0:
        signal.alarm(20)  # a hang kills the child with SIGALRM
        outcome = []
        for stmt in ("padax.ones([3]).sum()", "padax.exp(padax.ones([5]))",
                     "padax.jit(lambda a: a + 1)(y)", "padax.matmul(padax.ones([512, 512]), padax.ones([512, 512]))"):
            t0 = time.perf_counter()
            try:
                eval(stmt)
                outcome.append("ran")
            except padax.errors_type as e:
                outcome.append(f"refused in {time.perf_counter() - t0:.2f}s")
        assert float(y.numpy().sum()) == 64 * 64 * 64  # data already on the host stays readable
        print("CHILD", outcome, flush=True)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    print("STATUS", status)
''').replace("padax.errors_type", "__import__('padax.core.errors').core.errors.ForkedProcessError")

FORK_POOL = textwrap.dedent('''
    import multiprocessing as mp
    import padax

    def work(i):
        return float(padax.ones([4]).sum() * i)

    if __name__ == "__main__":
        padax.ones([2]).sum()
        with mp.get_context("fork").Pool(2) as pool:
            try:
                pool.map(work, range(4))
            except Exception as e:
                print("POOL", type(e).__name__, "spawn" in str(e))
        with mp.get_context("spawn").Pool(2) as pool:
            print("SPAWN", pool.map(work, range(4)))
''')


def _run(code: str, tmp_path, timeout=120) -> str:
    script = tmp_path / "script.py"
    script.write_text(code)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_forked_child_refuses_at_once(tmp_path):
    out = _run(CHILD_AFTER_CLIENT, tmp_path)
    assert "STATUS 0" in out, out  # the child exited normally (no hang, no crash)
    line = next(ln for ln in out.splitlines() if ln.startswith("CHILD"))
    outcomes = eval(line[len("CHILD "):])
    assert len(outcomes) == 4 and all(o.startswith("refused in") for o in outcomes), outcomes
    assert all(float(o.split()[-1][:-1]) < 1.0 for o in outcomes), outcomes


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_fork_pool_fails_clearly_and_spawn_pool_works(tmp_path):
    start = time.perf_counter()
    out = _run(FORK_POOL, tmp_path)
    assert "POOL ForkedProcessError True" in out, out
    assert "SPAWN [0.0, 4.0, 8.0, 12.0]" in out, out
    assert time.perf_counter() - start < 100


def test_child_forked_before_any_client_may_use_padax(tmp_path):
    out = _run(textwrap.dedent('''
        import os, padax
        pid = os.fork()
        if pid == 0:
            print("CHILD", float(padax.ones([3]).sum()), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print("PARENT", float(padax.ones([2]).sum()))
    '''), tmp_path)
    assert "CHILD 3.0" in out and "PARENT 2.0" in out, out
