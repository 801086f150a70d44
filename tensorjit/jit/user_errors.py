"""Errors from a jitted call, pointed at the user's code.

A ``ValueError`` / ``TypeError`` / ``IndexError`` leaving a jitted callable gets, at the
front of its message, the user's ``file:line (function)`` where the failing operation is,
if it does not name it already (shape errors found by a capture do):

* raised while capturing (a shape check in the functional layer, say ``reshape``'s): the
  innermost user frame of the traceback -- for bytecode capture, the line its interpreter
  was at (``capture.base.LOCATION_PROVIDERS``);
* raised by a kernel while compiled code runs (an index tensor out of range): the
  primitive whose kernel failed, with its input shapes and dtypes, and the line(s) of the
  user's code that the graph's nodes of that primitive come from.

The exception keeps its type and traceback; only its message grows.
"""
from ..ops.primitive import PRIMITIVES
from ..aval import ShapedArray
from ..capture.base import LOCATION_PROVIDERS

USER_ERRORS = (ValueError, TypeError, IndexError)
_PACKAGE = "tensorjit"
_kernels = {}          # kernel code object -> primitive, built on first use


def explain(exc, jit_function):
    """Add the user's location to ``exc``'s message (in place); never raises."""
    try:
        _explain(exc, jit_function)
    except Exception:   # pragma: no cover - explaining must not hide the real error
        pass


def _explain(exc, jit_function):
    if getattr(exc, "_tj_explained", False) or not exc.args or \
            not isinstance(exc.args[0], str):
        return
    exc._tj_explained = True
    message = exc.args[0]
    where, generated, kernel = _scan(exc.__traceback__)
    if generated and kernel is not None:        # a kernel of compiled code failed
        prim, frame = kernel
        shapes = _operand_avals(frame)
        sources = _node_sources(jit_function, prim.name)
        prefix = ", ".join(sources) + ": " if sources else ""
        exc.args = (f"{prefix}{prim.name}({shapes}): {message}",) + exc.args[1:]
        return
    if where is not None and where.split(" (")[0] not in message:
        exc.args = (f"{where}: {message}",) + exc.args[1:]


def _scan(tb):
    """(innermost user location, whether compiled code ran last, (primitive, frame) of the
    innermost failing kernel)."""
    where, generated, kernel = None, False, None
    kernels = _kernel_codes()
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        provider = LOCATION_PROVIDERS.get(code)
        name = frame.f_globals.get("__name__", "")
        if provider is not None:
            info = provider(frame)
            if info is not None:
                where, generated = str(info), False
        elif code.co_filename.startswith("<tensorjit"):
            generated = True
        elif code in kernels:
            kernel = (_kernel_primitive(kernels[code], frame), frame)
        elif not (name == _PACKAGE or name.startswith(_PACKAGE + ".")) or \
                name.startswith(_PACKAGE + ".bench"):
            where, generated = f"{code.co_filename}:{tb.tb_lineno} ({code.co_name})", False
        tb = tb.tb_next
    return where, generated, kernel


def _kernel_codes():
    """Kernel code object -> the primitives whose kernel runs it. Kernels made by one
    factory (``_keep_dtype(np.power)``, ``_keep_dtype(np.true_divide)``) share a code object
    and differ in what they close over."""
    if sum(map(len, _kernels.values())) < len(PRIMITIVES):
        _kernels.clear()
        for prim in PRIMITIVES.values():
            code = getattr(prim.impl, "__code__", None)
            if code is not None:
                _kernels.setdefault(code, []).append(prim)
    return _kernels


def _kernel_primitive(candidates, frame):
    """The primitive whose kernel ``frame`` runs: the one whose closure holds the values
    of the frame's free variables."""
    if len(candidates) > 1:
        free = [frame.f_locals.get(name) for name in frame.f_code.co_freevars]
        for prim in candidates:
            cells = prim.impl.__closure__ or ()
            if len(cells) == len(free) and all(
                    c.cell_contents is v for c, v in zip(cells, free)):
                return prim
    return candidates[0]


def _operand_avals(frame):
    code = frame.f_code
    names = list(code.co_varnames[:code.co_argcount])
    if code.co_flags & 0x04:                                   # *args
        names.append(code.co_varnames[code.co_argcount + code.co_kwonlyargcount])
    avals = []
    for n in names:
        values = frame.f_locals.get(n)
        for v in (values if isinstance(values, tuple) else (values,)):
            if hasattr(v, "shape") and hasattr(v, "dtype"):
                avals.append(str(ShapedArray(v.shape, v.dtype)))
    return ", ".join(avals)


def _node_sources(jit_function, prim_name):
    """Where the nodes of ``prim_name`` in the latest entry's graph(s) come from."""
    found = []

    def walk(g):
        for node in g.nodes:
            if node.prim.name == prim_name and node.source is not None:
                text = str(node.source)
                if text not in found:
                    found.append(text)
            for sub in g.subgraphs(node):
                walk(sub)
    for entry in (jit_function.hot_entry, jit_function.last_entry):
        graph = getattr(entry, "graph", None)
        if graph is not None:
            walk(graph)
    return found
