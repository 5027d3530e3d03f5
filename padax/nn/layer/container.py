"""Containers with Paddle's names: Sequential, LayerList, LayerDict, ParameterList (all pytrees)."""
from __future__ import annotations

import collections
from typing import Any, Iterable, Iterator

from padax.nn.layer.layers import Layer


def _abs_index(container: Layer, idx: int) -> int:
    n = len(container)
    if not -n <= idx < n:
        raise IndexError(f"{type(container).__name__}: index {idx} is out of range for length {n}")
    return idx + n if idx < 0 else idx


def _renumber(container: Layer, items: list) -> None:
    subs = container.__dict__["_sub_layers"]
    subs.clear()
    subs.update((str(i), layer) for i, layer in enumerate(items))
    container.__dict__["_aux"] = None


class Sequential(Layer):
    """Layers applied in order. `Sequential(l1, l2)`, `Sequential(('a', l1), ('b', l2))` or
    `Sequential(OrderedDict(a=l1, b=l2))`; names are '0', '1', ... when not given.

    Args:
        layers: the layers, (name, layer) pairs, or one OrderedDict of them.

    Returns:
        layer(x): x passed through each layer in order -> the last one's output.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> model = padax.nn.Sequential(padax.nn.Linear(4, 8), padax.nn.ReLU(), padax.nn.Linear(8, 2))
        >>> len(model), type(model[1]).__name__, model(padax.ones([3, 4])).shape
        (3, 'ReLU', (3, 2))
        >>> named = padax.nn.Sequential(("fc", padax.nn.Linear(4, 2)), ("act", padax.nn.Tanh()))
        >>> [name for name, _ in named.named_parameters()]
        ['fc.weight', 'fc.bias']
    """

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], collections.OrderedDict):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        elif layers and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name: Any) -> Any:
        values = list(self.__dict__["_sub_layers"].values())
        if isinstance(name, slice):
            return type(self)(*values[name])
        if isinstance(name, str):
            return self.__dict__["_sub_layers"][name]
        return values[_abs_index(self, name)]

    def __setitem__(self, name: Any, layer: Layer) -> None:
        setattr(self, str(name), layer)

    def __delitem__(self, name: Any) -> None:
        delattr(self, str(name))

    def __len__(self) -> int:
        return len(self.__dict__["_sub_layers"])

    def __iter__(self) -> Iterator[Layer]:
        return iter(self.__dict__["_sub_layers"].values())

    def forward(self, input: Any) -> Any:  # noqa: A002 (Paddle's name)
        for layer in self.__dict__["_sub_layers"].values():
            input = layer(input)
        return input

    def append(self, module: Layer) -> "Sequential":
        self.add_sublayer(str(len(self)), module)
        return self

    def insert(self, index: int, module: Layer) -> "Sequential":
        items = list(self)
        items.insert(index, module)
        _renumber(self, items)
        return self

    def extend(self, sequential: Iterable[Layer]) -> "Sequential":
        for layer in sequential:
            self.append(layer)
        return self


class LayerList(Layer):
    """A list of sublayers, named '0', '1', ... (indexing, append, insert, extend, pop, slicing).

    Args:
        sublayers: the layers to start with; None starts empty.

    Examples:
        >>> import padax
        >>> layers = padax.nn.LayerList([padax.nn.Linear(2, 2) for _ in range(3)])
        >>> _ = layers.append(padax.nn.Linear(2, 1))
        >>> len(layers), len(layers.parameters()), type(layers[-1]).__name__
        (4, 8, 'Linear')
    """

    def __init__(self, sublayers: Iterable[Layer] | None = None) -> None:
        super().__init__()
        for i, layer in enumerate(sublayers or ()):
            self.add_sublayer(str(i), layer)

    def __getitem__(self, idx: Any) -> Any:
        values = list(self.__dict__["_sub_layers"].values())
        if isinstance(idx, slice):
            return type(self)(values[idx])
        return values[_abs_index(self, idx)]

    def __setitem__(self, idx: int, sublayer: Layer) -> None:
        setattr(self, str(_abs_index(self, idx)), sublayer)

    def __delitem__(self, idx: Any) -> None:
        items = list(self)
        del items[idx if isinstance(idx, slice) else _abs_index(self, idx)]
        _renumber(self, items)

    def __len__(self) -> int:
        return len(self.__dict__["_sub_layers"])

    def __iter__(self) -> Iterator[Layer]:
        return iter(self.__dict__["_sub_layers"].values())

    def __iadd__(self, layers: Iterable[Layer]) -> "LayerList":
        return self.extend(layers)

    def __add__(self, other: Iterable[Layer]) -> "LayerList":
        return LayerList(list(self) + list(other))

    def append(self, sublayer: Layer) -> "LayerList":
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer: Layer) -> None:
        items = list(self)
        items.insert(index, sublayer)
        _renumber(self, items)

    def extend(self, sublayers: Iterable[Layer]) -> "LayerList":
        for layer in sublayers:
            self.append(layer)
        return self

    def pop(self, idx: int = -1) -> Layer:
        items = list(self)
        layer = items.pop(_abs_index(self, idx))
        _renumber(self, items)
        return layer


class LayerDict(Layer):
    """An ordered dict of sublayers by name.

    Args:
        sublayers: a dict (or an iterable of (name, layer) pairs) to start with; None starts empty.

    Examples:
        >>> import padax
        >>> heads = padax.nn.LayerDict({"relu": padax.nn.ReLU(), "tanh": padax.nn.Tanh()})
        >>> list(heads.keys()), heads["relu"](padax.to_tensor([-1.0, 1.0])).tolist()
        (['relu', 'tanh'], [0.0, 1.0])
        >>> padax.nn.ModuleDict is padax.nn.LayerDict
        True
    """

    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self.__dict__["_sub_layers"][key]

    def __setitem__(self, key: str, sublayer: Layer) -> None:
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __len__(self) -> int:
        return len(self.__dict__["_sub_layers"])

    def __iter__(self) -> Iterator[str]:
        return iter(self.__dict__["_sub_layers"])

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__["_sub_layers"]

    def clear(self) -> None:
        self.__dict__["_sub_layers"].clear()
        self.__dict__["_aux"] = None

    def pop(self, key: str) -> Layer:
        layer = self[key]
        del self[key]
        return layer

    def keys(self):
        return self.__dict__["_sub_layers"].keys()

    def items(self):
        return self.__dict__["_sub_layers"].items()

    def values(self):
        return self.__dict__["_sub_layers"].values()

    def update(self, sublayers: Any) -> None:
        items = sublayers.items() if hasattr(sublayers, "items") else sublayers
        for i, kv in enumerate(items):
            if len(kv) != 2:
                raise ValueError(f"LayerDict.update: element {i} should have length 2, got {len(kv)}")
            self.add_sublayer(kv[0], kv[1])


class ParameterList(Layer):
    """A list of parameters, named '0', '1', ... (trainable unless created with ParamAttr(trainable=False)).

    Args:
        parameters: the parameters to start with; None starts empty.

    Examples:
        >>> import padax
        >>> params = padax.nn.ParameterList([padax.nn.Parameter(padax.ones([2])), padax.nn.Parameter(padax.zeros([3]))])
        >>> [p.shape for p in params], [name for name, _ in params.named_parameters()]
        ([(2,), (3,)], ['0', '1'])
    """

    def __init__(self, parameters: Iterable[Any] | None = None) -> None:
        super().__init__()
        for i, p in enumerate(parameters or ()):
            self.add_parameter(str(i), p)

    def __getitem__(self, idx: int) -> Any:
        return getattr(self, str(_abs_index(self, idx)))

    def __setitem__(self, idx: int, param: Any) -> None:
        setattr(self, str(_abs_index(self, idx)), param)

    def __len__(self) -> int:
        return len(self.__dict__["_parameters"])

    def __iter__(self) -> Iterator[Any]:
        return iter(getattr(self, n) for n in self.__dict__["_parameters"])

    def append(self, parameter: Any) -> "ParameterList":
        self.add_parameter(str(len(self)), parameter)
        return self


class ParameterDict(Layer):
    """Parameters by name (Paddle's ParameterDict): `pd['w']`, `pd.update(...)`, keys/values/items.

    Args:
        parameters: a dict (or an iterable of (name, parameter) pairs) to start with; None starts empty.

    Examples:
        >>> import padax
        >>> pd = padax.nn.ParameterDict({"w": padax.nn.Parameter(padax.ones([2, 2]))})
        >>> pd.update({"b": padax.nn.Parameter(padax.zeros([2]))})
        >>> pd.keys(), pd["w"].shape
        (['w', 'b'], (2, 2))
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, param: Any) -> None:
        self.add_parameter(key, param)

    def __len__(self) -> int:
        return len(self.__dict__["_parameters"])

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.__dict__["_parameters"]))

    def __contains__(self, key: str) -> bool:
        return key in self.__dict__["_parameters"]

    def keys(self) -> list[str]:
        return list(self.__dict__["_parameters"])

    def values(self) -> list[Any]:
        return [getattr(self, k) for k in self.keys()]

    def items(self) -> list[tuple[str, Any]]:
        return [(k, getattr(self, k)) for k in self.keys()]

    def update(self, parameters: Any) -> None:
        """Add (or replace) parameters from a mapping or an iterable of (name, parameter) pairs."""
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for key, param in items:
            self.add_parameter(str(key), param)
