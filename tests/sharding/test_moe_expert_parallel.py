"""MoELayer's expert parallelism (shard_map + all_to_all over an expert axis of 8 CPU devices) equals the
one-device layer: outputs, the aux loss and gradients without drops; per-device capacity as the one-device
layer applied to each device's tokens."""
import numpy as np
import pytest

import padax
from padax.incubate.nn import MoELayer
from padax.sharding import P
from tests.conftest import assert_close

pytestmark = pytest.mark.spmd

TOKENS, D, H, E = 16, 4, 6, 8


def _layers(capacity_factor):
    padax.seed(0)
    single = MoELayer(D, H, E, top_k=2, capacity_factor=capacity_factor,
                      bias_attr=padax.nn.initializer.Normal(0.0, 0.5))
    ep = MoELayer(D, H, E, top_k=2, capacity_factor=capacity_factor, expert_axis="i")
    for n in ("gate_weight", "w1", "b1", "w2", "b2"):
        setattr(ep, n, getattr(single, n))
    return single, ep


def _sharded(ep, mesh):
    return padax.jit(padax.shard_map(lambda m, t: m(t), mesh=mesh, in_specs=(ep.expert_specs(), P("i")),
                                     out_specs=(P("i"), P())))


X = np.random.default_rng(1).standard_normal((TOKENS, D)).astype(np.float32)


def test_equals_one_device_without_drops(mesh8):
    single, ep = _layers(None)
    y, aux = _sharded(ep, mesh8)(ep, X)
    ys, auxs = single(X)
    assert_close(y, np.asarray(ys), rtol=1e-5, atol=1e-6)
    assert_close(aux, np.asarray(auxs), rtol=1e-6)


def test_per_device_capacity_equals_one_device_per_shard(mesh8):
    single, ep = _layers(1.0)
    y, _ = _sharded(ep, mesh8)(ep, X)
    want = np.concatenate([np.asarray(single(X[i * 2:(i + 1) * 2])[0]) for i in range(8)])
    assert_close(y, want, rtol=1e-5, atol=1e-6)


def test_gradients_equal_one_device(mesh8):
    single, ep = _layers(None)
    probe = np.random.default_rng(2).standard_normal((TOKENS, D)).astype(np.float32)
    f = _sharded(ep, mesh8)

    def loss_ep(m):
        y, aux = f(m, X)
        return padax.sum(y * probe) + aux

    def loss_single(m):
        y, aux = m(X)
        return padax.sum(y * probe) + aux

    g_ep, g_single = padax.grad(loss_ep)(ep), padax.grad(loss_single)(single)
    for n in ("gate_weight", "w1", "b1", "w2", "b2"):
        assert_close(getattr(g_ep, n), np.asarray(getattr(g_single, n)), rtol=1e-4, atol=1e-5)
