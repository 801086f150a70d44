"""mint's shape, indexing and sorting functions whose PyTorch semantics are not a renaming
of an ops function (creation and random ones: ``_creation``)."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ._translate import slice_along
from ..ops import coerce
from ..tensor import Tensor


def _int64(t):
    return ops.cast(t, dt.int64)


# ---- shape -------------------------------------------------------------------------------
def permute(input, dims):
    """Reorder the axes of ``input`` to ``dims``.

    >>> out = mint.permute(ms.Tensor(np.zeros((2, 3))), (1, 0))
    """
    return ops.transpose(input, *dims)


def t(input):
    """Transpose a 2-D tensor; 0-D and 1-D tensors come back as they are.

    >>> out = mint.t(ms.Tensor([[1., 2.]]))
    """
    if input.ndim > 2:
        raise ValueError(f"mint.t: expected a tensor of at most 2 dimensions, got {input.ndim}")
    return ops.transpose(input, 1, 0) if input.ndim == 2 else input


def squeeze(input, dim=None):
    """Remove axes of size 1 (``dim``: only those; None: all). MindSpore requires ``dim``;
    its default here squeezes every axis of size 1, as PyTorch.

    >>> out = mint.squeeze(ms.Tensor([[1., 2.]]), 0)
    """
    if dim is None:
        return ops.squeeze(input)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    ndim = max(input.ndim, 1)
    keep = tuple(d % ndim for d in dims if input.ndim and input.shape[d] == 1)
    return ops.squeeze(input, keep) if keep else input


def _at_least(tensors, ndim):
    out = []
    for x in tensors:
        if x.ndim == 0:
            x = ops.reshape(x, (1,) * ndim)
        elif x.ndim == 1 and ndim == 3:
            x = ops.reshape(x, (1, x.shape[0], 1))
        elif x.ndim == 2 and ndim == 3:
            x = ops.unsqueeze(x, 2)
        out.append(x)
    return out


def hstack(tensors):
    """Concatenate horizontally: along axis 0 for 1-D tensors, else axis 1.

    >>> out = mint.hstack([ms.Tensor([1., 2.]), ms.Tensor([3.])])
    """
    tensors = _at_least(tensors, 1)
    return ops.cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def dstack(tensors):
    """Concatenate along the third axis, after making every tensor at least 3-D.

    >>> out = mint.dstack([ms.Tensor([1., 2.]), ms.Tensor([3., 4.])])
    """
    return ops.cat(_at_least(tensors, 3), 2)


def narrow(input, dim, start, length):
    """``length`` elements of ``input`` along ``dim`` from ``start``.

    >>> out = mint.narrow(ms.Tensor([[1., 2., 3.]]), 1, 1, 2)
    """
    size = input.shape[dim]
    start = start + size if start < 0 else start
    if not (0 <= start <= size and 0 <= length and start + length <= size):
        raise ValueError(f"mint.narrow: start {start} and length {length} exceed dimension "
                         f"{dim} of size {size}")
    return slice_along(input, dim, start, start + length)


def select(input, dim, index):
    """The slice of ``input`` at ``index`` along ``dim`` (that axis removed).

    >>> out = mint.select(ms.Tensor([[1., 2.], [3., 4.]]), 1, 0)
    """
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"mint.select: index {index} is out of range for dimension {dim} "
                         f"of size {size}")
    index %= size
    return ops.squeeze(slice_along(input, dim, index, index + 1), dim % input.ndim)


def index_select(input, dim, index):
    """Entries of ``input`` at the 1-D ``index`` along ``dim``.

    >>> out = mint.index_select(ms.Tensor([[1., 2.], [3., 4.]]), 0, ms.Tensor([1]))
    """
    if index.ndim > 1:
        raise ValueError(f"mint.index_select: index must be 0-D or 1-D, got {index.ndim}-D")
    return ops.gather(input, ops.reshape(index, (-1,)), dim)


def _grid(index, dim):
    """Index tensors addressing ``out[i][j][k]`` with ``index``'s values on ``dim``."""
    coords = []
    for axis in range(index.ndim):
        if axis == dim % index.ndim:
            coords.append(index)
        else:
            shape = [1] * index.ndim
            shape[axis] = index.shape[axis]
            coords.append(coerce.constant(np.arange(index.shape[axis]).reshape(shape)))
    return tuple(coords)


def _source(src, index, dtype):
    if not isinstance(src, Tensor):
        return ops.full(tuple(index.shape), src, dtype=dtype)
    region = tuple(slice(0, n) for n in index.shape)
    return ops.cast(src[region] if tuple(src.shape) != tuple(index.shape) else src, dtype)


def gather(input, dim, index):
    """``out[i][j] = input[i][index[i][j]]`` along ``dim`` (``index`` may be smaller than
    ``input`` on the other axes).

    >>> out = mint.gather(ms.Tensor([[1., 2.], [3., 4.]]), 1, ms.Tensor([[1], [0]]))
    """
    if index.ndim != input.ndim:
        raise ValueError(f"mint.gather: index has {index.ndim} dimensions, input {input.ndim}")
    return ops.getitem(input, _grid(index, dim))


def scatter(input, dim, index, src):
    """A copy of ``input`` with ``out[i][index[i][j]] = src[i][j]`` along ``dim``; ``src``
    may be a number.

    >>> out = mint.scatter(ms.Tensor([[0., 0.]]), 1, ms.Tensor([[1]]), ms.Tensor([[5.]]))
    """
    return ops.setitem_value(input, _grid(index, dim), _source(src, index, input.dtype))


def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``out[i][index[i][j]] += src[i][j]`` along ``dim``; repeated
    indices accumulate.

    >>> out = mint.scatter_add(ms.Tensor([[0., 0.]]), 1, ms.Tensor([[1, 1]]), ms.Tensor([[5., 6.]]))
    """
    return ops.index_add(input, _grid(index, dim), _source(src, index, input.dtype))


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``source`` (times ``alpha``) added at ``index`` along
    ``dim``; repeated indices accumulate.

    >>> out = mint.index_add(ms.Tensor([[1., 1.]]), 1, ms.Tensor([0, 0]), ms.Tensor([[1., 2.]]))
    """
    if alpha != 1:
        source = ops.mul(source, alpha)
    region = (slice(None),) * (dim % input.ndim) + (ops.reshape(index, (-1,)),)
    return ops.index_add(input, region, ops.cast(source, input.dtype))


def take(input, index):
    """Elements of the flattened ``input`` at ``index`` (result has ``index``'s shape).

    >>> out = mint.take(ms.Tensor([[1., 2.], [3., 4.]]), ms.Tensor([0, 3]))
    """
    return ops.take(input, index)


def masked_select(input, mask):
    """The 1-D tensor of ``input``'s elements where ``mask`` is True (broadcast together).
    Its length depends on the mask's values, so it runs eagerly, as ``nonzero``.

    >>> out = mint.masked_select(ms.Tensor([1., 2., 3.]), ms.Tensor([True, False, True]))
    """
    return ops.masked_select(input, mask)


def where(condition, input=None, other=None):
    """``input`` where ``condition`` else ``other``; ``where(condition)`` is
    ``nonzero(condition, as_tuple=True)``.

    >>> out = mint.where(ms.Tensor([True, False]), ms.Tensor([1., 2.]), ms.Tensor([3., 4.]))
    """
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("mint.where: give both input and other, or neither")
    return ops.where(condition, input, other)


def nonzero(input, *, as_tuple=False):
    """Indices (int64) of the non-zero elements: an (n, ndim) tensor or a tuple of ndim
    1-D tensors. Its shape depends on the values, so it runs eagerly.

    >>> out = mint.nonzero(ms.Tensor([0., 1., 2.]))
    """
    return ops.nonzero(input, as_tuple)


def diag(input, diagonal=0):
    """A 1-D input as the ``diagonal``-th diagonal of a square matrix; a 2-D input's
    ``diagonal``-th diagonal as a 1-D tensor.

    >>> out = mint.diag(ms.Tensor([1., 2.]))
    """
    if input.ndim == 1:
        n = input.shape[0]
        size = n + abs(diagonal)
        rows = np.arange(n) + max(-diagonal, 0)
        cols = np.arange(n) + max(diagonal, 0)
        out = ops.zeros((size, size), input.dtype)
        return ops.setitem_value(out, (coerce.constant(rows), coerce.constant(cols)), input)
    if input.ndim == 2:
        rows_n, cols_n = input.shape
        start_r, start_c = max(-diagonal, 0), max(diagonal, 0)
        length = max(min(rows_n - start_r, cols_n - start_c), 0)
        rows = np.arange(length) + start_r
        cols = np.arange(length) + start_c
        return ops.getitem(input, (coerce.constant(rows), coerce.constant(cols)))
    raise ValueError(f"mint.diag: expected a 1-D or 2-D tensor, got {input.ndim}-D")


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``, after joining ``prepend`` / ``append``.

    >>> out = mint.diff(ms.Tensor([1., 4., 9.]))
    """
    return ops.diff(input, n, dim, prepend, append)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors; ``indexing`` ``'ij'`` (the default) or ``'xy'``.

    >>> grid_x, grid_y = mint.meshgrid(ms.Tensor([1., 2.]), ms.Tensor([3., 4., 5.]))
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    indexing = indexing or "ij"
    if indexing not in ("ij", "xy"):
        raise ValueError(f"mint.meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    sizes = [x.shape[0] if x.ndim else 1 for x in tensors]
    if indexing == "xy" and len(tensors) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, x in enumerate(tensors):
        axis = i
        if indexing == "xy" and len(tensors) >= 2 and i < 2:
            axis = 1 - i
        shape = [1] * len(tensors)
        shape[axis] = sizes[axis]
        grids.append(ops.broadcast_to(ops.reshape(x, tuple(shape)), tuple(sizes)))
    return tuple(grids)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened input when
    None); ``repeats`` is an int or a 1-D tensor of counts (read on the host: the result's
    length depends on them).

    >>> out = mint.repeat_interleave(ms.Tensor([1., 2.]), 2)
    """
    if isinstance(repeats, Tensor):
        repeats = repeats.asnumpy().tolist() if repeats.ndim else int(repeats.asnumpy())
    return ops.repeat_interleave(input, repeats, dim)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Insertion points keeping each innermost row of ``sorted_sequence`` sorted: the count
    of elements below each value (``right`` / ``side='right'``: at or below). ``values``
    may be a number.

    >>> out = mint.searchsorted(ms.Tensor([1., 2., 3.]), ms.Tensor([2.5]))
    """
    return ops.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right,
                            side=side, sorter=sorter)


def sort(input, *, dim=-1, descending=False, stable=False):
    """(sorted values, int64 indices) along ``dim``; the sort is always stable here.

    >>> values, indices = mint.sort(ms.Tensor([3., 1., 2.]))
    """
    if input.ndim == 0:        # one element: itself, at index 0 (PyTorch's answer)
        return input, ops.zeros((), dt.int64)
    values, indices = ops.sort(input, dim, descending)
    return values, _int64(indices)


def argsort(input, dim=-1, descending=False, stable=False):
    """int64 indices that sort ``input`` along ``dim`` (stable).

    >>> out = mint.argsort(ms.Tensor([3., 1., 2.]))
    """
    if input.ndim == 0:
        return ops.zeros((), dt.int64)
    return _int64(ops.argsort(input, dim, descending))


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, int64 indices) of the ``k`` largest (``largest=False``: smallest) elements
    along ``dim``.

    >>> values, indices = mint.topk(ms.Tensor([3., 1., 2.]), 2)
    """
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, _int64(indices)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (of the flattened input when ``dim`` is
    None); optionally the inverse indices and run lengths (int64). Data-dependent shape:
    runs eagerly.

    >>> out = mint.unique_consecutive(ms.Tensor([1, 1, 2, 2, 1]))
    """
    return ops.unique_consecutive(input, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):
    """Counts of each value of a 1-D non-negative integer tensor (``weights``: sums of the
    weights); length ``max(input) + 1`` or ``minlength``. The length depends on the values,
    so it runs eagerly.

    >>> out = mint.bincount(ms.Tensor([0, 1, 1, 3]))
    """
    if input.ndim != 1 or dt.is_float(input.dtype) or input.dtype == dt.bool_:
        raise TypeError(f"mint.bincount: expected a 1-D integer tensor, got {input.ndim}-D "
                        f"{input.dtype}")
    values = input.asnumpy()
    if values.size and values.min() < 0:
        raise ValueError("mint.bincount: input must be non-negative")
    length = max(int(values.max()) + 1 if values.size else 0, minlength)
    dtype = dt.int64 if weights is None else (
        weights.dtype if dt.is_float(weights.dtype) else dt.float64)
    addend = ops.ones(tuple(input.shape), dtype) if weights is None else ops.cast(weights, dtype)
    return ops.index_add(ops.zeros((length,), dtype), (input,), addend)


def clone(input):
    """A copy of ``input``.

    >>> out = mint.clone(ms.Tensor([1., 2.]))
    """
    return ops.identity(input)


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution of time-major input (time, batch, in) with weight (kernel, in, out)
    and bias (out,), zero-padded by ``pad`` on both sides of time.

    >>> out = mint.conv_tbc(ms.Tensor(np.ones((4, 1, 2), np.float32)), ms.Tensor(np.ones((3, 2, 1), np.float32)), ms.Tensor([0.]))
    """
    x = ops.transpose(input, 1, 2, 0)            # (batch, in, time)
    w = ops.transpose(weight, 2, 1, 0)           # (out, in, kernel)
    out = ops.conv1d(x, w, bias, 1, "pad", pad)
    return ops.transpose(out, 2, 0, 1)
