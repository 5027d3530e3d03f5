"""Shardings: how a global array is laid out over several devices.

A sharding maps every device it covers to the index (a tuple of slices) of
the piece of the global array that device holds. padax has three kinds:

- `SingleDeviceSharding(device)`: the whole array on one device (what eager
  Tensors carry);
- `NamedSharding(mesh, PartitionSpec(...))`: dimension `d` of the array is
  split over the mesh axes named at position `d` of the spec; mesh axes the
  spec does not name hold replicas;
- `GSPMDSharding(devices, hlo_sharding)`: XLA's own description (a tile
  assignment), used for outputs whose layout XLA chose and that cannot be
  named on the program's mesh.

XLA works with `HloSharding`s ("{devices=[2,1,2]0,1,2,3
last_tile_dim_replicate}"): a tile grid whose entries are *positions in the
program's device assignment*. `to_hlo_sharding(ndim, device_order)` builds
that form for a given device order; `to_jaxlib(ndim, device_order)` wraps it
with the device list into jaxlib's C++ `GSPMDSharding`, the object device
buffers and result handlers carry. Those jaxlib objects are cached and
remembered, so a buffer's sharding maps back to the padax object
(`sharding_of_buffer`).
"""
from __future__ import annotations

import contextlib
import enum
import itertools
import math
import threading
from collections import OrderedDict
from typing import Any, Iterator, Sequence

import numpy as np

from padax.core.errors import require_members
from padax.runtime import _jaxlib, backend


class ShardingError(ValueError):
    """A sharding does not fit a mesh or an array shape.

    Args:
        *args: the message, as for any ValueError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import padax
        >>> from padax.sharding import NamedSharding, P, ShardingError
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> try:
        ...     NamedSharding(mesh, P("y"))
        ... except ShardingError as e:
        ...     print(e)
        PartitionSpec PartitionSpec('y') names mesh axis 'y', but the mesh only has axes ('x',)
    """


# ---- PartitionSpec and Mesh --------------------------------------------------------

class PartitionSpec(tuple):
    """Per array dimension: None (not split), a mesh axis name, or a tuple of axis names.

    `P('x', None)` splits dimension 0 over mesh axis 'x' and keeps dimension 1
    whole; `P(('x', 'y'))` splits dimension 0 over both axes ('x' major).
    Dimensions past the end of the spec are not split.

    Args:
        *parts: per array dimension, None, a mesh axis name or a tuple of names.

    Returns:
        The spec (a tuple).

    Examples:
        >>> from padax.sharding import PartitionSpec
        >>> PartitionSpec("x", None)  # dimension 0 split over mesh axis x, dimension 1 whole
        PartitionSpec('x', None)
        >>> PartitionSpec(("x", "y")).axes_of(0)  # split over both axes, x major
        ('x', 'y')
    """

    def __new__(cls, *parts: Any):
        norm = []
        for p in parts:
            if isinstance(p, list):
                p = tuple(p)
            if isinstance(p, tuple):
                if not all(isinstance(a, str) for a in p):
                    raise TypeError(f"PartitionSpec entries must be None, an axis name or a tuple of axis "
                                    f"names, got {p!r}")
                p = p if len(p) != 1 else p[0]
                if p == ():
                    p = None
            elif p is not None and not isinstance(p, str):
                raise TypeError(f"PartitionSpec entries must be None, an axis name or a tuple of axis names, "
                                f"got {p!r}")
            norm.append(p)
        return super().__new__(cls, norm)

    def __repr__(self) -> str:
        return "PartitionSpec(" + ", ".join(repr(p) for p in self) + ")"

    def axes_of(self, dim: int) -> tuple[str, ...]:
        """The mesh axes dimension `dim` is split over (empty if none)."""
        if dim >= len(self):
            return ()
        p = self[dim]
        if p is None:
            return ()
        return (p,) if isinstance(p, str) else tuple(p)

    def used_axes(self) -> tuple[str, ...]:
        return tuple(a for d in range(len(self)) for a in self.axes_of(d))

    def _stripped(self) -> tuple:
        parts = list(self)
        while parts and parts[-1] is None:
            parts.pop()
        return tuple(parts)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, tuple):
            return self._stripped() == PartitionSpec(*other)._stripped()
        return NotImplemented

    def __ne__(self, other: Any) -> bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self) -> int:
        return hash(("PartitionSpec",) + self._stripped())


P = PartitionSpec


class AxisType(enum.Enum):
    """How a mesh axis is used: Auto (XLA partitions over it), Explicit (the program names shardings
    along it, jax's sharding-in-types mode) or Manual (a shard_map body runs per device along it).

    padax lays values out the same way for Auto and Explicit axes: shardings on arrays are kept
    and XLA's partitioner chooses the layouts inside compiled programs; it does not type-check
    Explicit shardings as jax does.

    Args:
        value: the member's value (members are usually reached by name, e.g. `AxisType.Auto`).

    Returns:
        The `AxisType` member.

    Examples:
        >>> import padax
        >>> from padax.sharding import AxisType
        >>> [t.name for t in AxisType]
        ['Auto', 'Explicit', 'Manual']
        >>> padax.make_mesh((1,), ("x",), axis_types=AxisType.Auto).axis_types
        (Auto,)
    """
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


def _axis_types(axis_types: Any, n: int, default: AxisType) -> tuple[AxisType, ...]:
    if axis_types is None:
        return (default,) * n
    if isinstance(axis_types, AxisType):
        axis_types = (axis_types,) * n
    axis_types = tuple(axis_types)
    if len(axis_types) != n or not all(isinstance(t, AxisType) for t in axis_types):
        raise ShardingError(f"Mesh: axis_types must be one padax.sharding.AxisType per axis ({n}), "
                            f"got {axis_types!r}")
    return axis_types


class AbstractMesh:
    """A mesh's axis names, sizes and types without its devices (what a traced program sees).

    Args:
        axis_sizes: the size of each axis.
        axis_names: one name per axis.
        axis_types: one AxisType per axis, or one for all (default Auto).

    Returns:
        The abstract mesh (no devices).

    Examples:
        >>> from padax.sharding import AbstractMesh
        >>> m = AbstractMesh((2, 4), ("data", "model"))  # no devices needed
        >>> m.size, dict(m.shape)
        (8, {'data': 2, 'model': 4})
        >>> m
        AbstractMesh('data': 2, 'model': 4, axis_types=(Auto, Auto))
    """

    def __init__(self, axis_sizes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None):
        self.axis_sizes = tuple(int(s) for s in axis_sizes)
        self.axis_names = tuple(axis_names)
        if len(self.axis_sizes) != len(self.axis_names):
            raise ShardingError(f"AbstractMesh: {len(self.axis_sizes)} sizes but {len(self.axis_names)} names")
        self.axis_types = _axis_types(axis_types, len(self.axis_names), AxisType.Auto)

    @property
    def shape(self) -> "OrderedDict[str, int]":
        return OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    def update_axis_types(self, types: dict) -> "AbstractMesh":
        """The same mesh with some axes' types replaced ({name: AxisType})."""
        return AbstractMesh(self.axis_sizes, self.axis_names,
                            tuple(types.get(n, t) for n, t in zip(self.axis_names, self.axis_types)))

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, AbstractMesh) and (self.axis_sizes, self.axis_names, self.axis_types)
                == (other.axis_sizes, other.axis_names, other.axis_types))

    def __hash__(self) -> int:
        return hash((self.axis_sizes, self.axis_names, self.axis_types))

    def __repr__(self) -> str:
        axes = ", ".join(f"'{n}': {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        return f"AbstractMesh({axes}, axis_types={self.axis_types})"


class Mesh:
    """Devices arranged in an n-d grid whose axes have names ('data', 'model', ...).

    `Mesh(np.array(devices).reshape(2, 4), ('x', 'y'))`. Shardings and
    shard_map refer to the axes by name. `axis_types` (one AxisType per axis,
    default Auto) is recorded for jax's explicit-sharding API; two meshes over
    the same devices and names are equal whatever their axis types.
    `with mesh:` makes it the context mesh (as padax.set_mesh does).

    Args:
        devices: an n-d array (or nested lists) of distinct devices.
        axis_names: one name per devices dimension.
        axis_types: one AxisType per axis, or one for all (default Auto).

    Returns:
        The mesh.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.sharding import Mesh
        >>> mesh = Mesh(np.array(padax.devices()[:1]).reshape(1, 1), ("data", "model"))
        >>> mesh.axis_names, dict(mesh.shape)
        (('data', 'model'), {'data': 1, 'model': 1})
    """

    def __init__(self, devices: Any, axis_names: Sequence[str] | str, axis_types: Any = None):
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        axis_names = tuple(axis_names)
        arr = np.empty(np.shape(devices), dtype=object)
        arr[...] = devices if isinstance(devices, np.ndarray) else _object_array(devices)
        if arr.ndim != len(axis_names):
            raise ShardingError(f"Mesh: devices have {arr.ndim} dimensions {arr.shape} but "
                                f"{len(axis_names)} axis names {axis_names} were given")
        if len(set(axis_names)) != len(axis_names):
            raise ShardingError(f"Mesh: axis names must be distinct, got {axis_names}")
        for n in axis_names:
            if not isinstance(n, str):
                raise TypeError(f"Mesh: axis names must be strings, got {n!r}")
        flat = list(arr.flat)
        if len(set(flat)) != len(flat):
            raise ShardingError("Mesh: a device appears more than once")
        if not flat:
            raise ShardingError("Mesh: no devices")
        self.devices = arr
        self.axis_names = axis_names
        self.axis_types = _axis_types(axis_types, len(axis_names), AxisType.Auto)
        self._flat = tuple(flat)
        self._key = (tuple((d.platform, d.id) for d in flat), arr.shape, axis_names)
        self._hash = hash(self._key)

    @property
    def shape(self) -> "OrderedDict[str, int]":
        """Axis name -> size, in axis order."""
        return OrderedDict(zip(self.axis_names, self.devices.shape))

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        return tuple(self.devices.shape)

    @property
    def size(self) -> int:
        return self.devices.size

    @property
    def device_ids(self) -> np.ndarray:
        return np.vectorize(lambda d: d.id, otypes=[np.int64])(self.devices)

    @property
    def device_list(self) -> tuple:
        """The devices in mesh (row-major) order."""
        return self._flat

    @property
    def local_devices(self) -> list:
        return [d for d in self._flat if _is_addressable(d)]

    def axis_size(self, name: str) -> int:
        return self.devices.shape[self.axis_names.index(name)]

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Mesh) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}, axis_types={self.axis_types})"

    def __str__(self) -> str:
        axes = ", ".join(f"'{n}': {s}" for n, s in self.shape.items())
        return f"Mesh({axes}, axis_types={self.axis_types})"

    def coords(self) -> dict:
        """Device -> its coordinates in the mesh grid."""
        return {d: idx for idx, d in np.ndenumerate(self.devices)}

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types)

    @property
    def empty(self) -> bool:
        return False

    def __enter__(self) -> "Mesh":
        _context.stack.append((self, self.abstract_mesh))
        return self

    def __exit__(self, *exc) -> None:
        _context.stack.pop()


# ---- the context mesh: set_mesh / use_mesh -------------------------------------------------

class _Context(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Mesh | None, AbstractMesh | None]] = []


_context = _Context()
_global_mesh: list = [None]  # set_mesh outside a `with` (for every thread)


def get_mesh() -> Mesh | None:
    """The context mesh (set_mesh / use_mesh / `with mesh:`), or None.

    Examples:
        >>> import padax
        >>> from padax.sharding import get_mesh, use_mesh
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> with use_mesh(mesh):
        ...     print(get_mesh() is mesh)
        ...
        True
        >>> get_mesh() is None
        True
    """
    for mesh, _ in reversed(_context.stack):
        if mesh is not None:
            return mesh
    return _global_mesh[0]


def get_abstract_mesh() -> AbstractMesh:
    """The context's abstract mesh (use_abstract_mesh, or the context mesh's); empty if none.

    Examples:
        >>> import padax
        >>> from padax.sharding import get_abstract_mesh
        >>> get_abstract_mesh().empty  # no context mesh
        True
        >>> with padax.sharding.use_mesh(padax.make_mesh((1,), ("x",))):
        ...     print(get_abstract_mesh())
        ...
        AbstractMesh('x': 1, axis_types=(Explicit,))
    """
    if _context.stack and _context.stack[-1][1] is not None:
        return _context.stack[-1][1]
    mesh = get_mesh()
    return mesh.abstract_mesh if mesh is not None else AbstractMesh((), ())


class set_mesh:  # noqa: N801  (a function to users; a class so that it also works with `with`)
    """Make `mesh` the context mesh: bare PartitionSpecs (device_put(x, P('x')), shard_map,
    with_sharding_constraint, reshard) refer to it. As a statement it stays set; as
    `with padax.set_mesh(mesh):` it is restored at the end of the block.

    Args:
        mesh: the Mesh to use as context mesh; None clears it.

    Returns:
        A context manager that restores the previous mesh on exit (as a statement the mesh stays set).

    Examples:
        >>> import padax
        >>> from padax.sharding import P
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> with padax.set_mesh(mesh):  # a bare P(...) now refers to this mesh
        ...     x = padax.device_put(padax.arange(4.0), P("x"))
        ...     print(padax.sharding.get_mesh() is mesh)
        ...
        True
        >>> x.tolist()
        [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, mesh: Mesh | None):
        if mesh is not None and not isinstance(mesh, Mesh):
            raise TypeError(f"set_mesh: expected a padax Mesh (padax.make_mesh), got {type(mesh).__name__}")
        self._previous = _global_mesh[0]
        _global_mesh[0] = mesh
        self._mesh = mesh

    def __enter__(self) -> Mesh | None:
        return self._mesh

    def __exit__(self, *exc) -> None:
        _global_mesh[0] = self._previous


@contextlib.contextmanager
def use_mesh(mesh: Mesh) -> Iterator[Mesh]:
    """`with use_mesh(mesh):` the context mesh inside the block (jax.sharding.use_mesh).

    Examples:
        >>> import padax
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> with padax.sharding.use_mesh(mesh) as m:
        ...     print(m.axis_names, padax.sharding.get_mesh() is mesh)
        ...
        ('x',) True
    """
    if not isinstance(mesh, Mesh):
        raise TypeError(f"use_mesh: expected a padax Mesh, got {type(mesh).__name__}")
    with mesh:
        yield mesh


@contextlib.contextmanager
def use_abstract_mesh(abstract_mesh: AbstractMesh) -> Iterator[AbstractMesh]:
    """`with use_abstract_mesh(m):` what get_abstract_mesh() answers inside the block.

    Examples:
        >>> from padax.sharding import AbstractMesh, get_abstract_mesh, use_abstract_mesh
        >>> with use_abstract_mesh(AbstractMesh((2,), ("data",))):
        ...     print(dict(get_abstract_mesh().shape))
        ...
        {'data': 2}
    """
    _context.stack.append((None, abstract_mesh))
    try:
        yield abstract_mesh
    finally:
        _context.stack.pop()


def _mesh_for_specs() -> Mesh | None:
    """The mesh bare PartitionSpecs refer to: the context mesh, seen through an abstract mesh
    of other axis names set with use_abstract_mesh (the same devices, regrouped)."""
    mesh = get_mesh()
    abstract = _context.stack[-1][1] if _context.stack else None
    if mesh is None or abstract is None or abstract.axis_names == mesh.axis_names:
        return mesh
    if abstract.size != mesh.size:
        raise ShardingError(f"use_abstract_mesh: {abstract} has {abstract.size} devices but the context mesh "
                            f"{mesh} has {mesh.size}")
    devices = np.empty(abstract.axis_sizes, dtype=object)
    devices.flat[:] = list(mesh.device_list)
    return Mesh(devices, abstract.axis_names, abstract.axis_types)


def resolve_sharding(s: Any, what: str) -> Any:
    """A bare PartitionSpec as a NamedSharding on the context mesh; shardings pass through."""
    if isinstance(s, PartitionSpec):
        mesh = _mesh_for_specs()
        if mesh is None:
            raise ShardingError(f"{what}: a bare PartitionSpec {s} needs a mesh: set one with "
                                "padax.set_mesh(mesh) (or `with padax.sharding.use_mesh(mesh):`), or pass "
                                "NamedSharding(mesh, spec)")
        return NamedSharding(mesh, s)
    return s


def _object_array(devices: Any) -> np.ndarray:
    lst = list(devices) if not isinstance(devices, (list, tuple)) else devices
    out = np.empty(np.shape(np.array(lst, dtype=object)), dtype=object)
    out[...] = np.array(lst, dtype=object)
    return out


def _is_addressable(device) -> bool:
    try:
        return device.process_index == device.client.process_index()
    except Exception:
        return True


def make_mesh(axis_shapes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None, *,
              devices: Sequence | None = None) -> Mesh:
    """A mesh of the first prod(axis_shapes) devices (default: all devices of the default backend).

    `axis_types` defaults to Explicit for every axis, as jax.make_mesh does (see AxisType).

    Args:
        axis_shapes: the size of each axis.
        axis_names: one name per axis.
        axis_types: one AxisType per axis, or one for all (default Explicit, as jax).
        devices: the devices to use (default: all devices of the default backend).

    Returns:
        A Mesh of the first prod(axis_shapes) devices.

    Examples:
        >>> import padax
        >>> mesh = padax.make_mesh((1, 1), ("data", "model"))  # the first device; PADAX_NUM_CPU_DEVICES=8 gives more
        >>> mesh
        Mesh(axis_sizes=(1, 1), axis_names=('data', 'model'), axis_types=(Explicit, Explicit))
        >>> mesh.devices.shape
        (1, 1)
    """
    axis_shapes = tuple(int(s) for s in axis_shapes)
    if isinstance(axis_names, str):
        axis_names = (axis_names,)
    if len(axis_shapes) != len(axis_names):
        raise ShardingError(f"make_mesh: {len(axis_shapes)} axis sizes {axis_shapes} but "
                            f"{len(axis_names)} names {tuple(axis_names)}")
    devs = list(devices) if devices is not None else backend.devices()
    n = math.prod(axis_shapes)
    if n > len(devs):
        raise ShardingError(
            f"make_mesh: a mesh of shape {axis_shapes} needs {n} devices but only {len(devs)} are available. "
            "For several CPU devices in one process set PADAX_NUM_CPU_DEVICES=8 (or "
            "padax.config.update('num_cpu_devices', 8) before the first array is created).")
    arr = np.empty(axis_shapes, dtype=object)
    for i, d in enumerate(devs[:n]):
        arr.flat[i] = d
    return Mesh(arr, tuple(axis_names), _axis_types(axis_types, len(axis_shapes), AxisType.Explicit))


# ---- the sharding classes -------------------------------------------------------------

_jaxlib_cache: dict = {}      # (padax sharding, ndim, device order key) -> jaxlib GSPMDSharding
_padax_of_jaxlib: dict = {}   # id(jaxlib sharding) -> (jaxlib sharding, padax sharding)


class Sharding:
    """Base class: a layout of global arrays over a set of devices.

    A subclass defines `device_list` (the devices in its canonical order),
    `devices_indices_map(shape)` (device -> the slices of the global array it holds)
    and `to_hlo_sharding(ndim, device_order=None)` (XLA's HloSharding, tile entries
    being positions in `device_order`); the rest derives from them.

    Examples:
        >>> import padax
        >>> from padax.sharding import NamedSharding, P, Sharding
        >>> s = NamedSharding(padax.make_mesh((1,), ("x",)), P("x"))
        >>> isinstance(s, Sharding), s.num_devices, s.is_fully_replicated
        (True, 1, True)
        >>> s.shard_shape((8, 2))  # each device's block
        (8, 2)
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "Sharding", {"device_list": "the property device_list",
                                          "devices_indices_map": "devices_indices_map(shape)",
                                          "to_hlo_sharding": "to_hlo_sharding(ndim, device_order=None)"})

    @property
    def device_set(self) -> frozenset:
        return frozenset(self.device_list)

    @property
    def num_devices(self) -> int:
        return len(self.device_list)

    @property
    def addressable_devices(self) -> list:
        return [d for d in self.device_list if _is_addressable(d)]

    @property
    def is_fully_addressable(self) -> bool:
        return all(_is_addressable(d) for d in self.device_list)

    def is_fully_replicated_for(self, ndim: int) -> bool:
        return self.to_hlo_sharding(ndim).is_replicated()

    @property
    def is_fully_replicated(self) -> bool:
        return self.is_fully_replicated_for(8)

    def shard_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """Shape of one device's piece."""
        idx = next(iter(self.devices_indices_map(shape).values()))
        return tuple(len(range(*s.indices(n))) for s, n in zip(idx, shape))

    def check_shape(self, shape: Sequence[int], what: str = "array") -> None:
        """Raise ShardingError if an array of `shape` cannot take this sharding."""

    def to_jaxlib(self, ndim: int, device_order: Sequence | None = None):
        """The jaxlib C++ GSPMDSharding buffers of this layout carry (cached, remembered)."""
        order = tuple(device_order) if device_order is not None else self.device_list
        if len(order) == 1:  # one device: the very object eager arrays carry (no reshard between them)
            g = backend.single_device_sharding(order[0])
            _padax_of_jaxlib.setdefault(id(g), (g, SingleDeviceSharding(order[0])))
            return g
        key = (self, ndim, tuple(d.id for d in order))
        g = _jaxlib_cache.get(key)
        if g is None:
            g = _jaxlib.gspmd_sharding(order, self.to_hlo_sharding(ndim, order))
            _jaxlib_cache[key] = g
            _padax_of_jaxlib[id(g)] = (g, self)
        return g

    def is_equivalent_to(self, other: "Sharding", ndim: int) -> bool:
        if self == other:
            return True
        if self.device_set != other.device_set:
            return False
        shape = (self.num_devices,) * ndim  # every block count divides the device count
        return _norm_map(self.devices_indices_map(shape), shape) == _norm_map(other.devices_indices_map(shape), shape)


def _norm_map(m: dict, shape) -> dict:
    return {d: tuple(s.indices(n) for s, n in zip(idx, shape)) for d, idx in m.items()}


class SingleDeviceSharding(Sharding):
    """The whole array on one device.

    Args:
        device: the Device that holds the whole array.

    Returns:
        The sharding.

    Examples:
        >>> import padax
        >>> from padax.sharding import SingleDeviceSharding
        >>> s = SingleDeviceSharding(padax.devices()[0])
        >>> x = padax.device_put(padax.ones([2, 3]), s)
        >>> x.sharding == s, s.devices_indices_map((2, 3))[padax.devices()[0]]
        (True, (slice(None, None, None), slice(None, None, None)))
    """

    def __init__(self, device):
        self.device = device

    @property
    def device_list(self) -> tuple:
        return (self.device,)

    def devices_indices_map(self, shape):
        return {self.device: (slice(None),) * len(shape)}

    def to_hlo_sharding(self, ndim, device_order=None):
        return _jaxlib.hlo_sharding_replicated()

    def is_fully_replicated_for(self, ndim):
        return True


    def __eq__(self, other):
        return isinstance(other, SingleDeviceSharding) and other.device == self.device

    def __hash__(self):
        return hash(("single", self.device.platform, self.device.id))

    def __repr__(self):
        return f"SingleDeviceSharding(device={self.device!r})"


class NamedSharding(Sharding):
    """An array laid out on a `Mesh` as a `PartitionSpec` says.

    Each array dimension is cut into as many equal blocks as the product of
    the sizes of the mesh axes it names; the device at mesh coordinates c
    holds, along that dimension, the block whose index is c restricted to
    those axes (row-major). Mesh axes not named anywhere hold copies.

    Args:
        mesh: the Mesh.
        spec: a PartitionSpec (or a sequence turned into one); None replicates.

    Returns:
        The sharding; raises ShardingError when the spec names unknown or repeated axes.

    Examples:
        >>> import padax
        >>> from padax.sharding import NamedSharding, P
        >>> mesh = padax.make_mesh((1,), ("x",))
        >>> s = NamedSharding(mesh, P("x", None))  # rows split over x
        >>> s.spec, s.mesh is mesh
        (PartitionSpec('x', None), True)
        >>> x = padax.device_put(padax.arange(8.0).reshape(4, 2), s)
        >>> x.shape, s.devices_indices_map((4, 2))[padax.devices()[0]]  # one device holds every row
        ((4, 2), (slice(0, 4, None), slice(None, None, None)))
    """

    def __init__(self, mesh: Mesh, spec: PartitionSpec | Sequence | None = None):
        if not isinstance(mesh, Mesh):
            raise TypeError(f"NamedSharding: expected a padax Mesh, got {type(mesh).__name__}")
        if spec is None:
            spec = PartitionSpec()
        if not isinstance(spec, PartitionSpec):
            spec = PartitionSpec(*spec)
        self.mesh = mesh
        self.spec = spec
        used = spec.used_axes()
        for a in used:
            if a not in mesh.axis_names:
                raise ShardingError(f"PartitionSpec {spec} names mesh axis {a!r}, but the mesh only has axes "
                                    f"{mesh.axis_names}")
        if len(set(used)) != len(used):
            raise ShardingError(f"PartitionSpec {spec} uses a mesh axis more than once")
        self._hash = hash((mesh, spec))

    @property
    def device_list(self):
        return self.mesh.device_list

    def _blocks(self, ndim: int) -> list[int]:
        sizes = self.mesh.shape
        return [math.prod(sizes[a] for a in self.spec.axes_of(d)) for d in range(ndim)]

    def check_shape(self, shape, what="array"):
        if len(self.spec) > len(shape):
            raise ShardingError(f"PartitionSpec {self.spec} has {len(self.spec)} entries but the {what} has "
                                f"only {len(shape)} dimensions (shape {tuple(shape)})")
        sizes = self.mesh.shape
        for d, n in enumerate(shape):
            axes = self.spec.axes_of(d)
            k = math.prod(sizes[a] for a in axes)
            if k > 1 and n % k:
                names = " x ".join(f"'{a}' ({sizes[a]})" for a in axes)
                raise ShardingError(f"dimension {d} of the {what} (shape {tuple(shape)}) has size {n}, which "
                                    f"is not divisible by mesh axis {names} = {k} devices, as PartitionSpec "
                                    f"{self.spec} asks")

    def devices_indices_map(self, shape):
        shape = tuple(shape)
        self.check_shape(shape)
        sizes = self.mesh.shape
        names = self.mesh.axis_names
        out = {}
        for coords, dev in np.ndenumerate(self.mesh.devices):
            c = dict(zip(names, coords))
            idx = []
            for d, n in enumerate(shape):
                axes = self.spec.axes_of(d)
                if not axes:
                    idx.append(slice(None))
                    continue
                b = 0
                for a in axes:
                    b = b * sizes[a] + c[a]
                k = math.prod(sizes[a] for a in axes)
                size = n // k
                idx.append(slice(b * size, (b + 1) * size))
            out[dev] = tuple(idx)
        return out

    def tile_assignment(self, ndim: int) -> tuple[np.ndarray, bool]:
        """The mesh's devices arranged as XLA's tile grid (and whether the last axis is replication)."""
        names = list(self.mesh.axis_names)
        order = []
        for d in range(ndim):
            order += [names.index(a) for a in self.spec.axes_of(d)]
        rest = [i for i in range(len(names)) if i not in order]
        t = np.transpose(self.mesh.devices, order + rest)
        blocks = self._blocks(ndim)
        rep = math.prod(self.mesh.devices.shape[i] for i in rest)
        if rep > 1:
            return t.reshape(tuple(blocks) + (rep,)), True
        return t.reshape(tuple(blocks)), False

    def to_hlo_sharding(self, ndim, device_order=None):
        if len(self.spec) > ndim:
            raise ShardingError(f"PartitionSpec {self.spec} has {len(self.spec)} entries but the array has "
                                f"only {ndim} dimensions")
        grid, rep = self.tile_assignment(ndim)
        if all(b == 1 for b in self._blocks(ndim)):
            return _jaxlib.hlo_sharding_replicated()
        order = list(device_order) if device_order is not None else list(self.mesh.device_list)
        pos = {d.id: i for i, d in enumerate(order)}
        try:
            ids = [pos[d.id] for d in grid.flat]
        except KeyError:
            raise ShardingError(f"{self} uses devices outside the program's devices") from None
        return _jaxlib.hlo_sharding_tiled(list(grid.shape), ids, rep)

    def is_fully_replicated_for(self, ndim):
        return all(b == 1 for b in self._blocks(ndim))

    @property
    def is_fully_replicated(self):
        sizes = self.mesh.shape
        return all(sizes[a] == 1 for a in self.spec.used_axes())

    def __eq__(self, other):
        return isinstance(other, NamedSharding) and self.mesh == other.mesh and self.spec == other.spec

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec!r})"


class GSPMDSharding(Sharding):
    """A layout in XLA's own terms: a device list and an HloSharding over its positions.

    Args:
        devices: the devices, in the order the HloSharding's positions refer to.
        hlo_sharding: an XLA HloSharding (e.g. from `Sharding.to_hlo_sharding(ndim)`).

    Returns:
        The sharding.

    Examples:
        >>> import padax
        >>> from padax.sharding import GSPMDSharding
        >>> x = padax.ones([4])
        >>> s = GSPMDSharding(padax.devices()[:1], x.sharding.to_hlo_sharding(1))  # XLA's own terms
        >>> s.device_list == tuple(padax.devices()[:1]), s.is_fully_replicated
        (True, True)
    """

    def __init__(self, devices: Sequence, hlo_sharding):
        self._devices = tuple(devices)
        self.hlo_sharding = hlo_sharding

    @property
    def device_list(self):
        return self._devices

    def to_hlo_sharding(self, ndim, device_order=None):
        if device_order is None or tuple(device_order) == self._devices:
            return self.hlo_sharding
        grid, rep = self._grid(ndim)
        if grid is None:
            return self.hlo_sharding
        pos = {d.id: i for i, d in enumerate(device_order)}
        return _jaxlib.hlo_sharding_tiled(list(grid.shape), [pos[d.id] for d in grid.flat], rep)

    def _grid(self, ndim):
        h = self.hlo_sharding
        if h.is_replicated() or not h.is_tiled():
            return None, False
        dims = list(h.tile_assignment_dimensions())
        ids = list(h.tile_assignment_devices())
        grid = np.empty(len(ids), dtype=object)
        for i, p in enumerate(ids):
            grid[i] = self._devices[p]
        grid = grid.reshape(dims)
        extra = len(dims) - ndim
        if extra > 1:  # several subgroup dims (replicated): merge them into one
            grid = grid.reshape(tuple(dims[:ndim]) + (-1,))
        return grid, extra >= 1

    def devices_indices_map(self, shape):
        shape = tuple(shape)
        grid, _ = self._grid(len(shape))
        if grid is None:
            return {d: (slice(None),) * len(shape) for d in self._devices}
        out = {}
        for coords, dev in np.ndenumerate(grid):
            idx = []
            for d, n in enumerate(shape):
                k = grid.shape[d]
                size = -(-n // k)
                idx.append(slice(coords[d] * size, min((coords[d] + 1) * size, n)) if k > 1 else slice(None))
            out[dev] = tuple(idx)
        return out

    def is_fully_replicated_for(self, ndim):
        return self.hlo_sharding.is_replicated()

    @property
    def is_fully_replicated(self):
        return self.hlo_sharding.is_replicated()

    def __eq__(self, other):
        return (isinstance(other, GSPMDSharding) and self._devices == other._devices
                and self.hlo_sharding == other.hlo_sharding)

    def __hash__(self):
        return hash((tuple(d.id for d in self._devices), str(self.hlo_sharding)))

    def __repr__(self):
        return f"GSPMDSharding({self.hlo_sharding}, devices={[d.id for d in self._devices]})"


# ---- mapping jaxlib shardings back, and naming XLA's chosen layouts -----------------------------

def sharding_of_buffer(buf) -> Sharding:
    """The padax sharding of a jaxlib array (what `Tensor.sharding` returns)."""
    js = buf._sharding
    hit = _padax_of_jaxlib.get(id(js))
    if hit is not None and hit[0] is js:
        return hit[1]
    devs = tuple(js._internal_device_list)
    if len(devs) == 1:
        return SingleDeviceSharding(devs[0])
    return GSPMDSharding(devs, js._hlo_sharding)


def name_on_mesh(hlo, ndim: int, mesh: Mesh, device_order: Sequence, max_candidates: int = 4096):
    """A NamedSharding on `mesh` whose HloSharding (over device_order) equals `hlo`, or None."""
    if hlo.is_replicated():
        return NamedSharding(mesh, PartitionSpec())
    names = mesh.axis_names
    n = 0
    for assign in itertools.product(range(-1, ndim), repeat=len(names)):
        parts: list[list[str]] = [[] for _ in range(ndim)]
        for a, d in zip(names, assign):
            if d >= 0:
                parts[d].append(a)
        for perms in itertools.product(*[itertools.permutations(p) for p in parts]):
            n += 1
            if n > max_candidates:
                return None
            spec = PartitionSpec(*[None if not p else (p if len(p) > 1 else p[0]) for p in perms])
            s = NamedSharding(mesh, spec)
            try:
                if s.to_hlo_sharding(ndim, device_order) == hlo:
                    return s
            except ShardingError:
                continue
    return None


# ---- host <-> sharded device arrays ----------------------------------------------------------------

def put_host_array(value: np.ndarray, aval, sharding: Sharding, enable_x64: bool,
                   device_order: Sequence | None = None):
    """Cut a host ndarray into pieces and put each on its device; returns a jaxlib array.

    Only the pieces of this process's devices are transferred (in multi-process
    runs every process calls this with the same global value).
    """
    sharding.check_shape(value.shape)
    js = sharding.to_jaxlib(value.ndim, device_order)
    order = tuple(device_order) if device_order is not None else sharding.device_list
    idx_map = sharding.devices_indices_map(value.shape)
    devs, pieces = [], []
    for d in order:
        if not _is_addressable(d):
            continue
        devs.append(d)
        # a fresh contiguous copy per device: jaxlib rejects one host buffer reused for replicas
        pieces.append(np.array(value[idx_map[d]], order="C", copy=True))
    return _jaxlib.device_put(aval, js, pieces, devs, enable_x64)


def assemble_host(buf, aval, sharding: Sharding | None = None) -> np.ndarray:
    """Read a (possibly sharded) jaxlib array back to one host ndarray, shard by shard."""
    if sharding is None:
        sharding = sharding_of_buffer(buf)
    arrays = buf._arrays
    if len(arrays) == 1 and sharding.num_devices == 1:
        return _jaxlib.to_numpy(buf)
    if sharding.is_fully_replicated_for(len(aval.shape)):
        return _jaxlib.to_numpy(arrays[0])
    if not sharding.is_fully_addressable:
        raise RuntimeError("this Tensor spans devices of other processes; read its addressable_shards, or "
                           "gather it first (e.g. jit with out_shardings replicated)")
    idx_map = sharding.devices_indices_map(aval.shape)
    out = np.empty(aval.shape, aval.dtype)
    done = set()
    for a in arrays:
        dev = _jaxlib.array_device(a)
        idx = idx_map[dev]
        key = tuple(s.indices(n) for s, n in zip(idx, aval.shape))
        if key in done:
            continue
        done.add(key)
        out[idx] = _jaxlib.to_numpy(a)
    return out


def rewrap(buf, aval, sharding: Sharding, ndim: int, device_order: Sequence):
    """The same device pieces viewed with another device order (no copy), or None if they differ."""
    src = sharding_of_buffer(buf)
    if not src.is_equivalent_to(sharding, ndim):
        return None
    by_dev = {_jaxlib.array_device(a): a for a in buf._arrays}
    try:
        arrays = [by_dev[d] for d in device_order if _is_addressable(d)]
    except KeyError:
        return None
    return _jaxlib.assemble_array(aval, sharding.to_jaxlib(ndim, device_order), arrays)


def reshard_buffer(buf, aval, sharding: Sharding, enable_x64: bool, device_order: Sequence | None = None):
    """A jaxlib array holding the same global value as `buf`, laid out as `sharding` says."""
    order = tuple(device_order) if device_order is not None else sharding.device_list
    want = sharding.to_jaxlib(len(aval.shape), order)
    if buf._sharding is want:
        return buf
    r = rewrap(buf, aval, sharding, len(aval.shape), order)
    if r is not None:
        return r
    return put_host_array(assemble_host(buf, aval), aval, sharding, enable_x64, order)


def clear_caches() -> None:
    """Forget jaxlib sharding objects (their devices belong to a client that was replaced)."""
    _jaxlib_cache.clear()
    _padax_of_jaxlib.clear()
