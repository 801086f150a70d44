"""What MindSpore's pooling operator classes compute (rows of ``operations.py``): their
attribute conventions (``strides``, ``pad`` / ``pad_list`` / ``pads``, ``ksize``,
``data_format``, an ``argmax`` output) mapped onto the functions of ``pooling.py``,
``adaptive_pooling.py`` and ``unpooling.py``."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import pooling as _pool
from . import adaptive_pooling as _adaptive
from . import unpooling as _unpool


def _format(op, data_format, want):
    if data_format != want:
        raise ValueError(f"{op}: only data_format={want!r} is supported, got {data_format!r}")


def _required(op, **values):
    for name, value in values.items():
        if value is None:
            raise TypeError(f"{op}: the attribute '{name}' is required")


def _window(value, rank):
    """MindSpore's window attributes: an int, ``rank`` ints, or the input's full rank
    (leading 1s for N and C)."""
    if isinstance(value, (tuple, list)) and len(value) == rank + 2:
        return tuple(value[2:])
    return value


def _mode(op, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
        raise ValueError(f"{op}: 'pad_mode' must be 'same', 'valid' or 'pad', got {pad_mode!r}")
    return pad_mode.lower()


def _pads(op, mode, pad):
    if mode != "pad" and pad not in (0, (0,) * 6, [0] * 6):
        raise ValueError(f"{op}: 'pad' must be 0 unless pad_mode is 'pad', got {pad!r}")
    return pad if mode == "pad" else 0


def compute_avg_pool3d(x, *, kernel_size, strides, pad_mode, pad, ceil_mode,
                       count_include_pad, divisor_override, data_format):
    """3-D average pooling of an NCDHW input (pad: an int or 6 ints)."""
    _format("AvgPool3D", data_format, "NCDHW")
    x, _ = _pool.spatial("AvgPool3D", x, 3)
    mode = _mode("AvgPool3D", pad_mode)
    return _pool.avg_pool(x, _window(kernel_size, 3), _window(strides, 3),
                          _pads("AvgPool3D", mode, pad), bool(ceil_mode), count_include_pad,
                          _pool.divisor_arg(divisor_override, "AvgPool3D"), "AvgPool3D",
                          pad_mode=mode)


def compute_max_pool3d(x, *, kernel_size, strides, pad_mode, pad_list, ceil_mode,
                       data_format):
    """3-D max pooling of an NCDHW input (pad_list: an int or 6 ints)."""
    _format("MaxPool3D", data_format, "NCDHW")
    x, _ = _pool.spatial("MaxPool3D", x, 3)
    mode = _mode("MaxPool3D", pad_mode)
    return _pool.max_pool(x, _window(kernel_size, 3), _window(strides, 3),
                          _pads("MaxPool3D", mode, pad_list), 1, bool(ceil_mode), False,
                          "MaxPool3D", pad_mode=mode)


def compute_max_pool_with_argmax(x, *, kernel_size, strides, pad_mode, data_format):
    """2-D max pooling with the int32 flat index over C*H*W (MindSpore 2.10's CPU
    kernel counts the channel in) of each maximum."""
    _format("MaxPoolWithArgmax", data_format, "NCHW")
    x, _ = _pool.spatial("MaxPoolWithArgmax", x, 2)
    values, index = _pool.max_pool(x, _window(kernel_size, 2), _window(strides, 2), 0, 1,
                                   False, True, "MaxPoolWithArgmax",
                                   pad_mode=_mode("MaxPoolWithArgmax", pad_mode),
                                   index_dtype=dt.int32)
    c, plane = x.shape[1], x.shape[2] * x.shape[3]
    channel = np.arange(c, dtype=np.int32).reshape(1, c, 1, 1) * plane
    return values, _ew.add(index, coerce.constant(channel))


def compute_max_pool_with_argmax_v2(x, *, kernel_size, strides, pads, dilation, ceil_mode,
                                    argmax_type):
    """2-D max pooling with padding, dilation and ceil_mode, and the flat index over H*W
    of each maximum in ``argmax_type``."""
    _required("MaxPoolWithArgmaxV2", kernel_size=kernel_size)
    x, _ = _pool.spatial("MaxPoolWithArgmaxV2", x, 2)
    return _pool.max_pool(x, _window(kernel_size, 2), _window(strides, 2), _window(pads, 2),
                          _window(dilation, 2), bool(ceil_mode), True, "MaxPoolWithArgmaxV2",
                          index_dtype=argmax_type)


def compute_max_pool3d_with_argmax(x, *, ksize, strides, pads, dilation, ceil_mode,
                                   data_format, argmax_type):
    """3-D max pooling with the flat index over D*H*W of each maximum in ``argmax_type``."""
    _required("MaxPool3DWithArgmax", ksize=ksize, strides=strides, pads=pads)
    _format("MaxPool3DWithArgmax", data_format, "NCDHW")
    x, _ = _pool.spatial("MaxPool3DWithArgmax", x, 3)
    return _pool.max_pool(x, _window(ksize, 3), _window(strides, 3), _window(pads, 3),
                          _window(dilation, 3), bool(ceil_mode), True, "MaxPool3DWithArgmax",
                          index_dtype=argmax_type)


def compute_adaptive_avg_pool2d(x, *, output_size):
    """Adaptive average pooling of an (N, C, H, W) or (C, H, W) float input."""
    return _adaptive.adaptive_pool("AdaptiveAvgPool2D", x, output_size, 2, "avg",
                                   unbatched=True)


def compute_adaptive_avg_pool3d(x, *, output_size):
    """Adaptive average pooling of an (N, C, D, H, W) or (C, D, H, W) float input."""
    return _adaptive.adaptive_pool("AdaptiveAvgPool3D", x, output_size, 3, "avg",
                                   unbatched=True)


def compute_adaptive_max_pool2d(x, *, output_size):
    """Adaptive max pooling, and the int64 flat index over H*W of each maximum."""
    return _adaptive.adaptive_pool("AdaptiveMaxPool2D", x, output_size, 2, "max", True,
                                   unbatched=True)


def compute_adaptive_max_pool3d(x, output_size):
    """Adaptive max pooling to ``output_size`` (a tensor or tuple of 3 ints, read when the
    op is built: it decides the output shape), and the int32 flat index over D*H*W."""
    if isinstance(output_size, Tensor):
        output_size = output_size.asnumpy()
    sizes = tuple(int(v) for v in np.asarray(output_size).reshape(-1))
    return _adaptive.adaptive_pool("AdaptiveMaxPool3D", x, sizes, 3, "max", True,
                                   unbatched=True, index_dtype=dt.int32)


def _unpool_class(op, rank, fmt):
    def compute(x, argmax, *, ksize, strides, pads, output_shape, data_format):
        _required(op, ksize=ksize)
        _format(op, data_format, fmt)
        stride = None if strides in (0, None) else strides
        return _unpool.max_unpool(op, x, argmax, ksize, stride, pads,
                                  tuple(output_shape) or None, rank)
    compute.__doc__ = (f"Max unpooling of {fmt} values at their ``argmax`` flat indices "
                       f"(strides 0: the kernel size).")
    return compute


compute_max_unpool2d = _unpool_class("MaxUnpool2D", 2, "NCHW")
compute_max_unpool3d = _unpool_class("MaxUnpool3D", 3, "NCDHW")
