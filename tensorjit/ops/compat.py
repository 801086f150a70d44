"""MindSpore functional names that are thin compositions of the other ops (and the
queries ``shape`` / ``rank`` / ``size``, which return Python values)."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from . import indexing as _idx
from . import linalg as _linalg
from .creation import full, full_like, arange


def _shape_for_user(input_x, op):
    """The shape of ``input_x``, handed to user code: a graph being captured that reads it
    serves only this shape (the value may become a constant in the graph)."""
    coerce.shape_decision()
    return tuple(coerce.as_tensor(input_x, op=op).shape)


def tensor_shape(input_x):
    """``ops.shape``: the shape as a tuple of ints."""
    return _shape_for_user(input_x, "shape")


def rank(input_x):
    """``ops.rank``: the number of dimensions."""
    return len(_shape_for_user(input_x, "rank"))


def size(input_x):
    """``ops.size``: the number of elements."""
    return int(np.prod(_shape_for_user(input_x, "size"), dtype=np.int64))


def unstack(input_x, axis=0):
    """Split along ``axis`` into a tuple of tensors without that axis."""
    return _shape.unbind(input_x, axis)


def select(condition, input, other):
    """``input`` where ``condition`` holds, else ``other``."""
    return _ew.where(condition, input, other)


def addn(x):
    """The elementwise sum of a tuple or list of tensors of one shape."""
    if not isinstance(x, (tuple, list)) or not x:
        raise TypeError("addn: expected a non-empty tuple or list of tensors")
    shapes = {tuple(coerce.as_tensor(t, op="addn").shape) for t in x}
    if len(shapes) != 1:
        raise ValueError(f"addn: the tensors must have one shape, got {sorted(shapes)}")
    total = x[0]
    for t in x[1:]:
        total = _ew.add(total, t)
    return coerce.as_tensor(total, op="addn")


def fill(type, shape, value):
    """``ops.fill(type, shape, value)``: a tensor of ``shape`` filled with ``value``."""
    return full(shape, value, dtype=type)


def fills(x, value):
    return full_like(x, value)


def gather_d(x, dim, index):
    return _idx.gather_elements(x, dim, index)


def sequence_mask(lengths, maxlen=None):
    """``mask[..., j] = j < lengths[...]`` (bool), ``maxlen`` columns (default: the
    largest length)."""
    lengths = coerce.as_tensor(lengths, op="sequence_mask")
    if not dt.is_int(lengths.dtype):
        raise TypeError(f"sequence_mask: lengths must be integers, got {lengths.dtype}")
    if maxlen is None:
        maxlen = int(np.max(lengths.asnumpy())) if lengths.size else 0
    positions = arange(int(maxlen), dtype=lengths.dtype)
    return _ew.lt(positions, _shape.expand_dims(lengths, -1))


def scalar_to_tensor(input_x, dtype=dt.float32):
    if not coerce.is_scalar(input_x):
        raise TypeError(f"scalar_to_tensor: expected a number, got {type(input_x).__name__}")
    return coerce.constant(input_x, dt.as_dtype(dtype))


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``."""
    product = _linalg.matmul(batch1, batch2)
    if alpha != 1:
        product = _ew.mul(product, alpha)
    if beta == 0:
        return product
    return _ew.add(input if beta == 1 else _ew.mul(input, beta), product)


def is_tensor(obj):
    return isinstance(obj, Tensor)
