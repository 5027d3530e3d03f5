"""`padax.lax`: the primitive-level API (like `jax.lax`).

Functions here map one-to-one onto padax primitives: no broadcasting, no
type promotion, explicit dimension numbers. The Paddle-named API at the top
level of `padax` and `padax.numpy` are built on these.

The primitives themselves are here too under jax's names (`add_p`, `sin_p`,
`dot_general_p`, `reduce_sum_p`, ...), for interpreters that walk a jaxpr and
dispatch on `eqn.primitive`.
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
from padax.functional.lax.windowed_select import *  # noqa: F401,F403
from padax.functional.lax.parallel import *  # noqa: F401,F403
from padax.functional.lax.control import *  # noqa: F401,F403
from padax.functional.lax.fft import *  # noqa: F401,F403
from padax.functional.lax.linalg import *  # noqa: F401,F403
from padax.functional.lax.parallel_extra import *  # noqa: F401,F403
from padax.functional.lax.solves import *  # noqa: F401,F403
from padax.functional.lax.precision import *  # noqa: F401,F403
from padax.functional.lax.associative import *  # noqa: F401,F403
from padax.transforms.custom import stop_gradient  # noqa: F401
from padax.transforms.solves import custom_root  # noqa: F401


def _export_primitives() -> None:
    """Bind every `<name>_p` Primitive defined in padax's primitive modules here."""
    import importlib
    import pkgutil

    import padax.functional.lax as package
    from padax.core.primitive import Primitive
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if name.endswith("_p") and not name.startswith("_") and isinstance(obj, Primitive):
                globals().setdefault(name, obj)


_export_primitives()
del _export_primitives
