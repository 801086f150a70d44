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
    if x.ndim > 2 and y.ndim == 2:
        # (..., M, K) @ (K, N): one GEMM over all rows, not one small GEMM per batch entry
        out = np.matmul(x.reshape(-1, x.shape[-1]), y).reshape(x.shape[:-1] + y.shape[-1:])
    else:
        out = np.matmul(x, y)
    return out if out.dtype == x.dtype else out.astype(x.dtype)


def _swap_last(t):
    return _shape.swapaxes(t, -1, -2)


def _matmul_vjp(ct, out, x, y):
    if x.ndim > 2 and y.ndim == 2:
        # a weight shared by every row (a dense layer): its gradient is one GEMM over all
        # rows, not a batch of per-entry products summed afterwards
        rows = _shape.reshape(x, (-1, x.shape[-1]))
        gy = matmul_p.bind(_swap_last(rows), _shape.reshape(ct, (-1, ct.shape[-1])))
        return matmul_p.bind(ct, _swap_last(y)), gy
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
    return matmul(input, other)
