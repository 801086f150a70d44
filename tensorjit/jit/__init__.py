"""``jit``: the front door of the compiler."""
from .options import validate
from .function import JitFunction, Lowered
from .explain import explain, Explanation
from .mutable import mutable
from .decorators import ms_function, jit_class, lazy_inline
from ..capture.ast.errors import JitSyntaxError
from .. import context as _context


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=None, fullgraph=False,
        backend="", static_argnums=None, static_argnames=None, **options):
    """Compile ``function`` (a function, method or Cell) into graphs on first call.

    Usable as ``jit(f, ...)``, ``@jit`` and ``@jit(...)``. See the README for the options;
    invalid values raise ``ValueError`` here, before anything runs."""
    opts = validate(capture_mode, jit_level, backend, fullgraph, dynamic, static_argnums,
                    static_argnames, options)

    def wrap(fn):
        if getattr(fn, "_tj_jit", None) is not None and fn._tj_jit.opts.key() == opts.key():
            return fn
        return JitFunction(fn, opts).entry_point

    if function is None:
        return wrap
    return wrap(function)


def _run_cell_as_graph(cell, args, kwargs):
    """GRAPH_MODE: call ``cell`` through its compiled graph (one ``jit`` per Cell)."""
    jitted = cell.__dict__.get("_tj_graph_mode_jit")
    if jitted is None:
        jitted = jit(cell)
        object.__setattr__(cell, "_tj_graph_mode_jit", jitted)
    return jitted(*args, **kwargs)


_context.register_graph_runner(_run_cell_as_graph)


def make_ir(fn, static_argnums=None, static_argnames=None, capture_mode="trace",
            jit_level="O0"):
    """``make_ir(f)(*args)``: the graph ``f`` compiles to for these arguments (like
    ``jax.make_jaxpr``), without running it."""
    def lowered(*args, **kwargs):
        target = jit(fn, capture_mode=capture_mode, jit_level=jit_level,
                     static_argnums=static_argnums, static_argnames=static_argnames)
        return target.lower(*args, **kwargs).graph
    return lowered
