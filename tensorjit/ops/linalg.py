"""Matrix multiplication: one batched, broadcasting primitive."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape


def _matmul_rule(x, y):
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"matmul: operands must have rank >= 2, got {x} and {y}")
    if x.dtype != y.dtype:
        raise TypeError(f"matmul: operand dtypes differ ({x} and {y})")
    if x.dtype == dt.bool_:
        raise TypeError("matmul: bool tensors are not supported")
    if x.shape[-1] != y.shape[-2]:
        raise ValueError(f"matmul: contraction dimensions differ: {x} @ {y} "
                         f"({x.shape[-1]} != {y.shape[-2]})")
    batch = broadcast_shapes("matmul", x.shape[:-2], y.shape[:-2])
    return ShapedArray(batch + (x.shape[-2], y.shape[-1]), x.dtype)


def _matmul_impl(x, y):
    out = np.matmul(x, y)
    return out if out.dtype == x.dtype else out.astype(x.dtype)


def _swap_last(t):
    return _shape.swapaxes(t, -1, -2)


def _matmul_vjp(ct, out, x, y):
    gx = _red.sum_to(matmul_p.bind(ct, _swap_last(y)), x.shape)
    gy = _red.sum_to(matmul_p.bind(_swap_last(x), ct), y.shape)
    return gx, gy


matmul_p = Primitive("matmul", _matmul_impl, _matmul_rule, _matmul_vjp,
                     codegen="({0} @ {1})", aliasing=FRESH)


def matmul(input, other):
    """NumPy-style matmul: 1-D operands are promoted to matrices and squeezed back."""
    x, y = coerce.coerce_pair(input, other, "matmul")
    if x.dtype == dt.bool_:
        raise TypeError(f"matmul: bool tensors are not supported (shapes {tuple(x.shape)} "
                        f"and {tuple(y.shape)})")
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"matmul: operands must not be scalars, got shapes "
                         f"{tuple(x.shape)} and {tuple(y.shape)}")
    x_vec, y_vec = x.ndim == 1, y.ndim == 1
    if x_vec:
        x = _shape.reshape(x, (1, x.shape[0]))
    if y_vec:
        y = _shape.reshape(y, (y.shape[0], 1))
    out = matmul_p.bind(x, y)
    if x_vec or y_vec:
        shape = tuple(out.shape)
        shape = shape[:-2] + (() if x_vec else shape[-2:-1]) + (() if y_vec else shape[-1:])
        out = _shape.reshape(out, shape)
    return out


def bmm(input_x, mat2):
    return matmul(input_x, mat2)


mm = bmm


def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (weight is (out_features, in_features))."""
    out = matmul(input, _shape.swapaxes(weight, -1, -2) if weight.ndim > 1 else weight)
    return out if bias is None else _ew.add(out, bias)


def outer(input, vec2):
    x = coerce.as_tensor(input, op="outer")
    y = coerce.as_tensor(vec2, op="outer")
    return _ew.mul(_shape.reshape(x, (-1, 1)), _shape.reshape(y, (1, -1)))


def dot(input, other):
    """MindSpore's ``ops.dot`` (NumPy's ``dot``): the last axis of ``input`` against the
    second-to-last of ``other`` (the last when it is 1-D), every other axis kept:
    ``(..., k) . (..., k, n) -> (input's leading axes, other's leading axes, n)``."""
    x, y = coerce.coerce_pair(input, other, "dot")
    if x.ndim <= 2 and y.ndim <= 2:
        return matmul(x, y)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"dot: operands must not be scalars, got shapes {tuple(x.shape)} "
                         f"and {tuple(y.shape)}")
    k = x.shape[-1]
    if y.ndim == 1:
        return matmul(x, y)
    if y.shape[-2] != k:
        raise ValueError(f"dot: contraction dimensions differ: {tuple(x.shape)} . "
                         f"{tuple(y.shape)} ({k} != {y.shape[-2]})")
    rest = tuple(y.shape[:-2]) + (y.shape[-1],)
    columns = _shape.reshape(_shape.movedim(y, -2, 0), (k, -1))
    out = matmul(_shape.reshape(x, (-1, k)), columns)
    return _shape.reshape(out, tuple(x.shape[:-1]) + rest)
