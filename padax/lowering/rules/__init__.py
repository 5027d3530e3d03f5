"""Lowering rules, one module per family of primitives; importing registers them."""
from padax.lowering.rules import call, dot, elementwise, reductions, structural  # noqa: F401
