"""Running pipeline stages ahead of their consumer: an ordered parallel map over worker
threads (or forked processes, ``forked_workers.py``) and a prefetching thread between
stages.

Every background worker stops when its consumer goes away (a loop that breaks early, an
error downstream): the queues are bounded, puts wait with a timeout and look at a stop
flag, so nothing hangs and nothing keeps running. An exception in a worker reaches the
consumer, raised from the consumer's ``next()``.
"""
import collections
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

from . import forked_workers

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


def ordered_map(function, items, workers, depth, processes=False, group=PROCESS_CHUNK):
    """``map(function, items)`` in order, computed by ``workers`` threads, at most
    ``depth`` items in flight; or by forked processes when ``processes`` (``group`` items
    per task, one task in flight per process)."""
    if workers <= 1:
        for item in items:
            yield function(item)
    elif processes and forked_workers.can_fork():
        yield from _in_processes(function, items, workers, group)
    else:
        yield from _in_threads(function, items, workers, depth)


def _in_threads(function, items, workers, depth):
    executor = ThreadPoolExecutor(workers, thread_name_prefix="tensorjit-dataset")
    pending = collections.deque()
    try:
        for item in items:
            pending.append(executor.submit(function, item))
            if len(pending) >= max(depth, workers):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        executor.shutdown(wait=False, cancel_futures=True)


class _Grouped:
    """A worker's function over a group of items (rows travel in groups)."""

    def __init__(self, function):
        self.function = function

    def __call__(self, items):
        return [self.function(item) for item in items]


def _in_processes(function, items, workers, group):
    tasks = iter(_chunks(items, group) if group > 1 else items)
    pool = forked_workers.ForkedWorkers(_Grouped(function) if group > 1 else function, workers)
    sent = received = 0
    ready, more = None, True
    try:
        while True:
            # every idle worker gets its next task before the consumer takes a result
            while more and sent - received < workers:
                task = next(tasks, _END)
                if task is _END:
                    more = False
                else:
                    pool.send(sent % workers, task)
                    sent += 1
            if ready is not None:
                yield from ready
                ready = None
            elif received == sent:
                return
            else:
                result = pool.receive(received % workers)
                received += 1
                ready = result if group > 1 else (result,)
    finally:
        pool.close()
