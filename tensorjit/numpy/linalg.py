"""Products and norms: dot, matmul, inner, outer, tensordot, multi_dot, kron, cross,
norm. All are transposes, reshapes and matrix products of ops, so they differentiate.
Integer inputs keep integer products (MindSpore's); mixed dtypes are promoted."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ._common import float_of, norm_axes, norm_axis, promote, to_tensor


def _pair(a, b, name):
    return promote(to_tensor(a, name=name), to_tensor(b, name=name))


def _contract(a, b, axes_a, axes_b):
    """Sum of products over axes_a of a and axes_b of b (tensordot), via one matmul."""
    if len(axes_a) != len(axes_b) or any(a.shape[i] != b.shape[j] for i, j in
                                         zip(axes_a, axes_b)):
        raise ValueError(f"tensordot: shape mismatch between {tuple(a.shape)} axes {axes_a} "
                         f"and {tuple(b.shape)} axes {axes_b}")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = int(np.prod([a.shape[i] for i in axes_a], dtype=np.int64))
    left = ops.reshape(ops.transpose(a, tuple(free_a + list(axes_a))), (-1, k))
    right = ops.reshape(ops.transpose(b, tuple(list(axes_b) + free_b)), (k, -1))
    shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b)
    return ops.reshape(ops.matmul(left, right), shape)


def tensordot(a, b, axes=2):
    """Sum of products over the given axes: ``axes`` an int n (a's last n with b's first
    n) or a pair of axis sequences.

    >>> import tensorjit.numpy as mnp
    >>> mnp.tensordot(mnp.ones((2, 3)), mnp.ones((3, 4)), 1).shape
    (2, 4)
    """
    a, b = _pair(a, b, "tensordot")
    if isinstance(axes, int):
        if axes < 0 or axes > min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: axes must be in [0, {min(a.ndim, b.ndim)}], got {axes}")
        axes_a, axes_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
        axes_a = [norm_axis(i, a.ndim, "axes") for i in axes_a]
        axes_b = [norm_axis(i, b.ndim, "axes") for i in axes_b]
    return _contract(a, b, axes_a, axes_b)


def dot(a, b):
    """Dot product: inner product of 1-D tensors, matrix product of 2-D ones, and for N-D
    a sum over a's last axis and b's second-to-last (NumPy's rule).

    >>> import tensorjit.numpy as mnp
    >>> int(mnp.dot(mnp.array([1, 2, 3]), mnp.array([1, 2, 3])))
    14
    """
    a, b = _pair(a, b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _contract(a, b, [a.ndim - 1], [max(b.ndim - 2, 0)])


def matmul(x1, x2, dtype=None):
    """Matrix product with broadcasting over leading axes (1-D operands are vectors).

    mindspore.numpy.matmul: dtype (optional) of the result. Scalars raise ValueError.

    >>> import tensorjit.numpy as mnp
    >>> mnp.matmul(mnp.ones((2, 3)), mnp.ones((3,))).asnumpy().tolist()
    [3.0, 3.0]
    """
    a, b = _pair(x1, x2, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: input operands must not be scalars")
    k_a, k_b = a.shape[-1], b.shape[-2] if b.ndim > 1 else b.shape[0]
    if k_a != k_b:
        raise ValueError(f"matmul: shape1[-1] must be equal to shape2[-2], got "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    result = ops.matmul(a, b)
    return result if dtype is None else ops.cast(result, dt.as_dtype(dtype))


def inner(a, b):
    """Inner product over the last axes of a and b (a product for scalars).

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.inner(mnp.ones(3), mnp.ones(3)))
    3.0
    """
    a, b = _pair(a, b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _contract(a, b, [a.ndim - 1], [b.ndim - 1])


def outer(a, b):
    """Outer product of the flattened a and b: out[i, j] = a[i] * b[j].

    >>> import tensorjit.numpy as mnp
    >>> mnp.outer(mnp.array([1, 2]), mnp.array([1, 10])).asnumpy().tolist()
    [[1, 10], [2, 20]]
    """
    a, b = _pair(a, b, "outer")
    return ops.reshape(a, (-1, 1)) * ops.reshape(b, (1, -1))


def multi_dot(arrays):
    """The product of a chain of matrices (the first may be a row vector, the last a
    column vector), multiplied left to right.

    >>> import tensorjit.numpy as mnp
    >>> mnp.multi_dot([mnp.ones((2, 3)), mnp.ones((3, 4)), mnp.ones(4)]).asnumpy().tolist()
    [12.0, 12.0]
    """
    tensors = [to_tensor(a, name="multi_dot") for a in arrays]
    if len(tensors) < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    for i, t in enumerate(tensors):
        allowed = (1, 2) if i in (0, len(tensors) - 1) else (2,)
        if t.ndim not in allowed:
            raise ValueError(f"multi_dot: array {i} has rank {t.ndim}, expected {allowed}")
    result = tensors[0]
    for t in tensors[1:]:
        result = dot(result, t)
    return result


def kron(a, b):
    """Kronecker product: blocks of b scaled by each element of a.

    >>> import tensorjit.numpy as mnp
    >>> mnp.kron(mnp.array([1, 2]), mnp.array([1, 10])).asnumpy().tolist()
    [1, 10, 2, 20]
    """
    return ops.kron(*_pair(a, b, "kron"))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 3-element (or 2-element) vectors along the given axes.

    mindspore.numpy.cross: axis (overrides axisa, axisb, axisc). Two 2-element vectors
    give the z component only (a tensor without that axis), as NumPy 1's.

    >>> import tensorjit.numpy as mnp
    >>> mnp.cross(mnp.array([1.0, 0, 0]), mnp.array([0.0, 1, 0])).asnumpy().tolist()
    [0.0, 0.0, 1.0]
    """
    a, b = _pair(a, b, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    a = ops.movedim(a, norm_axis(axisa, a.ndim, "axisa"), -1)
    b = ops.movedim(b, norm_axis(axisb, b.ndim, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("cross: incompatible dimensions for cross product (dimension must "
                         "be 2 or 3)")

    def c(x, i):
        if i >= x.shape[-1]:
            return ops.zeros_like(ops.getitem(x, (Ellipsis, 0)))
        return ops.getitem(x, (Ellipsis, i))

    a0, a1, a2 = c(a, 0), c(a, 1), c(a, 2)
    b0, b1, b2 = c(b, 0), c(b, 1), c(b, 2)
    z = a0 * b1 - a1 * b0
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    result = ops.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, z], -1)
    return ops.movedim(result, -1, norm_axis(axisc, result.ndim, "axisc"))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (NumPy's name)
    """Vector or matrix norm.

    mindspore.numpy.norm: axis None (a 1-D input's vector norm, a 2-D input's Frobenius
    norm), an int (vector norms) or a pair (matrix norms); ord for vectors None / 2,
    inf, -inf, 0 or any p; for matrices None / 'fro', 1, -1, inf, -inf ('nuc', 2 and -2
    need singular values: NotImplementedError, as MindSpore's). Integers give float32.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.norm(mnp.array([3.0, 4.0])))
    5.0
    """
    x = float_of(to_tensor(x, name="norm"))
    if axis is None:
        if ord is None:
            result = ops.sqrt(ops.sum(x * x))
            return ops.reshape(result, (1,) * x.ndim) if keepdims else result
        if x.ndim not in (1, 2):
            raise ValueError("norm: improper number of dimensions to norm")
        axis = tuple(range(x.ndim))
    axes = norm_axes(axis, x.ndim)
    if isinstance(axis, int) or len(axes) == 1:
        return _vector_norm(x, axes[0], ord, keepdims)
    if len(axes) == 2:
        if isinstance(axis, (list, tuple)):      # the user's order matters for 1 / inf
            axes = tuple(norm_axis(a, x.ndim) for a in axis)
        return _matrix_norm(x, axes, ord, keepdims)
    raise ValueError("norm: improper number of dimensions to norm")


def _vector_norm(x, axis, ord, keepdims):  # noqa: A002
    a = ops.abs(x)
    if ord is None or ord == 2:
        return ops.sqrt(ops.sum(x * x, axis, keepdims=keepdims))
    if ord == float("inf"):
        return ops.amax(a, axis, keepdims=keepdims)
    if ord == float("-inf"):
        return ops.amin(a, axis, keepdims=keepdims)
    if ord == 0:
        return ops.sum(ops.cast(x != 0, x.dtype), axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
    return ops.pow(ops.sum(ops.pow(a, float(ord)), axis, keepdims=keepdims), 1.0 / ord)


def _matrix_norm(x, axes, ord, keepdims):  # noqa: A002
    row, col = axes
    a = ops.abs(x)
    if ord is None or ord == "fro":
        result = ops.sqrt(ops.sum(x * x, tuple(sorted(axes))))
    elif ord in (1, -1):
        sums = ops.sum(a, row, keepdims=True)
        result = (ops.amax if ord == 1 else ops.amin)(sums, col, keepdims=True)
        result = ops.reshape(result, _drop(tuple(result.shape), axes))
    elif ord in (float("inf"), float("-inf")):
        sums = ops.sum(a, col, keepdims=True)
        result = (ops.amax if ord > 0 else ops.amin)(sums, row, keepdims=True)
        result = ops.reshape(result, _drop(tuple(result.shape), axes))
    elif ord in (2, -2, "nuc"):
        raise NotImplementedError(f"norm: ord={ord!r} needs singular values, which are not "
                                  f"implemented (as in MindSpore)")
    else:
        raise ValueError(f"norm: invalid norm order {ord!r} for matrices")
    if keepdims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        result = ops.reshape(result, shape)
    return result


def _drop(shape, axes):
    return tuple(d for i, d in enumerate(shape) if i not in axes)
