"""Whole-tensor tests and dtype queries: array_equal, array_equiv, isclose, sometrue,
isscalar, promote_types, result_type (the elementwise comparisons are in the
elementwise table)."""
import numbers

import numpy as np

from .. import dtype as dt
from .. import ops
from ..tensor import Tensor
from ._common import norm_axes, to_tensor


def array_equal(a1, a2):
    """True (a 0-d bool tensor) when both have the same shape and elements.

    >>> import tensorjit.numpy as mnp
    >>> bool(mnp.array_equal(mnp.array([1, 2]), mnp.array([1, 2])))
    True
    """
    a, b = to_tensor(a1, name="array_equal"), to_tensor(a2, name="array_equal")
    if tuple(a.shape) != tuple(b.shape):
        return to_tensor(False)
    return ops.all(a == b)


def array_equiv(a1, a2):
    """True (a 0-d bool tensor) when the inputs broadcast to one shape and are equal
    element by element.

    >>> import tensorjit.numpy as mnp
    >>> bool(mnp.array_equiv(mnp.array([1, 2]), mnp.array([[1, 2], [1, 2]])))
    True
    """
    a, b = to_tensor(a1, name="array_equiv"), to_tensor(a2, name="array_equiv")
    try:
        np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        return to_tensor(False)
    return ops.all(a == b)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True where |a - b| <= atol + rtol * |b|, elementwise (nan equal to nan with
    equal_nan).

    >>> import tensorjit.numpy as mnp
    >>> mnp.isclose(mnp.array([1.0, 2.0]), mnp.array([1.0, 2.1])).asnumpy().tolist()
    [True, False]
    """
    a, b = to_tensor(a, name="isclose"), to_tensor(b, name="isclose")
    return ops.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def sometrue(a, axis=None, keepdims=False):
    """True where any element over ``axis`` is non-zero (``any``).

    >>> import tensorjit.numpy as mnp
    >>> bool(mnp.sometrue(mnp.array([0, 1])))
    True
    """
    a = to_tensor(a, name="sometrue")
    axes = norm_axes(axis, a.ndim)
    truth = a if a.dtype == dt.bool_ else a != 0
    return ops.any(truth, axes, keepdims=keepdims) if axes else truth


def isscalar(element):
    """True for a Python or NumPy scalar (a Tensor is never a scalar here, as in
    MindSpore).

    >>> import tensorjit.numpy as mnp
    >>> mnp.isscalar(1.5), mnp.isscalar(mnp.array(1))
    (True, False)
    """
    return isinstance(element, (numbers.Number, np.generic, str, bytes)) and not isinstance(
        element, Tensor)


def _as_dtype_of(value):
    if isinstance(value, Tensor):
        return value.dtype
    if isinstance(value, bool):
        return dt.bool_
    if isinstance(value, int):
        return dt.int32
    if isinstance(value, float):
        return dt.float32
    return dt.as_dtype(value)


def promote_types(type1, type2):
    """The dtype both dtypes promote to (MindSpore's rules: int8 with float16 is
    float16).

    >>> import tensorjit.numpy as mnp
    >>> mnp.promote_types(mnp.int32, mnp.float32)
    dtype('float32')
    """
    return dt.promote_types(dt.as_dtype(type1), dt.as_dtype(type2))


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on all the arguments (tensors, dtypes, Python numbers:
    ints count as int32, floats as float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.result_type(mnp.ones(2, mnp.int32), 1.0)
    dtype('float32')
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    result = _as_dtype_of(arrays_and_dtypes[0])
    for value in arrays_and_dtypes[1:]:
        result = dt.promote_types(result, _as_dtype_of(value))
    return result
