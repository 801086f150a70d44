"""Per-thread interpreter state, read by every layer above: the active graph capture and
the autodiff tapes recording primitive calls.

A leaf module (it imports nothing of tensorjit), so ``Tensor`` can ask whether a capture
is running without importing the layers that implement captures."""
import threading


class _State(threading.local):
    capture = None          # the Capture receiving primitive calls, or None (eager)
    tapes = ()              # autodiff tapes recording primitive calls
    grad_enabled = True
    # while a VJP records into a graph: the source of the forward call it differentiates,
    # which its backward nodes take (so they name the model's line, not the grad call's)
    source_override = None


state = _State()
