"""Abstract values: what a value is known to be without its data (shape and dtype).

Primitive shape rules compute on these, the IR types every value with one, and the
cache keys on them.
"""
import math

from . import dtype as dt


class ShapedArray:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    def __eq__(self, other):
        return (isinstance(other, ShapedArray) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        return type_str(self.shape, self.dtype)

    def update(self, shape=None, dtype=None):
        return ShapedArray(self.shape if shape is None else shape,
                           self.dtype if dtype is None else dtype)


_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
          "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
          "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "bool"}


def short_dtype(dtype):
    return _SHORT.get(dtype.name, dtype.name)


def type_str(shape, dtype):
    return f"{short_dtype(dtype)}[{','.join(map(str, shape))}]"


def aval_of(array):
    return ShapedArray(array.shape, array.dtype)


def broadcast_shapes(op_name, *shapes):
    """NumPy broadcasting, with an error that names the op and the shapes."""
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for axis in range(ndim):
        size = 1
        for shape in shapes:
            pos = axis - (ndim - len(shape))
            if pos < 0:
                continue
            d = shape[pos]
            if d == 1:
                continue
            if size != 1 and d != size:
                raise ValueError(
                    f"{op_name}: shapes {' and '.join(str(tuple(s)) for s in shapes)} "
                    f"cannot be broadcast together (axis {axis - ndim}: {size} vs {d})")
            size = d
        result.append(size)
    return tuple(result)


def check_float(op_name, aval):
    if not dt.is_float(aval.dtype):
        raise TypeError(f"{op_name}: expected a floating-point tensor, got {aval}")
