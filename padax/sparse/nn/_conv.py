"""Sparse 2-D / 3-D convolution (regular and submanifold), 3-D max pooling and batch norm on COO
[N, (D,) H, W, C].

The rulebook (which input site meets which output site through which kernel offset) is built on
the host from concrete indices; the arithmetic is a gather of input values, a product with the
gathered kernel slices and a scatter-add into the output sites, so it differentiates with respect
to the input values, the weight and the bias. Output sites come sorted (row-major), as Paddle's.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

import padax
import padax.numpy as pnp
from padax.sparse._ops import coalesce
from padax.sparse._tensor import SparseCooTensor, host_indices

__all__ = ["BatchNorm", "Conv2D", "Conv3D", "MaxPool3D", "SubmConv2D", "SubmConv3D", "SyncBatchNorm", "conv2d",
           "conv3d", "max_pool3d", "subm_conv2d", "subm_conv3d"]


def _tuple(op: str, what: str, v: Any, n: int = 3) -> list[int]:
    if isinstance(v, int):
        return [v] * n
    v = [int(a) for a in v]
    if len(v) != n:
        raise ValueError(f"padax.sparse.nn.functional.{op}: {what} must be an int or {n} ints, got {v}")
    return v


def _padding(op: str, padding: Any, n: int = 3) -> list[int]:
    if isinstance(padding, str):
        raise ValueError(f"padax.sparse.nn.functional.{op}: string padding is not supported; give ints")
    if isinstance(padding, int):
        return [padding] * n
    p = list(padding)
    if len(p) == 2 * n and p[0::2] == p[1::2]:
        return [int(a) for a in p[0::2]]
    return _tuple(op, "padding", p, n)


def _check_input(op: str, x: Any, data_format: str, n: int = 3) -> None:
    layout = "NDHWC" if n == 3 else "NHWC"
    if not isinstance(x, SparseCooTensor):
        raise TypeError(f"padax.sparse.nn.functional.{op}: x must be a SparseCooTensor, got {type(x).__name__}")
    if data_format != layout:
        raise ValueError(f"padax.sparse.nn.functional.{op}: only data_format={layout!r}, got {data_format!r}")
    if x.ndim != n + 2 or x.sparse_dim() != n + 1:
        raise ValueError(f"padax.sparse.nn.functional.{op}: x must be [{', '.join(layout)}] with {n + 1} sparse "
                         f"dims, got shape {list(x.shape)} with sparse_dim {x.sparse_dim()}")


def _rulebook(op: str, x: SparseCooTensor, kernel: list[int], stride: list[int], padding: list[int],
              dilation: list[int], subm: bool, ceil_mode: bool = False):
    """(x coalesced, out indices [1 + n, n_out], out spatial shape, in_pos, out_pos, offset number) on the host."""
    x = coalesce(x)
    (h,) = host_indices(op, x.indices())
    spatial = x.shape[1:-1]
    if subm:
        out_sp = list(spatial)
    else:
        out_sp = []
        for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
            span = n + 2 * p - d * (k - 1) - 1
            out_sp.append((-(-span // s) if ceil_mode else span // s) + 1)
    ins, outs, offs = [], [], []
    for o, ks in enumerate(itertools.product(*(range(k) for k in kernel))):
        # out[q] gathers in[q * stride - padding + k * dilation]: q = (i + padding - k * dilation) / stride
        num = h[1:] + (np.asarray(padding) - np.asarray(ks) * np.asarray(dilation))[:, None]
        ok = np.all(num % np.asarray(stride)[:, None] == 0, axis=0)
        q = num // np.asarray(stride)[:, None]
        ok &= np.all((q >= 0) & (q < np.asarray(out_sp)[:, None]), axis=0)
        pos = np.nonzero(ok)[0]
        ins.append(pos)
        outs.append(np.concatenate([h[:1, pos], q[:, pos]]))
        offs.append(np.full(len(pos), o))
    ins, offs = np.concatenate(ins), np.concatenate(offs)
    outs = np.concatenate(outs, axis=1)
    dims = (x.shape[0], *out_sp)
    lin = np.ravel_multi_index(tuple(outs), dims) if outs.size else np.zeros(0, np.int64)
    if subm:
        sites = np.ravel_multi_index(tuple(h), dims) if h.size else np.zeros(0, np.int64)
        keep = np.isin(lin, sites)
        ins, offs, lin = ins[keep], offs[keep], lin[keep]
    else:
        sites = np.unique(lin)
    out_pos = np.searchsorted(sites, lin)
    out_idx = np.stack(np.unravel_index(sites, dims)).astype(np.int64).reshape(len(dims), -1)
    return x, out_idx, out_sp, ins.astype(np.int64), out_pos.astype(np.int64), offs.astype(np.int64)


def _conv(op: str, x, weight, bias, stride, padding, dilation, groups, data_format, subm, n=3):
    _check_input(op, x, data_format, n)
    if groups != 1:
        raise ValueError(f"padax.sparse.nn.functional.{op}: only groups=1 (Paddle's)")
    weight = padax.asarray(weight)
    if weight.ndim != n + 2 or weight.shape[n] != x.shape[-1]:
        raise ValueError(f"padax.sparse.nn.functional.{op}: weight must be [{n} kernel dims, {x.shape[-1]}, C_out], "
                         f"got {list(weight.shape)}")
    kernel = list(weight.shape[:n])
    stride, dilation = _tuple(op, "stride", stride, n), _tuple(op, "dilation", dilation, n)
    padding = _padding(op, padding, n)
    if subm:
        if stride != [1] * n:
            raise ValueError(f"padax.sparse.nn.functional.{op}: a submanifold convolution needs stride 1")
        padding = [(k // 2) * d for k, d in zip(kernel, dilation)]  # the kernel is centred (Paddle's)
    x, out_idx, out_sp, ins, outs, offs = _rulebook(op, x, kernel, stride, padding, dilation, subm)
    cin, cout = weight.shape[n], weight.shape[n + 1]
    w = weight.reshape(-1, cin, cout)
    xv = x.values()[padax.to_tensor(ins)]                               # [P, Cin]
    contrib = pnp.sum(xv[:, :, None] * w[padax.to_tensor(offs)], axis=1)  # [P, Cout]
    vals = pnp.zeros((out_idx.shape[1], cout), contrib.dtype).at[padax.to_tensor(outs)].add(contrib)
    if bias is not None:
        vals = vals + padax.asarray(bias)
    return SparseCooTensor(padax.to_tensor(out_idx), vals, (x.shape[0], *out_sp, cout))


def conv3d(x: Any, weight: Any, bias: Any = None, stride: int | Sequence[int] = 1, padding: Any = 0,
           dilation: int | Sequence[int] = 1, groups: int = 1, data_format: str = "NDHWC",
           name: str | None = None) -> SparseCooTensor:
    """Sparse 3-D convolution: every output site any kernel tap reaches from a stored input site.

    Args:
        x: SparseCooTensor [N, D, H, W, C_in] (4 sparse dims, channel values).
        weight: [kD, kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: int or 3 ints.
        padding: int, 3 ints or 6 symmetric ints.
        dilation: int or 3 ints.
        groups: must be 1.
        data_format: must be 'NDHWC'.
        name: unused.

    Returns:
        SparseCooTensor [N, D', H', W', C_out] with sorted output sites.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1], [1]], [[1.]], [1, 3, 3, 3, 1])
        >>> y = padax.sparse.nn.functional.conv3d(x, padax.ones([3, 3, 3, 1, 1]))
        >>> y.shape, y.values().tolist()
        ((1, 1, 1, 1, 1), [[1.0]])
    """
    return _conv("conv3d", x, weight, bias, stride, padding, dilation, groups, data_format, False)


def subm_conv3d(x: Any, weight: Any, bias: Any = None, stride: int | Sequence[int] = 1, padding: Any = 0,
                dilation: int | Sequence[int] = 1, groups: int = 1, data_format: str = "NDHWC",
                key: str | None = None, name: str | None = None) -> SparseCooTensor:
    """Submanifold sparse 3-D convolution: outputs only at the stored input sites (pattern kept).

    Args:
        x: SparseCooTensor [N, D, H, W, C_in].
        weight: [kD, kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: must be 1.
        padding: accepted and ignored: the kernel is centred on each site (tap k at offset
            (k - kernel // 2) * dilation), as Paddle does for odd kernels whatever the padding.
        dilation: int or 3 ints.
        groups: must be 1.
        data_format: must be 'NDHWC'.
        key: unused (Paddle's rulebook cache key).
        name: unused.

    Returns:
        SparseCooTensor [N, D, H, W, C_out] on x's (sorted) sites.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 1, 2, 1])
        >>> y = padax.sparse.nn.functional.subm_conv3d(x, padax.ones([1, 1, 3, 1, 1]))
        >>> y.values().tolist()
        [[3.0], [3.0]]
    """
    return _conv("subm_conv3d", x, weight, bias, stride, padding, dilation, groups, data_format, True)


def max_pool3d(x: Any, kernel_size: int | Sequence[int], stride: int | Sequence[int] | None = None,
               padding: Any = 0, ceil_mode: bool = False, data_format: str = "NDHWC",
               name: str | None = None) -> SparseCooTensor:
    """Sparse 3-D max pooling: each output site takes the channel-wise max of its stored inputs.

    Args:
        x: SparseCooTensor [N, D, H, W, C].
        kernel_size: int or 3 ints.
        stride: int or 3 ints (default: kernel_size).
        padding: int, 3 ints or 6 symmetric ints.
        ceil_mode: round the output size up.
        data_format: must be 'NDHWC'.
        name: unused.

    Returns:
        SparseCooTensor [N, D', H', W', C] with sorted output sites.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 1, 2, 1])
        >>> padax.sparse.nn.functional.max_pool3d(x, [1, 1, 2]).values().tolist()
        [[2.0]]
    """
    _check_input("max_pool3d", x, data_format)
    kernel = _tuple("max_pool3d", "kernel_size", kernel_size)
    stride = kernel if stride is None else _tuple("max_pool3d", "stride", stride)
    x, out_idx, out_sp, ins, outs, _ = _rulebook("max_pool3d", x, kernel, stride, _padding("max_pool3d", padding),
                                                 [1, 1, 1], False, ceil_mode)
    c = x.shape[-1]
    vals = pnp.full((out_idx.shape[1], c), -pnp.inf, x.dtype).at[padax.to_tensor(outs)].max(
        x.values()[padax.to_tensor(ins)])
    return SparseCooTensor(padax.to_tensor(out_idx), vals, (x.shape[0], *out_sp, c))


class _ConvNd(padax.nn.Layer):
    _subm = False
    _n = 3

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | Sequence[int],
                 stride: int | Sequence[int] = 1, padding: Any = 0, dilation: int | Sequence[int] = 1,
                 groups: int = 1, padding_mode: str = "zeros", weight_attr: Any = None, bias_attr: Any = None,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        if groups != 1 or padding_mode != "zeros":
            raise ValueError(f"{type(self).__name__}: only groups=1 and padding_mode='zeros' (Paddle's)")
        kernel = _tuple(type(self).__name__, "kernel_size", kernel_size, self._n)
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self._data_format = data_format or ("NDHWC" if self._n == 3 else "NHWC")
        std = (2.0 / (int(np.prod(kernel)) * in_channels)) ** 0.5
        self.weight = self.create_parameter([*kernel, in_channels, out_channels], attr=weight_attr,
                                            default_initializer=padax.nn.initializer.Normal(0.0, std))
        self.bias = None if bias_attr is False else self.create_parameter([out_channels], attr=bias_attr,
                                                                          is_bias=True)

    def forward(self, x: Any) -> Any:
        """Apply the convolution."""
        return _conv(type(self).__name__, x, self.weight, self.bias, self._stride, self._padding, self._dilation, 1,
                     self._data_format, self._subm, self._n)


class Conv3D(_ConvNd):
    """Sparse 3-D convolution layer (`padax.sparse.nn.functional.conv3d` with a weight and bias).

    Args:
        in_channels: C_in.
        out_channels: C_out.
        kernel_size: int or 3 ints.
        stride: int or 3 ints.
        padding: int, 3 ints or 6 symmetric ints.
        dilation: int or 3 ints.
        groups: must be 1.
        padding_mode: must be 'zeros'.
        weight_attr: the weight's ParamAttr (default init: normal, std sqrt(2 / fan_in), Paddle's).
        bias_attr: the bias' ParamAttr, or False for no bias.
        data_format: must be 'NDHWC'.

    Examples:
        >>> import padax
        >>> conv = padax.sparse.nn.Conv3D(1, 2, 3, padding=1)
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1], [1]], [[1.]], [1, 3, 3, 3, 1])
        >>> conv(x).shape
        (1, 3, 3, 3, 2)
    """


class SubmConv3D(_ConvNd):
    """Submanifold sparse 3-D convolution layer: outputs only at the input's sites.

    Args:
        in_channels: C_in.
        out_channels: C_out.
        kernel_size: int or 3 ints.
        stride: must be 1.
        padding: int, 3 ints or 6 symmetric ints.
        dilation: int or 3 ints.
        groups: must be 1.
        padding_mode: must be 'zeros'.
        weight_attr: the weight's ParamAttr.
        bias_attr: the bias' ParamAttr, or False.
        data_format: must be 'NDHWC'.

    Examples:
        >>> import padax
        >>> conv = padax.sparse.nn.SubmConv3D(1, 2, 3, padding=1)
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1], [1]], [[1.]], [1, 3, 3, 3, 1])
        >>> conv(x).nnz()
        1
    """
    _subm = True


class MaxPool3D(padax.nn.Layer):
    """Sparse 3-D max pooling layer (`padax.sparse.nn.functional.max_pool3d`).

    Args:
        kernel_size: int or 3 ints.
        stride: int or 3 ints (default: kernel_size).
        padding: int, 3 ints or 6 symmetric ints.
        return_mask: must be False.
        ceil_mode: round the output size up.
        data_format: must be 'NDHWC'.
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 1, 2, 1])
        >>> padax.sparse.nn.MaxPool3D([1, 1, 2])(x).values().tolist()
        [[2.0]]
    """

    def __init__(self, kernel_size: int | Sequence[int], stride: int | Sequence[int] | None = None,
                 padding: Any = 0, return_mask: bool = False, ceil_mode: bool = False, data_format: str = "NDHWC",
                 name: str | None = None) -> None:
        super().__init__()
        if return_mask:
            raise ValueError("padax.sparse.nn.MaxPool3D: return_mask is not supported")
        self._args = (kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x: Any) -> Any:
        """Apply the pooling."""
        return max_pool3d(x, *self._args)


class BatchNorm(padax.nn.BatchNorm1D):
    """Batch norm of a sparse tensor's channel values [nnz, C] (Paddle's paddle.sparse.nn.BatchNorm).

    The statistics are over the stored entries only; the pattern is kept.

    Args:
        num_features: C.
        momentum: the weight of the old running statistics.
        epsilon: added to the variance.
        weight_attr: the scale's ParamAttr.
        bias_attr: the shift's ParamAttr.
        data_format: 'NDHWC' or 'NHWC' (channels last, the values' last dim).
        use_global_stats: use the running statistics (default: in eval mode).
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 1]], [[1.], [3.]], [1, 2, 1])
        >>> [round(v, 3) for v in padax.sparse.nn.BatchNorm(1)(x).values().reshape(-1).tolist()]
        [-1.0, 1.0]
    """

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NDHWC", use_global_stats: bool | None = None,
                 name: str | None = None) -> None:
        if data_format not in ("NDHWC", "NHWC"):
            raise ValueError(f"padax.sparse.nn.BatchNorm: data_format must be 'NDHWC' or 'NHWC', got {data_format!r}")
        super().__init__(num_features, momentum=momentum, epsilon=epsilon, weight_attr=weight_attr,
                         bias_attr=bias_attr, data_format="NC", use_global_stats=use_global_stats, name=name)

    def forward(self, x: Any) -> Any:
        """Normalise the values of a sparse tensor."""
        if not isinstance(x, SparseCooTensor) or x.dense_dim() != 1:
            raise TypeError("padax.sparse.nn.BatchNorm: x must be a SparseCooTensor with channel values [nnz, C]")
        return x._with_values(super().forward(x.values()))


def conv2d(x: Any, weight: Any, bias: Any = None, stride: int | Sequence[int] = 1, padding: Any = 0,
           dilation: int | Sequence[int] = 1, groups: int = 1, data_format: str = "NHWC",
           name: str | None = None) -> SparseCooTensor:
    """Sparse 2-D convolution on COO [N, H, W, C] (as `conv3d`, one spatial dim fewer).

    Args:
        x: SparseCooTensor [N, H, W, C_in] (3 sparse dims).
        weight: [kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: int or 2 ints.
        padding: int, 2 ints or 4 symmetric ints.
        dilation: int or 2 ints.
        groups: must be 1.
        data_format: must be 'NHWC'.
        name: unused.

    Returns:
        SparseCooTensor [N, H', W', C_out] with sorted output sites.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1]], [[1.]], [1, 3, 3, 1])
        >>> padax.sparse.nn.functional.conv2d(x, padax.ones([3, 3, 1, 1]), padding=1).nnz()
        9
    """
    return _conv("conv2d", x, weight, bias, stride, padding, dilation, groups, data_format, False, 2)


def subm_conv2d(x: Any, weight: Any, bias: Any = None, stride: int | Sequence[int] = 1, padding: Any = 0,
                dilation: int | Sequence[int] = 1, groups: int = 1, data_format: str = "NHWC",
                key: str | None = None, name: str | None = None) -> SparseCooTensor:
    """Submanifold sparse 2-D convolution on COO [N, H, W, C]: outputs only at the input's sites.

    Args:
        x: SparseCooTensor [N, H, W, C_in].
        weight: [kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: must be 1.
        padding: accepted and ignored (the kernel is centred, as `subm_conv3d`).
        dilation: int or 2 ints.
        groups: must be 1.
        data_format: must be 'NHWC'.
        key: unused.
        name: unused.

    Returns:
        SparseCooTensor [N, H, W, C_out] on x's sorted sites.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 2, 1])
        >>> padax.sparse.nn.functional.subm_conv2d(x, padax.ones([1, 3, 1, 1])).values().tolist()
        [[3.0], [3.0]]
    """
    return _conv("subm_conv2d", x, weight, bias, stride, padding, dilation, groups, data_format, True, 2)


class Conv2D(_ConvNd):
    """Sparse 2-D convolution layer on COO [N, H, W, C] (`padax.sparse.nn.functional.conv2d`).

    Args:
        in_channels: C_in.
        out_channels: C_out.
        kernel_size: int or 2 ints.
        stride: int or 2 ints.
        padding: int, 2 ints or 4 symmetric ints.
        dilation: int or 2 ints.
        groups: must be 1.
        padding_mode: must be 'zeros'.
        weight_attr: the weight's ParamAttr.
        bias_attr: the bias' ParamAttr, or False.
        data_format: must be 'NHWC'.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1]], [[1.]], [1, 3, 3, 1])
        >>> padax.sparse.nn.Conv2D(1, 2, 3)(x).shape
        (1, 1, 1, 2)
    """
    _n = 2


class SubmConv2D(_ConvNd):
    """Submanifold sparse 2-D convolution layer: outputs only at the input's sites.

    Args:
        in_channels: C_in.
        out_channels: C_out.
        kernel_size: int or 2 ints.
        stride: must be 1.
        padding: accepted and ignored (the kernel is centred).
        dilation: int or 2 ints.
        groups: must be 1.
        padding_mode: must be 'zeros'.
        weight_attr: the weight's ParamAttr.
        bias_attr: the bias' ParamAttr, or False.
        data_format: must be 'NHWC'.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0], [1], [1]], [[1.]], [1, 3, 3, 1])
        >>> padax.sparse.nn.SubmConv2D(1, 2, 3, padding=1)(x).nnz()
        1
    """
    _n = 2
    _subm = True


class SyncBatchNorm(BatchNorm):
    """Paddle's SyncBatchNorm for sparse tensors; on one process it is `BatchNorm` (padax's data parallelism
    averages statistics through the transformations, not inside the layer).

    Args:
        num_features: C.
        momentum: the weight of the old running statistics.
        epsilon: added to the variance.
        weight_attr: the scale's ParamAttr.
        bias_attr: the shift's ParamAttr.
        data_format: 'NDHWC' or 'NHWC'.
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 1]], [[1.], [3.]], [1, 2, 1])
        >>> [round(v, 3) for v in padax.sparse.nn.SyncBatchNorm(1)(x).values().reshape(-1).tolist()]
        [-1.0, 1.0]
    """

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NDHWC", name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name)
