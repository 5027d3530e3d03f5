"""`padax.scipy.sparse`: the matrix-free solvers of scipy.sparse.linalg."""
from padax.scipy.sparse import linalg  # noqa: F401
