"""`padax.sharding`: meshes, partition specs and shardings for multi-device arrays.

    mesh = padax.make_mesh((4, 2), ("data", "model"))
    x = padax.device_put(x, NamedSharding(mesh, P("data", None)))
    padax.visualize_array_sharding(x)

With a context mesh (`padax.set_mesh(mesh)`, `with padax.sharding.use_mesh(mesh):`)
a bare `P(...)` stands for `NamedSharding(mesh, P(...))` in device_put,
reshard, with_sharding_constraint and shard_map (whose `mesh=` it also
supplies). `padax.typeof(x)` shows an array's type with its layout
(`float32[8@X,4@Y]`). jax's explicit-sharding helpers `auto_axes` and
`explicit_axes` lay values out as asked around a function; padax does not
type-check Explicit shardings as jax does (see AxisType).

Several CPU devices in one process: set `PADAX_NUM_CPU_DEVICES=8` in the
environment, or `padax.config.update("num_cpu_devices", 8)` before the first
array is created.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from padax import Tensor, tree as tree_util
from padax.core.trace import Tracer
from padax.functional._arrays import asarray, aval_of
from padax.lax import with_sharding_constraint
from padax.runtime.put import put_sharded
from padax.runtime.sharding import (  # noqa: F401
    AbstractMesh,
    AxisType,
    GSPMDSharding,
    Mesh,
    NamedSharding,
    P,
    PartitionSpec,
    Sharding,
    ShardingError,
    SingleDeviceSharding,
    get_abstract_mesh,
    get_mesh,
    make_mesh,
    name_on_mesh,
    resolve_sharding,
    set_mesh,
    use_abstract_mesh,
    use_mesh,
)

__all__ = ["Mesh", "AbstractMesh", "AxisType", "PartitionSpec", "P", "NamedSharding", "SingleDeviceSharding",
           "GSPMDSharding", "Sharding", "ShardingError", "make_mesh", "set_mesh", "use_mesh", "get_mesh",
           "get_abstract_mesh", "use_abstract_mesh", "reshard", "auto_axes", "explicit_axes", "typeof",
           "ArrayType", "visualize_array_sharding", "visualize_sharding"]


class ArrayType:
    """An array's type: shape, dtype and, for arrays laid out on a mesh, the layout
    (`str` gives jax's notation, `float32[8@X,4@Y]`: dimension 0 split over mesh axis X).

    Args:
        shape: the array's shape.
        dtype: its dtype.
        weak_type: whether it is a weakly typed Python scalar.
        sharding: its layout on a mesh, or None.

    Returns:
        The type.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.sharding import ArrayType, NamedSharding, P
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> t = ArrayType((8, 4), np.float32, sharding=NamedSharding(mesh, P("x")))
        >>> str(t), t.spec, t.size  # jax's notation: dimension 0 split over x
        ('float32[8@x,4]', PartitionSpec('x', None), 32)
    """

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    def __init__(self, shape: tuple, dtype: np.dtype, weak_type: bool = False, sharding: Any = None):
        self.shape, self.dtype, self.weak_type, self.sharding = tuple(shape), np.dtype(dtype), weak_type, sharding

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))

    @property
    def spec(self) -> PartitionSpec:
        """Per dimension, the mesh axes it is split over (all None when not laid out on a mesh)."""
        if isinstance(self.sharding, NamedSharding):
            return PartitionSpec(*[self.sharding.spec[d] if d < len(self.sharding.spec) else None
                                   for d in range(self.ndim)])
        return PartitionSpec(*([None] * self.ndim))

    def __str__(self) -> str:
        dims = []
        for d, n in enumerate(self.shape):
            axes = self.spec.axes_of(d)
            dims.append(f"{n}@{axes[0]}" if len(axes) == 1 else f"{n}@({','.join(axes)})" if axes else str(n))
        return f"{self.dtype.name}[{','.join(dims)}]"

    def __repr__(self) -> str:
        return f"ShapedArray({self})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, ArrayType) and (self.shape, self.dtype, self.weak_type, self.spec)
                == (other.shape, other.dtype, other.weak_type, other.spec))

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self.spec))


def typeof(x: Any) -> ArrayType:
    """The type of `x`: shape, dtype and, for a Tensor laid out on a mesh, its layout.

    Inside a traced function the layout is XLA's to choose, so a traced value's type has none.

    Args:
        x: a Tensor, a traced value or anything array-like.

    Returns:
        An ArrayType (shape, dtype, weak_type, sharding).

    Examples:
        >>> import padax
        >>> t = padax.typeof(padax.ones([4, 2]))
        >>> str(t), t.shape, str(t.dtype)
        ('float32[4,2]', (4, 2), 'float32')
    """
    if not hasattr(x, "aval"):
        x = asarray(x)
    aval = aval_of(x)
    sharding = x.sharding if type(x) is Tensor else None
    if isinstance(sharding, GSPMDSharding):
        mesh = get_mesh()
        named = None
        if mesh is not None and set(mesh.device_list) == set(sharding.device_list):
            named = name_on_mesh(sharding.to_hlo_sharding(aval.ndim), aval.ndim, mesh, sharding.device_list)
        sharding = named or sharding
    return ArrayType(aval.shape, aval.dtype, aval.weak_type, sharding)


def reshard(xs: Any, out_shardings: Any) -> Any:
    """`xs` (a pytree) laid out as `out_shardings` say (a sharding, a PartitionSpec on the context
    mesh, or a matching pytree of them): moved eagerly, a sharding constraint inside jit.

    Args:
        xs: a pytree of arrays.
        out_shardings: a Sharding, a PartitionSpec on the context mesh, or a pytree of them matching `xs`.

    Returns:
        The same pytree with each array laid out anew (values unchanged).

    Examples:
        >>> import padax
        >>> from padax.sharding import NamedSharding, P
        >>> s = NamedSharding(padax.make_mesh((1,), ("x",)), P("x"))
        >>> tree = padax.sharding.reshard({"a": padax.ones([2]), "b": padax.zeros([4])}, s)  # one sharding for every leaf
        >>> tree["a"].tolist(), tree["b"].shape
        ([1.0, 1.0], (4,))
        >>> padax.jit(lambda v: padax.sharding.reshard(v * 2, s))(padax.ones([2])).tolist()  # a constraint under jit
        [2.0, 2.0]
    """

    def one(x, s):
        s = resolve_sharding(s, "reshard")
        return with_sharding_constraint(x, s) if isinstance(x, Tracer) else put_sharded(x, s)

    def is_spec(s):
        return isinstance(s, (Sharding, PartitionSpec))

    if is_spec(out_shardings):
        return tree_util.map(lambda x: one(x, out_shardings), xs)
    return tree_util.map(one, xs, out_shardings, is_leaf=lambda v: v is None)


def accepts_out_sharding(fn: Callable) -> Callable:
    """`fn` with jax's `out_sharding=` keyword: its result laid out so (see reshard)."""
    @functools.wraps(fn)
    def wrapped(*args, out_sharding: Any = None, **kwargs):
        out = fn(*args, **kwargs)
        return out if out_sharding is None else reshard(out, out_sharding)
    return wrapped


def _mesh_axes(axes: Any) -> tuple[str, ...] | None:
    return (axes,) if isinstance(axes, str) else (tuple(axes) if axes is not None else None)


def auto_axes(f: Callable | None = None, /, *, axes: Any = None, out_sharding: Any = None) -> Callable:
    """jax's auto_axes: run `f` with the mesh axes `axes` (default: all) Auto, then lay its result
    out as `out_sharding` (given here or at the call: `g(x, out_sharding=P('X'))`).

    Args:
        f: the function to wrap (leave it out to use `auto_axes(axes=...)` as a decorator).
        axes: mesh axis name(s) made Auto inside `f` (default: all).
        out_sharding: lay the result out like this (a sharding or a PartitionSpec on the context mesh).

    Returns:
        The wrapped function; it also takes `out_sharding=` at the call.

    Examples:
        >>> import padax
        >>> from padax.sharding import P, auto_axes, get_abstract_mesh
        >>> seen = []
        >>> def double(a):
        ...     seen.append(get_abstract_mesh().axis_types)  # the axes are Auto inside
        ...     return a * 2
        ...
        >>> with padax.set_mesh(padax.make_mesh((1,), ("x",))):  # make_mesh's axes are Explicit
        ...     y = auto_axes(double, out_sharding=P("x"))(padax.ones([2]))
        ...
        >>> seen, y.tolist()
        ([(Auto,)], [2.0, 2.0])
    """
    if f is None:
        return functools.partial(auto_axes, axes=axes, out_sharding=out_sharding)

    @functools.wraps(f)
    def wrapped(*args, out_sharding: Any = out_sharding, **kwargs):
        mesh = get_abstract_mesh()
        names = _mesh_axes(axes) or mesh.axis_names
        with use_abstract_mesh(mesh.update_axis_types({n: AxisType.Auto for n in names})):
            out = f(*args, **kwargs)
        return out if out_sharding is None else reshard(out, out_sharding)

    return wrapped


def explicit_axes(f: Callable | None = None, /, *, axes: Any = None, in_sharding: Any = None) -> Callable:
    """jax's explicit_axes: lay the arguments out as `in_sharding` says (given here or at the call),
    then run `f` with the mesh axes `axes` (default: all) Explicit.

    Args:
        f: the function to wrap (leave it out to use `explicit_axes(axes=...)` as a decorator).
        axes: mesh axis name(s) made Explicit inside `f` (default: all).
        in_sharding: lay the arguments out like this first (a sharding, a PartitionSpec or a pytree of them).

    Returns:
        The wrapped function; it also takes `in_sharding=` at the call.

    Examples:
        >>> import padax
        >>> from padax.sharding import AxisType, P, explicit_axes, get_abstract_mesh
        >>> with padax.set_mesh(padax.make_mesh((1,), ("x",), axis_types=AxisType.Auto)):
        ...     g = explicit_axes(lambda a: (get_abstract_mesh().axis_types, a + 1), in_sharding=P("x"))
        ...     types, y = g(padax.ones([2]))
        ...
        >>> types, y.tolist()  # the axes are Explicit inside g
        ((Explicit,), [2.0, 2.0])
    """
    if f is None:
        return functools.partial(explicit_axes, axes=axes, in_sharding=in_sharding)

    @functools.wraps(f)
    def wrapped(*args, in_sharding: Any = in_sharding, **kwargs):
        if in_sharding is not None:
            args = reshard(args, in_sharding) if isinstance(in_sharding, (Sharding, PartitionSpec)) else \
                reshard(args, tuple(in_sharding) if isinstance(in_sharding, list) else in_sharding)
        mesh = get_abstract_mesh()
        names = _mesh_axes(axes) or mesh.axis_names
        with use_abstract_mesh(mesh.update_axis_types({n: AxisType.Explicit for n in names})):
            return f(*args, **kwargs)

    return wrapped


def _device_label(devs: list) -> str:
    plat = devs[0].platform.upper()
    return f"{plat} " + ",".join(str(d.id) for d in sorted(devs, key=lambda d: d.id))


def _layout(shape: tuple, sharding: Sharding):
    """Row and column boundaries and, per cell, the devices holding it (for 1-d and 2-d arrays)."""
    shape2 = tuple(shape) if len(shape) == 2 else (1, shape[0]) if len(shape) == 1 else (1, 1)
    idx_map = sharding.devices_indices_map(shape)
    cells: dict = {}
    for dev, idx in idx_map.items():
        if len(shape) == 2:
            r, c = idx[0].indices(shape[0]), idx[1].indices(shape[1])
        elif len(shape) == 1:
            r, c = (0, 1, 1), idx[0].indices(shape[0])
        else:
            r, c = (0, 1, 1), (0, 1, 1)
        cells.setdefault((r[:2], c[:2]), []).append(dev)
    rows = sorted({k[0] for k in cells})
    cols = sorted({k[1] for k in cells})
    return shape2, rows, cols, cells


def visualize_sharding(shape: tuple, sharding: Sharding, *, min_width: int = 9, max_width: int = 80,
                       file: Any = None) -> str:
    """Print (and return) a text table of which devices hold which block of a 1-d or 2-d array.

    Args:
        shape: the array shape (0-, 1- or 2-d).
        sharding: the layout to show.
        min_width, max_width: bounds on the table's width in characters.
        file: where to print (default sys.stdout).

    Returns:
        The printed table (str).

    Examples:
        >>> import padax
        >>> from padax.sharding import NamedSharding, P
        >>> s = NamedSharding(padax.make_mesh((1,), ("x",)), P("x"))
        >>> _ = padax.sharding.visualize_sharding((8,), s)
        +---------+
        |         |
        |  CPU 0  |
        |         |
        +---------+
    """
    shape = tuple(shape)
    if len(shape) > 2:
        raise ValueError(f"visualize_sharding shows 0-, 1- and 2-d arrays, got shape {shape}")
    _, rows, cols, cells = _layout(shape, sharding)
    labels = {k: _device_label(v) for k, v in cells.items()}
    total_w = max(max(len(v) for v in labels.values()) + 4, min_width) * len(cols)
    total_w = min(max(total_w, min_width), max_width)
    ncols_total = shape[1] if len(shape) == 2 else (shape[0] if shape else 1)
    widths = []
    for c in cols:
        frac = (c[1] - c[0]) / max(ncols_total, 1)
        widths.append(max(int(round(frac * total_w)), max(len(labels[(rows[0], c)]) + 2, min_width)))
    height = 1 if len(rows) > 4 else 3
    lines = []
    border = "+" + "+".join("-" * w for w in widths) + "+"
    lines.append(border)
    for r in rows:
        for h in range(height):
            row = []
            for c, w in zip(cols, widths):
                text = labels[(r, c)] if h == height // 2 else ""
                row.append(text.center(w))
            lines.append("|" + "|".join(row) + "|")
        lines.append(border)
    out = "\n".join(lines)
    print(out, file=file)
    return out


def visualize_array_sharding(x: Any, **kwargs: Any) -> str:
    """Print which devices hold which block of a 1-d or 2-d Tensor (like jax.debug.visualize_array_sharding).

    Args:
        x: a 0-, 1- or 2-d Tensor.
        **kwargs: `min_width`, `max_width`, `file`, as for visualize_sharding.

    Returns:
        The printed table (str).

    Examples:
        >>> import padax
        >>> _ = padax.visualize_array_sharding(padax.ones([4, 4]))  # on 8 devices with P("x") it shows 8 row blocks
        +---------+
        |         |
        |  CPU 0  |
        |         |
        +---------+
    """
    if not hasattr(x, "sharding"):
        raise TypeError(f"visualize_array_sharding: expected a padax Tensor, got {type(x).__name__}: {x!r:.80}")
    return visualize_sharding(tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape),
                              x.sharding, **kwargs)
