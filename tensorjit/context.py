"""MindSpore's ``set_context`` / ``get_context`` and the execution mode.

``set_context(mode=GRAPH_MODE)`` makes calling a top-level Cell compile it (``jit`` in ast
mode, cached per Cell) and run the graph, as MindSpore's static graph mode does;
``PYNATIVE_MODE`` (the default) runs eagerly. Cells called while a graph is being
captured are part of that graph. Under ``grad`` / ``value_and_grad`` (an autodiff tape)
cells run eagerly so the tape sees every operation. Other MindSpore keys
(``device_target``, ``device_id``, ``jit_config``, ...) are accepted and stored: they do
not change anything on this CPU/NumPy runtime.
"""
import contextlib
import threading

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_settings = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0}
_graph_mode = False               # mirrors _settings["mode"] == GRAPH_MODE (read per call)
_local = threading.local()


def set_context(**kwargs):
    """Set execution options; ``mode`` is ``GRAPH_MODE`` (0) or ``PYNATIVE_MODE`` (1)."""
    global _graph_mode
    if "mode" in kwargs:
        mode = kwargs["mode"]
        if mode not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(mode, bool):
            raise ValueError(f"set_context: mode must be GRAPH_MODE (0) or PYNATIVE_MODE "
                             f"(1), got {mode!r}")
    _settings.update(kwargs)
    _graph_mode = _settings["mode"] == GRAPH_MODE


def get_context(attr_key):
    """The value of a context option (``None`` if it was never set)."""
    if attr_key not in _settings:
        return None
    return _settings[attr_key]


def graph_mode_on():
    """GRAPH_MODE is set and this thread is not inside a statement run as Python."""
    return _graph_mode and not getattr(_local, "pynative", 0)


@contextlib.contextmanager
def pynative():
    """Run the body eagerly whatever the mode (fallback statements of a graph)."""
    _local.pynative = getattr(_local, "pynative", 0) + 1
    try:
        yield
    finally:
        _local.pynative -= 1


# GRAPH_MODE's runner, ``run(cell, args, kwargs)``: installed by tensorjit.jit, the layer
# that compiles (this leaf module cannot import it)
_graph_runner = None


def register_graph_runner(run):
    global _graph_runner
    _graph_runner = run


def run_cell_as_graph(cell, args, kwargs):
    """GRAPH_MODE: call ``cell`` through its compiled graph."""
    if _graph_runner is None:
        raise RuntimeError("GRAPH_MODE needs tensorjit.jit, which is not imported")
    return _graph_runner(cell, args, kwargs)
