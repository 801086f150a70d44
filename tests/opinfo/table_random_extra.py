"""Table entries: sampling beyond rand / randn (bernoulli, multinomial, random_categorical,
randperm, shuffle, the *_like draws, laplace, choice_with_mask) and the in-place helpers
(zero_, clamp_, put_, tanh_, ..., and the in-place draws normal_, uniform_, ...).

Draws have no reference values: each check is the distribution's -- dtype and shape
exactly, the support, a statistic on thousands of draws with a fixed seed within a loose
but meaningful bound (about 5 standard errors), the same numbers after the same seed.
In-place helpers must return the very tensor they were given, holding the new value."""
import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, ALL, FLOATS, INTS

_RANDOM = dict(grad=False, torch=None, fuzz=False, random=True)
BERNOULLI_DTYPES = (dt.bool_, dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.float32,
                    dt.float64)


def _sampling_check(statistic):
    """dtype per the entry's rule, the statistic's verdict on the draws (with the seed 5),
    and the same draws after the same seed."""
    def check(entry, sample, got):
        for g, want in zip(got, entry.result_dtypes(sample) * len(got)):
            if g.dtype != want:
                return f"dtype {g.dtype}, expected {want}"

        def draw():
            tj.set_seed(5)
            out = entry.op(*sample.tensors(), **sample.kwargs)
            return [o.asnumpy() for o in (out if isinstance(out, tuple) else (out,))]
        first, again = draw(), draw()
        if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(first, again)):
            return "the same seed gave other numbers"
        return statistic(sample, *first)
    return check


def _close(name, value, expected, bound):
    return None if abs(value - expected) <= bound else \
        f"{name} {value:.4f}, expected {expected:.4f} +- {bound}"


# ---- Bernoulli ------------------------------------------------------------------------------

def _bernoulli_stat(sample, y):
    x = sample.args[0]
    p = sample.args[1] if len(sample.args) > 1 else 0.5
    if y.shape != x.shape:
        return f"shape {y.shape}, expected {x.shape}"
    values = y.astype(np.float64)
    if not np.isin(values, (0, 1)).all():
        return f"values other than 0 and 1: {np.unique(values)[:5]}"
    expected = np.broadcast_to(np.asarray(p, np.float64), x.shape)
    if ((expected == 0) & (values != 0)).any() or ((expected == 1) & (values != 1)).any():
        return "a draw with probability 0 or 1 came out otherwise"
    if values.size >= 5000:
        return _close("mean", values.mean(), expected.mean(), 0.03)
    return None


def _bernoulli_samples(dtype, rng, full):
    return [Sample(np.zeros((100, 100), dtype), 0.3, label="p=0.3, 10000 draws"),
            Sample(np.zeros((2, 3), dtype), label="default p"),
            Sample(np.zeros((2, 3), dtype), np.array([[0.0], [1.0]], np.float32),
                   label="p per row, 0 and 1"),
            Sample(np.zeros((2, 0), dtype), 0.5, label="empty"),
            Sample(np.zeros((2, 3), dtype), 1.5, label="p above 1", raises=ValueError)]


op("bernoulli", dtypes=BERNOULLI_DTYPES, samples=_bernoulli_samples, **_RANDOM,
   result=lambda x, *_: x, check=_sampling_check(_bernoulli_stat),
   notes={"dtype": "the input's (bool, int8-int64, uint8, float32, float64: MindSpore's "
                   "Bernoulli kernel refuses float16)"})
op("bernoulli_ext", dtypes=FLOATS, **_RANDOM, result=lambda x: x,
   samples=lambda dtype, rng, full: [
       Sample(np.full((100, 100), 0.3, dtype), label="0.3, 10000 draws"),
       Sample(np.array([[0.0, 0.0], [1.0, 1.0]], dtype), label="0 and 1")],
   check=_sampling_check(lambda s, y: _bernoulli_stat(
       Sample(s.args[0], s.args[0].astype(np.float64)), y)),
   notes={"probabilities": "the input holds the probabilities (PyTorch's bernoulli)"})


# ---- categorical draws ----------------------------------------------------------------------

def _frequencies_stat(weights_of, kind):
    """Indices in range, never a zero-weight category; without replacement distinct per
    row; with many draws, the frequencies of ``weights_of(sample)`` normalized."""
    def stat(sample, y):
        weights = np.atleast_2d(weights_of(sample))
        n = sample.args[1]
        expected_shape = np.shape(weights_of(sample))[:-1] + (n,)
        if y.shape != expected_shape:
            return f"shape {y.shape}, expected {expected_shape}"
        if n == 0:
            return None
        rows = y.reshape(-1, n).astype(np.int64)
        if rows.size and (rows.min() < 0 or rows.max() >= weights.shape[-1]):
            return f"indices outside [0, {weights.shape[-1]}): {rows.min()}, {rows.max()}"
        for k, row in enumerate(rows):
            if (weights[k][row] <= 0).any():
                return f"row {k} drew a category of weight 0"
            if kind == "without" and len(set(row.tolist())) != len(row):
                return f"row {k} repeats a category without replacement"
            if kind == "with" and n >= 5000:
                freq = np.bincount(row, minlength=weights.shape[-1]) / n
                p = np.maximum(weights[k], 0) / np.maximum(weights[k], 0).sum()
                if np.abs(freq - p).max() > 0.025:
                    return f"row {k}: frequencies {freq.round(3)}, expected {p.round(3)}"
        return None
    return stat


def _weights(dtype):
    return np.array([[1.0, 2.0, 0.0, 5.0], [3.0, 3.0, 3.0, 3.0]]).astype(dtype)


op("multinomial", dtypes=(dt.float16, dt.float32, dt.float64), **_RANDOM,
   result=lambda x: dt.int32, check=_sampling_check(lambda s, y: _frequencies_stat(
       lambda s: s.args[0].astype(np.float64),
       "with" if (s.args[2] if len(s.args) > 2 else True) else "without")(s, y)),
   samples=lambda dtype, rng, full: [
       Sample(_weights(dtype), 8000, label="with replacement, 8000 draws"),
       Sample(_weights(dtype), 3, False, label="without replacement"),
       Sample(_weights(dtype)[1], 4, False, label="1-d, every category"),
       Sample(_weights(dtype), 0, label="no draws"),
       Sample(_weights(dtype), 5, False, label="more than the categories", raises=ValueError)],
   notes={"dtype": "int32 indices, as MindSpore",
          "draws": "with replacement: uniform draws against the cumulative weights; without: "
                   "the largest of log(weight) + Gumbel noise"})
op("multinomial_with_replacement", dtypes=(dt.float32, dt.float64), **_RANDOM,
   result=lambda x, *_: dt.int64,
   check=_sampling_check(lambda s, y: _frequencies_stat(
       lambda s: s.args[0].astype(np.float64),
       "with" if (s.args[4] if len(s.args) > 4 else False) else "without")(
           Sample(s.args[0], s.args[3]), y)),
   samples=lambda dtype, rng, full: [
       Sample(_weights(dtype), np.array(1), np.array(0), 8000, True, label="8000 draws"),
       Sample(_weights(dtype), np.array(1), np.array(0), 3, label="without replacement")],
   notes={"dtype": "int64 indices, as MindSpore"})


def _categorical_stat(sample, y):
    logits = sample.args[0].astype(np.float64)
    n = sample.args[1]
    if y.shape != (logits.shape[0], n):
        return f"shape {y.shape}, expected {(logits.shape[0], n)}"
    p = np.exp(logits - logits.max(-1, keepdims=True))
    return _frequencies_stat(lambda s: p, "with")(Sample(logits, n), y)


op("random_categorical", dtypes=FLOATS, **_RANDOM,
   result=lambda x, *_, dtype=dt.int64: dtype, check=_sampling_check(_categorical_stat),
   samples=lambda dtype, rng, full: [
       Sample(np.log(np.array([[0.1, 0.2, 0.7], [0.25, 0.25, 0.5]])).astype(dtype), 8000,
              label="8000 draws"),
       Sample(np.zeros((2, 3), dtype), 5, 0, dtype=dt.int32, label="int32")],
   notes={"draws": "the argmax of logits + Gumbel noise"})


# ---- permutations ---------------------------------------------------------------------------

def _randperm_stat(sample, y):
    n = sample.args[0]
    if y.shape != (n,) or not np.array_equal(np.sort(y.astype(np.int64)), np.arange(n)):
        return f"not a permutation of range({n}): {y[:8]}"
    return None


op("randperm", dtypes=(dt.int64,), **_RANDOM,
   result=lambda *_, dtype=dt.int64: dtype, check=_sampling_check(_randperm_stat),
   samples=lambda dtype, rng, full: [
       Sample(10, label="10"), Sample(300, dtype=dt.int16, label="int16"),
       Sample(5, dtype=dt.float32, label="float32"), Sample(0, label="none"),
       Sample(300, dtype=dt.uint8, label="too large for the dtype", raises=ValueError),
       Sample(-1, label="negative", raises=ValueError)])


def _shuffle_stat(sample, y):
    x = sample.args[0]
    if y.shape != x.shape or y.dtype != x.dtype:
        return f"{y.dtype}{y.shape} for a {x.dtype}{x.shape} input"
    if x.ndim == 0 or x.size == 0:
        return None if np.array_equal(x, y) else "a 0-d or empty input changed"
    rows = sorted(map(bytes, np.ascontiguousarray(y).reshape(len(y), -1).view(np.uint8)))
    want = sorted(map(bytes, np.ascontiguousarray(x).reshape(len(x), -1).view(np.uint8)))
    return None if rows == want else "the rows are not a permutation of the input's"


op("shuffle", dtypes=ALL, **_RANDOM, result=lambda x: x, check=_sampling_check(_shuffle_stat),
   samples=lambda dtype, rng, full: [
       Sample(np.arange(12).reshape(6, 2).astype(dtype), label="rows"),
       Sample(np.array(3).astype(dtype), label="0-d"),
       Sample(np.zeros((0, 2), dtype), label="empty")])


# ---- *_like draws ---------------------------------------------------------------------------

def _like_stat(low, high, mean, std):
    def stat(sample, y):
        x = sample.args[0]
        if y.shape != x.shape:
            return f"shape {y.shape}, expected {x.shape}"
        v = y.astype(np.float64)
        if not ((v >= low) & (v < high)).all():
            return f"values outside [{low}, {high}): {v[(v < low) | (v >= high)][:5]}"
        if v.size >= 5000:
            return _close("mean", v.mean(), mean, 0.05) or _close("std", v.std(), std, 0.05)
        return None
    return stat


def _like_samples(other):
    def samples(dtype, rng, full):
        return [Sample(np.zeros((100, 100), dtype), label="10000 draws"),
                Sample(np.zeros((2, 0), dtype), label="empty"),
                Sample(np.zeros((3,), dtype), dtype=other, label="another dtype")]
    return samples


_LIKE_RESULT = dict(result=lambda x, dtype=None: dtype if dtype is not None else x)
op("rand_like", dtypes=FLOATS, **_RANDOM, **_LIKE_RESULT,
   samples=_like_samples(dt.float64), check=_sampling_check(_like_stat(0, 1, 0.5, 12 ** -0.5)))
op("randn_like", dtypes=FLOATS, **_RANDOM, **_LIKE_RESULT,
   samples=_like_samples(dt.float64), check=_sampling_check(_like_stat(-np.inf, np.inf, 0, 1)))
op("randint_like", dtypes=INTS, **_RANDOM, **_LIKE_RESULT,
   samples=lambda dtype, rng, full: [
       Sample(np.zeros((100, 100), dtype), 0, 5, label="[0, 5), 10000 draws"),
       Sample(np.zeros((3,), dtype), 3, 4, dtype=dt.int16, label="one value"),
       Sample(np.zeros((3,), dtype), 4, 4, label="empty range", raises=ValueError)],
   check=_sampling_check(lambda s, y: _like_stat(s.args[1], s.args[2], 2.0, 2 ** 0.5)(s, y)
                         if s.args[2] - s.args[1] == 5 else
                         _like_stat(s.args[1], s.args[2], 0, 0)(s, y)))


# ---- Laplace ------------------------------------------------------------------------------

def _laplace_stat(sample, y):
    shape = sample.args[0]
    mean, scale = ((sample.args[1], sample.args[2]) if len(sample.args) > 2 else (0.0, 1.0))
    want = np.broadcast_shapes(shape, np.shape(mean), np.shape(scale))
    if y.shape != want:
        return f"shape {y.shape}, expected {want}"
    v = y.astype(np.float64)
    if v.size >= 5000:     # Laplace(m, b): median m, mean absolute deviation b
        m, b = float(np.mean(mean)), float(np.mean(scale))
        return _close("median", np.median(v), m, 0.05 * b) or \
            _close("mean |x - m|", np.abs(v - m).mean(), b, 0.05 * b)
    return None


op("standard_laplace", dtypes=(dt.float32,), **_RANDOM, result=lambda *_: dt.float32,
   check=_sampling_check(_laplace_stat),
   samples=lambda dtype, rng, full: [Sample((100, 100), label="10000 draws"),
                                     Sample((0, 3), label="none")])
op("laplace", dtypes=(dt.float32,), **_RANDOM, result=lambda *_: dt.float32,
   check=_sampling_check(_laplace_stat),
   samples=lambda dtype, rng, full: [
       Sample((100, 100), np.array(1.5, np.float32), np.array(2.0, np.float32),
              label="10000 draws"),
       Sample((3,), np.array(0.0, np.float64), np.array(1.0, np.float64),
              label="float64 parameters", raises=TypeError)],
   notes={"dtype": "float32 parameters and result, as MindSpore"})


# ---- choice with mask -----------------------------------------------------------------------

def _choice_stat(sample, index, mask):
    x = sample.args[0]
    count = sample.args[1] if len(sample.args) > 1 else 256
    if index.shape != (count, x.ndim) or mask.shape != (count,):
        return f"shapes {index.shape}, {mask.shape} for count {count} and rank {x.ndim}"
    valid = index[mask]
    if int(mask.sum()) != min(count, int(x.sum())):
        return f"{int(mask.sum())} valid rows, expected {min(count, int(x.sum()))}"
    if not x[tuple(valid.T)].all() or len({tuple(r) for r in valid.tolist()}) != len(valid):
        return "a chosen index is not a distinct True element"
    return None if (index[~mask] == 0).all() else "rows past the valid ones are not zero"


op("choice_with_mask", dtypes=(dt.bool_,), **_RANDOM, result=lambda *_: (dt.int32, dt.bool_),
   check=_sampling_check(_choice_stat), samples=lambda dtype, rng, full: [
       Sample(rng.random((4, 5)) < 0.5, 3, label="3 of a 2-d mask"),
       Sample(np.array([True, False, True]), 5, label="count above the True ones"),
       Sample(np.zeros((3,), np.float32), 2, label="a float input", raises=TypeError)])
