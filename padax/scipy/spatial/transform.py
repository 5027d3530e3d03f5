"""`padax.scipy.spatial.transform.Rotation`: 3-D rotations stored as unit quaternions
(scipy's scalar-last order x, y, z, w), converted to and from matrices, rotation vectors
and Euler angles (any of scipy's 24 sequences). A pytree: rotations go through jit, vmap
and grad."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import tree as tree_util
from padax.core.errors import op_value_error

_OP = "padax.scipy.spatial.transform.Rotation"


def _qmul(p, q):
    """Hamilton product of scalar-last quaternions."""
    px, py, pz, pw = (p[..., i] for i in range(4))
    qx, qy, qz, qw = (q[..., i] for i in range(4))
    return pnp.stack([pw * qx + px * qw + py * qz - pz * qy,
                      pw * qy - px * qz + py * qw + pz * qx,
                      pw * qz + px * qy - py * qx + pz * qw,
                      pw * qw - px * qx - py * qy - pz * qz], axis=-1)


def _norm(v):
    s = pnp.sum(v * v, axis=-1)
    pos = s > 0
    return pnp.where(pos, pnp.sqrt(pnp.where(pos, s, 1.0)), 0.0)


def _parse_seq(seq: str) -> tuple[list[int], bool]:
    if len(seq) != 3 or not (seq.islower() or seq.isupper()) or any(c not in "xyzXYZ" for c in seq):
        raise op_value_error(_OP, f"seq must be 3 of x, y, z (all lower case: extrinsic, all upper: intrinsic), "
                                  f"got {seq!r}")
    axes = ["xyz".index(c) for c in seq.lower()]
    if axes[0] == axes[1] or axes[1] == axes[2]:
        raise op_value_error(_OP, f"consecutive axes of seq must differ, got {seq!r}")
    return axes, seq.isupper()


class Rotation:
    """A rotation (or a stack of them); build with from_quat / from_matrix / from_rotvec /
    from_euler / identity, combine with `*`, invert with inv(), apply to vectors with apply()."""

    def __init__(self, quat: Any, normalize: bool = True):
        q = pnp.asarray(quat)
        if q.shape[-1:] != (4,) or q.ndim > 2:
            raise op_value_error(_OP, f"quaternions must have shape (4,) or (N, 4), got {tuple(q.shape)}")
        q = q.astype(pnp.result_type(q.dtype, pnp.float32))
        self._quat = q / _norm(q)[..., None] if normalize else q

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def from_quat(cls, quat: Any) -> "Rotation":
        return cls(quat)

    @classmethod
    def identity(cls, num: int | None = None, dtype: Any = "float32") -> "Rotation":
        q = np.zeros((4,) if num is None else (num, 4), dtype=dtype)
        q[..., 3] = 1
        return cls(q, normalize=False)

    @classmethod
    def from_rotvec(cls, rotvec: Any, degrees: bool = False) -> "Rotation":
        v = pnp.asarray(rotvec)
        v = v.astype(pnp.result_type(v.dtype, pnp.float32))
        if degrees:
            v = v * (np.pi / 180)
        th = _norm(v)
        small = th < 1e-3
        ths = pnp.where(small, 1.0, th)
        # sin(th/2)/th, with its Taylor series near zero
        scale = pnp.where(small, 0.5 - th * th / 48 + th ** 4 / 3840, pnp.sin(ths / 2) / ths)
        return cls(pnp.concatenate([v * scale[..., None], pnp.cos(th / 2)[..., None]], axis=-1), normalize=False)

    @classmethod
    def from_matrix(cls, matrix: Any) -> "Rotation":
        """Shepperd's method: the largest of w, x, y, z is recovered from the diagonal first."""
        m = pnp.asarray(matrix)
        m = m.astype(pnp.result_type(m.dtype, pnp.float32))
        if m.shape[-2:] != (3, 3):
            raise op_value_error(_OP, f"matrices must have shape (3, 3) or (N, 3, 3), got {tuple(m.shape)}")
        tr = m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2]
        cands = []
        for i in range(3):
            j, k = (i + 1) % 3, (i + 2) % 3
            q = [None] * 4
            q[i] = 1 - tr + 2 * m[..., i, i]
            q[j] = m[..., j, i] + m[..., i, j]
            q[k] = m[..., k, i] + m[..., i, k]
            q[3] = m[..., k, j] - m[..., j, k]
            cands.append(pnp.stack(q, axis=-1))
        cands.append(pnp.stack([m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0],
                                m[..., 1, 0] - m[..., 0, 1], 1 + tr], axis=-1))
        allq = pnp.stack(cands, axis=-2)                                   # (..., 4 candidates, 4)
        key = pnp.stack([m[..., 0, 0], m[..., 1, 1], m[..., 2, 2], tr], axis=-1)
        best = pnp.argmax(key, axis=-1)
        q = pnp.take_along_axis(allq, best[..., None, None], axis=-2)[..., 0, :]
        return cls(q)

    @classmethod
    def from_euler(cls, seq: str, angles: Any, degrees: bool = False) -> "Rotation":
        """Lower-case seq: extrinsic rotations about fixed axes; upper-case: intrinsic."""
        axes, intrinsic = _parse_seq(seq)
        a = pnp.asarray(angles)
        a = a.astype(pnp.result_type(a.dtype, pnp.float32))
        if degrees:
            a = a * (np.pi / 180)
        if a.shape[-1:] != (3,):
            raise op_value_error(_OP, f"angles must have a last axis of 3 for seq {seq!r}, got {tuple(a.shape)}")
        q = None
        for n, ax in enumerate(axes):
            half = a[..., n] / 2
            parts = [pnp.zeros_like(half)] * 3 + [pnp.cos(half)]
            parts[ax] = pnp.sin(half)
            e = pnp.stack(parts, axis=-1)
            q = e if q is None else (_qmul(q, e) if intrinsic else _qmul(e, q))
        return cls(q, normalize=False)

    # -- conversion ----------------------------------------------------------------------------
    def as_quat(self, canonical: bool = False) -> Any:
        if canonical:
            return pnp.where(self._quat[..., 3:] < 0, -self._quat, self._quat)
        return self._quat

    def as_matrix(self) -> Any:
        x, y, z, w = (self._quat[..., i] for i in range(4))
        rows = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        return pnp.stack([pnp.stack(r, axis=-1) for r in rows], axis=-2)

    def as_rotvec(self, degrees: bool = False) -> Any:
        q = self.as_quat(canonical=True)
        xyz, w = q[..., :3], q[..., 3]
        s = _norm(xyz)
        th = 2 * pnp.arctan2(s, w)
        small = th < 1e-3
        ths = pnp.where(small, 1.0, th)
        scale = pnp.where(small, 2 + th * th / 12 + 7 * th ** 4 / 2880, ths / pnp.sin(ths / 2))
        v = xyz * scale[..., None]
        return v * (180 / np.pi) if degrees else v

    def as_euler(self, seq: str, degrees: bool = False) -> Any:
        """Euler angles by Bernardes & Viollet's quaternion formula (2022); at gimbal lock
        the third angle is set to zero (as scipy)."""
        axes, intrinsic = _parse_seq(seq)
        if intrinsic:
            axes = axes[::-1]
        i, j, k = axes
        symmetric = i == k
        if symmetric:
            k = 3 - i - j
        sign = (i - j) * (j - k) * (k - i) // 2
        q = self._quat
        w = q[..., 3]
        if symmetric:
            a, b, c, d = w, q[..., i], q[..., j], q[..., k] * sign
        else:
            a, b = w - q[..., j], q[..., i] + q[..., k] * sign
            c, d = q[..., j] + w, q[..., k] * sign - q[..., i]
        th2 = 2 * pnp.arctan2(_norm(pnp.stack([c, d], -1)), _norm(pnp.stack([a, b], -1)))
        half_p, half_m = pnp.arctan2(b, a), pnp.arctan2(d, c)
        eps = 1e-7 if q.dtype == pnp.float64 else 1e-4
        lock0, lockpi = pnp.abs(th2) <= eps, pnp.abs(th2 - np.pi) <= eps
        th1 = pnp.where(lock0, 2 * half_p, pnp.where(lockpi, 2 * half_m, half_p - half_m))
        th3 = pnp.where(lock0 | lockpi, 0.0, half_p + half_m)
        if not symmetric:
            th3 = th3 * sign
            th2 = th2 - np.pi / 2
        wrap = lambda t: pnp.remainder(t + np.pi, 2 * np.pi) - np.pi  # noqa: E731
        out = [wrap(th1), th2, wrap(th3)]
        if intrinsic:
            out = out[::-1]
        ang = pnp.stack(out, axis=-1)
        return ang * (180 / np.pi) if degrees else ang

    # -- algebra -------------------------------------------------------------------------------
    def __mul__(self, other: "Rotation") -> "Rotation":
        """self * other: apply other first, then self."""
        return Rotation(_qmul(self._quat, other._quat))

    def inv(self) -> "Rotation":
        return Rotation(self._quat * pnp.asarray([-1.0, -1.0, -1.0, 1.0], dtype=self._quat.dtype),
                        normalize=False)

    def apply(self, vectors: Any, inverse: bool = False) -> Any:
        m = self.as_matrix()
        if inverse:
            m = pnp.swapaxes(m, -1, -2)
        v = pnp.asarray(vectors).astype(m.dtype)
        return pnp.einsum("...ij,...j->...i", m, v)

    def magnitude(self) -> Any:
        return _norm(self.as_rotvec())

    def __len__(self) -> int:
        if self._quat.ndim == 1:
            raise TypeError("a single rotation has no len()")
        return self._quat.shape[0]

    def __getitem__(self, idx) -> "Rotation":
        return Rotation(self._quat[idx], normalize=False)

    def __repr__(self) -> str:
        return f"Rotation(quat={self._quat})"


tree_util.register_node(Rotation, lambda r: ((r._quat,), None),
                        lambda _, ch: Rotation(ch[0], normalize=False))
