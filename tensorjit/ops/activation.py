"""Activation functions composed from elementwise primitives (their gradients come from
those primitives' VJPs), with MindSpore's functional signatures."""
from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape


def _float(x, op):
    return _ew._float_operand(x, op)


def hardsigmoid(input):
    """``relu6(x + 3) / 6``."""
    x = _float(input, "hardsigmoid")
    return _ew.clamp(_ew.add(_ew.mul(x, 1.0 / 6.0), 0.5), 0.0, 1.0)


def hardswish(input):
    """``x * relu6(x + 3) / 6``."""
    x = _float(input, "hardswish")
    return _ew.mul(x, hardsigmoid(x))


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``."""
    x = _float(input, "softplus")
    if beta == 1 and threshold is None:
        return _ew.softplus_p.bind(x)
    scaled = x if beta == 1 else _ew.mul(x, float(beta))
    smooth = _ew.softplus_p.bind(scaled)
    if beta != 1:
        smooth = _ew.mul(smooth, 1.0 / float(beta))
    if threshold is None:
        return smooth
    return _ew.where(_ew.gt(scaled, float(threshold)), x, smooth)


def logsigmoid(x):
    """``log(sigmoid(x)) = -softplus(-x)``."""
    x = _float(x, "logsigmoid")
    return _ew.neg(_ew.softplus_p.bind(_ew.neg(x)))


def _negative_side(x):
    """``x`` where it is not positive, else 0: the exponential branch of elu-like units is
    computed there only, so its gradient (0 * exp(x), NaN once exp overflows) stays out."""
    return _ew.where(_ew.gt(x, 0), _ew.zeros_like(x), x)


def selu(input_x):
    x = _float(input_x, "selu")
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    negative = _ew.mul(_ew.expm1(_negative_side(x)), alpha)
    return _ew.mul(_ew.where(_ew.gt(x, 0), x, negative), scale)


def celu(x, alpha=1.0):
    x = _float(x, "celu")
    if alpha == 0:
        raise ValueError("celu: alpha must not be 0")
    negative = _ew.mul(_ew.expm1(_ew.mul(_negative_side(x), 1.0 / alpha)), alpha)
    return _ew.where(_ew.gt(x, 0), x, negative)


def glu(x, axis=-1):
    """Gated linear unit: the first half of ``axis`` times the sigmoid of the second."""
    x = _float(x, "glu")
    axis = coerce.normalize_axis(axis, x.ndim, "glu")
    if x.shape[axis] % 2:
        raise ValueError(f"glu: axis {axis} of shape {tuple(x.shape)} must have even size")
    a, b = _shape.split(x, x.shape[axis] // 2, axis)
    return _ew.mul(a, _ew.sigmoid(b))


def _channel_shape(x, size):
    """Shape that broadcasts a per-channel (axis 1) vector of ``size`` over ``x``."""
    return (1, size) + (1,) * (x.ndim - 2) if x.ndim >= 2 else (size,)


def prelu(input, weight):
    """``x`` where positive, else ``weight * x``; ``weight`` has one value per channel
    (axis 1) or a single value."""
    x = _float(input, "prelu")
    w = coerce.as_tensor(weight, x.dtype, op="prelu")
    if w.ndim > 1:
        raise ValueError(f"prelu: weight must be 0-d or 1-d, got shape {tuple(w.shape)}")
    if w.ndim == 1 and w.shape[0] != 1:
        channels = x.shape[1] if x.ndim >= 2 else x.shape[0] if x.ndim else 1
        if w.shape[0] != channels:
            raise ValueError(f"prelu: weight has {w.shape[0]} values but the input has "
                             f"{channels} channels (shape {tuple(x.shape)})")
        w = _shape.reshape(w, _channel_shape(x, channels))
    return _ew.where(_ew.gt(x, 0), x, _ew.mul(w, x))


def bias_add(input_x, bias, data_format="NCHW"):
    """Add a per-channel ``bias``: axis 1 for 'NCHW'/'NCDHW', the last axis for 'NHWC'."""
    x = coerce.as_tensor(input_x, op="bias_add")
    if x.dtype == dt.bool_:        # adding bools would be a logical or (MindSpore refuses)
        raise TypeError("bias_add: expected a numeric tensor, got bool")
    b = coerce.as_tensor(bias, x.dtype, op="bias_add")
    if b.ndim != 1:
        raise ValueError(f"bias_add: bias must be 1-d, got shape {tuple(b.shape)}")
    if x.ndim < 2:
        raise ValueError(f"bias_add: input must have rank >= 2, got shape {tuple(x.shape)}")
    if data_format == "NHWC":
        axis = x.ndim - 1
    elif data_format in ("NCHW", "NCDHW"):
        axis = 1
    else:
        raise ValueError(f"bias_add: data_format must be 'NCHW', 'NHWC' or 'NCDHW', got "
                         f"{data_format!r}")
    if x.shape[axis] != b.shape[0]:
        raise ValueError(f"bias_add: bias of size {b.shape[0]} does not match axis {axis} of "
                         f"input shape {tuple(x.shape)}")
    shape = [1] * x.ndim
    shape[axis] = b.shape[0]
    return _ew.add(x, _shape.reshape(b, tuple(shape)))


def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x^2, axis), epsilon))`` (MindSpore's L2Normalize)."""
    x = _float(x, "l2_normalize")
    total = _red.sum(_ew.mul(x, x), axis, keepdims=True)
    return _ew.mul(x, _ew.rsqrt(_ew.maximum(total, float(epsilon))))


def fast_gelu(x):
    """``x * sigmoid(1.702 x)`` (MindSpore's FastGeLU)."""
    x = _float(x, "fast_gelu")
    return _ew.mul(x, _ew.sigmoid(_ew.mul(x, 1.702)))

