"""Statistics and counting: count_nonzero, cov / corrcoef, searchsorted / digitize,
histograms, bincount, convolve / correlate.

``histogram*`` and ``bincount`` produce a result whose size depends on the data (the
bin edges from the values' range, the largest value), so they compute eagerly on the
host, as MindSpore's CPU versions do outside graphs; they raise a RuntimeError inside
``jit``. The others are built from ops.
"""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import float_of, norm_axes, static_values, to_tensor, with_dtype


def _t(x, name):
    return to_tensor(x, name=name)


def count_nonzero(x, axis=None, keepdims=False):
    """The number of non-zero values over ``axis`` (int32, as MindSpore's).

    >>> import tensorjit.numpy as mnp
    >>> int(mnp.count_nonzero(mnp.array([1, 0, 2])))
    2
    """
    x = _t(x, "count_nonzero")
    axes = norm_axes(axis, x.ndim)
    nonzero = ops.cast(x != 0, dt.int32)
    return ops.cast(ops.sum(nonzero, axes, keepdims=keepdims), dt.int32) if axes else nonzero


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """Covariance matrix of the variables in ``m`` (rows when ``rowvar``), with optional
    extra observations ``y`` and frequency / observation weights.

    mindspore.numpy.cov: bias (normalise by N instead of N - 1), ddof (overrides bias);
    one variable gives a 0-d tensor; integer inputs give float32.

    >>> import tensorjit.numpy as mnp
    >>> mnp.cov(mnp.array([[0.0, 2.0], [1.0, 1.0]])).asnumpy().tolist()
    [[2.0, 0.0], [0.0, 0.0]]
    """
    m = float_of(_t(m, "cov"))
    if m.ndim > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    m = ops.reshape(m, (1, -1)) if m.ndim < 2 else m
    if not rowvar and m.shape[0] != 1:
        m = ops.transpose(m, (1, 0))
    if y is not None:
        y = float_of(_t(y, "cov"))
        y = ops.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = ops.transpose(y, (1, 0))
        m, y = ops.cast(m, dt.promote_types(m.dtype, y.dtype)), y
        m = ops.concat([m, ops.cast(y, m.dtype)], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = m.shape[1]
    weights = None
    for w, name in ((fweights, "fweights"), (aweights, "aweights")):
        if w is None:
            continue
        w = ops.cast(_t(w, "cov"), m.dtype)
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError(f"cov: {name} must be 1-D with one weight per observation")
        weights = w if weights is None else weights * w
    if weights is None:
        centre = ops.mean(m, 1, keepdims=True)
        x = m - centre
        scale = n - ddof
        result = ops.matmul(x, ops.transpose(x, (1, 0))) / scale
    else:
        total = ops.sum(weights)
        centre = ops.sum(m * weights, 1, keepdims=True) / total
        if ddof == 0:
            scale = total
        elif aweights is None:
            scale = total - ddof
        else:
            a = ops.cast(_t(aweights, "cov"), m.dtype)
            scale = total - ddof * ops.sum(weights * a) / total
        x = m - centre
        result = ops.matmul(x * weights, ops.transpose(x, (1, 0))) / scale
    if result.shape == (1, 1):
        result = ops.reshape(result, ())
    return with_dtype(result, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients of the variables in ``x`` (and ``y``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.corrcoef(mnp.array([[1.0, 2.0], [2.0, 4.0]])).asnumpy().tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return with_dtype(c / c, dtype)
    d = ops.sqrt(diagonal_of(c))
    c = c / ops.reshape(d, (-1, 1)) / ops.reshape(d, (1, -1))
    return with_dtype(ops.clip(c, -1, 1), dtype)


def diagonal_of(square):
    n = square.shape[0]
    return ops.sum(square * coerce.constant(np.eye(n, dtype=square.dtype)), 1)


def searchsorted(a, v, side="left", sorter=None):
    """Indices where ``v``'s elements would be inserted into the sorted 1-D ``a`` to keep
    it sorted (int32).

    mindspore.numpy.searchsorted: side 'left' (the first suitable place) or 'right';
    sorter (indices that sort ``a``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.searchsorted(mnp.array([1, 2, 3]), mnp.array([2, 5])).asnumpy().tolist()
    [1, 3]
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a = _t(a, "searchsorted")
    if a.ndim != 1:
        raise ValueError("searchsorted: a must be 1-D")
    if sorter is not None:
        a = ops.gather(a, _t(sorter, "searchsorted"), 0)
    v = _t(v, "searchsorted")
    common = dt.promote_types(a.dtype, v.dtype)
    a, v = ops.cast(a, common), ops.cast(v, common)
    # count the elements before the insertion point: below v (left) or at most v (right)
    before = ops.expand_dims(v, -1) > a if side == "left" else ops.expand_dims(v, -1) >= a
    if a.shape[0] == 0:
        return ops.zeros_like(ops.cast(v, dt.int32))
    return ops.cast(ops.sum(ops.cast(before, dt.int32), -1), dt.int32)


def digitize(x, bins, right=False):
    """Indices of the bins the values of ``x`` fall in (bins increasing or decreasing;
    int32).

    mindspore.numpy.digitize: right=False means bins[i-1] <= x < bins[i].

    >>> import tensorjit.numpy as mnp
    >>> mnp.digitize(mnp.array([0.5, 1.5, 3.0]), mnp.array([1.0, 2.0])).asnumpy().tolist()
    [0, 1, 2]
    """
    x, bins = _t(x, "digitize"), _t(bins, "digitize")
    if bins.ndim != 1:
        raise ValueError("digitize: bins must be 1-D")
    n = bins.shape[0]
    increasing = searchsorted(bins, x, "left" if right else "right")
    if n < 2:
        return increasing
    # decreasing bins: count from the other end of the reversed bins; the direction is
    # read from the bins' ends with ops, so bins computed in a graph work too
    flipped = ops.getitem(bins, slice(None, None, -1))
    decreasing = n - searchsorted(flipped, x, "right" if right else "left")
    return ops.where(bins[0] > bins[n - 1], decreasing, increasing)


def _range_of(values, value_range):
    if value_range is not None:
        low, high = value_range
        if low > high:
            raise ValueError("histogram: max must be larger than min in range parameter")
        return float(low), float(high)
    if values.size == 0:
        return 0.0, 1.0
    return float(values.min()), float(values.max())


def _bin_count(bins, name):
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        if bins <= 0:
            raise ValueError(f"{name}: bins must be a positive int, got {bins}")
        return int(bins)
    return None


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The bin edges ``histogram`` uses (float32), computed eagerly.

    mindspore.numpy.histogram_bin_edges: bins (a count, or the edges themselves); range
    (low, high) (default the data's); weights (unused, as NumPy's).

    >>> import tensorjit.numpy as mnp
    >>> mnp.histogram_bin_edges(mnp.array([1.0, 2.0, 3.0]), bins=2).asnumpy().tolist()
    [1.0, 2.0, 3.0]
    """
    values = static_values(_t(a, "histogram_bin_edges"), "histogram_bin_edges").ravel()
    return coerce.constant(_edges(values, bins, range, "histogram_bin_edges").astype(np.float32))


def _edges(values, bins, value_range, name):
    count = _bin_count(bins, name)
    if count is None:
        edges = np.asarray(static_values(bins, name) if isinstance(bins, Tensor) else bins,
                           dtype=np.float64)
        if edges.ndim != 1 or (np.diff(edges) < 0).any():
            raise ValueError(f"{name}: bins must increase monotonically")
        return edges
    low, high = _range_of(values, value_range)
    if low == high:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, count + 1)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, bin edges) of the values of ``a`` (both float32), computed eagerly.

    mindspore.numpy.histogram: bins (a count, or the edges); range (low, high); weights
    (one per value); density (normalised so the integral is 1).

    >>> import tensorjit.numpy as mnp
    >>> counts, edges = mnp.histogram(mnp.array([1.0, 2.0, 2.0, 3.0]), bins=2)
    >>> counts.asnumpy().tolist(), edges.asnumpy().tolist()
    ([1.0, 3.0], [1.0, 2.0, 3.0])
    """
    values = static_values(_t(a, "histogram"), "histogram").ravel()
    w = None if weights is None else static_values(_t(weights, "histogram"), "histogram").ravel()
    edges = _edges(values, bins, range, "histogram")
    counts, edges = np.histogram(values, edges, weights=w, density=density)
    return (coerce.constant(counts.astype(np.float32)),
            coerce.constant(edges.astype(np.float32)))


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, list of edges per dimension) of the points in ``sample`` (N x D), eagerly.

    >>> import tensorjit.numpy as mnp
    >>> counts, edges = mnp.histogramdd(mnp.array([[1.0, 2.0], [3.0, 4.0]]), bins=2)
    >>> counts.asnumpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if isinstance(sample, (list, tuple)):
        sample = ops.stack([_t(s, "histogramdd") for s in sample], 1)
    points = static_values(_t(sample, "histogramdd"), "histogramdd")
    points = points.reshape(-1, 1) if points.ndim == 1 else points
    d = points.shape[1]
    bin_list = list(bins) if isinstance(bins, (list, tuple)) else [bins] * d
    ranges = list(range) if range is not None else [None] * d
    if len(bin_list) != d or len(ranges) != d:
        raise ValueError("histogramdd: the dimension of bins / range must equal the "
                         "dimension of the sample")
    edges = [_edges(points[:, i], b, r, "histogramdd") for i, (b, r) in
             enumerate(zip(bin_list, ranges))]
    w = None if weights is None else static_values(_t(weights, "histogramdd"), "histogramdd")
    counts, edges = np.histogramdd(points, edges, weights=w, density=density)
    return (coerce.constant(counts.astype(np.float32)),
            [coerce.constant(e.astype(np.float32)) for e in edges])


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, x edges, y edges) of the points (x, y), computed eagerly.

    >>> import tensorjit.numpy as mnp
    >>> counts, xe, ye = mnp.histogram2d(mnp.array([1.0, 2.0]), mnp.array([1.0, 2.0]), bins=2)
    >>> counts.asnumpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if isinstance(bins, (list, tuple)) and len(bins) != 2:
        bins = [bins, bins]
    counts, edges = histogramdd([_t(x, "histogram2d"), _t(y, "histogram2d")], bins, range,
                                weights, density)
    return counts, edges[0], edges[1]


def bincount(x, weights=None, minlength=0, length=None):
    """Counts of each value in the non-negative integer tensor ``x`` (float32, as
    MindSpore's), optionally weighted, computed eagerly.

    mindspore.numpy.bincount: minlength (the least number of bins); length (exactly this
    many bins: then it is built from ops and runs under ``jit``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.bincount(mnp.array([1, 1, 3])).asnumpy().tolist()
    [0.0, 2.0, 0.0, 1.0]
    """
    x = _t(x, "bincount")
    if x.ndim != 1 or not dt.is_int(x.dtype):
        raise TypeError("bincount: x must be a 1-D tensor of non-negative integers")
    if length is None:
        values = static_values(x, "bincount")
        if values.size and values.min() < 0:
            raise ValueError("bincount: x must hold non-negative integers")
        length = int(max(values.max() + 1 if values.size else 0, minlength))
    hits = ops.cast(ops.expand_dims(x, -1) == coerce.constant(np.arange(length,
                                                                         dtype=x.dtype)),
                    dt.float32)
    if weights is not None:
        w = ops.cast(_t(weights, "bincount"), dt.float32)
        hits = hits * ops.expand_dims(w, -1)
    return ops.sum(hits, 0) if x.shape[0] else ops.zeros((length,), dtype=dt.float32)


def _sliding(a, v, mode, name):
    a, v = _t(a, name), _t(v, name)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{name}: the inputs must be 1-D")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"{name}: the inputs cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{name}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    common = dt.promote_types(a.dtype, v.dtype)
    return ops.cast(a, common), ops.cast(v, common)


def _correlate(a, v, mode):
    """c[k] = sum_i a[i + k] * v[i] for the lags of the mode, as one gather and a product.

    'full' has every lag from -(m - 1) to n - 1; 'valid' and 'same' are slices of it."""
    n, m = a.shape[0], v.shape[0]
    shorter, longer = min(n, m), max(n, m)
    if mode == "full":
        offset, count = 0, n + m - 1
    elif mode == "valid":
        offset, count = shorter - 1, longer - shorter + 1
    else:                               # centred on the full result, as NumPy's
        offset, count = ((shorter - 1) // 2 if n >= m else shorter // 2), longer
    lags = offset - (m - 1) + np.arange(count)
    positions = lags[:, None] + np.arange(m)[None, :]
    inside = (positions >= 0) & (positions < n)
    gathered = ops.gather(a, coerce.constant(np.clip(positions, 0, n - 1).astype(np.int32)), 0)
    products = ops.where(coerce.constant(inside), gathered * v, ops.zeros_like(gathered))
    return ops.cast(ops.sum(products, 1), a.dtype)     # integer sums stay in a's dtype


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences: c[k] = sum_n a[n + k] * v[n].

    mindspore.numpy.correlate: mode 'valid' (default), 'same' or 'full'.

    >>> import tensorjit.numpy as mnp
    >>> mnp.correlate(mnp.array([1.0, 2.0, 3.0]), mnp.array([1.0, 1.0])).asnumpy().tolist()
    [3.0, 5.0]
    """
    a, v = _sliding(a, v, mode, "correlate")
    return _correlate(a, v, mode)


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences.

    mindspore.numpy.convolve: mode 'full' (default), 'same' or 'valid'.

    >>> import tensorjit.numpy as mnp
    >>> mnp.convolve(mnp.array([1.0, 2.0]), mnp.array([1.0, 1.0, 1.0])).asnumpy().tolist()
    [1.0, 3.0, 3.0, 2.0]
    """
    a, v = _sliding(a, v, mode, "convolve")
    if v.shape[0] > a.shape[0]:         # convolution commutes; NumPy centres on the longer
        a, v = v, a
    return _correlate(a, ops.getitem(v, slice(None, None, -1)), mode)
