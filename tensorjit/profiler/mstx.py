"""User markers on the timeline (MindSpore's ``mindspore.profiler.mstx``): ``mark`` an
instant, ``range_start`` / ``range_end`` a span (across threads too). Free when no
profiler records."""
import itertools
import threading

from .. import timeline

_ids = itertools.count(1)
_open = {}          # range id -> (message, start ns, domain)
_lock = threading.Lock()


def mark(message, stream=None, domain="default"):
    timeline.instant(str(message), "user", domain=domain)


def range_start(message, stream=None, domain="default"):
    """Returns the id to pass to ``range_end`` (0 when no profiler records)."""
    if timeline.recorder is None:
        return 0
    with _lock:
        range_id = next(_ids)
        _open[range_id] = (str(message), timeline._clock(), domain)
    return range_id


def range_end(range_id, domain="default"):
    with _lock:
        opened = _open.pop(range_id, None)
    active = timeline.recorder
    if opened is None or active is None:
        return
    message, start, opened_domain = opened
    active.add("X", message, "user", start, timeline._clock() - start,
               {"domain": opened_domain})


class record_function:
    """``with record_function("data prep"):`` a named span of the user's own."""

    def __init__(self, name):
        self.name = str(name)
        self._span = None

    def __enter__(self):
        self._span = timeline.span(self.name, "user")
        self._span.__enter__()
        return self

    def __exit__(self, *exc):
        self._span.__exit__(*exc)
        return False
