"""einsum: Einstein summation, built from diagonal slices, reductions, dot_general and transposes.

The equation is parsed once: '...' stands for broadcast axes (aligned from
the right across operands), a label repeated within one operand takes that
operand's diagonal, labels that appear in one operand only and not in the
output are summed away first, and the operands are then contracted pairwise
(always the pair giving the smallest intermediate) with dot_general, which
carries shared labels as batch dimensions.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import lax_api as lax
from padax.functional._arrays import asarray

_OP = "einsum"


def _parse(equation: str, ranks: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Per-operand label lists (ellipsis axes get labels '.0', '.1', ... counted from the right) and the
    output labels."""
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, rhs = eq.split("->", 1)
        if "->" in rhs:
            raise op_value_error(_OP, f"equation {equation!r} has more than one '->'")
    else:
        lhs, rhs = eq, None
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise op_value_error(_OP, f"equation {equation!r} names {len(terms)} operands but {len(ranks)} were given")
    labels: list[list[str]] = []
    n_ell = 0
    for t, r in zip(terms, ranks):
        if t.count("...") > 1 or t.replace("...", "").count(".") or not all(c.isalpha() for c in t.replace("...", "")):
            raise op_value_error(_OP, f"bad subscripts {t!r} in {equation!r}: use letters and at most one '...'")
        if "..." in t:
            head, tail = t.split("...")
            k = r - len(head) - len(tail)
            if k < 0:
                raise op_value_error(_OP, f"subscripts {t!r} name more axes than the operand's rank {r}")
            n_ell = max(n_ell, k)
            labels.append(list(head) + [f".{k - 1 - i}" for i in range(k)] + list(tail))
        else:
            if len(t) != r:
                raise op_value_error(_OP, f"subscripts {t!r} name {len(t)} axes but the operand has rank {r}")
            labels.append(list(t))
    ell = [f".{n_ell - 1 - i}" for i in range(n_ell)]
    if rhs is None:
        counts: dict[str, int] = {}
        for ls in labels:
            for c in ls:
                if not c.startswith("."):
                    counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, k in counts.items() if k == 1)
    else:
        bare = rhs.replace("...", "")
        if rhs.count("...") > 1 or bare.count(".") or not all(c.isalpha() for c in bare):
            raise op_value_error(_OP, f"bad output subscripts {rhs!r} in {equation!r}")
        if "..." in rhs:
            head, tail = rhs.split("...")
            out = list(head) + ell + list(tail)
        else:
            if ell:
                raise op_value_error(_OP, f"the operands of {equation!r} have broadcast ('...') axes, so the "
                                          "output subscripts need a '...' too")
            out = list(rhs)
        seen = set()
        for c in out:
            if c in seen:
                raise op_value_error(_OP, f"output subscripts {rhs!r} repeat {c!r}")
            seen.add(c)
        present = {c for ls in labels for c in ls}
        for c in out:
            if c not in present:
                raise op_value_error(_OP, f"output label {c!r} of {equation!r} appears in no operand")
    return labels, out


def _take_diagonals(x: Any, labels: list[str]) -> tuple[Any, list[str]]:
    """Collapse repeated labels of one operand to their diagonal."""
    while True:
        dup = next((c for c in labels if labels.count(c) > 1), None)
        if dup is None:
            return x, labels
        i = labels.index(dup)
        j = labels.index(dup, i + 1)
        n = x.aval.shape[i]
        if x.aval.shape[j] != n:
            raise op_value_error(_OP, f"label {dup!r} is repeated on axes of sizes {n} and {x.aval.shape[j]}")
        nd = x.aval.ndim
        rest = [d for d in range(nd) if d not in (i, j)]
        y = lax.transpose(x, tuple(rest) + (i, j))
        lead = y.aval.shape[:-2]
        y = lax.reshape(y, lead + (n * n,))
        y = lax.slice_in_dim(y, 0, n * n, n + 1, len(lead)) if n else lax.reshape(y, lead + (0,))
        x = y
        labels = [labels[d] for d in rest] + [dup]


def _sum_labels(x: Any, labels: list[str], drop: set) -> tuple[Any, list[str]]:
    axes = tuple(d for d, c in enumerate(labels) if c in drop)
    if not axes:
        return x, labels
    return lax.reduce_sum(x, axes), [c for c in labels if c not in drop]


def einsum(equation: str, *operands: Any) -> Any:
    """Einstein summation over the operands as written in `equation` ('ij,jk->ik', '...ij->...ji',
    'ii->i', 'bij,bjk->bik', implicit output when '->' is absent).

    Args:
        equation: one comma-separated label string per operand, then optionally '->' and the output's labels.
        operands: the Tensors (or one list of them).

    Returns:
        A Tensor of the operands' promoted dtype.

    Examples:
        >>> import padax
        >>> padax.einsum('ij,jk->ik', padax.to_tensor([[1.0, 2.0]]), padax.to_tensor([[3.0], [4.0]])).tolist()
        [[11.0]]
        >>> padax.einsum('ii->i', padax.to_tensor([[1, 2], [3, 4]])).tolist()
        [1, 4]
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise op_type_error(_OP, f"equation must be a string, got {type(equation).__name__}")
    if not operands:
        raise op_value_error(_OP, "needs at least one operand")
    arrs = [asarray(o) for o in operands]
    dt = dtypes.promote_types(*(a.aval.dtype for a in arrs))
    if dt == dtypes.bool_:
        raise op_type_error(_OP, "bool operands are not supported: " + ", ".join(a.aval.str_short() for a in arrs))
    arrs = [lax.convert_element_type(a, dt) for a in arrs]
    labels, out = _parse(equation, [a.aval.ndim for a in arrs])
    # sizes; size-1 axes broadcast against larger ones of the same label
    sizes: dict[str, int] = {}
    for a, ls in zip(arrs, labels):
        for c, n in zip(ls, a.aval.shape):
            if c in sizes and sizes[c] != n and 1 not in (n, sizes[c]):
                raise op_value_error(_OP, f"label {c!r} of {equation!r} has sizes {sizes[c]} and {n} "
                                          "(operands " + ", ".join(x.aval.str_short() for x in arrs) + ")")
            sizes[c] = n if c not in sizes or sizes[c] == 1 else sizes[c]
    ops: list[tuple[Any, list[str]]] = []
    for a, ls in zip(arrs, labels):
        a, ls = _take_diagonals(a, list(ls))
        # a broadcast (size-1) axis whose label is larger elsewhere: drop it, the label comes from elsewhere
        sq = [d for d, c in enumerate(ls) if a.aval.shape[d] == 1 and sizes[c] != 1]
        if sq:
            a = lax.reshape(a, tuple(n for d, n in enumerate(a.aval.shape) if d not in sq))
            ls = [c for d, c in enumerate(ls) if d not in sq]
        ops.append((a, ls))
    out_set = set(out)

    def needed_elsewhere(k: int) -> set:
        s = set(out_set)
        for i, (_, ls) in enumerate(ops):
            if i != k:
                s.update(ls)
        return s

    # sum away labels private to one operand
    ops = [_sum_labels(a, ls, set(ls) - needed_elsewhere(i)) for i, (a, ls) in enumerate(ops)]
    while len(ops) > 1:
        best = None
        for i in range(len(ops)):
            for j in range(i + 1, len(ops)):
                keep = set(out_set)
                for k, (_, ls) in enumerate(ops):
                    if k not in (i, j):
                        keep.update(ls)
                la, lb = ops[i][1], ops[j][1]
                res = [c for c in dict.fromkeys(la + lb) if c in keep or (c in la) != (c in lb)]
                cost = math.prod(sizes[c] for c in res)
                if best is None or cost < best[0]:
                    best = (cost, i, j, keep)
        _, i, j, keep = best
        (a, la), (b, lb) = ops[i], ops[j]
        batch = [c for c in la if c in lb and c in keep]
        contract = [c for c in la if c in lb and c not in keep]
        a, la = _sum_labels(a, la, {c for c in la if c not in lb and c not in keep})
        b, lb = _sum_labels(b, lb, {c for c in lb if c not in la and c not in keep})
        dn = ((tuple(la.index(c) for c in contract), tuple(lb.index(c) for c in contract)),
              (tuple(la.index(c) for c in batch), tuple(lb.index(c) for c in batch)))
        res = lax.dot_general(a, b, dn)
        rl = batch + [c for c in la if c not in batch and c not in contract] + \
            [c for c in lb if c not in batch and c not in contract]
        ops = [o for k, o in enumerate(ops) if k not in (i, j)] + [(res, rl)]
    x, ls = ops[0]
    x, ls = _sum_labels(x, ls, set(ls) - out_set)
    missing = [c for c in out if c not in ls]
    if missing:  # labels whose every occurrence was a broadcast size-1 axis
        x = lax.reshape(x, x.aval.shape + (1,) * len(missing))
        ls = ls + missing
    x = lax.transpose(x, tuple(ls.index(c) for c in out))
    target = tuple(sizes[c] for c in out)
    if x.aval.shape != target:
        x = lax.broadcast_in_dim(x, target, tuple(range(len(target))))
    return x


__all__ = ["einsum"]
