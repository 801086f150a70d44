"""The jitted callable itself: a generated Python function with the user function's own
signature. For its hottest compiled graph it holds, inline, a guard on the arguments
and the graph's code:

    def f(a, b, c):
        if not _tj_tapes and type(a) is _tj_t0 and type(b) is _tj_t1 and type(c) is _tj_t2:
            _tj_x0 = a._data; _tj_x1 = b._data; _tj_x2 = c._data
            if _tj_x0.dtype is _tj_d0 and _tj_x1.dtype is _tj_d0 and _tj_x2.dtype is _tj_d0:
                _tj_v0 = (_tj_x0 * _tj_x1)
                _tj_v1 = (_tj_v0 + _tj_x2)
                _tj_r = _tj_new(_tj_Tensor); _tj_r._data = _tj_v1; _tj_r._var = None
                return _tj_r
        return _tj_slow((a, b, c), {})

Everything else goes to the slow path (``JitFunction.call``). Shapes are checked only when
the graph's code depends on them (see ``backend.codegen.is_shape_generic``). A new hot
graph replaces the function's ``__code__``, so references the user holds stay valid.
"""
import functools
import itertools
import re

from .. import pytree
from ..tensor import Tensor, Parameter
from .mutable import WeakScalar
from ..autodiff import watch_tapes
from ..ops.effects import GuardFailure
from ..backend.codegen import generate
from ..nn.cell import STATE_VERSION
from . import user_errors
from ..locks import ForkSafeLock

_SCALAR_TYPES = (bool, int, float, str)
_HOT_PREFIX = "_tj_h_"


def _base_globals(jit_function):
    g = {"_tj_slow": jit_function.call, "_tj_new": object.__new__,
         "_tj_UserErrors": user_errors.USER_ERRORS,
         "_tj_explain": lambda exc: user_errors.explain(exc, jit_function),
         "_tj_Tensor": Tensor, "_tj_GuardFailure": GuardFailure,
         "_tj_unflatten": pytree.unflatten, "__name__": "tensorjit.jit.generated"}
    g.update(jit_function.signature.defaults)
    return g


# (a try block costs nothing in CPython 3.11 until something raises)
_EXPLAIN = ("  except _tj_UserErrors as _tj_error:\n"
            "    _tj_explain(_tj_error)      # add the user's file:line (user_errors.py)\n"
            "    raise\n")


def _define(source, namespace, name):
    exec(compile(source, f"<tensorjit dispatch {name}>", "exec"), namespace)
    return namespace[name]


def build_entry_point(jit_function):
    """The initial callable: every call takes the slow path."""
    sig = jit_function.signature
    name = "_tj_entry"
    source = (f"def {name}({sig.params_source}):\n"
              f"  try:\n"
              f"    return _tj_slow({sig.args_expr()}, {sig.kwargs_expr()})\n"
              + _EXPLAIN)
    namespace = _base_globals(jit_function)
    fn = _define(source, namespace, name)
    functools.update_wrapper(fn, jit_function.fn if callable(jit_function.fn) else fn,
                             assigned=("__module__", "__name__", "__qualname__", "__doc__"),
                             updated=())
    fn.__wrapped__ = jit_function.fn
    fn._tj_jit = jit_function
    fn._tj_source = source
    fn.lower = jit_function.lower
    watch_tapes(fn)
    return fn


def _arg_guard(name, value, index, namespace):
    """A guard expression for one argument, or None if it cannot be checked cheaply."""
    kind = type(value)
    if kind is Tensor or kind is Parameter or kind is WeakScalar:
        namespace[f"_tj_t{index}"] = kind
        return f"type({name}) is _tj_t{index}", True
    if value is None:
        return f"{name} is None", False
    if kind in _SCALAR_TYPES:
        namespace[f"_tj_s{index}"] = value
        return f"(type({name}) is {kind.__name__} and {name} == _tj_s{index})", False
    if type(value).__eq__ is object.__eq__:
        namespace[f"_tj_o{index}"] = value
        return f"{name} is _tj_o{index}", False
    return None, False


def install_hot_entry(jit_function, entry, args, kwargs, leaves):
    """Give the jitted callable an inline fast path for ``entry`` and calls like this one
    (one thread at a time; a thread finding another one installing skips it)."""
    with _install_locks:
        lock = jit_function.__dict__.setdefault("_tj_install_lock", ForkSafeLock())
    if not lock.acquire(blocking=False):
        return False
    try:
        return _install_hot_entry(jit_function, entry, args, kwargs, leaves)
    finally:
        lock.release()


def _install_hot_entry(jit_function, entry, args, kwargs, leaves):
    sig = jit_function.signature
    arity = sig.simple_arity
    if getattr(entry.executable, "code", None) is None:
        return False              # an interpreted graph (it did not compile): no code
    if not entry.single_graph or arity is None or kwargs or len(args) != arity or jit_function.static_positions - set(range(arity)):
        return False
    if any(isinstance(a, (tuple, list, dict)) for a in args):
        return False
    namespace = _base_globals(jit_function)
    type_checks, data_lines, value_checks = [], [], []
    input_names = []
    for i, (param, value) in enumerate(zip(sig.positional, args)):
        check, is_tensor = _arg_guard(param, value, i, namespace)
        if check is None:
            return False
        type_checks.append(check)
        if is_tensor and i not in jit_function.static_positions:
            x = f"_tj_x{len(input_names)}"
            input_names.append(x)
            data_lines.append(f"{x} = {param}._data")
            namespace[f"_tj_d{len(input_names) - 1}"] = value.dtype
            value_checks.append(f"{x}.dtype is _tj_d{len(input_names) - 1}")
            if entry.shapes is not None:
                value_checks.append(f"{x}.shape == {tuple(value.shape)!r}")
    if len(input_names) != len(leaves):
        return False
    if entry.cell_state is not None:          # built from Cells: their state must not change
        namespace["_tj_cells"] = STATE_VERSION
        type_checks.append(f"_tj_cells[0] == {entry.cell_state}")
    for k, guard in enumerate(entry.python_guards):   # globals and closure values
        namespace[f"_tj_pyguard{k}"] = guard
        type_checks.append(f"_tj_pyguard{k}.check()")
    code = generate(entry.graph, prefix=_HOT_PREFIX, input_names=input_names,
                    local_prefix="_tj_")
    body = code.body
    namespace.update(code.globals)
    n_out = len(code.outputs) - len(entry.info.input_writes)
    writes = [f"{args_name}._data = {out}" for args_name, out in zip(
        [sig.positional[_leaf_param(i, args, sig)] for i in entry.info.input_writes],
        code.outputs[n_out:])]
    result_lines = _result_lines(entry, code.outputs[:n_out], namespace)
    guarded = bool(entry.info.guards)
    name = "_tj_entry"
    lines = [f"def {name}({sig.params_source}):", "  try:",
             f"    if not _tj_tapes and {' and '.join(type_checks)}:"]
    ind = "        "
    lines += [ind + l for l in data_lines]
    lines.append(ind + f"if {' and '.join(value_checks) or 'True'}:")
    ind += "    "
    if guarded:
        lines.append(ind + "try:")
        ind += "    "
    lines += [ind + l for l in body + code.ref_writes + writes] or [ind + "pass"]
    if guarded:
        lines.append(ind[:-4] + "except _tj_GuardFailure:")
        lines.append(ind + "pass")
        lines.append(ind[:-4] + "else:")
    lines += [ind + l for l in result_lines]
    lines.append(f"    return _tj_slow({sig.args_expr()}, {sig.kwargs_expr()})")
    source = "\n".join(lines) + "\n" + _EXPLAIN
    version = next(_versions)
    source, namespace = _versioned(source, namespace, _base_globals(jit_function), version)
    fn = _define(source, namespace, name)
    entry_point = jit_function.entry_point
    # the code object reads globals from the entry point's own namespace, which threads
    # still running earlier versions share: add this version's names, swap the code, and
    # drop only the names of versions long replaced
    shared = entry_point.__globals__
    shared.update(namespace)
    entry_point.__code__ = fn.__code__.replace(co_name=entry_point.__code__.co_name)
    for key in [k for k in list(shared) if _version_of(k) < version - _KEPT_VERSIONS]:
        shared.pop(key, None)
    watch_tapes(entry_point)
    entry_point._tj_source = source
    jit_function.hot_entry = entry
    return True


_versions = itertools.count(1)
_KEPT_VERSIONS = 16
_install_locks = ForkSafeLock()


def _versioned(source, namespace, base, version):
    """Give the globals a hot version adds a ``__<version>`` suffix (in its source too), so
    a thread still running the previous version never reads this one's values."""
    own = [k for k in namespace if k not in base]
    if not own:
        return source, namespace
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(own, key=len, reverse=True)))
                         + r")\b")
    source = pattern.sub(lambda m: f"{m.group(1)}__{version}", source)
    return source, {(k if k in base else f"{k}__{version}"): v for k, v in namespace.items()}


def _version_of(name):
    head, _, tail = name.rpartition("__")
    return int(tail) if head.startswith("_tj_") and tail.isdigit() else 1 << 62


def _leaf_param(leaf_index, args, sig):
    """The positional parameter index holding flat input ``leaf_index``."""
    count = -1
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            count += 1
            if count == leaf_index:
                return i
    raise IndexError(leaf_index)


def _result_lines(entry, outputs, namespace):
    struct = entry.out_struct
    if struct == pytree.TENSOR:
        return [f"_tj_r = _tj_new(_tj_Tensor); _tj_r._data = {outputs[0]}; _tj_r._var = None",
                "return _tj_r"]
    lines = []
    names = []
    for k, out in enumerate(outputs):
        lines.append(f"_tj_r{k} = _tj_new(_tj_Tensor); _tj_r{k}._data = {out}; _tj_r{k}._var = None")
        names.append(f"_tj_r{k}")
    if struct[0] == "tuple" and all(s == pytree.TENSOR for s in struct[1]):
        lines.append(f"return ({''.join(n + ', ' for n in names)})")
    else:
        namespace["_tj_out_struct"] = struct
        lines.append(f"return _tj_unflatten(_tj_out_struct, [{', '.join(names)}])")
    return lines
