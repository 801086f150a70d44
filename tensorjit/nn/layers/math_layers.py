"""Small math and array cells of MindSpore's ``nn`` (Norm, Moments, MatMul, the matrix
diagonal cells, Range, OneHot, ...): each is one or two ``ops`` calls with MindSpore's
constructor arguments."""
import numpy as np

from ... import ops
from ... import dtype as dt
from ...ops import coerce
from ..cell import Cell
from .. import _checks

__all__ = ["Unflatten", "Tril", "Triu", "Roll", "Norm", "OneHot", "Range", "Moments",
           "MatMul", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "ClipByNorm",
           "ReduceLogSumExp", "LGamma", "DiGamma", "IGamma", "LBeta", "MatInverse", "MatDet"]


def _axes(axis, layer):
    """An int or a tuple / list of ints; () or None means every axis."""
    if axis is None or axis == ():
        return None
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    if any(isinstance(a, bool) or not isinstance(a, int) for a in items):
        raise TypeError(f"{layer}: 'axis' must be an int or a tuple of ints, got {axis!r}")
    return tuple(items) if isinstance(axis, (tuple, list)) else axis


class Unflatten(Cell):
    """Split axis ``axis`` into ``unflattened_size`` (a tuple or list of ints; one of them
    may be -1).

    >>> import tensorjit as ms, numpy as np
    >>> ms.nn.Unflatten(1, (2, 2))(ms.Tensor(np.zeros((3, 4)))).shape
    (3, 2, 2)
    """

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"Unflatten: 'axis' must be an int, got {axis!r}")
        if not isinstance(unflattened_size, (tuple, list)) or any(
                isinstance(s, bool) or not isinstance(s, int) for s in unflattened_size):
            raise TypeError(f"Unflatten: 'unflattened_size' must be a tuple or list of ints, "
                            f"got {unflattened_size!r}")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input_x):
        axis = coerce.normalize_axis(self.axis, input_x.ndim, "Unflatten")
        shape = tuple(input_x.shape)
        sizes = self.unflattened_size
        known = int(np.prod([s for s in sizes if s != -1]))
        if sizes.count(-1) > 1 or (-1 not in sizes and known != shape[axis]) or \
                (-1 in sizes and (known == 0 or shape[axis] % known)):
            raise ValueError(f"Unflatten: sizes {sizes} do not fit axis {axis} of size "
                             f"{shape[axis]} (input shape {shape})")
        return ops.reshape(input_x, shape[:axis] + sizes + shape[axis + 1:])


class Tril(Cell):
    """The lower triangle of the last two axes (``ops.tril``): entries above diagonal
    ``k`` become 0.

    >>> import tensorjit as ms, numpy as np
    >>> ms.nn.Tril()(ms.Tensor(np.ones((2, 2)))).asnumpy().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """

    def construct(self, x, k=0):
        return ops.tril(x, k)


class Triu(Cell):
    """The upper triangle of the last two axes (``ops.triu``): entries below diagonal
    ``k`` become 0.

    >>> import tensorjit as ms, numpy as np
    >>> ms.nn.Triu()(ms.Tensor(np.ones((2, 2)))).asnumpy().tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """

    def construct(self, x, k=0):
        return ops.triu(x, k)


class Roll(Cell):
    """Roll ``shift`` places along ``axis`` (``ops.roll``); ``shift`` and ``axis`` are ints
    or tuples of one length (else ValueError).

    >>> import tensorjit as ms
    >>> ms.nn.Roll(1, 0)(ms.Tensor([1, 2, 3])).asnumpy().tolist()
    [3, 1, 2]
    """

    def __init__(self, shift, axis):
        super().__init__()
        shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        if len(shifts) != len(axes):
            raise ValueError(f"Roll: 'shift' ({len(shifts)} values) and 'axis' ({len(axes)} "
                             f"values) must have the same length")
        self.shift, self.axis = tuple(shifts), tuple(axes)

    def construct(self, input_x):
        return ops.roll(input_x, self.shift, self.axis)


class Norm(Cell):
    """The Euclidean norm ``sqrt(sum(x^2))`` over ``axis`` (() for every axis); integer
    inputs give float32.

    >>> import tensorjit as ms
    >>> float(ms.nn.Norm()(ms.Tensor([3.0, 4.0])))
    5.0
    """

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis = _axes(axis, "Norm")
        self.keep_dims = _checks.boolean(keep_dims, "keep_dims", "Norm")

    def construct(self, x):
        x = ops.as_tensor(x)
        if not dt.is_float(x.dtype):
            x = ops.cast(x, dt.float32)
        return ops.sqrt(ops.sum(ops.mul(x, x), self.axis, self.keep_dims))


class OneHot(Cell):
    """One-hot encoding of integer ``indices`` along a new axis ``axis`` of size ``depth``:
    ``on_value`` at the index, ``off_value`` elsewhere (out-of-range indices give a row of
    ``off_value``), in ``dtype`` (float32).

    >>> import tensorjit as ms
    >>> ms.nn.OneHot(depth=3)(ms.Tensor([2], ms.int32)).asnumpy().tolist()
    [[0.0, 0.0, 1.0]]
    """

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=dt.float32):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"OneHot: 'axis' must be an int, got {axis!r}")
        self.axis = axis
        self.depth = _checks.non_negative_int(depth, "depth", "OneHot")
        self.on_value = _checks.number(on_value, "on_value", "OneHot")
        self.off_value = _checks.number(off_value, "off_value", "OneHot")
        self.dtype = dt.as_dtype(dtype)

    def construct(self, indices):
        on = coerce.constant(np.asarray(self.on_value, self.dtype))
        off = coerce.constant(np.asarray(self.off_value, self.dtype))
        return ops.one_hot(indices, self.depth, on, off, self.axis)


class Range(Cell):
    """The sequence ``start, start + delta, ...`` below ``limit`` (``Range(n)`` is
    ``0 .. n-1``): int32 when every argument is an int, else float32; ``delta`` 0 raises
    ValueError.

    >>> import tensorjit as ms
    >>> ms.nn.Range(1, 8, 2)().asnumpy().tolist()
    [1, 3, 5, 7]
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        for name, value in (("start", start), ("limit", limit), ("delta", delta)):
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, float))):
                raise TypeError(f"Range: '{name}' must be an int or a float, got {value!r}")
        if delta == 0:
            raise ValueError("Range: 'delta' can not be zero")
        if limit is None:
            start, limit = 0, start
        ints = all(isinstance(v, int) for v in (start, limit, delta))
        self.start, self.limit, self.delta = start, limit, delta
        self.dtype = dt.int32 if ints else dt.float32

    def construct(self):
        return ops.arange(self.start, self.limit, self.delta, dtype=self.dtype)


class Moments(Cell):
    """The mean and the (biased) variance over ``axis`` (None: every axis), as a pair.

    Args: ``axis`` None, an int or a tuple of ints; ``keep_dims`` None / False or True.
    Inputs must be float (an integer tensor raises TypeError, as in MindSpore).

    >>> import tensorjit as ms
    >>> [float(t) for t in ms.nn.Moments()(ms.Tensor([1.0, 3.0]))]
    [2.0, 1.0]
    """

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        self.axis = _axes(axis, "Moments")
        self.keep_dims = bool(_checks.boolean(keep_dims, "keep_dims", "Moments")
                              if keep_dims is not None else False)

    def construct(self, x):
        x = ops.as_tensor(x)
        if not dt.is_float(x.dtype):
            raise TypeError(f"Moments: the input must be float16 or float32, got {x.dtype}")
        centered = ops.sub(x, ops.mean(x, self.axis, True))
        variance = ops.mean(ops.mul(centered, centered), self.axis, self.keep_dims)
        mean = ops.mean(x, self.axis, self.keep_dims)
        return mean, variance


class MatMul(Cell):
    """Matrix product with broadcasting batch axes; ``transpose_x1`` / ``transpose_x2``
    swap the last two axes of an operand first. 1-D operands act as a row / column.

    >>> import tensorjit as ms, numpy as np
    >>> a, b = ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 3)))
    >>> ms.nn.MatMul(transpose_x2=True)(a, b).shape
    (2, 4)
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = _checks.boolean(transpose_x1, "transpose_x1", "MatMul")
        self.transpose_x2 = _checks.boolean(transpose_x2, "transpose_x2", "MatMul")

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim >= 2:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2 and x2.ndim >= 2:
            x2 = ops.swapaxes(x2, -1, -2)
        return ops.matmul(x1, x2)


def _eye_mask(rows, cols, dtype):
    return coerce.constant(np.eye(rows, cols, dtype=dtype))


def _diagonal(x):
    """The main diagonals of the last two axes: (..., m, n) -> (..., min(m, n))."""
    rows, cols = x.shape[-2], x.shape[-1]
    size = min(rows, cols)
    mask = _eye_mask(rows, cols, x.dtype)
    picked = ops.sum(ops.mul(x, mask), -1)                 # (..., m): the diagonal, then 0s
    return picked[..., :size] if size < rows else picked


class MatrixDiag(Cell):
    """A batch of diagonal matrices: (..., n) -> (..., n, n) with the values on the main
    diagonal and 0 elsewhere. (MindSpore 2.10 has no CPU kernel for it.)

    >>> import tensorjit as ms
    >>> ms.nn.MatrixDiag()(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """

    def construct(self, input_x):
        x = ops.as_tensor(input_x)
        if x.ndim < 1:
            raise ValueError("MatrixDiag: the input must have rank >= 1")
        n = x.shape[-1]
        return ops.mul(ops.expand_dims(x, -1), _eye_mask(n, n, x.dtype))


class MatrixDiagPart(Cell):
    """The main diagonals of a batch of matrices: (..., m, n) -> (..., min(m, n)); rank < 2
    raises ValueError. (MindSpore 2.10 has no CPU kernel for it.)

    >>> import tensorjit as ms
    >>> ms.nn.MatrixDiagPart()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])).asnumpy().tolist()
    [1.0, 4.0]
    """

    def construct(self, input_x):
        x = ops.as_tensor(input_x)
        if x.ndim < 2:
            raise ValueError(f"MatrixDiagPart: the input must have rank >= 2, got {x.ndim}")
        return _diagonal(x)


class MatrixSetDiag(Cell):
    """``input_x`` with the main diagonals of its last two axes replaced by ``diagonal``
    (shape (..., min(m, n)), else ValueError). (MindSpore 2.10 has no CPU kernel for it.)

    >>> import tensorjit as ms, numpy as np
    >>> ms.nn.MatrixSetDiag()(ms.Tensor(np.zeros((2, 2))), ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """

    def construct(self, input_x, diagonal):
        x = ops.as_tensor(input_x)
        if x.ndim < 2:
            raise ValueError(f"MatrixSetDiag: the input must have rank >= 2, got {x.ndim}")
        rows, cols = x.shape[-2], x.shape[-1]
        size = min(rows, cols)
        d = ops.as_tensor(diagonal, x.dtype)
        expected = tuple(x.shape[:-2]) + (size,)
        if tuple(d.shape) != expected:
            raise ValueError(f"MatrixSetDiag: the diagonal shape must be {expected}, got "
                             f"{tuple(d.shape)}")
        if size < rows:      # pad the diagonal to one value per row (the extra rows: 0s)
            d = ops.concat([d, ops.zeros(expected[:-1] + (rows - size,), x.dtype)], -1)
        mask = _eye_mask(rows, cols, x.dtype)
        placed = ops.mul(ops.expand_dims(d, -1), mask)
        return ops.add(ops.mul(x, ops.sub(1.0, mask)), placed)


class ClipByNorm(Cell):
    """``x * clip_norm / max(||x||_2, clip_norm)`` over ``axis`` (None: every axis): rescale
    ``x`` so its L2 norm is at most ``clip_norm`` (a Tensor or a number). Float16 / float32
    inputs (others raise TypeError, as MindSpore's kernel does; float64 works too).

    >>> import tensorjit as ms
    >>> ms.nn.ClipByNorm()(ms.Tensor([3.0, 4.0]), ms.Tensor(1.0)).asnumpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """

    def __init__(self, axis=None):
        super().__init__()
        self.axis = _axes(axis, "ClipByNorm")

    def construct(self, x, clip_norm):
        x = ops.as_tensor(x)
        if not dt.is_float(x.dtype):
            raise TypeError(f"ClipByNorm: 'x' must be float16 or float32, got {x.dtype}")
        limit = ops.cast(ops.as_tensor(clip_norm), x.dtype)
        norm = ops.sqrt(ops.sum(ops.mul(x, x), self.axis, True))
        return ops.div(ops.mul(x, limit), ops.maximum(norm, limit))


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis`` (() for every axis), computed stably.

    >>> import tensorjit as ms
    >>> round(float(ms.nn.ReduceLogSumExp(0)(ms.Tensor([0.0, 0.0]))), 4)
    0.6931
    """

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis = _axes(axis, "ReduceLogSumExp")
        self.keep_dims = _checks.boolean(keep_dims, "keep_dims", "ReduceLogSumExp")

    def construct(self, x):
        x = ops.as_tensor(x)
        axis = self.axis if self.axis is not None else tuple(range(x.ndim))
        return ops.logsumexp(x, axis, self.keep_dims)


def _half_or_single(x, name, layer):
    """MindSpore's special-function cells take float16 / float32 (float64 works here too)."""
    x = ops.as_tensor(x)
    if not dt.is_float(x.dtype) or x.dtype == dt.bfloat16:
        raise TypeError(f"{layer}: '{name}' must be float16 or float32, got {x.dtype}")
    return x


class LGamma(Cell):
    """``log|Gamma(x)|`` elementwise (``ops.lgamma``).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.LGamma()(ms.Tensor([0.5]))[0]), 4)
    0.5724
    """

    def construct(self, x):
        return ops.lgamma(_half_or_single(x, "x", "LGamma"))


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)`` elementwise (``ops.digamma``).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.DiGamma()(ms.Tensor([1.0]))[0]), 4)
    -0.5772
    """

    def construct(self, x):
        return ops.digamma(_half_or_single(x, "x", "DiGamma"))


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)`` (``ops.igamma``).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.IGamma()(ms.Tensor([1.0]), ms.Tensor([1.0]))[0]), 4)
    0.6321
    """

    def construct(self, a, x):
        a = _half_or_single(a, "a", "IGamma")
        return ops.igamma(a, ops.as_tensor(x, a.dtype))


class LBeta(Cell):
    """``log|B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)``, computed in float64 and
    rounded to the inputs' dtype (so large arguments keep their precision, which MindSpore
    gets from asymptotic series instead). ``y`` must have ``x``'s dtype (else TypeError).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.LBeta()(ms.Tensor([2.0]), ms.Tensor([3.0]))[0]), 4)
    -2.4849
    """

    def construct(self, x, y):
        x = _half_or_single(x, "x", "LBeta")
        y = ops.as_tensor(y)
        if y.dtype != x.dtype:
            raise TypeError(f"LBeta: 'y' must have x's dtype {x.dtype}, got {y.dtype}")
        wide_x, wide_y = ops.cast(x, dt.float64), ops.cast(y, dt.float64)
        out = ops.sub(ops.add(ops.lgamma(wide_x), ops.lgamma(wide_y)),
                      ops.lgamma(ops.add(wide_x, wide_y)))
        return ops.cast(out, x.dtype)


def _in_single_precision(fn, a, layer):
    """``fn`` of ``a`` computed in float32 for float16 input (and cast back); float32 and
    float64 as they are."""
    a = _half_or_single(a, "a", layer)
    if a.dtype == dt.float16:
        return ops.cast(fn(ops.cast(a, dt.float32)), dt.float16)
    return fn(a)


class MatInverse(Cell):
    """The inverse of each square matrix in the last two axes (``ops.inverse``; float16
    inputs compute in float32).

    >>> import tensorjit as ms
    >>> ms.nn.MatInverse()(ms.Tensor([[2.0, 0.0], [0.0, 4.0]])).asnumpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """

    def construct(self, a):
        return _in_single_precision(ops.inverse, a, "MatInverse")


class MatDet(Cell):
    """The determinant of each square matrix in the last two axes (``ops.det``; float16
    inputs compute in float32).

    >>> import tensorjit as ms
    >>> float(ms.nn.MatDet()(ms.Tensor([[2.0, 1.0], [1.0, 3.0]])))
    5.0
    """

    def construct(self, a):
        return _in_single_precision(ops.det, a, "MatDet")
