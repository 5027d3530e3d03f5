"""`padax.lax`: the primitive-level API (like `jax.lax`).

Functions here map one-to-one onto padax primitives: no broadcasting, no
type promotion, explicit dimension numbers. The Paddle-named API at the top
level of `padax` and `padax.numpy` are built on these.
"""
from padax.functional.lax.conv import *  # noqa: F401,F403
from padax.functional.lax.cumulative import *  # noqa: F401,F403
from padax.functional.lax.dot import *  # noqa: F401,F403
from padax.functional.lax.elementwise import *  # noqa: F401,F403
from padax.functional.lax.indexing import *  # noqa: F401,F403
from padax.functional.lax.random_bits import *  # noqa: F401,F403
from padax.functional.lax.reductions import *  # noqa: F401,F403
from padax.functional.lax.sorting import *  # noqa: F401,F403
from padax.functional.lax.structural import *  # noqa: F401,F403
from padax.functional.lax.windowed import *  # noqa: F401,F403
from padax.functional.lax.parallel import *  # noqa: F401,F403
from padax.functional.lax.control import *  # noqa: F401,F403
from padax.functional.lax.fft import *  # noqa: F401,F403
from padax.functional.lax.linalg import *  # noqa: F401,F403
from padax.functional.lax.parallel_extra import *  # noqa: F401,F403
from padax.functional.lax.solves import *  # noqa: F401,F403
from padax.functional.lax.precision import *  # noqa: F401,F403
from padax.functional.lax.associative import *  # noqa: F401,F403
