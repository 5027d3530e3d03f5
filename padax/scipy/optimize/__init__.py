"""`padax.scipy.optimize`: minimize (BFGS, L-BFGS-B, Newton-CG, trust-exact), root, root_scalar,
least_squares (bounds, robust losses) and linear_sum_assignment with scipy's names, on pytrees and under jit/vmap;
solutions are differentiated implicitly (custom_root), not through the iterations.

The float: as in scipy, Python numbers given as x0, x1 or bracket are float64 (so
`root_scalar(f, bracket=[2.0, 3.0])` meets scipy's precision); arrays and tensors keep their dtype,
so pass float32 ones to solve in float32. With `config.update("enable_x64", False)` float64 is float32."""
from padax.scipy.optimize._minimize import Bounds, OptimizeResults, minimize  # noqa: F401
from padax.scipy.optimize._least_squares import LeastSquaresResults, least_squares  # noqa: F401
from padax.scipy.optimize._root import RootResults, RootScalarResults, linear_sum_assignment, root  # noqa: F401
from padax.scipy.optimize._scalar import root_scalar  # noqa: F401

__all__ = ["minimize", "Bounds", "OptimizeResults", "root", "root_scalar", "least_squares", "linear_sum_assignment",
           "RootResults", "RootScalarResults", "LeastSquaresResults"]
