"""Values while graph control flow is built: undefined locals, a tensor's value in a
branch's graph, whether a value is symbolic, truth values, and how values are described in
errors. (conditionals.py and loops.py build the ``cond`` / ``while_loop`` nodes.)"""
import numbers

import numpy as np

from ... import dtype as dt
from ...aval import ShapedArray
from ...state import state
from ...tensor import Tensor, truth_value_error
from .. import python_errors
from ..base import CaptureError
from ..guards import same_value  # noqa: F401  (one meaning of "the same Python value")

INTERNAL_PREFIX = "tj$"          # (syntax.PREFIX: names of the rewrite)
MAX_LOOP_RETRACES = 8


class Undefined:
    """The value of a local variable that has not been assigned (on every path)."""
    __slots__ = ("name", "reason")

    def __init__(self, name, reason=None):
        self.name = name
        self.reason = reason

    _tj_unbound = True        # (ops.coerce: using it as an operand raises its error)

    def _fail(self, *args, **kwargs):
        raise python_errors.unbound_local(self.name, self.reason)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self):
        return f"<undefined {self.name}>"


for _method in ("__bool__", "__call__", "__iter__", "__len__", "__getitem__", "__setitem__",
                "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                "__truediv__", "__rtruediv__", "__floordiv__", "__mod__", "__pow__",
                "__matmul__", "__rmatmul__", "__neg__", "__pos__", "__abs__", "__lt__",
                "__le__", "__gt__", "__ge__", "__index__", "__int__", "__float__",
                "__and__", "__or__", "__invert__", "__contains__"):
    setattr(Undefined, _method, Undefined._fail)


class ControlFlowError(CaptureError):
    """Graph control flow cannot represent what a branch or loop does to a variable."""


# ---- values while building ------------------------------------------------------------

class _TensorLeaf:
    """A tensor in a branch's / body's result: the object and its value in that graph."""
    __slots__ = ("tensor", "value", "aval")

    def __init__(self, tensor, value):
        self.tensor, self.value, self.aval = tensor, value, value.aval


_PLACEHOLDER = object()       # an internal variable undefined in one branch


def _is_number(v):
    return isinstance(v, (bool, numbers.Number, np.generic)) and not isinstance(v, complex) \
        and not isinstance(v, Tensor)


def snapshot(capture, value):
    """``value`` with every tensor replaced by its value in ``capture``'s graph."""
    if isinstance(value, Tensor):
        return _TensorLeaf(value, capture.value_of(value))
    kind = type(value)
    if kind is tuple or kind is list:
        return kind(snapshot(capture, v) for v in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return kind(*(snapshot(capture, v) for v in value))
    if kind is dict:
        return {k: snapshot(capture, v) for k, v in value.items()}
    return value


def describe(value):
    if isinstance(value, _TensorLeaf):
        return f"a {value.aval} tensor"
    if isinstance(value, Tensor):
        return f"a {value.aval} tensor"
    if isinstance(value, Undefined):
        return "undefined"
    if _is_number(value):
        return f"the number {value!r}"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"{type(value).__name__} {value!r}"[:80]


def _number_aval(values):
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return ShapedArray((), np.dtype(np.bool_))
    if all(isinstance(v, (bool, int, np.integer, np.bool_)) for v in values):
        return ShapedArray((), np.dtype(dt.int64))
    return ShapedArray((), np.dtype(dt.float32))


# ---- predicates -----------------------------------------------------------------------

def to_bool_tensor(value, where="condition"):
    """A symbolic tensor as a 0-d bool tensor (recorded in the current capture)."""
    from ... import ops
    if value.size != 1:
        raise truth_value_error(value.shape)
    if value.shape != ():
        value = ops.reshape(value, ())
    if value.dtype != np.bool_:
        value = ops.not_equal(value, 0)
    return value


def truth_value(value, where="condition"):
    """``bool(value)`` for Python values, a 0-d bool tensor for symbolic ones."""
    if isinstance(value, Tensor) and is_symbolic(value):
        return to_bool_tensor(value, where)
    return bool(value)


def is_symbolic(value):
    if not isinstance(value, Tensor):
        return False
    capture = state.capture
    if capture is None:
        return False
    return not capture.is_constant(capture.value_of(value))
