"""Operations on any column (MindSpore's ``dataset.transforms``): Fill, Concatenate,
Duplicate, Mask, Slice, PadEnd and Unique, on NumPy arrays."""
import enum
import numbers

import numpy as np

from ... import dtype as dt

__all__ = ["Relational", "Fill", "Concatenate", "Duplicate", "Mask", "Slice", "PadEnd",
           "Unique"]

_SCALARS = (str, bytes, numbers.Number, np.generic)


def _is_text(array):
    return array.dtype.kind in "USO"


class Relational(enum.Enum):
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less,
            Relational.LE: np.less_equal}


class Fill:
    """Every element set to ``fill_value``, cast to the column's dtype."""

    def __init__(self, fill_value):
        if isinstance(fill_value, (list, tuple, dict)) or not isinstance(fill_value, _SCALARS):
            raise TypeError(f"Fill: argument fill_value with value {fill_value!r} is not of "
                            f"type str, float, bool, int or bytes")
        self.fill_value = fill_value

    def __call__(self, array):
        array = np.asarray(array)
        if isinstance(self.fill_value, (str, bytes)) != _is_text(array):
            raise RuntimeError(f"Fill: fill_value and the input tensor must be of the same "
                               f"data type when involving strings or bytes, got "
                               f"{type(self.fill_value).__name__} and {array.dtype}")
        return np.full(array.shape, np.asarray(self.fill_value).astype(array.dtype),
                       array.dtype)


def _vector(value, name, who):
    if value is None:
        return None
    value = np.asarray(value)
    if value.ndim != 1:
        raise ValueError(f"{who}: {name} must be a 1-D array, got shape {value.shape}")
    return value


class Concatenate:
    """``prepend + column + append`` along the only axis of a 1-D column (same dtypes)."""

    def __init__(self, axis=0, prepend=None, append=None):
        who = "Concatenate"
        if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
            raise TypeError(f"{who}: axis must be an int, got {axis!r}")
        if axis not in (0, -1):
            raise ValueError(f"{who}: only 1D concatenation supported, got axis {axis}")
        self.prepend = _vector(prepend, "prepend", who)
        self.append = _vector(append, "append", who)

    def __call__(self, array):
        array = np.asarray(array)
        if array.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1D input supported, got shape {array.shape}")
        parts = []
        for name, part in (("prepend", self.prepend), ("input", array),
                           ("append", self.append)):
            if part is None:
                continue
            if name != "input" and (part.dtype != array.dtype
                                    and not (_is_text(part) and _is_text(array))):
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} "
                                   f"datatype, got input datatype: {array.dtype}, {name} "
                                   f"datatype: {part.dtype}")
            parts.append(part)
        return np.concatenate(parts)


class Duplicate:
    """The column and a copy of it (two output columns)."""

    def __call__(self, array):
        array = np.asarray(array)
        return array, array.copy()


class Mask:
    """``column <operator> constant`` element-wise, as ``dtype`` (bool by default)."""

    def __init__(self, operator, constant, dtype=dt.bool_):
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: argument operator with value {operator!r} is not of type "
                            f"Relational")
        if not isinstance(constant, _SCALARS):
            raise TypeError(f"Mask: argument constant with value {constant!r} is not of type "
                            f"str, float, bool, int or bytes")
        self.operator, self.constant = operator, constant
        self.dtype = dt.as_dtype(dtype)

    def __call__(self, array):
        array = np.asarray(array)
        if isinstance(self.constant, (str, bytes)) != _is_text(array):
            raise RuntimeError(f"Mask: the constant and the input must both be strings or "
                               f"both numbers, got {type(self.constant).__name__} and "
                               f"{array.dtype}")
        return _COMPARE[self.operator](array, self.constant).astype(self.dtype)


def _index(item, who):
    if item is None or item is Ellipsis:
        return slice(None)
    if isinstance(item, slice):
        return item
    if isinstance(item, numbers.Integral) and not isinstance(item, bool):
        return [int(item)]
    if isinstance(item, list) and all(isinstance(i, numbers.Integral)
                                      and not isinstance(i, bool) for i in item):
        return [int(i) for i in item]
    raise TypeError(f"{who}: each slice must be an int, a list of ints, a slice, None or "
                    f"Ellipsis, got {item!r}")


class Slice:
    """Select along each axis: an int or list of ints (indices, the axis kept), a slice,
    None or Ellipsis (all of it)."""

    def __init__(self, *slices):
        if not slices:
            raise TypeError("Slice: give at least one slice")
        self.slices = [_index(s, "Slice") for s in slices]

    def __call__(self, array):
        array = np.asarray(array)
        if len(self.slices) > array.ndim:
            raise RuntimeError(f"Slice: {len(self.slices)} slices for an array of rank "
                               f"{array.ndim}")
        out = array
        for axis, index in enumerate(self.slices):
            if isinstance(index, list):
                size = array.shape[axis]
                if any(not -size <= i < size for i in index):
                    raise RuntimeError(f"Slice: index out of range for axis {axis} of size "
                                       f"{size}: {index}")
            out = out[(slice(None),) * axis + (index,)]
        return out


class PadEnd:
    """Pad (with ``pad_value``; 0 or '' when None) or cut each axis at its end to
    ``pad_shape`` (None keeps that axis)."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, list):
            raise TypeError(f"PadEnd: argument pad_shape with value {pad_shape!r} is not of "
                            f"type list")
        for d in pad_shape:
            if d is not None and (isinstance(d, bool) or not isinstance(d, numbers.Integral)
                                  or d <= 0):
                raise ValueError(f"PadEnd: pad_shape must hold positive ints or None, got "
                                 f"{pad_shape!r}")
        if pad_value is not None and not isinstance(pad_value, _SCALARS):
            raise TypeError(f"PadEnd: pad_value must be a number, str or bytes, got "
                            f"{pad_value!r}")
        self.pad_shape, self.pad_value = pad_shape, pad_value

    def __call__(self, array):
        array = np.asarray(array)
        if len(self.pad_shape) != array.ndim:
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} does not match the rank "
                               f"of the input {array.shape}")
        shape = tuple(s if d is None else d for s, d in zip(array.shape, self.pad_shape))
        value = self.pad_value
        if value is None:
            value = "" if _is_text(array) else 0
        out = np.full(shape, value, array.dtype)
        kept = tuple(slice(0, min(s, d)) for s, d in zip(array.shape, shape))
        out[kept] = array[kept]
        return out


class Unique:
    """The distinct elements in order of first appearance, each element's index into them
    (int32), and how often each occurs (int32)."""

    def __call__(self, array):
        array = np.asarray(array)
        if array.ndim == 0:
            raise RuntimeError("Unique: input must be at least 1-D, got a scalar")
        if _is_text(array):
            raise RuntimeError("Unique: the input must be numeric")
        flat = array.reshape(-1)
        values, first, inverse, counts = np.unique(flat, return_index=True,
                                                   return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return (values[order], rank[inverse.reshape(-1)].astype(np.int32),
                counts[order].astype(np.int32))
