"""Segment reductions: ``unsorted_segment_sum / max / min / prod`` (MindSpore's functions)
and the sorted ``Segment*`` operators' computation, as n-d scatters into a tensor of the
segments (``scatter.py``), so they compile and differentiate as the scatters do.

Rows whose segment id is negative are dropped (MindSpore); an id at or past
``num_segments`` raises RuntimeError when the kernel runs. An empty segment holds the
reduction's identity: 0, 1, or for max / min the dtype's lowest / highest finite value.
"""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from .creation import full
from .indexing import getitem
from .scatter import NUMBERS, scatter_add_p, scatter_max_p, scatter_min_p, scatter_mul_p
from .shape import expand_dims

_PRIMS = {"sum": scatter_add_p, "max": scatter_max_p, "min": scatter_min_p,
          "prod": scatter_mul_p}


def _identity(reduction, dtype):
    if reduction in ("sum", "prod"):
        return 0 if reduction == "sum" else 1
    info = np.finfo(dtype) if dt.is_float(dtype) else np.iinfo(dtype)
    return info.min if reduction == "max" else info.max


def _count(num_segments, op):
    if isinstance(num_segments, Tensor):
        num_segments = num_segments.item()    # the result's shape: a value the graph needs
    if isinstance(num_segments, bool) or not isinstance(num_segments, (int, np.integer)):
        raise TypeError(f"For '{op}', 'num_segments' must be an int, got {num_segments!r}")
    if num_segments <= 0:
        raise ValueError(f"For '{op}', 'num_segments' must be greater than 0, got "
                         f"{num_segments}")
    return int(num_segments)


def segment_reduce(reduction, op, x, segment_ids, num_segments):
    """``reduction`` of the rows of ``x`` with the same id in ``segment_ids`` (whose shape
    is a prefix of ``x``'s) into ``num_segments`` rows."""
    x = coerce.as_tensor(x, op=op)
    ids = coerce.as_tensor(segment_ids, op=op)
    n = _count(num_segments, op)
    if x.dtype not in NUMBERS:
        raise TypeError(f"For '{op}', the input dtype {x.dtype} is not supported")
    if not dt.is_int(ids.dtype):
        raise TypeError(f"For '{op}', 'segment_ids' must be an integer tensor, got {ids.dtype}")
    if tuple(x.shape[:ids.ndim]) != tuple(ids.shape):
        raise ValueError(f"For '{op}', the shape of 'segment_ids' {tuple(ids.shape)} must be "
                         f"a prefix of the input's {tuple(x.shape)}")
    ids = _ew.cast(ids, dt.int64)
    # negative ids go to an extra segment n, dropped at the end; ids from n on move past
    # it, so the scatter still refuses them
    ids = _ew.where(_ew.less(ids, 0), n, _ew.where(_ew.less(ids, n), ids, _ew.add(ids, 1)))
    rows = full((n + 1,) + tuple(x.shape[ids.ndim:]), _identity(reduction, x.dtype), dtype=x.dtype)
    out = _PRIMS[reduction].bind(rows, expand_dims(ids, -1), x)
    return getitem(out, slice(0, n))


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sums of the rows of ``input_x`` by segment id (``num_segments`` rows)."""
    return segment_reduce("sum", "UnsortedSegmentSum", input_x, segment_ids, num_segments)


def unsorted_segment_max(x, segment_ids, num_segments):
    """Maxima of the rows of ``x`` by segment id (empty segments: the lowest value)."""
    return segment_reduce("max", "UnsortedSegmentMax", x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """Minima of the rows of ``x`` by segment id (empty segments: the highest value)."""
    return segment_reduce("min", "UnsortedSegmentMin", x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """Products of the rows of ``x`` by segment id (empty segments: 1)."""
    return segment_reduce("prod", "UnsortedSegmentProd", x, segment_ids, num_segments)


def sorted_segment(reduction):
    """The ``Segment<Reduction>`` operators: 1-D ``segment_ids`` sorted ascending, as many
    segments as the last id + 1 (read from the ids: the result's shape depends on them);
    empty segments hold 0 (MindSpore's rule for every reduction but prod)."""
    op = "Segment" + reduction.capitalize()

    def compute(input_x, segment_ids):
        ids = coerce.as_tensor(segment_ids, op=op)
        values = ids.asnumpy()
        if ids.ndim != 1 or values.size != input_x.shape[0]:
            raise ValueError(f"For '{op}', 'segment_ids' must be 1-D with one id per row of "
                             f"the input, got shape {tuple(ids.shape)}")
        if values.size and (np.any(np.diff(values) < 0) or values[0] < 0):
            raise ValueError(f"For '{op}', 'segment_ids' must be non-negative and sorted in "
                             f"ascending order")
        n = int(values[-1]) + 1 if values.size else 0
        if reduction == "mean":
            total = segment_reduce("sum", op, input_x, ids, n)
            counts = np.bincount(values, minlength=n).reshape((n,) + (1,) * (input_x.ndim - 1))
            return _ew.div(total, coerce.constant(np.maximum(counts, 1).astype(input_x.dtype)))
        out = segment_reduce(reduction, op, input_x, ids, n)
        if reduction in ("max", "min"):
            present = np.bincount(values, minlength=n) > 0
            mask = coerce.constant(present.reshape((n,) + (1,) * (input_x.ndim - 1)))
            out = _ew.where(mask, out, _ew.zeros_like(out))
        return out
    compute.__name__ = f"segment_{reduction}"
    compute.__doc__ = sorted_segment.__doc__.replace("The ``Segment<Reduction>`` operators",
                                                     f"``{op}``")
    return compute
