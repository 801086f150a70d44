"""Native kernels for MindSpore's hybrid DSL (``ops.Custom(fn, func_type="hybrid")``).

``ops/hybrid.py`` rewrites the DSL function into plain Python; here that text becomes a
``NativeKernel`` like a fused group's: compiled once per source and argument types under
the compile lock, cached on disk in the same directory. It registers itself with
``ops.hybrid.register_native`` (``ops`` is the layer below and cannot import this one).

Unlike a fused kernel it is compiled at its first call, not in the background: the
Python version of a loop nest is hundreds of times slower than waiting for Numba. It is
compiled with bounds checks, since its indexing is the user's.
"""
from ...ops import hybrid, thread_pool, cpu_share
from . import config
from .config import numba_available
from .kernel import NativeKernel
from .plan import NATIVE_DTYPES

_kernels = {}          # source text -> NativeKernel (one per kernel text per process)


def build(function, arrays):
    """``(callable, None)`` running ``function`` (a ``HybridFunction``) natively on
    arrays of these dtypes and ranks, or ``(None, why not)``."""
    if not numba_available():
        return None, "Numba is not installed (pip install numba)"
    if not config.COMPILE_AFTER_FORK:
        return None, "this process was forked while a kernel was compiling"
    unsupported = sorted({str(a.dtype) for a in arrays if a.dtype not in NATIVE_DTYPES})
    if unsupported:
        return None, f"Numba does not compile {', '.join(unsupported)}"
    parallel = function.parallel and thread_pool.usable()
    source = function.numba_source(parallel)
    native = _kernels.get(source)
    if native is None:
        native = _kernels[source] = NativeKernel(source)
    try:
        native.prepare(*arrays)
    except Exception as exc:       # a construct Numba does not type: run it as Python
        first = str(exc).strip().splitlines()
        return None, f"Numba cannot compile it ({type(exc).__name__}: " \
                     f"{first[0] if first else ''})"

    def run(*args):
        if parallel:
            cpu_share.fit_to_load()
        return native(*args)
    run.source = source
    return run, None


hybrid.register_native(build)
