"""Primitive-level ops (like jax.lax): each primitive with its rules, plus thin wrappers."""
