"""Shape primitives (reshape, transpose, broadcast_to, concat, pad) and the functional
shape API built on them (squeeze, expand_dims, stack, split, flatten, tile, ...)."""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH, VIEW
from . import coerce
from . import reduction as _red
from . import batching
from ..tensor import Tensor


def _reshape_rule(x, shape):
    if math.prod(shape) != x.size or any(d < 0 for d in shape):
        raise ValueError(f"reshape: cannot reshape {x} (size {x.size}) into shape {shape}")
    return ShapedArray(shape, x.dtype)


def _reshape_batch(prim, dims, x, shape):
    x = batching.to_front(x, dims[0])
    return prim.bind(x, shape=(x.shape[0],) + shape), 0


reshape_p = Primitive("reshape", lambda x, shape: np.reshape(x, shape), _reshape_rule,
                      lambda ct, out, x, shape: (reshape(ct, x.shape),), shape_generic=False,
                      aliasing=VIEW, batch=_reshape_batch)


def _transpose_rule(x, perm):
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"transpose: {perm} is not a permutation of the axes of {x}")
    return ShapedArray(tuple(x.shape[p] for p in perm), x.dtype)


def _transpose_vjp(ct, out, x, perm):
    return (transpose_p.bind(ct, perm=tuple(int(i) for i in np.argsort(perm))),)


def _transpose_batch(prim, dims, x, perm):
    x = batching.to_front(x, dims[0])
    return prim.bind(x, perm=(0,) + tuple(p + 1 for p in perm)), 0


transpose_p = Primitive("transpose", lambda x, perm: np.transpose(x, perm), _transpose_rule,
                        _transpose_vjp, aliasing=VIEW, batch=_transpose_batch)


def _broadcast_rule(x, shape):
    lead = len(shape) - x.ndim
    ok = lead >= 0 and all(d == 1 or d == shape[lead + i] for i, d in enumerate(x.shape))
    if not ok:
        raise ValueError(f"broadcast_to: cannot broadcast {x} to shape {shape}")
    return ShapedArray(shape, x.dtype)


def _broadcast_batch(prim, dims, x, shape):
    x = batching.pad_rank(batching.to_front(x, dims[0]), len(shape))
    return prim.bind(x, shape=(x.shape[0],) + shape), 0


broadcast_to_p = Primitive("broadcast_to", lambda x, shape: np.broadcast_to(x, shape),
                           _broadcast_rule,
                           lambda ct, out, x, shape: (_red.sum_to(ct, x.shape),),
                           aliasing=VIEW, batch=_broadcast_batch)   # a read-only view


def _concat_rule(*xs, axis):
    first = xs[0]
    if not 0 <= axis < first.ndim:
        raise IndexError(f"concat: axis {axis} out of range for {first}")
    for x in xs[1:]:
        if x.dtype != first.dtype:
            raise TypeError(f"concat: dtypes differ ({first} and {x})")
        if x.ndim != first.ndim or any(a != b for i, (a, b) in enumerate(zip(x.shape, first.shape)) if i != axis):
            raise ValueError(f"concat: shapes {', '.join(str(t.shape) for t in xs)} do not "
                             f"match outside axis {axis}")
    size = sum(x.shape[axis] for x in xs)
    return first.update(shape=first.shape[:axis] + (size,) + first.shape[axis + 1:])


def _concat_vjp(ct, out, *xs, axis):
    grads, start = [], 0
    for x in xs:
        stop = start + x.shape[axis]
        grads.append(slice_axis(ct, axis, start, stop))
        start = stop
    return tuple(grads)


def _concat_batch(prim, dims, *xs, axis):
    size = batching.batch_size(xs, dims)
    return prim.bind(*[batching.materialize(x, d, size) for x, d in zip(xs, dims)],
                     axis=axis + 1), 0


concat_p = Primitive("concat", lambda *xs, axis: np.concatenate(xs, axis=axis), _concat_rule,
                     _concat_vjp, aliasing=FRESH, batch=_concat_batch)


def _pad_rule(x, pads, value):
    if len(pads) != x.ndim:
        raise ValueError(f"pad: {len(pads)} (before, after) pairs for {x}")
    if any(b < 0 or a < 0 for b, a in pads):
        raise ValueError(f"pad: negative padding {pads}")
    return x.update(shape=tuple(d + b + a for d, (b, a) in zip(x.shape, pads)))


def _pad_vjp(ct, out, x, pads, value):
    from .indexing import getitem
    return (getitem(ct, tuple(slice(b, b + d) for (b, a), d in zip(pads, x.shape))),)


def _pad_batch(prim, dims, x, pads, value):
    return prim.bind(batching.to_front(x, dims[0]), pads=((0, 0),) + tuple(pads),
                     value=value), 0


pad_p = Primitive("pad", lambda x, pads, value: np.pad(x, pads, constant_values=value),
                  _pad_rule, _pad_vjp, aliasing=FRESH, batch=_pad_batch)


# ---------------------------------------------------------------------------------------
# functional API

def _resolve_shape(shape, size, op):
    shape = list(coerce.as_shape(shape, op))
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"{op}: only one dimension can be -1, got {tuple(shape)}")
    if unknown:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{op}: cannot reshape a tensor of size {size} into shape "
                             f"{tuple(shape)}")
        shape[unknown[0]] = size // known
    if math.prod(shape) != size:
        raise ValueError(f"{op}: cannot reshape a tensor of size {size} into shape "
                         f"{tuple(shape)}")
    return tuple(shape)


def reshape(input, shape, *more):
    x = coerce.as_tensor(input, op="reshape")
    if more:
        shape = (shape,) + more
    shape = _resolve_shape(shape, x.size, "reshape")
    if shape == tuple(x.shape):
        coerce.shape_decision()
        return x
    return reshape_p.bind(x, shape=shape)


def transpose(input, *perm):
    """Permute axes (MindSpore's ``ops.transpose(x, perm)``); no perm reverses them."""
    x = coerce.as_tensor(input, op="transpose")
    if len(perm) == 1 and isinstance(perm[0], (tuple, list)):
        perm = perm[0]
    if not perm:
        perm = tuple(reversed(range(x.ndim)))
    perm = tuple(coerce.normalize_axis(int(p), x.ndim, "transpose") for p in perm)
    if perm == tuple(range(x.ndim)):
        coerce.shape_decision()
        return x
    return transpose_p.bind(x, perm=perm)


permute = transpose


def swapaxes(input, axis0, axis1):
    x = coerce.as_tensor(input, op="swapaxes")
    perm = list(range(x.ndim))
    a = coerce.normalize_axis(axis0, x.ndim, "swapaxes")
    b = coerce.normalize_axis(axis1, x.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, tuple(perm))


swapdims = swapaxes


def movedim(input, source, destination):
    x = coerce.as_tensor(input, op="movedim")
    src = coerce.normalize_axis(source, x.ndim, "movedim")
    dst = coerce.normalize_axis(destination, x.ndim, "movedim")
    perm = [i for i in range(x.ndim) if i != src]
    perm.insert(dst, src)
    return transpose(x, tuple(perm))


def broadcast_to(input, shape):
    x = coerce.as_tensor(input, op="broadcast_to")
    shape = coerce.as_shape(shape, "broadcast_to")
    lead = len(shape) - x.ndim
    if lead < 0:
        raise ValueError(f"broadcast_to: cannot broadcast shape {tuple(x.shape)} to "
                         f"{shape}, which has fewer dimensions")
    shape = tuple(x.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(shape))
    if shape == tuple(x.shape):
        coerce.shape_decision()
        return x
    return broadcast_to_p.bind(x, shape=shape)


def expand_dims(input, axis):
    x = coerce.as_tensor(input, op="expand_dims")
    axis = coerce.normalize_axis(axis, x.ndim + 1, "expand_dims")
    shape = tuple(x.shape)
    return reshape(x, shape[:axis] + (1,) + shape[axis:])


unsqueeze = expand_dims


def squeeze(input, axis=None):
    x = coerce.as_tensor(input, op="squeeze")
    if axis is None:
        shape = tuple(d for d in x.shape if d != 1)
    else:
        axes = coerce.normalize_axes(axis, x.ndim, "squeeze")
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(f"squeeze: axis {a} of shape {tuple(x.shape)} has size "
                                 f"{x.shape[a]}, not 1")
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return reshape(x, shape)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """MindSpore ``ops.flatten``: keeps the batch axis by default."""
    x = coerce.as_tensor(input, op="flatten")
    if x.ndim == 0:
        return reshape(x, (1,))
    start = coerce.normalize_axis(start_dim, x.ndim, "flatten")
    end = coerce.normalize_axis(end_dim, x.ndim, "flatten")
    shape = tuple(x.shape)
    return reshape(x, shape[:start] + (-1,) + shape[end + 1:])


def ravel(input):
    return reshape(input, (-1,))


def _tensor_list(tensors, op):
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"{op}: expected a non-empty tuple or list of tensors")
    items = [coerce.as_tensor(t, op=op) for t in tensors]
    dtype = items[0].dtype
    for t in items[1:]:
        dtype = dt.promote_types(dtype, t.dtype)
    from .elementwise import cast
    return [t if t.dtype == dtype else cast(t, dtype) for t in items]


def concat(tensors, axis=0):
    items = _tensor_list(tensors, "concat")
    axis = coerce.normalize_axis(axis, items[0].ndim, "concat")
    if len(items) == 1:
        return items[0]
    return concat_p.bind(*items, axis=axis)


cat = concat


def stack(tensors, axis=0):
    items = _tensor_list(tensors, "stack")
    shapes = {tuple(t.shape) for t in items}
    if len(shapes) != 1:
        raise ValueError(f"stack: all tensors must have the same shape, got "
                         f"{[tuple(t.shape) for t in items]}")
    axis = coerce.normalize_axis(axis, items[0].ndim + 1, "stack")
    return concat([expand_dims(t, axis) for t in items], axis)


def slice_axis(x, axis, start, stop, step=1):
    from .indexing import getitem
    return getitem(x, (slice(None),) * axis + (slice(start, stop, step),))


def split(tensor, split_size_or_sections, axis=0):
    """MindSpore ``ops.split``: chunks of a given size, or a list of sizes."""
    x = coerce.as_tensor(tensor, op="split")
    axis = coerce.normalize_axis(axis, x.ndim, "split")
    length = x.shape[axis]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size <= 0:
            raise ValueError(f"split: split size must be positive, got {size}")
        # an empty axis gives one empty piece (NumPy, PyTorch)
        sizes = [size] * (length // size) + ([length % size] if length % size else []) or [0]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != length:
            raise ValueError(f"split: sections {sizes} do not add up to the axis length "
                             f"{length}")
    pieces, start = [], 0
    for s in sizes:
        pieces.append(slice_axis(x, axis, start, start + s))
        start += s
    return tuple(pieces)


def chunk(input, chunks, axis=0):
    x = coerce.as_tensor(input, op="chunk")
    if not isinstance(chunks, int) or chunks <= 0:
        raise ValueError(f"chunk: chunks must be a positive int, got {chunks!r}")
    length = x.shape[coerce.normalize_axis(axis, x.ndim, "chunk")]
    return split(x, max(1, -(-length // chunks)), axis)


def unbind(input, dim=0):
    x = coerce.as_tensor(input, op="unbind")
    if x.ndim == 0:
        raise ValueError("unbind: expected a tensor of rank >= 1, got a 0-d tensor")
    axis = coerce.normalize_axis(dim, x.ndim, "unbind")
    if x.shape[axis] == 0:        # no pieces (split would give one empty piece)
        return ()
    return tuple(squeeze(piece, axis) for piece in split(x, 1, axis))


def tile(input, dims):
    x = coerce.as_tensor(input, op="tile")
    dims = coerce.as_shape(dims, "tile")
    if any(d < 0 for d in dims):
        raise ValueError(f"tile: repetitions must be non-negative, got {dims}")
    if len(dims) < x.ndim:
        dims = (1,) * (x.ndim - len(dims)) + dims
    x = reshape(x, (1,) * (len(dims) - x.ndim) + tuple(x.shape))
    expanded = broadcast_to(reshape(x, sum(((1, d) for d in x.shape), ())),
                            sum(((r, d) for r, d in zip(dims, x.shape)), ()))
    return reshape(expanded, tuple(r * d for r, d in zip(dims, x.shape)))


def repeat_interleave(input, repeats, axis=None):
    x = coerce.as_tensor(input, op="repeat_interleave")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = coerce.normalize_axis(axis, x.ndim, "repeat_interleave")
    if not isinstance(repeats, int):
        raise TypeError("repeat_interleave: only an int number of repeats is supported")
    if repeats < 0:
        raise ValueError(f"repeat_interleave: repeats must be non-negative, got {repeats}")
    shape = tuple(x.shape)
    expanded = broadcast_to(expand_dims(x, axis + 1),
                            shape[:axis + 1] + (repeats,) + shape[axis + 1:])
    return reshape(expanded, shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:])


def flip(input, dims):
    from .indexing import getitem
    x = coerce.as_tensor(input, op="flip")
    axes = coerce.normalize_axes(dims, x.ndim, "flip")
    return getitem(x, tuple(slice(None, None, -1) if i in axes else slice(None)
                            for i in range(x.ndim)))


# ops.pad's modes -> np.pad's name for the same index pattern ("symmetric": nn.Pad's and
# mirror_pad's mode, the edge element repeated)
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
             "circular": "wrap", "symmetric": "symmetric"}


def _mirror_axis(x, axis, before, after, mode):
    """Non-constant padding of one axis: a gather of the axis at NumPy's padded indices
    (``np.pad(arange(n), ..)``), so the gradient is gather's (a scatter-add)."""
    from .indexing import gather
    n = x.shape[axis]
    limit = n - 1 if mode == "reflect" else n     # reflect leaves out the edge element
    if mode in ("reflect", "symmetric") and max(before, after) > limit or n == 0:
        raise ValueError(f"pad: {mode} padding ({before}, {after}) of axis {axis} must be "
                         f"at most {limit} for its size {n}")
    index = np.pad(np.arange(n), (before, after), mode=_PAD_MODES[mode])
    return gather(x, coerce.constant(index.astype(np.int64)), axis)


def _pad_axes(x, pairs, mode="constant", value=None, op="pad"):
    """Pad ``x`` by one (before, after) pair per axis, from the first axis (nn.Pad's and
    np.pad's order); a negative constant padding crops."""
    from .indexing import getitem
    if mode not in _PAD_MODES:
        raise ValueError(f"{op}: mode must be one of {sorted(set(_PAD_MODES) - {'symmetric'})}, "
                         f"got {mode!r}")
    if mode != "constant" and value is not None:
        raise ValueError(f"{op}: the padding mode {mode!r} can not set value, got {value!r}")
    pairs = [(int(b), int(a)) for b, a in pairs]
    if mode == "constant":
        crop = tuple(slice(max(-b, 0), d - max(-a, 0)) for (b, a), d in zip(pairs, x.shape))
        if any(s.start or s.stop != d for s, d in zip(crop, x.shape)):
            if any(s.stop < s.start for s in crop):
                raise ValueError(f"{op}: negative padding {pairs} removes more than the input "
                                 f"shape {tuple(x.shape)}")
            x = getitem(x, crop)
        pads = tuple((max(b, 0), max(a, 0)) for b, a in pairs)
        if all(p == (0, 0) for p in pads):
            return x
        if value is None:
            value = 0
        elif dt.is_int(x.dtype) or x.dtype == dt.bool_:
            value = int(value)       # the fill takes the input's dtype (MindSpore)
        return pad_p.bind(x, pads=pads, value=value)
    if any(b < 0 or a < 0 for b, a in pairs):
        raise ValueError(f"{op}: {mode} padding must be non-negative, got {pairs}")
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            x = _mirror_axis(x, axis, before, after, mode)
    return x


def pad(input_x, padding, mode="constant", value=None):
    """Pad a tensor (MindSpore's ``ops.pad``).

    ``padding``: (before, after) pairs starting from the last axis, as in PyTorch
    (``(1, 2)`` pads the last axis, ``(1, 2, 0, 1)`` the last two). ``mode``: "constant"
    (``value``, default 0; a negative padding crops), "reflect" (mirror without the edge
    element: padding < the axis size), "replicate" (repeat the edge) or "circular" (wrap
    around). Any dtype; the result has the input's dtype. Difference from MindSpore: the
    non-constant modes take any rank >= the number of pairs (MindSpore wants exactly one
    or two leading axes more than the pairs, and at most 3 pairs).

    >>> import tensorjit as ms
    >>> print(ms.ops.pad(ms.Tensor([[1., 2., 3.]]), (2, 1), mode="reflect"))
    [[3. 2. 1. 2. 3. 2.]]
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f"pad: 'input_x' must be a Tensor, got {type(input_x).__name__}")
    x = input_x
    padding = coerce.as_shape(padding, "pad")
    if len(padding) % 2:
        raise ValueError(f"pad: the size of padding must be divisible by 2, got {tuple(padding)}")
    if len(padding) // 2 > x.ndim:
        raise ValueError(f"pad: padding {padding} holds {len(padding) // 2} (before, after) "
                         f"pairs, more than the {x.ndim} axes of the input")
    pairs = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        pairs[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    return _pad_axes(x, pairs, mode, value)


def mirror_pad(input_x, paddings, mode):
    """Mirror a tensor's edges (MindSpore's ``ops.mirror_pad`` / ``ops.MirrorPad``).

    ``paddings``: one (before, after) pair per axis from the first, a tuple or an int
    Tensor of shape (rank, 2). ``mode``: "REFLECT" (without the edge element: each padding
    < the axis size) or "SYMMETRIC" (with it: <= the axis size). Any dtype.

    >>> import tensorjit as ms
    >>> print(ms.ops.mirror_pad(ms.Tensor([[1, 2, 3]]), ((0, 0), (2, 2)), "SYMMETRIC"))
    [[2 1 1 2 3 3 2]]
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f"mirror_pad: 'input_x' must be a Tensor, got {type(input_x).__name__}")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"mirror_pad: mode must be 'REFLECT' or 'SYMMETRIC', got {mode!r}")
    pairs = np.asarray(paddings.tolist() if isinstance(paddings, Tensor) else paddings)
    if pairs.ndim != 2 or pairs.shape != (input_x.ndim, 2) or pairs.dtype.kind not in "iu":
        raise ValueError(f"mirror_pad: paddings must be ({input_x.ndim}, 2) ints, one "
                         f"(before, after) pair per axis, got {paddings!r}")
    return _pad_axes(input_x, pairs.tolist(), mode.lower(), op="mirror_pad")
