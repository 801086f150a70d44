"""Table entries: losses (their formulas written out in NumPy)."""
import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, Differs, FLOATS
from .samples import random

_TOL16 = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}


def _reduce(loss, reduction, weight_sum=None):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / weight_sum if weight_sum is not None else loss.mean()


def _nll_ref(logp, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    if logp.ndim > 2:          # (N, C, d...) -> (N * d..., C)
        logp = np.moveaxis(logp, 1, -1).reshape(-1, logp.shape[1])
    shape, target = target.shape, target.reshape(-1)
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    w = valid * (1.0 if weight is None else weight[safe])
    loss = -logp[np.arange(len(safe)), safe] * w
    if label_smoothing:
        loss = (1 - label_smoothing) * loss - label_smoothing * logp.mean(-1) * w
    return _reduce(loss.reshape(shape), reduction, w.sum() if reduction == "mean" else None)


def _class_samples(dtype, rng, full, logits=False):
    def scores(*shape):
        x = random(rng, shape, dtype, -3, 3)
        return x if logits else special.log_softmax(x.astype(np.float64), 1).astype(dtype)

    def targets(*shape, classes=4):
        return rng.integers(0, classes, shape).astype(np.int64)
    t = targets(5)
    t[1] = -100
    return [Sample(scores(5, 4), targets(5), label="mean"),
            Sample(scores(5, 4), targets(5), None, -100, "sum", label="sum"),
            Sample(scores(5, 4), targets(5), None, -100, "none", label="none"),
            Sample(scores(5, 4), targets(5), random(rng, (4,), dtype, 0.5, 2), label="weight"),
            Sample(scores(5, 4), t, label="ignore_index"),
            Sample(scores(2, 4, 3), targets(2, 3), label="(N, C, d)"),
            Sample(scores(5, 4), targets(5), None, -100, "mean", 0.1, label="label smoothing")]


_T = lambda torch, name: getattr(torch.nn.functional, name)  # noqa: E731
op("nll_loss", prims=(), ref=_nll_ref, dtypes=FLOATS, tol=_TOL16, result=lambda x, *r: x,
   nondiff=(2,),
   samples=_class_samples, torch=lambda torch, x, t, w=None, ii=-100, red="mean", ls=0.0:
   _T(torch, "nll_loss")(x, t, w, ignore_index=ii, reduction=red) if not ls else
   (1 - ls) * _T(torch, "nll_loss")(x, t, w, ignore_index=ii, reduction=red)
   - ls * (x.mean(1) * (t != ii)).sum() / (t != ii).sum(),
   notes={"mean": "the weighted mean divides by the sum of the weights of the targets "
                  "counted (PyTorch, MindSpore)"})


def _ce_ref(x, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    axis = 1 if x.ndim > 1 else 0
    logp = special.log_softmax(x, axis)
    if target.dtype.kind == "f":
        classes = x.shape[axis]
        target = target * (1 - label_smoothing) + label_smoothing / classes
        per = logp * target
        if weight is not None:
            per = per * weight.reshape((1, -1) + (1,) * (x.ndim - 2))
        return _reduce(-per.sum(axis), reduction)
    return _nll_ref(logp, target, weight, ignore_index, reduction, label_smoothing)


def _ce_samples(dtype, rng, full):
    out = _class_samples(dtype, rng, full, logits=True)
    probs = special.softmax(rng.standard_normal((5, 4)), 1).astype(dtype)
    return out + [Sample(random(rng, (5, 4), dtype, -3, 3), probs, label="probabilities"),
                  Sample(random(rng, (5, 4), dtype, -3, 3), probs, None, -100, "sum", 0.2,
                         label="probabilities, smoothing")]


op("cross_entropy", prims=(), ref=_ce_ref, dtypes=FLOATS, tol=_TOL16, result=lambda x, *r: x,
   nondiff=(2,),
   samples=_ce_samples, torch=lambda torch, x, t, w=None, ii=-100, red="mean", ls=0.0:
   _T(torch, "cross_entropy")(x, t, w, ignore_index=ii, reduction=red, label_smoothing=ls),
   notes={"label smoothing": "with class indices, (1 - s) * nll + s * mean over classes of "
                             "-log p (PyTorch without class weights)"})


def _scel_ref(logits, labels, sparse=False, reduction="none"):
    logp = special.log_softmax(logits, -1)
    loss = -np.take_along_axis(logp, labels[..., None], -1)[..., 0] if sparse else \
        -(logp * labels).sum(-1)
    return _reduce(loss, reduction)


op("softmax_cross_entropy_with_logits", prims=(), ref=_scel_ref, dtypes=FLOATS, tol=_TOL16,
   result=lambda x, *r: x, torch=None, ms=None, samples=lambda dtype, rng, full: [
       Sample(random(rng, (5, 4), dtype, -3, 3), np.eye(4, dtype=dtype)[rng.integers(0, 4, 5)],
              label="one-hot"),
       Sample(random(rng, (5, 4), dtype, -3, 3), rng.integers(0, 4, 5), True, "mean",
              label="sparse, mean")])


def _pair_samples(extra=()):
    def make(dtype, rng, full):
        def r(*shape):
            return random(rng, shape, dtype, -2, 2)
        out = [Sample(r(3, 4), r(3, 4), label="mean"), Sample(r(3, 4), r(3, 4), reduction="sum",
                                                              label="sum"),
               Sample(r(3, 4), r(3, 4), reduction="none", label="none"),
               Sample(r(3, 4), r(4), label="broadcast target")]
        return out + [Sample(r(3, 4), r(3, 4), label=label, **kw) for label, kw in extra]
    return make


op("mse_loss", prims=(), ref=lambda x, y, reduction="mean": _reduce((x - y) ** 2, reduction),
   dtypes=FLOATS, tol=_TOL16, samples=_pair_samples(),
   torch=lambda torch, x, y, reduction="mean": _T(torch, "mse_loss")(
       x, y.expand_as(x), reduction=reduction))
op("l1_loss", prims=(), ref=lambda x, y, reduction="mean": _reduce(np.abs(x - y), reduction),
   dtypes=FLOATS, tol=_TOL16, samples=_pair_samples(),
   torch=lambda torch, x, y, reduction="mean": _T(torch, "l1_loss")(
       x, y.expand_as(x), reduction=reduction))


def _smooth_l1_ref(x, y, beta=1.0, reduction="none"):
    d = np.abs(x - y)
    return _reduce(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


op("smooth_l1_loss", prims=(), ref=_smooth_l1_ref, dtypes=FLOATS, tol=_TOL16,
   samples=_pair_samples([("beta", dict(beta=0.5))]),
   torch=lambda torch, x, y, beta=1.0, reduction="none": _T(torch, "smooth_l1_loss")(
       x, y.expand_as(x), reduction=reduction, beta=beta))


def _bce_ref(x, y, weight=None, pos_weight=None, reduction="mean"):
    log_sig, log_not = -np.logaddexp(0, -x), -np.logaddexp(0, x)
    pos = y * log_sig * (1 if pos_weight is None else pos_weight)
    loss = -(pos + (1 - y) * log_not) * (1 if weight is None else weight)
    return _reduce(loss, reduction)


def _bce_samples(dtype, rng, full):
    def r(*shape, lo=-3, hi=3):
        return random(rng, shape, dtype, lo, hi)
    return [Sample(r(3, 4), r(3, 4, lo=0, hi=1), label="mean"),
            Sample(r(3, 4), r(3, 4, lo=0, hi=1), r(4, lo=0.5, hi=2), r(4, lo=0.5, hi=2), "sum",
                   label="weights, sum"),
            Sample(np.array([-40.0, 40.0, 0.0]).astype(dtype), np.array([1, 0, 1], dtype), None,
                   None, "none", label="saturated logits")]


op("binary_cross_entropy_with_logits", prims=(), ref=_bce_ref, dtypes=FLOATS, tol=_TOL16,
   nondiff=(2, 3),
   samples=_bce_samples, torch=lambda torch, x, y, w=None, pw=None, reduction="mean":
   _T(torch, "binary_cross_entropy_with_logits")(x, y, w, reduction=reduction, pos_weight=pw),
   notes={"stability": "log(sigmoid(x)) as -softplus(-x): no overflow for large logits"})


def _bce_prob_ref(p, y, weight=None, reduction="mean"):
    """The logs are of at least 1e-12 (MindSpore), so p = 0 or 1 gives a finite loss."""
    loss = -(y * np.log(np.maximum(p, 1e-12)) + (1 - y) * np.log(np.maximum(1 - p, 1e-12)))
    return _reduce(loss * (1 if weight is None else weight), reduction)


def _bce_prob_samples(dtype, rng, full):
    def r(*shape, lo=0.05, hi=0.95):
        return random(rng, shape, dtype, lo, hi)
    return [Sample(r(3, 4), r(3, 4, lo=0, hi=1), label="mean"),
            Sample(r(3, 4), r(3, 4, lo=0, hi=1), r(4, lo=0.5, hi=2), "sum", label="weight, sum"),
            Sample(r(2, 3), r(2, 3, lo=0, hi=1), None, "none", label="none"),
            Sample(np.zeros((0,), dtype), np.zeros((0,), dtype), None, "sum", label="empty"),
            Sample(np.array([0.0, 1.0, 0.0, 1.0, 1e-20], dtype), np.array([1, 0, 0, 1, 1], dtype),
                   None, "none", label="saturated", smooth=False),
            Sample(r(3), r(3), None, "avg", label="unknown reduction", raises=ValueError)]


def _saturated(p, *rest):
    p = p.astype(np.float64)
    return (p < 1e-12) | (p > 1 - 1e-12)


op("binary_cross_entropy", prims=(), ref=_bce_prob_ref, dtypes=FLOATS, tol=_TOL16,
   samples=_bce_prob_samples, nondiff=(2,), torch_differs={
       "value:saturated": Differs("log is taken of max(p, 1e-12) (MindSpore): a wrong "
                                  "certain prediction costs 27.6; PyTorch clamps the log at "
                                  "-100", _saturated),
       "grad:saturated": Differs("where p < 1e-12 the gradient is max's (0 below the clamp); "
                                 "PyTorch divides by max(p (1 - p), 1e-12)",
                                 _saturated)},
   torch=lambda torch, p, y, w=None, reduction="mean": _T(torch, "binary_cross_entropy")(
       p, y, w, reduction=reduction),
   notes={"dtypes": "floats only (MindSpore, PyTorch); labels take the predictions' dtype"})


def _kl_div_ref(x, y, reduction="mean"):
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.where(y > 0, y * (np.log(np.where(y > 0, y, 1)) - x), 0.0)
    if reduction == "batchmean":
        return loss.sum() / x.shape[0]
    return _reduce(loss, reduction)


def _kl_div_samples(dtype, rng, full):
    def logp(*shape):
        return special.log_softmax(rng.standard_normal(shape), -1).astype(dtype)

    def probs(*shape):
        return special.softmax(rng.standard_normal(shape), -1).astype(dtype)
    y = probs(3, 4)
    y[0, 1] = 0
    return [Sample(logp(3, 4), probs(3, 4), label="mean"),
            Sample(logp(3, 4), probs(3, 4), "batchmean", label="batchmean"),
            Sample(logp(3, 4), probs(3, 4), "sum", label="sum"),
            Sample(logp(2, 3), probs(2, 3), "none", label="none"),
            Sample(logp(3, 4), y, "none", label="a zero label", smooth=False),
            Sample(np.zeros((0, 3), dtype), np.zeros((0, 3), dtype), "sum", label="empty")]


op("kl_div", prims=(), ref=_kl_div_ref, dtypes=FLOATS, tol=_TOL16, samples=_kl_div_samples,
   torch=lambda torch, x, y, reduction="mean": _T(torch, "kl_div")(x, y, reduction=reduction),
   torch_differs={"grad:a zero label": Differs(
       "at a label of 0 the gradient with respect to that label is 0 (the loss is the "
       "constant 0 there); PyTorch's xlogy gives log(0) = -inf",
       lambda x, y, *r: np.broadcast_to(y == 0, x.shape))},
   notes={"zero labels": "a label of 0 contributes 0 (0 log 0 = 0)",
          "batchmean": "the sum divided by the batch size (PyTorch, MindSpore)"})


def _cosine_ref(x1, x2, target, margin=0.0, reduction="mean"):
    cos = (x1 * x2).sum(-1) / np.sqrt(((x1 * x1).sum(-1) + 1e-12) * ((x2 * x2).sum(-1) + 1e-12))
    loss = np.where(target == 1, 1 - cos, np.where(target == -1, np.maximum(cos - margin, 0), 0))
    return _reduce(loss, reduction)


def _cosine_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)

    def t(*shape):
        return rng.choice([-1, 1], shape).astype(np.int64)
    return [Sample(r(5, 4), r(5, 4), t(5), label="mean"),
            Sample(r(5, 4), r(5, 4), t(5), 0.2, "sum", label="margin, sum"),
            Sample(r(2, 3, 4), r(2, 3, 4), t(2, 3), -0.5, "none", label="batched, none"),
            Sample(np.zeros((2, 3), dtype), r(2, 3), np.array([1, -1]), 0.0, "none",
                   label="a zero vector", smooth=False),
            Sample(r(0, 4), r(0, 4), t(0), 0.0, "sum", label="empty"),
            Sample(r(5, 4), r(5, 3), t(5), label="shapes differ", raises=ValueError)]


def _torch_cosine(torch, x1, x2, t, margin=0.0, reduction="mean"):
    """PyTorch takes (N, D) inputs: batched ones are flattened to rows and back."""
    loss = _T(torch, "cosine_embedding_loss")(x1.reshape(-1, x1.shape[-1]), x2.reshape(
        -1, x1.shape[-1]), t.reshape(-1), margin, reduction=reduction)
    return loss.reshape(t.shape) if reduction == "none" else loss


op("cosine_embedding_loss", prims=(), ref=_cosine_ref, dtypes=FLOATS, tol=_TOL16,
   samples=_cosine_samples, torch=_torch_cosine, torch_differs={"grad:a zero vector": Differs(
       "at a zero vector: its cosine 0 sits at the hinge (margin 0), where the gradient is "
       "half the slope (maximum's rule for ties; PyTorch's clamp passes all of it), and the "
       "cosine's gradient is ~1e6 (1e-12 regularises the norm), rounded differently from "
       "PyTorch's beyond 1e-9", lambda x1, x2, t: np.broadcast_to(
           (x1 == 0).all(-1, keepdims=True), x1.shape))},
   notes={"zero vectors": "1e-12 is added to each squared norm (PyTorch): a zero vector has "
                          "cosine 0, not NaN (MindSpore 2.10 gives NaN)",
          "target": "1 or -1 (integers); another value contributes 0",
          "hinge": "where cos = margin the gradient is half the slope (maximum's tie rule)"})
