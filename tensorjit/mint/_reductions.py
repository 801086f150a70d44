"""mint's reductions with PyTorch's conventions: ``dim`` / ``keepdim``, integer sums in
int64, ``max(input, dim)`` returning (values, indices), ``correction`` for std / var."""
import builtins

from .. import dtype as dt
from .. import ops
from ._translate import slice_along
from ..tensor import Tensor
from ..ops.norms import p_norm


def _all_dims(dim):
    """PyTorch spells "every axis" as ``None`` (or ``()`` for amax / amin)."""
    return None if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0) else dim


def _accumulate_dtype(input, dtype):
    """PyTorch sums / products integers and booleans in int64 unless ``dtype`` says."""
    if dtype is not None:
        return dt.as_dtype(dtype)
    return dt.int64 if not dt.is_float(input.dtype) else None


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` (all axes when None); integers and bools sum in int64.

    >>> out = mint.sum(ms.Tensor([[1, 2], [3, 4]]), dim=0)
    """
    dtype = _accumulate_dtype(input, dtype)
    if dtype is not None:
        input = ops.cast(input, dtype)
    return ops.sum(input, _all_dims(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product over ``dim`` (all axes when None); integers and bools multiply in int64.

    >>> out = mint.prod(ms.Tensor([[1., 2.], [3., 4.]]), dim=1)
    """
    dtype = _accumulate_dtype(input, dtype)
    if dtype is not None:
        input = ops.cast(input, dtype)
    return ops.prod(input, _all_dims(dim), keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over ``dim`` (all axes when None); ``dtype`` casts the input first. An integer
    input gives its dtype back, truncated, as MindSpore's (PyTorch refuses integers).

    >>> out = mint.mean(ms.Tensor([[1., 2.], [3., 4.]]), dim=0, keepdim=True)
    """
    if dtype is not None:
        input = ops.cast(input, dtype)
    out = ops.mean(input, _all_dims(dim), keepdim)
    return out if out.dtype == input.dtype else ops.cast(out, input.dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """``sum`` treating NaN as zero.

    >>> out = mint.nansum(ms.Tensor([1., float("nan"), 2.]))
    """
    if dt.is_float(input.dtype):
        input = ops.where(ops.isnan(input), ops.zeros_like(input), input)
    return sum(input, dim, keepdim, dtype=dtype)


def _reduce_or_pair(name, reduce, index, elementwise):
    def function(input, dim=None, keepdim=False):
        if dim is None:
            return reduce(input)
        if isinstance(dim, Tensor):        # max(input, other): the elementwise overload
            return elementwise(input, dim)
        values = reduce(input, dim, keepdim)
        return values, ops.cast(index(input, dim, keepdim), dt.int64)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"``{name}(input)``: the {name}imum of all elements; ``{name}(input, dim, keepdim=False)``:"
        f" (values, int64 indices) along ``dim``; ``{name}(input, other)``: ``{name}imum``.\n\n"
        f">>> values, indices = mint.{name}(ms.Tensor([[1., 5.], [4., 2.]]), dim=1)")
    return function


max = _reduce_or_pair("max", ops.amax, ops.argmax, ops.maximum)
min = _reduce_or_pair("min", ops.amin, ops.argmin, ops.minimum)


def amax(input, dim=(), keepdim=False):
    """Maximum over ``dim`` (every axis when ``()``).

    >>> out = mint.amax(ms.Tensor([[1., 5.], [4., 2.]]), dim=0)
    """
    return ops.amax(input, _all_dims(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over ``dim`` (every axis when ``()``).

    >>> out = mint.amin(ms.Tensor([[1., 5.], [4., 2.]]), dim=0)
    """
    return ops.amin(input, _all_dims(dim), keepdim)


def argmax(input, dim=None, keepdim=False):
    """Index (int64) of the maximum, over the flattened input when ``dim`` is None.

    >>> out = mint.argmax(ms.Tensor([[1., 5.], [4., 2.]]), dim=1)
    """
    return ops.cast(ops.argmax(input, dim, keepdim), dt.int64)


def argmin(input, dim=None, keepdim=False):
    """Index (int64) of the minimum, over the flattened input when ``dim`` is None.

    >>> out = mint.argmin(ms.Tensor([[1., 5.], [4., 2.]]), dim=1)
    """
    return ops.cast(ops.argmin(input, dim, keepdim), dt.int64)


def all(input, dim=None, keepdim=False):
    """Whether every element (along ``dim``) is non-zero.

    >>> out = mint.all(ms.Tensor([[True, False], [True, True]]), dim=1)
    """
    return ops.all(input, _all_dims(dim), keepdim)


def any(input, dim=None, keepdim=False):
    """Whether some element (along ``dim``) is non-zero.

    >>> out = mint.any(ms.Tensor([[True, False], [False, False]]), dim=1)
    """
    return ops.any(input, _all_dims(dim), keepdim)


def count_nonzero(input, dim=None):
    """Number of non-zero elements (int64) along ``dim`` (all axes when None).

    >>> out = mint.count_nonzero(ms.Tensor([[0., 1.], [2., 3.]]), dim=0)
    """
    return ops.sum(ops.cast(ops.ne(input, 0), dt.int64), _all_dims(dim), False)


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input), dim))``, computed stably.

    >>> out = mint.logsumexp(ms.Tensor([[0., 1.], [2., 3.]]), dim=1)
    """
    return ops.logsumexp(input, dim, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):
    """Variance over ``dim`` with ``correction`` (1: the unbiased estimate).

    >>> out = mint.var(ms.Tensor([[1., 2.], [3., 5.]]), dim=1)
    """
    return ops.var(input, _all_dims(dim), correction, keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):
    """Standard deviation over ``dim`` with ``correction`` (1: from the unbiased variance).

    >>> out = mint.std(ms.Tensor([[1., 2.], [3., 5.]]), dim=1)
    """
    return ops.std(input, _all_dims(dim), correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """(``var``, ``mean``) over ``dim``.

    >>> variance, average = mint.var_mean(ms.Tensor([[1., 2.], [3., 5.]]), dim=1)
    """
    return (var(input, dim, correction=correction, keepdim=keepdim),
            ops.mean(input, _all_dims(dim), keepdim))


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """(``std``, ``mean``) over ``dim``.

    >>> deviation, average = mint.std_mean(ms.Tensor([[1., 2.], [3., 5.]]), dim=1)
    """
    return (std(input, dim, correction=correction, keepdim=keepdim),
            ops.mean(input, _all_dims(dim), keepdim))


def _kth_smallest(input, k, dim, keepdim):
    values, indices = ops.sort(input, dim)
    dim = dim % builtins.max(input.ndim, 1)
    values = slice_along(values, dim, k, k + 1)
    indices = ops.cast(slice_along(indices, dim, k, k + 1), dt.int64)
    if not keepdim:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def median(input, dim=None, keepdim=False):
    """The lower median: of all elements when ``dim`` is None, else (values, int64 indices)
    along ``dim``.

    >>> out = mint.median(ms.Tensor([3., 1., 2., 5.]))
    """
    if dim is None:
        flat = ops.reshape(input, (-1,))
        return _kth_smallest(flat, (flat.shape[0] - 1) // 2, 0, False)[0]
    return _kth_smallest(input, (input.shape[dim] - 1) // 2, dim, keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, int64 indices) of the ``k``-th smallest element (1-based) along ``dim``.

    >>> values, indices = mint.kthvalue(ms.Tensor([[3., 1., 2.]]), 2, dim=1)
    """
    size = input.shape[dim] if input.ndim else 1
    if not 1 <= k <= size:
        raise ValueError(f"mint.kthvalue: k must be in [1, {size}], got {k}")
    return _kth_smallest(input, k - 1, dim if input.ndim else 0, keepdim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The ``ord``-norm of ``x`` over ``dim`` (all elements when None): ``inf``, ``-inf``,
    0 (count of non-zeros) or any real ``p``; its gradient at 0 is 0.

    >>> out = mint.linalg.vector_norm(ms.Tensor([3., -4.]), ord=1)
    """
    if isinstance(ord, str) or isinstance(ord, bool):
        raise ValueError(f"vector_norm: ord must be a number, got {ord!r}")
    if dtype is not None:
        x = ops.cast(x, dtype)
    if not dt.is_float(x.dtype):
        raise TypeError(f"vector_norm: expected a floating-point input, got {x.dtype}")
    return p_norm(x, float(ord), _all_dims(dim), keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """A matrix norm over the two axes ``dim`` (``ops.matrix_norm``): ``'fro'``, ``'nuc'``,
    2 / -2 (largest / smallest singular value), 1 / -1 (largest / smallest column sum of
    absolute values), ``inf`` / ``-inf`` (row sums).

    >>> out = mint.linalg.matrix_norm(ms.Tensor([[1., -2.], [3., 4.]]), ord=1)
    """
    return ops.matrix_norm(A, ord, tuple(dim), keepdim, dtype=dtype)


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """``mint.linalg.norm``: the vector norm (1-D input or an int ``dim``) or the matrix norm
    (2-D input or a pair ``dim``); the 2-norm of all elements when ``ord`` and ``dim`` are
    None.

    >>> out = mint.linalg.norm(ms.Tensor([[3., 4.]]))
    """
    if dim is None and (ord is None or A.ndim == 1):
        return vector_norm(A, 2 if ord is None else ord, None, keepdim, dtype=dtype)
    if isinstance(dim, int) or (dim is None and A.ndim == 1):
        return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
    dim = (-2, -1) if dim is None else tuple(dim)
    if ord is None:
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    return matrix_norm(A, ord, dim, keepdim, dtype=dtype)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """``mint.norm``: ``'fro'`` (and 2) over ``dim`` or all elements, ``inf``, ``-inf``, 0
    or any real ``p`` as the vector norm over ``dim``.

    >>> out = mint.norm(ms.Tensor([[3., 4.]]), p=2)
    """
    if p == "fro":
        p = 2
    if isinstance(p, str):
        raise ValueError(f"mint.norm: p={p!r} is not supported (use 'fro' or a number)")
    return vector_norm(input, p, dim, keepdim, dtype=dtype)


def trace(input):
    """Sum of the main diagonal of a 2-D tensor.

    >>> out = mint.trace(ms.Tensor([[1., 2.], [3., 4.]]))
    """
    if input.ndim != 2:
        raise ValueError(f"mint.trace: expected a 2-D tensor, got {input.ndim}-D")
    mask = ops.eye(input.shape[0], input.shape[1], dt.bool_)
    return sum(ops.where(mask, input, ops.zeros_like(input)))


def histc(input, bins=100, min=0, max=0):
    """Histogram of ``bins`` equal bins over [``min``, ``max``] (the data's range when both
    are 0); elements outside are ignored; the result has the input's float dtype.

    >>> out = mint.histc(ms.Tensor([1., 2., 1.]), bins=4, min=0, max=3)
    """
    if bins <= 0:
        raise ValueError(f"mint.histc: bins must be positive, got {bins}")
    if min > max:
        raise ValueError(f"mint.histc: max ({max}) must be at least min ({min})")
    x = ops.reshape(input, (-1,))
    work = x if dt.is_float(x.dtype) else ops.cast(x, dt.float32)
    if min == max == 0 and x.shape[0]:
        low, high = ops.amin(work), ops.amax(work)
    else:
        low, high = ops.full((), min, dtype=work.dtype), ops.full((), max, dtype=work.dtype)
    # an empty range (all elements equal) widens by one on both sides, as PyTorch does
    same = ops.eq(low, high)
    low, high = ops.where(same, low - 1, low), ops.where(same, high + 1, high)
    inside = ops.logical_and(ops.ge(work, low), ops.le(work, high))
    position = ops.floor((work - low) / (high - low) * bins)
    position = ops.cast(ops.clamp(position, 0, bins - 1), dt.int64)
    counts = ops.one_hot(position, bins, 1.0, 0.0) * ops.cast(inside, dt.float32)[:, None]
    return ops.cast(ops.sum(counts, 0), work.dtype)


# ---- SyncBatchNorm's statistics steps (PyTorch's batch_norm_stats / _elemt / _gather) ---
def batch_norm_stats(input, eps):
    """(mean, invstd) per channel (axis 1): ``invstd = 1 / sqrt(biased var + eps)``.

    >>> mean, invstd = mint.batch_norm_stats(ms.Tensor([[1., 2.], [3., 6.]]), 1e-5)
    """
    axes = (0,) + tuple(range(2, input.ndim))
    return ops.mean(input, axes), ops.rsqrt(ops.var(input, axes, 0) + eps)


def _per_channel(value, ndim):
    return ops.reshape(value, (1, -1) + (1,) * (ndim - 2))


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` per channel (axis 1).

    >>> out = mint.batch_norm_elemt(ms.Tensor([[1., 2.]]), None, None, ms.Tensor([1., 1.]), ms.Tensor([2., 2.]))
    """
    out = (input - _per_channel(mean, input.ndim)) * _per_channel(invstd, input.ndim)
    if weight is not None:
        out = out * _per_channel(weight, input.ndim)
    if bias is not None:
        out = out + _per_channel(bias, input.ndim)
    return out


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None,
                                        running_var=None, momentum=0.1, eps=1e-05,
                                        counts=None):
    """Combine per-process (mean, invstd) rows weighted by ``counts`` into the global
    (mean, invstd); updates ``running_mean`` / ``running_var`` (unbiased) in place.

    >>> m, s = mint.batch_norm_gather_stats_with_counts(ms.Tensor([[1.]]), ms.Tensor([[0.], [2.]]), ms.Tensor([[1.], [1.]]), counts=ms.Tensor([1., 1.]))
    """
    counts = ops.reshape(ops.cast(counts, mean.dtype), (-1, 1))
    total = ops.sum(counts)
    global_mean = ops.sum(mean * counts, 0) / total
    variance = ops.reciprocal(invstd * invstd) - eps
    second = ops.sum((variance + mean * mean) * counts, 0) / total
    global_var = second - global_mean * global_mean
    if running_mean is not None:
        running_mean.assign_value(running_mean * (1 - momentum) + global_mean * momentum)
    if running_var is not None:
        unbiased = global_var * total / ops.maximum(total - 1, 1)
        running_var.assign_value(running_var * (1 - momentum) + unbiased * momentum)
    return global_mean, ops.rsqrt(global_var + eps)
