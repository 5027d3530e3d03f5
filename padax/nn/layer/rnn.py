"""RNN, BiRNN and the multi-layer SimpleRNN / LSTM / GRU, built on padax.lax.scan (one scan per layer and
direction, so a model jits to a loop rather than an unrolled graph).

The layouts follow Paddle: inputs [batch, time, features] (time_major: [time, batch, features]); final
states [num_layers * num_directions, batch, hidden] ordered layer by layer, forward before backward;
`sequence_length` masks the steps past each sequence's end (states are carried unchanged over them, so a
reversed direction starts at each sequence's own last step). state_dict has Paddle's keys: the cell names
(`0.cell.weight_ih`, `1.cell_bw.bias_hh`, ...) and the flat aliases (`weight_ih_l0`, `bias_hh_l1_reverse`).
"""
from __future__ import annotations

from typing import Any

from padax import tree as tree_util
from padax.functional import creation, manipulation, math as M
from padax.functional._arrays import aval_of
from padax.functional.lax.control import scan
from padax.nn import functional as F
from padax.nn.layer._calls import check_input
from padax.nn.layer.container import LayerList
from padax.nn.layer.layers import Layer, config_ints
from padax.nn.layer.rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, _GatedCell

_BIDIRECTIONAL = ("bidirect", "bidirectional")


def _time_mask(sequence_length: Any, steps: int, dtype: Any) -> Any:
    """[time, batch, 1] with 1 where t < sequence_length[b]."""
    t = creation.arange(steps, dtype="int64")
    lengths = M.cast(sequence_length, "int64")
    mask = manipulation.unsqueeze(t, 1) < manipulation.unsqueeze(lengths, 0)
    return manipulation.unsqueeze(M.cast(mask, dtype), -1)


def run_rnn(cell: Layer, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
            time_major: bool = False, is_reverse: bool = False, zero_padded_outputs: bool = False,
            **kwargs: Any) -> tuple[Any, Any]:
    """Run `cell` over the time axis of `inputs` with one scan; returns (outputs, final states)."""
    x = manipulation.transpose(inputs, [1, 0, 2]) if not time_major else inputs
    steps = aval_of(x).shape[0]
    if initial_states is None:
        initial_states = cell.get_initial_states(x, batch_dim_idx=1)
    fast = isinstance(cell, _GatedCell) and not kwargs
    xs = cell.project_inputs(x) if fast else x  # the input matmul for all steps at once
    mask = None if sequence_length is None else _time_mask(sequence_length, steps, aval_of(x).dtype)

    def step(states: Any, slices: Any) -> tuple[Any, Any]:
        x_t, m_t = slices
        out, new = cell.step(x_t, states) if fast else cell(x_t, states, **kwargs)
        if m_t is not None:
            keep = m_t > 0
            new = tree_util.map(lambda n, o: M.where(keep, n, o), new, states)
            if zero_padded_outputs:
                out = M.multiply(out, m_t)
        return new, out

    final, outs = scan(step, initial_states, (xs, mask), reverse=is_reverse)
    if not time_major:
        outs = manipulation.transpose(outs, [1, 0, 2])
    return outs, final


class RNN(Layer):
    """Runs a cell over a sequence: forward(inputs, initial_states=None, sequence_length=None) ->
    (outputs, final_states); `is_reverse` runs from the last step to the first.

    Args:
        cell: a cell layer (SimpleRNNCell, LSTMCell, GRUCell or your own RNNCellBase).
        is_reverse: run from the last step to the first.
        time_major: inputs [time, batch, ...] instead of [batch, time, ...].

    Returns:
        layer(inputs, initial_states=None, sequence_length=None): -> (outputs stacked over time, final states).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> rnn = padax.nn.RNN(padax.nn.GRUCell(3, 4))
        >>> outputs, final = rnn(padax.ones([2, 5, 3]))  # [batch, time, features]
        >>> outputs.shape, final.shape
        ((2, 5, 4), (2, 4))
        >>> bool((outputs[:, -1] == final).all())
        True
    """

    def __init__(self, cell: Layer, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell = cell
        self.is_reverse, self.time_major = bool(is_reverse), bool(time_major)
        self._zero_padded_outputs = False

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> tuple[Any, Any]:
        check_input(self, inputs, ndims=(3,), layout="[time, batch, features]" if self.time_major
                    else "[batch, time, features]")
        size = getattr(self.cell, "input_size", None)
        if size is not None:
            check_input(self, inputs, axis=-1, size=size, floating=True)
        return run_rnn(self.cell, inputs, initial_states, sequence_length, self.time_major, self.is_reverse,
                       self._zero_padded_outputs, **kwargs)


class BiRNN(Layer):
    """A forward and a backward cell over the same sequence; outputs concatenated on the feature axis,
    final states (forward's, backward's).

    Args:
        cell_fw, cell_bw: the forward and the backward cell.
        time_major: inputs [time, batch, ...] instead of [batch, time, ...].

    Returns:
        layer(inputs, initial_states=None, sequence_length=None): -> (outputs with both directions' features,
        (fw state, bw state)).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> birnn = padax.nn.BiRNN(padax.nn.SimpleRNNCell(3, 4), padax.nn.SimpleRNNCell(3, 4))
        >>> outputs, (h_fw, h_bw) = birnn(padax.ones([2, 5, 3]))
        >>> outputs.shape, h_fw.shape, h_bw.shape
        ((2, 5, 8), (2, 4), (2, 4))
    """

    def __init__(self, cell_fw: Layer, cell_bw: Layer, time_major: bool = False) -> None:
        super().__init__()
        if getattr(cell_fw, "input_size", None) != getattr(cell_bw, "input_size", None):
            raise ValueError("BiRNN: cell_fw and cell_bw must have the same input_size")
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        self.time_major = bool(time_major)
        self._zero_padded_outputs = False

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> tuple[Any, tuple[Any, Any]]:
        check_input(self, inputs, ndims=(3,), floating=True)
        size = getattr(self.cell_fw, "input_size", None)
        if size is not None:
            check_input(self, inputs, axis=-1, size=size)
        if initial_states is None:
            initial_states = (None, None)
        elif not isinstance(initial_states, (list, tuple)) or len(initial_states) != 2:
            raise ValueError("BiRNN: initial_states must be (states_fw, states_bw)")
        out_fw, st_fw = run_rnn(self.cell_fw, inputs, initial_states[0], sequence_length, self.time_major, False,
                                self._zero_padded_outputs, **kwargs)
        out_bw, st_bw = run_rnn(self.cell_bw, inputs, initial_states[1], sequence_length, self.time_major, True,
                                self._zero_padded_outputs, **kwargs)
        return manipulation.concat([out_fw, out_bw], axis=-1), (st_fw, st_bw)


class RNNBase(LayerList):
    """The multi-layer recurrent networks (Paddle's RNNBase): a LayerList of RNN or BiRNN layers.

    Args:
        mode: 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU' (the subclasses SimpleRNN, LSTM and GRU set it).
        direction: 'forward', or 'bidirect' / 'bidirectional' (outputs of both directions concatenated).
        time_major: inputs [time, batch, features] instead of [batch, time, features].
        dropout: the dropout rate between stacked layers in training mode.

    forward(inputs, initial_states=None, sequence_length=None) returns (outputs, final_states); the
    final states are [num_layers * num_directions, batch, hidden] (a pair (h, c) for LSTM).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> gru = padax.nn.GRU(3, 4, num_layers=2)
        >>> isinstance(gru, padax.nn.RNNBase), len(gru), type(gru[0]).__name__
        (True, 2, 'RNN')
    """

    _mode = "LSTM"

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, proj_size: int = 0) -> None:
        super().__init__()
        cls = type(self).__name__
        if direction not in ("forward",) + _BIDIRECTIONAL:
            raise ValueError(f"{cls}: direction must be 'forward' or 'bidirect' (or 'bidirectional'), "
                             f"got {direction!r}")
        if num_layers < 1:
            raise ValueError(f"{cls}: num_layers must be >= 1, got {num_layers}")
        if not 0.0 <= dropout < 1.0:
            raise ValueError(f"{cls}: dropout must be in [0, 1), got {dropout}")
        self.mode = mode
        self.input_size, self.hidden_size, self.num_layers = config_ints(self, input_size=input_size,
                                                                         hidden_size=hidden_size, num_layers=num_layers)
        self.time_major, self.dropout = bool(time_major), float(dropout)
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = int(proj_size)
        self._bias_flags = (bias_ih_attr is not False, bias_hh_attr is not False)
        kw: dict[str, Any] = dict(weight_ih_attr=weight_ih_attr, weight_hh_attr=weight_hh_attr,
                                  bias_ih_attr=bias_ih_attr, bias_hh_attr=bias_hh_attr)
        if mode == "LSTM":
            make = lambda i: LSTMCell(i, hidden_size, proj_size=proj_size, **kw)  # noqa: E731
        elif mode == "GRU":
            make = lambda i: GRUCell(i, hidden_size, **kw)  # noqa: E731
        else:
            act = "relu" if mode == "RNN_RELU" else "tanh"
            make = lambda i: SimpleRNNCell(i, hidden_size, act, **kw)  # noqa: E731
        out_size = self.proj_size or self.hidden_size
        for layer in range(self.num_layers):
            in_size = self.input_size if layer == 0 else out_size * self.num_directions
            if self.num_directions == 2:
                sub: Layer = BiRNN(make(in_size), make(in_size), time_major)
            else:
                sub = RNN(make(in_size), False, time_major)
            # Paddle's fused rnn kernel (used without proj_size) zeroes the padded steps' outputs; its
            # step-by-step path (with proj_size) leaves them as the cell computed them
            sub._zero_padded_outputs = self.proj_size == 0
            self.append(sub)

    def _state_aliases(self) -> list[tuple[str, str]]:
        """Paddle's flat names (weight_ih_l0, ..., bias_hh_l1_reverse) zipped with the cells' parameters
        in order, as Paddle's RNNBase does (so the keys match Paddle's state_dict exactly)."""
        names = []
        for layer in range(self.num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names += [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                names += [f"bias_ih_l{layer}{suffix}"] if self._bias_flags[0] else []
                names += [f"bias_hh_l{layer}{suffix}"] if self._bias_flags[1] else []
        return list(zip(names, (n for n, _ in self.named_parameters())))

    def _split_states(self, states: Any, batch: int, dtype: Any) -> list[Any]:
        """Per (layer, direction) states from the stacked [num_layers * num_directions, batch, hidden] ones."""
        n = self.num_layers * self.num_directions
        if states is None:
            sizes = (self.proj_size or self.hidden_size, self.hidden_size)[:self.state_components]
            states = tuple(creation.zeros([n, batch, s], dtype) for s in sizes)
        elif self.state_components == 1:
            states = (states[0] if isinstance(states, (list, tuple)) else states,)
        else:
            states = tuple(states)
        for s in states:
            if aval_of(s).ndim != 3 or aval_of(s).shape[:2] != (n, batch):
                raise ValueError(f"{type(self).__name__}: initial states must be [{n}, {batch}, hidden], got "
                                 f"{list(aval_of(s).shape)}")
        per = [[s[i] for s in states] for i in range(n)]
        per = [p[0] if self.state_components == 1 else tuple(p) for p in per]
        if self.num_directions == 2:
            return [(per[2 * i], per[2 * i + 1]) for i in range(self.num_layers)]
        return per

    def _stack_states(self, finals: list[Any]) -> Any:
        flat = [s for f in finals for s in (f if self.num_directions == 2 else (f,))]
        if self.state_components == 1:
            return manipulation.stack(flat, 0)
        return tuple(manipulation.stack([f[k] for f in flat], 0) for k in range(self.state_components))

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None) -> tuple[Any, Any]:
        check_input(self, inputs, ndims=(3,), floating=True,
                    layout="[time, batch, features]" if self.time_major else "[batch, time, features]")
        check_input(self, inputs, axis=-1, size=self.input_size, layout="input_size")
        batch = aval_of(inputs).shape[1 if self.time_major else 0]
        states = self._split_states(initial_states, batch, aval_of(inputs).dtype)
        finals, x = [], inputs
        for i, layer in enumerate(self):
            if i > 0 and self.dropout > 0:
                x = F.dropout(x, self.dropout, training=self.training, mode="upscale_in_train")
            x, final = layer(x, states[i], sequence_length)
            finals.append(final)
        return x, self._stack_states(finals)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major:
            s += f", time_major={self.time_major}"
        if self.dropout:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """Multi-layer Elman RNN (activation 'tanh' or 'relu').

    Args:
        input_size, hidden_size: the feature sizes of the input and of the hidden state.
        num_layers: the number of stacked layers.
        direction: 'forward', or 'bidirect' / 'bidirectional' (both directions, outputs concatenated).
        time_major: inputs [time, batch, features] instead of [batch, time, features].
        dropout: the dropout rate between stacked layers in training mode.
        activation: 'tanh' or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of each cell's parameters.

    Returns:
        layer(inputs, initial_states=None, sequence_length=None): inputs [B, T, input_size] -> (outputs
        [B, T, hidden_size * num_directions], final states h [num_layers * num_directions, B, hidden_size]).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> rnn = padax.nn.SimpleRNN(input_size=3, hidden_size=4, num_layers=2)
        >>> outputs, h = rnn(padax.ones([2, 5, 3]))  # [batch, time, features]
        >>> outputs.shape, h.shape
        ((2, 5, 4), (2, 2, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh",
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, name: str | None = None) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNN: activation must be 'tanh' or 'relu', got {activation!r}")
        mode = "RNN_TANH" if activation == "tanh" else "RNN_RELU"
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation


class LSTM(RNNBase):
    """Multi-layer LSTM; states are (h, c); proj_size > 0 projects h to proj_size.

    Args:
        input_size, hidden_size: the feature sizes of the input and of the hidden state.
        num_layers: the number of stacked layers.
        direction: 'forward', or 'bidirect' / 'bidirectional' (both directions, outputs concatenated).
        time_major: inputs [time, batch, features] instead of [batch, time, features].
        dropout: the dropout rate between stacked layers in training mode.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of each cell's parameters.
        proj_size: > 0 projects h to this size (outputs and h then have proj_size features).

    Returns:
        layer(inputs, initial_states=None, sequence_length=None): inputs [B, T, input_size] -> (outputs
        [B, T, hidden_size * num_directions], final states (h, c), each [num_layers * num_directions, B, ...]).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> lstm = padax.nn.LSTM(input_size=3, hidden_size=4, direction="bidirect")
        >>> outputs, (h, c) = lstm(padax.ones([2, 5, 3]))
        >>> outputs.shape, h.shape, c.shape
        ((2, 5, 8), (2, 2, 4), (2, 2, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 proj_size: int = 0, name: str | None = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size)


class GRU(RNNBase):
    """Multi-layer GRU.

    Args:
        input_size, hidden_size: the feature sizes of the input and of the hidden state.
        num_layers: the number of stacked layers.
        direction: 'forward', or 'bidirect' / 'bidirectional' (both directions, outputs concatenated).
        time_major: inputs [time, batch, features] instead of [batch, time, features].
        dropout: the dropout rate between stacked layers in training mode.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr or initializer of each cell's parameters.

    Returns:
        layer(inputs, initial_states=None, sequence_length=None): inputs [B, T, input_size] -> (outputs
        [B, T, hidden_size * num_directions], final states h [num_layers * num_directions, B, hidden_size]).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> gru = padax.nn.GRU(input_size=3, hidden_size=4, time_major=True)
        >>> outputs, h = gru(padax.ones([5, 2, 3]))  # [time, batch, features]
        >>> outputs.shape, h.shape
        ((5, 2, 4), (1, 2, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
