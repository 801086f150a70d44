"""Tiered compilation: native kernels compile in the background while the program runs
their NumPy versions, and each switches to native code once it is compiled.

Numba takes about a second per kernel and a model's O1 graph has dozens: compiled one
after another before the first call they would stall the first step for a minute. Here
preparing a kernel only queues it (``submit``). Where the kernel cache is on disk, a
compile server (``compile_server.py``, a second interpreter, so its Python work never
holds this one's GIL) compiles it into the cache, and a worker thread here then loads it
from there in milliseconds; otherwise (no usable cache directory, no server) the worker
thread compiles it. While the worker runs, the interpreter's switch interval is lowered,
so that the program's thread gets the GIL back quickly after each NumPy call. The worker takes one
kernel at a time under the compile lock, so a ``fork()`` waits for at most one
(``config.py``).

A forked child inherits the queue but neither the thread nor the server: the next kernel
that is not ready starts a worker there, and kernels the parent's server was compiling go
back to the queue (a child forked mid-compile never compiles: ``config.COMPILE_AFTER_FORK``).
``TENSORJIT_BACKGROUND_COMPILE=0`` compiles synchronously, at prepare time;
``TENSORJIT_COMPILE_SERVER=0`` compiles in the worker thread; ``wait()`` blocks until every
queued kernel is ready.
"""
import collections
import json
import os
import queue
import subprocess
import sys
import threading
import warnings

from ...locks import ForkSafeLock, at_fork
from ...ops import winograd
from . import config

ENABLED = os.environ.get("TENSORJIT_BACKGROUND_COMPILE", "1") != "0"
USE_SERVER = os.environ.get("TENSORJIT_COMPILE_SERVER", "1") != "0"
SERVER_COMMAND = [sys.executable, "-m", "tensorjit.backend.numba.compile_server"]
SWITCH_INTERVAL = 2e-4        # seconds, while this process compiles (CPython's: 5e-3)

_queue = collections.deque()  # (NativeKernel, signature key, Numba types): load / compile
_lock = ForkSafeLock()
_state = {"worker": None, "interval": None, "server": None, "outbox": None}
_waiting = {}                 # stem -> [(NativeKernel, key, types)] at the server
_done = threading.Condition(threading.Lock())


def submit(native, key, types):
    """Queue ``native`` to be compiled for Numba ``types`` (``key``: their signature)."""
    with _lock:
        if not _to_server_locked(native, key, types):
            _queue.append((native, key, types))
            _start_locked()


def poke():
    """Start a worker if kernels are queued and none runs (after a fork)."""
    if _queue and _state["worker"] is None:
        with _lock:
            _start_locked()


def pending():
    return len(_queue) + sum(len(v) for v in _waiting.values())


def wait(timeout=None):
    """Block until every queued kernel is compiled, and the convolutions' Winograd
    transforms (``ops/winograd.py``, compiled in their own thread) are; False if
    ``timeout`` ran out."""
    poke()
    with _done:
        if not _done.wait_for(lambda: not pending(), timeout):
            return False
    return winograd.wait_started(timeout)


# ---------------------------------------------------------------------------------------
# the worker thread: loads what the server compiled, compiles the rest

def _start_locked():
    if _state["worker"] is not None or not _queue or not config.COMPILE_AFTER_FORK:
        return
    worker = threading.Thread(target=_work, name="tensorjit-kernel-compiler", daemon=True)
    _state["worker"] = worker
    worker.start()


def _work():
    while True:
        with _lock:
            if not _queue:
                _state["worker"] = None
                _restore_interval_locked()
                break
            # stays queued while it compiles: a child forked meanwhile compiles it again
            native, key, types = _queue[0]
            _lower_interval_locked()          # the program's thread gets the GIL back fast
        try:
            native.prepare_types(key, types)
        except Exception as exc:          # the kernel's NumPy version keeps running
            native.failed = True
            warnings.warn(f"tensorjit: a native kernel failed to compile ({type(exc).__name__}"
                          f": {exc}); it runs on NumPy", RuntimeWarning)
        finally:
            with _lock:
                if _queue and _queue[0][0] is native:
                    _queue.popleft()
            _notify()
    _notify()


def _notify():
    with _done:
        _done.notify_all()


def _lower_interval_locked():
    if _state["interval"] is None:
        _state["interval"] = sys.getswitchinterval()
        sys.setswitchinterval(min(SWITCH_INTERVAL, _state["interval"]))


def _restore_interval_locked():
    if _state["interval"] is not None:
        sys.setswitchinterval(_state["interval"])
        _state["interval"] = None


# ---------------------------------------------------------------------------------------
# the compile server

def _spec(key):
    """The server's description of a signature, or None if it cannot make one."""
    spec = []
    for entry in key:
        if isinstance(entry, tuple):
            dtype, ndim, contiguous, writeable = entry
            if not (contiguous and writeable):
                return None
            spec.append([dtype, ndim])
        else:
            return None
    return spec


def _to_server_locked(native, key, types):
    spec = _spec(key)
    if not USE_SERVER or native.directory is None or spec is None:
        return False
    server = _state["server"] or _start_server_locked()
    if server is None:
        return False
    request = {"directory": native.directory, "stem": native.stem, "source": native.source,
               "arrays": spec}
    # the writer thread sends it: the pipe holds ~64 KB, and the server reads a request
    # only when it has compiled the one before, so a write here would wait for compiles
    _state["outbox"].put(json.dumps(request) + "\n")
    _waiting.setdefault(native.stem, []).append((native, key, types))
    return True


def _start_server_locked():
    if _state["server"] is False:             # failed before
        return None
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    try:
        server = subprocess.Popen(
            SERVER_COMMAND,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env=env)
    except OSError:
        _state["server"] = False
        return None
    _state["server"] = server
    _state["outbox"] = outbox = queue.SimpleQueue()
    threading.Thread(target=_read_replies, args=(server,), name="tensorjit-kernel-server",
                     daemon=True).start()
    threading.Thread(target=_send_requests, args=(server, outbox),
                     name="tensorjit-kernel-requests", daemon=True).start()
    return server


def _send_requests(server, outbox):
    """Write queued requests to the server (blocking on a full pipe is this thread's). If
    the server is gone, its reply reader sees the end of its output and re-queues them."""
    while True:
        line = outbox.get()
        try:
            server.stdin.write(line)
            server.stdin.flush()
        except (OSError, ValueError):
            return


def _read_replies(server):
    """Each compiled kernel goes to the worker, which loads it from the cache; on an
    error, or when the server exits, the worker compiles it here."""
    for line in server.stdout:
        try:
            reply = json.loads(line)
        except ValueError:
            continue
        with _lock:
            items = _waiting.pop(reply.get("stem"), ())
        _back_to_queue(items, compiled=bool(reply.get("ok")))
    with _lock:
        if _state["server"] is server:
            _state["server"] = False
        orphans = [item for items in _waiting.values() for item in items]
        _waiting.clear()
    _back_to_queue(orphans, compiled=False)


def _back_to_queue(items, compiled):
    with _lock:
        for native, key, types in items:
            if compiled:
                native.server_done.add(key)
            _queue.append((native, key, types))
        _start_locked()
    _notify()


def _after_fork_in_child():
    _state["worker"] = None             # neither the threads nor the server came along
    server, _state["server"] = _state["server"], None
    _state["outbox"] = None
    if server:
        try:
            server.stdin.close()        # this process's copy of the pipe
        except OSError:
            pass
    _restore_interval_locked()
    for items in _waiting.values():
        _queue.extend(items)
    _waiting.clear()
    global _done
    _done = threading.Condition(threading.Lock())


at_fork(after_in_child=_after_fork_in_child)
