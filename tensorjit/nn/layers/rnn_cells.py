"""One step of the recurrent cells (Elman RNN, LSTM, GRU) and the RNNCell / LSTMCell /
GRUCell layers. The multi-layer RNN / LSTM / GRU (``rnns.py``) run the same step functions
in a loop.

A step takes ``gx``, the input's contribution ``x @ W_ih.T + b_ih`` (computed for all time
steps at once by the multi-layer layers), the state, and the hidden-to-hidden weights
already transposed. Gate order and weight layout are PyTorch's and MindSpore's: LSTM
(input, forget, cell, output), GRU (reset, update, new).
"""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Parameter
from ..cell import Cell
from ..initializer import initializer, Uniform
from .. import _checks

__all__ = ["RNNCell", "LSTMCell", "GRUCell", "GATES", "step_function"]

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _hidden(h, w_hh_t, b_hh):
    gh = ops.matmul(h, w_hh_t)
    return gh if b_hh is None else gh + b_hh


def rnn_tanh_step(gx, state, w_hh_t, b_hh):
    return (ops.tanh(gx + _hidden(state[0], w_hh_t, b_hh)),)


def rnn_relu_step(gx, state, w_hh_t, b_hh):
    return (ops.relu(gx + _hidden(state[0], w_hh_t, b_hh)),)


def lstm_step(gx, state, w_hh_t, b_hh):
    h, c = state
    i, f, g, o = ops.split(gx + _hidden(h, w_hh_t, b_hh), h.shape[-1], -1)
    c = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
    return ops.sigmoid(o) * ops.tanh(c), c


def gru_step(gx, state, w_hh_t, b_hh):
    h = state[0]
    size = h.shape[-1]
    xr, xz, xn = ops.split(gx, size, -1)
    hr, hz, hn = ops.split(_hidden(h, w_hh_t, b_hh), size, -1)
    r = ops.sigmoid(xr + hr)
    z = ops.sigmoid(xz + hz)
    n = ops.tanh(xn + r * hn)
    return ((1.0 - z) * n + z * h,)


_STEPS = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step,
          "GRU": gru_step}


def step_function(mode):
    return _STEPS[mode]


def uniform_parameter(shape, hidden_size, dtype, name):
    """PyTorch's and MindSpore's recurrent init: U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    return Parameter(initializer(Uniform(1.0 / math.sqrt(hidden_size)), shape, dtype),
                     name=name)


class _RNNCellBase(Cell):
    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=dt.float32):
        super().__init__()
        name = type(self).__name__
        self.input_size = _checks.positive_int(input_size, "input_size", name)
        self.hidden_size = _checks.positive_int(hidden_size, "hidden_size", name)
        self.has_bias = _checks.boolean(has_bias, "has_bias", name)
        gates = GATES[self._mode] * self.hidden_size
        self.weight_ih = uniform_parameter((gates, self.input_size), self.hidden_size, dtype,
                                           "weight_ih")
        self.weight_hh = uniform_parameter((gates, self.hidden_size), self.hidden_size, dtype,
                                           "weight_hh")
        if self.has_bias:
            self.bias_ih = uniform_parameter((gates,), self.hidden_size, dtype, "bias_ih")
            self.bias_hh = uniform_parameter((gates,), self.hidden_size, dtype, "bias_hh")
        else:
            self.bias_ih = self.bias_hh = None

    def _check(self, x, state):
        name = type(self).__name__
        if x.ndim not in (1, 2) or x.shape[-1] != self.input_size:
            raise ValueError(f"{name}: expected an input of shape (batch, {self.input_size}) "
                             f"or ({self.input_size},), got {tuple(x.shape)}")
        for h in state:
            if tuple(h.shape) != tuple(x.shape[:-1]) + (self.hidden_size,):
                raise ValueError(f"{name}: the hidden state must have shape "
                                 f"{tuple(x.shape[:-1]) + (self.hidden_size,)} for an input "
                                 f"of shape {tuple(x.shape)}, got {tuple(h.shape)}")

    def _step(self, x, state):
        self._check(x, state)
        gx = ops.dense(x, self.weight_ih, self.bias_ih)
        return step_function(self._mode)(gx, state, ops.transpose(self.weight_hh),
                                         self.bias_hh)

    def extend_repr(self):
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, "
                f"has_bias={self.has_bias}")


class RNNCell(_RNNCellBase):
    """``h' = tanh(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)`` (or relu: ``nonlinearity``)."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh",
                 dtype=dt.float32):
        self._mode = "RNN_" + _checks.one_of(nonlinearity, ("tanh", "relu"), "nonlinearity",
                                             "RNNCell").upper()
        super().__init__(input_size, hidden_size, has_bias, dtype)
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        return self._step(x, (hx,))[0]


class LSTMCell(_RNNCellBase):
    """One LSTM step: ``(h', c') = LSTMCell(x, (h, c))``."""
    _mode = "LSTM"

    def construct(self, x, hx):
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise TypeError("LSTMCell: hx must be a tuple (h, c)")
        return self._step(x, tuple(hx))


class GRUCell(_RNNCellBase):
    """One GRU step: ``h' = GRUCell(x, h)``."""
    _mode = "GRU"

    def construct(self, x, hx):
        return self._step(x, (hx,))[0]
