"""Reading ONNX's neural-network operators as primitives: MatMul and Gemm, 1-D and 2-D
convolution (Conv, ConvTranspose) and pooling (MaxPool, AveragePool, the global pools:
windows by ``unfold``, reduced as ``ops.max_pool2d`` / ``avg_pool2d`` do), inference
BatchNormalization (as ``ops.batch_norm`` computes it), LayerNormalization and softmax.
"""
import math

import numpy as np

from ... import dtype as dt
from . import reads
from .reader import dtype_of, lit, axis_of, reshape, shape_of
from .reader_ops import mean


@reads("MatMul")
def _matmul(c):
    a, b = c.x(0), c.x(1)
    a_vector, b_vector = len(shape_of(a)) == 1, len(shape_of(b)) == 1
    if a_vector:
        a = reshape(c, a, (1,) + shape_of(a))
    if b_vector:
        b = reshape(c, b, shape_of(b) + (1,))
    out = c.bind("matmul", a, b)
    shape = shape_of(out)
    if a_vector or b_vector:
        out = reshape(c, out, shape[:-2] + shape[-2:-1] * (not a_vector)
                      + shape[-1:] * (not b_vector))
    return out


@reads("Gemm")
def _gemm(c):
    a, b, bias = c.x(0), c.x(1), c.x(2)
    if c.attr("transA", 0):
        a = c.bind("transpose", a, perm=(1, 0))
    if c.attr("transB", 0):
        b = c.bind("transpose", b, perm=(1, 0))
    out = c.bind("matmul", a, b)
    if c.attr("alpha", 1.0) != 1.0:
        out = c.bind("mul", out, lit(c.attr("alpha"), out))
    if bias is not None:
        if c.attr("beta", 1.0) != 1.0:
            bias = c.bind("mul", bias, lit(c.attr("beta"), bias))
        out = c.bind("add", out, bias)
    return out


def _geometry(c, in_hw, kernel):
    """(stride, (top, bottom, left, right), dilation) of a 2-D window operator."""
    stride = tuple(c.attr("strides", [1, 1]))
    dilation = tuple(c.attr("dilations", [1, 1]))
    auto = c.attr("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = []
        for size, k, s, d in zip(in_hw, kernel, stride, dilation):
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            small, big = total // 2, total - total // 2
            pads += [small, big] if auto == "SAME_UPPER" else [big, small]
        return stride, tuple(pads), dilation
    p = [0, 0, 0, 0] if auto == "VALID" else list(c.attr("pads", [0, 0, 0, 0]))
    return stride, (p[0], p[2], p[1], p[3]), dilation


def _as_2d(c, x):
    """A 1-D window operator's operand (N, C, L) as (N, C, 1, L)."""
    shape = shape_of(x)
    return reshape(c, x, shape[:2] + (1,) + shape[2:]) if len(shape) == 3 else x


def _from_2d(c, out):
    """The 2-D result (N, C, 1, L) of a 1-D window operator back as (N, C, L)."""
    shape = shape_of(out)
    return reshape(c, out, shape[:2] + shape[3:])


def _spatial_attrs(c):
    """Attributes of a 1-D window operator given the unit height 2-D form has."""
    for key, unit in (("strides", 1), ("dilations", 1), ("kernel_shape", 1)):
        if key in c.attrs and len(c.attrs[key]) == 1:
            c.attrs[key] = [unit] + list(c.attrs[key])
    if "pads" in c.attrs and len(c.attrs["pads"]) == 2:
        c.attrs["pads"] = [0, c.attrs["pads"][0], 0, c.attrs["pads"][1]]


@reads("Conv")
def _conv(c):
    x, w, bias = c.x(0), c.x(1), c.x(2)
    one_d = len(shape_of(x)) == 3
    if len(shape_of(x)) not in (3, 4):
        c.fail(f"only 1-D and 2-D convolutions are supported, got an input of shape "
               f"{shape_of(x)}")
    if one_d:
        _spatial_attrs(c)
        x, w = _as_2d(c, x), _as_2d(c, w)
    stride, pads, dilation = _geometry(c, shape_of(x)[2:], shape_of(w)[2:])
    out = c.bind("conv2d", x, w, stride=stride, padding=pads, dilation=dilation,
                 groups=int(c.attr("group", 1)))
    if bias is not None:
        out = c.bind("add", out, reshape(c, bias, (1, shape_of(bias)[0], 1, 1)))
    return _from_2d(c, out) if one_d else out


@reads("ConvTranspose")
def _conv_transpose(c):
    x, w, bias = c.x(0), c.x(1), c.x(2)
    if len(shape_of(x)) != 4 or "output_shape" in c.attrs:
        c.fail("only 2-D transposed convolutions without output_shape are supported")
    kernel = shape_of(w)[2:]
    stride, pads, dilation = _geometry(c, shape_of(x)[2:], kernel)
    extra = c.attr("output_padding", [0, 0])
    groups = int(c.attr("group", 1))
    size = [(shape_of(x)[2 + i] - 1) * stride[i] + extra[i] + (kernel[i] - 1) * dilation[i] + 1
            - pads[2 * i] - pads[2 * i + 1] for i in range(2)]
    x_shape = (shape_of(x)[0], shape_of(w)[1] * groups, size[0], size[1])
    out = c.bind("conv2d_input_grad", x, w, x_shape=x_shape, stride=stride, padding=pads,
                 dilation=dilation, groups=groups)
    if bias is not None:
        out = c.bind("add", out, reshape(c, bias, (1, shape_of(bias)[0], 1, 1)))
    return out


def _windows(c, x, pad_value):
    if c.attr("ceil_mode", 0):
        c.fail("ceil_mode=1 is not supported")
    kernel = tuple(c.attr("kernel_shape"))
    stride, pads, dilation = _geometry(c, shape_of(x)[2:], kernel)
    return c.bind("unfold", x, kernel=kernel, stride=stride, padding=pads, dilation=dilation,
                  pad_value=pad_value), kernel, stride, pads


def _pooled(c, read):
    x = c.x(0)
    if len(shape_of(x)) not in (3, 4):
        c.fail(f"only 1-D and 2-D pooling is supported, got an input of shape {shape_of(x)}")
    one_d = len(shape_of(x)) == 3
    if one_d:
        _spatial_attrs(c)
    out = read(c, _as_2d(c, x))
    return _from_2d(c, out) if one_d else out


@reads("MaxPool")
def _max_pool(c):
    if c.attr("storage_order", 0) or (len(c.proto.output) > 1 and c.proto.output[1]):
        c.fail("the Indices output and storage_order are not supported")

    def read(c, x):
        d = dtype_of(x)
        low = -np.inf if dt.is_float(d) else np.iinfo(d).min
        windows = _windows(c, x, low)[0]
        return c.bind("reduce_max", windows, axes=(4, 5), keepdims=False)
    return _pooled(c, read)


@reads("AveragePool")
def _average_pool(c):
    def read(c, x):
        windows, kernel, stride, pads = _windows(c, x, 0)
        total = c.bind("reduce_sum", windows, axes=(4, 5), keepdims=False)
        if c.attr("count_include_pad", 0) or not any(pads):
            return c.bind("mul", total, lit(1.0 / (kernel[0] * kernel[1]), total))
        # the average of the input elements in each window (padding left out)
        rows, columns = (_inside(shape_of(x)[2 + i], kernel[i], stride[i], pads[2 * i],
                                 shape_of(total)[2 + i]) for i in range(2))
        return c.bind("div", total, np.outer(rows, columns).astype(dtype_of(x)))
    return _pooled(c, read)


def _inside(size, kernel, stride, before, count):
    """How many taps of each of ``count`` windows along an axis fall inside the input."""
    taps = np.arange(count)[:, None] * stride - before + np.arange(kernel)[None, :]
    return ((taps >= 0) & (taps < size)).sum(axis=1)


@reads("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(c):
    x = c.x(0)
    axes = tuple(range(2, len(shape_of(x))))
    if c.proto.op_type == "GlobalMaxPool":
        return c.bind("reduce_max", x, axes=axes, keepdims=True)
    total = c.bind("reduce_sum", x, axes=axes, keepdims=True)
    return mean(c, total, math.prod(shape_of(x)[2:]))


# ---- normalization -------------------------------------------------------------------------

@reads("BatchNormalization")
def _batch_norm(c):
    """Inference batch norm with the running statistics, as ``ops.batch_norm`` computes
    it (``training_mode`` and the statistics outputs are for training)."""
    if c.attr("training_mode", 0):
        c.fail("training_mode=1 is not supported")
    x, gamma, beta, running_mean, running_var = c.inputs()[:5]
    shape = (1, shape_of(x)[1]) + (1,) * (len(shape_of(x)) - 2)
    inv = c.bind("rsqrt", c.bind("add", running_var,
                                 lit(c.attr("epsilon", 1e-5), running_var)))
    scale = reshape(c, c.bind("mul", gamma, inv), shape)
    centre = c.bind("mul", c.bind("mul", running_mean, gamma), inv)
    shift = reshape(c, c.bind("sub", beta, centre), shape)
    return c.bind("add", c.bind("mul", x, scale), shift)


@reads("LayerNormalization")
def _layer_norm(c):
    x, gamma, beta = c.x(0), c.x(1), c.x(2)
    shape = shape_of(x)
    axis = axis_of(c.attr("axis", -1), len(shape))
    normalized = shape[axis:]
    if shape_of(gamma) != normalized:
        gamma = c.bind("broadcast_to", gamma, shape=normalized)
    if beta is None:
        beta = np.zeros(normalized, dtype_of(x))
    elif shape_of(beta) != normalized:
        beta = c.bind("broadcast_to", beta, shape=normalized)
    return c.bind("layer_norm", x, gamma, beta, ndims=len(normalized),
                  eps=float(c.attr("epsilon", 1e-5)))


@reads("Softmax", "LogSoftmax")
def _softmax(c):
    x = c.x(0)
    prim = "softmax" if c.proto.op_type == "Softmax" else "log_softmax"
    shape = shape_of(x)
    if c.opset >= 13:
        return c.bind(prim, x, axis=axis_of(c.attr("axis", -1), len(shape)))
    # before opset 13: over the trailing axes from ``axis`` on, flattened
    axis = axis_of(c.attr("axis", 1), len(shape))
    flat = reshape(c, x, (math.prod(shape[:axis]), math.prod(shape[axis:])))
    return reshape(c, c.bind(prim, flat, axis=1), shape)
