"""Opcode handlers every supported CPython shares (3.10 -- 3.13), one method per opcode,
named after it. Each version's module (``py310.py`` ... ``py313.py``) adds the opcodes that
appeared or changed in it; ``versions.py`` lists those the interpreter does not follow."""
import operator
import types

from .values import NULL, Dynamic, SeqIter, is_tracer
from .interpreter import SegmentEnd, _Return
from . import calls
from .. import breaks


class CommonOpcodes:
    """Opcode handlers shared by every supported version."""

    # ---- no-ops and stack shuffling ----------------------------------------------------
    def NOP(self, inst):
        pass

    EXTENDED_ARG = NOP

    def POP_TOP(self, inst):
        self.pop()

    # ---- loads and stores ----------------------------------------------------------------
    def LOAD_CONST(self, inst):
        self.push(inst.argval)

    def LOAD_FAST(self, inst):
        try:
            self.push(self.frame.locals[inst.argval])
        except KeyError:
            raise UnboundLocalError(f"local variable {inst.argval!r} referenced before "
                                    f"assignment") from None

    def STORE_FAST(self, inst):
        value = self.pop()
        if value is NULL:        # restoring a variable that was unbound (3.12 comprehensions)
            self.frame.locals.pop(inst.argval, None)
        else:
            self.frame.locals[inst.argval] = value

    def DELETE_FAST(self, inst):
        del self.frame.locals[inst.argval]

    def LOAD_GLOBAL(self, inst):
        self.push(self.read_global(inst.argval))

    def STORE_GLOBAL(self, inst):
        value = self.pop()
        if self.eager:
            self.frame.globals[inst.argval] = value
            return
        raise SegmentEnd("action", fn=self.frame.globals.__setitem__,
                         args=[inst.argval, value], kwargs={}, discard=True,
                         break_kind=breaks.PYTHON_STATE,
                         reason=f"assignment to the global {inst.argval!r}",
                         location=self.location())

    def LOAD_CLOSURE(self, inst):
        self.push(self.frame.cells[inst.argval])

    def LOAD_DEREF(self, inst):
        self.push(self.read_cell(inst.argval))

    def STORE_DEREF(self, inst):
        cell = self.frame.cells[inst.argval]
        value = self.pop()
        if self.eager or id(cell) in self.segment.owned:
            cell.cell_contents = value
            return
        raise SegmentEnd("action", fn=_set_cell, args=[cell, value], kwargs={}, discard=True,
                         break_kind=breaks.PYTHON_STATE,
                         reason=f"assignment to the closure variable {inst.argval!r}",
                         location=self.location())

    def LOAD_ATTR(self, inst):
        self.push(self.read_attr(self.pop(), inst.argval))

    def LOAD_METHOD(self, inst):
        self.push_method(self.read_attr(self.pop(), inst.argval))

    def push_method(self, bound):
        """A method load leaves two values for the call: the bound attribute and NULL
        (3.13 puts NULL above the callable, earlier versions below it: ``call`` finds it
        either way)."""
        self.push(NULL)
        self.push(bound)

    def STORE_ATTR(self, inst):
        obj = self.pop()
        value = self.pop()
        if self.eager or not self.is_external(obj) or is_tracer(obj):
            setattr(obj, inst.argval, value)
            return
        raise SegmentEnd("action", fn=setattr, args=[obj, inst.argval, value], kwargs={},
                         discard=True, break_kind=breaks.PYTHON_STATE,
                         reason=f"setting the attribute {inst.argval!r} of an "
                         f"object from outside the function", location=self.location())

    def DELETE_ATTR(self, inst):
        obj = self.pop()
        if self.eager or not self.is_external(obj):
            delattr(obj, inst.argval)
            return
        raise SegmentEnd("action", fn=delattr, args=[obj, inst.argval], kwargs={},
                         discard=True, break_kind=breaks.PYTHON_STATE,
                         reason=f"deleting the attribute {inst.argval!r}",
                         location=self.location())

    # ---- subscripts ----------------------------------------------------------------------
    def BINARY_SUBSCR(self, inst):
        index = self.pop()
        container = self.pop()
        self.push(self.apply(operator.getitem, [container, index]))

    def STORE_SUBSCR(self, inst):
        index = self.pop()
        container = self.pop()
        value = self.pop()
        if self.eager or is_tracer(container) or not self.is_external(container):
            if is_tracer(container) and isinstance(value, Dynamic):
                value = self.segment.lift(value)
            container[index] = value
            return
        raise SegmentEnd("action", fn=operator.setitem, args=[container, index, value],
                         kwargs={}, discard=True, break_kind=breaks.PYTHON_STATE,
                         reason="item assignment on an object from "
                         "outside the function", location=self.location())

    def DELETE_SUBSCR(self, inst):
        index = self.pop()
        container = self.pop()
        if self.eager or not self.is_external(container):
            del container[index]
            return
        raise SegmentEnd("action", fn=operator.delitem, args=[container, index], kwargs={},
                         discard=True, break_kind=breaks.PYTHON_STATE,
                         reason="item deletion on an object from outside the "
                         "function", location=self.location())

    def BUILD_SLICE(self, inst):
        parts = self.popn(inst.arg)
        self.push(self.apply(slice, parts))

    # ---- operators -----------------------------------------------------------------------
    def COMPARE_OP(self, inst):
        right = self.pop()
        left = self.pop()
        self.push(self.apply(calls.COMPARISONS[inst.argval], [left, right]))

    def IS_OP(self, inst):
        right = self.pop()
        left = self.pop()
        if isinstance(left, Dynamic) or isinstance(right, Dynamic):
            fn = operator.is_not if inst.arg else operator.is_
            self.push(self.segment.prelude(fn, [left, right], {}))
            return
        self.push((left is not right) if inst.arg else (left is right))

    def CONTAINS_OP(self, inst):
        container = self.pop()
        item = self.pop()
        result = self.apply(operator.contains, [container, item])
        if inst.arg:
            result = self.apply(operator.not_, [result])
        self.push(result)

    def binary(self, fn):
        right = self.pop()
        left = self.pop()
        self.push(self.apply(fn, [left, right]))

    def UNARY_NEGATIVE(self, inst):
        self.push(self.apply(operator.neg, [self.pop()]))

    def UNARY_POSITIVE(self, inst):
        self.push(self.apply(operator.pos, [self.pop()]))

    def UNARY_INVERT(self, inst):
        self.push(self.apply(operator.invert, [self.pop()]))

    def UNARY_NOT(self, inst):
        value = self.pop()
        if not self.eager and is_tracer(value):
            raise SegmentEnd("action", fn=operator.not_, args=[value], kwargs={},
                             reason="'not' of a tensor reads its value",
                             break_kind=breaks.TENSOR_VALUE,
                             location=self.location())
        self.push(self.apply(operator.not_, [value]))

    # ---- building containers -------------------------------------------------------------
    def BUILD_TUPLE(self, inst):
        self.push(tuple(self.popn(inst.arg)))

    def BUILD_LIST(self, inst):
        self.push(self._owned(list(self.popn(inst.arg))))

    def BUILD_SET(self, inst):
        self.push(self._owned(set(self.popn(inst.arg))))

    def BUILD_MAP(self, inst):
        items = self.popn(2 * inst.arg)
        self.push(self._owned({items[i]: items[i + 1] for i in range(0, len(items), 2)}))

    def BUILD_CONST_KEY_MAP(self, inst):
        keys = self.pop()
        values = self.popn(inst.arg)
        self.push(self._owned(dict(zip(keys, values))))

    def BUILD_STRING(self, inst):
        parts = self.popn(inst.arg)
        self.push(self.apply(lambda *p: "".join(p), parts))

    def FORMAT_VALUE(self, inst):
        spec = self.pop() if inst.arg & 0x04 else ""
        value = self.pop()
        conversion = inst.arg & 0x03
        convert = {0: None, 1: str, 2: repr, 3: ascii}[conversion]
        if not self.eager and is_tracer(value):
            raise SegmentEnd("action", fn=_format_value, args=[value, convert, spec],
                             kwargs={}, break_kind=breaks.TENSOR_VALUE,
                             reason="formatting a tensor into a string reads its "
                             "value", location=self.location())
        self.push(self.apply(_format_value, [value, convert, spec]))

    def LIST_APPEND(self, inst):
        value = self.pop()
        self.peek(inst.arg).append(value)

    def SET_ADD(self, inst):
        value = self.pop()
        self.peek(inst.arg).add(value)

    def MAP_ADD(self, inst):
        value = self.pop()
        key = self.pop()
        self.peek(inst.arg)[key] = value

    # (pop first: the container is ``inst.arg`` deep once the operand is popped)
    def LIST_EXTEND(self, inst):
        items = self._materialize(self.pop())
        self.peek(inst.arg).extend(items)

    def SET_UPDATE(self, inst):
        items = self._materialize(self.pop())
        self.peek(inst.arg).update(items)

    def DICT_UPDATE(self, inst):
        items = self._specialize_mapping(self.pop())
        self.peek(inst.arg).update(items)

    def DICT_MERGE(self, inst):
        self.DICT_UPDATE(inst)

    def LIST_TO_TUPLE(self, inst):
        self.push(tuple(self.pop()))

    def _materialize(self, iterable):
        if isinstance(iterable, Dynamic):
            return list(self.segment.specialize(iterable, "unpacked"))
        if isinstance(iterable, SeqIter):
            return iterable.items[iterable.index:]
        if self.outside(iterable):       # ``for v in LOG``: its items as they are now
            self.guard_contents(iterable)
        return list(iterable)

    def _specialize_mapping(self, mapping):
        if isinstance(mapping, Dynamic):
            return self.segment.specialize(mapping, "unpacked mapping")
        return mapping

    def UNPACK_SEQUENCE(self, inst):
        items = self._materialize(self.pop())
        if len(items) != inst.arg:
            raise ValueError(f"cannot unpack {len(items)} values into {inst.arg}")
        for item in reversed(items):
            self.push(item)

    def UNPACK_EX(self, inst):
        before, after = inst.arg & 0xFF, inst.arg >> 8
        items = self._materialize(self.pop())
        if len(items) < before + after:
            raise ValueError(f"not enough values to unpack (expected at least "
                             f"{before + after}, got {len(items)})")
        rest = self._owned(items[before:len(items) - after])
        values = items[:before] + [rest] + items[len(items) - after:]
        for item in reversed(values):
            self.push(item)

    # ---- iteration ---------------------------------------------------------------------
    def GET_ITER(self, inst):
        iterable = self.pop()
        if isinstance(iterable, SeqIter):
            self.push(iterable)
            return
        if self.eager:
            self.push(iter(iterable))
            return
        self.push(SeqIter(self._materialize(iterable)))

    def FOR_ITER(self, inst):
        iterator = self.peek()
        try:
            item = iterator.next() if isinstance(iterator, SeqIter) else next(iterator)
        except StopIteration:
            self.pop()
            self.frame.jump(inst.argval)
            return
        self.push(item)

    def GET_LEN(self, inst):
        self.push(self.apply(len, [self.peek()]))

    # ---- jumps ---------------------------------------------------------------------------
    def JUMP_FORWARD(self, inst):
        self.frame.jump(inst.argval)

    def _pop_jump_if(self, inst, jump_if):
        value = self.pop()
        if self.truth(value, inst, jump_if) == jump_if:
            self.frame.jump(inst.argval)

    def _pop_jump_if_none(self, inst, jump_if_none):
        value = self.pop()
        if isinstance(value, Dynamic):
            value = self.segment.prelude(operator.is_, [value, None], {})
            self.push(value)
            self._pop_jump_if(inst, jump_if_none)
            return
        if (value is None) == jump_if_none:
            self.frame.jump(inst.argval)

    def _jump_or_pop(self, inst, jump_if):
        value = self.peek()
        if not self.eager and (is_tracer(value) or isinstance(value, Dynamic)):
            raise SegmentEnd("branch", value=value, target=inst.argval, jump_if=jump_if,
                             keep=True, reason="'and'/'or' on a run-time value",
                             break_kind=(breaks.TENSOR_VALUE if is_tracer(value)
                                   else breaks.RUNTIME_DECISION),
                             location=self.location())
        if bool(value) == jump_if:
            self.frame.jump(inst.argval)
        else:
            self.pop()

    def JUMP_IF_TRUE_OR_POP(self, inst):
        self._jump_or_pop(inst, True)

    def JUMP_IF_FALSE_OR_POP(self, inst):
        self._jump_or_pop(inst, False)

    # ---- calls and functions -------------------------------------------------------------
    def call(self, argc, kw_names=()):
        """A call whose two slots below the arguments hold the callable and NULL (either
        order) or a method and its ``self``; the last ``len(kw_names)`` arguments are
        keyword arguments."""
        args = self.popn(argc)
        upper = self.pop()
        lower = self.pop()
        if lower is NULL:
            fn = upper
        elif upper is NULL:
            fn = lower
        else:
            fn, args = lower, [upper] + args
        kwargs = {}
        if kw_names:
            kwargs = dict(zip(kw_names, args[len(args) - len(kw_names):]))
            args = args[:len(args) - len(kw_names)]
        self.push_result(self.call_function(fn, args, kwargs))

    def push_result(self, result):
        if result is not NULL:           # NULL: a frame was pushed to inline the callee
            self.push(result)

    def CALL_FUNCTION_EX(self, inst):
        kwargs = self._specialize_mapping(self.pop()) if inst.arg & 1 else {}
        args = self._materialize(self.pop())
        upper = self.pop()
        lower = self.pop()
        if lower is NULL:
            fn = upper
        elif upper is NULL:
            fn = lower
        else:
            fn, args = lower, [upper] + list(args)
        self.push_result(self.call_function(fn, list(args), dict(kwargs)))

    def make_function(self, code, flags, qualname):
        closure = self.pop() if flags & 0x08 else None
        if closure is None and code.co_freevars:     # 3.13 sets it later
            closure = tuple(types.CellType() for _ in code.co_freevars)
        if flags & 0x04:
            self.pop()                         # annotations
        kwdefaults = self.pop() if flags & 0x02 else None
        defaults = self.pop() if flags & 0x01 else None
        fn = types.FunctionType(code, self.frame.globals, code.co_name, defaults, closure)
        fn.__qualname__ = qualname
        if kwdefaults:
            fn.__kwdefaults__ = kwdefaults
        self.push(self._owned(fn))

    def RETURN_VALUE(self, inst):
        raise _Return(self.pop())

    def RERAISE(self, inst):
        # only an exception handler reaches it, and exceptions are never dispatched to
        # handlers here (they propagate): reached at all, this is a construct we lack
        self.unsupported("re-raising an exception")

    # ---- errors --------------------------------------------------------------------------
    def LOAD_ASSERTION_ERROR(self, inst):
        self.push(AssertionError)

    def RAISE_VARARGS(self, inst):
        values = self.popn(inst.arg)
        if inst.arg == 0:
            self.unsupported("a bare raise")
        exc = values[0]
        if inst.arg == 2:
            raise exc from values[1]
        raise exc

    # ---- imports -------------------------------------------------------------------------
    def IMPORT_NAME(self, inst):
        fromlist = self.pop()
        level = self.pop()
        self.push(__import__(inst.argval, self.frame.globals, None, fromlist, level))

    def IMPORT_FROM(self, inst):
        self.push(getattr(self.peek(), inst.argval))


def _set_cell(cell, value):
    cell.cell_contents = value


def _format_value(value, convert, spec):
    if convert is not None:
        value = convert(value)
    return format(value, spec)


