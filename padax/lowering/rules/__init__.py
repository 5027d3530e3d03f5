"""Lowering rules, one module per family of primitives; importing registers them."""
from padax.lowering.rules import call, custom, dot, elementwise, reductions, structural  # noqa: F401
from padax.lowering.rules import cumulative, sorting, windowed  # noqa: F401
from padax.lowering.rules import conv, indexing, random_bits  # noqa: F401
from padax.lowering.rules import control  # noqa: F401
from padax.lowering.rules import fft  # noqa: F401
from padax.lowering.rules import linalg  # noqa: F401
from padax.lowering.rules import parallel  # noqa: F401
from padax.lowering.rules import saved  # noqa: F401
from padax.lowering.rules import callback  # noqa: F401
from padax.lowering.rules import checks  # noqa: F401
from padax.lowering.rules import solves  # noqa: F401
from padax.lowering.rules import precision  # noqa: F401
from padax.lowering.rules import ffi  # noqa: F401
