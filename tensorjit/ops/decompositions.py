"""MindSpore's factorizations and solves (``cholesky``, ``svd``, ``slogdet``, ``matrix_solve``,
``cholesky_solve``, ``lstsq``, ``pinv``, ``lu_solve``, ``lu_unpack``, ``matrix_power``,
``matrix_exp``, ...) on the LAPACK primitives of ``linalg_kernels.py`` and registry ops:
each differentiates (the primitives' VJPs), compiles and batches."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .creation import eye, tril, triu, full_like
from .linalg import matmul
from .linalg_kernels import cholesky_p, svd_p, slogdet_p, expm_p, solve, transpose_last
from .matrix_inverse import inverse

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "matrix_solve", "svd", "pinv",
           "lstsq", "slogdet", "logdet", "log_matrix_determinant", "matrix_exp",
           "matrix_power", "lu_solve", "lu_unpack", "check_matrices"]

_F16_TO_64 = (dt.float16, dt.float32, dt.float64)
_F32_64 = (dt.float32, dt.float64)


def check_matrices(x, op, dtypes=_F16_TO_64, square=False):
    """``x`` as a tensor of matrices (..., m, n) of one of ``dtypes``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: the input must be a Tensor, got {type(x).__name__}")
    if x.dtype not in dtypes:
        raise TypeError(f"{op}: the input's dtype must be one of "
                        f"[{', '.join(str(d) for d in dtypes)}], got {x.dtype}")
    if x.ndim < 2:
        raise ValueError(f"{op}: the input must have rank >= 2, got shape {tuple(x.shape)}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{op}: the input must be batches of square matrices, got shape "
                         f"{tuple(x.shape)}")
    return x


def _same_dtype(x, y, op):
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: the inputs' dtypes differ: {x.dtype} and {y.dtype}")


def cholesky(input_x, upper=False):
    """``ops.cholesky``: the Cholesky factor of symmetric positive-definite matrices:
    lower L with A = L L^T (read from A's lower triangle), or upper U with A = U^T U (read
    from the upper one). A matrix that is not positive definite raises RuntimeError.

    >>> import tensorjit as ms
    >>> ms.ops.cholesky(ms.Tensor([[4.0, 2.0], [2.0, 5.0]])).asnumpy().tolist()
    [[2.0, 0.0], [1.0, 2.0]]
    """
    x = check_matrices(input_x, "cholesky", square=True)
    if upper:
        return transpose_last(cholesky_p.bind(transpose_last(x)))
    return cholesky_p.bind(x)


def _factor_solve(factor, b, upper):
    """X with (L L^T) X = B for L the lower factor (or U^T U X = B for the upper one)."""
    lower = transpose_last(factor) if upper else factor
    return solve(transpose_last(lower), solve(lower, b))


def cholesky_inverse(input_x, upper=False):
    """``ops.cholesky_inverse``: the inverse of A from its Cholesky factor (A = L L^T, or
    U^T U with ``upper``), by two triangular solves.

    >>> import tensorjit as ms
    >>> ms.ops.cholesky_inverse(ms.Tensor([[2.0, 0.0], [0.0, 1.0]])).asnumpy().tolist()
    [[0.25, 0.0], [0.0, 1.0]]
    """
    x = check_matrices(input_x, "cholesky_inverse", square=True)
    n = x.shape[-1]
    identity = _shape.broadcast_to(eye(n, n, x.dtype), tuple(x.shape))
    return _factor_solve(x, identity, upper)


def cholesky_solve(input, input2, upper=False):
    """``ops.cholesky_solve``: X with A X = ``input`` for A given by its Cholesky factor
    ``input2`` (A = L L^T, or U^T U with ``upper``).

    >>> import tensorjit as ms
    >>> ms.ops.cholesky_solve(ms.Tensor([[4.0], [1.0]]), ms.Tensor([[2.0, 0.0], [0.0, 1.0]])).asnumpy().tolist()
    [[1.0], [1.0]]
    """
    b = check_matrices(input, "cholesky_solve", _F32_64)
    factor = check_matrices(input2, "cholesky_solve", _F32_64, square=True)
    _same_dtype(b, factor, "cholesky_solve")
    return _factor_solve(factor, b, upper)


def matrix_solve(matrix, rhs, adjoint=False):
    """``ops.matrix_solve``: X with A X = ``rhs`` (A^T X = ``rhs`` with ``adjoint``) for
    square ``matrix`` A (..., n, n) and ``rhs`` (..., n, k). A singular matrix raises
    RuntimeError.

    >>> import tensorjit as ms
    >>> ms.ops.matrix_solve(ms.Tensor([[2.0, 0.0], [0.0, 4.0]]), ms.Tensor([[2.0], [2.0]])).asnumpy().tolist()
    [[1.0], [0.5]]
    """
    a = check_matrices(matrix, "matrix_solve", square=True)
    b = check_matrices(rhs, "matrix_solve")
    _same_dtype(a, b, "matrix_solve")
    return solve(transpose_last(a) if adjoint else a, b)


def svd(input, full_matrices=False, compute_uv=True):
    """``ops.svd``: singular values ``s`` (descending) and, with ``compute_uv``, ``u`` and
    ``v`` with input = u diag(s) v^T (MindSpore returns ``v``, not its transpose);
    ``full_matrices`` gives square u and v. The gradient assumes distinct singular values
    (as every SVD gradient); with ``full_matrices`` the extra columns get none.

    >>> import tensorjit as ms
    >>> ms.ops.svd(ms.Tensor([[3.0, 0.0], [0.0, -2.0]]), compute_uv=False).asnumpy().tolist()
    [3.0, 2.0]
    """
    x = check_matrices(input, "svd", _F32_64)
    s, u, v = svd_p.bind(x, full_matrices=bool(full_matrices))
    return (s, u, v) if compute_uv else s


def _tolerance(value, op):
    if value is None or isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise TypeError(f"{op}: atol and rtol must be floats or Tensors, got {type(value).__name__}")


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """``ops.pinv``: the Moore-Penrose pseudo-inverse from the SVD, singular values at or
    below max(atol, rtol * largest) counted as zero (default rtol: eps * max(m, n) when
    neither is given; 0 when only atol is). ``hermitian`` matrices take the same path.

    >>> import tensorjit as ms
    >>> ms.ops.pinv(ms.Tensor([[2.0, 0.0], [0.0, 0.0]])).asnumpy().tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    a = check_matrices(x, "pinv", _F32_64)
    if not isinstance(hermitian, bool):
        raise TypeError(f"pinv: hermitian must be a bool, got {type(hermitian).__name__}")
    atol, rtol = _tolerance(atol, "pinv"), _tolerance(rtol, "pinv")
    m, n = a.shape[-2:]
    if rtol is None:
        rtol = float(np.finfo(a.dtype).eps) * max(m, n) if atol is None else 0.0
    s, u, v = svd_p.bind(a, full_matrices=False)
    largest = _red.amax(s, -1, keepdims=True) if s.shape[-1] else s
    cutoff = _ew.mul(largest, rtol)
    if atol is not None:
        cutoff = _ew.maximum(cutoff, _ew.cast(coerce.as_tensor(atol, op="pinv"), a.dtype))
    kept = _ew.gt(s, cutoff)
    inv_s = _ew.where(kept, _ew.div(_ew.ones_like(s), _ew.where(kept, s, _ew.ones_like(s))),
                      _ew.zeros_like(s))
    return matmul(_ew.mul(v, _shape.expand_dims(inv_s, -2)), transpose_last(u))


def lstsq(input, A):
    """``ops.lstsq``: for a full-rank ``input`` (m, n) and right-hand sides ``A`` (m, k),
    the least-squares solution (m >= n) or the minimum-norm one (m < n), shape (n, k), by
    the normal equations.

    >>> import tensorjit as ms
    >>> ms.ops.lstsq(ms.Tensor([[1.0], [1.0]]), ms.Tensor([[1.0], [3.0]])).asnumpy().tolist()
    [[2.0]]
    """
    x = check_matrices(input, "lstsq")
    b = coerce.as_tensor(A, op="lstsq")
    _same_dtype(x, b, "lstsq")
    if b.ndim == x.ndim - 1:
        b = _shape.expand_dims(b, -1)
    b = check_matrices(b, "lstsq")
    if x.shape[-2] != b.shape[-2]:
        raise ValueError(f"lstsq: the rows of input {tuple(x.shape)} and A "
                         f"{tuple(b.shape)} differ")
    xt = transpose_last(x)
    if x.shape[-2] >= x.shape[-1]:
        return solve(matmul(xt, x), matmul(xt, b))
    return matmul(xt, solve(matmul(x, xt), b))


def slogdet(input):
    """``ops.slogdet``: the sign and the log of the absolute value of the determinant of
    square matrices (sign 0 and -inf for a singular one).

    >>> import tensorjit as ms
    >>> [float(v) for v in ms.ops.slogdet(ms.Tensor([[0.0, 2.0], [1.0, 0.0]]))]
    [-1.0, 0.6931471824645996]
    """
    x = check_matrices(input, "slogdet", square=True)
    sign, logabs = slogdet_p.bind(x)
    return sign, logabs


def log_matrix_determinant(input):
    """``ops.log_matrix_determinant``: ``slogdet``'s (sign, log |det|).

    >>> import tensorjit as ms
    >>> [float(v) for v in ms.ops.log_matrix_determinant(ms.Tensor([[2.0]]))]
    [1.0, 0.6931471824645996]
    """
    x = check_matrices(input, "log_matrix_determinant", square=True)
    return slogdet_p.bind(x)


def logdet(input):
    """``ops.logdet``: log det of square matrices: NaN where the determinant is negative,
    -inf where it is zero.

    >>> import tensorjit as ms
    >>> float(ms.ops.logdet(ms.Tensor([[2.0, 0.0], [0.0, 3.0]])))
    1.7917594909667969
    """
    x = check_matrices(input, "logdet", square=True)
    sign, logabs = slogdet_p.bind(x)
    return _ew.where(_ew.lt(sign, 0), full_like(logabs, np.nan), logabs)


def matrix_exp(input):
    """``ops.matrix_exp``: the exponential of square matrices (Pade approximation with
    scaling and squaring, SciPy's ``expm``); its gradient is the exponential of a block
    matrix, so it differentiates to any order.

    >>> import tensorjit as ms
    >>> ms.ops.matrix_exp(ms.Tensor([[0.0, 0.0], [0.0, 0.0]])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    x = check_matrices(input, "matrix_exp", square=True)
    return expm_p.bind(x)


_POWER = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.float32, dt.float64)


def matrix_power(input, n):
    """``ops.matrix_power``: the n-th power of square matrices by repeated squaring; n = 0
    gives the identity, a negative n the power of the inverse (float matrices only).

    >>> import tensorjit as ms
    >>> ms.ops.matrix_power(ms.Tensor([[1, 1], [0, 1]]), 3).asnumpy().tolist()
    [[1, 3], [0, 1]]
    """
    x = check_matrices(input, "matrix_power", _POWER, square=True)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"matrix_power: n must be an int, got {type(n).__name__}")
    if n < 0:
        if not dt.is_float(x.dtype):
            raise ValueError("matrix_power: integral types are not supported for n < 0")
        x, n = inverse(x), -n
    size = x.shape[-1]
    result = None
    while n:
        if n & 1:
            result = x if result is None else matmul(result, x)
        n >>= 1
        if n:
            x = matmul(x, x)
    if result is None:
        return _shape.broadcast_to(eye(size, size, x.dtype), tuple(x.shape))
    return result


def _permutation(pivots, m):
    """The row order LAPACK's pivots (1-based, applied as successive swaps) give: row i of
    P A = L U is row ``order[i]`` of A."""
    rows = coerce.constant(np.arange(m, dtype=np.int64))
    lead = tuple(pivots.shape[:-1])
    order = _shape.broadcast_to(rows, lead + (m,))
    swap_with = _ew.sub(_ew.cast(pivots, dt.int64), 1)
    for i in range(pivots.shape[-1]):
        j = swap_with[..., i:i + 1]                                      # (..., 1)
        at_i = order[..., i:i + 1]
        at_j = _red.sum(_ew.where(_ew.eq(rows, j), order, _ew.zeros_like(order)), -1, True)
        order = _ew.where(_ew.eq(rows, i), at_j, _ew.where(_ew.eq(rows, j), at_i, order))
    return order


def _permutation_matrix(pivots, m, dtype):
    """P with A = P L U: P[order[i], i] = 1."""
    order = _permutation(pivots, m)
    rows = coerce.constant(np.arange(m, dtype=np.int64).reshape(m, 1))
    return _ew.cast(_ew.eq(rows, _shape.expand_dims(order, -2)), dtype)


_UNPACK = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + _F16_TO_64


def _check_pivots(pivots, lu, op):
    pivots = coerce.as_tensor(pivots, op=op)
    if pivots.dtype not in (dt.int32, dt.int64) and not (op == "lu_unpack" and
                                                         dt.is_int(pivots.dtype)):
        raise TypeError(f"{op}: LU_pivots must be an int32 tensor, got {pivots.dtype}")
    k = min(lu.shape[-2], lu.shape[-1])
    if tuple(pivots.shape) != tuple(lu.shape[:-2]) + (k,):
        raise ValueError(f"{op}: LU_pivots of shape {tuple(pivots.shape)} do not fit LU_data "
                         f"of shape {tuple(lu.shape)}")
    return pivots


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``ops.lu_unpack``: (P, L, U) from a packed LU factorization (LAPACK's getrf: L's
    unit diagonal implied, 1-based row swaps), with A = P L U; L is (m, k), U (k, n).

    >>> import tensorjit as ms
    >>> p, l, u = ms.ops.lu_unpack(ms.Tensor([[2.0, 1.0], [0.5, 1.0]]), ms.Tensor([2, 2], ms.int32))
    >>> p.asnumpy().tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    lu = check_matrices(LU_data, "lu_unpack", _UNPACK)
    pivots = _check_pivots(LU_pivots, lu, "lu_unpack")
    m, n = lu.shape[-2:]
    k = min(m, n)
    lead = tuple(lu.shape[:-2])
    if unpack_data:
        unit = _shape.broadcast_to(eye(m, k, lu.dtype), lead + (m, k))
        lower = _ew.add(tril(lu[..., :, :k], -1), unit)
        upper = triu(lu[..., :k, :])
    else:
        lower = upper = _ew.zeros_like(lu[..., :0, :0])
    if unpack_pivots:
        perm = _permutation_matrix(pivots, m, lu.dtype)
    else:
        perm = _ew.zeros_like(lu[..., :0, :0])
    return perm, lower, upper


def lu_solve(b, LU_data, LU_pivots):
    """``ops.lu_solve``: X with A X = ``b`` for A given by its packed LU factorization
    (``LU_data``, ``LU_pivots`` as LAPACK's getrf gives them): P^T b, then the two
    triangular solves.

    >>> import tensorjit as ms
    >>> ms.ops.lu_solve(ms.Tensor([[2.0], [4.0]]), ms.Tensor([[2.0, 0.0], [0.0, 4.0]]), ms.Tensor([1, 2], ms.int32)).asnumpy().tolist()
    [[1.0], [1.0]]
    """
    rhs = check_matrices(b, "lu_solve")
    lu = check_matrices(LU_data, "lu_solve", square=True)
    _same_dtype(rhs, lu, "lu_solve")
    pivots = _check_pivots(LU_pivots, lu, "lu_solve")
    if rhs.shape[-2] != lu.shape[-1]:
        raise ValueError(f"lu_solve: b of shape {tuple(rhs.shape)} does not fit LU_data of "
                         f"shape {tuple(lu.shape)}")
    perm, lower, upper = lu_unpack(lu, pivots)
    return solve(upper, solve(lower, matmul(transpose_last(perm), rhs)))
