"""`QuantConfig` (Paddle's `paddle.quantization.QuantConfig`): which quanter or observer each layer gets.

Priority, lowest first: the global config, the parent's config, `add_type_config`, `add_name_config`
(a layer's `full_name()`), `add_layer_config` (the layer object itself).
"""
from __future__ import annotations

from typing import Any

from padax import nn
from padax.quantization.layers import ObserveWrapper, QuantedConv2D, QuantedLinear

__all__ = ["QuantConfig", "SingleLayerConfig"]

DEFAULT_QAT_LAYER_MAPPINGS: dict = {nn.Linear: QuantedLinear, nn.Conv2D: QuantedConv2D}
DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


class SingleLayerConfig:
    """The activation and weight factories of one layer.

    Args:
        activation: the factory for activations (or None).
        weight: the factory for weights (or None).
    """

    def __init__(self, activation: Any, weight: Any):
        self._activation = activation
        self._weight = weight

    @property
    def activation(self) -> Any:
        return self._activation

    @property
    def weight(self) -> Any:
        return self._weight

    def __repr__(self) -> str:
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """How to quantize a model: global quanter factories and per-layer, per-name and per-type overrides.

    Args:
        activation: the factory used for activations (None: activations are not quantized).
        weight: the factory used for weights (None: weights are not quantized).

    Examples:
        >>> import padax
        >>> from padax.quantization import QuantConfig
        >>> from padax.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> config = QuantConfig(activation=q, weight=q)
        >>> config.add_type_config(padax.nn.Conv2D, activation=None, weight=None)
        >>> config.global_config.weight
        FakeQuanterWithAbsMaxObserver(name=None, moving_rate=0.9, bit_length=8, dtype='float32')
    """

    def __init__(self, activation: Any, weight: Any):
        self._global_config = None if activation is None and weight is None else SingleLayerConfig(activation,
                                                                                                      weight)
        self._layer2config: dict = {}
        self._prefix2config: dict = {}
        self._type2config: dict = {}
        self._model = None
        self._qat_layer_mapping = dict(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping: dict = {}
        self._customized_leaves: list = []
        self._layer_ids: dict = {}

    def add_layer_config(self, layer: Any, activation: Any = None, weight: Any = None) -> None:
        """Config for a layer object (or a list of them); the highest priority."""
        if isinstance(layer, (list, tuple)):
            for item in layer:
                self.add_layer_config(item, activation=activation, weight=weight)
            return
        self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name: Any, activation: Any = None, weight: Any = None) -> None:
        """Config for the layers whose `full_name()` is `layer_name` (or one of a list)."""
        if isinstance(layer_name, (list, tuple)):
            for item in layer_name:
                self.add_name_config(item, activation=activation, weight=weight)
            return
        self._prefix2config[str(layer_name)] = SingleLayerConfig(activation, weight)

    def add_type_config(self, layer_type: Any, activation: Any = None, weight: Any = None) -> None:
        """Config for every layer of type `layer_type` (or one of a list)."""
        if isinstance(layer_type, (list, tuple)):
            for item in layer_type:
                self.add_type_config(item, activation=activation, weight=weight)
            return
        if not (isinstance(layer_type, type) and issubclass(layer_type, nn.Layer)):
            raise TypeError(f"QuantConfig.add_type_config: expected a subclass of padax.nn.Layer, got {layer_type!r}")
        self._type2config[layer_type] = SingleLayerConfig(activation, weight)

    def add_qat_layer_mapping(self, source: type, target: type) -> None:
        """Quantize layers of type `source` as `target(layer, q_config)`."""
        for t, what in ((source, "source"), (target, "target")):
            if not (isinstance(t, type) and issubclass(t, nn.Layer)):
                raise TypeError(f"QuantConfig.add_qat_layer_mapping: {what} must be a Layer subclass, got {t!r}")
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type: type) -> None:
        """Treat layers of `layer_type` as leaves (observed as a whole, their sublayers not quantized)."""
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self) -> list:
        return self._customized_leaves

    @property
    def qat_layer_mappings(self) -> dict:
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self) -> dict:
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self) -> SingleLayerConfig | None:
        return self._global_config

    # -- used by PTQ / QAT ------------------------------------------------------------------------
    def _get_config_by_layer(self, layer: Any) -> SingleLayerConfig | None:
        return self._layer2config.get(id(layer))

    def _is_quantifiable(self, layer: Any) -> bool:
        return id(layer) in self._layer2config

    def _is_leaf(self, layer: Any) -> bool:
        return (type(layer) in DEFAULT_LEAVES or not layer.__dict__["_sub_layers"]
                or type(layer) in self._customized_leaves)

    def _need_observe(self, layer: Any) -> bool:
        config = self._get_config_by_layer(layer)
        return self._is_leaf(layer) and config is not None and config.activation is not None

    def _get_qat_layer(self, layer: Any) -> nn.Layer:
        return self._qat_layer_mapping[type(layer)](layer, self._get_config_by_layer(layer))

    def _get_observe_wrapper(self, layer: Any) -> ObserveWrapper:
        return ObserveWrapper(self._get_config_by_layer(layer).activation._instance(layer), layer)

    def _specify(self, model: nn.Layer) -> None:
        self._model = model
        self._layer2config = {}
        self._keep: list = []
        self._specify_helper(model)

    def _specify_helper(self, model: nn.Layer) -> None:
        for child in model.children():
            config = self._layer2config.get(id(model), self._global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[id(child)] = config
                self._keep.append(child)  # ids stay valid while the config is in use
            self._specify_helper(child)

    def details(self) -> str:
        """The config of each sublayer of the model last specified (else the settings)."""
        if self._model is None:
            return str(self)
        return self._details(self._model)

    def _details(self, layer: nn.Layer) -> str:
        lines = []
        for name, sub in layer.named_children():
            if id(sub) in self._layer2config:
                cfg = str(self._layer2config[id(sub)]).replace("\n", ", ")
                lines.append(f"({name}): {self._details(sub)}, {cfg}")
        return type(layer).__name__ + "(" + ("\n  " + "\n  ".join(lines) + "\n" if lines else "") + ")"

    def __str__(self) -> str:
        out = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            out += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            out += f"Layer prefix config: \n{self._prefix2config}\n"
        return out
