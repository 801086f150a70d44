"""``tensorjit.runtime``: MindSpore 2.10's ``mindspore.runtime`` on tensorjit's CPU backend.

Runtime settings (``set_memory``, ``set_kernel_launch_group``, ``dispatch_threads_num``,
``set_cpu_affinity`` ...) are validated as MindSpore validates them and may be set once per
process, as there. The memory statistics answer what MindSpore's CPU build answers: tensorjit
has no device memory pool (buffers are NumPy arrays owned by Python), so every pool counter is
0. ``set_cpu_affinity`` binds this process to the requested cores with
``os.sched_setaffinity`` (the one binding with a meaning on CPU). Streams and events are
tensorjit's one synchronous host stream, events timing it (see ``streams``).
"""
from .settings import (launch_blocking, dispatch_threads_num, set_kernel_launch_group,
                       set_kernel_launch_capture, set_memory)
from .affinity import set_cpu_affinity
from .memory import (memory_stats, memory_reserved, max_memory_reserved, memory_allocated,
                     max_memory_allocated, empty_cache, reset_peak_memory_stats,
                     reset_max_memory_reserved, reset_max_memory_allocated, memory_summary,
                     memory_replay)
from .sync import synchronize
from .streams import (Stream, Event, StreamCtx, current_stream, default_stream,
                      communication_stream, set_cur_stream)

__all__ = ["launch_blocking", "dispatch_threads_num", "set_kernel_launch_group",
           "set_kernel_launch_capture", "set_memory", "set_cpu_affinity", "memory_stats",
           "memory_reserved", "max_memory_reserved", "memory_allocated",
           "max_memory_allocated", "empty_cache", "reset_peak_memory_stats",
           "reset_max_memory_reserved", "reset_max_memory_allocated", "memory_summary",
           "memory_replay",
           "synchronize", "Stream", "Event", "StreamCtx", "current_stream", "default_stream",
           "communication_stream", "set_cur_stream"]
