"""Which row a pipeline is transforming, so random operations can draw from a stream keyed
by (their seed, the epoch, the row's position in the epoch) instead of one shared generator.

Why: a map's rows are spread over worker threads or forked processes. With one generator
per operation, the threads' draws depend on scheduling and every forked worker starts
from a copy of the same generator state (the workers, and every epoch, repeat each other's
crops and flips). Keyed by the row, a pipeline gives the same rows with any number of
workers, threads or processes, and a rerun with the same seed gives them again.

Called outside a pipeline (``RandomCrop(8)(image)``), an operation has no row and keeps
drawing from its own seeded generator.
"""
import threading

__all__ = ["transforming", "current", "draw64"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_state = threading.local()


class transforming:
    """``with transforming((epoch, position)):`` random operations called inside draw from
    that row's stream; rows nest (a map inside a worker's batch)."""

    __slots__ = ("key", "saved")

    def __init__(self, key):
        self.key = key

    def __enter__(self):
        self.saved = getattr(_state, "row", None)
        _state.row = (self.key, {})          # per-operation draw counters of this row
        return self

    def __exit__(self, *exc):
        _state.row = self.saved
        return False


def current():
    """``(key, counters)`` of the row being transformed, or None."""
    return getattr(_state, "row", None)


def _mix(z):
    # splitmix64's finalizer: every input bit reaches every output bit
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw64(words):
    """A uniformly distributed 64-bit integer determined by the non-negative ints
    ``words``."""
    h = _GOLDEN
    for word in words:
        h = _mix((h ^ (word & _MASK)) + _GOLDEN & _MASK)
    return h
