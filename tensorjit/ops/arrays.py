"""Small array builders and views of MindSpore's ``ops``: ``t``, ``expand`` /
``expand_as``, ``meshgrid``, ``diff``, ``vander``, ``trapz``, ``numel``; composed of ops."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .creation import arange
from .shape import reshape, transpose, broadcast_to, concat, slice_axis


def t(input):
    """A 2-D tensor transposed; 0-d and 1-D tensors as they are."""
    x = coerce.as_tensor(input, op="t")
    if x.ndim > 2:
        raise ValueError(f"For 't', the input must be at most 2-D, got {x.ndim}-D")
    return transpose(x, (1, 0)) if x.ndim == 2 else x


def expand(input_x, size):
    """``input_x`` broadcast to the shape held by the int tensor ``size`` (-1 keeps an
    axis). The shape is read from ``size``'s values."""
    x = coerce.as_tensor(input_x, op="expand")
    if not isinstance(size, Tensor):
        raise TypeError(f"For 'Expand', 'size' must be a Tensor, got {type(size).__name__}")
    shape = [int(d) for d in size.asnumpy().reshape(-1)]
    lead = len(shape) - x.ndim
    if lead < 0:
        raise ValueError(f"For 'Expand', 'size' {shape} has fewer axes than the input "
                         f"{tuple(x.shape)}")
    shape = [x.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(shape)]
    return broadcast_to(x, tuple(shape))


def expand_as(input, other):
    """``input`` broadcast to ``other``'s shape."""
    return broadcast_to(coerce.as_tensor(input, op="expand_as"), tuple(other.shape))


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids of 1-D tensors of one dtype; ``indexing`` ``'xy'`` (the first
    two grids' axes swapped, as NumPy's default) or ``'ij'``."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'Meshgrid', 'indexing' must be 'xy' or 'ij', got {indexing!r}")
    if not all(isinstance(x, Tensor) for x in inputs):
        raise TypeError("For 'Meshgrid', the inputs must be Tensors")
    tensors = list(inputs)
    if len(tensors) < 2 or any(x.ndim != 1 for x in tensors):
        raise ValueError("For 'Meshgrid', expected at least two 1-D tensors")
    if len({x.dtype for x in tensors}) != 1:
        raise ValueError("For 'Meshgrid', all tensors must have the same dtype")
    sizes = [x.shape[0] for x in tensors]
    if indexing == "xy":
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, x in enumerate(tensors):
        axis = (1 - i) if indexing == "xy" and i < 2 else i
        shape = [1] * len(tensors)
        shape[axis] = x.shape[0]
        grids.append(broadcast_to(reshape(x, tuple(shape)), tuple(sizes)))
    return tuple(grids)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``axis`` after joining ``prepend`` /
    ``append`` (bool: not-equal), in the input's dtype (integers wrap)."""
    x = coerce.as_tensor(x, op="diff")
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"For 'diff', 'n' must be a non-negative int, got {n!r}")
    if x.ndim == 0:
        raise ValueError("For 'diff', the input must be at least 1-D")
    axis = coerce.normalize_axis(axis, x.ndim, "diff")
    pieces = [p for p in (prepend, x, append) if p is not None]
    if len(pieces) > 1:
        x = concat([coerce.as_tensor(p) for p in pieces], axis)
    for _ in range(n):
        size = x.shape[axis]
        if size == 0:
            break
        later, earlier = slice_axis(x, axis, 1, size), slice_axis(x, axis, 0, size - 1)
        x = _ew.ne(later, earlier) if x.dtype == dt.bool_ else _ew.sub(later, earlier)
    return x


def vander(x, N=None):
    """The Vandermonde matrix of the 1-D ``x``: columns ``x**(N-1), ..., x**0``
    (integers in int64, floats in their dtype)."""
    x = coerce.as_tensor(x, op="vander")
    if x.ndim != 1:
        raise ValueError(f"For 'vander', the input must be 1-D, got {x.ndim}-D")
    if x.dtype == dt.bool_:
        raise TypeError("For 'vander', a bool input is not supported")
    n = x.shape[0] if N is None else N
    if not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"For 'vander', N must be greater than 0, got {n!r}")
    if dt.is_int(x.dtype):
        x = _ew.cast(x, dt.int64)
    powers = arange(n - 1, -1, -1, dtype=x.dtype)
    return _ew.pow(reshape(x, (-1, 1)), powers)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at the sample points
    ``x`` (1-D along ``dim``, or ``y``'s shape) or spaced ``dx`` apart."""
    y = coerce.as_tensor(y, op="trapz")
    if y.dtype == dt.bool_:
        raise TypeError("For 'trapz', a bool input is not supported")
    if not dt.is_float(y.dtype):
        y = _ew.cast(y, dt.float32)
    dim = coerce.normalize_axis(dim, y.ndim, "trapz")
    n = y.shape[dim]
    average = _ew.div(_ew.add(slice_axis(y, dim, 1, n), slice_axis(y, dim, 0, n - 1)), 2.0)
    if x is None:
        return _ew.mul(_red.sum(average, dim), dx)
    x = _ew.cast(coerce.as_tensor(x, op="trapz"), y.dtype)
    if x.ndim == 1:
        shape = [1] * y.ndim
        shape[dim] = x.shape[0]
        x = reshape(x, tuple(shape))
        step_dim = dim
    else:
        step_dim = coerce.normalize_axis(dim, x.ndim, "trapz")
    m = x.shape[step_dim]
    steps = _ew.sub(slice_axis(x, step_dim, 1, m), slice_axis(x, step_dim, 0, m - 1))
    return _red.sum(_ew.mul(average, steps), dim)


def numel(input):
    """The number of elements of ``input`` (a Python int)."""
    return int(np.prod(coerce.as_tensor(input, op="numel").shape, dtype=np.int64))
