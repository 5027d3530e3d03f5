"""`padax.onnx.export`: a Layer or function traced by padax, written as an ONNX model (Paddle's `paddle.onnx.export`).

The traced program (a jaxpr) is translated primitive by primitive into ONNX operators with the optional
`onnx` package (`pip install padax[onnx]`); weights become initializers under their `state_dict` names.
Sizes given as None in the InputSpec become symbolic ONNX dimensions. See docs/deployment.md.
"""
from __future__ import annotations

from padax.onnx._export import UnsupportedPrimitiveError, export

__all__ = ["export", "UnsupportedPrimitiveError"]
