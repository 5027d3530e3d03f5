"""GradScaler: Paddle's dynamic scaling rule (checked against Paddle's own update on the same inf
pattern), skipped steps on inf/nan, the pure form under jit, master weights and state dicts."""
from __future__ import annotations

import numpy as np
import pytest

import padax

PATTERN = [False, False, True, False, True, True, False, False, False, False, True, False, False]


def _paddle_scales(pattern, **cfg):
    """Paddle's GradScaler._update on this inf pattern. (Paddle disables its scaler on CPU, so the
    enabled state is set directly before running its own update rule.)"""
    from tests.conftest import paddle_oracle
    paddle = paddle_oracle()
    s = paddle.amp.GradScaler.__new__(paddle.amp.GradScaler)
    s._enable, s._use_dynamic_loss_scaling = True, True
    s._scale = paddle.to_tensor(np.array([cfg["init_loss_scaling"]], np.float32))
    s._incr_ratio, s._decr_ratio = cfg["incr_ratio"], cfg["decr_ratio"]
    s._incr_every_n_steps, s._decr_every_n_nan_or_inf = cfg["incr_every_n_steps"], cfg["decr_every_n_nan_or_inf"]
    s._incr_count = s._decr_count = 0
    out = []
    for found in pattern:
        s._cache_found_inf = found
        s._update()
        out.append(float(s._scale.numpy()[0]))
    return out


CFG = dict(init_loss_scaling=1024.0, incr_ratio=2.0, decr_ratio=0.5, incr_every_n_steps=3, decr_every_n_nan_or_inf=2)


def _problem():
    params = {"w": padax.to_tensor(np.array([1.0, -2.0, 3.0], np.float32))}
    opt = padax.optimizer.Adam(learning_rate=0.1)
    return params, opt, opt.init(params)


def _grads(scale, bad):
    g = np.array([0.5, -1.0, 2.0], np.float32) * scale
    if bad:
        g[1] = np.inf
    return {"w": padax.to_tensor(g)}


def test_scale_sequence_matches_paddle_eager_and_pure():
    want = _paddle_scales(PATTERN, **CFG)
    # eager: scale / minimize (skips inf steps, updates the scale)
    scaler = padax.amp.GradScaler(**CFG)
    params, opt, st = _problem()
    eager = []
    for bad in PATTERN:
        before = params
        loss = scaler.scale(padax.to_tensor(np.float32(1.0)))
        params, st = scaler.minimize(opt, params, _grads(float(loss), bad), st)
        if bad:
            assert np.array_equal(np.asarray(params["w"]), np.asarray(before["w"]))
        eager.append(float(scaler.get_loss_scaling()))
    assert eager == want
    assert int(st["step"]) == PATTERN.count(False)  # skipped steps do not advance Adam's step count
    # pure: the same transition inside one jitted function
    scaler = padax.amp.GradScaler(**CFG)
    update = padax.jit(scaler.update_state)
    s = scaler.init_state()
    pure = []
    for bad in PATTERN:
        s = update(s, padax.to_tensor(bad))
        pure.append(float(s["scale"]))
    assert pure == want


def test_skipped_step_and_taken_step_in_a_jitted_train_step():
    scaler = padax.amp.GradScaler(init_loss_scaling=2.0 ** 10)
    params, opt, st = _problem()
    x = padax.to_tensor(np.array([1.0, 2.0, 3.0], np.float32))

    @padax.jit
    def step(params, st, sst, poison):
        def loss_fn(p):
            return scaler.scale_loss(((p["w"] * x) ** 2).sum() * poison, sst)
        grads = padax.grad(loss_fn)(params)
        return scaler.apply_gradients(opt, params, grads, st, sst)

    sst = scaler.init_state()
    p1, st1, sst1 = step(params, st, sst, padax.to_tensor(np.float32(np.inf)))
    assert np.array_equal(np.asarray(p1["w"]), np.asarray(params["w"])) and int(st1["step"]) == 0
    assert float(sst1["scale"]) == 2.0 ** 9 and int(sst1["decr_count"]) == 0
    p2, st2, sst2 = step(p1, st1, sst1, padax.to_tensor(np.float32(1.0)))
    ref_p, _ = opt.step(params, padax.grad(lambda p: ((p["w"] * x) ** 2).sum())(params), st)
    np.testing.assert_allclose(np.asarray(p2["w"]), np.asarray(ref_p["w"]), rtol=1e-6)
    assert int(sst2["incr_count"]) == 1 and float(sst2["scale"]) == 2.0 ** 9


def test_unscale_then_step_update_and_errors():
    scaler = padax.amp.GradScaler(init_loss_scaling=8.0)
    params, opt, st = _problem()
    g = scaler.unscale_(opt, _grads(8.0, False))
    np.testing.assert_allclose(np.asarray(g["w"]), [0.5, -1.0, 2.0])
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.unscale_(opt, g)
    params, st = scaler.step(opt, params, g, st)  # not unscaled twice
    ref, _ = opt.step(_problem()[0], {"w": padax.to_tensor(np.array([0.5, -1.0, 2.0], np.float32))}, _problem()[2])
    np.testing.assert_allclose(np.asarray(params["w"]), np.asarray(ref["w"]), rtol=1e-6)
    with pytest.raises(RuntimeError, match="step"):
        scaler.step(opt, params, g, st)
    scaler.update()
    assert float(scaler.get_loss_scaling()) == 8.0
    params, st = scaler.step(opt, params, _grads(8.0, True), st)
    scaler.update()
    assert float(scaler.get_loss_scaling()) == 4.0


def test_disabled_scaler_passes_through():
    scaler = padax.amp.GradScaler(enable=False)
    params, opt, st = _problem()
    loss = padax.to_tensor(np.float32(3.0))
    assert scaler.scale(loss) is loss and scaler.state_dict() == {}
    p, _ = scaler.minimize(opt, params, _grads(1.0, False), st)
    ref, _ = opt.step(params, _grads(1.0, False), st)
    np.testing.assert_array_equal(np.asarray(p["w"]), np.asarray(ref["w"]))


def test_state_dict_round_trip_and_accessors(tmp_path):
    scaler = padax.amp.GradScaler(**CFG)
    params, opt, st = _problem()
    for bad in PATTERN[:5]:
        params, st = scaler.minimize(opt, params, _grads(float(scaler.get_loss_scaling()), bad), st)
    sd = scaler.state_dict()
    assert set(sd) == {"scale", "incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
                       "incr_count", "decr_count", "use_dynamic_loss_scaling"}  # Paddle's keys
    assert sd["scale"].shape == (1,) and sd["scale"].dtype == np.float32
    padax.save(sd, str(tmp_path / "scaler.pdparams"))
    other = padax.amp.GradScaler()
    other.load_state_dict(padax.load(str(tmp_path / "scaler.pdparams")))
    assert other.state_dict().keys() == sd.keys()
    for k in sd:
        np.testing.assert_array_equal(np.asarray(other.state_dict()[k]), np.asarray(sd[k]))
    # both continue identically
    p2, st2 = params, st
    for bad in PATTERN[5:]:
        params, st = scaler.minimize(opt, params, _grads(float(scaler.get_loss_scaling()), bad), st)
        p2, st2 = other.minimize(opt, p2, _grads(float(other.get_loss_scaling()), bad), st2)
        assert float(scaler.get_loss_scaling()) == float(other.get_loss_scaling())
    with pytest.raises(RuntimeError, match="empty"):
        other.load_state_dict({})
    other.set_incr_ratio(4.0)
    other.set_init_loss_scaling(64.0)
    assert other.get_incr_ratio() == 4.0 and float(other.get_loss_scaling()) == 64.0
    assert other.get_init_loss_scaling() == 64.0 and other.is_enable() and other.is_use_dynamic_loss_scaling()
    with pytest.raises(ValueError, match="decr_ratio"):
        other.set_decr_ratio(2.0)
    with pytest.raises(ValueError, match="incr_ratio"):
        padax.amp.GradScaler(incr_ratio=0.5)


@pytest.mark.parametrize("opt_cls", [padax.optimizer.SGD, padax.optimizer.AdamW])
def test_master_weights_keep_small_updates(opt_cls):
    """bf16 parameters with O2 master weights: updates far below bf16's resolution accumulate."""
    net = padax.nn.Linear(4, 1)
    net.weight = net.create_parameter([4, 1], default_initializer=padax.nn.initializer.Constant(1.0))
    opt = opt_cls(learning_rate=1e-4) if opt_cls is padax.optimizer.SGD else opt_cls(learning_rate=1e-4,
                                                                                      weight_decay=0.0)
    net, opt = padax.amp.decorate(net, opt, level="O2", dtype="bfloat16")
    assert net.weight.dtype == np.dtype(padax.bfloat16) and opt.multi_precision
    st = opt.init(net)
    assert st["master_weight"].weight.dtype == np.float32
    if "moment1" in st:
        assert st["moment1"].weight.dtype == np.float32
    grads = padax.tree.map(lambda p: padax.ones_like(p), net)
    step = padax.jit(opt.step)
    for _ in range(100):
        net, st = step(net, grads, st)
    master = np.asarray(st["master_weight"].weight)
    assert net.weight.dtype == np.dtype(padax.bfloat16)
    np.testing.assert_allclose(master, 1.0 - 100 * 1e-4, rtol=1e-4)  # 1 - 1e-4 rounds to 1 in bfloat16
    np.testing.assert_allclose(np.asarray(net.weight.astype("float32")), master, rtol=4e-3)
    # without master weights every update is lost
    plain = opt_cls(learning_rate=1e-4)
    p, s = {"w": padax.ones([4], "bfloat16")}, None
    s = plain.init(p)
    for _ in range(10):
        p, s = plain.step(p, {"w": padax.ones([4], "bfloat16")}, s)
    assert np.all(np.asarray(p["w"].astype("float32")) == 1.0)


def test_master_weight_state_saves_and_loads(tmp_path):
    opt = padax.optimizer.Adam(learning_rate=1e-3, multi_precision=True)
    params = {"w": padax.ones([3], "bfloat16"), "b": padax.zeros([2], "float32")}
    st = opt.init(params)
    assert st["master_weight"]["b"] is None and st["master_weight"]["w"].dtype == np.float32
    params, st = opt.step(params, {"w": padax.ones([3], "bfloat16"), "b": padax.ones([2])}, st)
    padax.save(st, str(tmp_path / "opt.pdopt"))
    back = padax.load(str(tmp_path / "opt.pdopt"))
    for k in ("moment1", "moment2", "master_weight"):
        np.testing.assert_array_equal(np.asarray(back[k]["w"]), np.asarray(st[k]["w"]))
    assert np.asarray(back["master_weight"]["w"]).dtype == np.float32
    p2, _ = opt.step(params, {"w": padax.ones([3], "bfloat16"), "b": padax.ones([2])}, back)
    p1, _ = opt.step(params, {"w": padax.ones([3], "bfloat16"), "b": padax.ones([2])}, st)
    np.testing.assert_array_equal(np.asarray(p1["w"].astype("float32")), np.asarray(p2["w"].astype("float32")))


def test_state_without_master_weights_is_refused():
    net = padax.nn.Linear(2, 2)
    opt = padax.optimizer.AdamW(learning_rate=1e-3)
    st = opt.init(net)  # made before decorate: float32, no master weights
    net, opt = padax.amp.decorate(net, opt, level="O2", dtype="bfloat16")
    with pytest.raises(ValueError, match="master weights"):
        opt.step(net, padax.tree.map(padax.ones_like, net), st)
    with pytest.raises(ValueError, match="save_dtype"):
        padax.amp.decorate(net, level="O2", dtype="bfloat16", save_dtype="float32")
    assert padax.amp.decorate(net, level="O1") is net
