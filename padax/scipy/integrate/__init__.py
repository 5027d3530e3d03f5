"""`padax.scipy.integrate`: trapezoid, simpson, cumulative_trapezoid, quad (adaptive
Gauss-Kronrod, differentiable in the integrand's parameters) and solve_ivp."""
from padax.scipy.integrate._ivp import OdeResult, solve_ivp  # noqa: F401
from padax.scipy.integrate._quadrature import cumulative_trapezoid, quad, simpson, trapezoid  # noqa: F401

__all__ = ["trapezoid", "simpson", "cumulative_trapezoid", "quad", "solve_ivp", "OdeResult"]
