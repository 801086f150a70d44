"""``mint.nn.functional``'s pooling and ``fold``: PyTorch's arguments (``stride=None``,
unbatched input, ``divisor_override=None``, ``return_indices``) mapped onto
``ops.pooling`` / ``ops.adaptive_pooling`` / ``ops.unpooling``, and ``fold`` onto the
window primitive's transpose: no computation of its own."""
from ... import ops
from ...ops import pooling as _pool
from ...ops import adaptive_pooling as _adaptive
from ...ops.conv import fold_p as _fold_p


def _pair(value, n=2):
    """``value`` as ``n`` entries (an int repeated; a tuple or list as it is)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _stride(stride):
    """PyTorch's ``stride=None`` (or ``()``): the kernel size, which ops take as None."""
    return None if stride is None or stride == () else stride


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """2-D max pooling of (N, C, H, W) or (C, H, W) input (``ops.max_pool`` with
    ``ceil_mode`` / ``dilation``); ``return_indices`` adds the int64 flat (h * W + w) index
    of each maximum in its input plane.

    >>> out = mint.nn.functional.max_pool2d(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)), 2)
    """
    x, unbatched = _pool.spatial("max_pool2d", input, 2, unbatched=True)
    return _pool.unbatch(_pool.max_pool(x, kernel_size, _stride(stride), padding, dilation,
                                        ceil_mode, return_indices, "max_pool2d"), unbatched)


def _avg_pool(op, rank, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override=None):
    x, unbatched = _pool.spatial(op, input, rank, unbatched=True)
    return _pool.unbatch(_pool.avg_pool(
        x, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
        _pool.divisor_arg(divisor_override, op), op), unbatched)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """1-D average pooling of (N, C, L) or (C, L) input (``stride`` None: the kernel size).

    >>> out = mint.nn.functional.avg_pool1d(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 4)), 2)
    """
    return _avg_pool("avg_pool1d", 1, input, kernel_size, stride, padding, ceil_mode,
                     count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """2-D average pooling with PyTorch's ``ceil_mode``, ``count_include_pad`` and
    ``divisor_override`` (``ops.avg_pool``).

    >>> out = mint.nn.functional.avg_pool2d(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)), 2)
    """
    return _avg_pool("avg_pool2d", 2, input, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """3-D average pooling of (N, C, D, H, W) input (``stride`` None: the kernel size).

    >>> out = mint.nn.functional.avg_pool3d(ms.Tensor(np.ones((1, 1, 2, 2, 2), np.float32)), 2)
    """
    return _avg_pool("avg_pool3d", 3, input, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d``: each value placed at its flat index in a zero plane
    (``ops.max_unpool2d``; ``output_size`` to choose the plane's size).

    >>> out = mint.nn.functional.max_unpool2d(ms.Tensor([[[[5.]]]]), ms.Tensor([[[[3]]]]), 2)
    """
    return ops.max_unpool2d(input, indices, kernel_size, _stride(stride), padding,
                            output_size)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum sliding blocks (N, C*kh*kw, L) or (C*kh*kw, L) back into an (N, C, H, W)
    image: the adjoint of ``unfold`` (the window primitive's transpose, ``fold_p``).

    >>> out = mint.nn.functional.fold(ms.Tensor(np.ones((1, 4, 4), np.float32)), (3, 3), 2)
    """
    batched = input.ndim == 3
    x = input if batched else ops.unsqueeze(input, 0)
    if x.ndim != 3:
        raise ValueError(f"fold: expected a 2-D or 3-D input, got shape {tuple(input.shape)}")
    oh, ow = _pair(output_size)
    kh, kw = _pair(kernel_size)
    dh, dw = _pair(dilation)
    ph, pw = _pair(padding)
    sh, sw = _pair(stride)
    n, ckk, length = x.shape
    if ckk % (kh * kw):
        raise ValueError(f"fold: input's second dimension {ckk} is not divisible by the "
                         f"kernel size {kh * kw}")
    c = ckk // (kh * kw)
    bh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    bw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if bh * bw != length:
        raise ValueError(f"fold: expected {bh * bw} blocks for output size {output_size}, "
                         f"got {length}")
    # (N, C*kh*kw, L) -> the window primitive's layout (N, C, OH, OW, kh, kw)
    cols = ops.transpose(ops.reshape(x, (n, c, kh, kw, bh, bw)), (0, 1, 4, 5, 2, 3))
    out = _fold_p.bind(cols, x_shape=(n, c, oh, ow), kernel=(kh, kw), stride=(sh, sw),
                      padding=(ph, ph, pw, pw), dilation=(dh, dw))
    return out if batched else ops.squeeze(out, 0)


def adaptive_avg_pool1d(input, output_size):
    """1-D adaptive average pooling of (N, C, L) or (C, L) input to ``output_size`` bins.

    >>> out = mint.nn.functional.adaptive_avg_pool1d(ms.Tensor(np.ones((1, 1, 6), np.float32)), 4)
    """
    return _adaptive.adaptive_pool("adaptive_avg_pool1d", input, output_size, 1, "avg",
                                   unbatched=True)


def adaptive_avg_pool2d(input, output_size):
    """2-D adaptive average pooling to ``output_size`` (None keeps that input size).

    >>> out = mint.nn.functional.adaptive_avg_pool2d(ms.Tensor(np.ones((1, 1, 7, 7), np.float32)), 3)
    """
    return ops.adaptive_avg_pool2d(input, output_size)


def adaptive_avg_pool3d(input, output_size):
    """3-D adaptive average pooling of (N, C, D, H, W) input to ``output_size``.

    >>> out = mint.nn.functional.adaptive_avg_pool3d(ms.Tensor(np.ones((1, 1, 4, 5, 6), np.float32)), 3)
    """
    return ops.adaptive_avg_pool3d(input, output_size)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """2-D adaptive max pooling; ``return_indices`` adds the int64 flat index of each
    maximum in its input plane.

    >>> out = mint.nn.functional.adaptive_max_pool2d(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)), 2)
    """
    return ops.adaptive_max_pool2d(input, output_size, return_indices)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """1-D adaptive max pooling of (N, C, L) or (C, L) input; ``return_indices`` adds the
    int64 index of each maximum.

    >>> out = mint.nn.functional.adaptive_max_pool1d(ms.Tensor(np.ones((1, 1, 6), np.float32)), 3)
    """
    return _adaptive.adaptive_pool("adaptive_max_pool1d", input, output_size, 1, "max",
                                   bool(return_indices), unbatched=True)
