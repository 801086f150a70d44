"""Waiting for a pipeline's worker threads to end (they stop after their current row)."""
import threading
import time


def dataset_threads_end(seconds=10):
    """True once no ``tensorjit-dataset`` thread is alive, False if ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while any(t.name.startswith("tensorjit-dataset") for t in threading.enumerate()):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True
