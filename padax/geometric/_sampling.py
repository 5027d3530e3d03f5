"""Neighbour sampling on a CSC graph and reindexing of sampled subgraphs.

Their outputs' sizes depend on the values (how many neighbours each node has), so they run eagerly on
the host, as data preparation before a compiled step. Random draws come from padax's global key
(`padax.seed` replays them): each node keeps `sample_size` of its neighbours chosen uniformly without
replacement (or, for `weighted_sample_neighbors`, by weighted reservoir sampling: the largest
u ** (1 / w) keys), listed in their CSC order. A node with at most `sample_size` neighbours, or
`sample_size=-1`, keeps all of them in CSC order, as Paddle.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import padax


def _host(op: str, what: str, v: Any, integer: bool = True) -> np.ndarray:
    try:
        a = np.asarray(v)
    except TypeError as e:
        raise TypeError(f"{op}: {what} must be a concrete array (the output's size depends on its values; "
                        f"call {op} outside jit/vmap)") from e
    if a.ndim == 2 and a.shape[1] == 1:
        a = a.reshape(-1)
    if a.ndim != 1:
        raise ValueError(f"{op}: {what} must be 1-D, got shape {a.shape}")
    if integer and a.dtype not in (np.int32, np.int64):
        raise TypeError(f"{op}: {what} must be int32 or int64, got {a.dtype}")
    return a


def _sample(op: str, row: Any, colptr: Any, input_nodes: Any, sample_size: int, weights: Any, eids: Any,
            return_eids: bool):
    row_h = _host(op, "row", row)
    colptr_h = _host(op, "colptr", colptr)
    nodes = _host(op, "input_nodes", input_nodes)
    if return_eids and eids is None:
        raise ValueError(f"{op}: return_eids=True needs eids")
    eids_h = _host(op, "eids", eids) if return_eids else None
    sample_size = int(sample_size)
    if sample_size == 0 or sample_size < -1:
        raise ValueError(f"{op}: sample_size must be -1 (all neighbours) or positive, got {sample_size}")
    if nodes.size and (nodes.min() < 0 or nodes.max() >= colptr_h.size - 1):
        raise ValueError(f"{op}: input_nodes must lie in [0, {colptr_h.size - 1}), got {nodes.tolist()}")
    starts, ends = colptr_h[nodes].astype(np.int64), colptr_h[nodes + 1].astype(np.int64)
    degree = ends - starts
    counts = degree if sample_size == -1 else np.minimum(degree, sample_size)
    big = np.flatnonzero(degree > counts)
    keys = None
    if big.size:
        total = int(degree[big].sum())
        u = np.asarray(padax.rand([total], dtype="float32"), np.float64)
        u = np.clip(u, np.finfo(np.float32).tiny, 1.0)
        keys = np.split(u, np.cumsum(degree[big])[:-1])
        if weights is not None:
            w = _host(op, "edge_weight", weights, integer=False).astype(np.float64)
            with np.errstate(divide="ignore"):
                keys = [np.log(k) / w[starts[i]:ends[i]] for k, i in zip(keys, big)]
    picked = []
    slot = {int(i): j for j, i in enumerate(big)}
    for i in range(nodes.size):
        edges = np.arange(starts[i], ends[i])
        if i in slot:
            order = np.argsort(-keys[slot[i]], kind="stable")[:counts[i]]
            edges = edges[np.sort(order)]
        picked.append(edges)
    edges = np.concatenate(picked) if picked else np.zeros([0], np.int64)
    out = [padax.to_tensor(row_h[edges].astype(row_h.dtype)), padax.to_tensor(counts.astype(np.int32))]
    if return_eids:
        out.append(padax.to_tensor(eids_h[edges].astype(eids_h.dtype)))
    return tuple(out)


def sample_neighbors(row: Any, colptr: Any, input_nodes: Any, sample_size: int = -1, eids: Any = None,
                     return_eids: bool = False, perm_buffer: Any = None, name: str | None = None):
    """Sample up to `sample_size` neighbours of each input node of a CSC graph, uniformly without replacement.

    Args:
        row: the CSC row indices (source of each edge, grouped by destination), int32/int64 [num_edges].
        colptr: the CSC column pointers [num_nodes + 1]; node n's neighbours are row[colptr[n]:colptr[n+1]].
        input_nodes: the nodes to sample for, int [n].
        sample_size: neighbours per node; -1 (default) keeps them all.
        eids: edge ids [num_edges], needed when return_eids.
        return_eids: also return the sampled edges' ids.
        perm_buffer: unused (Paddle's GPU Fisher-Yates buffer).
        name: unused (Paddle's).

    Returns:
        (out_neighbors [sum(out_count)] of row's dtype, out_count int32 [n]) and out_eids when return_eids.

    Examples:
        >>> import padax
        >>> row = padax.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = padax.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> nbrs, count = padax.geometric.sample_neighbors(row, colptr, padax.to_tensor([0, 8, 1, 2]))
        >>> nbrs.tolist(), count.tolist()
        ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1])
    """
    return _sample("sample_neighbors", row, colptr, input_nodes, sample_size, None, eids, return_eids)


def weighted_sample_neighbors(row: Any, colptr: Any, edge_weight: Any, input_nodes: Any, sample_size: int = -1,
                              eids: Any = None, return_eids: bool = False, name: str | None = None):
    """Sample up to `sample_size` neighbours of each input node, with probability growing with edge_weight.

    Args:
        row: the CSC row indices, int32/int64 [num_edges].
        colptr: the CSC column pointers [num_nodes + 1].
        edge_weight: a positive float weight per edge [num_edges].
        input_nodes: the nodes to sample for, int [n].
        sample_size: neighbours per node; -1 (default) keeps them all.
        eids: edge ids [num_edges], needed when return_eids.
        return_eids: also return the sampled edges' ids.
        name: unused (Paddle's).

    Returns:
        (out_neighbors, out_count int32 [n]) and out_eids when return_eids, as `sample_neighbors`.

    Examples:
        >>> import padax
        >>> row = padax.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = padax.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> w = padax.ones([13])
        >>> nbrs, count = padax.geometric.weighted_sample_neighbors(row, colptr, w, padax.to_tensor([0, 8]), 1)
        >>> count.tolist()
        [1, 1]
    """
    return _sample("weighted_sample_neighbors", row, colptr, input_nodes, sample_size, edge_weight, eids,
                   return_eids)


def _reindex(op: str, x: Any, neighbors: Sequence[Any], count: Sequence[Any]):
    xh = _host(op, "x", x)
    table: dict[int, int] = {}
    for v in xh.tolist():
        table.setdefault(int(v), len(table))
    if len(table) != xh.size:
        raise ValueError(f"{op}: x must hold distinct nodes")
    srcs, dsts = [], []
    for nb, ct in zip(neighbors, count):
        nb_h = _host(op, "neighbors", nb)
        ct_h = _host(op, "count", ct)
        if int(ct_h.sum()) != nb_h.size or ct_h.size != xh.size:
            raise ValueError(f"{op}: count must have one entry per node of x ({xh.size}) summing to the number "
                             f"of neighbors ({nb_h.size}), got {ct_h.tolist()}")
        srcs.append(np.array([table.setdefault(int(v), len(table)) for v in nb_h.tolist()], np.int64))
        dsts.append(np.repeat(np.arange(xh.size, dtype=np.int64), ct_h.astype(np.int64)))
    dtype = xh.dtype
    out_nodes = np.fromiter(table.keys(), dtype=np.int64, count=len(table)).astype(dtype)
    return (padax.to_tensor(np.concatenate(srcs).astype(dtype)), padax.to_tensor(np.concatenate(dsts).astype(dtype)),
            padax.to_tensor(out_nodes))


def reindex_graph(x: Any, neighbors: Any, count: Any, value_buffer: Any = None, index_buffer: Any = None,
                  name: str | None = None):
    """Renumber a sampled subgraph's nodes 0..m-1: x first (in order), then new neighbours as first met.

    Args:
        x: the centre nodes, distinct, int32/int64 [n].
        neighbors: the sampled neighbours of the centre nodes, concatenated [e].
        count: how many of `neighbors` belong to each node of x [n].
        value_buffer: unused (Paddle's GPU hash buffer).
        index_buffer: unused (Paddle's GPU hash buffer).
        name: unused (Paddle's).

    Returns:
        (reindex_src [e], reindex_dst [e], out_nodes [m]), all of x's dtype: edge (src -> dst) in the new
        numbering, and the original id of each new node.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([0, 1, 2])
        >>> nb = padax.to_tensor([8, 9, 0, 4, 7, 6, 7])
        >>> src, dst, nodes = padax.geometric.reindex_graph(x, nb, padax.to_tensor([2, 3, 2]))
        >>> src.tolist(), dst.tolist(), nodes.tolist()
        ([3, 4, 0, 5, 6, 7, 6], [0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 8, 9, 4, 7, 6])
    """
    return _reindex("reindex_graph", x, [neighbors], [count])


def reindex_heter_graph(x: Any, neighbors: Sequence[Any], count: Sequence[Any], value_buffer: Any = None,
                        index_buffer: Any = None, name: str | None = None):
    """`reindex_graph` for a heterogeneous graph: one neighbours/count pair per edge type, one numbering.

    Args:
        x: the centre nodes, distinct, int32/int64 [n].
        neighbors: a list of neighbour arrays, one per edge type.
        count: a list of count arrays [n], one per edge type.
        value_buffer: unused (Paddle's GPU hash buffer).
        index_buffer: unused (Paddle's GPU hash buffer).
        name: unused (Paddle's).

    Returns:
        (reindex_src, reindex_dst, out_nodes): the edge types' edges concatenated in the shared numbering.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([0, 1, 2])
        >>> nb = [padax.to_tensor([8, 9, 0, 4, 7, 6, 7]), padax.to_tensor([0, 2, 3, 5, 1])]
        >>> ct = [padax.to_tensor([2, 3, 2]), padax.to_tensor([1, 3, 1])]
        >>> src, dst, nodes = padax.geometric.reindex_heter_graph(x, nb, ct)
        >>> nodes.tolist()
        [0, 1, 2, 8, 9, 4, 7, 6, 3, 5]
    """
    if not isinstance(neighbors, (list, tuple)) or not isinstance(count, (list, tuple)) \
            or len(neighbors) != len(count):
        raise ValueError("reindex_heter_graph: neighbors and count must be lists of the same length")
    return _reindex("reindex_heter_graph", x, neighbors, count)
