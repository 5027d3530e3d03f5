"""padax.debug.print / callback / breakpoint: values and order inside jit, vmap, scan, cond, while and grad."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import padax
from padax import lax


def lines(capfd) -> list[str]:
    return [ln for ln in capfd.readouterr().out.splitlines() if ln]


def f(x):
    padax.debug.print("x = {}", x)
    y = padax.sin(x) * 2.0
    padax.debug.print("sum = {s:.4f}", s=y.sum())
    return y


@pytest.mark.parametrize("wrap", [lambda g: g, padax.jit], ids=["eager", "jit"])
def test_print_values_and_order(capfd, wrap):
    x = np.array([0.0, 1.0, 2.0], np.float32)
    wrap(f)(padax.to_tensor(x))
    assert lines(capfd) == [f"x = {x}", f"sum = {float(np.sum(np.sin(x) * 2)):.4f}"]


def test_print_under_vmap_prints_each_element(capfd):
    xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    padax.jit(padax.vmap(f))(padax.to_tensor(xs))
    out = lines(capfd)
    assert out[:3] == [f"x = {row}" for row in xs]
    assert out[3:] == [f"sum = {float(np.sum(np.sin(r) * 2)):.4f}" for r in xs]


def test_print_under_nested_vmap_in_row_major_order(capfd):
    xs = np.arange(4, dtype=np.float32).reshape(2, 2)
    padax.vmap(padax.vmap(lambda v: padax.debug.print("{}", v)))(padax.to_tensor(xs))
    assert lines(capfd) == ["0.0", "1.0", "2.0", "3.0"]


def test_print_in_scan_runs_in_order(capfd):
    def body(c, x):
        padax.debug.print("step c={} x={}", c, x, ordered=True)
        return c + x, c
    carry, _ = padax.jit(lambda xs: lax.scan(body, 0.0, xs))(padax.arange(4.0))
    assert float(carry) == 6.0
    assert lines(capfd) == ["step c=0.0 x=0.0", "step c=0.0 x=1.0", "step c=1.0 x=2.0", "step c=3.0 x=3.0"]


def test_print_under_grad_sees_primals_once(capfd):
    g = padax.jit(padax.grad(lambda x: f(x).sum()))(padax.to_tensor([0.5, 1.5]))
    np.testing.assert_allclose(g.numpy(), 2 * np.cos([0.5, 1.5]), rtol=1e-6)
    out = lines(capfd)
    assert out[0] == "x = [0.5 1.5]" and len(out) == 2


def test_print_only_in_the_branch_taken(capfd):
    def g(x):
        return lax.cond(x > 0, lambda v: (padax.debug.print("pos {}", v), v)[1],
                        lambda v: (padax.debug.print("neg {}", v), -v)[1], x)
    jg = padax.jit(g)
    jg(padax.to_tensor(2.0))
    jg(padax.to_tensor(-3.0))
    assert lines(capfd) == ["pos 2.0", "neg -3.0"]


def test_ordered_prints_keep_program_order_through_while(capfd):
    def g(x):
        padax.debug.print("start {}", x, ordered=True)
        y = lax.while_loop(lambda c: c < 3, lambda c: (padax.debug.print("it {}", c, ordered=True), c + 1)[1], x)
        padax.debug.print("end {}", y, ordered=True)
        return y
    padax.jit(g)(padax.to_tensor(0))
    assert lines(capfd) == ["start 0", "it 0", "it 1", "it 2", "end 3"]


def test_unused_print_is_not_removed_as_dead_code(capfd):
    def g(x):
        padax.debug.print("kept {}", x * 3)  # its input is computed only for the print
        return x
    assert "debug_callback" in str(padax.make_jaxpr(g)(padax.ones([1])))
    padax.jit(padax.grad(lambda x: g(x).sum()))(padax.ones([1]))
    assert lines(capfd) == ["kept [3.]"]


def test_print_static_values_and_kwargs(capfd):
    padax.jit(lambda x: padax.debug.print("{name}: {} and {}", x, 7, name="v"))(padax.to_tensor(1.5))
    assert lines(capfd) == ["v: 1.5 and 7"]


def test_debug_callback_gets_numpy_values():
    got = []
    padax.jit(lambda x, y: padax.debug.callback(lambda a, y: got.append((a, y)), x, y=y))(
        padax.arange(3.0), padax.to_tensor(2))
    (a, b), = got
    assert isinstance(a, np.ndarray) and a.tolist() == [0.0, 1.0, 2.0] and int(b) == 2


def test_visualize_array_sharding_is_in_debug():
    assert padax.debug.visualize_array_sharding is padax.visualize_array_sharding


_BREAKPOINT = textwrap.dedent("""
    import padax
    def f(x):
        y = x * 2
        padax.debug.breakpoint()
        return y + 1
    print("result", padax.jit(f)(padax.arange(3.0)).numpy())
    print("eager", f(padax.to_tensor(5.0)).numpy())
""")


def test_breakpoint_stops_in_pdb_with_the_values():
    out = subprocess.run([sys.executable, "-c", _BREAKPOINT], input="p y.tolist()\np x.sum()\nc\np y\nc\n",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "[0.0, 2.0, 4.0]" in out.stdout and "3.0" in out.stdout
    assert "result [1. 3. 5.]" in out.stdout and "eager 11.0" in out.stdout
    assert "array(10., dtype=float32)" in out.stdout and "<string>:5 (f)" in out.stdout
    assert out.stderr == ""


def test_print_and_check_under_jet_see_the_primal(capfd):
    from padax.transforms.jet import jet

    def f(x):
        padax.debug.print("x is {}", x)
        padax.checkify.check(x > 0, "positive")
        return padax.sin(x)
    out, (d1, d2) = jet(f, (np.float64(0.5),), ([np.float64(1.0), np.float64(0.0)],))
    np.testing.assert_allclose([float(out), float(d1), float(d2)], [np.sin(0.5), np.cos(0.5), -np.sin(0.5)])
    assert capfd.readouterr().out == "x is 0.5\n"
    with pytest.raises(TypeError, match="custom_jvp"):
        jet(lambda x: padax.pure_callback(np.sin, padax.ShapeDtypeStruct((), np.float64), x),
            (np.float64(0.5),), ([np.float64(1.0)],))
