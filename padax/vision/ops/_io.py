"""Reading and decoding image files into Tensors: read_file and decode_jpeg."""
from __future__ import annotations

import io
from typing import Any

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.vision.ops._common import host, tensor
from padax.vision.transforms._image import pillow


def read_file(filename: str, name: str | None = None) -> Any:
    """The bytes of a file as a 1-D uint8 Tensor."""
    with open(filename, "rb") as f:
        return padax.to_tensor(np.frombuffer(f.read(), np.uint8).copy())


def decode_jpeg(x: Any, mode: str = "unchanged", name: str | None = None) -> Any:
    """Decode image bytes (a 1-D uint8 Tensor, as read_file gives) into a uint8 [C, H, W] Tensor;
    mode 'unchanged', 'gray' or 'rgb'. Decoded on the host with Pillow (any format it reads), so
    it works on every device, where Paddle's decoder needs a GPU."""
    op = "decode_jpeg"
    if mode not in ("unchanged", "gray", "rgb"):
        raise op_value_error(op, f"mode must be 'unchanged', 'gray' or 'rgb', got {mode!r}")
    data = host(op, tensor(op, x, "x", ndim=1), "x", "decode outside jit")
    if data.dtype != np.uint8:
        raise op_value_error(op, f"x must hold the file's bytes as uint8, got {data.dtype}")
    try:
        img = pillow().open(io.BytesIO(data.tobytes()))
        img.load()
    except Exception as e:  # Pillow raises several types for bytes that are not an image
        raise op_value_error(op, f"x is not a readable image ({e})") from None
    if mode == "gray":
        img = img.convert("L")
    elif mode == "rgb" or img.mode not in ("L", "RGB"):
        img = img.convert("RGB")
    a = np.asarray(img)
    a = a[None] if a.ndim == 2 else np.moveaxis(a, -1, 0)
    return padax.to_tensor(np.ascontiguousarray(a))
