"""Trace capture: run the function once with tracer tensors that carry real values and
record every primitive. The first call is a real call (its results are returned), and
every place Python reads a tensor's value becomes a guard in the graph; the globals and
closure variables the Python code reads are guarded before the graph runs
(``python_reads.py``)."""
import warnings

from .. import pytree
from ..tensor import Tensor
from .base import Capture, CaptureError, capture_scope, source_info
from .guards import Never
from .python_reads import python_reads
from .request import Captured, CaptureInfo, NOT_RUN


class TraceCapture(Capture):
    concrete = True

    def __init__(self, name):
        super().__init__(name)
        self.python_writes = []       # (what, SourceInfo): Python state the graph cannot write

    def python_write(self, what):
        self.python_writes.append((what, source_info(3)))


def capture(request, struct, leaves, run):
    tracer_capture = TraceCapture(request.name)
    tracers = [tracer_capture.input(leaf.aval, hint, leaf._data, leaf._weak_type)
               for leaf, hint in zip(leaves, request.leaf_hints(struct))]
    args, kwargs = request.rebuild_call(struct, tracers)
    reads = python_reads(request.target)     # before the call: what the code will read
    try:
        with capture_scope(tracer_capture):
            out = request.target(*args, **kwargs)
    finally:
        changed = reads.watch.changed()
        if not run:                          # (lower(): leave everything as it was)
            tracer_capture.restore_refs()
            reads.watch.restore([obj for obj, _ in changed])
    writes_python = tracer_capture.python_writes + reads.writes
    named = {what.split(".")[0].split()[-1] for what, _ in writes_python}
    writes_python += [(f"the contents of {label}", None) for _, label in changed
                      if label.split("'")[1::2][:1] and label.split("'")[1] not in named]
    if writes_python:
        _cannot_repeat(request, writes_python)
    out_leaves = []
    out_struct = pytree.flatten(out, out_leaves)
    inputs = tracer_capture.graph.inputs
    writes = [i for i, t in enumerate(tracers) if t._var is not inputs[i]]
    graph = tracer_capture.finish(out_leaves + [tracers[i] for i in writes])
    info = CaptureInfo("trace")
    info.python_guards = reads.all_guards()
    if writes_python:        # only capturing again repeats them: never reuse this graph
        info.python_guards.append(Never(f"the trace wrote Python state ({writes_python[0][0]})"))
    info.guards = [reason for reason, _ in tracer_capture.guards]
    info.input_writes = writes
    info.shape_dependent = tracer_capture.shape_dependent
    info.uses_cells = tracer_capture.uses_cells
    if not run:
        return Captured(graph, out_struct, info, NOT_RUN)
    for i in writes:
        leaves[i]._data = tracers[i]._data
    result = pytree.unflatten(out_struct, [Tensor._wrap(t._data) for t in out_leaves])
    return Captured(graph, out_struct, info, result)


def _cannot_repeat(request, writes):
    """Trace records primitives only: an attribute the function writes, a container it
    changes (``LOG.append``) or a global it rebinds is written at this capture, never by
    the compiled graph; the guards on that state then fail at the next call, which traces
    again. Say so (an error under ``fullgraph=True``)."""
    what = ", ".join(name if where is None else f"{name} at {where}"
                     for name, where in writes[:3])
    message = (f"trace capture of {request.name} writes Python state ({what}); a traced "
               f"graph cannot, so every call traces the function again to repeat it, "
               f"which is slow. Use capture_mode='bytecode' (which replays it) or 'ast' "
               f"(which runs that statement as Python), or keep the state out of the "
               f"jitted function.")
    if request.fullgraph:
        raise CaptureError(message)
    warnings.warn("tensorjit: " + message, RuntimeWarning, stacklevel=2)
