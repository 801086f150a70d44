"""CPython 3.12: what differs from 3.11 (py311.py).

No ``PRECALL``; a method load is ``LOAD_ATTR`` with its low bit set; ``super().attr`` is
``LOAD_SUPER_ATTR``; ``RETURN_CONST``; slices have their own opcodes; jumps no longer say
their direction; comprehensions are inlined (``LOAD_FAST_AND_CLEAR`` saves the variable
they shadow); ``FOR_ITER`` skips the loop's ``END_FOR`` when the iterator is exhausted;
``+x`` and ``list -> tuple`` are intrinsics."""
import operator

from .py311 import Py311Opcodes
from .values import NULL, SeqIter


class Py312Opcodes(Py311Opcodes):
    """Opcode handlers for CPython 3.12."""

    def LOAD_ATTR(self, inst):
        value = self.read_attr(self.pop(), inst.argval)
        if inst.arg & 1:
            self.push_method(value)
        else:
            self.push(value)

    def LOAD_SUPER_ATTR(self, inst):
        # [super, class, self] -> super(class, self).name (a method pair with bit 0)
        obj = self.pop()
        cls = self.pop()
        super_fn = self.pop()
        value = self.read_attr(self.call_function(super_fn, [cls, obj], {}), inst.argval)
        if inst.arg & 1:
            self.push_method(value)
        else:
            self.push(value)

    def RETURN_CONST(self, inst):
        self.push(inst.argval)
        self.RETURN_VALUE(inst)

    def BINARY_SLICE(self, inst):
        end = self.pop()
        start = self.pop()
        container = self.pop()
        self.push(self.apply(operator.getitem, [container, self.apply(slice, [start, end])]))

    def STORE_SLICE(self, inst):
        end = self.pop()
        start = self.pop()
        container = self.pop()
        value = self.pop()
        for item in (value, container, self.apply(slice, [start, end])):
            self.push(item)
        self.STORE_SUBSCR(inst)

    LOAD_FAST_CHECK = Py311Opcodes.LOAD_FAST

    def LOAD_FAST_AND_CLEAR(self, inst):
        self.push(self.frame.locals.pop(inst.argval, NULL))

    def POP_JUMP_IF_TRUE(self, inst):
        self._pop_jump_if(inst, True)

    def POP_JUMP_IF_FALSE(self, inst):
        self._pop_jump_if(inst, False)

    def POP_JUMP_IF_NONE(self, inst):
        self._pop_jump_if_none(inst, True)

    def POP_JUMP_IF_NOT_NONE(self, inst):
        self._pop_jump_if_none(inst, False)

    # the loop's end: FOR_ITER jumps past these when the iterator is exhausted
    END_FOR_SKIPPED = ("END_FOR",)

    def FOR_ITER(self, inst):
        iterator = self.peek()
        try:
            item = iterator.next() if isinstance(iterator, SeqIter) else next(iterator)
        except StopIteration:
            self.pop()
            frame = self.frame
            frame.jump(inst.argval)
            for name in self.END_FOR_SKIPPED:
                if frame.ip < len(frame.insts) and frame.insts[frame.ip].opname == name:
                    frame.ip += 1
            return
        self.push(item)

    def END_FOR(self, inst):
        self.popn(2)

    _INTRINSICS = {5: operator.pos, 6: tuple}      # UNARY_POSITIVE, LIST_TO_TUPLE

    def CALL_INTRINSIC_1(self, inst):
        fn = self._INTRINSICS.get(inst.arg)
        if fn is None:
            self.unsupported(f"the intrinsic {inst.argrepr or inst.arg}")
        self.push(self.apply(fn, [self.pop()]))
