"""Running pipeline stages ahead of their consumer: an ordered parallel map over worker
threads (or forked processes) and a prefetching thread between stages.

Every background worker stops when its consumer goes away (a loop that breaks early, an
error downstream): the queues are bounded, puts wait with a timeout and look at a stop
flag, so nothing hangs and nothing keeps running. An exception in a worker reaches the
consumer, raised from the consumer's ``next()``.
"""
import collections
import multiprocessing
import queue
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, ProcessPoolExecutor

__all__ = ["ordered_map", "prefetch"]

_END = object()


class _Failure:
    def __init__(self, exc):
        self.exc = exc


def prefetch(rows, depth):
    """Yield the items of the iterator ``rows`` while a thread computes up to ``depth``
    items ahead."""
    items = queue.Queue(maxsize=max(1, depth))
    stop = threading.Event()

    def produce():
        try:
            for row in rows:
                while not stop.is_set():
                    try:
                        items.put(row, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            item = _END
        except BaseException as exc:            # reaches the consumer
            item = _Failure(exc)
        while not stop.is_set():
            try:
                items.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    thread = threading.Thread(target=produce, name="tensorjit-dataset-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            item = items.get()
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.exc
            yield item
    finally:
        stop.set()       # the thread ends after its current row; ``rows`` is then dropped


# Forked map workers get the function through the fork itself (so lambdas and closures
# work, nothing is pickled but the rows).
_FORKED_FUNCTION = None


def _install(function):
    global _FORKED_FUNCTION
    _FORKED_FUNCTION = function


def _call_installed(items):
    return [_FORKED_FUNCTION(item) for item in items]


# rows per task sent to a forked worker: one round trip between processes costs about as
# much as transforming a small image, so rows travel in groups
PROCESS_CHUNK = 8


def _chunks(items, size):
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _executor(workers, processes):
    if processes and sys.platform != "win32" and "fork" in multiprocessing.get_all_start_methods():
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_install, initargs=(processes,)), True
    return ThreadPoolExecutor(workers, thread_name_prefix="tensorjit-dataset"), False


def _results(future, chunked):
    result = future.result()
    if chunked:
        yield from result
    else:
        yield result


def ordered_map(function, items, workers, depth, processes=False):
    """``map(function, items)`` in order, computed by ``workers`` threads (or forked
    processes when ``processes``), at most ``depth`` items in flight."""
    if workers <= 1:
        for item in items:
            yield function(item)
        return
    executor, forked = _executor(workers, function if processes else None)
    if forked:
        tasks, call, depth = _chunks(items, PROCESS_CHUNK), _call_installed, \
            max(1, depth // PROCESS_CHUNK)
    else:
        tasks, call = items, function
    pending = collections.deque()
    try:
        for task in tasks:
            pending.append(executor.submit(call, task))
            if len(pending) >= max(depth, workers):
                yield from _results(pending.popleft(), forked)
        while pending:
            yield from _results(pending.popleft(), forked)
    finally:
        for future in pending:
            future.cancel()
        executor.shutdown(wait=False, cancel_futures=True)
