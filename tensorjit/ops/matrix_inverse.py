"""Matrix inverse and determinant by Gauss-Jordan elimination with partial pivoting,
written with registry ops: one elimination step per row (the matrices' size is static), so
the result differentiates through the steps and compiles in every capture mode. Meant for
the small matrices these ops serve (a step costs O(n^2) per matrix, the loop n steps)."""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape


def _square(input, op):
    x = coerce.as_tensor(input, op=op)
    if x.dtype not in (dt.float32, dt.float64):
        raise TypeError(f"{op}: expected a float32 or float64 tensor, got {x.dtype}")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{op}: expected square matrices (..., n, n), got shape "
                         f"{tuple(x.shape)}")
    return x


def _basis(n, k, dtype):
    """The k-th unit vector of length n, as a column (n, 1)."""
    return coerce.constant(np.eye(n, dtype=dtype)[:, k:k + 1])


def _eliminate(a, n):
    """Gauss-Jordan on the first n columns of the row-stacked ``a`` (..., n, m): returns
    the reduced ``a`` (the first n columns become the identity for a regular matrix), the
    pivots (each step's, before normalisation) and the parity of the row swaps."""
    pivots, swaps = [], None
    rows = coerce.constant(np.arange(n))
    for k in range(n):
        column = a[..., :, k]                                           # (..., n)
        # the largest |entry| on or below row k picks the pivot row (a discrete choice:
        # no gradient flows through it)
        below = _ew.sub(_ew.zeros_like(column), 1.0)
        candidates = _ew.where(_ew.ge(rows, k), _ew.abs(column), below)
        chosen = _red.argmax(_ew.stop_gradient(candidates), -1, keepdim=True)  # (..., 1)
        picked = _ew.cast(_ew.eq(rows, chosen), a.dtype)                 # one-hot (..., n)
        row_p = _red.sum(_ew.mul(_shape.expand_dims(picked, -1), a), -2)  # (..., m)
        row_k = a[..., k, :]
        e_k = _shape.reshape(_basis(n, k, a.dtype), (n,))
        # swap rows k and p: a + (e_k - e_p) (row_p - row_k)
        a = _ew.add(a, _ew.mul(_shape.expand_dims(_ew.sub(e_k, picked), -1),
                               _shape.expand_dims(_ew.sub(row_p, row_k), -2)))
        moved = _ew.ne(_shape.reshape(chosen, tuple(chosen.shape[:-1])), k)
        swaps = moved if swaps is None else _ew.logical_xor(swaps, moved)
        pivot = a[..., k, k]
        pivots.append(pivot)
        # a zero pivot (a singular matrix) divides by 1: the values stay finite and the
        # determinant takes the 0 from the pivot itself
        safe = _ew.where(_ew.eq(pivot, 0), _ew.ones_like(pivot), pivot)
        row = _shape.expand_dims(_ew.div(a[..., k, :], _shape.expand_dims(safe, -1)), -2)
        # every other row loses its multiple of the pivot row; row k becomes the pivot row
        # (written as a masked update and a ``where``: the equivalent "subtract from every
        # row, then add e_k (x) row" form came out as the identity under jit_level O1)
        others = _ew.cast(_ew.ne(rows, k), a.dtype)                        # (n,)
        a = _ew.sub(a, _ew.mul(_ew.mul(a[..., :, k:k + 1], _shape.expand_dims(others, -1)),
                               row))
        a = _ew.where(_shape.expand_dims(_ew.eq(rows, k), -1), row, a)
    return a, pivots, swaps


def inverse(input):
    """The inverse of each square matrix in the last two axes (``ops.inverse``).

    Args: ``input`` a float32 / float64 tensor (..., n, n) (other dtypes raise TypeError,
    a non-square shape ValueError). A singular matrix gives non-finite or meaningless
    entries, not an error (MindSpore's CPU kernel does the same).

    >>> import tensorjit as ms
    >>> ms.ops.inverse(ms.Tensor([[2.0, 0.0], [0.0, 4.0]])).asnumpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    x = _square(input, "inverse")
    n = x.shape[-1]
    if n == 0:
        return x
    eye = _shape.broadcast_to(coerce.constant(np.eye(n, dtype=x.dtype)), tuple(x.shape))
    reduced, _, _ = _eliminate(_shape.concat([x, eye], -1), n)
    return reduced[..., :, n:]


def det(input):
    """The determinant of each square matrix in the last two axes (``ops.det``): the
    product of the elimination's pivots, negated for an odd number of row swaps.

    Args: ``input`` a float32 / float64 tensor (..., n, n) (other dtypes raise TypeError,
    a non-square shape ValueError). Result shape ``input.shape[:-2]``.

    >>> import tensorjit as ms
    >>> float(ms.ops.det(ms.Tensor([[2.0, 1.0], [1.0, 3.0]])))
    5.0
    """
    x = _square(input, "det")
    n = x.shape[-1]
    if n == 0:
        return _ew.add(_red.sum(_red.sum(x, -1), -1), 1.0)
    _, pivots, swaps = _eliminate(x, n)
    out = pivots[0]
    for pivot in pivots[1:]:
        out = _ew.mul(out, pivot)
    sign = _ew.sub(1.0, _ew.mul(_ew.cast(swaps, x.dtype), 2.0))
    return _ew.mul(out, sign)


def matrix_determinant(input):
    """``ops.matrix_determinant``: the same as ``det``.

    >>> import tensorjit as ms
    >>> float(ms.ops.matrix_determinant(ms.Tensor([[0.0, 1.0], [1.0, 0.0]])))
    -1.0
    """
    return det(_square(input, "matrix_determinant"))
