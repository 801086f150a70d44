"""Trace capture: run the function once with tracer tensors that carry real values and
record every primitive. The first call is a real call (its results are returned), and
every place Python reads a tensor's value becomes a guard in the graph."""
from .base import Capture, capture_scope


class TraceCapture(Capture):
    concrete = True


def run_traced(jit_function, capture, args, kwargs):
    with capture_scope(capture):
        return jit_function.target(*args, **kwargs)
