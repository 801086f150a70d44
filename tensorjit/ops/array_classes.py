"""Computations of MindSpore's operator classes for scatter / gather, segments, searching,
cumulative ops and array rearrangement (rows of ``operations.py``), where the class's
convention is not its function's: attributes that are the function's arguments, outputs
in the class's dtypes (``CumSum`` keeps int32, ``Cummin`` gives int32 indices), inputs
the function takes otherwise (``InvertPermutation``: a tuple)."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .creation import full
from .cumulative import cumsum_p, cumprod_p, logcumsumexp_p, cummin, _along
from .indexing import gather, index_add
from .segments import unsorted_segment_sum
from .shape import concat, reshape, transpose, slice_axis, stack
from .searching import searchsorted
from .statistics import median, nanmedian, quantile, nanquantile
from .sorting import sort


def compute_index_add(input_x, indices, updates, *, axis, use_lock, check_index_bound):
    """Add ``updates`` into the Parameter ``input_x`` at ``indices`` along ``axis``, in
    place (repeated indices accumulate); returns it."""
    axis = coerce.normalize_axis(axis, input_x.ndim, "IndexAdd")
    region = (slice(None),) * axis + (reshape(indices, (-1,)),)
    return input_x.assign_value(index_add(input_x, region, _ew.cast(updates, input_x.dtype)))


def compute_masked_scatter(input, mask, updates):
    """``input`` with the positions where ``mask`` holds (broadcast to it) taking
    ``updates``' elements in order."""
    mask = _ew.logical_and(_ew.cast(coerce.as_tensor(mask), dt.bool_),
                           full(tuple(input.shape), True, dtype=dt.bool_))
    flat_mask = reshape(mask, (-1,))
    # the k-th masked position (a running count of k + 1) takes updates' k-th element
    order = _ew.sub(cumsum_p.bind(_ew.cast(flat_mask, dt.int64), axis=0, reverse=False), 1)
    source = gather(reshape(updates, (-1,)), _ew.maximum(order, 0), 0)
    return _ew.where(mask, reshape(source, tuple(input.shape)), input)


def compute_bincount(array, size, weights):
    """Sums of ``weights`` (empty: counts) by the values of ``array`` in [0, size), in
    ``weights``' dtype."""
    n = int(size.item() if isinstance(size, Tensor) else size)
    ids = _ew.cast(array, dt.int64)
    ids = _ew.where(_ew.lt(ids, n), ids, -1)
    weights = coerce.as_tensor(weights)
    values = _ew.ones_like(ids, weights.dtype) if weights.size == 0 else weights
    return unsorted_segment_sum(values, ids, n)


def compute_median(x, *, global_median, axis, keep_dims, ignore_nan):
    """(the lower median, its index) along ``axis``; of all elements with
    ``global_median``, whose index MindSpore leaves 0."""
    fn = nanmedian if ignore_nan else median
    if global_median:
        value, index = fn(reshape(x, (-1,)), 0, False)
        return value, _ew.zeros_like(index)
    return fn(x, axis, keep_dims)


def compute_quantile(input, q, *, dim, keep_dims, ignore_nan):
    return (nanquantile if ignore_nan else quantile)(input, q, dim, keep_dims)


def _shifted(x, axis, reverse, identity):
    """``x`` moved one place along ``axis`` (away from where the scan starts), the gap
    filled with ``identity``: an exclusive scan is the inclusive scan of this."""
    n = x.shape[axis]
    shape = tuple(1 if a == axis else d for a, d in enumerate(x.shape))
    gap = full(shape, identity, dtype=x.dtype)
    if n == 0:
        return x
    return concat([slice_axis(x, axis, 1, n), gap] if reverse else
                  [gap, slice_axis(x, axis, 0, n - 1)], axis)


def _scan(prim, identity):
    def compute(x, axis, *, exclusive, reverse):
        x = coerce.as_tensor(x)
        axis = int(axis.item() if isinstance(axis, Tensor) else axis)
        axis = coerce.normalize_axis(axis, x.ndim, prim.name)
        if exclusive:
            x = _shifted(x, axis, reverse, identity(x.dtype))
        return _along(prim, x, axis, prim.name, reverse=bool(reverse))
    compute.__doc__ = f"The running {prim.name[3:]} along ``axis`` in the input's dtype " \
                      f"(``exclusive``: of the elements before each; ``reverse``: from the end)."
    return compute


compute_cumsum = _scan(cumsum_p, lambda dtype: 0)
compute_cumprod = _scan(cumprod_p, lambda dtype: 1)
# MindSpore's exclusive log-sum-exp starts from the lowest finite value, not -inf
compute_logcumsumexp = _scan(logcumsumexp_p, lambda dtype: float(np.finfo(dtype).min))


def compute_cummin(x, *, axis):
    """(running minimum, its int32 index) (MindSpore's class: int32 indices)."""
    values, indices = cummin(x, axis)
    return values, _ew.cast(indices, dt.int32)


def compute_bound(right):
    def compute(sorted_x, values, *, out_type):
        """Per row, the insertion points of ``values`` in ``sorted_x``."""
        return _ew.cast(searchsorted(sorted_x, values, right=right), out_type)
    return compute


def compute_nth_element(input, n, *, reverse):
    """The ``n``-th smallest (``reverse``: largest) element along the last axis."""
    n = int(n.item() if isinstance(n, Tensor) else n)
    x = coerce.as_tensor(input)
    if not 0 <= n < x.shape[-1]:
        raise ValueError(f"For 'NthElement', n must be in [0, {x.shape[-1]}), got {n}")
    ordered = sort(x, -1, bool(reverse))[0]
    return reshape(slice_axis(ordered, x.ndim - 1, n, n + 1), tuple(x.shape[:-1]))


def compute_equal_count(x, y):
    """The number of equal elements, as a (1,) tensor of the inputs' dtype."""
    return reshape(_ew.cast(_red.sum(_ew.cast(_ew.equal(x, y), dt.int64)), x.dtype), (1,))


def compute_split_v(x, *, size_splits, split_dim, num_split):
    """``x`` cut along ``split_dim`` into pieces of ``size_splits`` (one may be -1: the
    rest)."""
    x = coerce.as_tensor(x)
    axis = coerce.normalize_axis(split_dim, x.ndim, "SplitV")
    sizes = list(size_splits)
    if len(sizes) != num_split or sizes.count(-1) > 1:
        raise ValueError(f"For 'SplitV', {num_split} sizes with at most one -1 expected, got "
                         f"{sizes}")
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    if sum(sizes) != x.shape[axis] or min(sizes) < 0:
        raise ValueError(f"For 'SplitV', sizes {sizes} do not add up to {x.shape[axis]}")
    starts = np.cumsum([0] + sizes)
    return tuple(slice_axis(x, axis, int(a), int(b)) for a, b in zip(starts, starts[1:]))


def _depth_layout(x, block, to_space):
    n, c, h, w = x.shape
    if to_space:
        depth = c // (block * block)
        y = reshape(x, (n, block, block, depth, h, w))
        return reshape(transpose(y, (0, 3, 4, 1, 5, 2)), (n, depth, h * block, w * block))
    y = reshape(x, (n, c, h // block, block, w // block, block))
    return reshape(transpose(y, (0, 3, 5, 1, 2, 4)), (n, block * block * c, h // block, w // block))


def compute_depth_to_space(x, *, block_size):
    """(N, C*b*b, H, W) -> (N, C, H*b, W*b): depth blocks become spatial blocks."""
    x = coerce.as_tensor(x)
    if x.ndim != 4 or block_size < 2 or x.shape[1] % (block_size * block_size):
        raise ValueError(f"For 'DepthToSpace', expected NCHW with channels divisible by "
                         f"{block_size}**2, got {tuple(x.shape)}")
    return _depth_layout(x, block_size, True)


def compute_space_to_depth(x, *, block_size):
    """(N, C, H, W) -> (N, C*b*b, H/b, W/b): spatial blocks become depth."""
    x = coerce.as_tensor(x)
    if x.ndim != 4 or block_size < 2 or x.shape[2] % block_size or x.shape[3] % block_size:
        raise ValueError(f"For 'SpaceToDepth', expected NCHW with H and W divisible by "
                         f"{block_size}, got {tuple(x.shape)}")
    return _depth_layout(x, block_size, False)


def compute_invert_permutation(input_x):
    """The inverse of a permutation given as a tuple or list of ints (a tuple)."""
    if isinstance(input_x, Tensor) or not isinstance(input_x, (tuple, list)):
        raise ValueError(f"For 'InvertPermutation', the input must be a tuple or list of "
                         f"ints, got {type(input_x).__name__}")
    values = [int(v) for v in input_x]
    if sorted(values) != list(range(len(values))):
        raise ValueError(f"For 'InvertPermutation', {values} is not a permutation")
    return tuple(int(i) for i in np.argsort(values))


def compute_unravel_index(indices, dims):
    """The coordinates of the flat ``indices`` in a tensor of shape ``dims``: one row per
    axis, in ``indices``' dtype."""
    shape = [int(d) for d in coerce.as_tensor(dims).asnumpy().reshape(-1)]
    rest = coerce.as_tensor(indices)
    coords = []
    for n in reversed(shape):
        coords.append(_ew.floor_mod(rest, n))
        rest = _ew.floor_div(rest, n)
    return stack(coords[::-1], 0)
