"""`padax.scipy.optimize`: minimize (BFGS, L-BFGS-B, Newton-CG), root, root_scalar,
least_squares and linear_sum_assignment with scipy's names, on pytrees and under jit/vmap;
solutions are differentiated implicitly (custom_root), not through the iterations."""
from padax.scipy.optimize._minimize import OptimizeResults, minimize  # noqa: F401
from padax.scipy.optimize._root import (RootResults, RootScalarResults, least_squares,  # noqa: F401
                                        linear_sum_assignment, root)
from padax.scipy.optimize._scalar import root_scalar  # noqa: F401

__all__ = ["minimize", "OptimizeResults", "root", "root_scalar", "least_squares", "linear_sum_assignment",
           "RootResults", "RootScalarResults"]
