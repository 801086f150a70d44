"""What every part of tensorjit.numpy shares: turning arguments into tensors with
mindspore.numpy's defaults, dtype and axis arguments, and building table functions."""
import numbers

import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor


def is_number(value):
    return isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, complex)


def _python_default(array, value):
    """Python ints become int32 and floats float32 (mindspore.numpy's defaults, NumPy
    scalars too); NumPy arrays keep their own dtype."""
    if isinstance(value, np.ndarray):
        return array
    if array.dtype.kind in "iu":
        return array.astype(np.int32)
    if array.dtype.kind == "f":
        return array.astype(np.float32)
    return array


def _contains_tensor(value):
    if isinstance(value, Tensor):
        return True
    return isinstance(value, (list, tuple)) and any(_contains_tensor(v) for v in value)


def to_tensor(value, dtype=None, name="argument"):
    """``value`` (Tensor, number, nested list / tuple, ndarray) as a Tensor.

    Lists holding Tensors are stacked with ops (so they stay in a captured graph);
    everything else becomes a constant."""
    if dtype is not None:
        dtype = dt.as_dtype(dtype)
    if isinstance(value, Tensor):
        return value if dtype is None or value.dtype == dtype else ops.cast(value, dtype)
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        parts = [to_tensor(v, name=name) for v in value]
        common = parts[0].dtype
        for p in parts[1:]:
            common = dt.promote_types(common, p.dtype)
        stacked = ops.stack([ops.cast(p, common) if p.dtype != common else p for p in parts])
        return stacked if dtype is None else ops.cast(stacked, dtype)
    if value is None or isinstance(value, (str, bytes, dict, set)):
        raise TypeError(f"{name}: expected a Tensor, a number or a list of numbers, "
                        f"got {type(value).__name__}")
    try:
        array = np.asarray(value)
    except ValueError as exc:     # ragged lists
        raise ValueError(f"{name}: cannot make a tensor of {value!r}: {exc}") from None
    if array.dtype == object or array.dtype.kind in "cUSV":
        raise TypeError(f"{name}: unsupported element type {array.dtype} in {value!r}")
    array = _python_default(array, value)
    if dtype is not None:
        array = array.astype(dtype)
    elif array.dtype not in dt.ALL_DTYPES:
        array = array.astype(np.float32 if array.dtype.kind == "f" else np.int32)
    return coerce.constant(array)


def both(x1, x2, name):
    """Two elementwise operands as tensors of one dtype. A Python number becomes an int32
    or float32 tensor first, then the usual promotion applies (mindspore.numpy's rule:
    int8 tensor + 2 is int32, float16 tensor + 2.5 is float32)."""
    return promote(to_tensor(x1, name=name), to_tensor(x2, name=name))


def promote(a, b):
    """Two tensors (or a tensor and a number) cast to their common dtype."""
    return coerce.coerce_pair(a, b, "mindspore.numpy")


def with_dtype(result, dtype):
    """Cast ``result`` to ``dtype`` when one is given (the ``dtype=`` argument)."""
    if dtype is None:
        return result
    return ops.cast(result, dt.as_dtype(dtype))


def float_of(x):
    """x itself when floating point, else x as float32 (mindspore.numpy's default float)."""
    return x if dt.is_float(x.dtype) else ops.cast(x, dt.float32)


def norm_axis(axis, ndim, name="axis"):
    """An axis in [-ndim, ndim) as a non-negative int; ValueError naming the range."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(axis).__name__}")
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise ValueError(f"The '{name}' must be in the range of [{-ndim}, {ndim}), "
                         f"but got {axis}.")
    return int(axis) % max(ndim, 1)


def norm_axes(axis, ndim, name="axis"):
    """None -> every axis; an int or a sequence -> a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = tuple(norm_axis(a, ndim, name) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in {name} {axis}")
        return tuple(sorted(axes))
    return (norm_axis(axis, ndim, name),)


def as_shape(shape, name="shape"):
    """An int or a sequence of ints as a tuple; ValueError on negative entries."""
    if isinstance(shape, Tensor):
        shape = static_values(shape, name).tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (list, tuple)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"{name} must be an int or a tuple of ints, got {shape!r}")
    if any(d < 0 for d in shape):
        raise ValueError(f"each entry in {name} should no less than 0, got {tuple(shape)}.")
    return tuple(int(d) for d in shape)


def make_function(name, body, doc):
    """A public function named ``name`` running ``body``, with its docstring."""
    body.__name__ = body.__qualname__ = name
    body.__module__ = "tensorjit.numpy"
    body.__doc__ = doc
    return body


def static_values(x, name):
    """The values of ``x`` on the host: for the functions whose result size depends on the
    data (unique, nonzero-like, histograms), which MindSpore computes outside graphs too."""
    if isinstance(x, Tensor):
        try:
            return x.asnumpy()
        except Exception as exc:        # a traced value has no data
            raise RuntimeError(f"mindspore.numpy.{name}: the result's size depends on the "
                               f"data, so it runs eagerly only (not inside jit)") from exc
    return _python_default(np.asarray(x), x)
