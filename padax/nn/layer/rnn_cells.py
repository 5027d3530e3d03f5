"""SimpleRNNCell, LSTMCell and GRUCell with Paddle's weight names, layouts, gate order and initializers.

weight_ih is [gates * hidden_size, input_size] and weight_hh [gates * hidden_size, hidden_size]
(LSTM gates i, f, g, o; GRU gates r, z, c with the reset gate applied after the hidden matmul),
all initialised Uniform(-1/sqrt(hidden_size), 1/sqrt(hidden_size)). A cell's step is split into
`project_inputs` (one matmul over every time step, done once before the scan) and `step`.
"""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.functional import creation, manipulation, math as M
from padax.functional._arrays import aval_of
from padax.functional.linalg_basic import matmul
from padax.nn import functional as F
from padax.nn.initializer import Constant, Uniform
from padax.nn.layer._calls import check_input
from padax.nn.layer.layers import Layer, config_ints


def _is_shape(s: Any) -> bool:
    return isinstance(s, (list, tuple)) and all(isinstance(v, int) for v in s)


class RNNCellBase(Layer):
    """Base of the recurrent cells: `get_initial_states` and the `state_shape` contract of Paddle.

    Args:
        name_scope, dtype: as Layer.

    Examples:
        >>> import padax
        >>> cell = padax.nn.LSTMCell(input_size=3, hidden_size=4)
        >>> isinstance(cell, padax.nn.RNNCellBase), cell.state_shape
        (True, ((4,), (4,)))
        >>> h, c = cell.get_initial_states(padax.ones([2, 3]))
        >>> h.shape, c.shape
        ((2, 4), (2, 4))
    """

    def get_initial_states(self, batch_ref: Any, shape: Any = None, dtype: Any = None, init_value: float = 0.0,
                           batch_dim_idx: int = 0) -> Any:
        """States filled with `init_value`, shaped [batch, *shape] for each shape in `shape` (default
        self.state_shape), the batch size read from `batch_ref` along `batch_dim_idx`."""
        ref = batch_ref
        while isinstance(ref, (list, tuple)):
            ref = ref[0]
        batch = aval_of(ref).shape[batch_dim_idx]
        dtype = dtype or self._state_dtype(ref)

        def build(s: Any) -> Any:
            if _is_shape(s):
                return creation.full([batch, *s], init_value, dtype)
            return type(s)(build(v) for v in s)

        return build(self.state_shape if shape is None else shape)

    def _state_dtype(self, ref: Any) -> Any:
        dt = aval_of(ref).dtype
        return dt if dtypes.is_floating(dt) else dtypes.default_float_dtype()

    @property
    def state_shape(self) -> Any:
        """The shape(s) of one sample's state, without the batch dimension."""
        raise AttributeError(f"{type(self).__name__} must define state_shape")

    @property
    def state_dtype(self) -> Any:
        return self._dtype


class _GatedCell(RNNCellBase):
    """A cell with Paddle's four parameters weight_ih, weight_hh, bias_ih, bias_hh over `gates` gates."""

    _gates = 1

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, hh_cols: int | None = None,
                 name: str | None = None) -> None:
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(f"{type(self).__name__}: hidden_size must be positive, got {hidden_size}")
        self.input_size, self.hidden_size = config_ints(self, input_size=input_size, hidden_size=hidden_size)
        std = 1.0 / self.hidden_size ** 0.5
        rows = self._gates * self.hidden_size
        specs = (("weight_ih", [rows, self.input_size], weight_ih_attr, False),
                 ("weight_hh", [rows, hh_cols or self.hidden_size], weight_hh_attr, False),
                 ("bias_ih", [rows], bias_ih_attr, True), ("bias_hh", [rows], bias_hh_attr, True))
        for pname, shape, attr, is_bias in specs:
            self._make_param(pname, shape, attr, is_bias, std)

    def _make_param(self, pname: str, shape: list[int], attr: Any, is_bias: bool, std: float) -> None:
        # Paddle: attr False gives a frozen constant (ones for weights, zeros for biases), not a missing parameter
        if attr is False:
            value = self.create_parameter(shape, is_bias=is_bias, default_initializer=Constant(0.0 if is_bias else 1.0))
        else:
            value = self.create_parameter(shape, attr=attr, is_bias=is_bias, default_initializer=Uniform(-std, std))
        setattr(self, pname, value)
        if attr is False:
            self.freeze(pname)

    def project_inputs(self, inputs: Any) -> Any:
        """inputs @ weight_ih^T + bias_ih for inputs [..., input_size] (all time steps at once)."""
        return M.add(matmul(inputs, self.weight_ih, transpose_y=True), self.bias_ih)

    def _hidden_gates(self, h: Any) -> Any:
        return M.add(matmul(h, self.weight_hh, transpose_y=True), self.bias_hh)

    def _check(self, inputs: Any) -> None:
        check_input(self, inputs, ndims=(2,), axis=-1, size=self.input_size, floating=True,
                    layout="[batch, input_size]")

    def forward(self, inputs: Any, states: Any = None) -> Any:
        self._check(inputs)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self.step(self.project_inputs(inputs), states)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(_GatedCell):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act 'tanh' or 'relu'; returns (h', h').

    Args:
        input_size, hidden_size: the feature sizes of x and h.
        activation: 'tanh' or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of the weights and biases
            (uniform in +-1/sqrt(hidden_size) by default); False gives a frozen constant (ones, or zero biases).

    Returns:
        cell(inputs, states=None): x [B, input_size], h [B, hidden_size] (None: zeros) -> (h', h').

    Examples:
        >>> import padax
        >>> c = padax.nn.initializer.Constant
        >>> cell = padax.nn.SimpleRNNCell(2, 3, weight_ih_attr=c(0.5), weight_hh_attr=c(0.0),
        ...                               bias_ih_attr=c(0.0), bias_hh_attr=c(0.0))
        >>> out, h = cell(padax.ones([1, 2]))
        >>> out.tolist(), cell.weight_ih.shape, cell.weight_hh.shape
        ([[0.7616, 0.7616, 0.7616]], (3, 2), (3, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh", weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNNCell: activation must be 'tanh' or 'relu', got {activation!r}")
        super().__init__(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation

    def step(self, projected: Any, states: Any) -> tuple[Any, Any]:
        """One step from the projected input x W_ih^T + b_ih."""
        pre = M.add(projected, self._hidden_gates(states))
        h = M.tanh(pre) if self.activation == "tanh" else F.relu(pre)
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", activation={self.activation}" if self.activation != "tanh" else "")


class LSTMCell(_GatedCell):
    """Long short-term memory with gates (i, f, g, o); with proj_size > 0, h is projected by weight_ho
    [hidden_size, proj_size]. Returns (h', (h', c')).

    Args:
        input_size, hidden_size: the feature sizes of x and the cell state.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of the weights and biases
            (uniform in +-1/sqrt(hidden_size) by default); False gives a frozen constant (ones, or zero biases).
        proj_size: > 0 projects h to this size.

    Returns:
        cell(inputs, states=None): x [B, input_size], (h, c) (None: zeros) -> (h', (h', c')).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> cell = padax.nn.LSTMCell(input_size=3, hidden_size=4)
        >>> cell.weight_ih.shape, cell.weight_hh.shape
        ((16, 3), (16, 4))
        >>> out, (h, c) = cell(padax.ones([2, 3]))
        >>> out.shape, h.shape, c.shape
        ((2, 4), (2, 4), (2, 4))
    """

    _gates = 4

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, proj_size: int = 0,
                 name: str | None = None) -> None:
        if proj_size < 0 or (proj_size and proj_size >= hidden_size):
            raise ValueError(f"LSTMCell: proj_size must be in [0, hidden_size), got {proj_size}")
        super().__init__(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         hh_cols=proj_size or None)
        self.proj_size = int(proj_size)
        if self.proj_size:
            std = 1.0 / self.hidden_size ** 0.5
            self._make_param("weight_ho", [self.hidden_size, self.proj_size], weight_hh_attr, False, std)

    def step(self, projected: Any, states: Any) -> tuple[Any, Any]:
        """One step from the projected input x W_ih^T + b_ih."""
        h_prev, c_prev = states
        gates = M.add(projected, self._hidden_gates(h_prev))
        i, f, g, o = manipulation.split(gates, 4, axis=-1)
        c = M.add(M.multiply(F.sigmoid(f), c_prev), M.multiply(F.sigmoid(i), M.tanh(g)))
        h = M.multiply(F.sigmoid(o), M.tanh(c))
        if self.proj_size:
            h = matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self) -> tuple[tuple[int], tuple[int]]:
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))


class GRUCell(_GatedCell):
    """Gated recurrent unit with gates (r, z, c): c = tanh(x_c + r * (h W_hc^T + b_hc)), h' = (h - c) * z + c.
    Returns (h', h').

    Args:
        input_size, hidden_size: the feature sizes of x and h.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of the weights and biases
            (uniform in +-1/sqrt(hidden_size) by default); False gives a frozen constant (ones, or zero biases).

    Returns:
        cell(inputs, states=None): x [B, input_size], h [B, hidden_size] (None: zeros) -> (h', h').

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> cell = padax.nn.GRUCell(input_size=3, hidden_size=4)
        >>> cell.weight_ih.shape, cell(padax.ones([2, 3]))[0].shape
        ((12, 3), (2, 4))
    """

    _gates = 3

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    def step(self, projected: Any, states: Any) -> tuple[Any, Any]:
        """One step from the projected input x W_ih^T + b_ih."""
        x_r, x_z, x_c = manipulation.split(projected, 3, axis=-1)
        h_r, h_z, h_c = manipulation.split(self._hidden_gates(states), 3, axis=-1)
        r = F.sigmoid(M.add(x_r, h_r))
        z = F.sigmoid(M.add(x_z, h_z))
        c = M.tanh(M.add(x_c, M.multiply(r, h_c)))
        h = M.add(M.multiply(M.subtract(states, c), z), c)
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)
