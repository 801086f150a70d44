"""Max unpooling over 1, 2 or 3 spatial axes (MindSpore's ``ops.max_unpool1d``,
``max_unpool2d``, ``max_unpool3d``): the partial inverse of max pooling with
``return_indices``, each value written at its flat index into zeros of the output size.
One ``setitem`` into a zero (N, C, prod(output)) tensor, so the gradient with respect to
the values is the gather of the output gradient at the indices.
"""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from .creation import zeros
from .indexing import index_put_p
from .pool_windows import ints
from .pooling import spatial, unbatch
# ``ops.shape`` is a function once the package is imported: import the names
from .shape import expand_dims, reshape


def unpool_sizes(op, sizes, kernel, stride, padding, output_size):
    """The output's spatial sizes: ``(in - 1) * stride - 2 * padding + kernel`` per axis,
    or ``output_size`` (its last len(sizes) entries), at most one stride away from that."""
    default = tuple((n - 1) * s - 2 * p + k for n, k, s, p in zip(sizes, kernel, stride, padding))
    if output_size is None or (isinstance(output_size, (tuple, list)) and not output_size):
        out = default
    else:
        given = ints(output_size, len(sizes), "output_size", op,
                     allowed=(len(sizes), len(sizes) + 1, len(sizes) + 2))
        out = given[-len(sizes):]
        low = tuple(d - s for d, s in zip(default, stride))
        high = tuple(d + s for d, s in zip(default, stride))
        if any(not lo <= o <= hi for o, lo, hi in zip(out, low, high)):
            raise ValueError(f"{op}: 'output_size' {tuple(out)} must be between {low} and "
                             f"{high} (the default {default} -/+ the stride)")
    if any(o < 1 for o in out):
        raise ValueError(f"{op}: the padding {padding} leaves no output for input sizes "
                         f"{tuple(sizes)} and kernel {kernel}")
    return out


def max_unpool(op, x, indices, kernel_size, stride, padding, output_size, rank):
    x, drop = spatial(op, x, rank, unbatched=True)
    indices = coerce.as_tensor(indices, op=op)
    if indices.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"{op}: 'indices' must be an int32 or int64 tensor, got "
                        f"{indices.dtype}")
    if drop and indices.ndim == rank + 1:
        indices = expand_dims(indices, 0)
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"{op}: 'indices' of shape {tuple(indices.shape)} must have the "
                         f"input's shape {tuple(x.shape)}")
    kernel = ints(kernel_size, rank, "kernel_size", op)
    stride = kernel if stride is None else ints(stride, rank, "stride", op)
    padding = ints(padding, rank, "padding", op)
    if any(v < 1 for v in kernel + stride) or any(p < 0 for p in padding):
        raise ValueError(f"{op}: 'kernel_size' and 'stride' must be positive and 'padding' "
                         f"non-negative, got {kernel}, {stride}, {padding}")
    out = unpool_sizes(op, tuple(x.shape[2:]), kernel, stride, padding, output_size)
    n, c = x.shape[0], x.shape[1]
    inner = int(np.prod(x.shape[2:], dtype=np.int64))
    values = reshape(x, (n, c, inner))
    at = reshape(_ew.cast(indices, dt.int64), (n, c, inner))
    rows = coerce.constant(np.arange(n, dtype=np.int64).reshape(n, 1, 1))
    channels = coerce.constant(np.arange(c, dtype=np.int64).reshape(1, c, 1))
    flat = zeros((n, c, int(np.prod(out, dtype=np.int64))), x.dtype)
    flat = index_put_p.bind(flat, values, rows, channels, at, spec=(("t",),) * 3)
    return unbatch(reshape(flat, (n, c) + tuple(out)), drop)


_DOC = """Max unpooling of an (N, C, {axes}) or (C, {axes}) tensor: ``x`` written at
    ``indices`` (flat positions over the output's {flat}, as max pooling with
    ``return_indices`` gives them) into zeros, the rest 0.

    ``kernel_size``, ``stride`` (default: the kernel) and ``padding``: an int or {n} ints;
    the output is ``(in - 1) * stride - 2 * padding + kernel_size`` per axis, or
    ``output_size`` (the spatial sizes, or the whole shape), at most one stride away.
    ``indices``: int32 or int64 of ``x``'s shape; an index outside the output raises
    IndexError (a negative one counts from the end; MindSpore raises). Any dtype."""


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return max_unpool("max_unpool1d", x, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return max_unpool("max_unpool2d", x, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return max_unpool("max_unpool3d", x, indices, kernel_size, stride, padding, output_size, 3)


max_unpool1d.__doc__ = _DOC.format(axes="L", flat="L", n=1) + """

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[[5., 7.]]])
    >>> print(ms.ops.max_unpool1d(x, ms.Tensor([[[1, 2]]]), 2))
    [[[0. 5. 7. 0.]]]
    """
max_unpool2d.__doc__ = _DOC.format(axes="H, W", flat="H*W", n=2) + """

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[[[9.]]]])
    >>> print(ms.ops.max_unpool2d(x, ms.Tensor([[[[3]]]]), 2).reshape(-1))
    [0. 0. 0. 9.]
    """
max_unpool3d.__doc__ = _DOC.format(axes="D, H, W", flat="D*H*W", n=3) + """

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[[[[9.]]]]])
    >>> print(ms.ops.max_unpool3d(x, ms.Tensor([[[[[7]]]]]), 2).reshape(-1))
    [0. 0. 0. 0. 0. 0. 0. 9.]
    """
