"""How many threads parallel work uses: the CPUs other processes leave us.

A parallel region waits at its end for its slowest thread. When another process holds the
core one of our threads needs, every region waits for the scheduler to give that core back,
and two jobs with a thread per core each slow down many times over (measured on 2 cores: a
GPT step 0.14 -> 1.8 s beside a second such job, PyTorch's to 3.3 s). So the thread count
of the BLAS and of Numba's kernels follows what the last half second showed while we were
working (``fit_to_load``, which products and parallel kernels call: a clock read or two
between looks):

* one thread fewer when the working thread spent a good part of its running time waiting in
  the scheduler's queue for a CPU (``/proc/self/task/<id>/schedstat``): other work holds a
  core we were counting on. (Not the pool's other threads: between our calls they spin,
  and a neighbour preempting that spinning costs nothing);
* one thread more (up to the usable CPUs, and to what ``OMP_NUM_THREADS`` /
  ``MKL_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` / ``NUMBA_NUM_THREADS`` allow when set)
  when, while we were working, the other processes
  together left most of a core free (``/proc/stat``, read at most every 0.1 s during work;
  what others do while we wait for input does not count).

Two such jobs then settle on a core each. Where Linux's counters are missing, the count
stays at the libraries' default. ``TENSORJIT_NUM_THREADS=N`` fixes the count at N instead.
"""
import os
import sys
import threading
import time

from .tuning import machine, timing

__all__ = ["fit_to_load", "threads"]

CHECK_SECONDS = 0.5       # how often the count is reconsidered
READ_SECONDS = 0.1        # /proc/stat is read at most this often while we work ...
WORKING_GAP = 0.02        # ... and calls further apart than this mean we stopped working
MIN_RUN_SECONDS = 0.05    # less running time than this in a look: nothing to judge by
CROWDED = 0.25            # waiting for a CPU this long per second of running: one thread less
FREE_CORE = 0.75          # this much of a core (in CPUs) left by all other work: it is free


class _Share:
    """The thread count now, and what was seen since the last look."""

    def __init__(self):
        self.lock = threading.Lock()
        self.count = None             # threads set here (None: the libraries' default)
        self.next_look = 0.0
        self.last_call = -1.0
        self.reading = None           # (wall, busy seconds of all processes, own seconds)
        self.working = [0.0, 0.0]     # seconds worked since the look, CPU seconds of others
        self.thread = {}              # thread id -> (running, waiting) at its last look
        self.fixed = None             # TENSORJIT_NUM_THREADS (0: follow the load)


_share = _Share()
_numba_count = threading.local()      # Numba's count is set per launching thread


THREAD_LIMITS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                 "NUMBA_NUM_THREADS")


def threads():
    """The threads parallel work uses now."""
    return _share.count or most_threads()


def most_threads():
    """The usable CPUs, or fewer where the user's environment limits the libraries' threads
    (an MPI job's one thread per rank stays one)."""
    limits = [int(v) for v in (os.environ.get(name, "").strip() for name in THREAD_LIMITS)
              if v.isdigit() and int(v) > 0]
    return min([machine.usable_cpus()] + limits)


def fit_to_load():
    """Before parallel work: account for the time since the last call and, every
    ``CHECK_SECONDS``, adjust the thread count."""
    now = time.monotonic()
    if _share.fixed is None:
        _share.fixed = _fixed_count()
    if _share.fixed:
        if _share.count != _share.fixed:
            with _share.lock:
                _set_blas_threads(_share.fixed)
                _share.count = _share.fixed
        if getattr(_numba_count, "value", None) != _share.count:
            _set_numba_threads()
        return
    gap, _share.last_call = now - _share.last_call, now
    if gap > WORKING_GAP:
        _share.reading = None             # we were idle: start a new stretch of work
    elif _share.reading is None or now - _share.reading[0] >= READ_SECONDS:
        _read_others(now)
    if now >= _share.next_look:
        with _share.lock:
            if now >= _share.next_look:
                _share.next_look = now + CHECK_SECONDS
                wanted = _wanted()
                _share.working = [0.0, 0.0]
                if wanted != threads():
                    _set_blas_threads(wanted)
                    _share.count = wanted
    if getattr(_numba_count, "value", None) != _share.count:
        _set_numba_threads()


def _fixed_count():
    value = os.environ.get("TENSORJIT_NUM_THREADS", "").strip()
    if not value:
        return 0
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"TENSORJIT_NUM_THREADS={value!r}: expected a positive number of "
                         f"threads (unset: follow the other processes' load)")
    return int(value)


def _read_others(now):
    """Add the other processes' CPU time since the last reading to the working stretch."""
    reading = (now, timing.system_busy_seconds(), timing.own_cpu_seconds())
    previous, _share.reading = _share.reading, reading
    if previous is not None and reading[1] is not None and previous[1] is not None:
        _share.working[0] += reading[0] - previous[0]
        _share.working[1] += (reading[1] - previous[1]) - (reading[2] - previous[2])


def _wanted():
    """The thread count what this thread and the others did since the last look call for."""
    cpus, current = most_threads(), threads()
    tid = threading.get_native_id()
    times = _thread_times(tid)
    previous = _share.thread.get(tid)
    if times is not None:
        _share.thread[tid] = times
    if times is not None and previous is not None:
        run, wait = times[0] - previous[0], times[1] - previous[1]
        if run >= MIN_RUN_SECONDS and wait > CROWDED * run and current > 1:
            return current - 1
    worked, others = _share.working
    if current < cpus and worked >= MIN_RUN_SECONDS and \
            cpus - current - others / worked >= FREE_CORE:
        return current + 1
    return current


def _thread_times(tid):
    """(seconds running, seconds waiting for a CPU) of thread ``tid`` of this process
    (Linux's schedstat), or None where the system does not say."""
    try:
        with open(f"/proc/self/task/{tid}/schedstat") as f:
            run, wait = f.read().split()[:2]
        return int(run) * 1e-9, int(wait) * 1e-9
    except (OSError, ValueError):
        return None


def _set_numba_threads():
    """This thread's Numba launches take the current count (once Numba's pool runs)."""
    count = _share.count
    # read from sys.modules, never imported here: another thread may be importing Numba,
    # and importing its parts mid-way is a circular import
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if count is None or not getattr(parallel, "_is_initialized", False):
        return            # not launched yet: a call after its first kernel sets it
    import numba
    numba.set_num_threads(min(count, numba.config.NUMBA_NUM_THREADS))
    _numba_count.value = count


def _set_blas_threads(count):
    """Every BLAS loaded in the process runs on ``count`` threads from now on
    (threadpoolctl finds them, whoever loaded them)."""
    import threadpoolctl
    for library in threadpoolctl.ThreadpoolController().lib_controllers:
        if library.user_api == "blas":
            library.set_num_threads(count)
