"""``ops.roll``: elements shifted cyclically along axes, as two slices joined back
together (so it differentiates and compiles like the slicing and concatenation it is)."""
from . import coerce
from . import shape as _shape


def _ints(value, name):
    items = value if isinstance(value, (tuple, list)) else (value,)
    if not items or any(isinstance(v, bool) or not isinstance(v, int) for v in items):
        raise TypeError(f"roll: '{name}' must be an int or a tuple of ints, got {value!r}")
    return tuple(items)


def _roll_axis(x, shift, axis):
    size = x.shape[axis]
    shift = shift % size if size else 0
    if shift == 0:
        return x
    head = _shape.slice_axis(x, axis, size - shift, size)
    tail = _shape.slice_axis(x, axis, 0, size - shift)
    return _shape.concat([head, tail], axis)


def roll(input, shifts, dims=None):
    """Shift the elements of ``input`` by ``shifts`` places along ``dims`` (an element
    leaving one end comes back at the other); with ``dims=None`` the tensor is rolled as
    if flattened, then takes its shape back.

    Args: ``shifts`` an int or a tuple of ints; ``dims`` None, an int or a tuple of ints
    as long as ``shifts`` (else ValueError). MindSpore 2.10 has no CPU kernel for it.

    >>> import tensorjit as ms
    >>> ms.ops.roll(ms.Tensor([1, 2, 3, 4]), 1).asnumpy().tolist()
    [4, 1, 2, 3]
    """
    x = coerce.as_tensor(input, op="roll")
    shifts = _ints(shifts, "shifts")
    if dims is None:
        if len(shifts) != 1:
            raise ValueError(f"roll: with dims=None 'shifts' must be one int, got {shifts}")
        flat = _shape.reshape(x, (-1,))
        return _shape.reshape(_roll_axis(flat, shifts[0], 0), tuple(x.shape))
    dims = _ints(dims, "dims")
    if len(dims) != len(shifts):
        raise ValueError(f"roll: 'shifts' ({len(shifts)} values) and 'dims' ({len(dims)} "
                         f"values) must have the same length")
    for shift, axis in zip(shifts, dims):
        x = _roll_axis(x, shift, coerce.normalize_axis(axis, x.ndim, "roll"))
    return x
