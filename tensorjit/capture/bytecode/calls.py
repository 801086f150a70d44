"""How the bytecode interpreter treats each kind of callable it meets.

    inline    user Python functions and user Cells' construct: follow their bytecode
    direct    tensorjit's own functions (ops, Tensor methods, nn layers, autodiff): call
              them with tracers; they record primitives
    pure      side-effect-free library functions: computed now on constants, or as
              prelude operations when given run-time values
    break     anything else -- unknown C/third-party code, print, reading a tensor's value,
              mutating Python objects from outside the function: a graph break; the call
              runs as real Python on every call
"""
import builtins
import collections
import operator
import types

import numpy as np

from ...tensor import Tensor
from ..user_code import is_internal_module
from .. import breaks

INLINE, DIRECT, PURE, BREAK = "inline", "direct", "pure", "break"

# builtins that may run directly even on tracers (they do not read tensor values)
STRUCTURAL_BUILTINS = {
    builtins.len, builtins.isinstance, builtins.issubclass, builtins.type, builtins.id,
    builtins.hasattr, builtins.getattr, builtins.callable, builtins.tuple, builtins.list,
    builtins.dict, builtins.set, builtins.frozenset, builtins.zip, builtins.enumerate,
    builtins.range, builtins.reversed, builtins.iter, builtins.next, builtins.slice,
    builtins.map, builtins.filter, builtins.sorted, builtins.min, builtins.max, builtins.sum,
    builtins.abs, builtins.all, builtins.any, builtins.divmod, builtins.pow, builtins.hash,
    builtins.object, builtins.super, builtins.property, builtins.staticmethod,
    builtins.classmethod, builtins.vars, builtins.dir, builtins.round,
}
# builtins that read a value: on a tracer they need the tensor's data
CONCRETIZING_BUILTINS = {builtins.bool, builtins.int, builtins.float, builtins.complex,
                         builtins.str, builtins.repr, builtins.format, builtins.ascii,
                         builtins.hex, builtins.oct, builtins.bin, builtins.chr, builtins.ord}
CONCRETIZING_METHODS = {"asnumpy", "numpy", "item", "tolist", "__bool__", "__int__",
                        "__float__", "__index__", "__array__", "__format__", "__str__",
                        "__repr__"}
_PURE_MODULES = ("math", "operator", "cmath", "numpy", "ml_dtypes", "functools",
                 "itertools", "string", "collections", "copy", "re")
_IMPURE_PREFIXES = ("numpy.random", "numpy.testing", "numpy.lib.npyio")
_NDARRAY_MUTATORS = {"fill", "sort", "put", "resize", "setfield", "itemset", "partition",
                     "setflags", "byteswap", "tofile", "dump"}
_READ_ONLY_CONTAINER_METHODS = {"get", "keys", "values", "items", "index", "count",
                                "copy", "__getitem__", "__contains__", "__len__"}


def _module_of(fn):
    module = getattr(fn, "__module__", None)
    if module is None and isinstance(fn, types.BuiltinMethodType):
        module = getattr(type(fn.__self__), "__module__", None)
    if module is None and isinstance(fn, np.ufunc):
        module = "numpy"
    return module or ""


def _pure_module(module):
    return module.split(".")[0] in _PURE_MODULES and not module.startswith(_IMPURE_PREFIXES)


def classify(fn, owned):
    """INLINE, DIRECT, PURE or BREAK for a callable that is a known constant."""
    if isinstance(fn, types.MethodType):
        target = fn.__func__
        if isinstance(target, types.FunctionType):
            return _python_function_kind(target)
        return classify(target, owned)
    if isinstance(fn, types.FunctionType):
        return _python_function_kind(fn)
    if isinstance(fn, type):
        if issubclass(fn, Tensor) or is_internal_module(fn.__module__):
            return DIRECT
        if fn.__module__ == "builtins" or _pure_module(fn.__module__):
            return PURE
        return DIRECT        # a user class: its __init__ runs as Python on the spot
    if fn in STRUCTURAL_BUILTINS or fn in CONCRETIZING_BUILTINS:
        return PURE
    if isinstance(fn, (types.BuiltinMethodType, types.MethodWrapperType)):
        owner = getattr(fn, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType):
            if id(owner) in owned:
                return DIRECT                      # mutating a container made here
            if isinstance(owner, type) and owner.__module__ == "builtins":
                return PURE                        # dict.fromkeys, int.from_bytes, ...
            if isinstance(owner, np.ndarray):
                return BREAK if fn.__name__ in _NDARRAY_MUTATORS else PURE
            if isinstance(owner, (str, bytes, tuple, int, float, frozenset)) or \
                    fn.__name__ in _READ_ONLY_CONTAINER_METHODS:
                return PURE
            return BREAK
    if isinstance(fn, functools_partial_type()):
        return classify(fn.func, owned)
    module = _module_of(fn)
    if is_internal_module(module):
        return DIRECT
    if _pure_module(module):
        return PURE
    return BREAK


def _python_function_kind(fn):
    """A function written in Python: tensorjit's runs on tracers; a pure library's
    (``np.eye``, ``math.comb`` written in Python) is computed like its C functions rather
    than followed into its implementation; any other is the user's: inlined."""
    module = fn.__module__ or ""
    if is_internal_module(module):
        return DIRECT
    return PURE if _pure_module(module) else INLINE


CONTAINERS = (list, dict, set, bytearray, collections.deque)


def outside_container(value, owned):
    """A mutable container the function did not make: Python state that may change
    between calls."""
    return isinstance(value, CONTAINERS) and id(value) not in owned


def functools_partial_type():
    import functools
    return functools.partial


def break_kind(fn):
    """The kind of graph break a call classified BREAK is (capture/breaks.py): a method
    of an outside object may change it (Python state); anything else is opaque code."""
    if isinstance(fn, (types.BuiltinMethodType, types.MethodWrapperType)):
        owner = getattr(fn, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType):
            return breaks.PYTHON_STATE
    return breaks.OPAQUE_CALL


def call_reason(fn):
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    module = _module_of(fn)
    where = f"{module}." if module and module != "builtins" else ""
    return f"call to {where}{name}"


PYTHON_OPERATORS = {
    0: operator.add, 1: operator.and_, 2: operator.floordiv, 3: operator.lshift,
    4: operator.matmul, 5: operator.mul, 6: operator.mod, 7: operator.or_, 8: operator.pow,
    9: operator.rshift, 10: operator.sub, 11: operator.truediv, 12: operator.xor,
    13: operator.iadd, 14: operator.iand, 15: operator.ifloordiv, 16: operator.ilshift,
    17: operator.imatmul, 18: operator.imul, 19: operator.imod, 20: operator.ior,
    21: operator.ipow, 22: operator.irshift, 23: operator.isub, 24: operator.itruediv,
    25: operator.ixor,
}
COMPARISONS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
               ">": operator.gt, ">=": operator.ge}
SKIP_GUARD_MODULES = ("tensorjit", "numpy", "math", "ml_dtypes", "builtins", "functools",
                      "itertools", "operator", "collections", "types", "typing")
# objects whose attributes cannot change: reading them needs no guard
IMMUTABLE_TYPES = (int, float, bool, str, bytes, tuple, frozenset, type(None), complex,
                   np.dtype, np.generic, range, slice)
