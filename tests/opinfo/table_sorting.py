"""Table entries: sorting (argsort, sort, topk). The reference orders each row with
Python's ``sorted`` (stable: ties keep their order), NaN after every number ascending and
before every number descending (NumPy's and PyTorch's rule)."""
import math

import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ALL
from .samples import random, specials


def _is_nan(v):
    return isinstance(v, float) and math.isnan(v)


def _row_order(row, descending):
    values = row.tolist()          # exact Python numbers (floats are float64 here)
    if descending:
        key = lambda i: (not _is_nan(values[i]), 0 if _is_nan(values[i]) else -values[i])  # noqa: E731
    else:
        key = lambda i: (_is_nan(values[i]), 0 if _is_nan(values[i]) else values[i])  # noqa: E731
    return sorted(range(len(values)), key=key)


def _order(x, axis, descending):
    """The stable order of ``x`` along ``axis``, as int64 indices."""
    rows = np.moveaxis(x, axis, -1)
    out = np.zeros(rows.shape, np.int64)
    for pos in np.ndindex(rows.shape[:-1]):
        out[pos] = _row_order(rows[pos], descending)
    return np.moveaxis(out, -1, axis)


def _argsort_ref(x, axis=-1, descending=False):
    return _order(x, axis, descending).astype(np.int32)


def _sort_ref(x, axis=-1, descending=False):
    order = _order(x, axis, descending)
    return np.take_along_axis(x, order, axis), order.astype(np.int32)


def _topk_ref(x, k, dim=None, largest=True, sorted=True):
    x = x.reshape(1) if x.ndim == 0 else x
    axis = -1 if dim is None else dim
    order = np.take(_order(x, axis, largest), np.arange(k), axis)
    return np.take_along_axis(x, order, axis), order.astype(np.int32)


def _sort_samples(dtype, rng, full):
    """Rows with ties (small integers / rounded floats), every axis form, descending,
    empty axes, and the dtype's edge values (NaN, +-inf, +-0 among them)."""
    def r(*shape):
        return random(rng, shape, dtype, -3, 3) if not dt.is_float(dtype) else \
            np.asarray((np.round(rng.uniform(-3, 3, shape) * 2) / 2).astype(dtype))
    out = [Sample(r(3, 5), label="last axis, ties"), Sample(r(4, 3), 0, label="axis 0"),
           Sample(r(2, 3, 4), 1, True, label="descending"), Sample(r(6), -1, True,
                                                                   label="vector descending"),
           Sample(r(2, 0), 1, label="empty axis"), Sample(r(0, 3), label="no rows"),
           Sample(specials(dtype), label="edge", smooth=False),
           Sample(specials(dtype), 0, True, label="edge descending", smooth=False),
           Sample(r(), label="0-d", raises=ValueError)]
    if full:
        out.append(Sample(r(4, 64), label="long rows"))
    return out


def _sort_grad_samples(rng, full):
    return [Sample(rng.permutation(12).reshape(3, 4) * 0.25 - 1.0, label="distinct"),
            Sample(rng.standard_normal((2, 3, 4)), 1, True, label="descending")]


_ORDER = {"order": "stable: equal values keep their order; NaN sorts after every number "
                   "(before them descending), as in NumPy and PyTorch; -0.0 and 0.0 are equal",
          "indices": "int32 (MindSpore); PyTorch gives int64"}
op("argsort", prims=("argsort",), ref=_argsort_ref, dtypes=ALL, samples=_sort_samples,
   result=lambda x: dt.int32, grad=False, notes=_ORDER,
   torch=lambda torch, x, axis=-1, descending=False: torch.argsort(
       x, dim=axis, descending=descending, stable=True))
op("sort", prims=(), ref=_sort_ref, dtypes=ALL, samples=_sort_samples,
   grad_samples=_sort_grad_samples, result=lambda x: (x, dt.int32), notes=_ORDER | {
       "gradient": "each sorted value's cotangent goes to the element its index names"},
   torch=lambda torch, x, axis=-1, descending=False: tuple(torch.sort(
       x, dim=axis, descending=descending, stable=True)))


def _topk_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3) if not dt.is_float(dtype) else \
            np.asarray((np.round(rng.uniform(-3, 3, shape) * 2) / 2).astype(dtype))
    return [Sample(r(3, 5), 2, label="k=2, ties"), Sample(r(4, 3), 4, 0, label="dim 0, k=n"),
            Sample(r(3, 5), 3, largest=False, label="smallest"),
            Sample(r(3, 5), 0, label="k=0"), Sample(r(), 1, label="0-d"),
            Sample(r(2, 0), 0, label="empty axis"),
            Sample(specials(dtype), 3, label="edge", smooth=False),
            Sample(specials(dtype), 3, largest=False, label="edge smallest", smooth=False),
            Sample(r(3, 5), 6, label="k > n", raises=ValueError)]


op("topk", prims=(), ref=_topk_ref, dtypes=ALL, samples=_topk_samples,
   result=lambda x: (x, dt.int32), grad_samples=lambda rng, full: [
       Sample(rng.permutation(12).reshape(3, 4) * 0.25 - 1.0, 2, label="distinct"),
       Sample(rng.standard_normal((4, 3)), 2, 0, largest=False, label="smallest, dim 0")],
   notes={"ties": "equal values come out in index order (a stable sort; PyTorch's order of "
                  "ties is unspecified, so only its values are compared)",
          "indices": "int32 (MindSpore); PyTorch gives int64",
          "NaN": "NaN counts as the largest value (PyTorch)"},
   torch=lambda torch, x, k, dim=None, largest=True, sorted=True: torch.topk(
       x.reshape(1) if x.ndim == 0 else x, k, -1 if dim is None else dim, largest,
       sorted).values)
