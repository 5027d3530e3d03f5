"""padax.static: modes, programs, fetches at several batch sizes, gradients, saving and errors, against numpy."""
import os

import numpy as np
import pytest

import padax
from padax.static import StaticGraphError

RNG = np.random.default_rng(0)


def _mlp(static, w0, b0, w1, prefix):
    """x [None, 3] -> fc(4, tanh) -> fc(1): the program, its variables and a numpy forward."""
    main, startup = static.static.Program(), static.static.Program()
    init = static.nn.initializer.Assign
    with static.static.program_guard(main, startup):
        x = static.static.data("x", [None, 3], "float32")
        h = static.static.nn.fc(x, 4, activation="tanh", weight_attr=static.ParamAttr(prefix + "w0", initializer=init(w0)),
                                bias_attr=static.ParamAttr(prefix + "b0", initializer=init(b0)))
        pred = static.static.nn.fc(h, 1, weight_attr=static.ParamAttr(prefix + "w1", initializer=init(w1)),
                                   bias_attr=False)
        out = static.mean(pred)
    return main, startup, x, h, pred, out


def _np_mlp(xb, w0, b0, w1):
    h = np.tanh(xb @ w0 + b0)
    return h, h @ w1


W0, B0, W1 = (RNG.normal(size=s).astype("float32") for s in ((3, 4), (4,), (4, 1)))


def test_mode_switches_and_eager_afterwards(static):
    assert not padax.in_dynamic_mode() and padax.static.in_static_mode()
    padax.enable_static()  # twice: still one static mode
    padax.disable_static()
    assert padax.in_dynamic_mode() and not padax.static.in_static_mode()
    x = padax.to_tensor([1.0, 2.0])
    assert (x * 2).tolist() == [2.0, 4.0]
    assert float(padax.grad(lambda t: (t * t).sum())(x)[1]) == 4.0
    assert padax.jit(lambda t: t + 1)(x).tolist() == [2.0, 3.0]
    padax.enable_static()
    assert isinstance(padax.ones([2]) + 1, padax.static.Variable)  # ops in static mode are recorded


def test_program_structure(static):
    main, startup, x, h, pred, out = _mlp(static, W0, B0, W1, "ps_")
    assert x.name == "x" and x.static_shape == [-1, 3] and x.stop_gradient and not x.persistable
    params = main.all_parameters()
    assert [p.name for p in params] == ["ps_w0", "ps_b0", "ps_w1"]
    assert all(p.persistable for p in params) and params[0].static_shape == [3, 4]
    names = [op.primitive.name for op in main.global_block().ops]
    assert names[0] == "dot_general" and "reduce_sum" in names
    assert main.global_block().var("x") is x and "ps_w0" in {v.name for v in main.list_vars()}
    assert padax.static.default_main_program() is not main
    test = main.clone(for_test=True)
    assert len(test.global_block().ops) == len(main.global_block().ops)


@pytest.mark.parametrize("batches", [(2, 7, 1, 2)])
def test_fetch_intermediates_at_several_batch_sizes(static, batches):
    main, startup, x, h, pred, out = _mlp(static, W0, B0, W1, "fi_")
    exe = padax.static.Executor(padax.CPUPlace())
    exe.run(startup)
    for b in batches:
        xb = RNG.normal(size=(b, 3)).astype("float32")
        hv, pv, ov = exe.run(main, feed={"x": xb}, fetch_list=[h, pred, "fi_w0"][:2] + [out])
        nh, npred = _np_mlp(xb, W0, B0, W1)
        np.testing.assert_allclose(hv, nh, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(pv, npred, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ov, npred.mean(), rtol=1e-5, atol=1e-6)  # mean's divisor follows the batch
        assert hv.shape == (b, 4) and isinstance(hv, np.ndarray)
    w = exe.run(main, feed={"x": xb}, fetch_list=["fi_w0", h.name], return_numpy=False)
    assert isinstance(w[0], padax.Tensor) and np.array_equal(np.asarray(w[0]), W0)
    # one compiled program per feed signature: batches 2, 7, 1 (2 again is cached)
    runner = next(r for r in main._cache.values() if len(r.feeds) == 1 and r.traces == 3)
    assert runner.traces == 3


def test_compiled_program_and_scope(static):
    main, startup, x, h, pred, out = _mlp(static, W0, B0, W1, "cp_")
    exe = padax.static.Executor()
    exe.run(startup)
    scope = padax.static.global_scope()
    np.testing.assert_array_equal(np.array(scope.find_var("cp_w1").get_tensor()), W1)
    w1 = np.full((4, 1), 0.5, "float32")
    scope.find_var("cp_w1").get_tensor().set(w1, padax.CPUPlace())
    xb = RNG.normal(size=(3, 3)).astype("float32")
    got = exe.run(padax.static.CompiledProgram(main), feed={"x": xb}, fetch_list=[pred])[0]
    np.testing.assert_allclose(got, _np_mlp(xb, W0, B0, w1)[1], rtol=1e-5, atol=1e-6)
    assert scope.find_var("no such var") is None
    with pytest.raises(StaticGraphError, match="shape"):
        scope.find_var("cp_w1").get_tensor().set(np.zeros(3), None)


def test_gradients_against_numpy(static):
    main = padax.static.Program()
    with padax.static.program_guard(main):
        x = padax.static.data("x", [None, 3], "float32")
        w = padax.static.create_parameter([3, 2], "float32", name="gw",
                                          default_initializer=padax.nn.initializer.Assign(W0[:, :2]))
        h = padax.tanh(padax.matmul(x, w))
        y = (h * h).sum()
        gx, gw = padax.static.gradients([y], [x, w])
        gh, = padax.static.gradients(y, h)
        gxt, = padax.static.gradients(h, x, target_gradients=padax.ones_like(h) * 3.0)
        (p, g), = padax.static.append_backward(y)
    exe = padax.static.Executor()
    exe.run(padax.static.default_startup_program())
    for b in (2, 5):
        xb = RNG.normal(size=(b, 3)).astype("float32")
        vx, vw, vh, vxt, vg = exe.run(main, feed={"x": xb}, fetch_list=[gx, gw, gh, gxt, g])
        hh = np.tanh(xb @ W0[:, :2])
        dh = 2 * hh
        dz = dh * (1 - hh ** 2)
        np.testing.assert_allclose(vh, dh, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(vx, dz @ W0[:, :2].T, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(vw, xb.T @ dz, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(vxt, (3 * (1 - hh ** 2)) @ W0[:, :2].T, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(vg, vw, rtol=1e-6)
    assert p.name == "gw" and g.name == "gw@GRAD"
    assert exe.run(main, feed={"x": xb}, fetch_list=["gw@GRAD"])[0].shape == (3, 2)


def test_sgd_minimize_updates_parameters(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 3], "float32")
        y = padax.static.data("y", [None, 1], "float32")
        pred = padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("sg_w", initializer=padax.nn.initializer.Assign(W1[:3])),
                                  bias_attr=padax.ParamAttr("sg_b"))
        loss = padax.mean(padax.nn.functional.square_error_cost(pred, y))
        _, pairs = padax.optimizer.SGD(learning_rate=0.1).minimize(loss)
    assert [p.name for p, _ in pairs] == ["sg_w", "sg_b"]
    exe = padax.static.Executor()
    exe.run(startup)
    w, b = W1[:3].copy(), np.zeros(1, "float32")
    for n in (4, 6, 4):
        xb, yb = RNG.normal(size=(n, 3)).astype("float32"), RNG.normal(size=(n, 1)).astype("float32")
        lv, = exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])
        r = xb @ w + b - yb
        np.testing.assert_allclose(lv, (r ** 2).mean(), rtol=1e-5)
        w, b = w - 0.1 * (2 * xb.T @ r / n), b - 0.1 * (2 * r.mean(0))
    scope = padax.static.global_scope()
    np.testing.assert_allclose(np.array(scope.find_var("sg_w").get_tensor()), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(scope.find_var("sg_b").get_tensor()), b, rtol=1e-5, atol=1e-6)


def test_batch_norm_train_and_test_modes(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 2], "float32")
        y = padax.static.nn.batch_norm(x, momentum=0.8, moving_mean_name="bn_m", moving_variance_name="bn_v")
        test = main.clone(for_test=True)
    exe = padax.static.Executor()
    exe.run(startup)
    xb = RNG.normal(size=(6, 2)).astype("float32") * 2 + 1
    got, = exe.run(main, feed={"x": xb}, fetch_list=[y])
    np.testing.assert_allclose(got, (xb - xb.mean(0)) / np.sqrt(xb.var(0) + 1e-5), rtol=1e-4, atol=1e-5)
    mean, var = 0.2 * xb.mean(0), 0.8 + 0.2 * xb.var(0)
    scope = padax.static.global_scope()
    np.testing.assert_allclose(np.array(scope.find_var("bn_m").get_tensor()), mean, rtol=1e-5)
    got, = exe.run(test, feed={"x": xb[:3]}, fetch_list=[y])  # the running statistics, unchanged by the run
    np.testing.assert_allclose(got, (xb[:3] - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.array(scope.find_var("bn_m").get_tensor()), mean, rtol=1e-5)


def test_embedding_and_conv_layers(static):
    main, startup = padax.static.Program(), padax.static.Program()
    table = RNG.normal(size=(5, 2)).astype("float32")
    filt = RNG.normal(size=(2, 1, 3, 3)).astype("float32")
    with padax.static.program_guard(main, startup):
        ids = padax.static.data("ids", [None, 3], "int64")
        img = padax.static.data("img", [None, 1, 5, 5], "float32")
        e = padax.static.nn.embedding(ids, [5, 2], param_attr=padax.ParamAttr(initializer=padax.nn.initializer.Assign(table)))
        c = padax.static.nn.conv2d(img, 2, 3, param_attr=padax.ParamAttr(initializer=padax.nn.initializer.Assign(filt)),
                                   bias_attr=False, act="relu")
        flat = padax.reshape(c, [-1, 2 * 3 * 3])
    exe = padax.static.Executor()
    exe.run(startup)
    for b in (2, 3):
        idb, imb = RNG.integers(0, 5, (b, 3)), RNG.normal(size=(b, 1, 5, 5)).astype("float32")
        ev, fv = exe.run(main, feed={"ids": idb, "img": imb}, fetch_list=[e, flat])
        np.testing.assert_allclose(ev, table[idb], rtol=1e-6)
        ref = np.zeros((b, 2, 3, 3), "float32")
        for i in range(3):
            for j in range(3):
                ref[:, :, i, j] = np.einsum("nchw,ochw->no", imb[:, :, i:i + 3, j:j + 3], filt)
        np.testing.assert_allclose(fv, np.maximum(ref, 0).reshape(b, -1), rtol=1e-4, atol=1e-5)


def test_default_initializers(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 30], "float32")
        padax.static.nn.fc(x, 20, name="di")
    exe = padax.static.Executor()
    exe.run(startup)
    w = np.array(padax.static.global_scope().find_var("di.w_0").get_tensor())
    b = np.array(padax.static.global_scope().find_var("di.b_0").get_tensor())
    limit = np.sqrt(6 / 50)  # Xavier-uniform over fan_in + fan_out
    assert w.shape == (30, 20) and np.abs(w).max() <= limit and np.abs(w).max() > 0.8 * limit
    assert np.array_equal(b, np.zeros(20, "float32"))


def test_clear_errors(static):
    main, startup, x, h, pred, out = _mlp(static, W0, B0, W1, "er_")
    exe = padax.static.Executor()
    xb = np.ones((2, 3), "float32")
    with pytest.raises(StaticGraphError, match="run the startup program"):
        exe.run(main, feed={"x": xb}, fetch_list=[pred])
    exe.run(startup)
    with pytest.raises(StaticGraphError, match="no variable named 'nope'"):
        exe.run(main, feed={"x": xb}, fetch_list=["nope"])
    with pytest.raises(StaticGraphError, match="needs the feed 'x'"):
        exe.run(main, feed={}, fetch_list=[pred])
    with pytest.raises(StaticGraphError, match=r"feed 'x' has shape \[2, 4\]"):
        exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[pred])
    with pytest.raises(StaticGraphError, match="not data of the program"):
        exe.run(main, feed={"x": xb, "z": xb}, fetch_list=[pred])
    other = padax.static.Program()
    with padax.static.program_guard(other):
        z = padax.static.data("z", [3], "float32")
    with pytest.raises(StaticGraphError, match="another Program"):
        exe.run(main, feed={"x": xb}, fetch_list=[z])
    with padax.static.program_guard(other), pytest.raises(StaticGraphError, match="another Program"):
        z + x
    with pytest.raises(StaticGraphError, match="already has a variable named 'x'"), padax.static.program_guard(main):
        padax.static.data("x", [3], "float32")
    # a size derived from the batch that cannot be rewritten: the op is named, the way out given
    m2 = padax.static.Program()
    with padax.static.program_guard(m2):
        v = padax.static.data("v", [None, 2], "float32")
        head = v[:-1]
    with pytest.raises(StaticGraphError, match=r"op `slice`.*give the concrete size"):
        exe.run(m2, feed={"v": np.ones((4, 2), "float32")}, fetch_list=[head])


def test_data_outside_static_mode_is_refused():
    with pytest.raises(StaticGraphError, match="enable_static"):
        padax.static.data("x", [2], "float32")


def test_save_and_load_parameters(static, tmp_path):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 3], "float32")
        y = padax.static.data("y", [None, 1], "float32")
        pred = padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("sl_w"), bias_attr=padax.ParamAttr("sl_b"))
        loss = padax.mean((pred - y) ** 2)
        padax.optimizer.Adam(learning_rate=0.1).minimize(loss)
    exe = padax.static.Executor()
    exe.run(startup)
    feed = {"x": RNG.normal(size=(4, 3)).astype("float32"), "y": RNG.normal(size=(4, 1)).astype("float32")}
    exe.run(main, feed=feed, fetch_list=[loss])
    scope = padax.static.global_scope()
    saved = {n: np.array(scope.find_var(n).get_tensor()) for n in scope.local_var_names()
             if n.startswith("sl_")}
    path = str(tmp_path / "ck" / "model")
    padax.static.save(main, path)
    assert sorted(os.listdir(tmp_path / "ck")) == ["model.pdopt", "model.pdparams"]
    after_save = exe.run(main, feed=feed, fetch_list=[loss])[0]
    exe.run(main, feed=feed, fetch_list=[loss])
    padax.static.load(main, path, exe)
    for n, v in saved.items():
        np.testing.assert_array_equal(np.array(scope.find_var(n).get_tensor()), v)
    np.testing.assert_allclose(exe.run(main, feed=feed, fetch_list=[loss])[0], after_save, rtol=1e-6)
    state = padax.load(path + ".pdparams", return_numpy=True)  # Paddle's pickle of {name: array}
    assert sorted(state) == ["sl_b", "sl_w"]
    with pytest.raises(FileNotFoundError):
        padax.static.load(main, str(tmp_path / "missing"), exe)


def test_inference_model_round_trip(static, tmp_path):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 1, 4, 4], "float32")
        c = padax.static.nn.conv2d(x, 2, 3, padding=1, act="relu")
        c = padax.static.nn.batch_norm(c)
        pred = padax.nn.functional.softmax(padax.static.nn.fc(padax.reshape(c, [-1, 32]), 3))
        loss = padax.mean(pred)
        padax.optimizer.SGD(0.1).minimize(loss)
    exe = padax.static.Executor()
    exe.run(startup)
    xb = RNG.normal(size=(5, 1, 4, 4)).astype("float32")
    exe.run(main, feed={"x": xb}, fetch_list=[loss])  # moves the parameters and the running statistics
    want = exe.run(main.clone(for_test=True), feed={"x": xb}, fetch_list=[pred])[0]
    prefix = str(tmp_path / "infer" / "model")
    padax.static.save_inference_model(prefix, [x], [pred], exe)
    assert sorted(os.listdir(tmp_path / "infer")) == ["model.pdiparams", "model.pdmodel"]
    with padax.static.scope_guard(padax.static.Scope()):
        prog, feeds, fetches = padax.static.load_inference_model(prefix, exe)
        assert feeds == ["x"] and len(fetches) == 1
        got = exe.run(prog, feed={"x": xb}, fetch_list=fetches)[0]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        got2 = exe.run(prog, feed={"x": xb[:2]}, fetch_list=fetches)[0]  # another batch size
        np.testing.assert_allclose(got2, want[:2], rtol=1e-5, atol=1e-6)
    with pytest.raises(FileNotFoundError):
        padax.static.load_inference_model(str(tmp_path / "nothing"), exe)
    with padax.static.program_guard(main, startup):
        dropped = padax.nn.functional.dropout(pred, 0.5)  # an inference model holds its eval form: the identity
        alpha = padax.nn.functional.alpha_dropout(pred, 0.5)  # no eval form recorded: it draws from the global key
    padax.static.save_inference_model(prefix + "_d", [x], [dropped], exe)
    prog, feeds, fetches = padax.static.load_inference_model(prefix + "_d", exe)
    np.testing.assert_allclose(exe.run(prog, feed={"x": xb}, fetch_list=fetches)[0], want, rtol=1e-5, atol=1e-6)
    with pytest.raises(StaticGraphError, match="mutable ref.*training=False"):
        padax.static.save_inference_model(prefix + "_a", [x], [alpha], exe)


def test_dropout_draws_anew_and_control_flow_replays(static):
    main = padax.static.Program()
    with padax.static.program_guard(main):
        x = padax.static.data("x", [None, 64], "float32")
        d = padax.nn.functional.dropout(x, 0.5)
        c = padax.static.nn.cond(padax.mean(x) > 0, lambda: x * 2.0, lambda: x - 1.0)
        _, s = padax.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s + x],
                                          [padax.to_tensor(0), padax.zeros_like(x)])
    exe = padax.static.Executor()
    ones = np.ones((8, 64), "float32")
    m1, = exe.run(main, feed={"x": ones}, fetch_list=[d])
    m2, = exe.run(main, feed={"x": ones}, fetch_list=[d])
    assert set(np.unique(m1)) <= {0.0, 2.0} and not np.array_equal(m1, m2)  # the global key advances per run
    test = main.clone(for_test=True)
    np.testing.assert_array_equal(exe.run(test, feed={"x": ones}, fetch_list=[d])[0], ones)  # eval: the identity
    with padax.static.program_guard(main):
        down = padax.nn.Dropout(0.25, mode="downscale_in_infer")(x)
    np.testing.assert_allclose(exe.run(main.clone(for_test=True), feed={"x": ones}, fetch_list=[down])[0], 0.75 * ones)
    for b, sign in ((3, 1.0), (5, -1.0)):
        xb = sign * np.abs(RNG.normal(size=(b, 64))).astype("float32")
        got, total = exe.run(main, feed={"x": xb}, fetch_list=[c, s])  # the bodies traced again at the fed size
        np.testing.assert_allclose(got, xb * 2.0 if sign > 0 else xb - 1.0, rtol=1e-6)
        np.testing.assert_allclose(total, 3 * xb, rtol=1e-6)


def test_program_prints_as_a_jaxpr_and_second_order_gradients(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 2], "float32")
        lab = padax.static.data("lab", [None, 1], "int64")
        y = (x ** 3).sum()
        g, = padax.static.gradients(y, x)
        gg, = padax.static.gradients(g.sum(), x)
        acc = padax.static.accuracy(x, lab)
        loss = padax.mean(padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("pj_w")))
        padax.optimizer.SGD(0.1).minimize(loss)
    text = str(main)
    assert "static_gradients" in text and "dot_general" in text and "updates: pj_w" in text
    closed = main.to_jaxpr([loss])
    assert [a.shape for a in closed.out_avals][:2] == [(), (2, 1)]
    exe = padax.static.Executor()
    exe.run(startup)
    xb = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]], "float32")
    vg, vgg, va = exe.run(main, feed={"x": xb, "lab": np.array([[1], [0], [1]])}, fetch_list=[g, gg, acc])
    np.testing.assert_allclose(vg, 3 * xb ** 2, rtol=1e-6)
    np.testing.assert_allclose(vgg, 6 * xb, rtol=1e-6)
    assert float(va) == pytest.approx(1.0)


def test_shape_read_as_a_tensor_follows_the_batch(static):
    main = padax.static.Program()
    with padax.static.program_guard(main):
        x = padax.static.data("x", [None, 3], "float32")
        s = padax.shape(x)
        per_row = x.sum() / s[0].astype("float32")
        flat = padax.reshape(x, [-1])
    exe = padax.static.Executor()
    for b in (4, 9):
        xb = RNG.normal(size=(b, 3)).astype("float32")
        vs, vp, vf = exe.run(main, feed={"x": xb}, fetch_list=[s, per_row, flat])
        assert vs.tolist() == [b, 3] and vf.shape == (3 * b,)
        np.testing.assert_allclose(vp, xb.sum() / b, rtol=1e-5)


def test_more_layers_match_the_eager_functions(static):
    F = padax.nn.functional
    init = padax.nn.initializer.Assign
    wt = RNG.normal(size=(3, 2, 3, 3)).astype("float32")
    gs, gb = (RNG.normal(size=4).astype("float32") for _ in range(2))
    alpha = np.array([0.1, 0.2, 0.3], "float32").reshape(1, 3, 1, 1)
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 3, 4, 4], "float32")
        g = padax.static.data("g", [None, 4, 2, 2], "float32")
        t = padax.static.nn.conv2d_transpose(x, 2, filter_size=3, stride=2, param_attr=padax.ParamAttr(initializer=init(wt)),
                                             bias_attr=False)
        t2 = padax.static.nn.conv2d_transpose(x, 2, output_size=[9, 9], stride=2, name="ct2")
        gn = padax.static.nn.group_norm(g, 2, param_attr=padax.ParamAttr(initializer=init(gs)),
                                        bias_attr=padax.ParamAttr(initializer=init(gb)))
        inn = padax.static.nn.instance_norm(g)
        pr = padax.static.nn.prelu(x, "channel", param_attr=padax.ParamAttr(initializer=init(alpha)))
        gv = padax.static.create_global_var([1], 3.0, "float32", persistable=True, name="gv")
        with padax.static.name_scope("block"), padax.static.device_guard("cpu"):
            scaled = x * gv
    exe = padax.static.Executor(padax.static.cpu_places()[0])
    exe.run(startup)
    for b in (2, 3):
        xb, gbv = RNG.normal(size=(b, 3, 4, 4)).astype("float32"), RNG.normal(size=(b, 4, 2, 2)).astype("float32")
        vt, vt2, vg, vi, vp, vs = exe.run(main, feed={"x": xb, "g": gbv}, fetch_list=[t, t2, gn, inn, pr, scaled])
        X, G = padax.to_tensor(xb), padax.to_tensor(gbv)
        with padax.static.program.eager():
            np.testing.assert_allclose(vt, F.conv2d_transpose(X, padax.to_tensor(wt), stride=2).numpy(), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(vg, F.group_norm(G, 2, 1e-5, padax.to_tensor(gs), padax.to_tensor(gb)).numpy(),
                                       rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(vi, F.instance_norm(G).numpy(), rtol=1e-4, atol=1e-5)
        assert vt2.shape == (b, 2, 9, 9)
        np.testing.assert_allclose(vp, np.where(xb > 0, xb, alpha * xb), rtol=1e-6)
        np.testing.assert_allclose(vs, 3 * xb, rtol=1e-6)
    assert np.array(padax.static.global_scope().find_var("ct2.w_0").get_tensor()).shape == (3, 2, 3, 3)


def test_a_parameter_size_that_looks_like_the_batch_is_refused(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 3], "float32")
        y = padax.static.nn.fc(x, 2018, name="wide")  # 2 * 1009, the batch's placeholder
    exe = padax.static.Executor()
    exe.run(startup)
    with pytest.raises(StaticGraphError, match="'wide.w_0' has shape \\[3, 2018\\].*concrete batch size"):
        exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[y])


def test_no_grad_set_of_variables(static):
    main, startup = padax.static.Program(), padax.static.Program()
    with padax.static.program_guard(main, startup):
        x = padax.static.data("x", [None, 2], "float32")
        y = padax.static.nn.fc(x, 1, weight_attr=padax.ParamAttr("ng_w"), bias_attr=padax.ParamAttr("ng_b"))
        loss = padax.mean(y)
        bias = main.global_block().var("ng_b")
        pairs = padax.static.append_backward(loss, no_grad_set={bias})  # Variables hash by identity, as Paddle's
        _, opt_pairs = padax.optimizer.SGD(0.5).minimize(loss, no_grad_set={"ng_b"})
    assert [p.name for p, _ in pairs] == ["ng_w"] and [p.name for p, _ in opt_pairs] == ["ng_w"]
    exe = padax.static.Executor()
    exe.run(startup)
    exe.run(main, feed={"x": np.ones((2, 2), "float32")}, fetch_list=[loss])
    scope = padax.static.global_scope()
    assert np.array(scope.find_var("ng_b").get_tensor()).tolist() == [0.0]  # left out: not updated


def test_program_guard_nesting_and_mode_switch_inside():
    outer, inner = padax.static.Program(), padax.static.Program()
    try:
        with padax.static.program_guard(outer):
            padax.enable_static()  # switched on inside the block: ops go to the guard's program
            a = padax.static.data("a", [2], "float32")
            with padax.static.program_guard(inner):
                b = padax.static.data("b", [2], "float32")
                b2 = b * 2.0
            a2 = a + 1.0
        assert a2.program is outer and b2.program is inner
        c = padax.ones([2]) * 3.0
        assert c.program is padax.static.default_main_program()
    finally:
        padax.disable_static()
    assert padax.in_dynamic_mode() and (padax.ones([2]) * 3.0).tolist() == [3.0, 3.0]


def test_two_none_dimensions(static):
    main, startup = padax.static.Program(), padax.static.Program()
    table = RNG.normal(size=(20, 4)).astype("float32")
    with padax.static.program_guard(main, startup):
        ids = padax.static.data("ids", [None, None], "int64")  # batch and sequence length
        e = padax.static.nn.embedding(ids, [20, 4], param_attr=padax.ParamAttr(initializer=padax.nn.initializer.Assign(table)))
        pooled = padax.mean(e, axis=1)
        h = padax.static.nn.fc(e, 3, num_flatten_dims=2)
        sm = padax.nn.functional.softmax(h, axis=1)
    exe = padax.static.Executor()
    exe.run(startup)
    for b, t in ((2, 5), (3, 7), (1, 1)):
        idb = RNG.integers(0, 20, (b, t))
        vp, vs = exe.run(main, feed={"ids": idb}, fetch_list=[pooled, sm])
        np.testing.assert_allclose(vp, table[idb].mean(1), rtol=1e-5, atol=1e-6)
        assert vs.shape == (b, t, 3)
        np.testing.assert_allclose(vs.sum(1), np.ones((b, 3)), rtol=1e-5)
