"""What differs between the CPython versions bytecode capture follows (3.10 -- 3.13),
besides the opcode handlers (``py310.py`` ... ``py313.py``): which version runs, the
opcodes the interpreter does not follow (each with the reason ``explain`` shows), where an
instruction's line is, a code object's qualified name, and the cells a frame starts with.
"""
import dis
import sys
import types

SUPPORTED = ((3, 10), (3, 11), (3, 12), (3, 13))
RUNNING = sys.version_info[:2]


class UnsupportedPythonError(RuntimeError):
    """bytecode capture does not know this interpreter's bytecode."""


def check_version(version=None):
    version = version or RUNNING
    if version not in SUPPORTED:
        running = ".".join(map(str, version))
        known = ", ".join(".".join(map(str, v)) for v in SUPPORTED)
        raise UnsupportedPythonError(
            f"capture_mode='bytecode' follows the bytecode of CPython {known}, but this is "
            f"Python {running}; use capture_mode='ast' or capture_mode='trace', which do not "
            f"depend on the bytecode")


# ---- opcodes the interpreter does not follow -------------------------------------------
# A function using one of these runs as real Python (a graph break naming the reason).

_TRY = "try/except or with"
_GENERATOR = "a generator or coroutine"
_MATCH = "a match statement"
_NOT_IN_BYTECODE = "an opcode that never appears in a function's bytecode"
UNSUPPORTED_OPCODES = {
    # try / except / finally / with: the interpreter has no exception handlers
    # (RERAISE has a handler: it also ends 3.12's inlined-comprehension cleanup, which only
    # an exception reaches, and the interpreter never dispatches exceptions to handlers)
    "PUSH_EXC_INFO": _TRY, "POP_EXCEPT": _TRY, "CHECK_EXC_MATCH": _TRY,
    "CHECK_EG_MATCH": "except*", "PREP_RERAISE_STAR": "except*", "WITH_EXCEPT_START": _TRY,
    "BEFORE_WITH": "a with statement", "BEFORE_ASYNC_WITH": "an async with statement",
    "SETUP_FINALLY": _TRY, "SETUP_WITH": _TRY, "SETUP_ASYNC_WITH": _TRY, "POP_BLOCK": _TRY,
    "JUMP_IF_NOT_EXC_MATCH": _TRY, "CLEANUP_THROW": _GENERATOR,
    # generators and coroutines
    "YIELD_VALUE": _GENERATOR, "YIELD_FROM": _GENERATOR, "RETURN_GENERATOR": _GENERATOR,
    "GEN_START": _GENERATOR, "SEND": _GENERATOR, "END_SEND": _GENERATOR,
    "GET_AWAITABLE": "await", "GET_AITER": "async for", "GET_ANEXT": "async for",
    "END_ASYNC_FOR": "async for", "ASYNC_GEN_WRAP": _GENERATOR,
    "GET_YIELD_FROM_ITER": _GENERATOR, "SETUP_ANNOTATIONS": "annotations",
    # match statements, classes, module-level and interactive code
    "MATCH_CLASS": _MATCH, "MATCH_MAPPING": _MATCH, "MATCH_SEQUENCE": _MATCH,
    "MATCH_KEYS": _MATCH, "COPY_DICT_WITHOUT_KEYS": _MATCH,
    "LOAD_BUILD_CLASS": "a class definition", "LOAD_CLASSDEREF": "class-body code",
    "LOAD_LOCALS": "class-body code", "LOAD_FROM_DICT_OR_DEREF": "class-body code",
    "LOAD_FROM_DICT_OR_GLOBALS": "class-body code", "STORE_NAME": "module-level code",
    "LOAD_NAME": "module-level code", "DELETE_NAME": "del", "IMPORT_STAR": "import *",
    "PRINT_EXPR": "interactive code", "DELETE_GLOBAL": "del of a global",
    "DELETE_DEREF": "del of a closure variable", "CALL_INTRINSIC_2": "except* or type parameters",
    # internal to the interpreter loop (specialization, JIT, exit)
    "INTERPRETER_EXIT": _NOT_IN_BYTECODE, "ENTER_EXECUTOR": _NOT_IN_BYTECODE,
    "RESERVED": _NOT_IN_BYTECODE, "EXIT_INIT_CHECK": _NOT_IN_BYTECODE,
}


def unsupported_opcode_reason(opname):
    """Why the interpreter does not follow ``opname`` (None: it has a handler or should)."""
    reason = UNSUPPORTED_OPCODES.get(opname)
    if reason is not None:
        return reason
    if opname.startswith("INSTRUMENTED_"):
        return "instrumentation (sys.monitoring); never in a code object's bytecode"
    if dis.opmap.get(opname, 0) >= 256:
        return "a compiler pseudo-instruction; never in a code object's bytecode"
    return None


# ---- facts about code objects and instructions -------------------------------------------

def instruction_line(inst):
    """The source line an instruction starts, or None (3.10 marks only the first
    instruction of each line; later versions give every instruction a position)."""
    positions = getattr(inst, "positions", None)
    if positions is not None:
        return positions.lineno
    line = inst.starts_line
    return line if isinstance(line, int) and not isinstance(line, bool) else None


def qualname(code, func=None):
    """A code object's qualified name (``co_qualname`` exists since 3.11)."""
    name = getattr(code, "co_qualname", None)
    if name is None:
        name = getattr(func, "__qualname__", None) or code.co_name
    return name


def initial_cells(code, locals_):
    """Cells a new frame of ``code`` holds before its first instruction. Up to 3.10 the
    interpreter creates the cells of ``co_cellvars`` (an argument captured by an inner
    function moves into its cell); since 3.11 the ``MAKE_CELL`` opcode does."""
    if RUNNING >= (3, 11):
        return {}
    cells = {}
    for name in code.co_cellvars:
        cells[name] = types.CellType(locals_.pop(name)) if name in locals_ \
            else types.CellType()
    return cells
