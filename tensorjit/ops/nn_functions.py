"""MindSpore 2.10's remaining functional nn ops (shrinks, similarity, RMS / fused-add
normalisation, local response normalisation, norm clipping, the bilinear layer, rotary
position embedding), composed from existing ops so that they differentiate, compile and
batch through those ops' primitives. Several have only an Ascend kernel in MindSpore 2.10
(swiglu, rms_norm, add_rms_norm, add_layer_norm, mse_loss_ext, rotary_position_embedding,
adaptive_avg_pool2d_ext): they follow the documented formulas."""
import numbers

import numpy as np

from .. import dtype as dt
from ..state import state
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .activation import softshrink, _floating_input
from .class_computes import compute_padding
from .conv import adaptive_avg_pool2d
from .loss import _reduce
from .statistics import vector_norm

__all__ = ["soft_shrink", "tanhshrink", "cosine_similarity", "mse_loss_ext", "swiglu",
           "rms_norm", "add_rms_norm", "add_layer_norm", "lrn", "clip_by_norm", "bidense",
           "rotary_position_embedding", "adaptive_avg_pool2d_ext", "padding"]

# the float dtypes of MindSpore's Ascend-only kernels (float64 is accepted here as well)
_HALF = (dt.float16, dt.bfloat16)


def soft_shrink(input, lambd=0.5):
    """``ops.soft_shrink``: the deprecated spelling of ``softshrink``."""
    return softshrink(input, lambd)


def tanhshrink(input):
    """``x - tanh(x)``; integer inputs compute in float32 (MindSpore 2.10).

    >>> import tensorjit as ms
    >>> round(float(ms.ops.tanhshrink(ms.Tensor([1.0]))[0]), 6)
    0.238406
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"tanhshrink: the input must be a Tensor, got {type(input).__name__}")
    if input.dtype == dt.bool_:
        raise TypeError("tanhshrink: bool tensors are not supported")
    x = input if dt.is_float(input.dtype) else _ew.cast(input, dt.float32)
    return _ew.sub(x, _ew.tanh(x))


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """``sum(x1 * x2, dim) / max(||x1||_2 * ||x2||_2, eps)`` along ``dim`` (the operands
    broadcast)."""
    a = _floating_input(x1, "cosine_similarity")
    b = _floating_input(x2, "cosine_similarity")
    dot = _red.sum(_ew.mul(a, b), dim)
    norms = _ew.mul(vector_norm(a, 2, dim), vector_norm(b, 2, dim))
    return _ew.div(dot, _ew.maximum(norms, float(eps)))


def mse_loss_ext(input, target, reduction="mean"):
    """``(input - target)^2`` (broadcast), reduced by ``reduction``; both operands of one
    dtype (else TypeError)."""
    op = "mse_loss_ext"
    x = _floating_input(input, op)
    y = coerce.as_tensor(target, op=op)
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: 'input' and 'target' must have one dtype, got {x.dtype} and "
                        f"{y.dtype}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{op}: 'reduction' must be 'mean', 'sum' or 'none', got "
                         f"{reduction!r}")
    diff = _ew.sub(x, y)
    return _reduce(_ew.mul(diff, diff), reduction, op)


def swiglu(input, dim=-1):
    """SwiGLU: ``a * sigmoid(a) * b`` with ``a``, ``b`` the two halves of ``input`` along
    ``dim`` (an odd length raises RuntimeError)."""
    x = _floating_input(input, "swiglu")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"swiglu: 'dim' must be an int, got {type(dim).__name__}")
    axis = coerce.normalize_axis(dim, x.ndim, "swiglu")
    if x.shape[axis] % 2:
        raise RuntimeError(f"swiglu: the dimension {dim} of size {x.shape[axis]} is not "
                           f"divisible by 2")
    a, b = _shape.split(x, x.shape[axis] // 2, axis)
    return _ew.mul(_ew.mul(a, _ew.sigmoid(a)), b)


def _epsilon(epsilon, op, low_open=True):
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
        raise TypeError(f"{op}: 'epsilon' must be a float, got {type(epsilon).__name__}")
    if low_open and not 0 < epsilon <= 1:
        raise ValueError(f"{op}: 'epsilon' must be in (0, 1], got {epsilon}")
    return float(epsilon)


def _rms_operands(x, gamma, op):
    x = _floating_input(x, op)
    gamma = _floating_input(gamma, op)
    if gamma.dtype != x.dtype:
        raise TypeError(f"{op}: 'gamma' must have the dtype of 'x', got {gamma.dtype} and "
                        f"{x.dtype}")
    if gamma.ndim > x.ndim or gamma.ndim == 0 or \
            tuple(x.shape[x.ndim - gamma.ndim:]) != tuple(gamma.shape):
        raise ValueError(f"{op}: 'gamma' of shape {tuple(gamma.shape)} must match the trailing "
                         f"axes of 'x' {tuple(x.shape)}")
    return x, gamma


def _rms(x, gamma, epsilon):
    """(y, rstd): the statistics in float32 for half-precision inputs (MindSpore's rstd is
    float32), the result in the input's dtype."""
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    wide = _ew.cast(x, dt.float32) if x.dtype in _HALF else x
    rstd = _ew.rsqrt(_ew.add(_red.mean(_ew.mul(wide, wide), axes, keep_dims=True), epsilon))
    y = _ew.mul(_ew.cast(_ew.mul(wide, rstd), x.dtype), gamma)
    return y, rstd


def rms_norm(x, gamma, epsilon=1e-6):
    """(y, rstd): ``y = x / sqrt(mean(x^2) + epsilon) * gamma`` over ``gamma``'s trailing
    axes; ``rstd`` (float32 for half precision, else the input's dtype) keeps those axes
    as size 1."""
    epsilon = _epsilon(epsilon, "rms_norm")
    x, gamma = _rms_operands(x, gamma, "rms_norm")
    return _rms(x, gamma, epsilon)


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """(y, rstd, x): ``rms_norm`` of ``x = x1 + x2``, and ``x``."""
    epsilon = _epsilon(epsilon, "add_rms_norm")
    x1 = _floating_input(x1, "add_rms_norm")
    x2 = _floating_input(x2, "add_rms_norm")
    if x1.dtype != x2.dtype:
        raise TypeError(f"add_rms_norm: 'x1' and 'x2' must have one dtype, got {x1.dtype} and "
                        f"{x2.dtype}")
    total = _ew.add(x1, x2)
    x, gamma = _rms_operands(total, gamma, "add_rms_norm")
    y, rstd = _rms(x, gamma, epsilon)
    return y, rstd, x


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """(y, mean, rstd, x): layer norm over the last axis of ``x = x1 + x2`` scaled by
    ``gamma`` and shifted by ``beta`` (1-D, the last axis's length); ``mean`` and ``rstd``
    keep that axis as size 1, in the input's dtype."""
    op = "add_layer_norm"
    if isinstance(epsilon, bool) or not isinstance(epsilon, float):
        raise TypeError(f"{op}: 'epsilon' must be a float, got {type(epsilon).__name__}")
    if not isinstance(additional_output, bool):
        raise TypeError(f"{op}: 'additional_output' must be a bool, got "
                        f"{type(additional_output).__name__}")
    x1, x2 = _floating_input(x1, op), _floating_input(x2, op)
    if x1.dtype != x2.dtype or tuple(x1.shape) != tuple(x2.shape):
        raise TypeError(f"{op}: 'x1' and 'x2' must have one dtype and shape, got "
                        f"{x1.dtype}{list(x1.shape)} and {x2.dtype}{list(x2.shape)}")
    gamma = coerce.as_tensor(gamma, x1.dtype, op=op)
    beta = coerce.as_tensor(beta, x1.dtype, op=op)
    if x1.ndim == 0 or gamma.shape != (x1.shape[-1],) or beta.shape != (x1.shape[-1],):
        raise ValueError(f"{op}: 'gamma' and 'beta' must be 1-D of the last axis's length "
                         f"{x1.shape[-1:]}, got {tuple(gamma.shape)} and {tuple(beta.shape)}")
    x = _ew.add(x1, x2)
    wide = _ew.cast(x, dt.float32) if x.dtype in _HALF else x
    mean = _red.mean(wide, -1, keep_dims=True)
    centred = _ew.sub(wide, mean)
    rstd = _ew.rsqrt(_ew.add(_red.mean(_ew.mul(centred, centred), -1, keep_dims=True),
                             epsilon))
    y = _ew.add(_ew.mul(_ew.cast(_ew.mul(centred, rstd), x.dtype), gamma), beta)
    return y, _ew.cast(mean, x.dtype), _ew.cast(rstd, x.dtype), x


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation across channels of an (N, C, H, W) float tensor:
    ``x / (bias + alpha * sum(x[c'] ^ 2 for |c' - c| <= depth_radius)) ^ beta``."""
    op = "lrn"
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int):
        raise TypeError(f"{op}: 'depth_radius' must be an int, got "
                        f"{type(depth_radius).__name__}")
    if depth_radius < 0:
        raise ValueError(f"{op}: 'depth_radius' must be >= 0, got {depth_radius}")
    for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, float):
            raise TypeError(f"{op}: '{name}' must be a float, got {type(value).__name__}")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"{op}: 'norm_region' must be 'ACROSS_CHANNELS', got {norm_region!r}")
    x = _floating_input(x, op)
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D (N, C, H, W) input, got shape {tuple(x.shape)}")
    channels = x.shape[1]
    squares = _shape.pad(_ew.mul(x, x), (0, 0, 0, 0, depth_radius, depth_radius))
    window = None
    for start in range(2 * depth_radius + 1):     # the channel window, one shift at a time
        part = _shape.slice_axis(squares, 1, start, start + channels)
        window = part if window is None else _ew.add(window, part)
    scale = _ew.add(_ew.mul(window, alpha), bias)
    return _ew.mul(x, _ew.pow(scale, -beta))


def _total_norm(tensors, norm_type):
    norms = [vector_norm(t, norm_type) for t in tensors]
    return norms[0] if len(norms) == 1 else vector_norm(_shape.stack(norms), norm_type)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale ``x`` (a Tensor, or a list / tuple of them: one joint norm) by
    ``max_norm / (total_norm + 1e-6)`` when that is below 1. ``error_if_nonfinite``
    raises RuntimeError for a NaN / inf norm, when it is known (outside a capture)."""
    op = "clip_by_norm"
    single = isinstance(x, Tensor)
    tensors = [x] if single else list(x) if isinstance(x, (list, tuple)) else None
    if not tensors or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"{op}: 'x' must be a Tensor or a non-empty list of Tensors, got "
                        f"{type(x).__name__}")
    if any(not dt.is_float(t.dtype) for t in tensors):
        raise TypeError(f"{op}: expected floating-point tensors")
    norm_type = float(norm_type)
    total = _total_norm(tensors, norm_type)
    if error_if_nonfinite and state.capture is None and not np.isfinite(total.asnumpy()):
        raise RuntimeError(f"{op}: the total norm of order {norm_type} of the input is "
                           f"non-finite")
    coef = _ew.minimum(_ew.div(max_norm, _ew.add(total, 1e-6)), 1.0)
    out = [_ew.mul(t, _ew.cast(coef, t.dtype)) for t in tensors]
    return out[0] if single else type(x)(out)


def bidense(input1, input2, weight, bias=None):
    """The bilinear layer ``y[..., o] = sum_ij input1[..., i] weight[o, i, j]
    input2[..., j] + bias[o]``: inputs (*, in1) and (*, in2), weight (out, in1, in2).
    Signed integers and uint8 accumulate in int64 (MindSpore's sum), cast to the bias's
    dtype when there is one."""
    op = "bidense"
    for name, value in (("input1", input1), ("input2", input2), ("weight", weight)):
        if not isinstance(value, Tensor):
            raise TypeError(f"{op}: '{name}' must be a Tensor, got {type(value).__name__}")
    if bias is not None and not isinstance(bias, Tensor):
        raise TypeError(f"{op}: 'bias' must be a Tensor, got {type(bias).__name__}")
    a, b, w = input1, input2, weight
    for t in (a, b, w):
        if not (dt.is_float(t.dtype) or t.dtype in (dt.int8, dt.int16, dt.int32, dt.int64,
                                                    dt.uint8)):
            raise TypeError(f"{op}: expected float, signed integer or uint8 tensors, got "
                            f"{t.dtype}")
    if a.shape[:-1] != b.shape[:-1] or w.ndim != 3 or \
            (w.shape[1], w.shape[2]) != (a.shape[-1], b.shape[-1]):
        raise ValueError(f"{op}: expected inputs (*, in1), (*, in2) and a weight (out, in1, "
                         f"in2), got {tuple(a.shape)}, {tuple(b.shape)} and {tuple(w.shape)}")
    from .linalg import matmul
    lead, out_dim = tuple(a.shape[:-1]), w.shape[0]
    a2 = _shape.reshape(a, (-1, a.shape[-1]))
    b2 = _shape.reshape(b, (-1, b.shape[-1]))
    # (M, in1) @ (in1, out * in2) -> (M, out, in2), then the in2 contraction with input2
    mixed = matmul(a2, _shape.reshape(_shape.transpose(w, (1, 0, 2)), (a.shape[-1], -1)))
    mixed = _shape.reshape(mixed, (-1, out_dim, b.shape[-1]))
    out = _red.sum(_ew.mul(mixed, _shape.expand_dims(b2, 1)), 2)
    if bias is not None:
        if bias.dtype != a.dtype or bias.dtype != b.dtype:
            raise TypeError(f"{op}: 'bias', 'input1' and 'input2' must have one dtype, got "
                            f"{bias.dtype}, {a.dtype} and {b.dtype}")
        out = _ew.add(_ew.cast(out, bias.dtype), bias)     # in bias's dtype (MindSpore)
    return _shape.reshape(out, lead + (out_dim,))


def rotary_position_embedding(x, cos, sin, mode=0):
    """``x * cos + rotate(x) * sin`` over the last axis (of even length) of a 4-D ``x``;
    ``cos`` / ``sin`` broadcast to it. ``mode`` 0 rotates halves (GPT-NeoX:
    ``(-x2, x1)``), 1 interleaved pairs (GPT-J: ``(-x[1], x[0], -x[3], x[2], ...)``)."""
    op = "rotary_position_embedding"
    x = _floating_input(x, op)
    cos = coerce.as_tensor(cos, op=op)
    sin = coerce.as_tensor(sin, op=op)
    if cos.dtype != x.dtype or sin.dtype != x.dtype:
        raise TypeError(f"{op}: 'cos' and 'sin' must have the dtype of 'x' {x.dtype}, got "
                        f"{cos.dtype} and {sin.dtype}")
    if x.ndim != 4 or cos.ndim != 4 or sin.ndim != 4:
        raise ValueError(f"{op}: 'x', 'cos' and 'sin' must be 4-D, got shapes "
                         f"{tuple(x.shape)}, {tuple(cos.shape)} and {tuple(sin.shape)}")
    if mode not in (0, 1) or isinstance(mode, bool):
        raise ValueError(f"{op}: 'mode' must be 0 or 1, got {mode!r}")
    d = x.shape[-1]
    if d % 2:
        raise ValueError(f"{op}: the last dimension of 'x' must be even, got {d}")
    if mode == 0:
        first, second = _shape.split(x, d // 2, -1)
        rotated = _shape.concat([_ew.neg(second), first], -1)
    else:
        pairs = _shape.reshape(x, tuple(x.shape[:-1]) + (d // 2, 2))
        even, odd = _shape.split(pairs, 1, -1)
        rotated = _shape.reshape(_shape.concat([_ew.neg(odd), even], -1), tuple(x.shape))
    return _ew.add(_ew.mul(x, cos), _ew.mul(rotated, sin))


def adaptive_avg_pool2d_ext(input, output_size):
    """``ops.adaptive_avg_pool2d_ext``: ``adaptive_avg_pool2d`` of a (C, H, W) or
    (N, C, H, W) tensor (``None`` in ``output_size`` keeps that size)."""
    if isinstance(output_size, (tuple, list)) and len(output_size) != 2:
        raise ValueError(f"adaptive_avg_pool2d_ext: 'output_size' must have 2 elements, got "
                         f"{len(output_size)}")
    return adaptive_avg_pool2d(input, output_size)


def padding(x, pad_dim_size=8):
    """``ops.padding``: widen a last axis of size 1 to ``pad_dim_size``, zeros after."""
    return compute_padding(x, pad_dim_size=pad_dim_size)
