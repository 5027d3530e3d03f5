"""Primitive-level ops (like jax.lax): each primitive with its rules, plus thin wrappers.

The one namespace of all of them is `padax/functional/lax_api.py`."""
