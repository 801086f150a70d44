"""Capture: turn a running Python function into a graph (trace, ast or bytecode).

The jit layer calls ``capture_graph`` with a ``CaptureRequest`` (request.py); each mode
returns a ``Captured``. Shared pieces: base.py (the capture object and tracers),
subgraph.py (closed sub-graphs), control_flow.py (cond / while_loop primitives),
scan.py (the scan primitive), loop_builders.py (graph loops for ops.scan / while_loop),
guards.py (facts about Python state a capture relied on), user_code.py (what counts as
the user's code).
"""
from .base import (Capture, ConcretizationError, CaptureError, capture_scope,  # noqa: F401
                   Tracer)
from .request import CaptureRequest, CaptureInfo, Captured, NOT_RUN  # noqa: F401
from . import control_flow  # noqa: F401  (registers cond / while_loop)
from . import scan  # noqa: F401  (registers scan)


def capture_graph(request, struct, leaves, run):
    """Capture ``request.target`` for inputs ``leaves`` (a call of structure ``struct``) in
    its capture mode.

    With ``run`` the capture is the real call: its results are returned in
    ``Captured.result`` (or ``NOT_RUN`` if the mode could not run it) and its side effects
    stay. Without it (lowering), parameters assigned during the capture are restored."""
    mode = request.options.capture_mode
    if mode == "bytecode":
        from .bytecode import capture
    elif mode == "ast":
        from .ast import capture_ast as capture
    else:
        from .trace import capture
    return capture(request, struct, leaves, run)
