"""The globals and closure variables a function's Python code reads, found in its bytecode
without running it, as guards.

Trace capture records only primitives: a global (``SCALE``) or a closure variable the
function reads is baked into the graph as a constant. Without a guard, rebinding it would
replay the old value silently. These guards make the entry recompile instead. The reads
are the ``LOAD_GLOBAL`` / ``LOAD_DEREF`` names of the function, of the code nested in it
(comprehensions, lambdas), and of the user functions it reaches through those names, a
few calls deep. Modules are not guarded (rebinding ``np`` is vanishingly rare and every
guard costs the fast path); neither are builtins. ast and bytecode capture see each read
as it happens and guard it themselves.
"""
import dis
import types

from ..pytree import Identity, static_key
from .guards import CellGuard, GlobalGuard
from .user_code import is_user_code

MAX_DEPTH = 4            # how many calls deep through globals and closures to look


def read_guards(target):
    """Guards for the Python values that the user code of ``target`` (a function, a
    method or a Cell) reads by name."""
    guards, seen = {}, set()
    _visit(_function_of(target), guards, seen, 0)
    return list(guards.values())


def _function_of(target):
    from ..nn.cell import Cell
    if isinstance(target, Cell):
        return type(target).construct
    if isinstance(target, types.MethodType):
        return target.__func__
    return target


def _visit(fn, guards, seen, depth):
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType) or depth > MAX_DEPTH or \
            fn.__code__ in seen or not is_user_code(fn):
        return
    seen.add(fn.__code__)
    namespace = fn.__globals__
    for name in sorted(_global_loads(fn.__code__)):
        if name not in namespace or isinstance(namespace[name], types.ModuleType):
            continue
        value = namespace[name]
        key = ("global", id(namespace), name)
        if key not in guards:
            guards[key] = GlobalGuard(namespace, name, value, _by_identity(value),
                                      f"global {name!r} of {fn.__module__}")
        _visit(value, guards, seen, depth + 1)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        if name == "__class__":
            continue
        try:
            value = cell.cell_contents
        except ValueError:          # not assigned yet
            continue
        if isinstance(value, types.ModuleType):
            continue
        key = ("cell", id(cell))
        if key not in guards:
            guards[key] = CellGuard(cell, name, value, _by_identity(value),
                                    f"closure variable {name!r} of {fn.__qualname__}")
        _visit(value, guards, seen, depth + 1)


def _global_loads(code):
    names = {ins.argval for ins in dis.get_instructions(code)
             if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_loads(const)
    return names


def _by_identity(value):
    """Objects compared by identity are held weakly, so a compiled entry does not keep
    alive the Cells and functions it was built from."""
    try:
        return isinstance(static_key(value), Identity)
    except Exception:
        return True
