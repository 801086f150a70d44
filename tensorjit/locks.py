"""Locks that a process made by ``fork()`` gets back unlocked.

A child of ``fork()`` has one thread, the one that forked, but a copy of every lock: one
that another thread held at that moment (compiling a graph or a kernel) stays locked for
ever, and the child's first jitted call would wait on it. tensorjit's locks are
``ForkSafeLock``s, which the child replaces with fresh ones (a reentrant lock the forking
thread itself holds is kept). ``at_fork`` registers what a module must do around a fork.
"""
import os
import threading
import weakref

_locks = weakref.WeakSet()


class ForkSafeLock:
    """``threading.Lock`` (or ``RLock`` with ``reentrant=True``), renewed in a forked
    child."""
    __slots__ = ("_lock", "_reentrant", "__weakref__")

    def __init__(self, reentrant=False):
        self._reentrant = reentrant
        self._lock = threading.RLock() if reentrant else threading.Lock()
        _locks.add(self)

    def acquire(self, blocking=True, timeout=-1):
        return self._lock.acquire(blocking, timeout)

    def release(self):
        self._lock.release()

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc):
        return self._lock.__exit__(*exc)

    def _renew(self):
        if self._reentrant and self._lock._is_owned():
            return
        self._lock = threading.RLock() if self._reentrant else threading.Lock()


def _renew_all():
    for lock in list(_locks):
        lock._renew()


def at_fork(before=None, after_in_parent=None, after_in_child=None):
    """``os.register_at_fork`` where the platform has it (not on Windows)."""
    if hasattr(os, "register_at_fork"):
        hooks = {k: v for k, v in (("before", before), ("after_in_parent", after_in_parent),
                                   ("after_in_child", after_in_child)) if v is not None}
        os.register_at_fork(**hooks)


at_fork(after_in_child=_renew_all)
