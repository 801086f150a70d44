"""CPython 3.13: what differs from 3.12 (py312.py).

Calls put the callable below ``self`` or NULL (``LOAD_GLOBAL`` and method loads push NULL
after the callable) and ``CALL_KW`` takes the keyword names from the stack; ``TO_BOOL``
precedes conditional jumps; pairs of local loads and stores are fused
(``LOAD_FAST_LOAD_FAST`` ...); f-strings use ``CONVERT_VALUE`` / ``FORMAT_SIMPLE`` /
``FORMAT_WITH_SPEC``; ``MAKE_FUNCTION`` takes only the code and
``SET_FUNCTION_ATTRIBUTE`` adds defaults and the closure; ``LOAD_FAST`` of a cell variable
loads the cell (``LOAD_CLOSURE`` is gone); ``END_FOR`` pops one value and a ``POP_TOP``
follows it."""
from .py312 import Py312Opcodes
from .values import NULL, Dynamic, is_tracer
from .interpreter import SegmentEnd
from .opcodes import _format_value
from .. import breaks


class Py313Opcodes(Py312Opcodes):
    """Opcode handlers for CPython 3.13."""

    def LOAD_GLOBAL(self, inst):
        self.push(self.read_global(inst.argval))
        if inst.arg & 1:                  # the NULL of a call, above the callable
            self.push(NULL)

    def push_method(self, bound):
        self.push(bound)
        self.push(NULL)

    def CALL(self, inst):
        self.call(inst.arg)

    def CALL_KW(self, inst):
        self.call(inst.arg, self.pop())

    def LOAD_FAST(self, inst):
        # LOAD_CLOSURE is now LOAD_FAST of the cell variable: it loads the cell itself
        frame = self.frame
        if inst.argval not in frame.locals and inst.argval in frame.cells:
            self.push(frame.cells[inst.argval])
        else:
            super().LOAD_FAST(inst)

    LOAD_FAST_CHECK = LOAD_FAST

    def TO_BOOL(self, inst):
        value = self.peek()
        if self.eager or not (is_tracer(value) or isinstance(value, Dynamic)):
            self.frame.stack[-1] = bool(value)
        # a run-time value stays as it is: the jump that follows decides on it

    def LOAD_FAST_LOAD_FAST(self, inst):
        for name in inst.argval:
            self.LOAD_FAST(_Named(name))

    def STORE_FAST_STORE_FAST(self, inst):
        for name in inst.argval:
            self.STORE_FAST(_Named(name))

    def STORE_FAST_LOAD_FAST(self, inst):
        store, load = inst.argval
        self.STORE_FAST(_Named(store))
        self.LOAD_FAST(_Named(load))

    _CONVERSIONS = {1: str, 2: repr, 3: ascii}

    def CONVERT_VALUE(self, inst):
        self._format(self._CONVERSIONS[inst.arg], "", "converting")

    def FORMAT_SIMPLE(self, inst):
        self._format(None, "", "formatting")

    def FORMAT_WITH_SPEC(self, inst):
        spec = self.pop()
        self._format(None, spec, "formatting")

    def _format(self, convert, spec, what):
        value = self.pop()
        if not self.eager and is_tracer(value):
            raise SegmentEnd("action", fn=_format_value, args=[value, convert, spec],
                             kwargs={}, break_kind=breaks.TENSOR_VALUE,
                             reason=f"{what} a tensor into a string reads its value",
                             location=self.location())
        self.push(self.apply(_format_value, [value, convert, spec]))

    def MAKE_FUNCTION(self, inst):
        code = self.pop()
        self.make_function(code, 0, code.co_qualname)

    _FUNCTION_ATTRIBUTES = {0x01: "__defaults__", 0x02: "__kwdefaults__",
                            0x04: "__annotations__", 0x08: "__closure__"}

    def SET_FUNCTION_ATTRIBUTE(self, inst):
        fn = self.pop()
        value = self.pop()
        name = self._FUNCTION_ATTRIBUTES[inst.arg]
        if name == "__closure__":          # read-only on a function: make it anew
            new = self._owned(type(fn)(fn.__code__, fn.__globals__, fn.__name__,
                                       fn.__defaults__, value))
            new.__qualname__, new.__kwdefaults__ = fn.__qualname__, fn.__kwdefaults__
            fn = new
        elif name != "__annotations__":
            setattr(fn, name, value)
        self.push(fn)

    END_FOR_SKIPPED = ("END_FOR", "POP_TOP")

    def END_FOR(self, inst):
        self.pop()


class _Named:
    """An instruction stand-in carrying one name (for the fused load/store opcodes)."""
    __slots__ = ("argval",)

    def __init__(self, argval):
        self.argval = argval
