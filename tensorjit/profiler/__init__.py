"""tensorjit's profiler, under MindSpore's names (``mindspore.Profiler``,
``mindspore.profiler.profile``, ``schedule``, ``tensorboard_trace_handler``, ``mstx``) and
with PyTorch's results (``key_averages().table()``, ``export_chrome_trace``).

What runs is recorded by ``tensorjit.timeline`` (the layers report to it); this package
turns a recording into a Chrome trace (chrome.py), tables (summary.py), a self-contained
HTML report (report.py) and MindSpore's output folder (output.py)."""
from .session import (profile, schedule, tensorboard_trace_handler,  # noqa: F401
                      tensor_board_trace_handler, ProfilerActivity, ProfilerLevel,
                      AicoreMetrics, ExportType, ProfilerAction, _ExperimentalConfig)
from .classic import Profiler  # noqa: F401
from . import mstx  # noqa: F401
from .mstx import record_function  # noqa: F401

__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler",
           "tensor_board_trace_handler", "ProfilerActivity", "ProfilerLevel",
           "AicoreMetrics", "ExportType", "ProfilerAction", "mstx", "record_function"]
