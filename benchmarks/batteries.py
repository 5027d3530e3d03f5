"""Battery workloads (issues 33/34): paddle.incubate's FusedMultiHeadAttention forward, a sparse COO x dense
matmul, and the audio MelSpectrogram, each padax (jit) beside Paddle (eager; its fused attention kernel is
CUDA-only, so Paddle runs the same block as its unfused ops) and, where jax has the op, jax."""
from __future__ import annotations

import sys

import numpy as np

from benchmarks.harness import Unavailable, Workload

_SMOKE = "--smoke" in sys.argv
_RNG = np.random.default_rng(7)
_B, _S, _E, _NH = (2, 8, 16, 2) if _SMOKE else (8, 128, 256, 8)
_X = _RNG.standard_normal((_B, _S, _E)).astype(np.float32)
_QKV_W = (_RNG.standard_normal((3, _NH, _E // _NH, _E)) * 0.05).astype(np.float32)
_QKV_B = (_RNG.standard_normal((3, _NH, _E // _NH)) * 0.05).astype(np.float32)
_LIN_W = (_RNG.standard_normal((_E, _E)) * 0.05).astype(np.float32)
_LIN_B = np.zeros(_E, np.float32)
_LN_S, _LN_B = np.ones(_E, np.float32), np.zeros(_E, np.float32)

_N_SP, _DENSITY, _COLS = (32, 0.1, 8) if _SMOKE else (2048, 0.01, 256)
_SP = np.where(_RNG.random((_N_SP, _N_SP)) < _DENSITY, _RNG.standard_normal((_N_SP, _N_SP)), 0).astype(np.float32)
_SP_IDX = np.stack(np.nonzero(_SP)).astype(np.int64)
_SP_VAL = _SP[tuple(_SP_IDX)]
_DENSE = _RNG.standard_normal((_N_SP, _COLS)).astype(np.float32)

_WAVE = _RNG.standard_normal((4, 1600 if _SMOKE else 16000)).astype(np.float32)


def _padax_mha():
    import padax
    from padax.incubate.nn import FusedMultiHeadAttention
    layer = FusedMultiHeadAttention(_E, _NH, dropout_rate=0.0, attn_dropout_rate=0.0)
    layer.set_state_dict({"qkv_weight": padax.to_tensor(_QKV_W), "qkv_bias": padax.to_tensor(_QKV_B),
                          "linear_weight": padax.to_tensor(_LIN_W), "linear_bias": padax.to_tensor(_LIN_B),
                          "ln_scale": padax.to_tensor(_LN_S), "ln_bias": padax.to_tensor(_LN_B)})
    layer.eval()
    f = padax.jit(lambda m, x: m(x))
    x = padax.device_put(_X)
    return lambda: f(layer, x).block_until_ready()


def _paddle_mha():
    import paddle
    import paddle.nn.functional as F
    x = paddle.to_tensor(_X)
    w = paddle.to_tensor(_QKV_W.reshape(3 * _E, _E).T)
    qb, lw, lb = paddle.to_tensor(_QKV_B.reshape(-1)), paddle.to_tensor(_LIN_W), paddle.to_tensor(_LIN_B)
    ls, lnb = paddle.to_tensor(_LN_S), paddle.to_tensor(_LN_B)
    hd = _E // _NH

    def step():
        qkv = (x @ w + qb).reshape([_B, _S, 3, _NH, hd]).transpose([2, 0, 3, 1, 4])
        att = F.softmax(qkv[0] @ qkv[1].transpose([0, 1, 3, 2]) / np.sqrt(hd), -1)
        ctx = (att @ qkv[2]).transpose([0, 2, 1, 3]).reshape([_B, _S, _E])
        return F.layer_norm(x + ctx @ lw + lb, [_E], ls, lnb).numpy()
    return step


def _padax_sparse():
    import padax
    sp = padax.sparse.sparse_coo_tensor(_SP_IDX, _SP_VAL, [_N_SP, _N_SP])
    d = padax.device_put(_DENSE)
    f = padax.jit(lambda a, b: padax.sparse.matmul(a, b))
    return lambda: f(sp, d).block_until_ready()


def _jax_sparse():
    import jax
    from jax.experimental import sparse as jsparse
    sp = jsparse.BCOO((jax.device_put(_SP_VAL), jax.device_put(_SP_IDX.T.astype(np.int32))), shape=(_N_SP, _N_SP))
    d = jax.device_put(_DENSE)
    f = jax.jit(lambda a, b: a @ b)
    return lambda: f(sp, d).block_until_ready()


def _paddle_sparse():
    import paddle
    sp = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(_SP_IDX), paddle.to_tensor(_SP_VAL), [_N_SP, _N_SP])
    d = paddle.to_tensor(_DENSE)
    try:
        paddle.sparse.matmul(sp, d)
    except (RuntimeError, NotImplementedError) as e:   # Paddle's CPU build has no sparse matmul kernel
        raise Unavailable(f"paddle.sparse.matmul does not run on this build: {str(e).splitlines()[0][:80]}") from e
    return lambda: paddle.sparse.matmul(sp, d).numpy()


def _padax_mel(wave=None):
    import padax
    from padax.audio.features import MelSpectrogram
    mel = MelSpectrogram(sr=16000, n_fft=512, hop_length=160, n_mels=64)
    f = padax.jit(lambda m, x: m(x))
    x = padax.device_put(_WAVE if wave is None else wave)
    return lambda: f(mel, x).block_until_ready()


def _paddle_mel(wave=None):
    import paddle
    from paddle.audio.features import MelSpectrogram
    mel = MelSpectrogram(sr=16000, n_fft=512, hop_length=160, n_mels=64)
    x = paddle.to_tensor(_WAVE if wave is None else wave)
    return lambda: mel(x).numpy()


# ---- issue 34's rows: CSR vs dense at n = 4096, send_u_recv on 100k edges, a GCN epoch, 10 s of audio --------
_N_CSR, _CSR_COLS = (64, 8) if _SMOKE else (4096, 64)
_CSR = np.where(_RNG.random((_N_CSR, _N_CSR)) < 0.01, _RNG.standard_normal((_N_CSR, _N_CSR)), 0).astype(np.float32)
_CSR_RHS = _RNG.standard_normal((_N_CSR, _CSR_COLS)).astype(np.float32)
_NODES, _EDGES, _FEAT = (100, 1000, 8) if _SMOKE else (10000, 100000, 32)
_SRC = _RNG.integers(0, _NODES, _EDGES).astype(np.int64)
_DST = _RNG.integers(0, _NODES, _EDGES).astype(np.int64)
_NODE_X = _RNG.standard_normal((_NODES, _FEAT)).astype(np.float32)
_GCN_W1 = (_RNG.standard_normal((_FEAT, 16)) * 0.3).astype(np.float32)
_GCN_W2 = (_RNG.standard_normal((16, 4)) * 0.3).astype(np.float32)
_GCN_Y = _RNG.integers(0, 4, _NODES).astype(np.int64)
_WAVE_10S = _RNG.standard_normal((1, 1600 if _SMOKE else 160000)).astype(np.float32)


def _padax_csr():
    import padax
    sp = padax.sparse.sparse_coo_tensor(np.stack(np.nonzero(_CSR)).astype(np.int64), _CSR[np.nonzero(_CSR)],
                                        [_N_CSR, _N_CSR]).to_sparse_csr()
    d = padax.device_put(_CSR_RHS)
    f = padax.jit(lambda a, b: padax.sparse.matmul(a, b))
    return lambda: f(sp, d).block_until_ready()


def _padax_dense_matmul():
    import padax
    a, b = padax.device_put(_CSR), padax.device_put(_CSR_RHS)
    f = padax.jit(lambda a, b: a @ b)
    return lambda: f(a, b).block_until_ready()


def _padax_send_u_recv():
    import padax
    x, src, dst = padax.device_put(_NODE_X), padax.device_put(_SRC), padax.device_put(_DST)
    f = padax.jit(lambda x, s, d: padax.geometric.send_u_recv(x, s, d, reduce_op="sum", out_size=_NODES))
    return lambda: f(x, src, dst).block_until_ready()


def _paddle_send_u_recv():
    import paddle
    x, src, dst = paddle.to_tensor(_NODE_X), paddle.to_tensor(_SRC), paddle.to_tensor(_DST)
    return lambda: paddle.geometric.send_u_recv(x, src, dst, reduce_op="sum", out_size=_NODES).numpy()


def _gcn_step(lib, compiled: bool):
    """One full-batch GCN epoch (two propagations, ReLU, cross entropy, SGD) written Paddle's dygraph way."""
    x, src, dst, y = (lib.to_tensor(a) for a in (_NODE_X, _SRC, _DST, _GCN_Y))
    w1 = lib.to_tensor(_GCN_W1, stop_gradient=False)
    w2 = lib.to_tensor(_GCN_W2, stop_gradient=False)
    opt = lib.optimizer.SGD(learning_rate=0.1, parameters=[w1, w2])

    def step():
        h = lib.nn.functional.relu(lib.geometric.send_u_recv(x @ w1, src, dst, reduce_op="mean", out_size=_NODES))
        logits = lib.geometric.send_u_recv(h @ w2, src, dst, reduce_op="mean", out_size=_NODES)
        loss = lib.nn.functional.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    if compiled:
        step = lib.jit(step)
        return lambda: step().block_until_ready()
    return lambda: step().numpy()


def _with(lib_name: str, fn):
    def setup():
        import importlib
        return fn(importlib.import_module(lib_name))
    return setup


def workloads() -> list[Workload]:
    return [
        Workload("sparse_csr_matmul_4096", f"sparse CSR [{_N_CSR}, {_N_CSR}] (1% nonzero) @ dense [{_N_CSR}, "
                                           f"{_CSR_COLS}]; baseline: the same product dense",
                 {"padax": _padax_csr}, baseline=_padax_dense_matmul),
        Workload("send_u_recv_100k", f"geometric.send_u_recv (sum) of [{_NODES}, {_FEAT}] features over {_EDGES} "
                                     "edges",
                 {"padax": _padax_send_u_recv, "paddle": _paddle_send_u_recv}),
        Workload("gcn_epoch", f"a full-batch 2-layer GCN epoch ({_NODES} nodes, {_EDGES} edges; backward, SGD "
                              "step) written Paddle's dygraph way; padax compiled whole, paddle eager",
                 {"padax": _with("padax", lambda lib: _gcn_step(lib, True)),
                  "paddle": _with("paddle", lambda lib: _gcn_step(lib, False))}),
        Workload("mel_spectrogram_10s", "audio MelSpectrogram (n_fft 512, hop 160, 64 mels) of 10 s at 16 kHz",
                 {"padax": lambda: _padax_mel(_WAVE_10S), "paddle": lambda: _paddle_mel(_WAVE_10S)}),
        Workload("fused_mha_forward", f"paddle.incubate.nn.FusedMultiHeadAttention forward (post-LN, eval), "
                                      f"[B, S, E] = [{_B}, {_S}, {_E}], {_NH} heads",
                 {"padax": _padax_mha, "paddle": _paddle_mha}),
        Workload("sparse_coo_matmul", f"sparse COO [{_N_SP}, {_N_SP}] ({_DENSITY:.0%} nonzero) @ dense "
                                      f"[{_N_SP}, {_COLS}]",
                 {"padax": _padax_sparse, "jax": _jax_sparse, "paddle": _paddle_sparse}),
        Workload("mel_spectrogram", f"audio MelSpectrogram (n_fft 512, hop 160, 64 mels) of [{_WAVE.shape[0]}, "
                                    f"{_WAVE.shape[1]}] samples",
                 {"padax": _padax_mel, "paddle": _paddle_mel}),
    ]
