"""Which thread pool runs the parallel native code, and whether this process may use it.

The products run in MKL on GNU OpenMP when MKL is installed (``blas.py``); Numba's parallel
kernels (O1's fused kernels, the Winograd transforms, the NCHW im2col) then run on the
*same* OpenMP pool (Numba's ``omp`` threading layer). Two pools on two cores spin against
each other: after a product, MKL's workers spin-wait for the next one, and a kernel on
Numba's own ``workqueue`` pool ran at one thread's speed beside them (measured: the GELU
kernel of the GPT benchmark 0.86 ms after a copy, 1.62 ms after any product; whole train
steps, alternated: GPT 144 -> 112 ms, ResNet-18 357 -> 236 ms). Without MKL the products
run in NumPy's OpenBLAS, whose pthreads spin after each call; there Numba keeps its
``workqueue`` pool, which sleeps between kernels instead of spinning against OpenBLAS.
``NUMBA_THREADING_LAYER`` in the environment overrides the choice.

**A shared CPU.** A parallel region waits at its end for its slowest thread; when another
process holds the core one of our threads needs, every region waits for the scheduler to
give it back, and two jobs with a thread per core each slow down many times (measured: a
GPT step 0.14 -> 1.8 s beside a second such job on 2 cores). So before parallel work
(``fit_to_load``, at most twice a second) the CPU time other processes used since the last
look decides the thread count: one core fewer for each core they keep busy, all of them
again once they leave. Two such jobs then each run on their own core.

GNU OpenMP does not survive ``fork()``: in a child of a process that used it, MKL waits
forever for threads the child does not have, and Numba terminates the child at its first
parallel kernel. A child forked from a process on the OpenMP pool therefore runs no
parallel native code (``usable()`` is False there): its products and kernels run on NumPy.
"""
import os
import sys

from ..locks import at_fork
from . import blas

__all__ = ["numba_layer", "configure_numba", "usable", "layer_in_use"]

_USABLE = [True]
_CONFIGURED = []      # the layer set for Numba in this process, once chosen


def numba_layer():
    """The threading layer Numba's parallel kernels should use here."""
    chosen = os.environ.get("NUMBA_THREADING_LAYER")
    if chosen:
        return chosen
    return "omp" if blas.backend_name() == "mkl" else "workqueue"


def configure_numba():
    """Set Numba's threading layer (before its first parallel kernel runs)."""
    if not _CONFIGURED:
        import numba
        layer = numba_layer()
        numba.config.THREADING_LAYER = layer
        _CONFIGURED.append(layer)
    return _CONFIGURED[0]


def usable():
    """Whether parallel native code may run in this process (False in a child forked from
    a process on the OpenMP pool)."""
    return _USABLE[0]


def layer_in_use():
    """The layer Numba runs on (launched already, perhaps by the program's own code) or
    the one configured for it; None before either."""
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is not None and getattr(parallel, "_is_initialized", False):
        try:
            return sys.modules["numba"].threading_layer()
        except Exception:     # pragma: no cover - Numba's internals moved
            pass
    return _CONFIGURED[0] if _CONFIGURED else None


def _after_fork_in_child():
    if layer_in_use() == "omp":
        _USABLE[0] = False


at_fork(after_in_child=_after_fork_in_child)
