"""Whether Numba is there, and the switches and counters the native kernels share."""
import os
import threading

NUMBA_AVAILABLE = None          # None: not probed yet; tests monkeypatch this to False
PARALLEL_MIN_ELEMENTS = 1 << 15  # smaller kernels run single-threaded (cheaper to start)
STATS = {"compiled": 0, "loaded": 0, "numpy": 0, "recovered": 0}
LOCK = threading.RLock()


def numba_available():
    global NUMBA_AVAILABLE
    if NUMBA_AVAILABLE is None:
        try:
            import numba
            if "NUMBA_THREADING_LAYER" not in os.environ:
                # OpenMP's worker threads spin after a parallel region and steal the cores
                # from OpenBLAS's threads running the next GEMM (measured 4x slower conv
                # blocks on 2 cores); the workqueue layer sleeps instead.
                numba.config.THREADING_LAYER = "workqueue"
            NUMBA_AVAILABLE = True
        except Exception:     # pragma: no cover - depends on the environment
            NUMBA_AVAILABLE = False
    return NUMBA_AVAILABLE


def svml():
    """Intel SVML (vectorized libm) in this Numba: only then are kernels calling exp, tanh
    and friends faster than NumPy's own SIMD loops."""
    try:
        from numba.core import config
        return bool(config.USING_SVML)
    except Exception:   # pragma: no cover
        return False
