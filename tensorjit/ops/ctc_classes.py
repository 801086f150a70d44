"""MindSpore's CTC operator classes and greedy decoder over the forward recursion of
``ctc.py``:

* ``CTCLossV2``: ``ops.ctc_loss``'s (loss, log_alpha);
* ``CTCLoss`` (TensorFlow's): logits (T, N, C) with the blank the last class, sparse labels,
  and the loss's gradient with respect to the logits as its second output -- the softmax
  minus the posterior of each class, the posterior from the forward variables and the
  backward ones (the forward recursion over each sequence reversed in time);
* ``ctc_greedy_decoder`` / ``CTCGreedyDecoder``: the best class at each step, repeats
  merged and blanks dropped, as a sparse tensor (its length read from the values, as
  ``nonzero``'s is).
"""
import numpy as np

from .. import dtype as dt
from ..state import state
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from .creation import full_like, zeros
from .cumulative import cumsum
from .ctc import ctc_loss, forward, _NEG_INF
from .linalg import matmul
from .normalization import log_softmax, softmax
from .scattering import gather_nd, tensor_scatter_update
from .sorting import argsort

__all__ = ["compute_ctc_loss_v2", "compute_ctc_loss", "ctc_greedy_decoder",
           "compute_ctc_greedy_decoder"]


def compute_ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, *, blank,
                        reduction, zero_infinity):
    """``CTCLossV2``: (neg_log_likelihood, log_alpha) of ``ops.ctc_loss``; the class
    takes only reduction 'none' (MindSpore 2.10)."""
    if reduction != "none":
        raise ValueError(f"CTCLossV2: 'reduction' must be 'none', got {reduction!r}")
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                    zero_infinity)


def _classes(count):
    return coerce.constant(np.arange(count, dtype=np.int64))


def _dense_labels(indices, values, batch, op):
    """(targets (N, K), lengths (N,)) from sparse (K, 2) indices and (K,) values; K, the
    number of labels, bounds every row's length, so the shapes are static."""
    idx = coerce.as_tensor(indices, op=op)
    val = coerce.as_tensor(values, op=op)
    if idx.dtype != dt.int64 or idx.ndim != 2 or idx.shape[1] != 2:
        raise TypeError(f"{op}: 'labels_indices' must be an int64 (K, 2) tensor, got "
                        f"{idx.dtype}{list(idx.shape)}")
    if val.dtype != dt.int32 or val.shape != (idx.shape[0],):
        raise TypeError(f"{op}: 'labels_values' must be an int32 tensor of {idx.shape[0]} "
                        f"elements, got {val.dtype}{list(val.shape)}")
    k = idx.shape[0]
    rows = _ew.cast(idx[:, 0], dt.int64)
    lengths = _ew.cast(_red.sum(_ew.cast(_ew.eq(_shape.expand_dims(rows, 1), _classes(
        batch)), dt.int32), 0), dt.int32)                                   # (N,)
    if k == 0:
        return _ew.cast(_shape.reshape(lengths, (batch, 0)), dt.int32), lengths
    dense = tensor_scatter_update(zeros((batch, k), dt.int32), idx, val)
    return dense, lengths


def _collapse_repeats(targets, lengths):
    """Each row's labels with runs of one label kept once (TensorFlow's
    ``preprocess_collapse_repeated``), moved to the front; the new lengths."""
    n, k = targets.shape
    position = coerce.constant(np.arange(k))
    inside = _ew.lt(position, _shape.expand_dims(lengths, 1))
    previous = _shape.concat([full_like(targets[:, :1], -1), targets[:, :k - 1]], 1)
    keep = _ew.logical_and(inside, _ew.ne(targets, previous))
    order = argsort(_ew.where(keep, position, _ew.add(position, k)), 1)
    return (_idx.gather_elements(targets, 1, order),
            _ew.cast(_red.sum(_ew.cast(keep, dt.int32), 1), dt.int32))


def _reverse_time(x, lengths, axis):
    """``x`` reversed along ``axis`` within each row's length (rows on the other axis)."""
    steps = x.shape[axis]
    t = coerce.constant(np.arange(steps))
    if axis == 0:          # x (T, N, ...), lengths (N,)
        t = _shape.reshape(t, (steps, 1))
        ln = _shape.expand_dims(lengths, 0)
    else:                  # x (N, T, ...), lengths (N,)
        t = _shape.reshape(t, (1, steps))
        ln = _shape.expand_dims(lengths, 1)
    index = _ew.where(_ew.lt(t, ln), _ew.sub(_ew.sub(ln, 1), t), t)
    while index.ndim < x.ndim:
        index = _shape.expand_dims(index, -1)
    return _idx.gather_elements(x, axis, _shape.broadcast_to(index, tuple(x.shape)))


def compute_ctc_loss(inputs, labels_indices, labels_values, sequence_length, *,
                     preprocess_collapse_repeated, ctc_merge_repeated,
                     ignore_longer_outputs_than_inputs):
    """``CTCLoss``: (loss (N,), gradient (T, N, C) of the loss with respect to
    ``inputs``), the blank the last class. A label longer than its sequence raises
    RuntimeError when the values are known (eagerly; a compiled graph gives it loss inf),
    or with ``ignore_longer_outputs_than_inputs`` keeps loss inf and gets a zero
    gradient, as MindSpore 2.10's CPU kernel does."""
    op = "CTCLoss"
    x = coerce.as_tensor(inputs, op=op)
    if x.dtype not in (dt.float16, dt.float32, dt.float64) or x.ndim != 3:
        raise TypeError(f"{op}: 'inputs' must be a (T, N, C) float16 / float32 / float64 "
                        f"tensor, got {x.dtype}{list(x.shape)}")
    seq = coerce.as_tensor(sequence_length, op=op)
    if seq.dtype != dt.int32 or seq.shape != (x.shape[1],):
        raise TypeError(f"{op}: 'sequence_length' must be int32 of shape ({x.shape[1]},), got "
                        f"{seq.dtype}{list(seq.shape)}")
    steps, batch, classes = x.shape
    blank = classes - 1
    targets, lengths = _dense_labels(labels_indices, labels_values, batch, op)
    if preprocess_collapse_repeated:
        targets, lengths = _collapse_repeats(targets, lengths)
    wide = x if x.dtype != dt.float16 else _ew.cast(x, dt.float32)
    lp = log_softmax(wide, -1)
    loss, log_alpha, ext = forward(lp, targets, seq, lengths, blank, ctc_merge_repeated)
    # the backward variables: the forward ones of each sequence and label reversed
    rev_targets = _reverse_time(targets, lengths, 1)
    _, rev_alpha, _ = forward(_reverse_time(lp, seq, 0), rev_targets, seq, lengths, blank,
                              ctc_merge_repeated)
    width = ext.shape[1]
    log_beta = _reverse_time(rev_alpha, seq, 1)                        # time back in place
    s = _shape.reshape(coerce.constant(np.arange(width)), (1, 1, width))
    last = _shape.reshape(_ew.mul(_ew.cast(lengths, dt.int64), 2), (batch, 1, 1))
    mirror = _ew.where(_ew.le(s, last), _ew.sub(last, s), s)
    log_beta = _idx.gather_elements(log_beta, 2, _shape.broadcast_to(mirror, tuple(
        log_beta.shape)))
    log_beta = _ew.where(_ew.le(s, last), log_beta, full_like(log_beta, _NEG_INF))
    # log y_t(ext[s]) counted in both alpha and beta: take it out once
    emit = _idx.gather_elements(_shape.transpose(lp, (1, 0, 2)), 2, _shape.broadcast_to(
        _shape.expand_dims(ext, 1), (batch, steps, width)))
    log_gamma = _ew.sub(_ew.add(_ew.add(log_alpha, log_beta), _shape.reshape(
        loss, (batch, 1, 1))), emit)
    gamma = _ew.where(_ew.isfinite(log_gamma), _ew.exp(log_gamma), _ew.zeros_like(log_gamma))
    one_hot = _ew.cast(_ew.eq(_shape.expand_dims(ext, 2), _classes(classes)), gamma.dtype)
    posterior = matmul(gamma, one_hot)                                  # (N, T, C)
    active = _ew.lt(_shape.reshape(coerce.constant(np.arange(steps)), (1, steps, 1)),
                    _shape.reshape(seq, (batch, 1, 1)))
    grad = _ew.sub(_shape.transpose(softmax(wide, -1), (1, 0, 2)), posterior)
    grad = _ew.where(active, grad, _ew.zeros_like(grad))
    too_long = _ew.gt(lengths, seq)
    if ignore_longer_outputs_than_inputs:     # their loss stays inf, their gradient is 0
        grad = _ew.where(_shape.reshape(too_long, (batch, 1, 1)), _ew.zeros_like(grad), grad)
    elif state.capture is None and bool(_red.any(too_long).asnumpy()):
        raise RuntimeError(f"{op}: a label is longer than its sequence (lengths "
                           f"{lengths.asnumpy().tolist()}, sequence lengths "
                           f"{seq.asnumpy().tolist()})")
    grad = _ew.where(_ew.isfinite(_shape.reshape(loss, (batch, 1, 1))), grad,
                     _ew.zeros_like(grad))
    grad = _ew.stop_gradient(_shape.transpose(grad, (1, 0, 2)))
    return _ew.cast(loss, x.dtype), _ew.cast(grad, x.dtype)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Greedy CTC decoding of (T, N, C) float32 / float64 scores, the blank the last
    class: (decoded_indices (K, 2) int64, decoded_values (K,) int64, decoded_shape (2,)
    int64 = (N, longest), log_probability (N, 1) = -sum of each step's best score)."""
    op = "ctc_greedy_decoder"
    x = coerce.as_tensor(inputs, op=op)
    if x.dtype not in (dt.float32, dt.float64) or x.ndim != 3:
        raise TypeError(f"{op}: 'inputs' must be a 3-D float32 / float64 tensor, got "
                        f"{x.dtype}{list(x.shape)}")
    seq = coerce.as_tensor(sequence_length, op=op)
    if seq.dtype != dt.int32 or seq.shape != (x.shape[1],):
        raise TypeError(f"{op}: 'sequence_length' must be int32 of shape ({x.shape[1]},), "
                        f"got {seq.dtype}{list(seq.shape)}")
    steps, batch, classes = x.shape
    best = _shape.transpose(_red.argmax(x, -1), (1, 0))                   # (N, T)
    top = _shape.transpose(_red.amax(x, -1), (1, 0))
    active = _ew.lt(_shape.reshape(coerce.constant(np.arange(steps)), (1, steps)),
                    _shape.expand_dims(_ew.cast(seq, dt.int64), 1))
    keep = _ew.logical_and(active, _ew.ne(best, classes - 1))
    if merge_repeated:
        previous = _shape.concat([full_like(best[:, :1], -1), best[:, :steps - 1]], 1)
        keep = _ew.logical_and(keep, _ew.ne(best, previous))
    where = _ew.cast(_idx.nonzero(keep), dt.int64)                          # (K, 2): n, t
    rank = _red.sum(_ew.cast(keep, dt.int64), 1)                          # (N,)
    slot = _ew.sub(cumsum(_ew.cast(keep, dt.int64), 1), 1)                 # (N, T)
    indices = _shape.stack([where[:, 0], gather_nd(slot, where)], 1)
    values = _ew.cast(gather_nd(best, where), dt.int64)
    shape = _shape.stack([_ew.cast(coerce.constant(batch), dt.int64),
                          _red.amax(rank) if batch else coerce.constant(0, dt.int64)])
    log_p = _ew.neg(_red.sum(_ew.where(active, top, _ew.zeros_like(top)), 1, keepdims=True))
    return indices, values, shape, _ew.stop_gradient(log_p)     # MindSpore: no gradient


def compute_ctc_greedy_decoder(inputs, sequence_length, *, merge_repeated):
    """``CTCGreedyDecoder``: ``ops.ctc_greedy_decoder``."""
    return ctc_greedy_decoder(inputs, sequence_length, merge_repeated)
