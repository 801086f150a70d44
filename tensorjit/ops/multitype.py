"""MindSpore's ``MultitypeFuncGraph``, ``HyperMap`` and ``Map`` (``ops.composite``), as
MindSpore's optimizers and gradient-scaling code use them:

    _scale = C.MultitypeFuncGraph("scale")

    @_scale.register("Number", "Tensor")
    def _scale_tensor(s, grad):
        return grad * s

    grads = C.HyperMap()(F.partial(_scale, 0.5), grads)

They are plain Python dispatch: inside a jitted function they run at capture time, so the
tensor operations they reach become graph nodes."""
import functools

import numpy as np

from ..tensor import Tensor
from .sparse import tensors as _sparse


def _is_function(v):
    return callable(v) and not isinstance(v, (Tensor, type))


# MindSpore's type names, each with the Python values it matches
TYPE_NAMES = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "Number": lambda v: isinstance(v, (bool, int, float, np.number, np.bool_)),
    "Bool": lambda v: isinstance(v, (bool, np.bool_)),
    "Int": lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool),
    "UInt": lambda v: isinstance(v, np.unsignedinteger),
    "Float": lambda v: isinstance(v, (float, np.floating)),
    "String": lambda v: isinstance(v, str),
    "Tuple": lambda v: isinstance(v, tuple),
    "List": lambda v: isinstance(v, list),
    "Dictionary": lambda v: isinstance(v, dict),
    "None": lambda v: v is None,
    "Slice": lambda v: isinstance(v, slice),
    "Ellipsis": lambda v: v is Ellipsis,
    "Function": _is_function,
    "TypeType": lambda v: isinstance(v, (type, np.dtype)),
    "RowTensor": lambda v: isinstance(v, _sparse.RowTensorInner),
    "COOTensor": lambda v: isinstance(v, _sparse.COOTensor),
    "CSRTensor": lambda v: isinstance(v, _sparse.CSRTensor),
    "MapTensor": lambda v: False,       # no MapTensor here: its registrations never match
}


def _matcher(type_name):
    if isinstance(type_name, type):
        return lambda v: isinstance(v, type_name)
    if type_name not in TYPE_NAMES:
        raise TypeError(f"MultitypeFuncGraph.register: unknown type name {type_name!r} "
                        f"(known: {', '.join(TYPE_NAMES)}, or a Python class)")
    return TYPE_NAMES[type_name]


class MultitypeFuncGraph:
    """A function chosen by the types of its arguments, from the functions registered
    with ``register(*type_names)``; the first registration matching every argument runs."""

    def __init__(self, name, read_value=False, doc_url=""):
        self.name = name
        self.read_value = read_value
        self.entries = []          # (type names, matchers, function)

    def register(self, *type_names):
        matchers = tuple(_matcher(t) for t in type_names)

        def deco(fn):
            self.entries.append((type_names, matchers, fn))
            return fn
        return deco

    def __call__(self, *args):
        for names, matchers, fn in self.entries:
            if len(matchers) == len(args) and all(m(a) for m, a in zip(matchers, args)):
                return fn(*args)
        got = ", ".join(type(a).__name__ for a in args)
        known = "; ".join(f"({', '.join(map(str, names))})" for names, _, _ in self.entries)
        raise ValueError(f"For 'MultitypeFuncGraph' {self.name!r}, cannot find fn match given "
                         f"args ({got}); registered: {known or 'nothing'}")

    def __repr__(self):
        return f"MultitypeFuncGraph({self.name!r})"


def _map(fn, sequences, nested, reverse):
    first = next((s for s in sequences if isinstance(s, (tuple, list))), None)
    if first is None:
        return fn(*sequences)
    if not all(isinstance(s, (tuple, list)) for s in sequences):
        kinds = ", ".join(type(s).__name__ for s in sequences)
        raise TypeError(f"HyperMap / Map: the inputs must all be sequences or all not, got "
                        f"{kinds}")
    lengths = {len(s) for s in sequences}
    if len(lengths) != 1:
        raise ValueError(f"HyperMap / Map: the sequences have different lengths "
                         f"{sorted(lengths)}")
    indices = range(len(first))
    results = {}
    for i in (reversed(indices) if reverse else indices):
        items = [s[i] for s in sequences]
        results[i] = _map(fn, items, nested, reverse) if nested else fn(*items)
    return type(first)(results[i] for i in indices)


class HyperMap:
    """``HyperMap(ops=None, reverse=False)``: apply ``ops`` (or the first argument, when
    ``ops`` is None) to the elements of sequences, recursively into nested tuples and
    lists; the result has the sequences' structure. ``reverse`` applies it from the last
    element (the results keep their order)."""

    nested = True

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        fn, sequences = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not callable(fn):
            raise TypeError(f"{type(self).__name__}: the operation must be callable, got "
                            f"{type(fn).__name__}")
        return _map(fn, list(sequences), self.nested, self.reverse)


class Map(HyperMap):
    """``Map(ops=None, reverse=False)``: like HyperMap, one level deep."""

    nested = False


def partial(func, *args):
    """``F.partial``: ``func`` with its first arguments bound."""
    return functools.partial(func, *args)


def tuple_len(data):
    return len(data)


def make_tuple(*elements):
    return tuple(elements)


def tuple_getitem(data, index):
    return data[index]
