"""Trace capture: run the function once with tracer tensors that carry real values and
record every primitive. The first call is a real call (its results are returned), and
every place Python reads a tensor's value becomes a guard in the graph."""
from .. import pytree
from ..tensor import Tensor
from .base import Capture, capture_scope
from .request import Captured, CaptureInfo, NOT_RUN


class TraceCapture(Capture):
    concrete = True


def capture(request, struct, leaves, run):
    tracer_capture = TraceCapture(request.name)
    tracers = [tracer_capture.input(leaf.aval, hint, leaf._data, leaf._weak_type)
               for leaf, hint in zip(leaves, request.leaf_hints(struct))]
    args, kwargs = request.rebuild_call(struct, tracers)
    try:
        with capture_scope(tracer_capture):
            out = request.target(*args, **kwargs)
    finally:
        if not run:
            tracer_capture.restore_refs()
    out_leaves = []
    out_struct = pytree.flatten(out, out_leaves)
    inputs = tracer_capture.graph.inputs
    writes = [i for i, t in enumerate(tracers) if t._var is not inputs[i]]
    graph = tracer_capture.finish(out_leaves + [tracers[i] for i in writes])
    info = CaptureInfo("trace")
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
