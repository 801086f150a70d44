"""Sorting: one primitive (``argsort``: the order of the elements along an axis) and the
functional ops built on it -- ``sort`` and ``topk`` take their values with
``gather_elements``, so their gradients flow through its VJP to the chosen elements."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew
from . import indexing as _idx
from . import shape as _shape
from . import batching


def _argsort_impl(x, axis, descending):
    if x.dtype == dt.bfloat16:     # ml_dtypes sorts NaN first; float32 holds it exactly
        x = x.astype(np.float32)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable").astype(np.int64, copy=False)
    # descending and stable (equal values keep their order): sort the reversed axis
    # ascending, then reverse that order and map its positions back
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1 - np.flip(flipped, axis)).astype(np.int64, copy=False)


def _argsort_rule(x, axis, descending):
    if not 0 <= axis < max(x.ndim, 1):
        raise IndexError(f"argsort: axis {axis} out of range for {x}")
    return ShapedArray(x.shape, dt.int64)


argsort_p = Primitive("argsort", _argsort_impl, _argsort_rule,
                      lambda ct, out, x, **params: (None,), shape_generic=True, aliasing=FRESH,
                      batch=batching.along_axis)


def _order(input, axis, descending, op):
    x = coerce.as_tensor(input, op=op)
    if x.ndim == 0:
        raise ValueError(f"{op}: expected a tensor of rank >= 1")
    axis = coerce.normalize_axis(axis, x.ndim, op)
    if dt.is_float(x.dtype) or dt.is_int(x.dtype) or x.dtype == dt.bool_:
        return x, axis, argsort_p.bind(x, axis=axis, descending=bool(descending))
    raise TypeError(f"{op}: cannot sort a {x.dtype} tensor")


def argsort(input, axis=-1, descending=False):
    """Indices (int32, as MindSpore) that sort ``input`` along ``axis``; ties keep their
    order."""
    _, _, order = _order(input, axis, descending, "argsort")
    return _ew.cast(order, dt.int32)


def sort(input_x, axis=-1, descending=False):
    """``(values, indices)`` of ``input_x`` sorted along ``axis`` (indices int32)."""
    x, axis, order = _order(input_x, axis, descending, "sort")
    return _idx.gather_elements(x, axis, order), _ew.cast(order, dt.int32)


def topk(input, k, dim=None, largest=True, sorted=True):
    """The ``k`` largest (or smallest) elements along ``dim`` (default: the last axis) and
    their indices (int32), largest first. Ties keep the lower index first."""
    x = coerce.as_tensor(input, op="topk")
    axis = -1 if dim is None else dim
    if x.ndim == 0:
        x = _shape.reshape(x, (1,))
    axis = coerce.normalize_axis(axis, x.ndim, "topk")
    k = int(k.item() if hasattr(k, "item") else k)
    if not 0 <= k <= x.shape[axis]:
        raise ValueError(f"topk: k={k} is out of range for axis {axis} of size "
                         f"{x.shape[axis]}")
    _, _, order = _order(x, axis, largest, "topk")
    order = _shape.slice_axis(order, axis, 0, k)
    return _idx.gather_elements(x, axis, order), _ew.cast(order, dt.int32)
