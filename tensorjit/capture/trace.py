"""Trace capture: run the function once with tracer tensors that carry real values and
record every primitive. The first call is a real call (its results are returned), and
every place Python reads a tensor's value becomes a guard in the graph."""
from .. import pytree
from ..tensor import Tensor
from .base import Capture, capture_scope


class TraceCapture(Capture):
    concrete = True


def capture(jit_function, struct, leaves, run):
    from . import Captured, leaf_hints
    from ..jit.function import CaptureInfo, _NOT_RUN
    tracer_capture = TraceCapture(jit_function.name)
    tracers = [tracer_capture.input(leaf.aval, hint, leaf._data, leaf._weak_type)
               for leaf, hint in zip(leaves, leaf_hints(jit_function, struct))]
    args, kwargs = jit_function.rebuild_call(struct, tracers)
    try:
        with capture_scope(tracer_capture):
            out = jit_function.target(*args, **kwargs)
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
        return Captured(graph, out_struct, info, _NOT_RUN)
    for i in writes:
        leaves[i]._data = tracers[i]._data
    result = pytree.unflatten(out_struct, [Tensor._wrap(t._data) for t in out_leaves])
    return Captured(graph, out_struct, info, result)
