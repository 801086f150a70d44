"""``tensorjit.utils``: MindSpore 2.10's ``mindspore.utils`` with its CPU-build behaviour.

The Ascend health checks (``stress_detect``, silent data corruption detection) answer as
MindSpore's CPU build answers; DLPack exchange shares NumPy buffers without a copy;
``dryrun.set_simulation`` sets the same environment variable; ``comm_exec_order_check`` and
``ExitByRequest`` work on tensorjit's communication (one process: nothing to reduce).
"""
from .health import stress_detect, sdc_detect_start, sdc_detect_stop, get_sdc_detect_result
from .dlpack import from_dlpack, to_dlpack
from .distributed import comm_exec_order_check, ExitByRequest
from . import dryrun

__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result",
           "from_dlpack", "to_dlpack", "comm_exec_order_check", "ExitByRequest", "dryrun"]
