"""MindSpore's linear-algebra operator classes (``ops.Cholesky(upper=True)(x)``,
``ops.MatrixDiagV3(align)(x, k, rows, cols, padding)``, ...) as rows for the factory of
``operations.py``: each compute follows the class's convention (which values are
attributes, which inputs) and calls the functional op. Classes MindSpore 2.10 has no CPU
kernel for (MatrixExp, Einsum, Ormqr, EuclideanNorm) wait, as the other families' do, for
a way to test them without a MindSpore recording; their functions are here."""
import numpy as np

from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .creation import eye, tril, triu
from .linalg import matmul
from .linalg_kernels import solve, transpose_last
from .matrix_inverse import inverse, det
from . import matrix_structure as MS
from . import matrix_bands as MB
from . import matrix_products as MP
from . import decompositions as D
from . import householder as H
from . import norms as N

__all__ = ["ROWS"]

_CROSS_DEFAULT = -65530      # MindSpore's Cross: "the first axis of size 3"


def _diag_part(x):
    """DiagPart: the inverse of Diag, (D1..Dk, D1..Dk) -> (D1..Dk)."""
    x = coerce.as_tensor(x, op="DiagPart")
    k = x.ndim // 2
    if x.ndim % 2 or x.ndim == 0 or tuple(x.shape[:k]) != tuple(x.shape[k:]):
        raise ValueError(f"DiagPart: the input's shape must be (D1, ..., Dk, D1, ..., Dk), "
                         f"got {tuple(x.shape)}")
    n = int(np.prod(x.shape[:k], dtype=np.int64))
    return _shape.reshape(MS.diagonal(_shape.reshape(x, (n, n))), tuple(x.shape[:k]))


def _regularized_lstsq(a, b, l2):
    """TensorFlow's MatrixSolveLs: (A^T A + l2 I)^-1 A^T B, or A^T (A A^T + l2 I)^-1 B
    for a wide A."""
    a = D.check_matrices(a, "MatrixSolveLs")
    b = D.check_matrices(coerce.as_tensor(b, op="MatrixSolveLs"), "MatrixSolveLs")
    m, n = a.shape[-2:]
    at = transpose_last(a)
    tall = m >= n
    gram = matmul(at, a) if tall else matmul(a, at)
    size = n if tall else m
    gram = _ew.add(gram, _ew.mul(eye(size, size, a.dtype), l2))
    return solve(gram, matmul(at, b)) if tall else matmul(at, solve(gram, b))


def _triangular_solve(matrix, rhs, *, lower, adjoint):
    a = D.check_matrices(matrix, "MatrixTriangularSolve", square=True)
    a = tril(a) if lower else triu(a)
    return solve(transpose_last(a) if adjoint else a, rhs)


def _tridiagonal_matmul(superdiag, maindiag, subdiag, rhs):
    """TensorFlow's TridiagonalMatMul: the diagonals (..., 1, M) of a tridiagonal M x M
    matrix (superdiag's last and subdiag's first entries unused) times rhs (..., M, N)."""
    rows = [_shape.swapaxes(d, -1, -2) for d in (superdiag, maindiag, subdiag)]   # (.., M, 1)
    out = _ew.mul(rows[1], rhs)
    m = rhs.shape[-2]
    if m > 1:
        below = _shape.pad_p.bind(rhs[..., 1:, :], pads=((0, 0),) * (rhs.ndim - 2) +
                                  ((0, 1), (0, 0)), value=0)
        above = _shape.pad_p.bind(rhs[..., :-1, :], pads=((0, 0),) * (rhs.ndim - 2) +
                                  ((1, 0), (0, 0)), value=0)
        out = _ew.add(out, _ew.add(_ew.mul(rows[0], below), _ew.mul(rows[2], above)))
    return out


def _svd(x, *, full_matrices, compute_uv):
    s, u, v = D.svd(x, full_matrices, True)
    if compute_uv:
        return s, u, v
    return s, _ew.zeros_like(u[..., :0, :0]), _ew.zeros_like(v[..., :0, :0])


ROWS = [
    ("Cholesky", lambda x, *, upper: D.cholesky(x, upper), dict(upper=False)),
    ("CholeskyInverse", lambda x, *, upper: D.cholesky_inverse(x, upper), dict(upper=False)),
    ("CholeskySolve", lambda x1, x2, *, upper: D.cholesky_solve(x1, x2, upper),
     dict(upper=False)),
    ("Qr", lambda x, *, full_matrices: H.qr(x, "complete" if full_matrices else "reduced"),
     dict(full_matrices=False)),
    ("Svd", _svd, dict(full_matrices=False, compute_uv=True)),
    ("Lstsq", lambda matrix, rhs, *, fast, l2_regularizer:
     _regularized_lstsq(matrix, rhs, float(l2_regularizer)),
     dict(fast=True, l2_regularizer=0.0)),
    ("MatrixSolveLs", lambda matrix, rhs, l2, *, fast: _regularized_lstsq(
        matrix, rhs, _red.sum(coerce.as_tensor(l2, op="MatrixSolveLs"))), dict(fast=True)),
    ("LuSolve", D.lu_solve, {}),
    ("LuUnpack", lambda lu, pivots, *, unpack_data, unpack_pivots: D.lu_unpack(
        lu, pivots, unpack_data, unpack_pivots), dict(unpack_data=True, unpack_pivots=True)),
    ("MatrixPower", lambda x, *, n: D.matrix_power(x, n), dict(n=None)),
    ("MatrixSolve", lambda matrix, rhs, *, adjoint: D.matrix_solve(matrix, rhs, adjoint),
     dict(adjoint=False)),
    ("MatrixTriangularSolve", _triangular_solve, dict(lower=True, adjoint=False)),
    ("MatrixBandPart", MB.matrix_band_part, {}),
    ("MatrixDiagV3", lambda x, k, rows, cols, padding, *, align: MB.matrix_diag(
        x, k, rows, cols, padding, align), dict(align="RIGHT_LEFT")),
    ("MatrixDiagPartV3", lambda x, k, padding, *, align: MB.matrix_diag_part(
        x, k, padding, align), dict(align="RIGHT_LEFT")),
    ("MatrixSetDiagV3", lambda x, diagonal, k, *, align: MB.matrix_set_diag(
        x, diagonal, k, align), dict(align="RIGHT_LEFT")),
    ("MatrixDeterminant", det, {}),
    ("LogMatrixDeterminant", D.log_matrix_determinant, {}),
    ("MatrixInverse", lambda x, *, adjoint: inverse(transpose_last(x) if adjoint else x),
     dict(adjoint=False)),
    ("Diag", MS.diag, {}),
    ("DiagPart", _diag_part, {}),
    ("Cross", lambda x1, x2, *, dim: MP.cross(x1, x2, None if dim == _CROSS_DEFAULT else dim),
     dict(dim=_CROSS_DEFAULT)),
    ("Ger", MP.ger, {}),
    ("Cdist", lambda x1, x2, *, p: N.cdist(x1, x2, p), dict(p=2.0)),
    ("Pdist", lambda x, *, p: N.pdist(x, p), dict(p=2.0)),
    ("Trace", MS.trace, {}),
    ("TrilIndices", lambda *, row, col, offset, dtype: MS.tril_indices(row, col, offset,
                                                                       dtype=dtype),
     dict(row=None, col=None, offset=0, dtype=np.dtype(np.int32))),
    ("TriuIndices", lambda *, row, col, offset, dtype: MS.triu_indices(row, col, offset,
                                                                       dtype=dtype),
     dict(row=None, col=None, offset=0, dtype=np.dtype(np.int32))),
    ("TridiagonalMatMul", _tridiagonal_matmul, {}),
    ("Geqrf", H.geqrf, {}),
    ("Orgqr", H.orgqr, {}),
    ("NuclearNorm", lambda x, *, dim, keepdim: N.matrix_norm(
        x, "nuc", (0, 1) if dim is None else tuple(dim), keepdim), dict(dim=None, keepdim=False)),
    ("Renorm", lambda x, *, p, dim, maxnorm: N.renorm(x, p, dim, maxnorm),
     dict(p=None, dim=None, maxnorm=None)),
    ("Inv", MP.inv, {}),
]
