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


def set_device(device_target, device_id=None):
    """MindSpore 2.5's ``set_device``: stored like ``set_context(device_target=...)`` (this
    runtime computes on the CPU whatever the target)."""
    if not isinstance(device_target, str):
        raise TypeError(f"set_device: device_target must be a str, got {device_target!r}")
    _settings["device_target"] = device_target
    if device_id is not None:
        _settings["device_id"] = device_id


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


# ---- auto parallel context (MindSpore's set_auto_parallel_context) ----------------------

class ParallelMode:
    """Parallel modes of ``set_auto_parallel_context``; tensorjit runs STAND_ALONE and
    DATA_PARALLEL (every rank holds the whole model and reduces gradients)."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = (STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL)


# parameter_broadcast: MindSpore's default is False (it relies on equal seeds); tensorjit
# broadcasts rank 0's parameters when a data-parallel optimizer or reducer is made, so every
# rank starts equal whatever its seed. comm_fusion: all-reduce bucket size in MB.
_PARALLEL_DEFAULTS = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False,
                      "device_num": 1, "global_rank": 0, "parameter_broadcast": True,
                      "comm_fusion": {"allreduce": {"mode": "size", "config": 16}},
                      "gradient_fp32_sync": True, "loss_repeated_mean": True,
                      "enable_parallel_optimizer": False, "search_mode": "dynamic_programming",
                      "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "",
                      "full_batch": False, "dataset_strategy": "data_parallel",
                      "all_reduce_fusion_config": []}
_parallel = dict(_PARALLEL_DEFAULTS)
_parallel_set = set()


def set_auto_parallel_context(**kwargs):
    """Configure parallel training: ``parallel_mode`` (``ParallelMode.STAND_ALONE`` or
    ``DATA_PARALLEL``), ``gradients_mean`` (divide reduced gradients by the number of
    ranks), ``parameter_broadcast`` (rank 0's parameters to every rank when a data-parallel
    optimizer or ``DistributedGradReducer`` is made), ``comm_fusion``
    (``{"allreduce": {"mode": "size", "config": MB}}``: all-reduce bucket size) and
    MindSpore's other keys (stored, without effect here)."""
    unknown = sorted(set(kwargs) - set(_PARALLEL_DEFAULTS))
    if unknown:
        raise ValueError(f"set_auto_parallel_context: unknown keys {unknown}; known: "
                         f"{sorted(_PARALLEL_DEFAULTS)}")
    mode = kwargs.get("parallel_mode")
    if mode is not None:
        if mode not in ParallelMode.MODE_LIST:
            raise ValueError(f"set_auto_parallel_context: parallel_mode must be one of "
                             f"{ParallelMode.MODE_LIST}, got {mode!r}")
        if mode not in (ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL):
            raise NotImplementedError(f"set_auto_parallel_context: parallel_mode {mode!r} "
                                      f"is not supported; tensorjit runs 'stand_alone' and "
                                      f"'data_parallel'")
    for key in ("gradients_mean", "parameter_broadcast"):
        if key in kwargs and not isinstance(kwargs[key], bool):
            raise TypeError(f"set_auto_parallel_context: {key} must be a bool, got "
                            f"{kwargs[key]!r}")
    if "comm_fusion" in kwargs:
        _check_comm_fusion(kwargs["comm_fusion"])
    _parallel.update(kwargs)
    _parallel_set.update(kwargs)


def _check_comm_fusion(value):
    allreduce = value.get("allreduce") if isinstance(value, dict) else None
    if not isinstance(allreduce, dict) or allreduce.get("mode", "size") not in ("size", "auto") \
            or not isinstance(allreduce.get("config", 16), (int, float)) \
            or allreduce.get("config", 16) <= 0 \
            or not isinstance(allreduce.get("overlap", True), bool):
        raise ValueError(f"set_auto_parallel_context: comm_fusion must look like "
                         f"{{'allreduce': {{'mode': 'size', 'config': 16}}}} (config: bucket "
                         f"size in MB, > 0; tensorjit also reads 'overlap': bool), got "
                         f"{value!r}")


def get_auto_parallel_context(attr_key):
    """The value of a parallel option."""
    if attr_key not in _parallel:
        raise ValueError(f"get_auto_parallel_context: unknown key {attr_key!r}")
    return _parallel[attr_key]


def reset_auto_parallel_context():
    """Every parallel option back to its default (STAND_ALONE)."""
    _parallel.clear()
    _parallel.update(_PARALLEL_DEFAULTS)
    _parallel_set.clear()


def data_parallel():
    """Is ``parallel_mode`` DATA_PARALLEL?"""
    return _parallel["parallel_mode"] == ParallelMode.DATA_PARALLEL


def allreduce_overlap():
    """Are bucketed all-reduces non-blocking inside graphs (``comm_fusion``'s
    tensorjit-only ``overlap`` key, default True; False keeps them blocking)?"""
    return bool(_parallel["comm_fusion"].get("allreduce", {}).get("overlap", True))


def allreduce_bucket_bytes():
    """The all-reduce bucket size (``comm_fusion``), in bytes."""
    allreduce = _parallel["comm_fusion"].get("allreduce", {})
    if allreduce.get("mode", "size") == "auto":
        return 64 * 2 ** 20
    return int(float(allreduce.get("config", 16)) * 2 ** 20)
