"""Padding layers: ``nn.Pad`` (MindSpore's pairs-per-axis form) and the PyTorch-style
``ConstantPad{1,2,3}d``, ``ReflectionPad{1,2,3}d``, ``ReplicationPad{1,2,3}d`` and
``ZeroPad2d``, all made by one factory from the table ``LAYERS`` and computed by
``ops.pad`` / ``ops.mirror_pad``."""
import numbers

from ... import ops
from ..cell import Cell

__all__ = ["Pad", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad2d"]


class Pad(Cell):
    """Pad a tensor by one (before, after) pair per axis, from the first axis
    (MindSpore's ``nn.Pad``).

    Args:
        paddings (tuple of pairs of ints): one non-negative (before, after) pair per axis
            of the input (at most 4 axes).
        mode (str): "CONSTANT" (zeros), "REFLECT" (mirror without the edge element:
            padding < the axis size) or "SYMMETRIC" (with it: <= the axis size).
            Default "CONSTANT".

    The result has the input's dtype.

    >>> import tensorjit as ms
    >>> pad = ms.nn.Pad(((0, 0), (1, 2)), mode="SYMMETRIC")
    >>> print(pad(ms.Tensor([[1., 2., 3.]])))
    [[1. 1. 2. 3. 3. 2.]]
    """

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"Pad: 'mode' must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got "
                             f"{mode!r}")
        if not isinstance(paddings, tuple):
            raise TypeError(f"Pad: 'paddings' must be a tuple, got {type(paddings).__name__}")
        for pair in paddings:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(f"Pad: 'paddings' must hold (before, after) pairs, got "
                                 f"{paddings}")
            if any(not isinstance(p, numbers.Integral) or p < 0 for p in pair):
                raise ValueError(f"Pad: the paddings must be non-negative ints, got {paddings}")
        if len(paddings) > 4:
            raise ValueError(f"Pad: only paddings of up to 4 axes are supported, got "
                             f"{len(paddings)}")
        self.paddings = tuple(tuple(int(p) for p in pair) for pair in paddings)
        self.mode = mode

    def construct(self, x):
        if x.ndim != len(self.paddings):
            raise ValueError(f"Pad: the length of 'paddings' must equal the rank of the "
                             f"input, got {len(self.paddings)} vs {x.ndim}")
        if self.mode == "CONSTANT":
            flat = tuple(p for pair in reversed(self.paddings) for p in pair)
            return ops.pad(x, flat)
        return ops.mirror_pad(x, self.paddings, self.mode)


class _PadNd(Cell):
    """Padding of the last ``dims`` axes: ``padding`` an int (every side) or a tuple of
    ``2 * dims`` ints (last axis first, PyTorch's order)."""
    dims = 1
    mode = "constant"
    fixed_value = None        # ZeroPad2d: always 0

    def __init__(self, padding, value=None):
        super().__init__()
        name = type(self).__name__
        count = 2 * self.dims
        if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
            padding = (int(padding),) * count
        elif isinstance(padding, tuple):
            if len(padding) != count:
                raise ValueError(f"{name}: a 'padding' tuple must hold {count} ints, got "
                                 f"{len(padding)}")
            if not all(isinstance(p, numbers.Integral) and not isinstance(p, bool)
                       for p in padding):
                raise TypeError(f"{name}: 'padding' must hold ints, got {padding}")
        else:
            raise TypeError(f"{name}: 'padding' must be an int or a tuple, got "
                            f"{type(padding).__name__}")
        if self.mode != "constant" and any(p < 0 for p in padding):
            raise ValueError(f"{name}: 'padding' must be non-negative, got {padding}")
        if value is not None and (isinstance(value, bool) or
                                  not isinstance(value, numbers.Real)):
            raise TypeError(f"{name}: 'value' must be an int or a float, got {value!r}")
        self.padding = tuple(int(p) for p in padding)
        self.value = value

    def construct(self, x):
        if x.ndim < self.dims:
            raise ValueError(f"{type(self).__name__}: the input must have at least "
                             f"{self.dims} dimensions, got {x.ndim}")
        if self.mode == "constant":
            return ops.pad(x, self.padding, "constant", self.value)
        return ops.pad(x, self.padding, self.mode)


# class name -> (padded axes, ops.pad mode, takes a fill value)
LAYERS = {
    "ConstantPad1d": (1, "constant", True), "ConstantPad2d": (2, "constant", True),
    "ConstantPad3d": (3, "constant", True),
    "ReflectionPad1d": (1, "reflect", False), "ReflectionPad2d": (2, "reflect", False),
    "ReflectionPad3d": (3, "reflect", False),
    "ReplicationPad1d": (1, "replicate", False), "ReplicationPad2d": (2, "replicate", False),
    "ReplicationPad3d": (3, "replicate", False),
    "ZeroPad2d": (2, "constant", False),
}

_WHAT = {"constant": "with a constant ``value``", "reflect":
         "by reflection without the edge element (each padding < the axis size)",
         "replicate": "by repeating the edge element"}


def _layer(name, dims, mode, takes_value):
    fill = "with zeros" if name.startswith("Zero") else _WHAT[mode]
    example_args = "1, 0.5" if takes_value else "1"
    doc = f"""Pad the last {dims} ax{'is' if dims == 1 else 'es'} of a tensor {fill}
    (MindSpore's ``nn.{name}``).

    Args:
        padding (int or tuple of {2 * dims} ints): the padding of every side, or
            (before, after) pairs starting from the last axis (left, right{
                ', top, bottom' if dims > 1 else ''}{', front, back' if dims > 2 else ''}){'; negative values crop' if mode == 'constant' else ''}.{'''
        value (int or float): the fill value, cast to the input's dtype.''' if takes_value
                                                                           else ''}

    Input: at least {dims}-D; the result has the input's dtype.

    >>> import tensorjit as ms
    >>> print(ms.nn.{name}({example_args})(ms.ops.ones((1, 2{', 2' * dims}))).shape)
    (1, 2{', 4' * dims})
    """
    if takes_value:
        def __init__(self, padding, value):
            _PadNd.__init__(self, padding, value)
    else:
        def __init__(self, padding):
            _PadNd.__init__(self, padding, None)
    return type(name, (_PadNd,), {"__init__": __init__, "__doc__": doc, "dims": dims,
                                  "mode": mode, "__module__": __name__})


globals().update({name: _layer(name, *spec) for name, spec in LAYERS.items()})
