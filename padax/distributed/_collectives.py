"""padax.distributed's collectives with Paddle's names, for use inside `padax.shard_map` (a group is
a mesh axis name or a tuple of them): all_reduce, all_gather, reduce_scatter, broadcast,
all_to_all/alltoall, send/recv."""
from __future__ import annotations

from typing import Any

from padax.distributed._placements import ProcessMesh, ReduceOp
from padax.functional._arrays import asarray, aval_of
from padax.functional.creation import zeros_like
from padax.functional.lax import elementwise as E, parallel as par
from padax.functional.lax.parallel import _static_axis_size
from padax.functional.lax.reductions import reduce_prod
from padax.functional.lax.resharding import all_to_all as a2a, psum_scatter
from padax.functional.manipulation import stack
from padax.functional.math import where


def _group(group: Any) -> Any:
    if group is None:
        raise ValueError("padax.distributed collectives need group=<mesh axis name> (they run inside shard_map)")
    if isinstance(group, ProcessMesh):
        return tuple(group.dim_names) if group.ndim > 1 else group.dim_names[0]
    return tuple(group) if isinstance(group, list) else group


def all_reduce(tensor: Any, op: str = ReduceOp.SUM, group: Any = None, sync_op: bool = True) -> Any:
    """Reduce over the members of `group` (a mesh axis); every member gets the result.

    Args:
        tensor: the local value.
        op: a ReduceOp, SUM, MAX, MIN, AVG or PROD.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        The reduced Tensor, same shape as `tensor`, identical on every member (a new value: `tensor` is not changed in
        place).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])  # one value per member of the named axis "i"
        >>> padax.vmap(lambda a: dist.all_reduce(a, group="i"), axis_name="i")(x).tolist()  # inside shard_map: a mesh axis
        [10.0, 10.0, 10.0, 10.0]
    """
    g = _group(group)
    if op == ReduceOp.SUM:
        return par.psum(tensor, g)
    if op == ReduceOp.MAX:
        return par.pmax(tensor, g)
    if op == ReduceOp.MIN:
        return par.pmin(tensor, g)
    if op == ReduceOp.AVG:
        return par.pmean(tensor, g)
    if op == ReduceOp.PROD:
        gathered = par.all_gather(tensor, g)
        return reduce_prod(gathered, (0,)) if hasattr(E, "mul") else gathered
    raise ValueError(f"all_reduce: unknown op {op!r}; use padax.distributed.ReduceOp.SUM/MAX/MIN/AVG/PROD")


def all_gather(tensor_or_list: Any, tensor: Any = None, group: Any = None, sync_op: bool = True, *,
               axis: int = 0, tiled: bool = False) -> Any:
    """Every member's tensor: stacked along `axis` (concatenated if tiled).

    Paddle's form `all_gather(tensor_list, tensor, group)` fills `tensor_list`
    with one tensor per member and returns it.

    Args:
        tensor_or_list: the local tensor; or, in Paddle's form, a list to fill.
        tensor: the local tensor when the first argument is a list.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        axis: where the member axis goes in the result.
        tiled: concatenate along `axis` instead of stacking.

    Returns:
        The gathered Tensor (member axis of size group-size at `axis`, or `axis` grown by that factor when tiled); in
        the list form, the filled list.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0])
        >>> padax.vmap(lambda a: dist.all_gather(a, group="i"), axis_name="i")(x).tolist()  # every member gets all
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    """
    if isinstance(tensor_or_list, list):
        out = par.all_gather(tensor, _group(group), axis=0)
        n = out.shape[0]
        tensor_or_list.extend(out[i] for i in range(n))
        return tensor_or_list
    return par.all_gather(tensor_or_list, _group(group), axis=axis, tiled=tiled)


def reduce_scatter(tensor: Any, op: str = ReduceOp.SUM, group: Any = None, sync_op: bool = True, *,
                   axis: int = 0) -> Any:
    """Reduce over `group`, then member i keeps the i-th block of dimension `axis`.

    Args:
        tensor: the local value; its `axis` size must divide by the group size.
        op: ReduceOp.SUM or ReduceOp.AVG.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        axis: the dimension split among the members.

    Returns:
        This member's block of the reduced value (`axis` divided by the group size).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(16.0).reshape(4, 4)  # member i holds row i
        >>> padax.vmap(lambda a: dist.reduce_scatter(a, group="i"), axis_name="i")(rows).tolist()  # column sums, one each
        [[24.0], [28.0], [32.0], [36.0]]
    """
    if op not in (ReduceOp.SUM, ReduceOp.AVG):
        raise ValueError(f"reduce_scatter: op {op!r} is not supported (SUM or AVG)")
    out = psum_scatter(tensor, _group(group), scatter_dimension=axis, tiled=True)
    if op == ReduceOp.AVG:
        out = out / _static_axis_size(_group(group))
    return out


def broadcast(tensor: Any, src: int = 0, group: Any = None, sync_op: bool = True) -> Any:
    """Every member of `group` gets member `src`'s tensor.

    Args:
        tensor: the local value.
        src: the index of the sending member along the group axis.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        A Tensor equal to `src`'s `tensor` on every member.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.broadcast(a, src=2, group="i"), axis_name="i")(x).tolist()
        [3.0, 3.0, 3.0, 3.0]
    """
    g = _group(group)
    x = asarray(tensor)
    kept = where(par.axis_index(g) == src, x, zeros_like(x))  # src's value, zeros elsewhere
    return par.pmax(kept, g) if aval_of(x).dtype.kind == "b" else par.psum(kept, g)


def all_to_all(tensor: Any, group: Any = None, *, split_axis: int = 0, concat_axis: int = 0) -> Any:
    """Member j gets block j (along split_axis) of every member's tensor, concatenated along concat_axis.

    Args:
        tensor: the local value; its `split_axis` size must divide by the group size.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        split_axis: the axis cut into one block per member.
        concat_axis: the axis the received blocks are joined along.

    Returns:
        A Tensor whose `split_axis` shrinks and `concat_axis` grows by the group size.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(9.0).reshape(3, 3)  # member i holds row i
        >>> padax.vmap(lambda a: dist.all_to_all(a, group="i"), axis_name="i")(rows).tolist()  # member j gets column j
        [[0.0, 3.0, 6.0], [1.0, 4.0, 7.0], [2.0, 5.0, 8.0]]
    """
    return a2a(tensor, _group(group), split_axis, concat_axis, tiled=True)


def alltoall(in_tensor_list: Any, out_tensor_list: list | None = None, group: Any = None,
             sync_op: bool = True) -> Any:
    """Paddle's list form: member j receives in_tensor_list[j] of every member (in member order).

    Args:
        in_tensor_list: one tensor per member (or a stacked tensor with the member axis first).
        out_tensor_list: a list to fill with the received tensors (optional).
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        The received tensors stacked along a new first axis, or the filled `out_tensor_list`.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(4.0).reshape(2, 2)
        >>> padax.vmap(lambda a: dist.alltoall([a[0], a[1]], group="i"), axis_name="i")(rows).tolist()
        [[0.0, 2.0], [1.0, 3.0]]
    """
    x = stack(list(in_tensor_list)) if isinstance(in_tensor_list, (list, tuple)) else in_tensor_list
    out = all_to_all(x, group)
    if out_tensor_list is not None:
        out_tensor_list.extend(out[i] for i in range(out.shape[0]))
        return out_tensor_list
    return out


def send(tensor: Any, dst: int, group: Any = None, sync_op: bool = True, *, src: int = 0) -> Any:
    """SPMD point-to-point: member `src` sends `tensor` to member `dst` (a ppermute pair).

    Every member runs the same program, so both ends are named; the result
    is what `dst` receives (zeros on the other members).

    Args:
        tensor: the value to send.
        dst: the receiving member's index along the group axis.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        src: the sending member's index.

    Returns:
        What `dst` receives (`src`'s tensor), zeros on the other members.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.send(a, dst=3, group="i", src=0), axis_name="i")(x).tolist()  # member 3 receives
        [0.0, 0.0, 0.0, 1.0]
    """
    return par.ppermute(tensor, _group(group), [(src, dst)])


def recv(tensor: Any, src: int = 0, group: Any = None, sync_op: bool = True, *, dst: int | None = None) -> Any:
    """The receiving end of `send`: member `dst` gets member `src`'s `tensor`.

    Without `dst`, every member other than `src` receives it (a broadcast from src).

    Args:
        tensor: the value being passed (every member runs the same program).
        src: the sending member.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        dst: the receiving member; None makes every member receive it (a broadcast from `src`).

    Returns:
        On the receiver, `src`'s tensor; zeros on the other members when `dst` is given.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.recv(a, src=1, group="i", dst=0), axis_name="i")(x).tolist()
        [2.0, 0.0, 0.0, 0.0]
    """
    if dst is None:
        return broadcast(tensor, src, group)
    return par.ppermute(tensor, _group(group), [(src, dst)])
