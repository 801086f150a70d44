"""Deformable convolution v2 (MindSpore's ``DeformableOffsets`` class and
``deformable_conv2d``): each kernel tap of each output position samples the input
bilinearly at its regular place plus a learned offset, scaled by a learned mask;
``DeformableOffsets`` lays the samples out as an (N, C, OH * kh, OW * kw) image of kh x kw
blocks, which a convolution with stride = kernel then reduces. The samples are four
gathers of the corners and their bilinear weights, so both the input and the offsets get
gradients."""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from . import indexing as _idx
from .conv import conv2d, _check_float

__all__ = ["deformable_conv2d", "compute_deformable_offsets"]


def _four(value, name, op, nc_ones=True):
    if not isinstance(value, tuple) or len(value) != 4 or \
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{op}: '{name}' must be a tuple of 4 ints, got {value!r}")
    if nc_ones and (value[0] != 1 or value[1] != 1):
        raise ValueError(f"{op}: the N and C dimensions of '{name}' must be 1, got {value}")
    return value


def _sample(x, offsets, strides, pads, ksize, dilations, deformable_groups, op):
    """The (N, C, OH * kh, OW * kw) image of masked bilinear samples."""
    n, c, h, w = x.shape
    kh, kw = ksize
    sh, sw = strides[2:]
    dh, dw = dilations[2:]
    top, _, left, _ = pads
    g = deformable_groups
    oh, ow = offsets.shape[2], offsets.shape[3]
    taps = kh * kw
    if c % g or offsets.shape[1] != 3 * g * taps or offsets.shape[0] != n:
        raise ValueError(f"{op}: 'offsets' must be (N, 3 * deformable_groups * kh * kw, OH, "
                         f"OW) = ({n}, {3 * g * taps}, OH, OW) with C divisible by "
                         f"deformable_groups, got {tuple(offsets.shape)} for C = {c}")
    expect_h = (h + pads[0] + pads[1] - (kh - 1) * dh - 1) // sh + 1
    expect_w = (w + pads[2] + pads[3] - (kw - 1) * dw - 1) // sw + 1
    if (oh, ow) != (expect_h, expect_w):
        raise ValueError(f"{op}: 'offsets' spatial size {(oh, ow)} must be the output size "
                         f"{(expect_h, expect_w)}")
    parts = _shape.reshape(offsets, (n, 3, g, kh, kw, oh, ow))
    off_x, off_y, mask = (_shape.reshape(parts[:, i], (n, g, kh, kw, oh, ow)) for i in range(3))
    # the regular grid of each tap: (kh, kw, OH, OW) rows and columns
    base_y = (np.arange(oh) * sh - top).reshape(1, 1, oh, 1) + \
        (np.arange(kh) * dh).reshape(kh, 1, 1, 1)
    base_x = (np.arange(ow) * sw - left).reshape(1, 1, 1, ow) + \
        (np.arange(kw) * dw).reshape(1, kw, 1, 1)
    y = _ew.add(off_y, coerce.constant(base_y.astype(np.float64), x.dtype))
    xs = _ew.add(off_x, coerce.constant(base_x.astype(np.float64), x.dtype))
    y0 = _ew.floor(_ew.stop_gradient(y))
    x0 = _ew.floor(_ew.stop_gradient(xs))
    fy, fx = _ew.sub(y, y0), _ew.sub(xs, x0)
    flat = _shape.reshape(x, (n, g, c // g, h * w))
    total = None
    for dy, wy in ((0, _ew.sub(1.0, fy)), (1, fy)):
        for dx, wx in ((0, _ew.sub(1.0, fx)), (1, fx)):
            row, col = _ew.add(y0, float(dy)), _ew.add(x0, float(dx))
            inside = _ew.logical_and(
                _ew.logical_and(_ew.ge(row, 0.0), _ew.le(row, float(h - 1))),
                _ew.logical_and(_ew.ge(col, 0.0), _ew.le(col, float(w - 1))))
            index = _ew.add(_ew.mul(_ew.clamp(_ew.cast(row, dt.int64), 0, h - 1), w),
                            _ew.clamp(_ew.cast(col, dt.int64), 0, w - 1))
            index = _shape.reshape(index, (n, g, 1, taps * oh * ow))
            picked = _idx.gather_elements(flat, 3, _shape.broadcast_to(
                index, (n, g, c // g, taps * oh * ow)))
            weight = _ew.where(inside, _ew.mul(wy, wx), _ew.zeros_like(wy))
            term = _ew.mul(picked, _shape.reshape(weight, (n, g, 1, taps * oh * ow)))
            total = term if total is None else _ew.add(total, term)
    total = _ew.mul(total, _shape.reshape(mask, (n, g, 1, taps * oh * ow)))
    image = _shape.reshape(total, (n, c, kh, kw, oh, ow))
    return _shape.reshape(_shape.transpose(image, (0, 1, 4, 2, 5, 3)), (n, c, oh * kh, ow * kw))


def compute_deformable_offsets(x, offsets, *, strides, pads, ksize, dilations, data_format,
                               deformable_groups, modulated):
    """``DeformableOffsets``: the (N, C, OH * kh, OW * kw) image of the input sampled at
    each tap's place plus its offset, times its mask; ``offsets`` (N, 3 * deformable_groups
    * kh * kw, OH, OW) holds the x offsets, the y offsets and the masks."""
    op = "DeformableOffsets"
    strides = _four(strides, "strides", op)
    pads = _four(pads, "pads", op, nc_ones=False)
    dilations = _four(dilations, "dilations", op)
    if not isinstance(ksize, tuple) or len(ksize) != 2 or min(ksize) < 1:
        raise TypeError(f"{op}: 'ksize' must be a tuple of 2 positive ints, got {ksize!r}")
    if data_format != "NCHW":
        raise ValueError(f"{op}: only data_format 'NCHW' is supported, got {data_format!r}")
    if modulated is not True:
        raise ValueError(f"{op}: 'modulated' must be True, got {modulated!r}")
    if isinstance(deformable_groups, bool) or not isinstance(deformable_groups, int) or \
            deformable_groups < 1:
        raise ValueError(f"{op}: 'deformable_groups' must be a positive int, got "
                         f"{deformable_groups!r}")
    x = coerce.as_tensor(x, op=op)
    offsets = coerce.as_tensor(offsets, op=op)
    _check_float(op, x, offsets)
    if x.dtype != offsets.dtype or x.ndim != 4 or offsets.ndim != 4:
        raise TypeError(f"{op}: 'x' and 'offsets' must be 4-D of one dtype, got "
                        f"{x.dtype}{list(x.shape)} and {offsets.dtype}{list(offsets.shape)}")
    return _sample(x, offsets, strides, pads, ksize, dilations, deformable_groups, op)


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None,
                      dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    """Deformable convolution v2: ``DeformableOffsets`` then a convolution with stride =
    ``kernel_size`` (``weight`` (C_out, C_in / groups, kh, kw)), plus ``bias``."""
    image = compute_deformable_offsets(
        x, offsets, strides=strides, pads=padding, ksize=tuple(kernel_size) if isinstance(
            kernel_size, list) else kernel_size, dilations=dilations, data_format="NCHW",
        deformable_groups=deformable_groups, modulated=modulated)
    return conv2d(image, weight, bias, tuple(kernel_size), "valid", 0, 1, groups)
