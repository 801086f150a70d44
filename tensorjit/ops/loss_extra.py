"""More of MindSpore's loss functions (margin, ranking, robust-regression and likelihood
losses), composed from primitives so that their gradients come for free."""
import math

import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from .cumulative import cumprod
from .loss import _reduce


def _check_reduction(reduction, op):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{op}: 'reduction' must be one of 'mean', 'sum', 'none', got "
                         f"{reduction!r}")


def _float_input(x, op, name="input"):
    """A float tensor argument; integers and bools raise TypeError (MindSpore)."""
    x = coerce.as_tensor(x, op=op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: '{name}' must be a floating-point tensor, got {x.dtype}")
    return x


def _as_float(x, op):
    """A tensor computed in floating point: integers and bools become float32."""
    x = coerce.as_tensor(x, op=op)
    return x if dt.is_float(x.dtype) else _ew.cast(x, dt.float32)


def _number(value, name, op, kinds=(int, float)):
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"{op}: '{name}' must be a {names}, got {type(value).__name__}")
    return float(value)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """Huber loss: ``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - delta / 2)``, with
    ``d = input - target``.

    Args: ``input``, ``target`` tensors that broadcast (integers compute in float32);
    ``reduction`` 'mean' | 'sum' | 'none'; ``delta`` a number > 0 (else ValueError).

    >>> import tensorjit as ms
    >>> float(ms.ops.huber_loss(ms.Tensor([0.0, 3.0]), ms.Tensor([0.5, 0.0])))
    1.3125
    """
    _check_reduction(reduction, "huber_loss")
    delta = _number(delta, "delta", "huber_loss")
    if not delta > 0:
        raise ValueError(f"huber_loss: 'delta' must be > 0, got {delta}")
    x, y = _as_float(input, "huber_loss"), _as_float(target, "huber_loss")
    d = _ew.abs(_ew.sub(x, y))
    quadratic = _ew.mul(_ew.mul(d, d), 0.5)
    linear = _ew.mul(_ew.sub(d, 0.5 * delta), delta)
    return _reduce(_ew.where(_ew.lt(d, delta), quadratic, linear), reduction, "huber_loss")


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``: ``target`` (1 or -1) says which
    input should rank higher.

    Args: ``input1``, ``input2`` float tensors of one dtype (else TypeError); ``target``
    broadcasting with them; ``margin`` a float (an int raises TypeError, as in MindSpore);
    ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> float(ms.ops.margin_ranking_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 1.0]),
    ...                                  ms.Tensor([1.0, 1.0])))
    0.5
    """
    op = "margin_ranking_loss"
    _check_reduction(reduction, op)
    margin = _number(margin, "margin", op, (float,))
    x1, x2 = _float_input(input1, op, "input1"), _float_input(input2, op, "input2")
    if x1.dtype != x2.dtype:
        raise TypeError(f"{op}: input1 dtype {x1.dtype} must equal input2 dtype {x2.dtype}")
    y = coerce.as_tensor(target, x1.dtype, op=op)
    loss = _ew.relu(_ew.add(_ew.neg(_ew.mul(y, _ew.sub(x1, x2))), margin))
    return _reduce(loss, reduction, op)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``x`` where the target is positive, ``max(0, margin - x)`` where it is negative,
    0 where it is 0 (MindSpore's rule; PyTorch expects targets of 1 or -1 only).

    Args: ``inputs`` a float tensor (else TypeError); ``targets`` broadcasting with it;
    ``margin`` an int or float; ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> round(float(ms.ops.hinge_embedding_loss(ms.Tensor([0.3, 0.4]), ms.Tensor([1.0, -1.0]))), 4)
    0.45
    """
    op = "hinge_embedding_loss"
    margin = _number(margin, "margin", op)
    _check_reduction(reduction, op)
    x = _float_input(inputs, op, "inputs")
    t = coerce.as_tensor(targets, op=op)
    zero = _ew.zeros_like(x)
    positive = _ew.where(_ew.gt(t, 0), x, zero)
    negative = _ew.where(_ew.lt(t, 0), _ew.relu(_ew.sub(margin, x)), zero)
    return _reduce(_ew.add(positive, negative), reduction, op)


def soft_margin_loss(input, target, reduction="mean"):
    """Two-class logistic loss ``log(1 + exp(-target * input))`` (targets 1 or -1).

    Args: ``input`` a float tensor; ``target`` of the same shape (else ValueError);
    ``reduction`` 'mean' | 'sum' | 'none'. MindSpore 2.10 has no CPU kernel for it.

    >>> import tensorjit as ms
    >>> round(float(ms.ops.soft_margin_loss(ms.Tensor([0.0]), ms.Tensor([1.0]))), 4)
    0.6931
    """
    op = "soft_margin_loss"
    _check_reduction(reduction, op)
    x = _float_input(input, op)
    y = coerce.as_tensor(target, x.dtype, op=op)
    if tuple(y.shape) != tuple(x.shape):
        raise ValueError(f"{op}: target shape {tuple(y.shape)} must equal input shape "
                         f"{tuple(x.shape)}")
    return _reduce(_ew.softplus(_ew.neg(_ew.mul(y, x))), reduction, op)


def _distance(a, b, p, eps):
    """``||a - b + eps||_p`` over the last axis (PyTorch's pairwise distance)."""
    diff = _ew.abs(_ew.add(_ew.sub(a, b), eps))
    if p == 1:
        return _red.sum(diff, -1)
    if p == 2:
        return _red._safe_sqrt(_red.sum(_ew.mul(diff, diff), -1))
    return _ew.pow(_red.sum(_ew.pow(diff, float(p)), -1), 1.0 / p)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """``max(d(anchor, positive) - d(anchor, negative) + margin, 0)`` with ``d`` the
    ``p``-norm of the difference over the last axis (plus ``eps``); ``swap`` uses
    ``min(d(a, n), d(p, n))`` as the negative distance.

    Args: three float tensors that broadcast, of rank >= 1 (all 0-d or 1-d: ValueError,
    as MindSpore); ``margin`` a number (or a 0-d Tensor); ``p`` an int >= 1; ``eps`` a
    float; ``swap`` a bool; ``reduction`` 'mean' | 'sum' | 'none'. MindSpore 2.10 has no
    CPU kernel for it.

    >>> import tensorjit as ms
    >>> a = ms.Tensor([[0.0, 0.0]]); pos = ms.Tensor([[0.0, 1.0]]); neg = ms.Tensor([[3.0, 0.0]])
    >>> round(float(ms.ops.triplet_margin_loss(a, pos, neg, eps=0.0)), 4)
    0.0
    """
    op = "triplet_margin_loss"
    _check_reduction(reduction, op)
    if not hasattr(margin, "shape"):       # a Tensor margin stays a graph input
        margin = _number(margin, "margin", op)
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"{op}: 'p' must be an int >= 1, got {p!r}")
    eps = _number(eps, "eps", op)
    if not isinstance(swap, bool):
        raise TypeError(f"{op}: 'swap' must be a bool, got {type(swap).__name__}")
    a = _float_input(anchor, op, "anchor")
    pos = coerce.as_tensor(positive, a.dtype, op=op)
    neg = coerce.as_tensor(negative, a.dtype, op=op)
    if max(a.ndim, pos.ndim, neg.ndim) <= 1:
        raise ValueError(f"{op}: the inputs must not all have rank <= 1 (got ranks {a.ndim}, "
                         f"{pos.ndim}, {neg.ndim}): the last axis is the feature axis")
    d_pos = _distance(a, pos, p, eps)
    d_neg = _distance(a, neg, p, eps)
    if swap:
        d_neg = _ew.minimum(d_neg, _distance(pos, neg, p, eps))
    return _reduce(_ew.relu(_ew.add(_ew.sub(d_pos, d_neg), margin)), reduction, op)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    """Gaussian negative log-likelihood ``0.5 (log(v) + (x - target)^2 / v)`` with
    ``v = max(var, eps)`` (plus ``0.5 log(2 pi)`` when ``full``).

    Args: float tensors ``x``, ``target``; ``var`` of ``x``'s shape, or of ``x``'s shape
    without the last axis (then it is broadcast over it), or broadcasting; ``full`` a bool;
    ``eps`` a positive float (else ValueError); ``reduction`` 'mean' | 'sum' | 'none'.
    The clamp's gradient is 0 below ``eps`` (PyTorch passes it through).

    >>> import tensorjit as ms
    >>> float(ms.ops.gaussian_nll_loss(ms.Tensor([1.0]), ms.Tensor([1.0]), ms.Tensor([1.0])))
    0.0
    """
    op = "gaussian_nll_loss"
    if not isinstance(full, bool):
        raise TypeError(f"{op}: 'full' must be a bool, got {type(full).__name__}")
    if isinstance(eps, bool) or not isinstance(eps, float) or not eps > 0:
        raise ValueError(f"{op}: 'eps' must be a positive float, got {eps!r}")
    _check_reduction(reduction, op)
    mean = _as_float(x, op)
    y = coerce.as_tensor(target, op=op)
    v = coerce.as_tensor(var, op=op)
    if tuple(v.shape) != tuple(mean.shape) and tuple(v.shape) == tuple(mean.shape[:-1]):
        v = _shape.expand_dims(v, -1)
    v = _ew.maximum(v, eps)
    diff = _ew.sub(mean, y)
    loss = _ew.mul(_ew.add(_ew.log(v), _ew.div(_ew.mul(diff, diff), v)), 0.5)
    if full:
        loss = _ew.add(loss, 0.5 * math.log(2 * math.pi))
    return _reduce(loss, reduction, op)


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-08, reduction="mean"):
    """Poisson negative log-likelihood (``nn.PoissonNLLLoss``; MindSpore has no ``ops``
    function of it): ``exp(input) - target * input`` for log-rates, else
    ``input - target * log(input + eps)``; ``full`` adds Stirling's term
    ``t log t - t + 0.5 log(2 pi t)`` where ``target > 1``."""
    op = "poisson_nll_loss"
    _check_reduction(reduction, op)
    rate = _as_float(input, op)
    t = _ew.cast(coerce.as_tensor(target, op=op), rate.dtype)
    if log_input:
        loss = _ew.sub(_ew.exp(rate), _ew.mul(t, rate))
    else:
        loss = _ew.sub(rate, _ew.mul(t, _ew.log(_ew.add(rate, eps))))
    if full:
        safe = _ew.maximum(t, eps)
        stirling = _ew.add(_ew.sub(_ew.mul(_ew.add(safe, 0.5), _ew.log(safe)), safe),
                           0.5 * math.log(2 * math.pi))
        loss = _ew.add(loss, _ew.where(_ew.gt(safe, 1), stirling, _ew.zeros_like(stirling)))
    return _reduce(loss, reduction, op)


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """Multi-class hinge loss: for each row ``i`` with class ``y``,
    ``sum_{j != y} w[y] max(0, margin - x[y] + x[j])^p / C``.

    Args: ``input`` a float tensor (N, C); ``target`` int class indices (N,); ``p`` 1 or 2
    (else ValueError); ``margin`` a number (MindSpore 2.10 takes only an int); ``weight``
    None or a (C,) tensor; ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]]); y = ms.Tensor([3], ms.int64)
    >>> round(float(ms.ops.multi_margin_loss(x, y)), 4)
    0.325
    """
    op = "multi_margin_loss"
    _check_reduction(reduction, op)
    if isinstance(p, bool) or p not in (1, 2):
        raise ValueError(f"{op}: 'p' must be 1 or 2, got {p!r}")
    margin = _number(margin, "margin", op)
    x = _float_input(input, op)
    y = coerce.as_tensor(target, op=op)
    if not dt.is_int(y.dtype):
        raise TypeError(f"{op}: 'target' must hold integer class indices, got {y.dtype}")
    if x.ndim != 2 or y.ndim != 1 or y.shape[0] != x.shape[0]:
        raise ValueError(f"{op}: expected input (N, C) and target (N,), got shapes "
                         f"{tuple(x.shape)} and {tuple(y.shape)}")
    classes = x.shape[1]
    picked = _idx.gather_elements(x, 1, _shape.expand_dims(y, 1))            # (N, 1)
    hinge = _ew.relu(_ew.add(_ew.sub(x, picked), margin))
    if p == 2:
        hinge = _ew.mul(hinge, hinge)
    others = _ew.ne(_shape.expand_dims(y, 1),
                    _shape.reshape(coerce.constant(np.arange(classes)),
                                   (1, classes)))
    hinge = _ew.where(others, hinge, _ew.zeros_like(hinge))
    if weight is not None:
        w = coerce.as_tensor(weight, x.dtype, op=op)
        hinge = _ew.mul(hinge, _shape.expand_dims(_idx.gather(w, y, 0), 1))
    loss = _ew.mul(_red.sum(hinge, 1), 1.0 / classes)
    return _reduce(loss, reduction, op)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """Multi-label one-versus-all logistic loss: the mean over the last (class) axis of
    ``-(y log sigmoid(x) + (1 - y) log sigmoid(-x))``, each class weighted by ``weight``.

    Args: ``input`` a float tensor (..., C); ``target`` of 0 / 1 values, same shape
    (integer targets are cast); ``weight`` None or broadcasting to (..., C);
    ``reduction`` 'mean' | 'sum' | 'none' (over the remaining axes).

    >>> import tensorjit as ms
    >>> round(float(ms.ops.multilabel_soft_margin_loss(ms.Tensor([[0.0, 0.0]]),
    ...                                                ms.Tensor([[1.0, 0.0]]))), 4)
    0.6931
    """
    op = "multilabel_soft_margin_loss"
    _check_reduction(reduction, op)
    x = _float_input(input, op)
    y = _ew.cast(coerce.as_tensor(target, op=op), x.dtype)
    log_pos = _ew.neg(_ew.softplus(_ew.neg(x)))      # log sigmoid(x)
    log_neg = _ew.neg(_ew.softplus(x))               # log sigmoid(-x)
    loss = _ew.neg(_ew.add(_ew.mul(y, log_pos), _ew.mul(_ew.sub(1.0, y), log_neg)))
    if weight is not None:
        loss = _ew.mul(loss, coerce.as_tensor(weight, x.dtype, op=op))
    loss = _red.mean(loss, -1)
    return _reduce(loss, reduction, op)


def multilabel_margin_loss(input, target, reduction="mean"):
    """Multi-label hinge loss: for each row, the classes listed in ``target`` up to its
    first -1 are the row's labels ``J``, and the loss is
    ``sum_{j in J} sum_{i not in J} max(0, 1 - (x[j] - x[i])) / C``.

    Args: ``input`` a float tensor (C,) or (N, C); ``target`` integer class indices of
    the same shape, padded with -1; ``reduction`` 'mean' | 'sum' | 'none'. MindSpore 2.10
    has no CPU kernel for it (and takes only int32 targets; int64 works here too).

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]]); y = ms.Tensor([[3, 0, -1, 1]], ms.int32)
    >>> round(float(ms.ops.multilabel_margin_loss(x, y)), 4)
    0.85
    """
    return multilabel_margin_parts(input, target, reduction)[0]


def multilabel_margin_parts(input, target, reduction="mean"):
    """``multilabel_margin_loss`` and the mask of the label classes (``target``'s shape and
    dtype: 1 where the class is one of the row's labels), the pair MindSpore's
    ``ops.MultilabelMarginLoss`` returns."""
    op = "multilabel_margin_loss"
    _check_reduction(reduction, op)
    x = _float_input(input, op)
    y = coerce.as_tensor(target, op=op)
    if not dt.is_int(y.dtype):
        raise TypeError(f"{op}: 'target' must hold integer class indices, got {y.dtype}")
    if x.ndim not in (1, 2) or tuple(y.shape) != tuple(x.shape):
        raise ValueError(f"{op}: expected input and target of one shape, (C,) or (N, C), "
                         f"got {tuple(x.shape)} and {tuple(y.shape)}")
    single = x.ndim == 1
    if single:
        x, y = _shape.expand_dims(x, 0), _shape.expand_dims(y, 0)
    classes = x.shape[1]
    # the listed labels: positions before the first -1
    listed = _ew.cast(cumprod(_ew.cast(_ew.ne(y, -1), dt.int32), 1), x.dtype)  # (N, K)
    safe = _ew.where(_ew.gt(listed, 0), y, _ew.zeros_like(y))
    class_ids = _shape.reshape(coerce.constant(np.arange(classes)), (1, 1, classes))
    hits = _ew.mul(_ew.cast(_ew.eq(_shape.expand_dims(safe, 2), class_ids), x.dtype),
                   _shape.expand_dims(listed, 2))                             # (N, K, C)
    is_label = _ew.minimum(_red.sum(hits, 1), 1.0)                            # (N, C)
    label_scores = _idx.gather_elements(x, 1, safe)                           # (N, K)
    hinge = _ew.relu(_ew.sub(1.0, _ew.sub(_shape.expand_dims(label_scores, 2),
                                          _shape.expand_dims(x, 1))))         # (N, K, C)
    weight = _ew.mul(_shape.expand_dims(listed, 2),
                     _shape.expand_dims(_ew.sub(1.0, is_label), 1))
    loss = _ew.mul(_red.sum(_red.sum(_ew.mul(hinge, weight), 2), 1), 1.0 / classes)
    is_target = _ew.cast(_ew.stop_gradient(is_label), y.dtype)
    if single:
        loss, is_target = _shape.reshape(loss, ()), _shape.reshape(is_target, (classes,))
    return _reduce(loss, reduction, op), is_target
