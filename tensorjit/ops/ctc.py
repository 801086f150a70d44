"""``ops.ctc_loss``: the connectionist temporal classification loss, by the forward
(alpha) recursion in log space over the blank-extended labels, one ``scan`` step per time
step, so it differentiates and compiles like any composition of registry ops."""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from .creation import full_like
from .loops import scan

_NEG_INF = -np.inf


def _log_add(*terms):
    """``log(sum(exp(terms)))`` elementwise, -inf where every term is -inf (with a zero
    gradient there rather than 0 * inf = NaN)."""
    peak = terms[0]
    for t in terms[1:]:
        peak = _ew.maximum(peak, t)
    finite = _ew.isfinite(peak)
    shift = _ew.stop_gradient(_ew.where(finite, peak, _ew.zeros_like(peak)))
    total = _ew.exp(_ew.sub(terms[0], shift))
    for t in terms[1:]:
        total = _ew.add(total, _ew.exp(_ew.sub(t, shift)))
    positive = _ew.gt(total, 0)
    safe = _ew.where(positive, total, _ew.ones_like(total))
    return _ew.where(positive, _ew.add(_ew.log(safe), shift), full_like(total, _NEG_INF))


def _shift_right(x, by):
    """``x`` moved ``by`` places along the last axis, -inf coming in from the left."""
    pad = full_like(x[..., :by], _NEG_INF)
    return _shape.concat([pad, x[..., :x.shape[-1] - by]], -1)


def _check(log_probs, targets, input_lengths, target_lengths, blank, reduction):
    op = "ctc_loss"
    lp = coerce.as_tensor(log_probs, op=op)
    if lp.dtype not in (dt.float32, dt.float64):
        raise TypeError(f"{op}: log_probs must be float32 or float64, got {lp.dtype}")
    if lp.ndim != 3:
        raise ValueError(f"{op}: log_probs must be (T, N, C), got shape {tuple(lp.shape)}")
    tg = coerce.as_tensor(targets, op=op)
    if not dt.is_int(tg.dtype):
        raise TypeError(f"{op}: targets must be integers, got {tg.dtype}")
    if tg.ndim != 2 or tg.shape[0] != lp.shape[1]:
        raise ValueError(f"{op}: targets must be (N, S) with N = {lp.shape[1]}, got shape "
                         f"{tuple(tg.shape)}")
    lengths = []
    for name, value in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        t = coerce.as_tensor(value, op=op)
        if not dt.is_int(t.dtype) or tuple(t.shape) != (lp.shape[1],):
            raise ValueError(f"{op}: {name} must be N = {lp.shape[1]} integers, got "
                             f"{t.dtype}{list(t.shape)}")
        lengths.append(t)
    if isinstance(blank, bool) or not isinstance(blank, int) or not 0 <= blank < lp.shape[2]:
        raise ValueError(f"{op}: blank must be in [0, {lp.shape[2]}), got {blank!r}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{op}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    return lp, tg, lengths[0], lengths[1]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """CTC loss of log-probabilities ``log_probs`` (T, N, C) against padded ``targets``
    (N, S); returns ``(loss, log_alpha)`` as MindSpore does, ``log_alpha`` (N, T, 2S+1) the
    forward variables (-inf past each input length and label end).

    Args: ``input_lengths`` / ``target_lengths`` (N,) integers; ``blank`` the blank class
    (0); ``reduction`` 'mean' (each loss divided by its target length, then the batch
    mean), 'sum' or 'none'; ``zero_infinity`` replaces infinite losses (impossible
    alignments) and their gradients by 0 (MindSpore 2.10's CPU kernel leaves them inf).
    The gradient is the exact one with respect to ``log_probs`` (MindSpore and PyTorch
    return the gradient with respect to the logits before log_softmax; both give the same
    gradient to the logits when ``log_probs`` is a log_softmax).

    >>> import tensorjit as ms, numpy as np
    >>> lp = ms.Tensor(np.log(np.full((2, 1, 2), 0.5, np.float32)))
    >>> loss, _ = ms.ops.ctc_loss(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1]))
    >>> round(float(loss), 4)      # 3 alignments of probability 1/4: -log(3/4)
    0.2877
    """
    lp, tg, il, tl = _check(log_probs, targets, input_lengths, target_lengths, blank,
                            reduction)
    loss, log_alpha, _ = forward(lp, tg, il, tl, blank)
    if zero_infinity:
        loss = _ew.where(_ew.isinf(loss), _ew.zeros_like(loss), loss)
    log_alpha = _ew.stop_gradient(log_alpha)
    if reduction == "none":
        return loss, log_alpha
    if reduction == "sum":
        return _red.sum(loss), log_alpha
    per_label = _ew.div(loss, _ew.cast(_ew.maximum(tl, 1), loss.dtype))
    return _red.mean(per_label), log_alpha


def forward(lp, tg, il, tl, blank, merge_repeated=True):
    """(loss (N,), log_alpha (N, T, L), extended labels (N, L)) of checked operands.
    ``merge_repeated=False`` (TensorFlow's ``ctc_merge_repeated``) reads a repeated
    emission as another label: a label state has no self-loop, and may follow the same
    label two states back directly."""
    steps, batch, classes = lp.shape
    width = 2 * tg.shape[1] + 1
    positions = coerce.constant(np.arange(width))                        # (L,)
    # the extended labels: blank, t1, blank, t2, ..., blank (blank past each target's end)
    target_index = np.minimum(np.arange(width) // 2, max(tg.shape[1] - 1, 0))  # odd s: s // 2
    label_of = _shape.reshape(coerce.constant(target_index), (1, width))
    odd = coerce.constant(np.arange(width) % 2 == 1)
    tl_col = _shape.expand_dims(_ew.cast(tl, dt.int64), 1)                 # (N, 1)
    valid = _ew.lt(positions, _ew.add(_ew.mul(tl_col, 2), 1))               # (N, L)
    if tg.shape[1]:
        picked = _idx.gather_elements(tg, 1, _shape.broadcast_to(label_of, (batch, width)))
    else:
        picked = _ew.zeros_like(_ew.cast(_shape.broadcast_to(label_of, (batch, width)),
                                         tg.dtype))
    ext = _ew.where(_ew.logical_and(odd, valid), picked, full_like(picked, blank))
    ext = _ew.where(_ew.logical_and(_ew.ge(ext, 0), _ew.lt(ext, classes)), ext,
                    full_like(ext, blank))
    ext = _ew.cast(ext, dt.int64)
    # emissions (T, N, L): log p of each extended label at each step, -inf past the end
    emit = _idx.gather_elements(lp, 2, _shape.broadcast_to(_shape.expand_dims(ext, 0),
                                                           (steps, batch, width)))
    minus_inf = full_like(emit, _NEG_INF)
    emit = _ew.where(_shape.expand_dims(valid, 0), emit, minus_inf)
    # a label may skip the blank before it when it differs from the label two back
    skip = _ew.logical_and(odd, _ew.ge(positions, 2))
    if merge_repeated:
        skip = _ew.logical_and(skip, _ew.ne(ext, _shape.concat(
            [full_like(ext[:, :2], -1), ext[:, :width - 2]], 1)))
    start = _ew.lt(positions, 2)
    alpha0 = _ew.where(start, emit[0], minus_inf[0])                       # (N, L)
    active = _ew.lt(_shape.reshape(coerce.constant(np.arange(steps)), (steps, 1)),
                    _shape.expand_dims(_ew.cast(il, dt.int64), 0))         # (T, N)

    def step(alpha, inputs):
        e_t, on = inputs
        two_back = _ew.where(skip, _shift_right(alpha, 2), full_like(alpha, _NEG_INF))
        stay = alpha if merge_repeated else _ew.where(odd, full_like(alpha, _NEG_INF), alpha)
        new = _ew.add(_log_add(stay, _shift_right(alpha, 1), two_back), e_t)
        alpha = _ew.where(_shape.expand_dims(on, 1), new, alpha)
        return alpha, alpha

    if steps > 1:
        final, later = scan(step, alpha0, (emit[1:], active[1:]))
        history = _shape.concat([_shape.expand_dims(alpha0, 0), later], 0)  # (T, N, L)
    else:
        final, history = alpha0, _shape.expand_dims(alpha0, 0)
    # the path ends on the last label or on the blank after it
    last = _ew.mul(tl_col, 2)                                              # (N, 1)
    before = _ew.maximum(_ew.sub(last, 1), 0)
    at_last = _idx.gather_elements(final, 1, last)
    at_before = _ew.where(_ew.gt(last, 0), _idx.gather_elements(final, 1, before),
                          full_like(at_last, _NEG_INF))
    loss = _ew.neg(_shape.reshape(_log_add(at_last, at_before), (batch,)))
    log_alpha = _shape.transpose(_ew.where(_shape.expand_dims(active, 2), history,
                                           full_like(history, _NEG_INF)), (1, 0, 2))
    return loss, log_alpha, ext
