"""Whether Numba is there, and the switches and counters the native kernels share."""
import logging  # noqa: F401  (imported before the fork hooks below are registered; see there)

from ...locks import ForkSafeLock, at_fork
from ...ops import thread_pool

NUMBA_AVAILABLE = None          # None: not probed yet; tests monkeypatch this to False
PARALLEL_MIN_ELEMENTS = 1 << 15  # smaller kernels run single-threaded (cheaper to start)
STATS = {"compiled": 0, "loaded": 0, "numpy": 0, "recovered": 0}
LOCK = ForkSafeLock(reentrant=True)   # one kernel compiles at a time
COMPILE_AFTER_FORK = True    # False in a child forked while a kernel was compiling


# fork() waits (a bounded time) for a kernel being compiled, or Numba being imported: a
# child forked in the middle would inherit LLVM's and Numba's state half-way, and the
# import lock of a module another thread was importing stays held in the child for ever.
# If the wait runs out, the child builds no new native kernels (they run on NumPy), and
# never waits on a lock that nobody in it will release.
_FORK_WAIT_SECONDS = 60.0
_held_for_fork = [False]


def _before_fork():
    _held_for_fork[0] = LOCK.acquire(timeout=_FORK_WAIT_SECONDS)


def _after_fork_in_parent():
    if _held_for_fork[0]:
        LOCK.release()


def _after_fork_in_child():
    global COMPILE_AFTER_FORK
    if _held_for_fork[0]:
        LOCK.release()
    else:
        COMPILE_AFTER_FORK = False


# "before" hooks run in the reverse order of registration. logging's (3.10, 3.12+) takes
# its module lock, which a thread importing Numba under LOCK may need: registered after
# logging's, ours runs first and waits for that thread before logging's lock is taken.
at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
        after_in_child=_after_fork_in_child)


def numba_available():
    if NUMBA_AVAILABLE is None:
        with LOCK:       # a fork waits for the import (see above)
            _probe_numba()
    return NUMBA_AVAILABLE


def _probe_numba():
    global NUMBA_AVAILABLE
    if NUMBA_AVAILABLE is None:
        try:
            import numba  # noqa: F401
            thread_pool.configure_numba()      # the products' OpenMP pool when MKL runs them
            _quiet_ir_checks()
            NUMBA_AVAILABLE = True
        except Exception:     # pragma: no cover - depends on the environment
            NUMBA_AVAILABLE = False


def _quiet_ir_checks():
    """Numba's pedantic SSA check can warn (NumbaIRAssumptionWarning, "please report") on
    the selects scalar_math's functions make; the code it compiles is right, and a user
    should not see it. A filter for that one category, once: a ``catch_warnings`` around
    each compilation would race with the program's own warning contexts when kernels
    compile in a background thread (the module-wide state it restores is not per thread)."""
    import warnings
    from numba.core.errors import NumbaIRAssumptionWarning
    warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)


def svml():
    """Intel SVML (vectorized libm) in this Numba: only then are kernels calling exp, tanh
    and friends faster than NumPy's own SIMD loops."""
    try:
        from numba.core import config
        return bool(config.USING_SVML)
    except Exception:   # pragma: no cover
        return False
