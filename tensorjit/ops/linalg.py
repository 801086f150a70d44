"""Matrix multiplication: one batched, broadcasting primitive."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import batching
from .low_precision import accumulate_in_float32
from .blas import matmul as _gemm


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


@accumulate_in_float32
def _matmul_impl(x, y):
    if x.ndim > 2 and y.ndim == 2:
        # (..., M, K) @ (K, N): one GEMM over all rows, not one small GEMM per batch entry
        out = _gemm(x.reshape(-1, x.shape[-1]), y).reshape(x.shape[:-1] + y.shape[-1:])
    else:
        out = _gemm(x, y)
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


def _matmul_batch(prim, dims, x, y):
    dx, dy = dims
    if dy is None and y.ndim == 2:
        # examples (..., n, k) @ one (k, m) matrix: a single GEMM over all rows
        x = batching.to_front(x, dx)
        lead = tuple(x.shape[:-1])
        rows = _shape.reshape(x, (-1, x.shape[-1]))
        return _shape.reshape(prim.bind(rows, y), lead + (y.shape[-1],)), 0
    if dx is None and x.ndim == 2 and y.ndim - 1 == 2:
        # one (n, k) matrix @ examples (k, m): the examples side by side, (k, B*m)
        y = batching.moveaxis(y, dy, 1)
        k, size, m = y.shape
        out = prim.bind(x, _shape.reshape(y, (k, size * m)))
        return _shape.reshape(out, (x.shape[0], size, m)), 1
    rank = max(batching.example_ndim(x, dx), batching.example_ndim(y, dy))
    operands = [t if d is None else batching.pad_rank(batching.to_front(t, d), rank)
                for t, d in ((x, dx), (y, dy))]
    if x.shape[-1] == 1:
        # (n, 1) @ (1, m) per example -- outer products, as in per-example weight gradients:
        # a broadcast multiply, which NumPy does several times faster than a batched matmul
        return _ew.mul(*operands), 0
    return prim.bind(*operands), 0


# (no "a @ b" code template: the kernel accumulates float16 in float32, which NumPy's
# operator would not, and compiled code must compute what eager mode does)
matmul_p = Primitive("matmul", _matmul_impl, _matmul_rule, _matmul_vjp, aliasing=FRESH,
                     batch=_matmul_batch)


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


def tensor_dot(x1, x2, axes):
    """MindSpore ``ops.tensor_dot``: sum the products over ``axes`` -- an int N (the last N
    axes of ``x1`` with the first N of ``x2``) or a pair of axis lists -- as one matmul."""
    x1, x2 = coerce.coerce_pair(x1, x2, "tensor_dot")
    if isinstance(axes, int):
        if not 0 <= axes <= min(x1.ndim, x2.ndim):
            raise ValueError(f"tensor_dot: axes={axes} does not fit shapes {tuple(x1.shape)} "
                             f"and {tuple(x2.shape)}")
        a1, a2 = list(range(x1.ndim - axes, x1.ndim)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
        a1 = [coerce.normalize_axis(a, x1.ndim, "tensor_dot") for a in a1]
        a2 = [coerce.normalize_axis(a, x2.ndim, "tensor_dot") for a in a2]
    if [x1.shape[a] for a in a1] != [x2.shape[a] for a in a2]:
        raise ValueError(f"tensor_dot: axes {a1} of {tuple(x1.shape)} and {a2} of "
                         f"{tuple(x2.shape)} differ in size")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    if x1.dtype == dt.bool_:
        raise TypeError("tensor_dot: bool tensors are not supported")
    size = int(np.prod([x1.shape[a] for a in a1], dtype=np.int64))
    rows = int(np.prod([x1.shape[i] for i in free1], dtype=np.int64))
    columns = int(np.prod([x2.shape[i] for i in free2], dtype=np.int64))
    # sizes written out: a -1 cannot be inferred when the contraction is empty
    left = _shape.reshape(_shape.transpose(x1, tuple(free1 + a1)), (rows, size))
    right = _shape.reshape(_shape.transpose(x2, tuple(a2 + free2)), (size, columns))
    out = matmul_p.bind(left, right)
    return _shape.reshape(out, tuple(x1.shape[i] for i in free1) +
                          tuple(x2.shape[i] for i in free2))
