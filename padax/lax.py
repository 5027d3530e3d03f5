"""`padax.lax`: the primitive-level API (like `jax.lax`).

Functions here map one-to-one onto padax primitives: no broadcasting, no
type promotion, explicit dimension numbers. The Paddle-named API at the top
level of `padax` and `padax.numpy` are built on these.

The primitives themselves are here too under jax's names (`add_p`, `sin_p`,
`dot_general_p`, `reduce_sum_p`, ...), for interpreters that walk a jaxpr and
dispatch on `eqn.primitive`.
"""
import padax.functional.lax as _primitive_modules
from padax.core.primitive import Primitive as _Primitive
from padax.functional.lax_api import *  # noqa: F401,F403
from padax.transforms.solves import custom_root  # noqa: F401


def _export_primitives() -> None:
    """Bind every `<name>_p` Primitive defined in padax's primitive modules here."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(_primitive_modules.__path__):
        module = importlib.import_module(f"{_primitive_modules.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if name.endswith("_p") and not name.startswith("_") and isinstance(obj, _Primitive):
                globals().setdefault(name, obj)


_export_primitives()
del _export_primitives
