"""MindSpore's network-layer operators as tensorjit primitives, for reading MindIR files:
normalization (LayerNorm, inference BatchNorm, BiasAdd), matrix products, Conv2D, pooling
(MaxPool / AvgPool as windows reduced) and the CPU LSTM (unrolled). The conventions are
``read_ops``'s, where the importers register.
"""
import math

import numpy as np

from ... import dtype as dt
from ...ops.conv import window_view, resolve_padding
from .read_ops import axis_of, imports, ints, reshape, resolve_shape, setting, tensors
from .reader import Const, Missing, Seq


# ---- normalization ----------------------------------------------------------------------

@imports("LayerNorm")
def _layer_norm(r, inputs, attrs):
    x, gamma, beta = tensors(r, *inputs[:3])
    begin = axis_of(r, setting(r, inputs, 3, attrs, "begin_norm_axis", 1), x.aval.ndim,
                    "begin_norm_axis")
    params = axis_of(r, setting(r, inputs, 4, attrs, "begin_params_axis", 1), x.aval.ndim,
                     "begin_params_axis")
    eps = float(setting(r, inputs, 5, attrs, "epsilon", 1e-7))
    if params != begin:
        r.fail(f"LayerNorm with begin_params_axis {params} != begin_norm_axis {begin} is "
               f"not supported")
    normalized = tuple(x.aval.shape[begin:])
    gamma, beta = reshape(r, gamma, normalized), reshape(r, beta, normalized)
    y = r.bind("layer_norm", [x, gamma, beta], ndims=x.aval.ndim - begin, eps=eps)
    return Seq([y, Missing("LayerNorm's mean"), Missing("LayerNorm's variance")])


@imports("BatchNorm")
def _batch_norm(r, inputs, attrs):
    """Inference BatchNorm: (x - mean) / sqrt(var + eps) * scale + bias per channel
    (axis 1 for NCHW, the last for NHWC)."""
    if len(inputs) < 5:
        r.fail("BatchNorm takes x, scale, bias, mean and variance")
    x, scale, bias, mean, var = tensors(r, *inputs[:5])
    if setting(r, inputs, 5, attrs, "is_training", False):
        r.fail("BatchNorm in training mode (export the network with set_train(False))")
    eps = float(setting(r, inputs, 6, attrs, "epsilon", 1e-5))
    layout = setting(r, inputs, 8, attrs, "data_format", 0)
    channels_last = layout in (1, "NHWC")
    nd = x.aval.ndim
    c = x.aval.shape[-1 if channels_last else 1] if nd >= 2 else None
    if c is None or any(v.aval.shape != (c,) for v in (scale, bias, mean, var)):
        r.fail(f"BatchNorm of {x.aval} with parameters of shapes "
               f"{[v.aval.shape for v in (scale, bias, mean, var)]}")
    shape = (1,) * (nd - 1) + (c,) if channels_last else (1, c) + (1,) * (nd - 2)
    inv = r.bind("rsqrt", [r.bind("add", tensors(r, var, Const(eps)))])
    factor = reshape(r, r.bind("mul", [scale, inv]), shape)
    shift = reshape(r, r.bind("sub", [bias, r.bind("mul", [mean, r.bind("mul", [scale, inv])])]),
                    shape)
    y = r.bind("add", [r.bind("mul", [x, factor]), shift])
    return Seq([y, mean, var, Missing("BatchNorm's saved mean"),
                Missing("BatchNorm's saved variance")])


@imports("BiasAdd")
def _bias_add(r, inputs, attrs):
    x, bias = tensors(r, inputs[0], inputs[1])
    layout = setting(r, inputs, 2, attrs, "data_format", 0)
    nd = x.aval.ndim
    if nd < 2 or bias.aval.ndim != 1:
        r.fail(f"BiasAdd of {x.aval} and {bias.aval}")
    channels_last = layout in (1, "NHWC") or nd == 2
    shape = (1,) * (nd - 1) + (-1,) if channels_last else (1, -1) + (1,) * (nd - 2)
    shape = resolve_shape(r, shape, bias.aval.size)
    return r.bind("add", [x, reshape(r, bias, shape)])


# ---- linear algebra and convolution -------------------------------------------------------

def _swap_last(r, x):
    perm = tuple(range(x.aval.ndim - 2)) + (x.aval.ndim - 1, x.aval.ndim - 2)
    return r.bind("transpose", [x], perm=perm)


@imports("MatMul", "BatchMatMul")
def _matmul(r, inputs, attrs):
    a, b = tensors(r, inputs[0], inputs[1])
    if a.aval.ndim < 2 or b.aval.ndim < 2:
        r.fail(f"MatMul of {a.aval} and {b.aval}: both need two axes or more")
    if setting(r, inputs, 2, attrs, "transpose_a", False):
        a = _swap_last(r, a)
    if setting(r, inputs, 3, attrs, "transpose_b", False):
        b = _swap_last(r, b)
    return r.bind("matmul", [a, b])


@imports("MatMulExt")
def _matmul_ext(r, inputs, attrs):
    """NumPy's matmul, vectors included."""
    a, b = tensors(r, inputs[0], inputs[1])
    if a.aval.ndim == 0 or b.aval.ndim == 0:
        r.fail("MatMulExt of a 0-d tensor")
    a_vector, b_vector = a.aval.ndim == 1, b.aval.ndim == 1
    if a_vector:
        a = reshape(r, a, (1,) + a.aval.shape)
    if b_vector:
        b = reshape(r, b, b.aval.shape + (1,))
    out = r.bind("matmul", [a, b])
    shape = list(out.aval.shape)
    if b_vector:
        shape.pop(-1)
    if a_vector:
        shape.pop(-2 if not b_vector else -1)
    return reshape(r, out, shape)


_PAD_MODES = {0: "pad", 1: "same", 2: "valid"}


def _pad_mode(r, value):
    mode = _PAD_MODES.get(value, value) if isinstance(value, int) else value
    if not isinstance(mode, str) or mode.lower() not in ("pad", "same", "valid"):
        r.fail(f"pad_mode {value!r} is unknown")
    return mode.lower()


def _pair(r, value, name):
    value = ints(r, value, name)
    if len(value) == 1:
        return value * 2
    if len(value) in (2, 4):
        return value[-2:]
    r.fail(f"{name} {value} is not a pair")


def _nchw(r, attrs, key="format"):
    layout = attrs.get(key, attrs.get("data_format", "NCHW"))
    if layout not in ("NCHW", 0):
        r.fail(f"data format {layout!r} is not supported (NCHW is)")


@imports("Conv2D")
def _conv2d(r, inputs, attrs):
    x, w = tensors(r, inputs[0], inputs[1])
    _nchw(r, attrs)
    if x.aval.ndim != 4 or w.aval.ndim != 4:
        r.fail(f"Conv2D of {x.aval} and {w.aval}")
    stride = _pair(r, attrs.get("stride", 1), "stride")
    dilation = _pair(r, attrs.get("dilation", 1), "dilation")
    groups = int(attrs.get("group", attrs.get("groups", 1)))
    mode = _pad_mode(r, attrs.get("pad_mode", "valid"))
    pad = ints(r, attrs.get("pad", 0), "pad") if mode == "pad" else 0
    try:
        padding = resolve_padding(mode, pad if len(pad) != 1 else pad[0], x.aval.shape[2:],
                                  w.aval.shape[2:], stride, dilation, "Conv2D") \
            if mode == "pad" else resolve_padding(mode, 0, x.aval.shape[2:], w.aval.shape[2:],
                                                  stride, dilation, "Conv2D")
    except ValueError as exc:
        r.fail(str(exc))
    return r.bind("conv2d", [x, w], stride=stride, padding=padding, dilation=dilation,
                  groups=groups)


def _pool(r, inputs, attrs, op):
    x = r.tensor(inputs[0])
    if x.aval.ndim != 4:
        r.fail(f"{op} of {x.aval}: a 4-d NCHW tensor is needed")
    kernel = _pair(r, setting(r, inputs, 1, attrs, "kernel_size"), "kernel_size")
    stride = _pair(r, setting(r, inputs, 2, attrs, "strides"), "strides")
    mode = _pad_mode(r, setting(r, inputs, 3, attrs, "pad_mode", "valid"))
    layout = setting(r, inputs, 4, attrs, "data_format", attrs.get("format", "NCHW"))
    if layout not in ("NCHW", 0):
        r.fail(f"{op} in data format {layout!r} is not supported (NCHW is)")
    if mode == "pad" or min(kernel + stride) < 1:
        r.fail(f"{op} with pad_mode {mode!r}, kernel {kernel}, strides {stride}")
    try:
        padding = resolve_padding(mode, 0, x.aval.shape[2:], kernel, stride, (1, 1), op)
    except ValueError as exc:
        r.fail(str(exc))
    return x, dict(kernel=kernel, stride=stride, padding=padding, dilation=(1, 1))


@imports("MaxPool")
def _max_pool(r, inputs, attrs):
    x, geometry = _pool(r, inputs, attrs, "MaxPool")
    pad_value = -np.inf if dt.is_float(x.aval.dtype) else int(np.iinfo(x.aval.dtype).min)
    windows = r.bind("unfold", [x], pad_value=pad_value, **geometry)
    return r.bind("reduce_max", [windows], axes=(4, 5), keepdims=False)


@imports("AvgPool")
def _avg_pool(r, inputs, attrs):
    """Average over the window's elements inside the input (MindSpore's SAME padding
    does not count the padding)."""
    x, geometry = _pool(r, inputs, attrs, "AvgPool")
    windows = r.bind("unfold", [x], pad_value=0, **geometry)
    total = r.bind("reduce_sum", [windows], axes=(4, 5), keepdims=False)
    ones = np.ones((1, 1) + tuple(x.aval.shape[2:]), np.dtype(x.aval.dtype))
    counts = np.ascontiguousarray(window_view(ones, geometry["kernel"], geometry["stride"],
                                           geometry["padding"], (1, 1)).sum(axis=(-2, -1)))
    return r.bind("div", tensors(r, total, Const(counts.astype(x.aval.dtype))))


# ---- recurrent ---------------------------------------------------------------------------------

@imports("LSTM")
def _lstm(r, inputs, attrs):
    """MindSpore's CPU LSTM (one layer, one direction: nn.LSTM emits one per layer), x of
    (seq, batch, input), weights flat as [w_ih, w_hh, b_ih + b_hh], gates i, f, g, o;
    unrolled over the sequence."""
    if len(inputs) != 4:
        r.fail("LSTM takes x, h, c and the weights")
    x, h, c, w = tensors(r, *inputs)
    if attrs.get("bidirectional") or attrs.get("num_layers", 1) != 1 or \
            attrs.get("proj_size", 0):
        r.fail("LSTM with several layers, two directions or a projection in one operator "
               "is not supported")
    hidden, size = int(attrs.get("hidden_size", 0)), int(attrs.get("input_size", 0))
    seq, batch = x.aval.shape[0], x.aval.shape[1] if x.aval.ndim == 3 else -1
    gates = 4 * hidden
    need = gates * size + gates * hidden + (gates if attrs.get("has_bias") else 0)
    if x.aval.ndim != 3 or x.aval.shape[2] != size or w.aval.size != need or \
            h.aval.shape != (1, batch, hidden) or c.aval.shape != (1, batch, hidden):
        r.fail(f"LSTM of x {x.aval}, h {h.aval}, c {c.aval}, weights {w.aval} with "
               f"input_size {size}, hidden_size {hidden}")
    flat = reshape(r, w, (need,))

    def piece(start, shape):
        part = r.bind("getitem", [flat], spec=(("s", start, start + math.prod(shape), 1),))
        return reshape(r, part, shape)

    w_ih = r.bind("transpose", [piece(0, (gates, size))], perm=(1, 0))
    w_hh = r.bind("transpose", [piece(gates * size, (gates, hidden))], perm=(1, 0))
    bias = piece(gates * (size + hidden), (gates,)) if attrs.get("has_bias") else None
    h_t, c_t = reshape(r, h, (batch, hidden)), reshape(r, c, (batch, hidden))
    outputs = []
    for t in range(seq):
        x_t = r.bind("getitem", [x], spec=(("i", t),))
        z = r.bind("add", [r.bind("matmul", [x_t, w_ih]), r.bind("matmul", [h_t, w_hh])])
        if bias is not None:
            z = r.bind("add", [z, bias])
        i, f, g, o = (r.bind("getitem", [z], spec=(("s", None, None, None),
                                                   ("s", k * hidden, (k + 1) * hidden, 1)))
                      for k in range(4))
        c_t = r.bind("add", [r.bind("mul", [r.bind("sigmoid", [f]), c_t]),
                             r.bind("mul", [r.bind("sigmoid", [i]), r.bind("tanh", [g])])])
        h_t = r.bind("mul", [r.bind("sigmoid", [o]), r.bind("tanh", [c_t])])
        outputs.append(reshape(r, h_t, (1, batch, hidden)))
    out = outputs[0] if seq == 1 else r.bind("concat", outputs, axis=0)
    return Seq([out, reshape(r, h_t, (1, batch, hidden)), reshape(r, c_t, (1, batch, hidden)),
                Missing("LSTM's reserve"), Missing("LSTM's state")])
