"""Capture: turn a running Python function into a graph (trace, ast or bytecode)."""
from .. import pytree
from .base import (Capture, ConcretizationError, CaptureError, capture_scope,  # noqa: F401
                   Tracer)


class Captured:
    """A capture's product: the (first) graph, the output structure, what was learnt
    (CaptureInfo), the real result if the capture was the call itself (trace), and for
    multi-graph captures a ``program(leaves) -> result`` running graphs and Python."""

    def __init__(self, graph, out_struct, info, result, program=None, executable=None):
        self.graph, self.out_struct, self.info, self.result = graph, out_struct, info, result
        self.program = program
        self.executable = executable      # when the capture already compiled the graph


def leaf_hints(jit_function, struct):
    """Readable names for the flat inputs: parameter names where possible."""
    names = jit_function.signature.positional
    hints = []
    for i, s in enumerate(struct[0]):
        base = names[i] if i < len(names) else f"arg{i}"
        count = _count_tensors(s)
        hints += [base] if count == 1 and s == pytree.TENSOR else [f"{base}_{k}" for k in range(count)]
    for key, s in zip(struct[1], struct[2]):
        count = _count_tensors(s)
        hints += [key] if count == 1 and s == pytree.TENSOR else [f"{key}_{k}" for k in range(count)]
    return hints


def _count_tensors(struct):
    if struct == pytree.TENSOR:
        return 1
    tag = struct[0]
    if tag in ("tuple", "list"):
        return sum(_count_tensors(s) for s in struct[1])
    if tag in ("dict", "namedtuple"):
        return sum(_count_tensors(s) for s in struct[2])
    return 0


def capture_graph(jit_function, struct, leaves, run):
    """Capture ``jit_function`` for inputs ``leaves`` (a call of structure ``struct``) in
    its capture mode.

    With ``run`` the capture is the real call: its results are returned in
    ``Captured.result`` and its side effects stay. Without it (lowering), parameters
    assigned during the capture are restored afterwards."""
    mode = jit_function.opts.capture_mode
    if mode == "bytecode":
        from .bytecode import capture
    elif mode == "ast":
        from .ast import capture_ast as capture
    else:
        from .trace import capture
    return capture(jit_function, struct, leaves, run)
