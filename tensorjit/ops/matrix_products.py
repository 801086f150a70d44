"""Products of vectors and matrices in MindSpore's functional API (``kron``, ``inner``,
``ger``, ``mv``, the scaled-sum forms ``addmm`` / ``addbmm`` / ``addmv`` / ``addr`` /
``baddbmm_ext``, ``batch_dot``, ``cross``) and the elementwise ``inv``, composed of the
matmul primitive, reshapes and elementwise ops, so each differentiates and compiles."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .linalg import matmul, tensor_dot
from .compat import baddbmm
from .matrix_structure import check_dtype, INTEGER_AND_FLOAT

__all__ = ["kron", "inner", "ger", "mv", "addmm", "addbmm", "addmv", "addr", "baddbmm_ext",
           "batch_dot", "cross", "inv"]

_FLOAT = (dt.float16, dt.float32, dt.float64)
# MindSpore 2.10's CPU MatMul: floats, signed integers and uint8
_MATMUL = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + _FLOAT
# Addmv / Addr check their input against this list
_ADD_PRODUCT = (dt.int16, dt.int32, dt.int64) + _FLOAT


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: the inputs must be Tensors, got {type(x).__name__}")
    return x


def _same_dtype(x, y, op):
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: the inputs' dtypes must be the same, got {x.dtype} and "
                        f"{y.dtype}")


def kron(input, other):
    """``ops.kron``: the Kronecker product, blocks of ``other`` scaled by each element of
    ``input`` (the lower-rank operand gets leading axes of size 1); every dtype, mixed
    dtypes promoted.

    >>> import tensorjit as ms
    >>> ms.ops.kron(ms.Tensor([1, 2]), ms.Tensor([1, 10])).asnumpy().tolist()
    [1, 10, 2, 20]
    """
    x, y = _tensor(input, "kron"), _tensor(other, "kron")
    if x.ndim == 0 or y.ndim == 0:
        return _ew.mul(x, y)
    ndim = max(x.ndim, y.ndim)
    xs = (1,) * (ndim - x.ndim) + tuple(x.shape)
    ys = (1,) * (ndim - y.ndim) + tuple(y.shape)
    # interleave the axes: (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...)
    x = _shape.reshape(x, sum(((d, 1) for d in xs), ()))
    y = _shape.reshape(y, sum(((1, d) for d in ys), ()))
    return _shape.reshape(_ew.mul(x, y), tuple(a * b for a, b in zip(xs, ys)))


def inner(input, other):
    """``ops.inner``: the sum of products over the last axes of both inputs (a product
    when one is 0-d); result shape ``input.shape[:-1] + other.shape[:-1]``.

    >>> import tensorjit as ms
    >>> int(ms.ops.inner(ms.Tensor([1, 2, 3]), ms.Tensor([4, 5, 6])))
    32
    """
    x, y = _tensor(input, "inner"), _tensor(other, "inner")
    if x.ndim == 0 or y.ndim == 0:
        return _ew.mul(x, y)
    _same_dtype(x, y, "inner")
    check_dtype(x, _MATMUL, "inner")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"inner: the last dimension of 'input' and 'other' must be the same, "
                         f"got shapes {tuple(x.shape)} and {tuple(y.shape)}")
    return tensor_dot(x, y, ((x.ndim - 1,), (y.ndim - 1,)))


def ger(input, vec2):
    """``ops.ger``: the outer product of two 1-D float tensors of one dtype,
    ``out[i, j] = input[i] * vec2[j]``.

    >>> import tensorjit as ms
    >>> ms.ops.ger(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0])).asnumpy().tolist()
    [[3.0], [6.0]]
    """
    x, y = _tensor(input, "ger"), _tensor(vec2, "ger")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"ger: the inputs must be 1-D, got shapes {tuple(x.shape)} and "
                         f"{tuple(y.shape)}")
    _same_dtype(x, y, "ger")
    check_dtype(x, _FLOAT, "ger")
    return _ew.mul(_shape.reshape(x, (-1, 1)), _shape.reshape(y, (1, -1)))


def mv(mat, vec):
    """``ops.mv``: the product of a matrix (N, M) and a vector (M,), shape (N,).

    >>> import tensorjit as ms
    >>> ms.ops.mv(ms.Tensor([[1, 2], [3, 4]]), ms.Tensor([1, 1])).asnumpy().tolist()
    [3, 7]
    """
    m, v = _tensor(mat, "mv"), _tensor(vec, "mv")
    if m.ndim != 2 or v.ndim != 1:
        raise ValueError(f"mv: expected a 2-D matrix and a 1-D vector, got shapes "
                         f"{tuple(m.shape)} and {tuple(v.shape)}")
    _same_dtype(m, v, "mv")
    check_dtype(m, _MATMUL, "mv")
    if m.shape[1] != v.shape[0]:
        raise ValueError(f"mv: the matrix's columns ({m.shape[1]}) and the vector's length "
                         f"({v.shape[0]}) differ")
    return matmul(m, v)


def _scales(beta, alpha, op, allow_bool=False):
    kinds = (int, float, bool) if allow_bool else (int, float)
    for name, value in (("beta", beta), ("alpha", alpha)):
        if not isinstance(value, kinds) or (isinstance(value, bool) and not allow_bool):
            raise TypeError(f"{op}: {name} must be an int or a float, got "
                            f"{type(value).__name__}")


def _scaled_sum(input, product, beta, alpha):
    """``beta * input + alpha * product`` with Python-number scales (weak: they keep the
    tensors' dtype, as MindSpore's); NaN in ``input`` propagates even when beta is 0."""
    return _ew.add(_ew.mul(input, beta), _ew.mul(product, alpha))


def _factors(op, beta, alpha, input, a, b, rank, dtypes):
    """The operands of a scaled product, checked: Python-number scales, ``a`` and ``b``
    of rank ``rank`` and one dtype among ``dtypes``."""
    _scales(beta, alpha, op)
    x, a, b = (_tensor(t, op) for t in (input, a, b))
    if a.ndim != rank or b.ndim != rank:
        raise ValueError(f"{op}: the factors must be {rank}-D, got shapes {tuple(a.shape)} "
                         f"and {tuple(b.shape)}")
    _same_dtype(a, b, op)
    check_dtype(a, dtypes, op)
    return x, a, b


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``ops.addmm``: ``beta * input + alpha * (mat1 @ mat2)`` (``input`` broadcasts).

    >>> import tensorjit as ms
    >>> ms.ops.addmm(ms.Tensor([[1.0]]), ms.Tensor([[2.0, 3.0]]), ms.Tensor([[4.0], [5.0]])).asnumpy().tolist()
    [[24.0]]
    """
    x, a, b = _factors("addmm", beta, alpha, input, mat1, mat2, 2, _MATMUL)
    return _scaled_sum(x, matmul(a, b), beta, alpha)


_ADDBMM = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32) + _FLOAT


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``ops.addbmm``: ``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``; the sum
    over the batch accumulates integers in int64 (MindSpore's ``sum``).

    >>> import tensorjit as ms
    >>> ms.ops.addbmm(ms.Tensor([[0.0]]), ms.Tensor([[[1.0]], [[2.0]]]), ms.Tensor([[[3.0]], [[4.0]]])).asnumpy().tolist()
    [[11.0]]
    """
    x, a, b = _factors("addbmm", beta, alpha, input, batch1, batch2, 3, _ADDBMM)
    product = _red.sum(matmul(a, b), 0)
    return _scaled_sum(x, product, beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``ops.addmv``: ``beta * input + alpha * (mat @ vec)``.

    >>> import tensorjit as ms
    >>> ms.ops.addmv(ms.Tensor([1.0]), ms.Tensor([[2.0, 3.0]]), ms.Tensor([4.0, 5.0])).asnumpy().tolist()
    [24.0]
    """
    x, m, v = (_tensor(t, "addmv") for t in (input, mat, vec))
    _same_dtype(m, v, "addmv")
    check_dtype(x, _ADD_PRODUCT, "addmv")
    _scales(beta, alpha, "addmv", allow_bool=True)
    return _scaled_sum(x, mv(m, v), _integral(beta, x), _integral(alpha, x))


def _integral(scale, x):
    """Addmv / Addr cast their scales to integers for integer inputs (MindSpore)."""
    return int(scale) if dt.is_int(x.dtype) else scale


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``ops.addr``: ``beta * x + alpha * outer(vec1, vec2)``.

    >>> import tensorjit as ms
    >>> ms.ops.addr(ms.Tensor([[1.0, 1.0]]), ms.Tensor([2.0]), ms.Tensor([3.0, 4.0])).asnumpy().tolist()
    [[7.0, 9.0]]
    """
    x, u, v = (_tensor(t, "addr") for t in (x, vec1, vec2))
    _same_dtype(u, v, "addr")
    check_dtype(x, _ADD_PRODUCT, "addr")
    _scales(beta, alpha, "addr", allow_bool=True)
    if u.ndim != 1 or v.ndim != 1:
        raise ValueError(f"addr: vec1 and vec2 must be 1-D, got shapes {tuple(u.shape)} and "
                         f"{tuple(v.shape)}")
    outer = _ew.mul(_shape.reshape(u, (-1, 1)), _shape.reshape(v, (1, -1)))
    return _scaled_sum(x, outer, _integral(beta, x), _integral(alpha, x))


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """``ops.baddbmm_ext``: ``beta * input + alpha * (batch1 @ batch2)`` per batch, with
    keyword-only scales (MindSpore runs it on Ascend only); beta = 0 leaves ``input``
    unread, as ``ops.baddbmm``.

    >>> import tensorjit as ms
    >>> ms.ops.baddbmm_ext(ms.Tensor([[[1.0]]]), ms.Tensor([[[2.0]]]), ms.Tensor([[[3.0]]])).asnumpy().tolist()
    [[[7.0]]]
    """
    x, a, b = _factors("baddbmm_ext", beta, alpha, input, batch1, batch2, 3, _MATMUL)
    return baddbmm(x, a, b, beta, alpha)


def _batch_dot_axes(x1, x2, axes):
    n1, n2 = x1.ndim, x2.ndim
    if axes is None:
        axes = [n1 - 1, n2 - 1] if n2 == 2 else [n1 - 1, n2 - 2]
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        if axes == 0 or axes > n1 or axes > n2:
            raise ValueError(f"batch_dot: axes must be nonzero and at most the ranks, got "
                             f"{axes} for shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
        return [axes + n1, axes + n2] if axes < 0 else [axes, axes]
    if not isinstance(axes, (list, tuple)):
        raise ValueError(f"batch_dot: axes must be an int, tuple or list, got "
                         f"{type(axes).__name__}")
    if len(axes) != 2 or 0 in axes:
        raise ValueError(f"batch_dot: axes must be two nonzero axes, got {axes}")
    axes = [a + n if a < 0 else a for a, n in zip(axes, (n1, n2))]
    if not (0 < axes[0] < n1 and 0 < axes[1] < n2):
        raise ValueError(f"batch_dot: axes {axes} are out of range for shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    return axes


def batch_dot(x1, x2, axes=None):
    """``ops.batch_dot``: per example of the first axis, the sum of products over
    ``axes`` (axis ``axes[0]`` of ``x1`` with ``axes[1]`` of ``x2``; default the last of
    ``x1`` with the second-to-last of ``x2``, or its last when 2-D); the result is the
    batch, ``x1``'s other axes, then ``x2``'s (a 2-D ``x1`` and ``x2`` give (B, 1)).
    float32 only, as MindSpore's.

    >>> import tensorjit as ms
    >>> ms.ops.batch_dot(ms.ops.ones((2, 3)), ms.ops.ones((2, 3))).asnumpy().tolist()
    [[3.0], [3.0]]
    """
    x1, x2 = _tensor(x1, "batch_dot"), _tensor(x2, "batch_dot")
    for t in (x1, x2):
        if t.dtype != dt.float32:
            raise TypeError(f"batch_dot: the inputs must be float32, got {t.dtype}")
        if t.ndim < 2:
            raise ValueError(f"batch_dot: the inputs must have rank >= 2, got shapes "
                             f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    if x1.shape[0] != x2.shape[0]:
        raise ValueError(f"batch_dot: the batch sizes differ: {x1.shape[0]} and {x2.shape[0]}")
    a1, a2 = _batch_dot_axes(x1, x2, axes)
    two_d = (x1.ndim == 2, x2.ndim == 2)
    if two_d[0]:
        x1, a1 = _shape.expand_dims(x1, 1), a1 + 1
    if two_d[1]:
        x2 = _shape.expand_dims(x2, 2)
    if x1.shape[a1] != x2.shape[a2]:
        raise ValueError(f"batch_dot: axis {a1} of x1 and axis {a2} of x2 differ in size "
                         f"({x1.shape[a1]} and {x2.shape[a2]})")
    free1 = [i for i in range(1, x1.ndim) if i != a1]
    free2 = [i for i in range(1, x2.ndim) if i != a2]
    batch, k = x1.shape[0], x1.shape[a1]
    # sizes written out: a -1 cannot be inferred when an axis is empty
    n1 = int(np.prod([x1.shape[i] for i in free1], dtype=np.int64))
    n2 = int(np.prod([x2.shape[i] for i in free2], dtype=np.int64))
    left = _shape.reshape(_shape.transpose(x1, tuple([0] + free1 + [a1])), (batch, n1, k))
    right = _shape.reshape(_shape.transpose(x2, tuple([0, a2] + free2)), (batch, k, n2))
    out = matmul(left, right)
    out = _shape.reshape(out, (batch,) + tuple(x1.shape[i] for i in free1) +
                         tuple(x2.shape[i] for i in free2))
    if two_d[0]:
        return _shape.squeeze(out, 1)
    if two_d[1]:
        return _shape.squeeze(out, -1)
    return out


def cross(input, other, dim=None):
    """``ops.cross``: the cross product of 3-vectors along ``dim`` (default: the first
    axis of size 3); the inputs broadcast, mixed dtypes are promoted.

    >>> import tensorjit as ms
    >>> ms.ops.cross(ms.Tensor([1, 0, 0]), ms.Tensor([0, 1, 0])).asnumpy().tolist()
    [0, 0, 1]
    """
    x, y = coerce.coerce_pair(_tensor(input, "cross"), _tensor(other, "cross"), "cross")
    check_dtype(x, INTEGER_AND_FLOAT, "cross")
    shape = tuple(np.broadcast_shapes(tuple(x.shape), tuple(y.shape)))
    if dim is None:
        dim = next((d for d, size in enumerate(shape) if size == 3), None)
        if dim is None:
            raise ValueError(f"cross: no dimension of size 3 in the inputs' shape {shape}")
    dim = coerce.normalize_axis(dim, len(shape), "cross")
    if shape[dim] != 3:
        raise ValueError(f"cross: dimension {dim} has size {shape[dim]}, expected 3")
    x, y = _shape.broadcast_to(x, shape), _shape.broadcast_to(y, shape)
    a = [_shape.slice_axis(x, dim, i, i + 1) for i in range(3)]
    b = [_shape.slice_axis(y, dim, i, i + 1) for i in range(3)]
    parts = [_ew.sub(_ew.mul(a[1], b[2]), _ew.mul(a[2], b[1])),
             _ew.sub(_ew.mul(a[2], b[0]), _ew.mul(a[0], b[2])),
             _ew.sub(_ew.mul(a[0], b[1]), _ew.mul(a[1], b[0]))]
    return _shape.concat(parts, dim)


_INV = (dt.int16, dt.int32, dt.int64) + _FLOAT


def inv(x):
    """``ops.inv``: the elementwise reciprocal ``1 / x`` (the matrix inverse is
    ``ops.inverse``); integers keep their dtype, the quotient truncated (1 / 0 gives the
    dtype's smallest value, as MindSpore's CPU kernel).

    >>> import tensorjit as ms
    >>> ms.ops.inv(ms.Tensor([2.0, 4.0])).asnumpy().tolist()
    [0.5, 0.25]
    """
    x = check_dtype(_tensor(x, "inv"), _INV, "inv")
    if dt.is_float(x.dtype):
        return _ew.div(_ew.ones_like(x), x)
    # truncated 1 / x: 1 and -1 are their own reciprocal, other nonzero values give 0
    unit = _ew.logical_or(_ew.eq(x, 1), _ew.eq(x, -1))
    smallest = coerce.constant(np.iinfo(x.dtype).min, x.dtype)
    return _ew.where(unit, x, _ew.where(_ew.eq(x, 0), smallest, _ew.zeros_like(x)))
