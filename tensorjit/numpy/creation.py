"""Array creation (mindspore.numpy's creation page, first part): constants built on the
host (a graph keeps them as constants): array, zeros, full, arange, linspace, ... Matrices,
grids, windows, index helpers and random arrays: ``matrices.py``."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import as_shape, float_of, is_number, norm_axis, static_values, to_tensor



def _dtype_or(dtype, default):
    return dt.as_dtype(dtype) if dtype is not None else default


def _constant(array, dtype=None):
    """A host array as a tensor; float64 / int64 results of NumPy's own functions become
    float32 / int32 unless ``dtype`` says otherwise (mindspore.numpy's defaults)."""
    array = np.asarray(array)
    if dtype is None:
        if array.dtype.kind == "f":
            dtype = dt.float32
        elif array.dtype.kind in "iu":
            dtype = dt.int32
        else:
            dtype = array.dtype
    return coerce.constant(array.astype(dt.as_dtype(dtype)))


def array(obj, dtype=None, copy=True, ndmin=0):
    """A tensor from a Tensor, number, nested list / tuple or ndarray.

    mindspore.numpy.array: dtype (default: Python ints int32, floats float32, NumPy arrays
    keep theirs); copy (a Tensor input is copied either way: tensors are immutable here);
    ndmin (leading 1-sized axes added up to this rank).

    >>> import tensorjit.numpy as mnp
    >>> x = mnp.array([1, 2])
    >>> x.dtype, mnp.array([1.0]).dtype
    (dtype('int32'), dtype('float32'))
    """
    result = to_tensor(obj, dtype, name="array")
    if copy and result is obj:
        result = ops.identity(result)
    if ndmin > result.ndim:
        result = ops.reshape(result, (1,) * (ndmin - result.ndim) + tuple(result.shape))
    return result


def asarray(a, dtype=None):
    """A tensor from ``a`` without copying a Tensor of the right dtype.

    mindspore.numpy.asarray: a (Tensor, number, list, ndarray); dtype as in ``array``.

    >>> import tensorjit.numpy as mnp
    >>> mnp.asarray([1, 2]).asnumpy().tolist()
    [1, 2]
    """
    return to_tensor(a, dtype, name="asarray")


def asfarray(a, dtype=dt.float32):
    """A floating-point tensor from ``a``.

    mindspore.numpy.asfarray: dtype (default float32) must be a float dtype, else float32
    is used.

    >>> import tensorjit.numpy as mnp
    >>> mnp.asfarray([1, 2]).dtype
    dtype('float32')
    """
    dtype = dt.as_dtype(dtype)
    return to_tensor(a, dtype if dt.is_float(dtype) else dt.float32, name="asfarray")


def zeros(shape, dtype=dt.float32):
    """A tensor of zeros of ``shape``.

    mindspore.numpy.zeros: shape (int or tuple of ints); dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.zeros((2,)).asnumpy().tolist()
    [0.0, 0.0]
    """
    return ops.full(as_shape(shape), 0, dtype=_dtype_or(dtype, dt.float32))


def ones(shape, dtype=dt.float32):
    """A tensor of ones of ``shape``.

    mindspore.numpy.ones: shape (int or tuple of ints); dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.ones(2).asnumpy().tolist()
    [1.0, 1.0]
    """
    return ops.full(as_shape(shape), 1, dtype=_dtype_or(dtype, dt.float32))


def empty(shape, dtype=dt.float32):
    """A tensor of ``shape`` (filled with zeros, as MindSpore's is).

    mindspore.numpy.empty: shape (int or tuple of ints); dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.empty((2, 3)).shape
    (2, 3)
    """
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    """A tensor of ``shape`` filled with ``fill_value`` (a number, or a tensor broadcast).

    mindspore.numpy.full: dtype (default: int32 for an int, float32 for a float, a
    tensor's own dtype).

    >>> import tensorjit.numpy as mnp
    >>> mnp.full(2, 1).asnumpy().tolist(), mnp.full(2, 1.5).dtype
    ([1, 1], dtype('float32'))
    """
    shape = as_shape(shape)
    if is_number(fill_value):
        default = to_tensor(fill_value).dtype if not isinstance(fill_value, bool) else dt.bool_
        return ops.full(shape, fill_value, dtype=_dtype_or(dtype, default))
    value = to_tensor(fill_value, dtype, name="full")
    return ops.broadcast_to(value, shape)


def _like(a, dtype, shape, fill_value, name):
    a = to_tensor(a, name=name)
    shape = tuple(a.shape) if shape is None else as_shape(shape)
    coerce.shape_decision()
    return ops.full(shape, fill_value, dtype=_dtype_or(dtype, a.dtype))


def zeros_like(a, dtype=None, shape=None):
    """Zeros with the shape and dtype of ``a`` (or the given ``dtype`` / ``shape``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.zeros_like(mnp.ones((2,), mnp.int32)).asnumpy().tolist()
    [0, 0]
    """
    return _like(a, dtype, shape, 0, "zeros_like")


def ones_like(a, dtype=None, shape=None):
    """Ones with the shape and dtype of ``a`` (or the given ``dtype`` / ``shape``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.ones_like(mnp.zeros((2,))).asnumpy().tolist()
    [1.0, 1.0]
    """
    return _like(a, dtype, shape, 1, "ones_like")


def empty_like(prototype, dtype=None, shape=None):
    """A tensor with the shape and dtype of ``prototype`` (filled with zeros).

    >>> import tensorjit.numpy as mnp
    >>> mnp.empty_like(mnp.ones((2, 2))).shape
    (2, 2)
    """
    return _like(prototype, dtype, shape, 0, "empty_like")


def full_like(a, fill_value, dtype=None, shape=None):
    """``fill_value`` with the shape and dtype of ``a`` (or the given ``dtype`` / ``shape``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.full_like(mnp.ones(2), 3).asnumpy().tolist()
    [3.0, 3.0]
    """
    return _like(a, dtype, shape, fill_value, "full_like")


def _scalar_arg(value, name):
    if isinstance(value, Tensor):
        value = static_values(value, name)
        if value.ndim:
            raise TypeError(f"{name}: expected a number, got a tensor of shape {value.shape}")
        value = value.item()
    return value


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) with ``step``.

    mindspore.numpy.arange: dtype (default int32 when every argument is an int, else
    float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.arange(3).asnumpy().tolist(), mnp.arange(0, 1, 0.25).asnumpy().tolist()
    ([0, 1, 2], [0.0, 0.25, 0.5, 0.75])
    """
    args = [_scalar_arg(v, "arange") for v in (start, stop, step)]
    start, stop, step = args
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ValueError("arange: step must not be zero")
    for v in (start, stop, step):
        if not is_number(v):
            raise TypeError(f"arange: expected numbers, got {type(v).__name__}")
    if dtype is None:
        integral = all(isinstance(v, (int, np.integer)) for v in (start, stop, step))
        dtype = dt.int32 if integral else dt.float32
    return coerce.constant(np.arange(start, stop, step).astype(dt.as_dtype(dtype)))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from start to stop (stop included when ``endpoint``).

    mindspore.numpy.linspace: start / stop may be tensors (the values then run along
    ``axis``); retstep also returns the spacing; dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.linspace(0, 1, 5).asnumpy().tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"linspace: num must be a non-negative int, got {num!r}")
    dtype = _dtype_or(dtype, dt.float32)
    if isinstance(start, Tensor) or isinstance(stop, Tensor):
        return _linspace_tensor(start, stop, num, endpoint, retstep, dtype, axis)
    values, step = np.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis)
    result = _constant(values, dtype)
    return (result, _constant(step, dt.float32)) if retstep else result


def _linspace_tensor(start, stop, num, endpoint, retstep, dtype, axis):
    start = float_of(to_tensor(start, name="linspace"))
    stop = float_of(to_tensor(stop, name="linspace"))
    start, stop = coerce.coerce_pair(start, stop, "linspace")
    divisions = (num - 1 if endpoint else num) or 1
    step = (stop - start) / divisions
    shape = np.broadcast_shapes(tuple(start.shape), tuple(stop.shape))
    steps = ops.reshape(ops.cast(ops.arange(num), step.dtype), (num,) + (1,) * len(shape))
    values = ops.expand_dims(start, 0) + steps * ops.expand_dims(step, 0)
    if endpoint and num > 1:     # the last value is exactly stop
        last = ops.expand_dims(ops.broadcast_to(stop, shape), 0)
        values = ops.concat([ops.getitem(values, slice(0, num - 1)), last], 0)
    axis = norm_axis(axis, values.ndim)
    if axis:
        values = ops.movedim(values, 0, axis)
    values = ops.cast(values, dtype)
    return (values, step) if retstep else values


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale: base ** linspace(start, stop).

    mindspore.numpy.logspace: dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.logspace(0, 2, 3).asnumpy().tolist()
    [1.0, 10.0, 100.0]
    """
    exponents = linspace(start, stop, num, endpoint, dtype=dt.float64, axis=axis)
    return ops.cast(ops.pow(float(base), exponents), _dtype_or(dtype, dt.float32))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale from start to stop (a geometric series).

    mindspore.numpy.geomspace: start and stop must be non-zero; dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.geomspace(1, 8, 4).asnumpy().tolist()
    [1.0, 2.0, 4.0, 8.0]
    """
    start, stop = _scalar_arg(start, "geomspace"), _scalar_arg(stop, "geomspace")
    if start == 0 or stop == 0:
        raise ValueError("geomspace: start and stop must be non-zero")
    values = np.geomspace(start, stop, num, endpoint=endpoint, axis=axis)
    return _constant(values, _dtype_or(dtype, dt.float32))
