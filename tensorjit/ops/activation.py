"""Activation functions composed from elementwise primitives (their gradients come from
those primitives' VJPs), with MindSpore's functional signatures."""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import creation as _creation
from . import elementwise as _ew
from . import random as _random
from . import reduction as _red
from . import shape as _shape
from .normalization import softmax


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



# ---- shrinking, thresholding and random activations (MindSpore 2.10's functional names) --

def _floating_input(input, op):
    """A float tensor; integer and bool inputs are refused (MindSpore's HShrink, Softmax, ...)."""
    x = coerce.as_tensor(input, op=op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: expected a floating-point tensor (float16, bfloat16, float32, "
                        f"float64), got {x.dtype}")
    return x


def _real(value, name, op, allowed=(int, float)):
    if isinstance(value, bool) or not isinstance(value, allowed):
        kinds = " or ".join(t.__name__ for t in allowed)
        raise TypeError(f"{op}: '{name}' must be a {kinds}, got {type(value).__name__}")
    return float(value)


def hardshrink(input, lambd=0.5):
    """Hard shrink: ``x`` where ``|x| > lambd``, else 0.

    Args: ``input`` a float tensor (int raises TypeError); ``lambd`` (float, default 0.5).
    Float64 is accepted too (MindSpore's kernel takes float16 / bfloat16 / float32).

    >>> import tensorjit as ms
    >>> ms.ops.hardshrink(ms.Tensor([-1.0, 0.2, 0.7])).asnumpy().tolist()
    [-1.0, 0.0, 0.699999988079071]
    """
    x = _floating_input(input, "hardshrink")
    lambd = _real(lambd, "lambd", "hardshrink")
    return _ew.where(_ew.gt(_ew.abs(x), lambd), x, _ew.zeros_like(x))


def softshrink(input, lambd=0.5):
    """Soft shrink: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Args: ``input`` a float tensor (int raises TypeError); ``lambd`` (float >= 0, default
    0.5; a negative one raises RuntimeError, as MindSpore's kernel does).

    >>> import tensorjit as ms
    >>> ms.ops.softshrink(ms.Tensor([-1.0, 0.2, 2.0])).asnumpy().tolist()
    [-0.5, 0.0, 1.5]
    """
    x = _floating_input(input, "softshrink")
    lambd = _real(lambd, "lambd", "softshrink")
    if lambd < 0:
        raise RuntimeError(f"softshrink: lambd should be greater or equal to 0, got {lambd}")
    shrunk = _ew.sub(x, _ew.mul(_ew.sign(x), lambd))
    return _ew.where(_ew.gt(_ew.abs(x), lambd), shrunk, _ew.zeros_like(x))


def threshold(input, thr, value):
    """``x`` where ``x > thr``, else ``value``; the result keeps the input's dtype (ints too).

    Args: ``input`` a numeric tensor; ``thr`` and ``value`` Python ints or floats (a
    tensor raises TypeError, as in MindSpore).

    >>> import tensorjit as ms
    >>> ms.ops.threshold(ms.Tensor([1.0, 2.0, 3.0]), 1.5, 0.0).asnumpy().tolist()
    [0.0, 2.0, 3.0]
    """
    x = coerce.as_tensor(input, op="threshold")
    if x.dtype == dt.bool_:
        raise TypeError("threshold: expected a numeric tensor, got bool")
    thr = _real(thr, "thr", "threshold")
    value = _real(value, "value", "threshold")
    filler = _ew.cast(coerce.constant(np.asarray(value)), x.dtype)
    return _ew.where(_ew.gt(x, thr), x, filler)


def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x, axis)``: the smallest entries get the largest weights.

    Args: ``x`` a float tensor (int raises TypeError); ``axis`` an int (default -1);
    ``dtype`` casts ``x`` first when given.

    >>> import tensorjit as ms
    >>> ms.ops.softmin(ms.Tensor([0.0, 0.0])).asnumpy().tolist()
    [0.5, 0.5]
    """
    x = coerce.as_tensor(x, op="softmin")
    if dtype is not None:
        x = _ew.cast(x, dt.as_dtype(dtype))
    x = _floating_input(x, "softmin")
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"softmin: 'axis' must be an int, got {axis!r}")
    rank = max(x.ndim, 1)
    if not -rank <= axis < rank:
        raise ValueError(f"softmin: 'axis' must be in [{-rank}, {rank}), got {axis}")
    return softmax(_ew.neg(x), axis)


def _uniform_like(x, low, high):
    """Uniform draws in [low, high) of ``x``'s shape, in ``x``'s float dtype (fresh on
    every call of a compiled graph: the sampling primitive runs at run time)."""
    u = _random.uniform_p.bind(shape=tuple(x.shape), dtype=x.dtype)
    return _ew.add(_ew.mul(u, high - low), low)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: ``x`` where ``x >= 0``, else ``a * x`` with ``a`` drawn
    uniformly from [lower, upper) for each element, on every call (MindSpore's functional
    ``rrelu`` is always random; ``nn.RReLU`` in inference mode uses the mean slope).

    Args: ``input`` a numeric tensor (an integer one is computed in float32 and cast back,
    truncating; MindSpore casts the slopes to the integer dtype, so its negative integers
    all become 0); ``lower`` / ``upper`` numbers with ``lower <= upper`` (else ValueError).

    >>> import tensorjit as ms
    >>> y = ms.ops.rrelu(ms.Tensor([-1.0, 2.0]), 0.25, 0.25)
    >>> y.asnumpy().tolist()
    [-0.25, 2.0]
    """
    x = coerce.as_tensor(input, op="rrelu")
    lower = _real(lower, "lower", "rrelu")
    upper = _real(upper, "upper", "rrelu")
    if upper < lower:
        raise ValueError(f"rrelu: 'upper' must be greater than or equal to 'lower', got "
                         f"upper {upper}, lower {lower}")
    given = x.dtype
    if x.dtype == dt.bool_:
        raise TypeError("rrelu: expected a numeric tensor, got bool")
    xf = x if dt.is_float(given) else _ew.cast(x, dt.float32)
    slope = _uniform_like(xf, lower, upper)
    out = _ew.where(_ew.ge(xf, 0), xf, _ew.mul(xf, slope))
    return out if out.dtype == given else _ew.cast(out, given)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """Samples of the Gumbel-softmax distribution: ``softmax((logits + g) / tau, dim)``
    with ``g = -log(-log(u))``, ``u`` uniform; ``hard=True`` returns the one-hot of the
    arg-max, with the soft sample's gradient (straight-through).

    Args: ``logits`` float16 / float32 (float64 accepted too); ``tau`` a float > 0
    (an int raises TypeError, as in MindSpore); ``hard`` a bool; ``dim`` an int in range.

    >>> import tensorjit as ms
    >>> y = ms.ops.gumbel_softmax(ms.Tensor([[1.0, 2.0, 3.0]]), hard=True)
    >>> float(y.sum())
    1.0
    """
    x = coerce.as_tensor(logits, op="gumbel_softmax")
    if x.dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"gumbel_softmax: 'logits' must be float16 or float32, got {x.dtype}")
    if isinstance(tau, bool) or not isinstance(tau, float):
        raise TypeError(f"gumbel_softmax: 'tau' must be a float, got {type(tau).__name__}")
    if not tau > 0:
        raise ValueError(f"gumbel_softmax: 'tau' must be > 0, got {tau}")
    if not isinstance(hard, bool):
        raise TypeError(f"gumbel_softmax: 'hard' must be a bool, got {type(hard).__name__}")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"gumbel_softmax: 'dim' must be an int, got {dim!r}")
    if not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
        raise ValueError(f"gumbel_softmax: 'dim' must be in range [{-x.ndim}, {x.ndim}), "
                         f"got {dim}")
    # u in (tiny, 1): both logs stay finite
    tiny = float(np.finfo(x.dtype).tiny)
    u = _ew.maximum(_uniform_like(x, 0.0, 1.0), tiny)
    gumbel = _ew.neg(_ew.log(_ew.neg(_ew.log(u))))
    soft = softmax(_ew.mul(_ew.add(x, gumbel), 1.0 / tau), dim)
    if not hard:
        return soft
    axis = dim % max(x.ndim, 1)
    winner = _red.argmax(soft, axis, keepdim=True)
    positions = _shape.reshape(_creation.arange(x.shape[axis], dtype=winner.dtype),
                               tuple(x.shape[axis] if i == axis else 1 for i in range(x.ndim)))
    one_hot = _ew.cast(_ew.eq(winner, positions), x.dtype)
    # straight-through: the value of one_hot, the gradient of soft
    return _ew.add(_ew.sub(one_hot, _ew.stop_gradient(soft)), soft)
