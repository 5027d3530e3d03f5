"""`padax.implicit`: implicit differentiation of solvers, in the style of jaxopt (`implicit_diff`), and the
linear solvers it offers for the tangent systems (dense, conjugate gradients, CG on the normal equations).

The implementation is padax/transforms/implicit.py.
"""
from __future__ import annotations

from padax.core.errors import op_value_error  # noqa: F401  (importable from here before the move)
from padax.functional._arrays import aval_of  # noqa: F401  (importable from here before the move)
from padax.transforms.implicit import cg_solve, dense_solve, implicit_diff, normal_cg_solve  # noqa: F401
