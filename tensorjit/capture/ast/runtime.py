"""The helpers converted code calls (``_tj.<name>`` in it; see transform.py).

Each one runs plain Python when its deciding value is a Python value or a constant, and
builds graph control flow (conditionals.py, loops.py) when it is a symbolic tensor. With no capture active
(a fallback statement running at call time) they are plain Python throughout.
"""
import builtins
import re
import sys
import types

from ...state import state
from ...ops import effects
from ...tensor import Tensor
from ..subgraph import SubCapture
from . import convert
from .conditionals import graph_if
from .loops import graph_while, graph_range_for, SymbolicRange
from .values import Undefined, is_symbolic, truth_value, to_bool_tensor
from .errors import Unsupported
from ..python_reads import mutation

convert._HELPER_CELL = types.CellType(sys.modules[__name__])


def _where(fn):
    code = fn.__code__
    return f"{code.co_filename}:{code.co_firstlineno}"


def _location(depth=2):
    frame = sys._getframe(depth)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _names(fn, skip=0):
    code = fn.__code__
    return code.co_varnames[skip:code.co_argcount]


# ---- variables ------------------------------------------------------------------------

def undefined(*names):
    return tuple(Undefined(n) for n in names)


def deleted(*names):
    """``del a, b``: the names are unbound from here on."""
    return tuple(Undefined(n, "it was deleted with 'del'") for n in names)


def retval(value):
    """The function's result: ``None`` if no ``return`` ran; a variable that is undefined
    on this path raises its error."""
    if type(value) is Undefined:
        if value.name == "_tj_ret":
            return None
        value._fail()
    return value


# ---- statements -----------------------------------------------------------------------

def if_stmt(cond, then_fn, else_fn, values):
    if is_symbolic(cond):
        return graph_if(cond, (lambda: then_fn(*values), lambda: else_fn(*values)),
                              _names(then_fn), _where(then_fn))
    return then_fn(*values) if cond else else_fn(*values)


def while_stmt(test, body, values):
    if state.capture is None:
        while test(*values):
            values = body(*values)
        return values
    while True:
        flag = test(*values)
        if is_symbolic(flag):
            return graph_while(test, body, values, _names(body), _where(body))
        if not flag:
            return values
        values = body(*values)


def for_stmt(iterable, extra_test, body, values):
    if isinstance(iterable, SymbolicRange):
        return graph_range_for(iterable, extra_test, body, values, _names(body, 1),
                                     _where(body))
    if state.capture is None:
        for item in iterable:
            if extra_test is not None and not extra_test(*values):
                break
            values = body(item, *values)
        return values
    names = _names(body, 1)
    for item in iterable:
        if extra_test is not None:
            flag = extra_test(*values)
            if is_symbolic(flag):
                # a break / return happened under a tensor condition: the remaining
                # (unrolled) iterations run only where it did not
                current = values
                values = graph_if(
                    flag, (lambda: body(item, *current), lambda: current), names, _where(body))
                continue
            if not flag:
                break
        values = body(item, *values)
    return values


# ---- expressions ----------------------------------------------------------------------

def ifexp(cond, then_thunk, else_thunk):
    if is_symbolic(cond):
        return graph_if(cond, (lambda: (then_thunk(),), lambda: (else_thunk(),)),
                              ("<conditional expression>",), _location())[0]
    return then_thunk() if cond else else_thunk()


def and_(value, *thunks):
    """``a and b and ...``; with a symbolic operand, a bool tensor (short-circuiting as
    graph control flow)."""
    for i, thunk in enumerate(thunks):
        if is_symbolic(value):
            rest = thunks[i:]
            return graph_if(
                value, (lambda: (truth_value(and_(rest[0](), *rest[1:])),),
                        lambda: (False,)), ("<and>",), _location())[0]
        if not value:
            return value
        value = thunk()
    return value


def or_(value, *thunks):
    for i, thunk in enumerate(thunks):
        if is_symbolic(value):
            rest = thunks[i:]
            return graph_if(
                value, (lambda: (True,),
                        lambda: (truth_value(or_(rest[0](), *rest[1:])),)),
                ("<or>",), _location())[0]
        if value:
            return value
        value = thunk()
    return value


def not_(value):
    if is_symbolic(value):
        from ... import ops
        return ops.logical_not(to_bool_tensor(value, "not"))
    return not value


# ---- calls ----------------------------------------------------------------------------

def call(f, *args, **kwargs):
    """``f(*args, **kwargs)`` in converted code: callees are converted too."""
    if state.capture is None:
        return f(*args, **kwargs)
    for a in args:
        if type(a) is Undefined:
            a._fail()
    if f is builtins.print:
        return print_(*args, **kwargs)
    changed = mutation(f)
    if changed is not None and _outside(changed):
        error = Unsupported(f"calling {f.__name__}() on a {type(changed).__name__} defined "
                            f"outside the function", _location(),
                            "a graph cannot change Python objects")
        error.state = changed           # (the function changes it: see PythonGuards)
        raise error
    if f is builtins.range and any(is_symbolic(a) for a in args):
        return _symbolic_range(*args)
    return convert.converted_callable(f)(*args, **kwargs)


def _outside(obj):
    """Whether ``obj`` is Python state from outside the function being captured: a global
    or closure value that converted code read (those are guarded)."""
    guards = getattr(state.capture, "python_guards", None)
    if guards is None:
        return False
    return any(getattr(g, "expected", None) is obj for g in guards.items.values())


def _symbolic_range(*args):
    if len(args) == 1:
        return SymbolicRange(0, args[0], 1)
    start, stop = args[0], args[1]
    step = args[2] if len(args) > 2 else 1
    if isinstance(step, Tensor):
        raise Unsupported("range() with a tensor step", _location(3))
    return SymbolicRange(start, stop, step)


_TOKEN = re.compile("\x00tj([0-9]+)\x00")


class _FormatToken:
    """A symbolic tensor inside an f-string: formats as a token that ``print`` turns back
    into the tensor's run-time value."""
    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor

    def __format__(self, spec):
        values = _format_values()
        values.append(self.tensor)
        return f"\x00tj{len(values) - 1}\x00"

    __str__ = __repr__ = lambda self: self.__format__("")


def _format_values():
    capture = state.capture
    values = getattr(capture, "format_values", None)
    if values is None:
        values = []
    return values


def fmt(value):
    if is_symbolic(value):
        return _FormatToken(value)
    return value


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """``print`` inside a graph: a print node, run on every call of the compiled function."""
    if state.capture is None:
        return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
    if file is not None:
        raise Unsupported("print(..., file=...)", _location(3))
    segments, tensors = [], []
    text = []

    def flush_text():
        if text:
            segments.append("".join(text))
            text.clear()

    for i, arg in enumerate(args):
        if i:
            text.append(str(sep))
        if isinstance(arg, Tensor) and is_symbolic(arg):
            flush_text()
            segments.append(None)
            tensors.append(arg)
        elif isinstance(arg, str) and "\x00tj" in arg:
            values = _format_values()
            position = 0
            for match in _TOKEN.finditer(arg):
                text.append(arg[position:match.start()])
                flush_text()
                segments.append(None)
                tensors.append(values[int(match.group(1))])
                position = match.end()
            text.append(arg[position:])
        else:
            text.append(str(arg))
    flush_text()
    effects.print_p.bind(*tensors, segments=tuple(segments), sep="", end=end)
    return None


# ---- checks ---------------------------------------------------------------------------

def assert_(test, message=None):
    if is_symbolic(test):
        raise Unsupported("'assert' on a tensor value", _location())
    if not test:
        if message is None:
            raise AssertionError
        raise AssertionError(message())


def check_raise(lineno):
    if isinstance(state.capture, SubCapture):
        frame = sys._getframe(1)
        raise Unsupported("'raise' inside tensor-dependent control flow",
                          f"{frame.f_code.co_filename}:{lineno}")


def unsupported(construct, lineno):
    if state.capture is not None:
        frame = sys._getframe(1)
        raise Unsupported(construct, f"{frame.f_code.co_filename}:{lineno}")
