"""CPython 3.10: what differs from the shared handlers (opcodes.py).

Operators are one opcode each (``BINARY_ADD``, ``INPLACE_ADD``, ...); the stack is
shuffled with ``DUP_TOP`` / ``ROT_*``; calls are ``CALL_FUNCTION`` (a callable below its
arguments, no NULL slot), ``CALL_FUNCTION_KW`` (keyword names on top) and
``CALL_METHOD`` after ``LOAD_METHOD``; ``MAKE_FUNCTION`` finds the qualified name on the
stack; cells are created when the frame starts (versions.initial_cells)."""
import operator

from .opcodes import CommonOpcodes


def _binary(fn):
    def handler(self, inst):
        self.binary(fn)
    handler.__name__ = fn.__name__
    return handler


class Py310Opcodes(CommonOpcodes):
    """Opcode handlers for CPython 3.10."""

    BINARY_ADD, INPLACE_ADD = _binary(operator.add), _binary(operator.iadd)
    BINARY_SUBTRACT, INPLACE_SUBTRACT = _binary(operator.sub), _binary(operator.isub)
    BINARY_MULTIPLY, INPLACE_MULTIPLY = _binary(operator.mul), _binary(operator.imul)
    BINARY_TRUE_DIVIDE = _binary(operator.truediv)
    INPLACE_TRUE_DIVIDE = _binary(operator.itruediv)
    BINARY_FLOOR_DIVIDE = _binary(operator.floordiv)
    INPLACE_FLOOR_DIVIDE = _binary(operator.ifloordiv)
    BINARY_MODULO, INPLACE_MODULO = _binary(operator.mod), _binary(operator.imod)
    BINARY_POWER, INPLACE_POWER = _binary(operator.pow), _binary(operator.ipow)
    BINARY_MATRIX_MULTIPLY = _binary(operator.matmul)
    INPLACE_MATRIX_MULTIPLY = _binary(operator.imatmul)
    BINARY_LSHIFT, INPLACE_LSHIFT = _binary(operator.lshift), _binary(operator.ilshift)
    BINARY_RSHIFT, INPLACE_RSHIFT = _binary(operator.rshift), _binary(operator.irshift)
    BINARY_AND, INPLACE_AND = _binary(operator.and_), _binary(operator.iand)
    BINARY_OR, INPLACE_OR = _binary(operator.or_), _binary(operator.ior)
    BINARY_XOR, INPLACE_XOR = _binary(operator.xor), _binary(operator.ixor)

    # ---- stack shuffling ----------------------------------------------------------------
    def DUP_TOP(self, inst):
        self.push(self.peek())

    def DUP_TOP_TWO(self, inst):
        second, top = self.peek(2), self.peek()
        self.push(second)
        self.push(top)

    def ROT_N(self, inst, n=None):
        n = n or inst.arg
        stack = self.frame.stack
        stack[-n:] = [stack[-1]] + stack[-n:-1]

    def ROT_TWO(self, inst):
        self.ROT_N(inst, 2)

    def ROT_THREE(self, inst):
        self.ROT_N(inst, 3)

    def ROT_FOUR(self, inst):
        self.ROT_N(inst, 4)

    # ---- jumps (targets are byte offsets in ``argval`` on every version) ---------------
    JUMP_ABSOLUTE = CommonOpcodes.JUMP_FORWARD

    def POP_JUMP_IF_TRUE(self, inst):
        self._pop_jump_if(inst, True)

    def POP_JUMP_IF_FALSE(self, inst):
        self._pop_jump_if(inst, False)

    # ---- calls and functions ------------------------------------------------------------
    def CALL_FUNCTION(self, inst):
        args = self.popn(inst.arg)
        self.push_result(self.call_function(self.pop(), args, {}))

    def CALL_FUNCTION_KW(self, inst):
        names = self.pop()
        args = self.popn(inst.arg)
        fn = self.pop()
        kwargs = dict(zip(names, args[len(args) - len(names):]))
        self.push_result(self.call_function(fn, args[:len(args) - len(names)], kwargs))

    def CALL_METHOD(self, inst):
        self.call(inst.arg)

    def CALL_FUNCTION_EX(self, inst):
        kwargs = self._specialize_mapping(self.pop()) if inst.arg & 1 else {}
        args = self._materialize(self.pop())
        self.push_result(self.call_function(self.pop(), list(args), dict(kwargs)))

    def MAKE_FUNCTION(self, inst):
        qualname = self.pop()
        code = self.pop()
        self.make_function(code, inst.arg, qualname)
