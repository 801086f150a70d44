"""Layers made of other layers, as MindSpore's: ``BiDense`` (a bilinear layer),
``Conv2dBnAct`` / ``DenseBnAct`` (a convolution or dense layer, optionally followed by batch
normalisation and an activation) and ``TimeDistributed`` (a layer applied to every step of a
time axis)."""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer, Uniform
from .. import _checks
from .activation import get_activation, LeakyReLU
from .basic import Dense
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d

__all__ = ["BiDense", "Conv2dBnAct", "DenseBnAct", "TimeDistributed"]


class BiDense(Cell):
    """``y_k = x1^T W_k x2 + b_k`` with weight (out_channels, in1_channels, in2_channels);
    the inputs share every axis but the last."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=dt.float32):
        super().__init__()
        name = "BiDense"
        self.in1_channels = _checks.positive_int(in1_channels, "in1_channels", name)
        self.in2_channels = _checks.positive_int(in2_channels, "in2_channels", name)
        self.out_channels = _checks.positive_int(out_channels, "out_channels", name)
        self.has_bias = _checks.boolean(has_bias, "has_bias", name)
        bound = 1 / math.sqrt(in1_channels)
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"BiDense: weight_init must have shape {shape}, got "
                             f"{tuple(weight_init.shape)}")
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None
                                            else weight_init, shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"BiDense: bias_init must have shape ({out_channels},), got "
                                 f"{tuple(bias_init.shape)}")
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None
                                              else bias_init, (out_channels,), dtype),
                                  name="bias")

    def construct(self, input1, input2):
        for x, channels, name in ((input1, self.in1_channels, "input1"),
                                  (input2, self.in2_channels, "input2")):
            if not isinstance(x, Tensor):
                raise TypeError(f"BiDense: '{name}' must be a Tensor, got {type(x).__name__}")
            if x.shape[-1] != channels:
                raise ValueError(f"BiDense: the last axis of '{name}' must be {channels}, got "
                                 f"shape {tuple(x.shape)}")
        if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
            raise ValueError(f"BiDense: the inputs must share every axis but the last, got "
                             f"{tuple(input1.shape)} and {tuple(input2.shape)}")
        lead = tuple(input1.shape[:-1])
        x1 = ops.reshape(input1, (-1, self.in1_channels))
        x2 = ops.reshape(input2, (-1, self.in2_channels))
        # (B, in1) @ (in1, out * in2) -> (B, out, in2), then contract with x2
        weight = ops.reshape(ops.transpose(self.weight, (1, 0, 2)), (self.in1_channels, -1))
        mixed = ops.reshape(ops.matmul(x1, weight), (-1, self.out_channels, self.in2_channels))
        out = ops.reduce_sum(ops.mul(mixed, ops.expand_dims(x2, 1)), 2)
        if self.bias is not None:
            out = ops.add(out, self.bias)
        return ops.reshape(out, lead + (self.out_channels,))

    def extend_repr(self):
        return (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
                f"output_channels={self.out_channels}, has_bias={self.has_bias}")


def _activation(activation, alpha, who):
    if activation is None:
        return None
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    cell = get_activation(activation) if isinstance(activation, str) else activation
    if not isinstance(cell, Cell):
        raise TypeError(f"{who}: 'activation' must be a str or a Cell, got "
                        f"{type(activation).__name__}")
    return cell


class Conv2dBnAct(Cell):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                           dilation, group, has_bias, weight_init, bias_init)
        self.has_bn = _checks.boolean(has_bn, "has_bn", "Conv2dBnAct")
        self.after_fake = _checks.boolean(after_fake, "after_fake", "Conv2dBnAct")
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, "Conv2dBnAct")
        self.has_act = self.activation is not None

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class DenseBnAct(Cell):
    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _checks.boolean(has_bn, "has_bn", "DenseBnAct")
        self.after_fake = _checks.boolean(after_fake, "after_fake", "DenseBnAct")
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, "DenseBnAct")
        self.has_act = self.activation is not None

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class TimeDistributed(Cell):
    """``layer`` applied to each slice of the input along ``time_axis`` (results stacked
    on that axis); with ``reshape_with_axis`` the time axis is merged into that axis
    instead, ``layer`` runs once and the result is split back."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, Cell):
            raise TypeError(f"TimeDistributed: 'layer' must be a Cell, got "
                            f"{type(layer).__name__}")
        super().__init__()
        for name, value in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"TimeDistributed: '{name}' must be an int, got {value!r}")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor):
            raise TypeError("TimeDistributed: the input must be a Tensor")
        if inputs.ndim < 3:
            raise ValueError(f"TimeDistributed: the input must be at least 3-D, got "
                             f"{inputs.ndim}-D")
        ndim = inputs.ndim
        time_axis = self.time_axis % ndim
        if self.reshape_with_axis is None:
            steps = [self.layer(x) for x in ops.unstack(inputs, time_axis)]
            if time_axis > steps[0].ndim:
                raise ValueError(f"TimeDistributed: time_axis {self.time_axis} is out of range "
                                 f"for the layer's {steps[0].ndim}-D outputs")
            return ops.stack(steps, time_axis)
        merge_axis = self.reshape_with_axis % ndim
        # move the time axis next to the merge axis, merge, run, split
        beside = ndim - 2 if merge_axis == ndim - 1 else (
            merge_axis + 1 if time_axis > merge_axis else merge_axis - 1)
        first = min(beside, merge_axis)
        low, high = sorted((beside, time_axis))
        perm = tuple(range(low)) + (high,) + tuple(range(low, high)) + tuple(
            range(high + 1, ndim))
        moved = ops.transpose(inputs, perm)
        shape = tuple(moved.shape)
        merged = ops.reshape(moved, shape[:first] + (-1,) + shape[first + 2:])
        out = self.layer(merged)
        if first >= out.ndim or out.shape[first] != merged.shape[first]:
            raise ValueError(f"TimeDistributed: the layer changed axis {first}, which holds the "
                             f"merged time axis (input {tuple(merged.shape)}, output "
                             f"{tuple(out.shape)}); try without reshape_with_axis")
        split = tuple(out.shape[:first]) + shape[first:first + 2] + tuple(out.shape[first + 1:])
        return ops.reshape(out, (-1,) + split[1:])
