"""Turning op arguments into Tensors: constants, promotion, axis normalisation."""
import numbers
import operator

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from ..state import state


def constant(value, dtype=None):
    """A tensor holding ``value``; inside a capture it becomes a graph constant."""
    try:
        array = np.asarray(value, dtype=dtype)
    except OverflowError:     # a Python int outside an int dtype's range wraps, as in MindSpore
        array = np.asarray(value).astype(dtype)
    if array.dtype not in dt.ALL_DTYPES:
        array = array.astype(dt.float32 if array.dtype.kind == "f" else dt.int64)
    t = Tensor._wrap(array)
    capture = state.capture
    if capture is not None:
        capture.constant(t)
    return t


def shape_decision():
    """Library code decided from an input's shape to emit no primitive at all (``reshape``
    to the shape it already has): nothing in the graph says so, so a graph being captured
    is right only for these input shapes (see ``Tracer.shape``)."""
    capture = state.capture
    if capture is not None:
        capture.shape_dependent = True


def is_scalar(value):
    return isinstance(value, (bool, numbers.Number, np.generic)) and not isinstance(value, complex)


def as_tensor(value, dtype=None, op="op"):
    if isinstance(value, Tensor):
        return value if dtype is None or value.dtype == dtype else cast(value, dtype)
    if is_scalar(value):
        return constant(value, dt.scalar_dtype(value) if dtype is None else dtype)
    if isinstance(value, np.ndarray):
        return constant(value, dtype)
    if isinstance(value, (list, tuple)):
        return Tensor(value, dtype)
    if getattr(type(value), "_tj_unbound", False):
        value._fail()      # a variable that is not assigned (ast capture): its own error
    raise TypeError(f"{op}: expected a Tensor or a number, got {type(value).__name__}")


def coerce_pair(x, y, op):
    """Two operands as tensors of one dtype, by MindSpore's promotion rules."""
    x_is_tensor = isinstance(x, Tensor)
    y_is_tensor = isinstance(y, Tensor)
    if x_is_tensor and y_is_tensor:
        dx, dy = x.dtype, y.dtype
        if dx == dy:
            return x, y
        wx, wy = x._weak_type, y._weak_type
        if wy is not None and wx is None:      # a Python number known only at run time
            d = dt.promote_with_scalar(dx, wy())
        elif wx is not None and wy is None:
            d = dt.promote_with_scalar(dy, wx())
        else:
            d = dt.promote_types(dx, dy)
        return (x if dx == d else cast(x, d)), (y if dy == d else cast(y, d))
    if x_is_tensor:
        if is_scalar(y):
            d = dt.promote_with_scalar(x.dtype, y)
            return (x if x.dtype == d else cast(x, d)), constant(y, d)
        return coerce_pair(x, as_tensor(y, op=op), op)
    if y_is_tensor:
        if is_scalar(x):
            d = dt.promote_with_scalar(y.dtype, x)
            return constant(x, d), (y if y.dtype == d else cast(y, d))
        return coerce_pair(as_tensor(x, op=op), y, op)
    return coerce_pair(as_tensor(x, op=op), y, op)


def normalize_axis(axis, ndim, op):
    if not -ndim <= axis < max(ndim, 1):
        raise IndexError(f"{op}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % ndim if ndim else 0


def normalize_axes(axis, ndim, op):
    """None -> all axes; int or sequence -> sorted tuple of non-negative axes."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return tuple(range(ndim))
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    if isinstance(axis, (int, np.integer)):
        axis = (int(axis),)
    if not isinstance(axis, (tuple, list)) or not all(
            isinstance(a, (int, np.integer)) for a in axis):
        raise TypeError(f"{op}: axis must be an int or a tuple of ints, got {axis!r}")
    axes = tuple(sorted(normalize_axis(int(a), ndim, op) for a in axis))
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op}: repeated axis in {axis}")
    return axes


def as_shape(shape, op):
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{op}: shape must be a sequence of ints, got {shape!r}") from None


from .elementwise import cast  # noqa: E402
