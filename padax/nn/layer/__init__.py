"""Paddle's layers as pytrees (the base class in `layers`, containers, and the layer families)."""
