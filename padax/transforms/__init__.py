"""Transformations as interpreters of the IR: staging (make_jaxpr, eval_shape), jit, ..."""
