"""The safety net under compilation. A pass, the scheduler or code generation raising on a
graph that eager mode runs is a bug of the compiler, not of the program: the user gets
eager's results, not an internal traceback. The graph is compiled again from its captured
form at O0 and, if that fails too, run node by node through the primitives' kernels
(eager mode's arithmetic; the user's Python is not run a second time); one warning names
the error and asks for a report. Under ``fullgraph=True`` the failure is an error
(``InternalCompilerError``) instead.
"""
import traceback
import warnings

from ..backend import InterpretedGraph
from ..passes.pipeline import PassFailure

__all__ = ["InternalCompilerError", "compile_with_fallback"]

_warned = set()
FAILURES = []         # every failure caught in this process (the fuzz campaign reports them)


class InternalCompilerError(RuntimeError):
    """tensorjit failed to compile a valid program (a bug: please report it)."""

    def __init__(self, name, level, stage, error):
        self.name, self.level, self.stage, self.error = name, level, stage, error
        where = "".join(traceback.format_tb(error.__traceback__)[-1:]).strip().splitlines()
        super().__init__(
            f"tensorjit internal error compiling {name} at {level}, in {stage}: "
            f"{type(error).__name__}: {error}" + (f" ({where[0]})" if where else "") +
            ". This is a bug of tensorjit, not of your program; please report it with the "
            "program (tensorjit.explain shows its graphs). Without fullgraph=True the "
            "graph is compiled at O0 instead, or run node by node as eager mode does")


def compile_with_fallback(graph, opts, name, compile_at):
    """``compile_at(graph, level)`` at ``opts.jit_level``, else at O0, else the graph as
    captured run node by node (``backend.InterpretedGraph``), each time from a copy of the
    captured graph; one warning says what failed and where the graph ended up. Under
    ``fullgraph`` the first failure raises InternalCompilerError."""
    levels = [opts.jit_level] + (["O0"] if opts.jit_level != "O0" else [])
    pristine = graph.copy()
    first = None
    for level in levels:
        try:
            executable = compile_at(graph, level)
        except PassFailure as exc:
            failure = InternalCompilerError(name, level, f"the {exc.stage} pass", exc.error)
        except Exception as exc:       # code generation, a backend's unit
            failure = InternalCompilerError(name, level, "code generation", exc)
        else:
            if first is not None:
                warn(first, f"the graph runs at {level}")
            return executable
        failure.__cause__ = failure.error
        FAILURES.append(failure)
        if opts.fullgraph:
            raise failure
        first = first or failure
        graph = pristine.copy()
    warn(first, "the graph runs node by node, as eager mode computes it")
    return InterpretedGraph(pristine, name)


def warn(failure, consequence):
    key = (failure.name, failure.level, failure.stage, type(failure.error).__name__)
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn(f"{failure}. Meanwhile {consequence}.", RuntimeWarning, stacklevel=2)
