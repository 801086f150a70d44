"""``tensorjit.mint.linalg``: MindSpore's ``mint.linalg`` (``inv``, ``norm``,
``vector_norm``, ``matrix_norm``, ``qr``) composed of ops, so each differentiates and
compiles.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.linalg.inv(ms.Tensor([[2., 0.], [0., 4.]]))
"""
from .. import ops
from ._reductions import vector_norm, matrix_norm, linalg_norm as norm

__all__ = ["inv", "vector_norm", "matrix_norm", "norm", "qr"]


def inv(input):
    """Inverse of square float32 / float64 matrices (..., n, n): ``ops.inverse``.

    >>> out = mint.linalg.inv(ms.Tensor([[2., 0.], [0., 4.]]))
    """
    return ops.inverse(input)


def qr(A, mode="reduced"):
    """QR decomposition of (..., m, n) matrices by Householder reflections (``ops.qr``),
    with LAPACK's signs, so Q and R match PyTorch's. ``mode``: ``'reduced'``,
    ``'complete'`` or ``'r'`` (Q empty).

    >>> q, r = mint.linalg.qr(ms.Tensor([[1., 2.], [3., 4.]]))
    """
    return ops.qr(A, mode, op="mint.linalg.qr")
