"""Table entries: more losses and activations (shrinks, threshold, softmin, rrelu,
gumbel_softmax, roll, huber / margin / hinge / triplet / likelihood / CTC losses); their
formulas written out in NumPy, PyTorch as the second reference."""
import numpy as np
from scipy import special

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, Kink, Differs, ErrorCase, ALL, NUMERIC, FLOATS, float_result
from .samples import random, unary

_TOL16 = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}
_F = lambda torch: torch.nn.functional  # noqa: E731
_FLOAT_ONLY = {"dtypes": "floats only: integer inputs raise TypeError (MindSpore 2.10); "
                         "float64 is accepted too (MindSpore's kernels stop at float32)"}


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.mean()


def _bad_reduction(make):
    """A sample with reduction 'avg', which every loss refuses with ValueError."""
    return Sample(*make(), reduction="avg", label="unknown reduction", raises=ValueError)


# ---- activations -----------------------------------------------------------------------------

def _shrink_samples(dtype, rng, full):
    out = unary((-2, 2), edges=False)(dtype, rng, full)
    return out + [Sample(random(rng, (3, 4), dtype, -2, 2), 1.2, label="lambd 1.2"),
                  Sample(np.array([0.1, 0.6, -0.7], dtype), label="around 0.5", smooth=False)]


op("hardshrink", ref=lambda x, lambd=0.5: np.where(np.abs(x) > lambd, x, 0.0), dtypes=FLOATS,
   errors=[ErrorCase(Sample(np.array([1, 2], np.int32)), TypeError, "hardshrink:",
                     "an integer input")],
   samples=_shrink_samples, tol=_TOL16, notes=_FLOAT_ONLY,
   torch=lambda torch, x, lambd=0.5: _F(torch).hardshrink(x, lambd),
   kinks=[Kink(Sample(np.array([0.5, -0.5])), [np.array([0.0, 0.0])],
               "at |x| = lambd the value is 0 (|x| > lambd keeps x), so is the gradient")])


def _softshrink_ref(x, lambd=0.5):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0.0))


op("softshrink", ref=_softshrink_ref, dtypes=FLOATS, tol=_TOL16, notes=_FLOAT_ONLY | {
       "lambd": "a negative lambd raises RuntimeError (MindSpore's kernel)"},
   samples=lambda dtype, rng, full: _shrink_samples(dtype, rng, full) + [
       Sample(random(rng, (3,), dtype), -1.0, label="negative lambd", raises=RuntimeError)],
   torch=lambda torch, x, lambd=0.5: _F(torch).softshrink(x, lambd),
   torch_differs={f"value:{label}": Differs(
       "inside [-lambd, lambd] the result is +0.0; PyTorch keeps the sign of a negative x "
       "(-0.0)", lambda x, *r: (x < 0) & (x >= -1.2)) for label in ("random", "lambd 1.2")})


def _threshold_samples(dtype, rng, full):
    if dt.is_float(dtype):
        x = random(rng, (3, 4), dtype, -2, 2)
        return [Sample(x, 0.3, -1.5, label="random"),
                Sample(random(rng, (5,), dtype, -2, 2), -0.5, 2.0, label="value 2"),
                Sample(np.array([0.5, 0.75], dtype), 0.5, 9.0, label="at thr", smooth=False)]
    x = rng.integers(-5, 5, (3, 4)).astype(dtype) if np.dtype(dtype).kind == "i" else \
        rng.integers(0, 10, (3, 4)).astype(dtype)
    return [Sample(x, 2, 7, label="random"), Sample(x, 2.5, 1.5, label="float thr, value")]


op("threshold", ref=lambda x, thr, value: np.where(x > thr, x, np.asarray(value).astype(
       x.dtype)), dtypes=NUMERIC, samples=_threshold_samples, nondiff=(),
   notes={"dtype": "the input's dtype, integers too; a float value is cast to it "
                   "(truncated), as MindSpore does"},
   torch=lambda torch, x, thr, value: _F(torch).threshold(x, thr, value))


def _softmin_samples(dtype, rng, full):
    return [Sample(random(rng, (3, 4), dtype, -3, 3), label="last axis"),
            Sample(random(rng, (3, 4), dtype, -3, 3), 0, label="axis 0"),
            Sample(random(rng, (2, 3, 4), dtype, -3, 3), axis=1, label="3-d, axis 1"),
            Sample(random(rng, (3,), dtype), 3, label="axis out of range", raises=ValueError)]


op("softmin", ref=lambda x, axis=-1: special.softmax(-x, axis), dtypes=FLOATS, tol=_TOL16,
   errors=[ErrorCase(Sample(np.ones((2, 3)), 2), ValueError, "softmin:", "an axis out of range")],
   samples=_softmin_samples, notes=_FLOAT_ONLY,
   torch=lambda torch, x, axis=-1: _F(torch).softmin(x, axis))


# random activations: no reference values; the checks are the distribution's
def _seeded(entry, sample, seed):
    tj.set_seed(seed)
    return entry.op(*sample.tensors(), **sample.kwargs).asnumpy()


def _rrelu_check(entry, sample, got):
    x = sample.leaves()[0].astype(np.float64)
    y = got[0].astype(np.float64)
    if got[0].dtype != sample.leaves()[0].dtype:
        return f"dtype {got[0].dtype}, expected {sample.leaves()[0].dtype}"
    lower, upper = (list(sample.args[1:]) + [1 / 8, 1 / 3])[:2]
    if not np.array_equal(y[x >= 0], x[x >= 0]):
        return "non-negative inputs changed"
    neg = x < 0
    slope = y[neg] / x[neg]
    tol = 1e-2 if got[0].dtype in (dt.float16, dt.bfloat16) else 1e-6
    if slope.size and ((slope < lower - tol).any() or (slope > upper + tol).any()):
        return f"slopes outside [{lower}, {upper}): {slope[:5]}"
    if slope.size > 2000 and abs(slope.mean() - (lower + upper) / 2) > 0.01 * (upper - lower) + tol:
        return f"mean slope {slope.mean():.4f}, expected {(lower + upper) / 2:.4f}"
    if not np.array_equal(_seeded(entry, sample, 3), _seeded(entry, sample, 3)):
        return "the same seed gave other slopes"
    return None


op("rrelu", dtypes=FLOATS, check=_rrelu_check, random=True, grad=False, torch=None,
   fuzz=False, only_declared=False,
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (100, 100), dtype, -2, 2), label="10000 draws"),
       Sample(random(rng, (3, 4), dtype, -2, 2), 0.1, 0.6, label="bounds"),
       Sample(random(rng, (3,), dtype), 0.5, 0.2, label="upper < lower", raises=ValueError)],
   notes={"random": "a slope per negative element, uniform in [lower, upper), drawn on "
                    "every call (MindSpore's functional rrelu; nn.RReLU in inference mode "
                    "uses the mean slope)",
          "integers": "computed in float32 and cast back (truncation)"})


def _gumbel_check(entry, sample, got):
    y = got[0].astype(np.float64)
    x = sample.leaves()[0]
    if got[0].dtype != x.dtype:
        return f"dtype {got[0].dtype}, expected {x.dtype}"
    dim = sample.kwargs.get("dim", -1)
    tol = 1e-2 if x.dtype == dt.float16 else 1e-5
    if (y < 0).any() or np.abs(y.sum(dim) - 1).max() > tol:
        return "the samples are not distributions along dim"
    if sample.kwargs.get("hard"):
        if not np.isin(y, (0.0, 1.0)).all() or not (y.sum(dim) == 1).all():
            return "hard samples are not one-hot"
    if y.shape[0] >= 2000:      # the arg-max follows softmax(logits)
        hits = np.bincount(y.argmax(-1), minlength=x.shape[-1]) / y.shape[0]
        want = special.softmax(x[0].astype(np.float64))
        if np.abs(hits - want).max() > 0.04:
            return f"arg-max frequencies {hits}, expected softmax(logits) {want}"
    if not np.array_equal(_seeded(entry, sample, 3), _seeded(entry, sample, 3)):
        return "the same seed gave other samples"
    return None


def _gumbel_samples(dtype, rng, full):
    logits = np.tile(np.array([[0.0, 1.0, 2.0]], dtype), (4000, 1))
    return [Sample(logits, label="4000 draws"),
            Sample(logits, hard=True, label="hard"),
            Sample(random(rng, (2, 5), dtype), 0.5, dim=0, label="tau, dim 0"),
            Sample(random(rng, (2, 3), dtype), 1, label="int tau", raises=TypeError),
            Sample(random(rng, (2, 3), dtype), dim=2, label="dim out of range",
                   raises=ValueError)]


op("gumbel_softmax", dtypes=(dt.float16, dt.float32, dt.float64), check=_gumbel_check,
   random=True, grad=False, torch=None, fuzz=False, samples=_gumbel_samples,
   notes={"random": "softmax((logits + g) / tau) with Gumbel noise g drawn on every call; "
                    "hard=True: the one-hot arg-max with the soft sample's gradient",
          "tau": "a float > 0 (an int raises TypeError, as MindSpore)"})


def _roll_ref(x, shifts, dims=None):
    return np.roll(x, shifts, dims)


op("roll", ref=_roll_ref, dtypes=ALL, result=lambda x, *_: x,
   errors=[ErrorCase(Sample(np.ones((2, 3)), (1, 2), 0), ValueError, "roll:",
                     "shifts and dims of different lengths")],
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (3, 4), dtype), 1, label="flat"),
       Sample(random(rng, (3, 4), dtype), (1, -2), (0, 1), label="two axes"),
       Sample(random(rng, (3, 4), dtype), 7, 1, label="more than the size"),
       Sample(random(rng, (3, 4), dtype), (1, 2), 0, label="lengths differ",
              raises=ValueError)],
   torch=lambda torch, x, shifts, dims=None: torch.roll(x, shifts, dims),
   notes={"cpu": "MindSpore 2.10 has no CPU kernel for Roll"})


# ---- losses ------------------------------------------------------------------------------------

def _pair(dtype, rng, *shape):
    return random(rng, shape, dtype, -2, 2), random(rng, shape, dtype, -2, 2)


def _huber_ref(x, y, reduction="mean", delta=1.0):
    d = np.abs(x - y)
    return _reduce(np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)


def _huber_samples(dtype, rng, full):
    if not dt.is_float(dtype):
        x = rng.integers(0, 4, (3, 4)).astype(dtype)
        return [Sample(x, x[::-1].copy(), label="integers")]
    return [Sample(*_pair(dtype, rng, 3, 4), label="mean"),
            Sample(*_pair(dtype, rng, 3, 4), "sum", 0.5, label="sum, delta 0.5"),
            Sample(*_pair(dtype, rng, 2, 3), "none", 2.0, label="none, delta 2"),
            Sample(*_pair(dtype, rng, 3), delta=0.0, label="delta 0", raises=ValueError),
            _bad_reduction(lambda: _pair(dtype, rng, 3))]


op("huber_loss", ref=_huber_ref, dtypes=ALL, result=float_result, samples=_huber_samples,
   errors=[ErrorCase(Sample(np.ones(3), np.ones(3), delta=-1.0), ValueError, "huber_loss:",
                     "a negative delta"),
           ErrorCase(Sample(np.ones(3), np.ones(3), "avg"), ValueError, "huber_loss:",
                     "an unknown reduction")],
   tol=_TOL16, torch=lambda torch, x, y, reduction="mean", delta=1.0: _F(torch).huber_loss(
       x, y, reduction=reduction, delta=delta),
   notes={"integers": "bool and integer inputs compute in float32 (MindSpore)"})


def _sign(rng, *shape):
    return rng.choice([-1.0, 1.0], shape)


def _mrl_samples(dtype, rng, full):
    return [Sample(*_pair(dtype, rng, 3, 4), _sign(rng, 3, 4).astype(dtype), label="mean"),
            Sample(*_pair(dtype, rng, 3, 4), _sign(rng, 4).astype(dtype), 0.3, "sum",
                   label="margin, broadcast target, sum"),
            Sample(*_pair(dtype, rng, 5), _sign(rng, 5).astype(dtype), 0.1, "none",
                   label="none"),
            Sample(*_pair(dtype, rng, 3), _sign(rng, 3).astype(dtype), 1, label="int margin",
                   raises=TypeError)]


op("margin_ranking_loss", dtypes=FLOATS, tol=_TOL16, samples=_mrl_samples,
   errors=[ErrorCase(Sample(np.ones(3), np.ones(3, np.float32), np.ones(3)), TypeError,
                     "margin_ranking_loss:", "inputs of different dtypes")],
   ref=lambda x1, x2, y, margin=0.0, reduction="mean": _reduce(
       np.maximum(0, -y * (x1 - x2) + margin), reduction),
   torch=lambda torch, x1, x2, y, margin=0.0, reduction="mean": _F(torch).margin_ranking_loss(
       x1, x2, y.expand_as(x1), margin=margin, reduction=reduction),
   notes={"margin": "a float; an int raises TypeError (MindSpore)"})


def _hinge_ref(x, t, margin=1.0, reduction="mean"):
    return _reduce(np.where(t > 0, x, 0) + np.where(t < 0, np.maximum(0, margin - x), 0),
                   reduction)


def _hinge_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype, -2, 2)
    return [Sample(x, _sign(rng, 3, 4).astype(dtype), label="mean"),
            Sample(x, _sign(rng, 4).astype(dtype), 2, "sum", label="int margin, sum"),
            Sample(x, _sign(rng, 3, 4).astype(dtype), 0.5, "none", label="none"),
            Sample(x, random(rng, (3, 4), dtype, -2, 2), label="any targets", smooth=False)]


op("hinge_embedding_loss", dtypes=FLOATS, tol=_TOL16, samples=_hinge_samples, ref=_hinge_ref,
   nondiff=(1,),
   torch=lambda torch, x, t, margin=1.0, reduction="mean": _F(torch).hinge_embedding_loss(
       x, t.expand_as(x), margin=margin, reduction=reduction),
   torch_differs={"value:any targets": Differs(
       "targets other than 1 and -1: x where positive, the hinge where negative, 0 at 0 "
       "(MindSpore); PyTorch adds both terms"), "grad:any targets": Differs(
       "the gradient of MindSpore's rule for targets other than 1 and -1 (above)")},
   notes={"targets": "positive: x; negative: max(0, margin - x); 0: 0 (MindSpore's rule)"})


def _soft_margin_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype, -3, 3)
    return [Sample(x, _sign(rng, 3, 4).astype(dtype), label="mean"),
            Sample(x, _sign(rng, 3, 4).astype(dtype), "sum", label="sum"),
            Sample(x, _sign(rng, 3, 4).astype(dtype), "none", label="none"),
            Sample(x, _sign(rng, 4).astype(dtype), label="shapes differ", raises=ValueError)]


op("soft_margin_loss", dtypes=FLOATS, tol=_TOL16, samples=_soft_margin_samples,
   nondiff=(1,),
   ref=lambda x, y, reduction="mean": _reduce(np.logaddexp(0, -y * x), reduction),
   torch=lambda torch, x, y, reduction="mean": _F(torch).soft_margin_loss(
       x, y, reduction=reduction),
   notes={"cpu": "MindSpore 2.10 has no CPU kernel for SoftMarginLoss"})


def _triplet_ref(a, p, n, margin=1.0, p_norm=2, eps=1e-6, swap=False, reduction="mean"):
    def dist(u, v):
        return (np.abs(u - v + eps) ** p_norm).sum(-1) ** (1.0 / p_norm)
    d_neg = dist(a, n)
    if swap:
        d_neg = np.minimum(d_neg, dist(p, n))
    return _reduce(np.maximum(dist(a, p) - d_neg + margin, 0), reduction)


def _triplet_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(5, 4), r(5, 4), r(5, 4), label="mean"),
            Sample(r(5, 4), r(5, 4), r(5, 4), 0.5, 1, 1e-6, False, "sum", label="p 1, sum"),
            Sample(r(5, 4), r(5, 4), r(5, 4), 2.0, 3, 1e-6, True, "none",
                   label="p 3, swap, none"),
            Sample(r(2, 3, 4), r(2, 3, 4), r(2, 3, 4), 1.0, 2, 1e-6, True, label="3-d, swap"),
            Sample(r(4), r(4), r(4), label="1-d", raises=ValueError)]


op("triplet_margin_loss", dtypes=FLOATS, tol=_TOL16, samples=_triplet_samples,
   errors=[ErrorCase(Sample(np.ones(3), np.ones(3), np.ones(3)), ValueError,
                     "triplet_margin_loss:", "1-d inputs (no feature axis)")],
   ref=lambda a, p, n, margin=1.0, p_norm=2, eps=1e-6, swap=False, reduction="mean":
   _triplet_ref(a, p, n, margin, p_norm, eps, swap, reduction),
   torch=lambda torch, a, p, n, margin=1.0, p_norm=2, eps=1e-6, swap=False, reduction="mean":
   _F(torch).triplet_margin_loss(a, p, n, margin=margin, p=p_norm, eps=eps, swap=swap,
                                 reduction=reduction),
   notes={"distance": "||a - b + eps||_p over the last axis (PyTorch's pairwise distance)",
          "cpu": "MindSpore 2.10 has no CPU kernel for TripletMarginLoss"})


def _gaussian_ref(x, t, var, full=False, eps=1e-6, reduction="mean"):
    if var.shape != x.shape and var.shape == x.shape[:-1]:
        var = var[..., None]
    v = np.maximum(var, eps)
    loss = 0.5 * (np.log(v) + (x - t) ** 2 / v) + (0.5 * np.log(2 * np.pi) if full else 0)
    return _reduce(loss, reduction)


def _gaussian_samples(dtype, rng, full):
    x, t = _pair(dtype, rng, 3, 4)
    if not dt.is_float(dtype):
        v = rng.integers(1, 4, (3, 4)).astype(dtype)
        return [Sample(x.astype(dtype), t.astype(dtype), v, label="integers")]
    v = random(rng, (3, 4), dtype, 0.5, 2)
    return [Sample(x, t, v, label="mean"),
            Sample(x, t, v, True, 1e-6, "sum", label="full, sum"),
            Sample(x, t, v[:, 0].copy(), False, 1e-6, "none", label="var per row"),
            Sample(x, t, v[:, :1].copy(), label="var broadcast"),
            Sample(x, t, v, False, 1, label="int eps", raises=ValueError)]


op("gaussian_nll_loss", dtypes=ALL, result=float_result, tol=_TOL16,
   samples=_gaussian_samples,
   ref=_gaussian_ref,
   torch=lambda torch, x, t, v, full=False, eps=1e-6, reduction="mean":
   _F(torch).gaussian_nll_loss(x, t, v, full=full, eps=eps, reduction=reduction),
   notes={"var": "clamped at eps by a maximum (MindSpore): no gradient below eps; a "
                 "negative var is clamped, not refused (PyTorch raises)",
          "integers": "bool and integer inputs compute in float32"})


def _multi_margin_ref(x, y, p=1, margin=1, weight=None, reduction="mean"):
    picked = np.take_along_axis(x, y[:, None], 1)
    hinge = np.maximum(0, margin - picked + x) ** p
    hinge[np.arange(len(y)), y] = 0
    if weight is not None:
        hinge = hinge * weight[y][:, None]
    return _reduce(hinge.sum(1) / x.shape[1], reduction)


def _multi_margin_samples(dtype, rng, full):
    x = random(rng, (5, 4), dtype, -2, 2)
    y = rng.integers(0, 4, 5).astype(np.int64)
    w = random(rng, (4,), dtype, 0.5, 2)
    return [Sample(x, y, label="mean"),
            Sample(x, y, 2, 0.5, w, "sum", label="p 2, weight, sum"),
            Sample(x, y, 1, 2, None, "none", label="none"),
            Sample(x, y, 3, label="p 3", raises=ValueError),
            Sample(x[0].copy(), y[:1].copy(), label="1-d", raises=ValueError)]


op("multi_margin_loss", dtypes=FLOATS, tol=_TOL16, samples=_multi_margin_samples,
   errors=[ErrorCase(Sample(np.ones((2, 3)), np.array([0, 1]), 3), ValueError,
                     "multi_margin_loss:", "p not 1 or 2"),
           ErrorCase(Sample(np.ones((2, 3)), np.array([0.0, 1.0])), TypeError,
                     "multi_margin_loss:", "float targets")],
   ref=_multi_margin_ref, result=lambda x, *_: x, nondiff=(1, 2),
   torch=lambda torch, x, y, p=1, margin=1, weight=None, reduction="mean":
   _F(torch).multi_margin_loss(x, y, p=p, margin=margin, weight=weight, reduction=reduction),
   notes={"margin": "an int or a float (MindSpore 2.10 refuses floats)",
          "target": "int class indices (MindSpore takes int64 only)"})


def _mlsm_ref(x, y, weight=None, reduction="mean"):
    loss = -(y * -np.logaddexp(0, -x) + (1 - y) * -np.logaddexp(0, x))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.mean(-1), reduction)


def _mlsm_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype, -3, 3)
    y = (rng.random((3, 4)) > 0.5).astype(dtype)
    return [Sample(x, y, label="mean"),
            Sample(x, y, random(rng, (4,), dtype, 0.5, 2), "sum", label="weight, sum"),
            Sample(x, y, None, "none", label="none"),
            Sample(random(rng, (2, 3, 4), dtype), (rng.random((2, 3, 4)) > 0.5).astype(dtype),
                   label="3-d")]


op("multilabel_soft_margin_loss", dtypes=FLOATS, tol=_TOL16, samples=_mlsm_samples,
   ref=_mlsm_ref, nondiff=(1,),
   torch=lambda torch, x, y, weight=None, reduction="mean": _F(torch).multilabel_soft_margin_loss(
       x, y, weight=weight, reduction=reduction) if x.ndim == 2 else _reduce_torch(
       _F(torch).multilabel_soft_margin_loss(x.reshape(-1, x.shape[-1]), y.reshape(
           -1, x.shape[-1]), weight=weight, reduction="none"), reduction),
   notes={"rank": "any rank: the mean is over the last (class) axis (MindSpore)"})


def _reduce_torch(loss, reduction):
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


def _mlm_ref(x, y, reduction="mean"):
    single = x.ndim == 1
    x, y = np.atleast_2d(x), np.atleast_2d(y)
    out = np.zeros(x.shape[0])
    for n in range(x.shape[0]):
        labels = []
        for c in y[n]:
            if c < 0:
                break
            labels.append(c)
        others = [i for i in range(x.shape[1]) if i not in labels]
        out[n] = sum(max(0.0, 1 - (x[n, j] - x[n, i])) for j in labels for i in others)
    out = out / x.shape[1]
    return _reduce(out[0] if single else out, reduction)


def _mlm_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype, -1, 1)
    y = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]], np.int64)
    return [Sample(x, y, label="mean"),
            Sample(x, y.astype(np.int32), "sum", label="int32, sum"),
            Sample(x, y, "none", label="none"),
            Sample(x[0].copy(), y[0].copy(), label="1-d"),
            Sample(x, y[:, :3].copy(), label="shapes differ", raises=ValueError)]


op("multilabel_margin_loss", dtypes=FLOATS, tol=_TOL16, samples=_mlm_samples, ref=_mlm_ref,
   errors=[ErrorCase(Sample(np.ones((2, 3)), np.zeros((2, 2), np.int64)), ValueError,
                     "multilabel_margin_loss:", "target shape differs")],
   result=lambda x, *_: x,
   torch=lambda torch, x, y, reduction="mean": _F(torch).multilabel_margin_loss(
       x, y.long(), reduction=reduction),
   notes={"cpu": "MindSpore 2.10 has no CPU kernel for MultilabelMarginLoss (and takes "
                 "int32 targets only)"})


def _ctc_ref(lp, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The alpha recursion written out with Python loops, per sample (log space)."""
    losses, alphas = [], []
    steps, batch, _ = lp.shape
    width = 2 * targets.shape[1] + 1
    for n in range(batch):
        labels = [blank]
        for c in targets[n, :target_lengths[n]]:
            labels += [int(c), blank]
        alpha = np.full((steps, width), -np.inf)
        alpha[0, 0] = lp[0, n, labels[0]]
        if len(labels) > 1:
            alpha[0, 1] = lp[0, n, labels[1]]
        for t in range(1, input_lengths[n]):
            for s, label in enumerate(labels):
                terms = [alpha[t - 1, s]] + ([alpha[t - 1, s - 1]] if s >= 1 else [])
                if s >= 2 and label != blank and label != labels[s - 2]:
                    terms.append(alpha[t - 1, s - 2])
                alpha[t, s] = np.logaddexp.reduce(terms) + lp[t, n, label]
        end = alpha[input_lengths[n] - 1]
        loss = -np.logaddexp.reduce([end[len(labels) - 1]] + (
            [end[len(labels) - 2]] if len(labels) > 1 else []))
        losses.append(0.0 if zero_infinity and np.isinf(loss) else loss)
        alphas.append(alpha)
    loss = np.array(losses)
    if reduction == "sum":
        loss = loss.sum()
    elif reduction == "mean":
        loss = (loss / np.maximum(target_lengths, 1)).mean()
    return loss, np.stack(alphas)


def _ctc_samples(dtype, rng, full):
    def lp(t, n, c):
        return special.log_softmax(rng.standard_normal((t, n, c)), -1).astype(dtype)
    targets = np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]], np.int64)
    il, tl = np.array([6, 5, 4], np.int64), np.array([3, 2, 0], np.int64)
    return [Sample(lp(6, 3, 4), targets, il, tl, label="mean"),
            Sample(lp(6, 3, 4), targets, il, tl, 0, "none", label="none"),
            Sample(lp(6, 3, 4), targets.astype(np.int32), il.astype(np.int32),
                   tl.astype(np.int32), 0, "sum", label="int32, sum"),
            Sample(lp(6, 3, 5), np.where(targets == 0, 4, targets), il, tl, 4, "none",
                   label="blank 4"),
            Sample(lp(3, 1, 4), np.array([[1, 1, 1]]), np.array([3]), np.array([3]), 0,
                   "none", True, label="impossible, zero_infinity", smooth=False),
            Sample(lp(6, 3, 4), targets[:, 0].copy(), il, tl, label="1-d targets",
                   raises=ValueError),
            Sample(lp(6, 3, 4), targets, il, tl, 7, label="blank out of range",
                   raises=ValueError)]


op("ctc_loss", ref=_ctc_ref, dtypes=(dt.float32, dt.float64), samples=_ctc_samples,
   result=lambda lp, *_: (lp, lp), nondiff=(1, 2, 3),
   torch=lambda torch, lp, t, il, tl, blank=0, reduction="mean", zero_infinity=False:
   torch.nn.functional.ctc_loss(lp, t.long(), il.long(), tl.long(), blank, reduction,
                                zero_infinity),
   torch_grad=False,
   ms_differs={"value:impossible, zero_infinity": "zero_infinity=True gives 0 for an "
               "impossible alignment (PyTorch, MindSpore's documentation); MindSpore 2.10's "
               "CPU kernel returns inf"},
   errors=[ErrorCase(Sample(np.zeros((2, 1, 3)), np.zeros((1, 1), np.int64), np.array([2]),
                            np.array([1]), 3), ValueError, "ctc_loss:", "blank out of range")],
   notes={"result": "(loss, log_alpha) as MindSpore: log_alpha (N, T, 2S+1) holds the "
                    "forward variables, -inf past each input length and label end",
          "gradient": "the exact gradient with respect to log_probs (MindSpore's and "
                      "PyTorch's kernels return the gradient with respect to the logits "
                      "of a log_softmax; through a log_softmax all three agree)",
          "zero_infinity": "infinite losses and their gradients become 0 (MindSpore 2.10's "
                           "CPU kernel leaves them inf)"})
