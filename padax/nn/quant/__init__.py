"""Weight-only and LLM.int8 quantization of Linear weights (Paddle's `paddle.nn.quant`).

Layout (Paddle's): a weight `x` of shape [k, n] (in, out) quantizes to `out` of shape [n, k] (transposed),
int8, with one scale per output channel (`group_size=-1`, shape [n]) or per group of `group_size` input
rows (shape [k / group_size, n]):

- `weight_only_int8` and `llm.int8`: `scale = max|x| / 127`, `out = round(x / scale)` in [-127, 127];
- `weight_only_int4`: `scale = max|x| / 7`, `out` in [-7, 7], two values per byte: row i of the packed
  [n / 2, k] result holds output channels 2i (low nibble) and 2i + 1 (high nibble).

round ties away from zero. `arch` is accepted for Paddle compatibility: padax stores the plain layout
above on every device (Paddle's CUDA kernels interleave the rows for their GPU architecture).
"""
from __future__ import annotations

from padax.nn.quant.quantized_linear import llm_int8_linear, weight_dequantize, weight_only_linear, weight_quantize

__all__ = ["llm_int8_linear", "weight_dequantize", "weight_only_linear", "weight_quantize"]
