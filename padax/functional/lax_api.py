"""The lax namespace: every lax-level function and primitive of `padax/functional/lax/` in one module.

The Paddle-level op library calls them through it (`from padax.functional import lax_api as lax;
lax.add(...)`), and `padax.lax` re-exports it with the lax name built on transformations
(custom_root). (A module of its own, not the package's __init__: star-importing into
the package would shadow submodules by same-named functions, e.g. `lax.fft`.)
"""
from padax.functional.lax import (  # noqa: E402
    associative as _m1,
    control as _m2,
    conv as _m3,
    cumulative as _m4,
    custom as _m20,
    dot as _m5,
    elementwise as _m6,
    fft as _m7,
    indexing as _m8,
    linalg as _m9,
    parallel as _m10,
    precision as _m12,
    ragged as _m21,
    random_bits as _m13,
    reductions as _m14,
    resharding as _m11,
    solves as _m15,
    sorting as _m16,
    structural as _m17,
    windowed as _m18,
    windowed_select as _m19,
)
from padax.functional.lax.associative import *  # noqa: F401,F403
from padax.functional.lax.control import *  # noqa: F401,F403
from padax.functional.lax.conv import *  # noqa: F401,F403
from padax.functional.lax.cumulative import *  # noqa: F401,F403
from padax.functional.lax.custom import *  # noqa: F401,F403
from padax.functional.lax.dot import *  # noqa: F401,F403
from padax.functional.lax.elementwise import *  # noqa: F401,F403
from padax.functional.lax.fft import *  # noqa: F401,F403
from padax.functional.lax.indexing import *  # noqa: F401,F403
from padax.functional.lax.linalg import *  # noqa: F401,F403
from padax.functional.lax.parallel import *  # noqa: F401,F403
from padax.functional.lax.precision import *  # noqa: F401,F403
from padax.functional.lax.ragged import *  # noqa: F401,F403
from padax.functional.lax.random_bits import *  # noqa: F401,F403
from padax.functional.lax.reductions import *  # noqa: F401,F403
from padax.functional.lax.resharding import *  # noqa: F401,F403
from padax.functional.lax.solves import *  # noqa: F401,F403
from padax.functional.lax.sorting import *  # noqa: F401,F403
from padax.functional.lax.structural import *  # noqa: F401,F403
from padax.functional.lax.windowed import *  # noqa: F401,F403
from padax.functional.lax.windowed_select import *  # noqa: F401,F403

# what `from padax.functional.lax_api import *` gives: the star-exports of the modules above
__all__ = sorted({name for m in (_m1, _m2, _m3, _m4, _m5, _m6, _m7, _m8, _m9, _m10, _m11, _m12, _m13, _m14, _m15,
                                 _m16, _m17, _m18, _m19, _m20, _m21)
                  for name in getattr(m, "__all__", [n for n in vars(m) if not n.startswith("_")])} - {"annotations"})
