"""Norms and distances in MindSpore's functional API: ``matrix_norm`` (the spectral ones
from the SVD primitive), ``cdist``, ``pdist``, ``dist``, ``renorm``, and ``cov``. Composed
of registry ops: every norm's gradient at the zero vector is 0 (``_safe_sqrt`` and
guarded powers), as PyTorch's."""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from .reduction import _safe_sqrt
from .linalg import matmul
from .linalg_kernels import svd_p
from .matrix_structure import check_dtype

__all__ = ["p_norm", "matrix_norm", "cdist", "pdist", "dist", "renorm", "cov"]

_FLOAT = (dt.float16, dt.float32, dt.float64)


def p_norm(x, p, axes, keepdims=False):
    """The ``p``-norm over ``axes``: inf / -inf (largest / smallest |x|), 0 (the count of
    nonzeros), 1, 2 or any positive p, with gradient 0 where the norm is 0."""
    p = float(p)
    if p == math.inf:
        return _red.amax(_ew.abs(x), axes, keepdims)
    if p == -math.inf:
        return _red.amin(_ew.abs(x), axes, keepdims)
    if p == 0:
        return _red.sum(_ew.cast(_ew.ne(x, 0), x.dtype), axes, keepdims)
    if p == 1:
        return _red.sum(_ew.abs(x), axes, keepdims)
    if p == 2:
        return _safe_sqrt(_red.sum(_ew.mul(x, x), axes, keepdims))
    total = _red.sum(_ew.pow(_ew.abs(x), p), axes, keepdims)
    zero = _ew.eq(total, 0)
    root = _ew.pow(_ew.where(zero, _ew.ones_like(total), total), 1.0 / p)
    return _ew.where(zero, _ew.zeros_like(total), root)


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """``ops.matrix_norm``: a norm of the matrices on the two axes ``axis``: ``'fro'``,
    ``'nuc'`` (sum of singular values), 2 / -2 (largest / smallest singular value), 1 / -1
    (largest / smallest column sum of |A|), inf / -inf (row sums). Integer inputs compute
    in float32.

    >>> import tensorjit as ms
    >>> float(ms.ops.matrix_norm(ms.Tensor([[3.0, 0.0], [0.0, 4.0]])))
    5.0
    """
    if not isinstance(A, Tensor):
        raise TypeError(f"matrix_norm: A must be a Tensor, got {type(A).__name__}")
    if not isinstance(axis, (tuple, list)):
        raise TypeError(f"matrix_norm: axis must be a tuple of two ints, got {axis!r}")
    if len(axis) != 2:
        raise ValueError(f"matrix_norm: axis must hold two axes, got {axis!r}")
    named = isinstance(ord, str) and ord in ("fro", "nuc")
    numeric = isinstance(ord, (int, float)) and not isinstance(ord, bool) and \
        ord in (2, -2, 1, -1, math.inf, -math.inf)
    if not (named or numeric):
        raise ValueError(f"matrix_norm: ord must be one of [2, -2, 1, -1, inf, -inf, 'fro', "
                         f"'nuc'], got {ord!r}")
    if A.ndim < 2:
        raise ValueError(f"matrix_norm: the input must have rank >= 2, got {A.ndim}")
    rows, cols = (coerce.normalize_axis(a, A.ndim, "matrix_norm") for a in axis)
    if rows == cols:
        raise ValueError(f"matrix_norm: the axes must differ, got {axis!r}")
    if dtype is not None:
        A = _ew.cast(A, dt.as_dtype(dtype))
    if A.dtype == dt.bool_ or A.dtype == dt.bfloat16:
        raise TypeError(f"matrix_norm: unsupported dtype {A.dtype}")
    if not dt.is_float(A.dtype):
        A = _ew.cast(A, dt.float32)
    if ord == "fro":
        out = _safe_sqrt(_red.sum(_ew.mul(A, A), (rows, cols), True))
    elif ord in ("nuc", 2, -2):
        moved = _shape.transpose(A, tuple(i for i in range(A.ndim) if i not in (rows, cols))
                                 + (rows, cols))
        work = moved if moved.dtype != dt.float16 else _ew.cast(moved, dt.float32)
        s = svd_p.bind(work, full_matrices=False)[0]
        pick = {"nuc": _red.sum, 2: _red.amax, -2: _red.amin}[ord]
        out = _ew.cast(pick(s, -1), A.dtype)
        shape = list(A.shape)
        shape[rows] = shape[cols] = 1
        out = _shape.reshape(out, tuple(shape))
    else:
        summed, other = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = _red.sum(_ew.abs(A), summed, True)
        out = (_red.amax if ord > 0 else _red.amin)(sums, other, True)
    return out if keepdims else _shape.squeeze(out, (rows, cols))


def _check_p(p, op):
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"{op}: p must be a float, got {type(p).__name__}")
    if p < 0:
        raise ValueError(f"{op}: p must be non-negative, got {p}")
    return float(p)


def cdist(x1, x2, p=2.0):
    """``ops.cdist``: the p-norm distances between the rows of ``x1`` (B, P, M) or (P, M)
    and those of ``x2`` (B, R, M) or (R, M): shape (B, P, R) or (P, R).

    >>> import tensorjit as ms
    >>> ms.ops.cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]])).asnumpy().tolist()
    [[5.0]]
    """
    for t in (x1, x2):
        if not isinstance(t, Tensor):
            raise TypeError(f"cdist: the inputs must be Tensors, got {type(t).__name__}")
        check_dtype(t, _FLOAT, "cdist")
    if x1.dtype != x2.dtype:
        raise TypeError(f"cdist: the inputs' dtypes differ: {x1.dtype} and {x2.dtype}")
    p = _check_p(p, "cdist")
    if x1.ndim not in (2, 3) or x2.ndim != x1.ndim:
        raise ValueError(f"cdist: the inputs must both be 2-D or 3-D, got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    if x1.shape[:-2] != x2.shape[:-2] or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"cdist: the batch sizes and the column counts must agree, got "
                         f"shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    difference = _ew.sub(_shape.expand_dims(x1, -2), _shape.expand_dims(x2, -3))
    return p_norm(difference, p, -1)


def pdist(input, p=2.0):
    """``ops.pdist``: the p-norm distances between every pair of rows i < j of a 2-D
    ``input`` (N, M), in row-major order: shape (N (N - 1) / 2,).

    >>> import tensorjit as ms
    >>> ms.ops.pdist(ms.Tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).asnumpy().tolist()
    [5.0, 1.0, 4.242640495300293]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"pdist: the input must be a Tensor, got {type(input).__name__}")
    x = check_dtype(input, _FLOAT, "pdist")
    p = _check_p(p, "pdist")
    if x.ndim != 2:
        raise ValueError(f"pdist: the input must be 2-D, got shape {tuple(x.shape)}")
    first, second = np.triu_indices(x.shape[0], 1)
    difference = _ew.sub(_idx.getitem(x, (coerce.constant(first),)),
                         _idx.getitem(x, (coerce.constant(second),)))
    return p_norm(difference, p, -1)


def dist(input, other, p=2):
    """``ops.dist``: the p-norm of ``input - other`` (broadcast, flattened); ``p`` an int
    (MindSpore's LpNorm). float16 / float32, as MindSpore's CPU kernel.

    >>> import tensorjit as ms
    >>> float(ms.ops.dist(ms.Tensor([0.0, 0.0]), ms.Tensor([3.0, 4.0])))
    5.0
    """
    for t in (input, other):
        if not isinstance(t, Tensor):
            raise TypeError(f"dist: the inputs must be Tensors, got {type(t).__name__}")
        check_dtype(t, (dt.float16, dt.float32), "dist")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"dist: p must be an int, got {type(p).__name__}")
    z = _ew.sub(input, other)
    if z.ndim == 0:
        return _ew.abs(z)
    return p_norm(_shape.reshape(z, (-1,)), p, 0)


def renorm(input, p, axis, maxnorm):
    """``ops.renorm``: each slice along ``axis`` whose p-norm (over the other axes)
    exceeds ``maxnorm`` scaled down to norm ``maxnorm`` (by maxnorm / (norm + 1e-7)).

    >>> import tensorjit as ms
    >>> ms.ops.renorm(ms.Tensor([[3.0, 4.0], [0.3, 0.4]], ms.float64), 2, 0, 1.0).asnumpy().round(4).tolist()
    [[0.6, 0.8], [0.3, 0.4]]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"renorm: the input must be a Tensor, got {type(input).__name__}")
    x = check_dtype(input, _FLOAT, "renorm")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"renorm: p must be an int, got {type(p).__name__}")
    if p <= 0:
        raise ValueError(f"renorm: p must be positive, got {p}")
    if not isinstance(maxnorm, float):
        raise TypeError(f"renorm: maxnorm must be a float, got {type(maxnorm).__name__}")
    if maxnorm < 0:
        raise ValueError(f"renorm: maxnorm must be non-negative, got {maxnorm}")
    axis = coerce.normalize_axis(axis, max(x.ndim, 1), "renorm")
    others = tuple(i for i in range(x.ndim) if i != axis)
    work = _ew.cast(x, dt.float32) if x.dtype == dt.float16 else x
    norm = p_norm(work, p, others, keepdims=True)
    over = _ew.gt(norm, maxnorm)
    factor = _ew.where(over, _ew.div(maxnorm, _ew.add(norm, 1e-7)), _ew.ones_like(norm))
    out = _ew.mul(work, factor)
    return out if out.dtype == x.dtype else _ew.cast(out, x.dtype)


_COV = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + _FLOAT


def _weights(w, name, observations, integral):
    w = coerce.as_tensor(w, op="cov")
    if w.ndim > 1:
        raise ValueError(f"cov: {name} must have one or fewer dimensions, got {w.ndim}")
    if integral != dt.is_int(w.dtype) or w.dtype == dt.bool_:
        kind = "an integer" if integral else "a floating point"
        raise TypeError(f"cov: the dtype of {name} must be {kind} type, got {w.dtype}")
    if w.size != observations:
        raise ValueError(f"cov: {name} must hold one weight per observation "
                         f"({observations}), got {w.size}")
    return _shape.reshape(w, (observations,))


def cov(input, *, correction=1, fweights=None, aweights=None):
    """``ops.cov``: the covariance of the variables in the rows of ``input`` (a 1-D input
    is one variable), observations in the columns, optionally weighted by ``fweights``
    (integer frequencies) and ``aweights`` (float importances), normalised by the weights'
    sum minus ``correction`` (clipped at 0). float16 and integers compute in float32.

    >>> import tensorjit as ms
    >>> float(ms.ops.cov(ms.Tensor([1.0, 2.0, 3.0])))
    1.0
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"cov: the input must be a Tensor, got {type(input).__name__}")
    if input.ndim > 2:
        raise ValueError(f"cov: the input must have two or fewer dimensions, got {input.ndim}")
    x = check_dtype(input, _COV, "cov")
    x = _shape.reshape(x, (1, -1)) if x.ndim < 2 else x
    if x.dtype != dt.float64:
        x = _ew.cast(x, dt.float32)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = _ew.cast(_weights(fweights, "fweights", n, True), x.dtype)
    a = None
    if aweights is not None:
        a = _ew.cast(_weights(aweights, "aweights", n, False), x.dtype)
        w = a if w is None else _ew.mul(w, a)
    if w is None:
        total = coerce.constant(float(n), x.dtype)
        mean = _ew.div(_red.sum(x, 1), total)
        norm = _ew.sub(total, float(correction))
    else:
        total = _red.sum(w)
        mean = _ew.div(_red.sum(_ew.mul(x, w), 1), total)
        if a is not None and correction != 0:
            norm = _ew.sub(total, _ew.div(_ew.mul(float(correction), _red.sum(_ew.mul(w, a))),
                                          total))
        else:
            norm = _ew.sub(total, float(correction))
    norm = _ew.maximum(norm, 0.0)
    centered = _ew.sub(x, _shape.expand_dims(mean, 1))
    weighted = centered if w is None else _ew.mul(centered, w)
    c = matmul(centered, _shape.swapaxes(weighted, 0, 1))
    out = _ew.div(c, norm)
    return _shape.squeeze(out)
