"""CPython 3.11: what differs from the shared handlers (opcodes.py).

One ``BINARY_OP`` for every operator; ``COPY`` / ``SWAP``; calls are ``PUSH_NULL`` or a
method load, the callable, the arguments, ``KW_NAMES`` for keyword arguments, ``PRECALL``
and ``CALL``; ``LOAD_GLOBAL`` may push the NULL too; jumps say their direction; cells are
made by ``MAKE_CELL``."""
import types

from .values import NULL
from .opcodes import CommonOpcodes
from . import calls


class Py311Opcodes(CommonOpcodes):
    """Opcode handlers for CPython 3.11 (3.12 and 3.13 build on them)."""

    def RESUME(self, inst):
        pass

    PRECALL = CACHE = RESUME

    def PUSH_NULL(self, inst):
        self.push(NULL)

    def COPY(self, inst):
        self.push(self.peek(inst.arg))

    def SWAP(self, inst):
        stack = self.frame.stack
        stack[-1], stack[-inst.arg] = stack[-inst.arg], stack[-1]

    def LOAD_GLOBAL(self, inst):
        if inst.arg & 1:                  # the NULL of a call, below the callable
            self.push(NULL)
        self.push(self.read_global(inst.argval))

    def MAKE_CELL(self, inst):
        name = inst.argval
        cell = types.CellType(self.frame.locals.pop(name)) if name in self.frame.locals \
            else types.CellType()
        self._owned(cell)
        self.frame.cells[name] = cell

    def COPY_FREE_VARS(self, inst):
        pass        # the frame's cells already hold the closure

    def BINARY_OP(self, inst):
        self.binary(calls.PYTHON_OPERATORS[inst.arg])

    JUMP_BACKWARD = JUMP_BACKWARD_NO_INTERRUPT = CommonOpcodes.JUMP_FORWARD

    def POP_JUMP_FORWARD_IF_TRUE(self, inst):
        self._pop_jump_if(inst, True)

    def POP_JUMP_FORWARD_IF_FALSE(self, inst):
        self._pop_jump_if(inst, False)

    def POP_JUMP_FORWARD_IF_NONE(self, inst):
        self._pop_jump_if_none(inst, True)

    def POP_JUMP_FORWARD_IF_NOT_NONE(self, inst):
        self._pop_jump_if_none(inst, False)

    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_FORWARD_IF_TRUE
    POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_FORWARD_IF_FALSE
    POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_FORWARD_IF_NONE
    POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_FORWARD_IF_NOT_NONE

    def KW_NAMES(self, inst):
        self.frame.kw_names = self.frame.code.co_consts[inst.arg]

    def CALL(self, inst):
        names, self.frame.kw_names = self.frame.kw_names or (), None
        self.call(inst.arg, names)

    def MAKE_FUNCTION(self, inst):
        code = self.pop()
        self.make_function(code, inst.arg, code.co_qualname)
