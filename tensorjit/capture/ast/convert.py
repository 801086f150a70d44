"""Converting functions (cached by code object) and deciding what a call inside converted
code runs: the converted version of user functions, methods and ``Cell.construct``s, and
library code (tensorjit itself, the standard library, installed packages) as it is."""
import ast
import types

from ...state import state
from . import source, syntax, transform
from .errors import SourceUnavailableError
from ..user_code import is_user_code  # noqa: F401  (converted_callable; capture.py uses it)

_HELPER_CELL = None                  # set by runtime.py: a cell holding the runtime module
_WHOLE = {}                          # code -> _ConvertedCode (callee form)
_PROGRAM = {}                        # code -> _ConvertedProgram (segmented top-level form)
# code objects produced by conversion (never reconverted), by identity: code objects compare
# by content, and a converted function with nothing to rewrite equals the original's code
CONVERTED_CODES = {}


def _register_codes(code):
    CONVERTED_CODES[id(code)] = code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _register_codes(const)


_RENAMED = "_tj_def_"


def _compile(functions, original, filename):
    # each def is compiled under another name: in the factory's scope its own name would
    # be a local, and a recursive call would read that local instead of the global (or
    # the closure cell) the original function reads
    for f in functions:
        if isinstance(f, ast.FunctionDef) and not f.name.startswith(_RENAMED):
            f.name = _RENAMED + f.name
    module = transform.factory_module(functions, original.co_freevars)
    compiled = compile(module, filename, "exec", dont_inherit=True)
    factory = next(c for c in compiled.co_consts
                   if isinstance(c, types.CodeType) and c.co_name == "_tj_factory")
    codes = [_original_name(c, original) for c in factory.co_consts
             if isinstance(c, types.CodeType)]
    for c in codes:
        _register_codes(c)
    return codes


def _original_name(code, original):
    if not code.co_name.startswith(_RENAMED):
        return code
    name = code.co_name[len(_RENAMED):]
    if name.startswith(transform.STATEMENT_PREFIX):
        return code              # convert_program names statements after their function
    qualname = getattr(original, "co_qualname", name) if name == original.co_name else name
    return _named(code, name, qualname)


def _named(code, name, qualname):
    """``code`` named ``name`` together with the branch and loop-body functions generated
    inside it, so tracebacks through them read as eager ones do."""
    consts = tuple(_named(c, name, qualname) if isinstance(c, types.CodeType) and
                   c.co_name.startswith(syntax.GENERATED_DEF_PREFIXES) else c
                   for c in code.co_consts)
    names = dict(co_name=name, co_consts=consts)
    if hasattr(code, "co_qualname"):          # 3.11+: tracebacks show the qualified name
        names["co_qualname"] = qualname
    return code.replace(**names)


def _closure(code, fn):
    cells = []
    names = fn.__code__.co_freevars
    for name in code.co_freevars:
        if name == syntax.HELPER:
            cells.append(_HELPER_CELL)
        else:
            cells.append(fn.__closure__[names.index(name)])
    return tuple(cells)


def _note_reads(fn, global_names):
    """Tell the active capture which globals and closure values the graph depends on."""
    capture = state.capture
    note = getattr(capture, "note_python_reads", None) if capture is not None else None
    if note is not None:
        note(fn, global_names)


class _ConvertedCode:
    def __init__(self, code, global_names, unsupported):
        self.code = code
        self.global_names = global_names
        self.unsupported = unsupported

    def instantiate(self, fn):
        new = types.FunctionType(self.code, fn.__globals__, fn.__name__, fn.__defaults__,
                                 _closure(self.code, fn))
        new.__kwdefaults__ = fn.__kwdefaults__
        new.__qualname__ = fn.__qualname__
        new.__module__ = fn.__module__
        new.__wrapped__ = fn
        _note_reads(fn, self.global_names)
        return new


def convert_function(fn):
    """The converted version of the Python function ``fn`` (a new function object sharing
    ``fn``'s globals, closure cells and defaults)."""
    code = fn.__code__
    if id(code) in CONVERTED_CODES:
        return fn
    converted = _WHOLE.get(code)
    if converted is None:
        node, filename = source.function_ast(fn)
        conversion = transform.convert(node, has_class_cell="__class__" in code.co_freevars)
        target = conversion.node
        if isinstance(target, transform.ast.Lambda):
            target = transform.ast.Assign(
                targets=[syntax._name("_tj_lambda", ast.Store())], value=target)
            transform.ast.copy_location(target, node)
        codes = _compile([target], code, filename)
        converted = _ConvertedCode(codes[0], conversion.global_names, conversion.unsupported)
        _WHOLE[code] = converted
    return converted.instantiate(fn)


class _ConvertedProgram:
    """A top-level function as one function per top-level statement (see capture.py)."""

    def __init__(self, codes, conversion, filename, name):
        self.codes = codes
        self.env_names = conversion.env_names
        self.params = conversion.params
        self.lines = [lineno for lineno, _ in conversion.groups]
        self.global_names = conversion.global_names
        self.unsupported = conversion.unsupported
        self.filename = filename
        self.name = name

    def statements(self, fn):
        """The statement functions bound to ``fn``'s globals and closure."""
        _note_reads(fn, self.global_names)
        return [types.FunctionType(code, fn.__globals__, f"{fn.__name__}_stmt{i}", None,
                                   _closure(code, fn)) for i, code in enumerate(self.codes)]


def convert_program(fn):
    code = fn.__code__
    converted = _PROGRAM.get(code)
    if converted is None:
        node, filename = source.function_ast(fn)
        conversion = transform.convert(node, has_class_cell="__class__" in code.co_freevars,
                                       segmented=True)
        functions = transform.statement_functions(conversion, node)
        codes = _compile(functions, code, filename)
        codes.sort(key=lambda c: int(c.co_name.rsplit("_", 1)[1]))
        # errors and IR source notes name the user's function, not ``_tj_stmt_3``
        codes = [_named(c, code.co_name, getattr(code, "co_qualname", code.co_name))
                 for c in codes]
        for c in codes:
            CONVERTED_CODES[id(c)] = c
        converted = _ConvertedProgram(codes, conversion, filename, fn.__qualname__)
        _PROGRAM[code] = converted
    return converted


def convert_or_plain(fn):
    """``fn`` converted, or ``fn`` itself if it cannot be (no source, a generator)."""
    try:
        return convert_function(fn)
    except (SourceUnavailableError, transform.ConversionError):
        return fn


def converted_callable(f):
    """What a call of ``f`` inside converted code runs."""
    if isinstance(f, types.FunctionType):
        if id(f.__code__) in CONVERTED_CODES:
            return f
        jitted = getattr(f, "_tj_jit", None)
        if jitted is not None:            # nested jit (any capture mode): inlined
            return converted_callable(jitted.fn)
        rebuild = getattr(f, "_tj_rebuild", None)
        if rebuild is not None:           # grad, vmap, jacfwd, ...: around the converted fn
            return rebuild(converted_callable(f.__wrapped__))
        if is_user_code(f):
            return convert_or_plain(f)
        return f
    if isinstance(f, types.MethodType):
        func = f.__func__
        if isinstance(func, types.FunctionType) and id(func.__code__) not in CONVERTED_CODES \
                and is_user_code(func):
            converted = convert_or_plain(func)
            return f if converted is func else types.MethodType(converted, f.__self__)
        return f
    if isinstance(f, type) or not callable(f):
        return f
    from ...nn.cell import Cell
    if isinstance(f, Cell):
        return f                          # Cell.__call__ -> capture.call_cell
    call = getattr(type(f), "__call__", None)
    if isinstance(call, types.FunctionType) and is_user_code(call):
        converted = convert_or_plain(call)
        return types.MethodType(converted, f)
    return f


def call_cell(cell, args, kwargs):
    """Run a Cell's ``construct`` inside an ast capture (converted if it is user code)."""
    construct = type(cell).construct
    if isinstance(construct, types.FunctionType) and is_user_code(construct):
        return convert_or_plain(construct)(cell, *args, **kwargs)
    return cell.construct(*args, **kwargs)
