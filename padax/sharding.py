"""`padax.sharding`: meshes, partition specs and shardings for multi-device arrays.

    mesh = padax.make_mesh((4, 2), ("data", "model"))
    x = padax.device_put(x, NamedSharding(mesh, P("data", None)))
    padax.visualize_array_sharding(x)

Several CPU devices in one process: set `PADAX_NUM_CPU_DEVICES=8` in the
environment, or `padax.config.update("num_cpu_devices", 8)` before the first
array is created.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.devices.sharding import (GSPMDSharding, Mesh, NamedSharding, P, PartitionSpec, Sharding,
                                    ShardingError, SingleDeviceSharding, make_mesh)

__all__ = ["Mesh", "PartitionSpec", "P", "NamedSharding", "SingleDeviceSharding", "GSPMDSharding",
           "Sharding", "ShardingError", "make_mesh", "visualize_array_sharding", "visualize_sharding"]


def _device_label(devs: list) -> str:
    plat = devs[0].platform.upper()
    return f"{plat} " + ",".join(str(d.id) for d in sorted(devs, key=lambda d: d.id))


def _layout(shape: tuple, sharding: Sharding):
    """Row and column boundaries and, per cell, the devices holding it (for 1-d and 2-d arrays)."""
    shape2 = tuple(shape) if len(shape) == 2 else (1, shape[0]) if len(shape) == 1 else (1, 1)
    idx_map = sharding.devices_indices_map(shape)
    cells: dict = {}
    for dev, idx in idx_map.items():
        if len(shape) == 2:
            r, c = idx[0].indices(shape[0]), idx[1].indices(shape[1])
        elif len(shape) == 1:
            r, c = (0, 1, 1), idx[0].indices(shape[0])
        else:
            r, c = (0, 1, 1), (0, 1, 1)
        cells.setdefault((r[:2], c[:2]), []).append(dev)
    rows = sorted({k[0] for k in cells})
    cols = sorted({k[1] for k in cells})
    return shape2, rows, cols, cells


def visualize_sharding(shape: tuple, sharding: Sharding, *, min_width: int = 9, max_width: int = 80,
                       file: Any = None) -> str:
    """Print (and return) a text table of which devices hold which block of a 1-d or 2-d array."""
    shape = tuple(shape)
    if len(shape) > 2:
        raise ValueError(f"visualize_sharding shows 0-, 1- and 2-d arrays, got shape {shape}")
    _, rows, cols, cells = _layout(shape, sharding)
    labels = {k: _device_label(v) for k, v in cells.items()}
    total_w = max(max(len(v) for v in labels.values()) + 4, min_width) * len(cols)
    total_w = min(max(total_w, min_width), max_width)
    ncols_total = shape[1] if len(shape) == 2 else (shape[0] if shape else 1)
    widths = []
    for c in cols:
        frac = (c[1] - c[0]) / max(ncols_total, 1)
        widths.append(max(int(round(frac * total_w)), max(len(labels[(rows[0], c)]) + 2, min_width)))
    height = 1 if len(rows) > 4 else 3
    lines = []
    border = "+" + "+".join("-" * w for w in widths) + "+"
    lines.append(border)
    for r in rows:
        for h in range(height):
            row = []
            for c, w in zip(cols, widths):
                text = labels[(r, c)] if h == height // 2 else ""
                row.append(text.center(w))
            lines.append("|" + "|".join(row) + "|")
        lines.append(border)
    out = "\n".join(lines)
    print(out, file=file)
    return out


def visualize_array_sharding(x: Any, **kwargs: Any) -> str:
    """Print which devices hold which block of a 1-d or 2-d Tensor (like jax.debug.visualize_array_sharding)."""
    return visualize_sharding(tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape),
                              x.sharding, **kwargs)
