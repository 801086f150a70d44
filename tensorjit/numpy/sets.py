"""Set operations and membership: unique, intersect1d, setdiff1d, in1d, isin, argwhere.

``unique``, ``intersect1d``, ``setdiff1d`` and ``argwhere`` produce a result whose size
depends on the data, so they compute eagerly on the host (as MindSpore's CPU versions
do outside graphs) and raise a RuntimeError inside ``jit``. ``in1d`` / ``isin`` compare
every pair with ops and run anywhere.
"""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ._common import static_values, to_tensor


def _values(x, name):
    return static_values(to_tensor(x, name=name), name)


def unique(x, return_inverse=False):
    """The unique elements of the flattened ``x``, in the order they first appear (as
    MindSpore 2.10's CPU kernel gives them; NumPy sorts them), computed eagerly.

    mindspore.numpy.unique: return_inverse also gives, for each element of x, its index
    in the result (int32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.unique(mnp.array([3, 1, 1, 2])).asnumpy().tolist()
    [3, 1, 2]
    """
    values = _values(x, "unique").ravel()
    if values.dtype == np.bool_:
        raise TypeError("unique: bool tensors are not supported (as in MindSpore); cast to "
                        "an integer dtype first")
    sorted_unique, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    result = coerce.constant(sorted_unique[order])
    if not return_inverse:
        return result
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return result, coerce.constant(rank[inverse.ravel()].astype(np.int32))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted unique values found in both inputs (flattened), computed eagerly.

    mindspore.numpy.intersect1d: return_indices also gives the first indices of those
    values in each input (int32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.intersect1d(mnp.array([3, 1, 2]), mnp.array([2, 3, 5])).asnumpy().tolist()
    [2, 3]
    """
    a, b = _values(ar1, "intersect1d"), _values(ar2, "intersect1d")
    dtype = dt.promote_types(a.dtype, b.dtype)
    result = np.intersect1d(a.astype(dtype), b.astype(dtype), assume_unique,
                            return_indices=return_indices)
    if not return_indices:
        return coerce.constant(result)
    values, ia, ib = result
    return (coerce.constant(values), coerce.constant(ia.astype(np.int32)),
            coerce.constant(ib.astype(np.int32)))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ``ar1`` that are not in ``ar2``, computed eagerly.

    >>> import tensorjit.numpy as mnp
    >>> mnp.setdiff1d(mnp.array([1, 2, 3, 2]), mnp.array([2])).asnumpy().tolist()
    [1, 3]
    """
    a, b = _values(ar1, "setdiff1d"), _values(ar2, "setdiff1d")
    return coerce.constant(np.setdiff1d(a, b.astype(a.dtype), assume_unique))


def isin(element, test_elements, invert=False):
    """True where an element of ``element`` is in ``test_elements`` (the shape of
    ``element``); invert gives the opposite. Built from ops.

    >>> import tensorjit.numpy as mnp
    >>> mnp.isin(mnp.array([1, 2, 3]), mnp.array([2, 3])).asnumpy().tolist()
    [False, True, True]
    """
    e = to_tensor(element, name="isin")
    t = ops.reshape(to_tensor(test_elements, name="isin"), (-1,))
    common = dt.promote_types(e.dtype, t.dtype)
    e, t = ops.cast(e, common), ops.cast(t, common)
    if t.shape[0] == 0:
        found = ops.zeros_like(e) != 0
    else:
        found = ops.any(ops.expand_dims(e, -1) == t, -1)
    return ops.logical_not(found) if invert else found


def in1d(ar1, ar2, invert=False):
    """``isin`` of the flattened ``ar1`` (a 1-D bool tensor).

    >>> import tensorjit.numpy as mnp
    >>> mnp.in1d(mnp.array([[1, 2], [3, 4]]), mnp.array([2, 3])).asnumpy().tolist()
    [False, True, True, False]
    """
    return isin(ops.reshape(to_tensor(ar1, name="in1d"), (-1,)), ar2, invert)


def argwhere(a):
    """Indices of the non-zero elements, one row per element (int64, N x ndim), computed
    eagerly.

    >>> import tensorjit.numpy as mnp
    >>> mnp.argwhere(mnp.array([[1, 0], [0, 1]])).asnumpy().tolist()
    [[0, 0], [1, 1]]
    """
    return coerce.constant(np.argwhere(_values(a, "argwhere")).astype(np.int64))
