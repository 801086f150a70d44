"""Dense, Flatten, Identity, Dropout (elementwise and per channel) and Unfold."""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer, HeUniform, Uniform
from .. import _checks
from .activation import get_activation

__all__ = ["Dense", "Flatten", "Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
           "Unfold"]


def _check_init_shape(init, shape, name, layer):
    if isinstance(init, Tensor) and tuple(init.shape) != tuple(shape):
        raise ValueError(f"{layer}: {name} has shape {tuple(init.shape)}, expected "
                         f"{tuple(shape)}")


class Dense(Cell):
    """``y = activation(x @ weight.T + bias)``; weight has shape (out_channels, in_channels).

    Default init (MindSpore 2.x): weight HeUniform(sqrt(5)), bias U(-1/sqrt(in), 1/sqrt(in)).
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=dt.float32):
        super().__init__()
        self.in_channels = _checks.positive_int(in_channels, "in_channels", "Dense")
        self.out_channels = _checks.positive_int(out_channels, "out_channels", "Dense")
        self.has_bias = _checks.boolean(has_bias, "has_bias", "Dense")
        weight_shape = (self.out_channels, self.in_channels)
        _check_init_shape(weight_init, weight_shape, "weight_init", "Dense")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, weight_shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            _check_init_shape(bias_init, (self.out_channels,), "bias_init", "Dense")
            if bias_init is None:
                bias_init = Uniform(1.0 / math.sqrt(self.in_channels))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")
        if isinstance(activation, str):
            activation = get_activation(activation, "Dense")
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"Dense: activation must be a str, a Cell or None, got "
                            f"{type(activation).__name__}")
        self.activation = activation
        self.activation_flag = activation is not None

    def construct(self, x):
        if x.ndim == 0 or x.shape[-1] != self.in_channels:
            raise ValueError(f"Dense: the last axis of the input must have size "
                             f"{self.in_channels}, got input shape {tuple(x.shape)}")
        out = ops.dense(x, self.weight, self.bias)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def extend_repr(self):
        text = (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"has_bias={self.has_bias}")
        if self.activation_flag:
            text += f", activation={self.activation!r}"
        return text


class Flatten(Cell):
    """Flatten the axes ``start_dim..end_dim`` into one (the batch axis stays by default)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        for name, value in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Flatten: '{name}' must be an int, got {value!r}")
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Identity(Cell):
    """Returns its input. Constructor arguments are accepted and ignored (MindSpore 2.10's
    ``nn.Identity``, the same class as ``mint.nn.Identity``, does so as PyTorch's).

    >>> import tensorjit as ms
    >>> ms.nn.Identity(54, unused="argument")(ms.Tensor([1., 2.])).asnumpy().tolist()
    [1.0, 2.0]
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


class Dropout(Cell):
    """Zero each element with probability ``p`` in training mode, scaling the rest by
    1/(1-p); the identity in inference mode. ``keep_prob`` (deprecated in MindSpore 2.x)
    is 1 - p; when both are given ``p`` wins."""

    def __init__(self, keep_prob=None, p=None, dtype=dt.float32):
        super().__init__()
        if p is not None:
            p = _checks.number(p, "p", "Dropout", 0.0, 1.0, high_open=True)
        elif keep_prob is not None:
            keep_prob = _checks.number(keep_prob, "keep_prob", "Dropout", 0.0, 1.0,
                                       low_open=True)
            p = 1.0 - keep_prob
        else:
            p = 0.5
        self.p = p
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return ops.dropout(x, p=self.p, training=True)

    def extend_repr(self):
        return f"p={self.p}"


class _ChannelDropout(Cell):
    """Zero whole channels (axis 1, or 0 for an unbatched input) with probability ``p`` in
    training mode, scaling the kept ones by 1/(1-p); the identity in inference mode."""
    _function = None

    def __init__(self, p=0.5):
        super().__init__()
        self.p = _checks.number(p, "p", type(self).__name__, 0.0, 1.0)

    def construct(self, x):
        if not self.training:
            return x
        return type(self)._function(x, self.p, True)

    def extend_repr(self):
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    _function = staticmethod(ops.dropout1d)


class Dropout2d(_ChannelDropout):
    _function = staticmethod(ops.dropout2d)


class Dropout3d(_ChannelDropout):
    _function = staticmethod(ops.dropout3d)


class Unfold(Cell):
    """Extract ``ksizes`` patches ([1, kh, kw, 1]) every ``strides`` ([1, sh, sw, 1]) with
    dilation ``rates`` ([1, rh, rw, 1]) from an NCHW input: (N, kh*kw*C, OH, OW), the
    channel fastest (MindSpore's ``nn.Unfold``; ``padding`` 'same' or 'valid')."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        for name, value in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if not (isinstance(value, (tuple, list)) and len(value) == 4
                    and value[0] == value[3] == 1
                    and all(isinstance(v, int) and v >= 1 for v in value)):
                raise ValueError(f"Unfold: '{name}' must be [1, h, w, 1] with positive ints, "
                                 f"got {value!r}")
        self.ksizes, self.strides, self.rates = tuple(ksizes), tuple(strides), tuple(rates)
        self.padding = _checks.one_of(padding, ("same", "valid"), "padding", "Unfold")

    def construct(self, input_x):
        return ops.extract_patches(input_x, self.ksizes, self.strides, self.rates,
                                   self.padding)
