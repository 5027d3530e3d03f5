"""Splitting a model into the parts a transformation should see (equinox-style filters).

    loss, grads = padax.nn.filter_value_and_grad(loss_fn)(model, x, y)   # grads: None for frozen leaves
    model, opt_state = opt.step(model, grads, opt_state)                # frozen parameters unchanged

`partition(model)` splits a model into (trainable, rest), two model-shaped trees with
None where the other has a leaf; `combine(a, b)` merges them back. `filter_grad` /
`filter_value_and_grad` differentiate only trainable floating-point parameters, so
frozen parameters (`ParamAttr(trainable=False)`, `layer.freeze()`), buffers and
integer leaves get no gradient at all (plain `padax.grad` gives them zeros).
"""
from __future__ import annotations

from typing import Any, Callable

import padax
from padax import dtypes, tree as tree_util
from padax.functional._arrays import is_array
from padax.nn.layer import _pytree
from padax.nn.layer.layers import Layer, _created
from padax.nn.param_attr import ParamInfo

BUFFER_INFO = ParamInfo(trainable=False, need_clip=False)


def _is_layer(x: Any) -> bool:
    return isinstance(x, Layer)


def leaf_infos(tree: Any, none_leaves: bool = False) -> list[ParamInfo | None]:
    """One entry per leaf of `tree` (padax.tree.leaves order; with none_leaves, None counts as a leaf):
    a layer parameter's ParamInfo, BUFFER_INFO for a buffer, None for an array outside any layer."""
    out: list = []
    is_leaf = (lambda x: x is None or isinstance(x, Layer)) if none_leaves else _is_layer
    for item in tree_util.leaves(tree, is_leaf=is_leaf):
        if isinstance(item, Layer):
            _layer_infos(item, out, none_leaves)
        else:
            out.append(param_info(item))
    return out


def param_info(value: Any) -> ParamInfo | None:
    """The ParamInfo that create_parameter gave a parameter Tensor (None for any other value)."""
    if not isinstance(value, padax.Tensor):
        return None
    entry = _created.get(id(value))
    return entry[1] if entry is not None and entry[0]() is value else None


def _layer_infos(layer: Layer, out: list, none_leaves: bool) -> None:
    children, aux = _pytree.flatten(layer)
    n_p, n_b = len(aux.param_names), len(aux.buffer_names)
    is_leaf = (lambda x: x is None) if none_leaves else None
    for i, child in enumerate(children):
        if i >= n_p + n_b:
            out.extend(leaf_infos(child, none_leaves))
            continue
        info = aux.infos[i] if i < n_p else BUFFER_INFO
        out.extend([info] * len(tree_util.leaves(child, is_leaf=is_leaf)))


def is_inexact_array(x: Any) -> bool:
    """A floating-point or complex padax array (what can be differentiated).

    Args:
        x: any leaf.

    Returns:
        True for a floating-point or complex padax array.

    Examples:
        >>> import padax
        >>> [padax.nn.is_inexact_array(x) for x in (padax.ones([2]), padax.to_tensor([1]), 1.0)]
        [True, False, False]
    """
    return is_array(x) and dtypes.is_inexact(x.dtype)


def trainable_mask(tree: Any) -> Any:
    """A tree shaped like `tree` with True at trainable leaves (False: frozen parameters and buffers).

    Args:
        tree: a model (Layer) or a pytree containing layers.

    Returns:
        A tree of bools shaped like `tree`.

    Examples:
        >>> import padax
        >>> layer = padax.nn.Linear(2, 2, bias_attr=padax.ParamAttr(trainable=False))
        >>> mask = padax.nn.trainable_mask(layer)
        >>> mask.weight, mask.bias
        (True, False)
    """
    leaves, treedef = tree_util.flatten(tree)
    return treedef.unflatten([info is None or info.trainable for info in leaf_infos(tree)])


def _mask_flags(tree: Any, filter_spec: Any) -> tuple[list, list[bool], Any]:
    leaves, treedef = tree_util.flatten(tree)
    if filter_spec is None:
        flags = [(info is None or info.trainable) and is_inexact_array(x)
                 for x, info in zip(leaves, leaf_infos(tree))]
    elif callable(filter_spec):
        flags = [bool(filter_spec(x)) for x in leaves]
    else:
        flags = [bool(f) for f in treedef.flatten_up_to(filter_spec)]
    return leaves, flags, treedef


def partition(tree: Any, filter_spec: Any = None) -> tuple[Any, Any]:
    """(selected, rest): two trees shaped like `tree`, each with None where the other holds the leaf.

    `filter_spec`: None (trainable floating-point parameters and arrays), a function of a leaf
    (e.g. `is_inexact_array`), or a tree of bools shaped like `tree` (e.g. `trainable_mask(model)`).

    Args:
        tree: a model or pytree.
        filter_spec: None, a predicate of a leaf, or a tree of bools shaped like `tree`.

    Returns:
        (selected, rest), two trees shaped like `tree`.

    Examples:
        >>> import padax
        >>> model = padax.nn.Linear(2, 2, bias_attr=padax.ParamAttr(trainable=False))
        >>> train, rest = padax.nn.partition(model)
        >>> train.weight.shape, train.bias, rest.weight, rest.bias.shape
        ((2, 2), None, None, (2,))
    """
    leaves, flags, treedef = _mask_flags(tree, filter_spec)
    return (treedef.unflatten([x if f else None for x, f in zip(leaves, flags)]),
            treedef.unflatten([None if f else x for x, f in zip(leaves, flags)]))


def combine(*trees: Any) -> Any:
    """Merge trees from `partition`: each leaf from the first tree that is not None there.

    Args:
        trees: trees of one structure, such as the two halves from `partition`.

    Returns:
        One tree holding, at each leaf, the first non-None value.

    Examples:
        >>> import padax
        >>> model = padax.nn.Linear(2, 2, bias_attr=padax.ParamAttr(trainable=False))
        >>> train, rest = padax.nn.partition(model)
        >>> padax.nn.combine(train, rest).bias.shape
        (2,)
    """
    is_none = lambda x: x is None  # noqa: E731
    flat = [tree_util.flatten(t, is_leaf=is_none) for t in trees]
    treedef = flat[0][1]
    for _, other in flat[1:]:
        if other != treedef:
            raise ValueError(f"combine: the trees have different structures: {treedef} vs {other}")
    merged = [next((x for x in column if x is not None), None) for column in zip(*(f[0] for f in flat))]
    return treedef.unflatten(merged)


def filter_value_and_grad(fun: Callable, has_aux: bool = False) -> Callable:
    """Like padax.value_and_grad of `fun`'s first argument, differentiating only its trainable floating-point
    leaves; the gradient is shaped like that argument with None elsewhere (padax.optimizer accepts it).

    Args:
        fun: a function whose first argument is a model or pytree, returning a scalar.
        has_aux: fun returns (value, aux).

    Returns:
        A function of fun's arguments giving (value, gradient), or ((value, aux), gradient) with has_aux.

    Examples:
        >>> import padax
        >>> frozen_bias = padax.ParamAttr(trainable=False)
        >>> model = padax.nn.Linear(2, 1, weight_attr=padax.nn.initializer.Constant(1.0), bias_attr=frozen_bias)
        >>> loss_fn = lambda m, x: m(x).sum()
        >>> loss, grads = padax.nn.filter_value_and_grad(loss_fn)(model, padax.to_tensor([[1.0, 2.0]]))
        >>> loss.item(), grads.weight.tolist(), grads.bias
        (3.0, [[1.0], [2.0]], None)
    """
    def wrapper(model, *args, **kwargs):
        diff, static = partition(model)
        return padax.value_and_grad(lambda d, *a, **k: fun(combine(d, static), *a, **k), has_aux=has_aux)(
            diff, *args, **kwargs)
    return wrapper


def filter_grad(fun: Callable, has_aux: bool = False) -> Callable:
    """filter_value_and_grad without the value: the gradient (and aux with has_aux=True).

    Args:
        fun: a function whose first argument is a model or pytree.
        has_aux: fun returns (value, aux).

    Returns:
        A function of fun's arguments giving the gradient (and aux with has_aux).

    Examples:
        >>> import padax
        >>> model = padax.nn.Linear(2, 1, weight_attr=padax.nn.initializer.Constant(1.0))
        >>> _ = model.freeze("weight")
        >>> grads = padax.nn.filter_grad(lambda m, x: m(x).sum())(model, padax.to_tensor([[1.0, 2.0]]))
        >>> grads.weight, grads.bias.tolist()
        (None, [1.0])
    """
    vg = filter_value_and_grad(fun, has_aux=has_aux)

    def wrapper(model, *args, **kwargs):
        value, grads = vg(model, *args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper
