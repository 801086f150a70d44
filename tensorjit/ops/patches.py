"""Image patches as columns and back (MindSpore's ``Im2Col`` / ``Col2Im`` classes and the
``fold`` / ``col2im`` functions), and ``ExtractImagePatches``: layouts over the window
primitives of ``conv.py`` (``unfold_p``, a strided view, and its transpose ``fold_p``), so
each differentiates into the other."""
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .conv import unfold_p, fold_p, resolve_padding
from .activation import _floating_input

__all__ = ["fold", "col2im", "compute_im2col", "compute_col2im",
           "compute_extract_image_patches", "compute_dilation2d"]


def _two(value, name, op, minimum=1):
    """An int or 1-2 ints -> (h, w), each >= ``minimum`` (else ValueError)."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError(f"{op}: '{name}' must be an int or a tuple / list of ints, got "
                        f"{type(value).__name__}")
    values = (value,) if isinstance(value, int) else tuple(value)
    if not 1 <= len(values) <= 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                            for v in values):
        raise ValueError(f"{op}: '{name}' must be one or two ints, got {value!r}")
    values = values * (3 - len(values))
    if min(values) < minimum:
        raise ValueError(f"{op}: '{name}' must be >= {minimum}, got {value!r}")
    return values


def _output_size(output_size, op):
    """The (H, W) of the image: a 1-D int32 / int64 Tensor of 2 elements, or 2 ints."""
    if isinstance(output_size, Tensor):
        if output_size.dtype.kind not in "iu" or output_size.shape != (2,):
            raise ValueError(f"{op}: 'output_size' must be a 1-D int Tensor of 2 elements, "
                             f"got {output_size.dtype}{list(output_size.shape)}")
        output_size = output_size.tolist()
    return _two(output_size, "output_size", op)


def compute_im2col(x, *, ksizes, strides, dilations, pads):
    """``Im2Col``: (N, C, H, W) -> (N, C, kh * kw, L) sliding blocks, L = OH * OW."""
    op = "Im2Col"
    x = coerce.as_tensor(x, op=op)
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D input, got shape {tuple(x.shape)}")
    kernel = _two(ksizes, "ksizes", op)
    stride = _two(strides, "strides", op)
    dilation = _two(dilations, "dilations", op)
    ph, pw = _two(pads, "pads", op, minimum=0)
    win = unfold_p.bind(x, kernel=kernel, stride=stride, padding=(ph, ph, pw, pw),
                        dilation=dilation, pad_value=0)               # N C OH OW KH KW
    n, c, oh, ow, kh, kw = win.shape
    return _shape.reshape(_shape.transpose(win, (0, 1, 4, 5, 2, 3)), (n, c, kh * kw, oh * ow))


def _col2im(x, output_size, kernel_size, dilation, padding, stride, op):
    x = _floating_input(x, op)
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D (N, C, kh * kw, L) input, got shape "
                         f"{tuple(x.shape)}")
    height, width = _output_size(output_size, op)
    kernel = _two(kernel_size, "kernel_size", op)
    dilation = _two(dilation, "dilation", op)
    stride = _two(stride, "stride", op)
    ph, pw = _two(padding, "padding", op, minimum=0)
    n, c, block, length = x.shape
    if block != kernel[0] * kernel[1]:
        raise ValueError(f"{op}: x.shape[2] ({block}) must equal kernel_size[0] * "
                         f"kernel_size[1] ({kernel[0] * kernel[1]})")
    oh = (height + 2 * ph - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (width + 2 * pw - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    if oh <= 0 or ow <= 0 or oh * ow != length:
        raise ValueError(f"{op}: x.shape[3] ({length}) must equal the number of sliding "
                         f"blocks {max(oh, 0) * max(ow, 0)} of an image {height}x{width}")
    cols = _shape.reshape(x, (n, c, kernel[0], kernel[1], oh, ow))
    return fold_p.bind(_shape.transpose(cols, (0, 1, 4, 5, 2, 3)), x_shape=(n, c, height, width),
                       kernel=kernel, stride=stride, padding=(ph, ph, pw, pw), dilation=dilation)


def compute_col2im(x, output_size, *, kernel_size, dilation, padding, stride):
    """``Col2Im``: sum (N, C, kh * kw, L) blocks into an (N, C, H, W) image,
    ``output_size`` = (H, W); overlapping values add up."""
    return _col2im(x, output_size, kernel_size, dilation, padding, stride, "Col2Im")


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """``ops.col2im``: ``Col2Im(kernel_size, dilation, padding_value, stride)``."""
    return _col2im(input_x, output_size, kernel_size, dilation, padding_value, stride,
                   "col2im")


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``ops.fold``: (N, C * kh * kw, L) sliding blocks summed into (N, C, H, W)."""
    x = coerce.as_tensor(input, op="fold")
    if x.ndim != 3:
        raise ValueError(f"fold: expected a 3-D (N, C * kh * kw, L) input, got shape "
                         f"{tuple(x.shape)}")
    kh, kw = _two(kernel_size, "kernel_size", "fold")
    if x.shape[1] % (kh * kw):
        raise ValueError(f"fold: input.shape[1] ({x.shape[1]}) must be divisible by "
                         f"kernel_size[0] * kernel_size[1] ({kh * kw})")
    blocks = _shape.reshape(x, (x.shape[0], x.shape[1] // (kh * kw), kh * kw, x.shape[2]))
    return _col2im(blocks, output_size, (kh, kw), dilation, padding, stride, "fold")


def _patch_attribute(value, name):
    value = tuple(value) if isinstance(value, (tuple, list)) else None
    if value is None or len(value) != 4 or value[0] != 1 or value[1] != 1 or \
            min(value[2:]) < 1:
        raise ValueError(f"ExtractImagePatches: '{name}' must be (1, 1, h, w) with h, w >= 1, "
                         f"got {value!r}")
    return tuple(int(v) for v in value[2:])


def compute_extract_image_patches(x, *, ksizes, strides, rates, padding):
    """``ExtractImagePatches``: (N, C, H, W) -> (N, kh * kw * C, OH, OW), the channel
    fastest in the second axis (TensorFlow's layout); ``ksizes``, ``strides`` and ``rates``
    are (1, 1, h, w); ``padding`` 'valid' or 'same' in any case."""
    op = "ExtractImagePatches"
    x = coerce.as_tensor(x, op=op)
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D input, got shape {tuple(x.shape)}")
    kernel, stride, rate = (_patch_attribute(v, n) for v, n in
                            ((ksizes, "ksizes"), (strides, "strides"), (rates, "rates")))
    if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"{op}: 'padding' must be 'VALID' or 'SAME', got {padding!r}")
    pads = resolve_padding(padding.lower(), 0, tuple(x.shape[2:]), kernel, stride, rate, op)
    win = unfold_p.bind(x, kernel=kernel, stride=stride, padding=pads, dilation=rate,
                        pad_value=0)                                   # N C OH OW KH KW
    n, c, oh, ow, kh, kw = win.shape
    return _shape.reshape(_shape.transpose(win, (0, 4, 5, 1, 2, 3)), (n, kh * kw * c, oh, ow))


def _dilation_pair(value, name):
    if isinstance(value, (tuple, list)) and len(value) == 4:
        if value[0] != 1 or value[1] != 1:
            raise ValueError(f"Dilation2D: a 4-element '{name}' must be (1, 1, h, w), got "
                             f"{value!r}")
        value = value[2:]
    return _two(value, name, "Dilation2D")


def compute_dilation2d(x, filter, *, stride, dilation, pad_mode, data_format):
    """``Dilation2D``: grayscale dilation, ``max over the window of x + filter[c]`` of an
    (N, C, H, W) float input with a (C, kh, kw) filter; 'same' padding takes no part in
    the maximum (TensorFlow's). MindSpore 2.10's CPU kernel refuses every pad_mode."""
    op = "Dilation2D"
    if data_format != "NCHW":
        raise ValueError(f"{op}: only data_format 'NCHW' is supported, got {data_format!r}")
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid"):
        raise ValueError(f"{op}: 'pad_mode' must be 'same' or 'valid', got {pad_mode!r}")
    stride, dilation = _dilation_pair(stride, "stride"), _dilation_pair(dilation, "dilation")
    x = _floating_input(x, op)
    f = coerce.as_tensor(filter, op=op)
    if f.dtype != x.dtype or x.ndim != 4 or f.ndim != 3 or f.shape[0] != x.shape[1]:
        raise ValueError(f"{op}: expected an (N, C, H, W) input and a (C, kh, kw) filter of "
                         f"its dtype, got {x.dtype}{list(x.shape)} and {f.dtype}{list(f.shape)}")
    kernel = tuple(f.shape[1:])
    pads = resolve_padding(pad_mode.lower(), 0, tuple(x.shape[2:]), kernel, stride, dilation, op)
    win = unfold_p.bind(x, kernel=kernel, stride=stride, padding=pads, dilation=dilation,
                        pad_value=float("-inf"))                       # N C OH OW KH KW
    shifted = _ew.add(win, _shape.reshape(f, (1, f.shape[0], 1, 1) + kernel))
    return _red.amax(shifted, (-2, -1))
