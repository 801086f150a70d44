"""Tensor creation: full (a primitive, so graphs show it and passes can fold it),
zeros/ones/arange/eye/one_hot built on it or on constants."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from ..tensor import Tensor
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew
from . import shape as _shape


def _full_rule(shape, value, dtype):
    if any(d < 0 for d in shape):
        raise ValueError(f"full: negative dimension in shape {shape}")
    return ShapedArray(shape, dtype)


full_p = Primitive("full", lambda shape, value, dtype: np.full(shape, value, dtype),
                   _full_rule, lambda ct, out, **params: (), shape_generic=False,
                   aliasing=FRESH)


def full(size, fill_value, *, dtype=None):
    shape = coerce.as_shape(size, "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if not coerce.is_scalar(fill_value):
        raise TypeError(f"full: fill_value must be a number, got {type(fill_value).__name__}")
    dtype = dt.as_dtype(dtype) if dtype is not None else dt.scalar_dtype(fill_value)
    return full_p.bind(shape=shape, value=fill_value, dtype=dtype)


def zeros(size, dtype=None):
    return full(size, 0, dtype=dtype or dt.float32)


def ones(size, dtype=None):
    return full(size, 1, dtype=dtype or dt.float32)


def full_like(input, fill_value, dtype=None):
    x = coerce.as_tensor(input, op="full_like")
    coerce.shape_decision()          # the shape becomes part of a constant
    return full(tuple(x.shape), fill_value, dtype=dtype or x.dtype)


def arange(start=0, end=None, step=1, *, dtype=None):
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if values[2] == 0:
        raise ValueError("arange: step must not be zero")
    if dtype is None:
        dtype = dt.float32 if any(isinstance(v, float) for v in values) else dt.int64
    return coerce.constant(np.arange(*values, dtype=dt.as_dtype(dtype)))


def linspace(start, end, steps, *, dtype=None):
    return coerce.constant(np.linspace(start, end, steps, dtype=dt.as_dtype(dtype or dt.float32)))


def eye(n, m=None, dtype=None):
    if n < 0 or (m is not None and m < 0):
        raise ValueError(f"eye: sizes must be non-negative, got n={n}, m={m}")
    return coerce.constant(np.eye(n, m, dtype=dt.as_dtype(dtype or dt.float32)))


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """``one_hot`` by comparison with a range: differentiable-free, graph friendly. The
    result has ``on_value``'s dtype: int64 by default (MindSpore 2.10)."""
    idx = coerce.as_tensor(indices, op="one_hot")
    if not dt.is_int(idx.dtype):
        raise TypeError(f"one_hot: indices must be integer, got {idx.dtype}")
    hits = _ew.eq(_shape.expand_dims(idx, axis if axis >= 0 else idx.ndim + 1 + axis),
                  _shape.reshape(arange(depth, dtype=idx.dtype),
                                 _one_hot_shape(idx.ndim, depth, axis)))
    on = coerce.as_tensor(on_value, op="one_hot")
    off = coerce.as_tensor(off_value, on.dtype, op="one_hot")
    return _ew.where(hits, on, off)


def _one_hot_shape(ndim, depth, axis):
    axis = axis if axis >= 0 else ndim + 1 + axis
    shape = [1] * (ndim + 1)
    shape[axis] = depth
    return tuple(shape)


def tril(input, diagonal=0):
    x = coerce.as_tensor(input, op="tril")
    if x.ndim < 2:
        raise ValueError(f"tril: expected a tensor of rank >= 2, got shape {tuple(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    keep = coerce.constant(np.tril(np.ones((rows, cols), bool), diagonal))
    return _ew.where(keep, x, _ew.zeros_like(x))


def triu(input, diagonal=0):
    x = coerce.as_tensor(input, op="triu")
    if x.ndim < 2:
        raise ValueError(f"triu: expected a tensor of rank >= 2, got shape {tuple(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    keep = coerce.constant(np.triu(np.ones((rows, cols), bool), diagonal))
    return _ew.where(keep, x, _ew.zeros_like(x))
