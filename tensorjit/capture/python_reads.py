"""The globals and closure variables a function's Python code reads, found in its bytecode
without running it, as guards -- and the outside containers it changes (``LOG.append``).

Trace capture records only primitives: a global (``SCALE``) or a closure variable the
function reads is baked into the graph as a constant. Without a guard, rebinding it would
replay the old value silently. These guards make the entry recompile instead. The reads
are the ``LOAD_GLOBAL`` / ``LOAD_DEREF`` names of the function, of the code nested in it
(comprehensions, lambdas), and of the user functions it reaches through those names, a
few calls deep, guarded as ast guards what converted code reads (``guards.guard_names``);
builtins are not. ast and bytecode capture see each read as it happens and guard it
themselves. ``MUTATORS`` names the methods that change a list,
dict, set or deque in place: trace reports such calls on globals and closure values (its
graph cannot repeat them), ast runs them as Python (``ast/runtime.py``).
"""
import collections
import dis
import types

from .guards import guard_names
from .python_state import StateWatch
from .user_code import is_user_code

MAX_DEPTH = 4            # how many calls deep through globals and closures to look


class PythonReads:
    """What the user code of a traced target does with Python state by name: ``guards``
    on the values it reads, ``watch``, the mutable state those values lead to (lists,
    dicts, plain objects: ``python_state.py``), and ``writes``, the containers and globals
    it changes as ("LOG.append", "file:line"), which a graph cannot repeat."""

    def __init__(self):
        self.guards = {}
        self.writes = []
        self.watch = StateWatch()

    def all_guards(self):
        """The guards on names, then those on the contents of the state they lead to."""
        return list(self.guards.values()) + list(self.watch.guards().values())


def python_reads(target):
    """The ``PythonReads`` of ``target`` (a function, a method or a Cell), taken before it
    runs: the guards expect the values the code is about to read."""
    reads = PythonReads()
    _visit(_function_of(target), reads, set(), 0)
    for guard in list(reads.guards.values()):
        reads.watch.track(guard.expected, guard.label)
    return reads


def names_read(code):
    """(global names, free variable names) that ``code`` and the code nested in it load."""
    globals_, free = set(), set()
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            globals_.add(ins.argval)
        elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF"):
            free.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_globals, inner_free = names_read(const)
            globals_ |= inner_globals
            free |= inner_free
    return globals_, free


# methods that change a container in place
MUTATORS = {
    list: frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort",
                     "reverse", "__setitem__", "__delitem__", "__iadd__"}),
    dict: frozenset({"update", "pop", "popitem", "clear", "setdefault", "__setitem__",
                     "__delitem__"}),
    set: frozenset({"add", "update", "discard", "remove", "pop", "clear",
                    "difference_update", "intersection_update",
                    "symmetric_difference_update"}),
    collections.deque: frozenset({"append", "appendleft", "extend", "extendleft", "pop",
                                  "popleft", "clear", "remove", "rotate", "insert"}),
}


def mutation(method):
    """The container a bound method such as ``LOG.append`` changes in place, or None."""
    owner = getattr(method, "__self__", None)
    names = MUTATORS.get(type(owner))
    return owner if names and getattr(method, "__name__", None) in names else None


def _function_of(target):
    from ..nn.cell import Cell
    if isinstance(target, Cell):
        return type(target).construct
    if isinstance(target, types.MethodType):
        return target.__func__
    return target


def _visit(fn, reads, seen, depth):
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType) or depth > MAX_DEPTH or \
            fn.__code__ in seen or not is_user_code(fn):
        return
    seen.add(fn.__code__)
    for value in guard_names(fn, sorted(_global_loads(fn.__code__)), reads.guards):
        _visit(value, reads, seen, depth + 1)      # user functions reached by name
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    for name, method, line in _method_calls(fn.__code__):
        value = fn.__globals__.get(name) if name not in cells else _contents(cells[name])
        if method in MUTATORS.get(type(value), ()):
            reads.writes.append((f"{name}.{method}", f"{fn.__code__.co_filename}:{line}"))
    for name, line in _global_stores(fn.__code__):
        reads.writes.append((f"global {name}", f"{fn.__code__.co_filename}:{line}"))


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _method_calls(code):
    """(name, attribute, line) where the code loads a global or free variable and at once
    an attribute of it (``LOG.append``)."""
    found, previous, line = [], None, code.co_firstlineno
    for ins in dis.get_instructions(code):
        line = _line(ins) or line
        if previous is not None and ins.opname in ("LOAD_METHOD", "LOAD_ATTR"):
            found.append((previous, ins.argval, line))
        previous = ins.argval if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME",
                                                "LOAD_DEREF") else None
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += _method_calls(const)
    return found


def _global_stores(code, local_cells=frozenset()):
    """(name, line) where the code rebinds a global or a variable of a function enclosing
    it from outside (``global COUNT; COUNT += 1``, ``nonlocal``); ``local_cells``: the
    variables of the traced function itself, which nested code may rebind freely."""
    found, line = [], code.co_firstlineno
    for ins in dis.get_instructions(code):
        line = _line(ins) or line
        if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL") or (
                ins.opname in ("STORE_DEREF", "DELETE_DEREF")
                and ins.argval in code.co_freevars and ins.argval not in local_cells):
            found.append((ins.argval, line))
    inner = local_cells | frozenset(code.co_cellvars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += _global_stores(const, inner)
    return found


def _line(ins):
    positions = getattr(ins, "positions", None)          # 3.11+
    if positions is not None and positions.lineno:
        return positions.lineno
    start = ins.starts_line                                 # 3.10: the line number
    return start if isinstance(start, int) and not isinstance(start, bool) else None


def _global_loads(code):
    names = {ins.argval for ins in dis.get_instructions(code)
             if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_loads(const)
    return names
