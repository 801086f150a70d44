"""Multi-layer, optionally bidirectional RNN / LSTM / GRU over whole sequences.

Per layer and direction, the input's contribution to every gate is one matrix product over
all time steps; the recurrence then runs as ``ops.scan`` over time: a Python loop eagerly,
one graph loop (``scan``) inside a compiled graph, so the graph does not grow with the
sequence and its backward pass is a loop too. ``seq_length`` gives each sequence its own
length: past it the state stops changing and the outputs are zeros, and the reverse
direction starts at each sequence's last valid step (PyTorch's packed sequences; MindSpore's
``seq_length``).

Parameters follow PyTorch's and MindSpore's names and layouts (``weight_ih_l0``,
``weight_hh_l0_reverse``, ...), held in the ParameterTuples ``w_ih_list``, ``w_hh_list``,
``b_ih_list``, ``b_hh_list`` as MindSpore does.
"""
from ... import dtype as dt
from ... import ops
from ..cell import Cell, ParameterTuple
from .. import _checks
from .rnn_cells import GATES, step_function, uniform_parameter

__all__ = ["RNN", "LSTM", "GRU"]


class _RNNBase(Cell):
    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, dtype=dt.float32):
        super().__init__()
        name = type(self).__name__
        self.input_size = _checks.positive_int(input_size, "input_size", name)
        self.hidden_size = _checks.positive_int(hidden_size, "hidden_size", name)
        self.num_layers = _checks.positive_int(num_layers, "num_layers", name)
        self.has_bias = _checks.boolean(has_bias, "has_bias", name)
        self.batch_first = _checks.boolean(batch_first, "batch_first", name)
        self.dropout = _checks.number(dropout, "dropout", name, 0.0, 1.0)
        self.bidirectional = _checks.boolean(bidirectional, "bidirectional", name)
        self.num_directions = 2 if self.bidirectional else 1
        gates = GATES[self._mode] * self.hidden_size
        lists = {"w_ih": [], "w_hh": [], "b_ih": [], "b_hh": []}
        for layer in range(self.num_layers):
            in_size = self.input_size if layer == 0 else self.hidden_size * self.num_directions
            for direction in range(self.num_directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = {"w_ih": (gates, in_size), "w_hh": (gates, self.hidden_size),
                          "b_ih": (gates,), "b_hh": (gates,)}
                for key in ("w_ih", "w_hh") + (("b_ih", "b_hh") if self.has_bias else ()):
                    full = {"w_ih": "weight_ih", "w_hh": "weight_hh", "b_ih": "bias_ih",
                            "b_hh": "bias_hh"}[key]
                    lists[key].append(uniform_parameter(shapes[key], self.hidden_size, dtype,
                                                        full + suffix))
        self.w_ih_list = ParameterTuple(lists["w_ih"])
        self.w_hh_list = ParameterTuple(lists["w_hh"])
        if self.has_bias:
            self.b_ih_list = ParameterTuple(lists["b_ih"])
            self.b_hh_list = ParameterTuple(lists["b_hh"])

    # ---- checks -----------------------------------------------------------------------
    def _states(self, hx, batch, dtype):
        n = 2 if self._mode == "LSTM" else 1
        shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        if hx is None:
            return tuple(ops.zeros(shape, dtype) for _ in range(n))
        states = tuple(hx) if n == 2 else (hx,)
        if n == 2 and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"{type(self).__name__}: hx must be a tuple (h_0, c_0)")
        for s in states:
            if tuple(s.shape) != shape:
                raise ValueError(f"{type(self).__name__}: the initial state must have shape "
                                 f"{shape}, got {tuple(s.shape)}")
        return tuple(ops.cast(s, dtype) for s in states)

    def _mask(self, seq_length, steps, batch):
        """(steps, batch, 1) bool: whether step t is inside sequence b."""
        lengths = ops.cast(seq_length, dt.int64)
        if tuple(lengths.shape) != (batch,):
            raise ValueError(f"{type(self).__name__}: seq_length must have shape ({batch},), "
                             f"got {tuple(lengths.shape)}")
        positions = ops.reshape(ops.arange(steps, dtype=dt.int64), (steps, 1, 1))
        return ops.lt(positions, ops.reshape(lengths, (1, batch, 1)))

    # ---- the recurrence ---------------------------------------------------------------
    def _direction(self, gx, state, w_hh, b_hh, mask, reverse):
        """Run one direction over (T, B, gates) input contributions: (final state, outputs)."""
        step = step_function(self._mode)
        w_hh_t = ops.transpose(w_hh)
        if mask is None:
            def body(carry, gx_t):
                new = step(gx_t, carry, w_hh_t, b_hh)
                return new, new[0]
            return ops.scan(body, state, gx, reverse=reverse)

        def masked_body(carry, inputs):
            gx_t, inside = inputs
            new = step(gx_t, carry, w_hh_t, b_hh)
            kept = tuple(ops.where(inside, n, c) for n, c in zip(new, carry))
            return kept, ops.where(inside, new[0], ops.zeros_like(new[0]))
        return ops.scan(masked_body, state, (gx, mask), reverse=reverse)

    def construct(self, x, hx=None, seq_length=None):
        name = type(self).__name__
        if x.ndim != 3 or x.shape[-1] != self.input_size:
            layout = "(batch, seq_len, input_size)" if self.batch_first else \
                "(seq_len, batch, input_size)"
            raise ValueError(f"{name}: expected an input of shape {layout} with input_size "
                             f"{self.input_size}, got {tuple(x.shape)}")
        if self.batch_first:
            x = ops.swapaxes(x, 0, 1)
        steps, batch = x.shape[0], x.shape[1]
        states = self._states(hx, batch, x.dtype)
        mask = None if seq_length is None else self._mask(seq_length, steps, batch)
        finals = [[] for _ in states]
        layer_input = x
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(self.num_directions):
                k = layer * self.num_directions + direction
                b_ih = self.b_ih_list[k] if self.has_bias else None
                b_hh = self.b_hh_list[k] if self.has_bias else None
                gx = ops.dense(layer_input, self.w_ih_list[k], b_ih)
                final, ys = self._direction(gx, tuple(s[k] for s in states),
                                            self.w_hh_list[k], b_hh, mask, direction == 1)
                outputs.append(ys)
                for store, value in zip(finals, final):
                    store.append(value)
            layer_input = outputs[0] if len(outputs) == 1 else ops.concat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = ops.dropout(layer_input, p=self.dropout)
        output = ops.swapaxes(layer_input, 0, 1) if self.batch_first else layer_input
        final_states = tuple(ops.stack(store, 0) for store in finals)
        return output, (final_states if self._mode == "LSTM" else final_states[0])

    def extend_repr(self):
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, "
                f"num_layers={self.num_layers}, has_bias={self.has_bias}, "
                f"batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


class RNN(_RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu).
    Returns ``(output, h_n)``."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh",
                 has_bias=True, batch_first=False, dropout=0.0, bidirectional=False,
                 dtype=dt.float32):
        self._mode = "RNN_" + _checks.one_of(nonlinearity, ("tanh", "relu"), "nonlinearity",
                                             "RNN").upper()
        super().__init__(input_size, hidden_size, num_layers, has_bias, batch_first, dropout,
                         bidirectional, dtype)
        self.nonlinearity = nonlinearity


class LSTM(_RNNBase):
    """Long short-term memory. Returns ``(output, (h_n, c_n))``."""
    _mode = "LSTM"


class GRU(_RNNBase):
    """Gated recurrent unit. Returns ``(output, h_n)``."""
    _mode = "GRU"
