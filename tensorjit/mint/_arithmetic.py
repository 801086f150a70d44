"""mint's arithmetic and products whose PyTorch arguments have no ops counterpart:
``alpha`` / ``beta`` scales, ``rounding_mode``, fused ``addmm``-style products, einsum."""
from .. import ops
from ._translate import slice_along
from ..ops.reduction import _safe_sqrt
from ..ops.einsum import contract


def _scaled(value, factor):
    return value if factor == 1 else ops.mul(value, factor)


def add(input, other, *, alpha=1):
    """``input + alpha * other``.

    >>> out = mint.add(ms.Tensor([1., 2.]), ms.Tensor([3., 4.]), alpha=2)
    """
    return ops.add(input, _scaled(other, alpha))


def sub(input, other, *, alpha=1):
    """``input - alpha * other``.

    >>> out = mint.sub(ms.Tensor([1., 2.]), ms.Tensor([3., 4.]), alpha=2)
    """
    return ops.sub(input, _scaled(other, alpha))


def div(input, other, *, rounding_mode=None):
    """``input / other``: true division, or rounded ``'floor'`` / ``'trunc'`` (integers stay
    integers then).

    >>> out = mint.div(ms.Tensor([7., -7.]), 2., rounding_mode="trunc")
    """
    if rounding_mode is None:
        return ops.div(input, other)
    if rounding_mode == "floor":
        return ops.floor_div(input, other)
    if rounding_mode == "trunc":
        quotient = ops.floor_div(input, other)
        # floor and truncation differ by one where the division is inexact and negative
        inexact = ops.ne(ops.remainder(input, other), 0)
        negative = ops.ne(ops.lt(input, 0), ops.lt(other, 0))
        fix = ops.cast(ops.logical_and(inexact, negative), quotient.dtype)
        return ops.add(quotient, fix)
    raise ValueError(f"mint.div: rounding_mode must be None, 'floor' or 'trunc', got "
                     f"{rounding_mode!r}")


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``.

    >>> out = mint.addcdiv(ms.Tensor([1.]), ms.Tensor([2.]), ms.Tensor([4.]), value=2)
    """
    return ops.add(input, _scaled(ops.div(tensor1, tensor2), value))


def _beta_plus(input, product, beta, alpha):
    product = _scaled(product, alpha)
    if beta == 0:        # PyTorch ignores ``input`` then (NaN in it does not propagate)
        return ops.add(product, ops.zeros_like(product)) if product.shape == input.shape \
            else product
    return ops.add(_scaled(input, beta), product)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``.

    >>> out = mint.addmm(ms.Tensor([[1.]]), ms.Tensor([[2., 3.]]), ms.Tensor([[4.], [5.]]))
    """
    return _beta_plus(input, ops.mm(mat1, mat2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.

    >>> out = mint.addbmm(ms.Tensor([[0.]]), ms.Tensor([[[1.]], [[2.]]]), ms.Tensor([[[3.]], [[4.]]]))
    """
    return _beta_plus(input, ops.sum(ops.bmm(batch1, batch2), 0), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``.

    >>> out = mint.addmv(ms.Tensor([1.]), ms.Tensor([[2., 3.]]), ms.Tensor([4., 5.]))
    """
    return _beta_plus(input, mv(mat, vec), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` per batch.

    >>> out = mint.baddbmm(ms.Tensor([[[1.]]]), ms.Tensor([[[2.]]]), ms.Tensor([[[3.]]]))
    """
    return ops.baddbmm(input, batch1, batch2, beta, alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """In place: ``input = beta * input + alpha * outer(vec1, vec2)``; returns ``input``.

    >>> out = mint.addr_(ms.Tensor([[1., 1.]]), ms.Tensor([2.]), ms.Tensor([3., 4.]))
    """
    return input.assign_value(_beta_plus(input, ops.outer(vec1, vec2), beta, alpha))


def mv(input, vec):
    """Matrix-vector product.

    >>> out = mint.mv(ms.Tensor([[1., 2.]]), ms.Tensor([3., 4.]))
    """
    if input.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mint.mv: expected a 2-D matrix and a 1-D vector, got "
                         f"{input.ndim}-D and {vec.ndim}-D")
    return ops.matmul(input, vec)


def vdot(input, other):
    """Dot product of two 1-D tensors (real tensors: no conjugation to do).

    >>> out = mint.vdot(ms.Tensor([1., 2.]), ms.Tensor([3., 4.]))
    """
    return ops.dot(input, other)


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first axis of size 3 when None).

    >>> out = mint.cross(ms.Tensor([[1., 0., 0.]]), ms.Tensor([[0., 1., 0.]]), dim=1)
    """
    return ops.cross(input, other, dim)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between the rows of ``x1`` (..., P, M) and ``x2`` (..., R, M).

    >>> out = mint.cdist(ms.Tensor([[0., 0.]]), ms.Tensor([[3., 4.]]))
    """
    if p < 0:
        raise ValueError(f"mint.cdist: p must be non-negative, got {p}")
    difference = ops.sub(ops.unsqueeze(x1, -2), ops.unsqueeze(x2, -3))
    if p == 2:
        return _safe_sqrt(ops.sum(ops.mul(difference, difference), -1))
    from ._reductions import vector_norm
    return vector_norm(difference, p, -1)


def einsum(equation, *operands):
    """Einstein summation: each operand's axes named by letters (``...`` for the rest),
    a letter repeated within one operand taking its diagonal, summed over the letters the
    output lacks (``ops.einsum``'s planner, for every dtype as PyTorch's).

    >>> out = mint.einsum("ij,jk->ik", ms.Tensor([[1., 2.]]), ms.Tensor([[3.], [4.]]))
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return contract(equation, operands, "mint.einsum")


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Solve ``A X = b`` for triangular ``A`` (..., n, n) and ``b`` (..., n, k) by
    substitution in ops; returns (X, a copy of A). ``transpose`` solves ``A^T X = b``.

    >>> x, a = mint.triangular_solve(ms.Tensor([[2.], [4.]]), ms.Tensor([[2., 0.], [0., 4.]]), upper=False)
    """
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"mint.triangular_solve: A must be square matrices, got shape "
                         f"{tuple(A.shape)}")
    n = A.shape[-1]
    if b.ndim < 2 or b.shape[-2] != n:
        raise ValueError(f"mint.triangular_solve: b of shape {tuple(b.shape)} does not match "
                         f"A of shape {tuple(A.shape)}")
    matrix = ops.swapaxes(A, -1, -2) if transpose else A
    lower = upper == transpose     # which side of the diagonal ``matrix`` keeps
    order = range(n) if lower else range(n - 1, -1, -1)
    solved = {}
    for i in order:
        rest = b[..., i:i + 1, :]
        for j in solved:
            rest = rest - matrix[..., i:i + 1, j:j + 1] * solved[j]
        solved[i] = rest if unitriangular else rest / matrix[..., i:i + 1, i:i + 1]
    x = ops.cat([solved[i] for i in range(n)], -2)
    return x, ops.identity(A)
