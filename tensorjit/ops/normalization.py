"""Softmax, log-softmax, batch norm (training statistics) and layer norm primitives."""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, check_float
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import batching


# ---------------------------------------------------------------------------------------
# softmax / log_softmax

def _softmax_impl(x, axis):
    # initial=-inf: a softmax over an axis of size 0 is empty, not an error
    shifted = x - np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    e = np.exp(shifted)
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype, copy=False)


def _log_softmax_impl(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    return (shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))).astype(
        x.dtype, copy=False)


def _softmax_rule(name):
    def rule(x, axis):
        check_float(name, x)
        if not 0 <= axis < max(x.ndim, 1):
            raise IndexError(f"{name}: axis {axis} out of range for {x}")
        return x
    return rule


def _softmax_vjp(ct, out, x, axis):
    inner = _red.sum(_ew.mul(ct, out), axis, keepdims=True)
    return (_ew.mul(out, _ew.sub(ct, inner)),)


def _log_softmax_vjp(ct, out, x, axis):
    return (_ew.sub(ct, _ew.mul(_ew.exp(out), _red.sum(ct, axis, keepdims=True))),)


# Decompositions (O1 applies them where every resulting elementwise node fuses): ``b``
# makes one node per call (``b.exp(x)``), ``b.lit`` a scalar literal; see ir/rewrite.py.

def _softmax_decomposition(b, x, *, axis):
    shifted = b.sub(x, b.reduce_max(x, axes=(axis,), keepdims=True))
    e = b.exp(shifted)
    return [b.div(e, b.reduce_sum(e, axes=(axis,), keepdims=True))]


def _log_softmax_decomposition(b, x, *, axis):
    shifted = b.sub(x, b.reduce_max(x, axes=(axis,), keepdims=True))
    total = b.reduce_sum(b.exp(shifted), axes=(axis,), keepdims=True)
    return [b.sub(shifted, b.log(total))]


def _mean_and_variance(b, x, axes):
    d = x.aval.dtype
    count = b.lit(math.prod(x.aval.shape[a] for a in axes), d)
    mean = b.div(b.reduce_sum(x, axes=axes, keepdims=True), count)
    centered = b.sub(x, mean)
    var = b.div(b.reduce_sum(b.mul(centered, centered), axes=axes, keepdims=True), count)
    return mean, centered, var


softmax_p = Primitive("softmax", _softmax_impl, _softmax_rule("softmax"), _softmax_vjp,
                      aliasing=FRESH, decompose=_softmax_decomposition,
                      batch=batching.along_axis)
log_softmax_p = Primitive("log_softmax", _log_softmax_impl, _softmax_rule("log_softmax"),
                          _log_softmax_vjp, aliasing=FRESH,
                          decompose=_log_softmax_decomposition, batch=batching.along_axis)


def _softmax_operand(x, axis, dtype, op):
    x = coerce.as_tensor(x, op=op)
    if dtype is not None:
        x = _ew.cast(x, dtype)
    elif not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.DEFAULT_FLOAT)
    if x.ndim == 0:
        raise ValueError(f"{op}: expected a tensor of rank >= 1")
    return x, coerce.normalize_axis(axis, x.ndim, op)


def softmax(input, axis=-1, *, dtype=None):
    """MindSpore ``ops.softmax(input, axis=-1, *, dtype=None)``."""
    x, axis = _softmax_operand(input, axis, dtype, "softmax")
    return softmax_p.bind(x, axis=axis)


def log_softmax(logits, axis=-1, *, dtype=None):
    x, axis = _softmax_operand(logits, axis, dtype, "log_softmax")
    return log_softmax_p.bind(x, axis=axis)


# ---------------------------------------------------------------------------------------
# batch norm over all axes but the channel axis 1

def _bn_axes(ndim):
    return (0,) + tuple(range(2, ndim))


def _channel_shape(ndim, c):
    return (1, c) + (1,) * (ndim - 2)


def _batch_norm_impl(x, gamma, beta, eps):
    axes = _bn_axes(x.ndim)
    shape = _channel_shape(x.ndim, x.shape[1])
    compute = np.float32 if x.dtype in (dt.float16, dt.bfloat16) else x.dtype
    xc = x.astype(compute, copy=False)
    mean = xc.mean(axis=axes)
    var = xc.var(axis=axes)
    inv = 1.0 / np.sqrt(var + eps)
    scale = (gamma.astype(compute) * inv).reshape(shape)
    shift = (beta.astype(compute) - mean * gamma.astype(compute) * inv).reshape(shape)
    y = xc * scale + shift
    return (y.astype(x.dtype, copy=False), mean.astype(x.dtype, copy=False),
            var.astype(x.dtype, copy=False))


def _batch_norm_rule(x, gamma, beta, eps):
    if x.ndim < 2:
        raise ValueError(f"batch_norm: expected an input of rank >= 2 (N, C, ...), got {x}")
    check_float("batch_norm", x)
    c = x.shape[1]
    for name, p in (("gamma", gamma), ("beta", beta)):
        if p.shape != (c,):
            raise ValueError(f"batch_norm: {name} must have shape ({c},) for {x}, got {p}")
    stat = ShapedArray((c,), x.dtype)
    return x, stat, stat


def _batch_norm_vjp(cts, outs, x, gamma, beta, eps):
    """The gradients; a statistic nobody differentiates has a None cotangent
    (``symbolic_zeros``): its term is left out, not added as a zero array."""
    ct_y, ct_mean, ct_var = cts
    y, mean, var = outs
    if ct_y is None:
        ct_y = _ew.zeros_like(y)
    axes = _bn_axes(x.ndim)
    shape = _channel_shape(x.ndim, x.shape[1])
    count = float(np.prod([x.shape[a] for a in axes]))
    inv = _ew.rsqrt(_ew.add(var, eps))
    centered = _ew.sub(x, _shape.reshape(mean, shape))
    xhat = _ew.mul(centered, _shape.reshape(inv, shape))
    sum_dy = _red.sum(ct_y, axes)
    sum_dy_xhat = _red.sum(_ew.mul(ct_y, xhat), axes)
    scale = _shape.reshape(_ew.mul(gamma, inv), shape)
    dx = _ew.mul(scale, _ew.sub(ct_y, _ew.mul(
        _ew.add(_shape.reshape(sum_dy, shape), _ew.mul(xhat, _shape.reshape(sum_dy_xhat, shape))),
        1.0 / count)))
    # contributions through the returned batch statistics
    if ct_mean is not None:
        dx = _ew.add(dx, _shape.reshape(_ew.mul(ct_mean, 1.0 / count), shape))
    if ct_var is not None:
        dx = _ew.add(dx, _ew.mul(centered, _shape.reshape(_ew.mul(ct_var, 2.0 / count),
                                                          shape)))
    return dx, sum_dy_xhat, sum_dy


def _batch_norm_decomposition(b, x, gamma, beta, *, eps):
    d, nd, c = x.aval.dtype, x.aval.ndim, x.aval.shape[1]
    axes = (0,) + tuple(range(2, nd))
    per_channel = (1, c) + (1,) * (nd - 2)
    mean, _, var = _mean_and_variance(b, x, axes)
    inv = b.div(b.lit(1.0, d), b.sqrt(b.add(var, b.lit(eps, d))))
    g = b.reshape(gamma, shape=per_channel)
    scale = b.mul(g, inv)
    shift = b.sub(b.reshape(beta, shape=per_channel), b.mul(b.mul(mean, g), inv))
    y = b.add(b.mul(x, scale), shift)
    return [y, b.reshape(mean, shape=(c,)), b.reshape(var, shape=(c,))]


def _batch_norm_batch(prim, dims, x, gamma, beta, eps):
    """Each example's statistics are per channel: the batch joins the channel axis,
    (N, B*C, ...), with gamma and beta (B*C,)."""
    size = batching.batch_size((x, gamma, beta), dims)
    x = batching.moveaxis(batching.materialize(x, dims[0], size), 0, 1)
    shape = tuple(x.shape)
    x = _shape.reshape(x, (shape[0], size * shape[2]) + shape[3:])
    gamma, beta = (_shape.reshape(batching.materialize(p, d, size), (-1,))
                   for p, d in ((gamma, dims[1]), (beta, dims[2])))
    y, mean, var = prim.bind(x, gamma, beta, eps=eps)
    stats = (size, shape[2])
    return (_shape.reshape(y, shape), _shape.reshape(mean, stats),
            _shape.reshape(var, stats)), (1, 0, 0)


batch_norm_p = Primitive("batch_norm", _batch_norm_impl, _batch_norm_rule, _batch_norm_vjp,
                         multiple_results=True, shape_generic=False, aliasing=FRESH,
                         decompose=_batch_norm_decomposition, batch=_batch_norm_batch,
                         symbolic_zeros=True)


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False,
               momentum=0.1, eps=1e-5):
    """MindSpore ``ops.batch_norm``. In training mode the running statistics are updated in
    place: ``running = (1 - momentum) * running + momentum * batch`` (unbiased variance)."""
    x = coerce.as_tensor(input_x, op="batch_norm")
    check_float("batch_norm", x.aval)
    if x.ndim < 2:
        raise ValueError(f"batch_norm: expected an input of rank >= 2 (N, C, ...), got shape "
                         f"{tuple(x.shape)}")
    for name, p in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != (x.shape[1],):
            raise ValueError(f"batch_norm: {name} must have shape ({x.shape[1]},) for an "
                             f"input of shape {tuple(x.shape)}, got {tuple(p.shape)}")
    if not training:
        shape = _channel_shape(x.ndim, x.shape[1])
        inv = _ew.rsqrt(_ew.add(running_var, eps))
        scale = _shape.reshape(_ew.mul(weight, inv), shape)
        shift = _shape.reshape(_ew.sub(bias, _ew.mul(_ew.mul(running_mean, weight), inv)), shape)
        return _ew.add(_ew.mul(x, scale), shift)
    y, mean, var = batch_norm_p.bind(x, weight, bias, eps=float(eps))
    if running_mean is not None:
        count = float(np.prod([x.shape[a] for a in _bn_axes(x.ndim)]))
        unbiased = _ew.mul(var, count / max(count - 1.0, 1.0))
        mean, unbiased = _ew.stop_gradient(mean), _ew.stop_gradient(unbiased)
        running_mean.assign_value(_ew.add(_ew.mul(running_mean, 1.0 - momentum),
                                          _ew.mul(mean, momentum)))
        running_var.assign_value(_ew.add(_ew.mul(running_var, 1.0 - momentum),
                                         _ew.mul(unbiased, momentum)))
    return y


# ---------------------------------------------------------------------------------------
# layer norm over the trailing axes

def _ln_impl(x, gamma, beta, ndims, eps):
    axes = tuple(range(x.ndim - ndims, x.ndim))
    compute = np.float32 if x.dtype in (dt.float16, dt.bfloat16) else x.dtype
    xc = x.astype(compute, copy=False)
    mean = xc.mean(axis=axes, keepdims=True)
    var = xc.var(axis=axes, keepdims=True)
    y = (xc - mean) / np.sqrt(var + eps) * gamma + beta
    return y.astype(x.dtype, copy=False)


def _ln_rule(x, gamma, beta, ndims, eps):
    check_float("layer_norm", x)
    normalized = x.shape[x.ndim - ndims:]
    for name, p in (("gamma", gamma), ("beta", beta)):
        if p.shape != normalized:
            raise ValueError(f"layer_norm: {name} must have the normalized shape "
                             f"{normalized}, got {p}")
    return x


def _ln_vjp(ct, out, x, gamma, beta, ndims, eps):
    axes = tuple(range(x.ndim - ndims, x.ndim))
    lead = tuple(range(x.ndim - ndims))
    count = float(np.prod(x.shape[x.ndim - ndims:]))
    # the statistics written as the forward's decomposition writes them (a sum divided by
    # the count), so that O1's common-subexpression pass computes them once for both
    mean = _ew.div(_red.sum(x, axes, keepdims=True), count)
    centered = _ew.sub(x, mean)
    var = _ew.div(_red.sum(_ew.mul(centered, centered), axes, keepdims=True), count)
    inv = _ew.rsqrt(_ew.add(var, eps))
    xhat = _ew.mul(centered, inv)
    g = _ew.mul(ct, gamma)
    dx = _ew.mul(inv, _ew.sub(g, _ew.mul(_ew.add(
        _red.sum(g, axes, keepdims=True),
        _ew.mul(xhat, _red.sum(_ew.mul(g, xhat), axes, keepdims=True))), 1.0 / count)))
    dgamma = _red.sum(_ew.mul(ct, xhat), lead) if lead else _ew.mul(ct, xhat)
    dbeta = _red.sum(ct, lead) if lead else ct
    return dx, dgamma, dbeta


def _layer_norm_decomposition(b, x, gamma, beta, *, ndims, eps):
    d = x.aval.dtype
    _, centered, var = _mean_and_variance(b, x, tuple(range(x.aval.ndim - ndims, x.aval.ndim)))
    normed = b.div(centered, b.sqrt(b.add(var, b.lit(eps, d))))
    return [b.add(b.mul(normed, gamma), beta)]


def _layer_norm_batch(prim, dims, x, gamma, beta, ndims, eps):
    size = batching.batch_size((x, gamma, beta), dims)
    x = batching.materialize(x, dims[0], size)
    if dims[1] is None and dims[2] is None:
        return prim.bind(x, gamma, beta, ndims=ndims, eps=eps), 0
    # one gamma / beta per example: normalise, then scale and shift batched
    from .creation import ones, zeros
    normalized = tuple(x.shape[x.ndim - ndims:])
    y = prim.bind(x, ones(normalized, x.dtype), zeros(normalized, x.dtype), ndims=ndims,
                  eps=eps)
    rank = x.ndim - 1
    gamma, beta = (p if d is None else batching.pad_rank(batching.to_front(p, d), rank)
                   for p, d in ((gamma, dims[1]), (beta, dims[2])))
    return _ew.add(_ew.mul(y, gamma), beta), 0


layer_norm_p = Primitive("layer_norm", _ln_impl, _ln_rule, _ln_vjp, shape_generic=False,
                         aliasing=FRESH, decompose=_layer_norm_decomposition,
                         batch=_layer_norm_batch)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``ops.layer_norm`` over the trailing ``normalized_shape`` axes."""
    x = coerce.as_tensor(input, op="layer_norm")
    check_float("layer_norm", x.aval)
    normalized_shape = coerce.as_shape(normalized_shape, "layer_norm")
    if tuple(x.shape[x.ndim - len(normalized_shape):]) != normalized_shape:
        raise ValueError(f"layer_norm: normalized_shape {normalized_shape} does not match the "
                         f"trailing axes of input shape {tuple(x.shape)}")
    from .creation import ones, zeros
    weight = ones(normalized_shape, x.dtype) if weight is None else coerce.as_tensor(weight, x.dtype)
    bias = zeros(normalized_shape, x.dtype) if bias is None else coerce.as_tensor(bias, x.dtype)
    return layer_norm_p.bind(x, weight, bias, ndims=len(normalized_shape), eps=float(eps))


# ---------------------------------------------------------------------------------------
# group norm (instance norm is group norm with one channel per group)

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """``ops.group_norm``: normalise each of ``num_groups`` groups of channels (axis 1) of
    each sample over the group's channels and spatial axes, then scale and shift per
    channel. Built on the layer norm primitive over the flattened group."""
    x = coerce.as_tensor(input, op="group_norm")
    check_float("group_norm", x.aval)
    if x.ndim < 2:
        raise ValueError(f"group_norm: expected an input of rank >= 2 (N, C, ...), got shape "
                         f"{tuple(x.shape)}")
    n, c = x.shape[0], x.shape[1]
    if not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ValueError(f"group_norm: {c} channels cannot be split into {num_groups!r} "
                         f"groups")
    shape = tuple(x.shape)
    # the group's size spelled out: -1 cannot be inferred for an empty batch
    grouped = _shape.reshape(x, (n, num_groups, c // num_groups * math.prod(shape[2:])))
    normed = _shape.reshape(layer_norm(grouped, (grouped.shape[-1],), eps=eps), shape)
    per_channel = (1, c) + (1,) * (x.ndim - 2)
    if weight is not None:
        normed = _ew.mul(normed, _shape.reshape(coerce.as_tensor(weight, x.dtype), per_channel))
    if bias is not None:
        normed = _ew.add(normed, _shape.reshape(coerce.as_tensor(bias, x.dtype), per_channel))
    return normed


def instance_norm(input, weight=None, bias=None, eps=1e-5):
    """Normalise every channel of every sample over its spatial axes."""
    x = coerce.as_tensor(input, op="instance_norm")
    if x.ndim < 3:
        raise ValueError(f"instance_norm: expected an input of rank >= 3 (N, C, ...), got "
                         f"shape {tuple(x.shape)}")
    return group_norm(x, x.shape[1], weight, bias, eps)
