"""MindSpore's fractional pooling classes:

* ``FractionalMaxPoolWithFixedKsize`` / ``FractionalMaxPool3DWithFixedKsize``: the
  ``fractional_max_pool2d`` / ``3d`` of ``fractional_pooling.py`` with the samples as an
  input (of any float dtype) and the argmax as a second output;
* ``FractionalMaxPool`` / ``FractionalAvgPool`` (TensorFlow's, NHWC): each of the row and
  column axes is cut into ``floor(size / ratio)`` cells by a pooling sequence -- random
  cell lengths ``floor(size / out)`` or one more, shuffled, or with ``pseudo_random``
  Graham's ``ceil(alpha (i + u)) - ceil(alpha u)`` -- and each cell pooled (with
  ``overlapping`` it also takes the first element of the next cell). The sequences are
  tensors, the cells gathered at their starts over the longest cell and masked, so the
  pooling differentiates as indexing does.
"""
import math

import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx
from . import random as _random
from .cumulative import cumsum
from .fractional_pooling import fractional_max_pool
from .special_math import truncate_div
from .sorting import argsort

__all__ = ["compute_fixed_ksize_pool", "compute_fractional_pool"]


def compute_fixed_ksize_pool(rank):
    """(y, argmax int64) of fractional max pooling with the window ``ksize`` to
    ``output_shape``, the window starts from ``random_samples`` (N, C, rank)."""
    op = "FractionalMaxPoolWithFixedKsize" if rank == 2 else "FractionalMaxPool3DWithFixedKsize"
    layout = "NCHW" if rank == 2 else "NCDHW"

    def compute(input_x, random_samples, *, ksize, output_shape, data_format):
        if data_format != layout:
            raise ValueError(f"{op}: 'data_format' must be '{layout}', got {data_format!r}")
        x = coerce.as_tensor(input_x, op=op)
        if x.dtype not in (dt.float16, dt.float32, dt.float64, dt.int32, dt.int64):
            raise TypeError(f"{op}: 'input_x' must be float16, float32, float64, int32 or "
                            f"int64, got {x.dtype}")
        if x.ndim != rank + 2:
            raise ValueError(f"{op}: expected a {rank + 2}-D input, got shape "
                             f"{tuple(x.shape)}")
        return fractional_max_pool(op, x, ksize, output_shape, None, True, random_samples,
                                   rank, any_float_samples=True)
    compute.__doc__ = compute_fixed_ksize_pool.__doc__
    return compute


def _ratios(pooling_ratio, op):
    if not isinstance(pooling_ratio, list):
        raise TypeError(f"{op}: 'pooling_ratio' must be a list, got "
                        f"{type(pooling_ratio).__name__}")
    if len(pooling_ratio) != 4:
        raise ValueError(f"{op}: 'pooling_ratio' must have 4 elements, got "
                         f"{len(pooling_ratio)}")
    if pooling_ratio[0] != 1.0 or pooling_ratio[3] != 1.0:
        raise ValueError(f"{op}: the first and last elements of 'pooling_ratio' must be 1.0, "
                         f"got {pooling_ratio}")
    if min(pooling_ratio[1:3]) < 1.0:
        raise ValueError(f"{op}: the row and column pooling ratios must be >= 1.0, got "
                         f"{pooling_ratio}")
    return float(pooling_ratio[1]), float(pooling_ratio[2])


def _sequence(size, out, pseudo_random):
    """(out + 1,) int64 cell boundaries from 0 to ``size``."""
    if pseudo_random:
        alpha = size / out
        u = _ew.cast(_random.rand((1,)), dt.float64)
        steps = coerce.constant(np.arange(out + 1, dtype=np.float64))
        seq = _ew.sub(_ew.ceil(_ew.mul(_ew.add(steps, u), alpha)), _ew.ceil(_ew.mul(u, alpha)))
        seq = _ew.cast(seq, dt.int64)
        # the sequence ends at the input's size
        return _ew.where(coerce.constant(np.arange(out + 1) == out), coerce.constant(
            np.int64(size)), _ew.minimum(seq, size))
    short = size // out
    longer = size - out * short                     # cells one longer than ``short``
    lengths = np.array([short] * (out - longer) + [short + 1] * longer, np.int64)
    order = argsort(_random.rand((out,)), 0)
    shuffled = _idx.gather(coerce.constant(lengths), order, 0)
    return _shape.concat([coerce.constant(np.zeros(1, np.int64)), cumsum(shuffled, 0)], 0)


def _cells(x, axis, seq, size, overlapping, longest):
    """``x`` gathered into (..., out, longest, ...) cells along ``axis`` and the mask of
    the positions inside each cell."""
    out = seq.shape[0] - 1
    starts, ends = seq[:out], seq[1:]
    if overlapping:
        ends = _ew.minimum(_ew.add(ends, 1), size)
    offsets = coerce.constant(np.arange(longest, dtype=np.int64))
    position = _ew.add(_shape.expand_dims(starts, 1), offsets)              # (out, longest)
    inside = _ew.lt(position, _shape.expand_dims(ends, 1))
    position = _ew.minimum(position, size - 1)
    picked = _idx.gather(x, _shape.reshape(position, (-1,)), axis)
    shape = tuple(x.shape[:axis]) + (out, longest) + tuple(x.shape[axis + 1:])
    return _shape.reshape(picked, shape), inside


def compute_fractional_pool(kind):
    """(y, row_pooling_sequence, col_pooling_sequence) of fractional ``kind`` ('max' or
    'avg') pooling of an (N, H, W, C) tensor."""
    op = "FractionalMaxPool" if kind == "max" else "FractionalAvgPool"

    def compute(x, *, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
        row_ratio, col_ratio = _ratios(pooling_ratio, op)
        x = coerce.as_tensor(x, op=op)
        if x.dtype not in (dt.float32, dt.float64, dt.int32, dt.int64):
            raise TypeError(f"{op}: 'x' must be float32, float64, int32 or int64, got "
                            f"{x.dtype}")
        if x.ndim != 4:
            raise ValueError(f"{op}: expected a 4-D (N, H, W, C) input, got shape "
                             f"{tuple(x.shape)}")
        height, width = x.shape[1], x.shape[2]
        out_h, out_w = int(height // row_ratio), int(width // col_ratio)
        if out_h < 1 or out_w < 1:
            raise ValueError(f"{op}: the pooling ratio {pooling_ratio} leaves no output for "
                             f"the input {tuple(x.shape)}")
        rows = _sequence(height, out_h, pseudo_random)
        cols = _sequence(width, out_w, pseudo_random)
        extra = 1 if overlapping else 0
        long_h = math.ceil(height / out_h) + 1 + extra    # bounds every cell (pseudo too)
        long_w = math.ceil(width / out_w) + 1 + extra
        cells, in_rows = _cells(x, 1, rows, height, overlapping, long_h)    # N oh lh W C
        cells, in_cols = _cells(cells, 3, cols, width, overlapping, long_w)  # N oh lh ow lw C
        mask = _ew.logical_and(_shape.reshape(in_rows, (1, out_h, long_h, 1, 1, 1)),
                               _shape.reshape(in_cols, (1, 1, 1, out_w, long_w, 1)))
        mask = _shape.broadcast_to(mask, tuple(cells.shape))
        if kind == "max":
            info = np.finfo if dt.is_float(x.dtype) else np.iinfo
            low = coerce.constant(info(x.dtype).min, x.dtype)
            y = _red.amax(_ew.where(mask, cells, low), (2, 4))
        else:
            total = _red.sum(_ew.where(mask, cells, _ew.zeros_like(cells)), (2, 4))
            count = _ew.cast(_red.sum(_ew.cast(mask, dt.int64), (2, 4)), x.dtype)
            y = _ew.div(total, count) if dt.is_float(x.dtype) else truncate_div(total, count)
        return _ew.cast(y, x.dtype), rows, cols
    compute.__doc__ = compute_fractional_pool.__doc__
    return compute
