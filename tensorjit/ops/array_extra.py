"""The computations of MindSpore's array operator classes added with issue 36's math family
(rows of ``extra_classes.py``): fills, histograms, bit packing, set difference, ragged
ranges, data-format maps, norms and identities. Each follows the class's convention (which
values are attributes, which inputs) and MindSpore 2.10's dtypes and errors; the ones of
fixed output shape are compositions of registry ops (differentiable where MindSpore is),
the ones whose output shape depends on input values (``ListDiff``, ``RaggedRange``) read
them, as ``Unique`` does."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as E
from . import reduction as R
from . import shape as S
from . import indexing as I
from .creation import arange
from .searching import histc
from .segments import unsorted_segment_sum
from .slicing import masked_select
from .sampling_classes import _shape_input

_INDEX_DTYPES = (dt.int32, dt.int64)


def _tensor(x, op, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: {name} must be a Tensor, got {type(x).__name__}")
    return x


# ---- fills ----------------------------------------------------------------------------------

def fill_v2(shape, value):
    """``FillV2()(shape, value)``: a tensor of ``shape`` (a tuple of ints or a 1-D int32 /
    int64 tensor) holding ``value`` (a one-element tensor, whose dtype it takes)."""
    op = "FillV2"
    if isinstance(shape, Tensor) and shape.dtype not in _INDEX_DTYPES:
        raise TypeError(f"{op}: shape must be an int32 / int64 tensor, got {shape.dtype}")
    if not isinstance(shape, (tuple, Tensor)):
        raise TypeError(f"{op}: shape must be a tuple or a tensor, got {type(shape).__name__}")
    shape = _shape_input(shape, op)
    value = _tensor(value, op, "value")
    if value.size != 1:
        raise ValueError(f"{op}: value must hold one element, got shape {tuple(value.shape)}")
    return S.broadcast_to(S.reshape(value, ()), shape)


def fills(x, value):
    """``Fills()(x, value)``: a tensor shaped and typed as ``x`` holding ``value`` (a float
    or a 0-d float32 tensor)."""
    op = "Fills"
    x = _tensor(x, op, "x")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"{op}: value must be 0-d, got shape {tuple(value.shape)}")
        if value.dtype != dt.float32:
            raise TypeError(f"{op}: value must be a float32 tensor, got {value.dtype}")
        return S.broadcast_to(E.cast(value, x.dtype), tuple(x.shape))
    if not isinstance(value, (float, np.floating)):
        raise TypeError(f"{op}: value must be a float, got {type(value).__name__}")
    return E.add(E.zeros_like(x), coerce.constant(np.array(value).astype(x.dtype)))


def fill_diagonal(x, *, fill_value, wrap):
    """``FillDiagonal(fill_value, wrap)(x)``: ``x`` with its main diagonal (elements
    ``[i, i, ..., i]``) set to ``fill_value``; a tall matrix with ``wrap`` starts the
    diagonal again every ``columns + 1`` rows. ``x`` is 2-D or more, of equal sizes if
    more."""
    op = "FillDiagonal"
    x = _tensor(x, op, "input_x")
    if x.ndim < 2:
        raise ValueError(f"{op}: the input must be at least 2-D, got {x.ndim}-D")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError(f"{op}: an input of more than 2 dimensions must have the same "
                         f"size in all of them, got {tuple(x.shape)}")
    size = int(np.prod(x.shape))
    strides = np.cumprod((1,) + tuple(x.shape[:0:-1]))     # row-major strides, reversed
    step = int(strides.sum())
    end = size
    if x.ndim == 2 and not wrap:
        end = min(x.shape) * x.shape[1]
    mask = np.zeros(size, bool)
    mask[0:end:step] = True
    fill = coerce.constant(np.array(fill_value).astype(x.dtype))
    return E.where(coerce.constant(mask.reshape(x.shape)), fill, x)


# ---- histograms -----------------------------------------------------------------------------

def histogram(x, *, bins, min, max):
    """``Histogram(bins, min, max)(x)``: counts in ``bins`` equal bins over [min, max] (both
    equal: the data's range), float32 for float inputs, int32 for int32."""
    if not isinstance(bins, (int, np.integer)) or isinstance(bins, bool) or bins <= 0:
        raise ValueError(f"Histogram: bins must be an int > 0, got {bins!r}")
    if min > max:
        raise ValueError(f"Histogram: min ({min}) must be <= max ({max})")
    return histc(_tensor(x, "Histogram", "x"), bins, min, max)


def histogram_fixed_width(x, range, *, nbins, dtype):
    """``HistogramFixedWidth(nbins, dtype)(x, range)``: counts (int32) of ``x`` in
    ``nbins`` equal bins over ``[range[0], range[1])``; values below fall in the first bin,
    values from ``range[1]`` up in the last."""
    op = "HistogramFixedWidth"
    if isinstance(nbins, bool) or not isinstance(nbins, (int, np.integer)) or nbins < 1:
        raise ValueError(f"{op}: nbins must be an int >= 1, got {nbins!r}")
    if dtype != "int32":
        raise ValueError(f"{op}: dtype must be 'int32', got {dtype!r}")
    x, range = _tensor(x, op, "x"), _tensor(range, op, "range")
    if x.dtype not in (dt.float16, dt.float32, dt.float64, dt.int32):
        raise TypeError(f"{op}: x must be float16 / float32 / float64 / int32, got {x.dtype}")
    if range.dtype != x.dtype:
        raise TypeError(f"{op}: range must have x's dtype {x.dtype}, got {range.dtype}")
    if tuple(range.shape) != (2,):
        raise ValueError(f"{op}: range must have shape (2,), got {tuple(range.shape)}")
    bounds = E.cast(range, dt.float64)
    low, high = I.getitem(bounds, 0), I.getitem(bounds, 1)
    values = E.cast(S.reshape(x, (-1,)), dt.float64)
    position = E.floor(E.mul(E.div(E.sub(values, low), E.sub(high, low)), float(nbins)))
    ids = E.cast(E.clamp(position, 0.0, float(nbins - 1)), dt.int64)
    counts = unsorted_segment_sum(E.ones_like(values, dt.int32), ids, int(nbins))
    return E.cast(counts, dt.int32)


# ---- bit packing, set difference, ragged ranges ---------------------------------------------

def compare_and_bitpack(x, threshold):
    """``CompareAndBitpack()(x, threshold)``: ``x > threshold`` packed 8 to a uint8 along
    the last axis (first element in the highest bit); its size must be a multiple of 8."""
    op = "CompareAndBitpack"
    x, threshold = _tensor(x, op, "x"), _tensor(threshold, op, "threshold")
    if x.dtype != threshold.dtype:
        raise TypeError(f"{op}: x and threshold must have the same dtype, got {x.dtype} and "
                        f"{threshold.dtype}")
    if x.ndim == 0:
        raise ValueError(f"{op}: x must not be 0-d")
    if threshold.ndim != 0:
        raise ValueError(f"{op}: threshold must be 0-d, got shape {tuple(threshold.shape)}")
    if x.shape[-1] % 8:
        raise ValueError(f"{op}: the last axis of x must be a multiple of 8, got "
                         f"{x.shape[-1]}")
    if x.dtype == dt.bool_:
        above = E.logical_and(x, E.logical_not(threshold))
    else:
        above = E.gt(x, threshold)
    groups = S.reshape(E.cast(above, dt.int32), tuple(x.shape[:-1]) + (x.shape[-1] // 8, 8))
    weights = coerce.constant(np.array([128, 64, 32, 16, 8, 4, 2, 1], np.int32))
    return E.cast(R.sum(E.mul(groups, weights), -1), dt.uint8)


def list_diff(x, y, *, out_idx):
    """``ListDiff(out_idx)(x, y)``: the elements of the 1-D ``x`` not in the 1-D ``y`` (in
    order, repeats kept) and their indices in ``x`` (``out_idx``: int32 / int64)."""
    op = "ListDiff"
    out_idx = dt.as_dtype(out_idx)
    if out_idx not in _INDEX_DTYPES:
        raise TypeError(f"{op}: out_idx must be int32 or int64, got {out_idx}")
    x, y = _tensor(x, op, "x"), _tensor(y, op, "y")
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: x and y must have the same dtype, got {x.dtype} and "
                        f"{y.dtype}")
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: bool tensors are not supported")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"{op}: x and y must be 1-D, got {x.ndim}-D and {y.ndim}-D")
    found = R.any(E.eq(S.expand_dims(x, 1), S.expand_dims(y, 0)), 1) if y.shape[0] else \
        E.zeros_like(x, dt.bool_)
    keep = E.logical_not(found)
    return masked_select(x, keep), masked_select(arange(x.shape[0], dtype=out_idx), keep)


def ragged_range(starts, limits, deltas, *, Tsplits):
    """``RaggedRange(Tsplits)(starts, limits, deltas)``: the ranges ``starts[i],
    starts[i] + deltas[i], ...`` below ``limits[i]`` concatenated (``rt_dense_values``, the
    inputs' dtype) and the offsets where each begins and the last ends
    (``rt_nested_splits``, ``Tsplits``); 0-d inputs repeat for every range."""
    op = "RaggedRange"
    Tsplits = dt.as_dtype(Tsplits)
    if Tsplits not in _INDEX_DTYPES:
        raise TypeError(f"{op}: Tsplits must be int32 or int64, got {Tsplits}")
    inputs = [_tensor(t, op, n) for t, n in ((starts, "starts"), (limits, "limits"),
                                              (deltas, "deltas"))]
    if len({t.dtype for t in inputs}) != 1:
        raise TypeError(f"{op}: starts, limits and deltas must have the same dtype, got "
                        f"{[str(t.dtype) for t in inputs]}")
    if inputs[0].dtype not in (dt.float32, dt.float64, dt.int32, dt.int64):
        raise TypeError(f"{op}: the inputs must be float32 / float64 / int32 / int64, got "
                        f"{inputs[0].dtype}")
    if any(t.ndim > 1 for t in inputs):
        raise ValueError(f"{op}: starts, limits and deltas must be 0-d or 1-D")
    sizes = {t.shape[0] for t in inputs if t.ndim == 1}
    if len(sizes) > 1:
        raise ValueError(f"{op}: starts, limits and deltas must have the same shape, got "
                         f"{[tuple(t.shape) for t in inputs]}")
    n = sizes.pop() if sizes else 1
    begin, end, step = (np.broadcast_to(t.asnumpy(), (n,)) for t in inputs)
    if (step == 0).any():
        raise ValueError(f"{op}: deltas must not be 0")
    values = [np.arange(b, e, s, dtype=inputs[0].dtype) for b, e, s in zip(begin, end, step)]
    splits = np.concatenate([[0], np.cumsum([len(v) for v in values])]).astype(Tsplits)
    dense = np.concatenate(values) if values else np.zeros(0, inputs[0].dtype)
    return coerce.constant(splits), coerce.constant(dense.astype(inputs[0].dtype))


# ---- data formats, transposes, norms, identities --------------------------------------------

_FORMATS = ("NHWC", "NCHW")


def _format_permutation(src_format, dst_format, op):
    for name, f in (("src_format", src_format), ("dst_format", dst_format)):
        if f not in _FORMATS:
            raise ValueError(f"{op}: {name} must be 'NHWC' or 'NCHW', got {f!r}")
    return [src_format.index(c) for c in dst_format]


def _index_tensor(x, op):
    x = _tensor(x, op, "x")
    if x.dtype not in _INDEX_DTYPES:
        raise TypeError(f"{op}: the input must be int32 or int64, got {x.dtype}")
    return x


def data_format_dim_map(x, *, src_format, dst_format):
    """``DataFormatDimMap(src_format, dst_format)(x)``: for each dimension index (in
    [-4, 4)) of ``dst_format``, the index of the same dimension in ``src_format``."""
    op = "DataFormatDimMap"
    table = _format_permutation(src_format, dst_format, op)
    x = _index_tensor(x, op)
    return I.gather(coerce.constant(np.array(table, x.dtype)), E.floor_mod(x, 4), 0)


def data_format_vec_permute(x, *, src_format, dst_format):
    """``DataFormatVecPermute(src_format, dst_format)(x)``: the (4,) or (4, 2) vector of
    per-dimension values of ``src_format`` reordered as ``dst_format``."""
    op = "DataFormatVecPermute"
    order = _format_permutation(src_format, dst_format, op)
    x = _index_tensor(x, op)
    if tuple(x.shape) not in ((4,), (4, 2)):
        raise ValueError(f"{op}: the input's shape must be (4,) or (4, 2), got "
                         f"{tuple(x.shape)}")
    return I.gather(x, coerce.constant(np.array(order, np.int64)), 0)


def conjugate_transpose(x, perm):
    """``ConjugateTranspose()(x, perm)``: ``x`` with its axes permuted (the conjugate of a
    real tensor is itself; tensorjit has no complex dtype)."""
    op = "ConjugateTranspose"
    x = _tensor(x, op, "x")
    if not isinstance(perm, tuple):
        raise TypeError(f"{op}: perm must be a tuple of ints, got {type(perm).__name__}")
    if len(set(perm)) != len(perm):
        raise ValueError(f"{op}: the values of perm must be different, got {perm}")
    return S.transpose(x, *perm)


def euclidean_norm(x, axes, *, keep_dims):
    """``EuclideanNorm(keep_dims)(x, axes)``: ``sqrt(sum(x ** 2))`` over the axes in the
    int32 / int64 tensor ``axes`` (float inputs)."""
    op = "EuclideanNorm"
    x = _tensor(x, op, "x")
    if not isinstance(axes, Tensor):
        raise TypeError(f"{op}: axes must be a Tensor, got {type(axes).__name__}")
    if axes.dtype not in _INDEX_DTYPES:
        raise TypeError(f"{op}: axes must be int32 or int64, got {axes.dtype}")
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: x must be a float tensor, got {x.dtype}")
    coerce.shape_decision()
    axis = tuple(int(a) for a in np.atleast_1d(axes.asnumpy()))
    axis = tuple(coerce.normalize_axis(a, x.ndim, op) for a in axis)
    return R._safe_sqrt(R.sum(E.mul(x, x), axis, keep_dims))


def identity_n(x):
    """``IdentityN()(x)``: the tensors of the non-empty list or tuple ``x``, unchanged."""
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"IdentityN: x must be a list or tuple of tensors, got "
                        f"{type(x).__name__}")
    if not x:
        raise ValueError("IdentityN: x must hold at least one tensor")
    if not all(isinstance(t, Tensor) for t in x):
        raise TypeError("IdentityN: every element of x must be a Tensor")
    return type(x)(E.identity(t) for t in x)
