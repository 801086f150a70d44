"""Native kernels for O1's fused groups, compiled with Numba.

    config.py       Numba available?  SVML?  counters and the compile lock
    plan.py         a fused sub-graph's loop structure; which nodes a kernel computes
    scalars.py      how kernels spell the scalar rules' functions; which are slow
    scalar_math.py  tensorjit's vectorizable exp, log, tanh, erf, pow (no libm calls)
    accumulate.py   reduction steps LLVM may vectorize (reassociating adds, max / min)
    source.py       the Numba source of a planned sub-graph
    disk_cache.py   the per-user directory of compiled kernels
    kernel.py       the callable running a sub-graph (native, or NumPy without Numba)
    hybrid.py       native kernels of ops.Custom's hybrid DSL (registered with ops.hybrid)
"""
from .config import STATS, numba_available, svml
from .plan import (KernelPlan, REDUCTIONS, supports_node, pays_alone, row_shape_ok,
                   broadcastable)
from .kernel import kernel_for, native_ok
from .disk_cache import cache_dir
from . import hybrid  # noqa: F401,E402  (registers the hybrid DSL's native builder)
