"""The interpreters: the machinery of the transformations, one floor below the op library.

JVP, partial evaluation and transposition (`ad`, `partial_eval`), batching (`batching`), staging into
jaxprs (`staging`) and the jaxpr-level helpers the control-flow rules share (`jaxpr_util`). They import
only `padax.core` and the runtime (`padax.runtime`); primitives carry their rules as attributes that
the op library sets, and the few array operations an interpreter must emit (zeros, tangent addition,
moving a batch axis) are tables the op library fills (`padax.core.ad_util`, `hooks`).
The user-facing transformations built on them live in `padax/transforms/`.
"""
