"""Fractional max pooling (MindSpore's ``ops.fractional_max_pool2d`` / ``fractional_max_pool3d``,
Graham's pseudo-random windows): each output position ``i < out - 1`` of an axis of size
``L`` pools the ``k`` input positions from ``floor((i + u) * a) - floor(u * a)``, with
``a = (L - k) / (out - 1)`` and ``u`` in [0, 1) drawn per image, channel and axis; the last
window starts at ``L - k``. With ``_random_samples`` given (the u's, (N, C, rank), ordered
as MindSpore and PyTorch read them) the result is determined, and equals theirs.

The window starts are computed from the samples with tensor ops, the windows gathered with
one advanced index, so it compiles and differentiates as indexing does.
"""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import random as _random
from .indexing import index_p
from .pool_windows import ints
from .pooling import spatial, unbatch
# ``ops.shape`` is a function once the package is imported: import the names
from .shape import concat, expand_dims, reshape, slice_axis


# which of an image's samples each spatial axis uses: MindSpore (as PyTorch) gives a 2-D
# input's width the first, a 3-D input's depth the first
_SAMPLE_AXIS = {2: (1, 0), 3: (0, 1, 2)}


def _output_sizes(op, sizes, kernel, output_size, output_ratio):
    rank = len(sizes)
    if output_size is None and output_ratio is None:
        raise ValueError(f"{op}: 'output_size' and 'output_ratio' can not both be None")
    if output_size is not None:
        out = ints(output_size, rank, "output_size", op)
    else:
        ratio = output_ratio if isinstance(output_ratio, (tuple, list)) else (output_ratio,)
        ratio = tuple(float(r) for r in ratio) * (rank if len(ratio) == 1 else 1)
        if len(ratio) != rank or any(not 0.0 < r < 1.0 for r in ratio):
            raise ValueError(f"{op}: 'output_ratio' must be one or {rank} numbers in (0, 1), "
                             f"got {output_ratio!r}")
        out = tuple(int(n * r) for n, r in zip(sizes, ratio))
    for n, k, o in zip(sizes, kernel, out):
        if o < 1 or k < 1 or k + o - 1 > n:
            raise ValueError(f"{op}: kernel {kernel} and output size {out} do not fit the "
                             f"input {tuple(sizes)} (kernel + output - 1 <= input per axis, "
                             f"all positive)")
    return out


def _samples(op, samples, x, rank, any_float=False):
    n, c = x.shape[0], x.shape[1]
    float_type = x.dtype if dt.is_float(x.dtype) else dt.float32
    if samples is None:
        return _ew.cast(_random.rand((n, c, rank)), float_type)
    samples = coerce.as_tensor(samples, op=op)
    if any_float and not dt.is_float(samples.dtype):
        raise TypeError(f"{op}: 'random_samples' must be float16, float32 or float64, got "
                        f"{samples.dtype}")
    if samples.dtype != x.dtype and not any_float:
        raise TypeError(f"{op}: 'input' and '_random_samples' must have the same dtype, got "
                        f"{x.dtype} and {samples.dtype}")
    if tuple(samples.shape) != (n, c, rank):
        raise ValueError(f"{op}: '_random_samples' must have shape {(n, c, rank)} (batch, "
                         f"channels, {rank}), got {tuple(samples.shape)}")
    return samples


def _starts(u, size, k, out):
    """(N, C, out) int64 window starts along one axis from its (N, C) samples ``u``."""
    n, c = u.shape
    last = coerce.constant(np.full((n, c, 1), size - k, np.int64))
    if out == 1:
        return last
    alpha = (size - k) / (out - 1)
    u = expand_dims(u, -1)
    steps = coerce.constant(np.arange(out - 1).reshape(1, 1, -1).astype(u.dtype))
    seq = _ew.sub(_ew.cast(_ew.floor(_ew.mul(_ew.add(steps, u), alpha)), dt.int64),
                  _ew.cast(_ew.floor(_ew.mul(u, alpha)), dt.int64))
    return concat([seq, last], -1)


def fractional_max_pool(op, input, kernel_size, output_size, output_ratio, return_indices,
                        samples, rank, any_float_samples=False):
    """The pooling of both functions; ``any_float_samples``: the samples may be of any
    float dtype (MindSpore's ``FractionalMaxPoolWithFixedKsize`` classes)."""
    x, unbatched = spatial(op, input, rank, unbatched=True)
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    if samples is not None and unbatched and getattr(samples, "ndim", 3) == 2:
        samples = expand_dims(coerce.as_tensor(samples, op=op), 0)
    sizes = tuple(x.shape[2:])
    kernel = ints(kernel_size, rank, "kernel_size", op)
    if any(k < 1 for k in kernel):
        raise ValueError(f"{op}: 'kernel_size' must be positive, got {kernel_size!r}")
    out = _output_sizes(op, sizes, kernel, output_size, output_ratio)
    u = _samples(op, samples, x, rank, any_float_samples)
    n, c = x.shape[0], x.shape[1]
    # one index per input axis, broadcast to (N, C, *out, *kernel)
    full = 2 + 2 * rank
    index = [coerce.constant(np.arange(n).reshape((n,) + (1,) * (full - 1))),
             coerce.constant(np.arange(c).reshape((1, c) + (1,) * (full - 2)))]
    starts = []
    for d in range(rank):
        at = _SAMPLE_AXIS[rank][d]
        sample = reshape(slice_axis(u, 2, at, at + 1), (n, c))
        start = _starts(sample, sizes[d], kernel[d], out[d])        # (N, C, out_d)
        shape = [n, c] + [1] * (2 * rank)
        shape[2 + d] = out[d]
        start = reshape(start, tuple(shape))
        starts.append(start)
        offsets = np.arange(kernel[d]).reshape([1] * (2 + rank + d) + [kernel[d]]
                                               + [1] * (rank - 1 - d))
        index.append(_ew.add(start, coerce.constant(offsets)))
    win = index_p.bind(x, *index, spec=(("t",),) * (2 + rank))
    win = reshape(win, (n, c) + out + (int(np.prod(kernel)),))
    values = _red.amax(win, -1)
    if not return_indices:
        return unbatch(values, unbatched)
    k = _red.argmax(win, -1)
    flat = None
    for d in range(rank):
        offset = _ew.floor_mod(_ew.floor_div(k, int(np.prod(kernel[d + 1:]))), kernel[d])
        start = reshape(starts[d], (n, c) + tuple(out[e] if e == d else 1 for e in range(rank)))
        term = _ew.mul(_ew.add(start, offset), int(np.prod(sizes[d + 1:])))
        flat = term if flat is None else _ew.add(flat, term)
    return unbatch((values, flat), unbatched)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling of an (N, C, H, W) or (C, H, W) tensor (any dtype but bool).

    ``kernel_size``: an int or (kh, kw); ``output_size`` (ints) or ``output_ratio``
    (numbers in (0, 1): ``int(size * ratio)``), one of them; ``return_indices``: also the
    int64 flat index over H*W of each maximum; ``_random_samples``: (N, C, 2) numbers in
    [0, 1) of the input's dtype (index 0 for W, 1 for H), drawn from tensorjit's generator
    when None (MindSpore draws from its own, so only given samples reproduce its result).

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(25.).reshape(1, 1, 5, 5)
    >>> u = ms.Tensor([[[0.5, 0.5]]])
    >>> print(ms.ops.fractional_max_pool2d(x, 2, (2, 2), _random_samples=u).reshape(-1))
    [ 6.  9. 21. 24.]
    """
    return fractional_max_pool("fractional_max_pool2d", input, kernel_size, output_size,
                               output_ratio, bool(return_indices), _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor; arguments as
    ``fractional_max_pool2d`` with 3 sizes (samples (N, C, 3): index 0 for D, 1 for H,
    2 for W); indices flat over D*H*W, int64.

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(27.).reshape(1, 1, 3, 3, 3)
    >>> print(ms.ops.fractional_max_pool3d(x, 2, 1).reshape(-1))
    [26.]
    """
    return fractional_max_pool("fractional_max_pool3d", input, kernel_size, output_size,
                               output_ratio, bool(return_indices), _random_samples, 3)
