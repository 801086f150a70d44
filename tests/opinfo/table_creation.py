"""Table entries: tensor creation (full, zeros / ones and their _like forms, arange,
linspace, eye, one_hot, tril / triu)."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ALL, INTS
from .samples import random, mixed


def _requested(*_, dtype):
    return dtype


def _value(dtype):
    """A fill value of ``dtype``'s kind."""
    return True if dtype == dt.bool_ else (3 if dt.is_int(dtype) else 2.5)


op("full", ref=lambda size, value, dtype: np.full(size, value, dtype), dtypes=ALL,
   result=_requested, grad=False, torch=None,
   samples=lambda dtype, rng, full: [
       Sample((2, 3), _value(dtype), dtype=dtype, label="2-d"),
       Sample((), _value(dtype), dtype=dtype, label="0-d"),
       Sample((2, 0), _value(dtype), dtype=dtype, label="empty")])
op("zeros", ref=lambda size, dtype: np.zeros(size, dtype), dtypes=ALL, result=_requested,
   grad=False, torch=None, samples=lambda dtype, rng, full: [
       Sample((2, 3), dtype=dtype, label="2-d"), Sample((0,), dtype=dtype, label="empty")])
op("ones", ref=lambda size, dtype: np.ones(size, dtype), dtypes=ALL, result=_requested,
   grad=False, torch=None, samples=lambda dtype, rng, full: [
       Sample((2, 3), dtype=dtype, label="2-d"), Sample((), dtype=dtype, label="0-d")])


def _like(fill):
    def samples(dtype, rng, full):
        return [Sample(mixed(rng, (3, 4), dtype), *fill(dtype), label="same dtype"),
                Sample(mixed(rng, (2, 0), dtype), *fill(dtype), label="empty"),
                Sample(mixed(rng, (3,), dtype), *fill(dtype), dtype=dt.float64,
                       label="another dtype")]
    return samples


def _like_result(x, dtype=None):
    return x if dtype is None else dtype


op("full_like", ref=lambda x, value, dtype=None: np.full(x.shape, value, dtype or x.dtype),
   dtypes=ALL, result=_like_result, samples=_like(lambda d: (_value(d),)), grad=False,
   torch=None)
op("zeros_like", ref=lambda x, dtype=None: np.zeros(x.shape, dtype or x.dtype), dtypes=ALL,
   result=_like_result, samples=_like(lambda d: ()), grad=False, torch=None)
op("ones_like", ref=lambda x, dtype=None: np.ones(x.shape, dtype or x.dtype), dtypes=ALL,
   result=_like_result, samples=_like(lambda d: ()), grad=False, torch=None)


def _arange_samples(dtype, rng, full):
    if dtype == dt.bool_:
        return [Sample(2, dtype=dtype, label="bool")]
    return [Sample(5, dtype=dtype, label="end"), Sample(2, 9, 3, dtype=dtype, label="step"),
            Sample(5, 1, -1, dtype=dtype, label="negative step") if dtype.kind != "u" else
            Sample(1, 1, dtype=dtype, label="empty"),
            Sample(3, 3, dtype=dtype, label="empty range")]


def _arange_ref(start=0, end=None, step=1, dtype=None):
    return np.arange(start, end, step, dtype=dtype) if end is not None else \
        np.arange(start, dtype=dtype)


op("arange", ref=_arange_ref, dtypes=ALL, result=_requested, samples=_arange_samples,
   grad=False, torch=None, prims=(),
   notes={"dtype": "int64 for integer arguments, float32 when any argument is a float"})
op("linspace", ref=lambda start, end, steps, dtype=None: np.linspace(start, end, steps,
                                                                     dtype=dtype),
   dtypes=ALL, result=_requested, grad=False, prims=(),
   torch=None, samples=lambda dtype, rng, full: [
       Sample(0.0, 1.0, 5, dtype=dtype, label="5 steps"), Sample(2.0, -1.0, 1, dtype=dtype,
                                                                  label="1 step"),
       Sample(0.0, 1.0, 0, dtype=dtype, label="no steps")])
op("eye", ref=lambda n, m=None, dtype=None: np.eye(n, m, dtype=dtype), dtypes=ALL,
   result=_requested, grad=False, prims=(), torch=None, samples=lambda dtype, rng, full: [
       Sample(3, dtype=dtype, label="square"), Sample(2, 4, dtype=dtype, label="wide"),
       Sample(0, dtype=dtype, label="empty")])


def _one_hot_ref(indices, depth, on_value=1, off_value=0, axis=-1):
    hits = np.expand_dims(indices, axis) == np.arange(depth).reshape(
        [depth if i == (axis % (indices.ndim + 1)) else 1 for i in range(indices.ndim + 1)])
    return np.where(hits, on_value, off_value)


def _one_hot_result(indices):
    return dt.int64


op("one_hot", ref=_one_hot_ref, dtypes=INTS, result=_one_hot_result, grad=False,
   prims=(), samples=lambda dtype, rng, full: [
       Sample(random(rng, (2, 3), dtype, 0, 3), 4, label="2-d"),
       Sample(random(rng, (3,), dtype, 0, 3), 4, 5, -1, 0, label="values, axis 0"),
       Sample(np.array([7, 0], dtype), 4, label="out of range is all off"),
       Sample(np.zeros((0,), dtype), 3, label="empty")],
   torch=None, notes={"out of range": "an index outside [0, depth) gives a row of off_value "
                                      "(MindSpore; PyTorch raises)",
                      "dtype": "on_value's dtype: int64 with the default 1 / 0 (MindSpore)"})


def _tri_samples(dtype, rng, full):
    return [Sample(mixed(rng, (3, 4), dtype), label="2-d", smooth=False),
            Sample(mixed(rng, (2, 3, 3), dtype), 1, label="batched, above"),
            Sample(mixed(rng, (4, 3), dtype), -1, label="below"),
            Sample(mixed(rng, (0, 3), dtype), label="empty")]


op("tril", ref=lambda x, diagonal=0: np.tril(x, diagonal), dtypes=ALL, samples=_tri_samples,
   torch=lambda torch, x, diagonal=0: torch.tril(x, diagonal), prims=(),
   grad_samples=lambda rng, full: [Sample(rng.standard_normal((3, 4)), 1)])
op("triu", ref=lambda x, diagonal=0: np.triu(x, diagonal), dtypes=ALL, samples=_tri_samples,
   torch=lambda torch, x, diagonal=0: torch.triu(x, diagonal), prims=(),
   grad_samples=lambda rng, full: [Sample(rng.standard_normal((3, 4)), -1)])
