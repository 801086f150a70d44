"""``tensorjit.mint.linalg``: MindSpore's ``mint.linalg`` (``inv``, ``norm``,
``vector_norm``, ``matrix_norm``, ``qr``) composed of ops, so each differentiates and
compiles.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.linalg.inv(ms.Tensor([[2., 0.], [0., 4.]]))
"""
from .. import dtype as dt
from .. import ops
from ._reductions import vector_norm, matrix_norm, linalg_norm as norm, _safe_sqrt

__all__ = ["inv", "vector_norm", "matrix_norm", "norm", "qr"]


def inv(input):
    """Inverse of square float32 / float64 matrices (..., n, n): ``ops.inverse``.

    >>> out = mint.linalg.inv(ms.Tensor([[2., 0.], [0., 4.]]))
    """
    return ops.inverse(input)


def qr(A, mode="reduced"):
    """QR decomposition of (..., m, n) matrices by Householder reflections written in ops
    (n steps unrolled), with LAPACK's signs (R's diagonal has the opposite sign of the
    column's leading entry), so Q and R match PyTorch's. ``mode``: ``'reduced'``,
    ``'complete'`` or ``'r'`` (Q empty).

    >>> q, r = mint.linalg.qr(ms.Tensor([[1., 2.], [3., 4.]]))
    """
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"mint.linalg.qr: mode must be 'reduced', 'complete' or 'r', got "
                         f"{mode!r}")
    if A.ndim < 2:
        raise ValueError(f"mint.linalg.qr: expected at least 2 dimensions, got {A.ndim}")
    if not dt.is_float(A.dtype):
        raise TypeError(f"mint.linalg.qr: expected a floating-point input, got {A.dtype}")
    m, n = A.shape[-2], A.shape[-1]
    k = min(m, n)
    r = A
    q = ops.broadcast_to(ops.eye(m, m, A.dtype), tuple(A.shape[:-2]) + (m, m))
    rows = ops.arange(m)
    for j in range(min(k, m - 1)):   # a last 1-element column needs no reflection (LAPACK)
        below = ops.cast(ops.ge(rows, j), A.dtype)                      # rows j..m-1
        x = r[..., :, j] * below                                          # (..., m)
        leading = x[..., j:j + 1]
        norm_x = _safe_sqrt(ops.sum(x * x, -1, True))
        sign = ops.where(ops.ge(leading, 0), ops.ones_like(leading), -ops.ones_like(leading))
        e_j = ops.cast(ops.eq(rows, j), A.dtype)
        v = x + sign * norm_x * e_j                                       # Householder vector
        vv = ops.sum(v * v, -1, True)
        # a zero column needs no reflection: the identity (v = 0) instead of 0 / 0
        scale = ops.where(ops.gt(vv, 0), 2.0 / ops.where(ops.gt(vv, 0), vv, ops.ones_like(vv)),
                          ops.zeros_like(vv))
        # H = I - scale v v^T applied on the left of r and on the right of q
        r = r - (scale[..., None] * v[..., :, None]) * ops.matmul(v[..., None, :], r)
        q = q - ops.matmul(q, v[..., :, None]) * (scale[..., None] * v[..., None, :])
    r = ops.triu(r)
    if mode == "r":
        return ops.zeros((0,), A.dtype), r[..., :k, :]
    if mode == "reduced":
        return q[..., :, :k], r[..., :k, :]
    return q, r
