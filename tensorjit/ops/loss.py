"""Loss functions, composed from primitives (their gradients come for free)."""
from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from .normalization import log_softmax

_REDUCTIONS = ("mean", "sum", "none")


def _prediction(x, op):
    """The scores / predictions of a loss: a floating-point tensor (MindSpore, PyTorch)."""
    x = coerce.as_tensor(x, op=op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: expected floating-point predictions, got {x.dtype}")
    return x


def _reduce(loss, reduction, op, weight_sum=None):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{op}: reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    if reduction == "none":
        return loss
    total = _red.sum(loss)
    if reduction == "sum":
        return total
    if weight_sum is not None:
        return _ew.div(total, weight_sum)
    return _red.mean(loss)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Negative log-likelihood of class indices ``target`` under log-probabilities
    ``inputs`` of shape (N, C) or (N, C, d1, ...)."""
    logp = _prediction(inputs, "nll_loss")
    target = coerce.as_tensor(target, op="nll_loss")
    if not dt.is_int(target.dtype):
        raise TypeError(f"nll_loss: target must hold integer class indices, got {target.dtype}")
    if logp.ndim < 2:
        logp = _shape.reshape(logp, (1, -1))
        target = _shape.reshape(target, (1,))
    if logp.ndim > 2:        # (N, C, d...) -> (N*d..., C)
        logp = _shape.reshape(_shape.movedim(logp, 1, -1), (-1, logp.shape[1]))
    out_shape = tuple(target.shape)
    target = _shape.reshape(target, (-1,))
    if target.shape[0] != logp.shape[0]:
        raise ValueError(f"nll_loss: {target.shape[0]} targets for {logp.shape[0]} predictions")
    valid = _ew.ne(target, ignore_index)
    safe_target = _ew.where(valid, target, _ew.zeros_like(target))
    picked = _idx.gather_elements(logp, 1, _shape.reshape(safe_target, (-1, 1)))
    picked = _shape.reshape(picked, (-1,))
    valid_f = _ew.cast(valid, logp.dtype)
    w = valid_f
    if weight is not None:
        weight = coerce.as_tensor(weight, logp.dtype)
        w = _ew.mul(w, _idx.gather(weight, safe_target, 0))
    loss = _ew.neg(_ew.mul(picked, w))
    if label_smoothing:
        # the uniform part weighs every class by its own weight (PyTorch and MindSpore)
        per_class = logp if weight is None else _ew.mul(logp, weight)
        smooth = _ew.mul(_ew.neg(_red.mean(per_class, -1)), valid_f)
        loss = _ew.add(_ew.mul(loss, 1.0 - label_smoothing),
                       _ew.mul(smooth, label_smoothing))
    loss = _shape.reshape(loss, out_shape)
    return _reduce(loss, reduction, "nll_loss", _red.sum(w) if reduction == "mean" else None)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """MindSpore ``ops.cross_entropy``: ``target`` holds class indices (int) or class
    probabilities (float, same shape as ``input``)."""
    logits = _prediction(input, "cross_entropy")
    target = coerce.as_tensor(target, op="cross_entropy")
    logp = log_softmax(logits, axis=1 if logits.ndim > 1 else 0)
    if dt.is_float(target.dtype):
        if tuple(target.shape) != tuple(logits.shape):
            raise ValueError(f"cross_entropy: probability targets of shape "
                             f"{tuple(target.shape)} must match input {tuple(logits.shape)}")
        if label_smoothing:
            classes = logits.shape[1 if logits.ndim > 1 else 0]
            target = _ew.add(_ew.mul(target, 1.0 - label_smoothing), label_smoothing / classes)
        per = _ew.mul(logp, target)
        if weight is not None:
            shape = (1, -1) + (1,) * (logits.ndim - 2)
            per = _ew.mul(per, _shape.reshape(weight, shape))
        loss = _ew.neg(_red.sum(per, 1 if logits.ndim > 1 else 0))
        return _reduce(loss, reduction, "cross_entropy")
    return nll_loss(logp, target, weight, ignore_index, reduction, label_smoothing)


def softmax_cross_entropy_with_logits(logits, labels, sparse=False, reduction="none"):
    """``nn.SoftmaxCrossEntropyWithLogits``: labels are one-hot (or indices if sparse)."""
    logits = _prediction(logits, "softmax_cross_entropy")
    labels = coerce.as_tensor(labels, op="softmax_cross_entropy")
    logp = log_softmax(logits, axis=-1)
    if sparse:
        loss = _ew.neg(_shape.reshape(_idx.gather_elements(
            logp, -1 % logp.ndim, _shape.expand_dims(labels, -1)), tuple(labels.shape)))
    else:
        loss = _ew.neg(_red.sum(_ew.mul(logp, _ew.cast(labels, logp.dtype)), -1))
    return _reduce(loss, reduction, "softmax_cross_entropy")


def mse_loss(input, target, reduction="mean"):
    diff = _ew.sub(_prediction(input, "mse_loss"), target)
    return _reduce(_ew.mul(diff, diff), reduction, "mse_loss")


def l1_loss(input, target, reduction="mean"):
    return _reduce(_ew.abs(_ew.sub(_prediction(input, "l1_loss"), target)), reduction, "l1_loss")


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    diff = _ew.abs(_ew.sub(_prediction(input, "smooth_l1_loss"), target))
    quad = _ew.mul(_ew.mul(diff, diff), 0.5 / beta)
    loss = _ew.where(_ew.lt(diff, beta), quad, _ew.sub(diff, 0.5 * beta))
    return _reduce(loss, reduction, "smooth_l1_loss")


def binary_cross_entropy_with_logits(logits, label, weight=None, pos_weight=None,
                                     reduction="mean"):
    x = _prediction(logits, "binary_cross_entropy_with_logits")
    y = coerce.as_tensor(label, x.dtype, op="binary_cross_entropy_with_logits")
    log_sig = _ew.neg(_ew.softplus(_ew.neg(x)))          # log(sigmoid(x))
    log_one_minus = _ew.neg(_ew.softplus(x))             # log(1 - sigmoid(x))
    pos = _ew.mul(y, log_sig)
    if pos_weight is not None:
        pos = _ew.mul(pos, pos_weight)
    loss = _ew.neg(_ew.add(pos, _ew.mul(_ew.sub(1.0, y), log_one_minus)))
    if weight is not None:
        loss = _ew.mul(loss, weight)
    return _reduce(loss, reduction, "binary_cross_entropy_with_logits")


def _reduce_kl(loss, reduction):
    if reduction == "batchmean":
        batch = loss.shape[0] if loss.ndim else 1
        return _ew.mul(_red.sum(loss), 1.0 / batch)
    return _reduce(loss, reduction, "kl_div")


def kl_div(logits, labels, reduction="mean"):
    """``labels * (log(labels) - logits)`` with ``logits`` log-probabilities; 0 where a
    label is 0. ``reduction``: 'mean' (over every element), 'batchmean', 'sum', 'none'."""
    x = _prediction(logits, "kl_div")
    y = coerce.as_tensor(labels, x.dtype, op="kl_div")
    positive = _ew.gt(y, 0)
    safe = _ew.where(positive, y, _ew.ones_like(y))
    loss = _ew.where(positive, _ew.mul(y, _ew.sub(_ew.log(safe), x)), _ew.zeros_like(x))
    return _reduce_kl(loss, reduction)


def _widened(x):
    """The dtype a loss with a small epsilon computes in: float32 for float16 / bfloat16
    (1e-12 is 0 in float16, and a clamp at 0 gives inf and NaN)."""
    return dt.float32 if x.dtype in (dt.float16, dt.bfloat16) else x.dtype


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """Binary cross entropy of probabilities ``logits`` against ``labels``; the logs are
    taken of at least 1e-12, as MindSpore does, so a probability of 0 or 1 stays finite."""
    given = _prediction(logits, "binary_cross_entropy")
    p = _ew.cast(given, _widened(given))
    y = coerce.as_tensor(labels, p.dtype, op="binary_cross_entropy")
    eps = 1e-12
    log_p = _ew.log(_ew.maximum(p, eps))
    log_q = _ew.log(_ew.maximum(_ew.sub(1.0, p), eps))
    loss = _ew.neg(_ew.add(_ew.mul(y, log_p), _ew.mul(_ew.sub(1.0, y), log_q)))
    if weight is not None:
        loss = _ew.mul(loss, coerce.as_tensor(weight, p.dtype, op="binary_cross_entropy"))
    return _ew.cast(_reduce(loss, reduction, "binary_cross_entropy"), given.dtype)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where
    it is -1; the cosine is over the last axis (1e-12 is added to the squared norms, so
    zero vectors give a finite loss where MindSpore gives NaN)."""
    given = _prediction(input1, "cosine_embedding_loss")
    x1 = _ew.cast(given, _widened(given))
    x2 = coerce.as_tensor(input2, x1.dtype, op="cosine_embedding_loss")
    y = coerce.as_tensor(target, op="cosine_embedding_loss")
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(f"cosine_embedding_loss: input shapes {tuple(x1.shape)} and "
                         f"{tuple(x2.shape)} differ")
    if tuple(y.shape) != tuple(x1.shape[:-1]):
        raise ValueError(f"cosine_embedding_loss: target shape {tuple(y.shape)} must be the "
                         f"inputs' shape without the last axis, {tuple(x1.shape[:-1])}")
    dot = _red.sum(_ew.mul(x1, x2), -1)
    norms = _ew.mul(_ew.add(_red.sum(_ew.mul(x1, x1), -1), 1e-12),
                    _ew.add(_red.sum(_ew.mul(x2, x2), -1), 1e-12))
    cos = _ew.mul(dot, _ew.rsqrt(norms))
    similar = _ew.sub(1.0, cos)
    dissimilar = _ew.maximum(_ew.sub(cos, float(margin)), 0.0)
    zero = _ew.zeros_like(cos)
    loss = _ew.where(_ew.eq(y, 1), similar, _ew.where(_ew.eq(y, -1), dissimilar, zero))
    return _ew.cast(_reduce(loss, reduction, "cosine_embedding_loss"), given.dtype)
