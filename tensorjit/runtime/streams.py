"""Streams and events on tensorjit's one execution stream.

tensorjit runs every kernel synchronously on the calling thread: that is its only stream
(id 0, on device "CPU"), so every ``Stream`` is that stream, waits are already satisfied and
``query`` is True. Events keep their meaning as host timestamps: ``elapsed_time`` gives the
milliseconds between two recorded events (MindSpore's CPU build cannot build an Event; its
stream functions log "CPU device is not supported" and return None).
"""
import time


def _check_stream(who, name, value):
    if not isinstance(value, Stream):
        raise TypeError(f"For '{who}', the argument '{name}' should be Stream, but got "
                        f"{type(value)}.")


class Stream:
    """The CPU execution stream (``priority`` is accepted and has no effect)."""

    def __init__(self, priority=0, **kwargs):
        for name, value in (("priority", priority), ("stream_id", kwargs.get("stream_id", 0))):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'Stream', the '{name}' must be int, but got "
                                f"{type(value).__name__}.")
        self.priority = priority
        self.init_finished = True

    id = stream_id = device_id = 0
    device_name = "CPU"

    def record_event(self, event=None):
        event = Event() if event is None else event
        if not isinstance(event, Event):
            raise TypeError(f"For 'record_event', the argument 'event' should be Event, but "
                            f"got {type(event)}.")
        event.record(self)
        return event

    def wait_event(self, event):
        if not isinstance(event, Event):
            raise TypeError(f"For 'wait_event', the argument 'event' should be Event, but got "
                            f"{type(event)}.")

    def wait_stream(self, stream):
        _check_stream("wait_stream", "stream", stream)

    def synchronize(self):
        """Wait for the stream's work: done already (kernels run synchronously)."""

    def query(self):
        """Whether all the stream's work is done: always, on tensorjit's CPU backend."""
        return True

    def __eq__(self, other):
        _check_stream("__eq__", "other", other)
        return True   # one stream

    def __hash__(self):
        return hash((self.id, self.device_id))

    def __repr__(self):
        return "Stream(device_name=CPU, device_id:0, stream id:0)"


_current = {"stream": None}


def default_stream():
    """The default stream (tensorjit's only one)."""
    return Stream()


def current_stream():
    return _current["stream"] or default_stream()


def communication_stream():
    """The stream collectives run on: the same host thread."""
    return default_stream()


def set_cur_stream(stream):
    _check_stream("set_cur_stream", "stream", stream)
    _current["stream"] = stream


class StreamCtx:
    """Run a block with ``ctx_stream`` as the current stream."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None:
            _check_stream("StreamCtx", "ctx_stream", ctx_stream)
        self.stream, self.prev_stream = ctx_stream, None

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.stream is not None:
            set_cur_stream(self.prev_stream)


class Event:
    """A point in the stream's work; with ``enable_timing``, the host time it was reached."""

    def __init__(self, enable_timing=False, blocking=False):
        for name, value in (("enable_timing", enable_timing), ("blocking", blocking)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Event', the '{name}' must be a bool, but got "
                                f"{type(value).__name__}.")
        self.enable_timing, self.blocking = enable_timing, blocking
        self._time = None

    def record(self, stream=None):
        stream = current_stream() if stream is None else stream
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'record', the argument 'stream' should be Stream, but got "
                            f"{type(stream)}.")
        self._time = time.perf_counter()   # the work launched so far has finished

    def wait(self, stream=None):
        stream = current_stream() if stream is None else stream
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'wait', the argument 'stream' should be Stream, but got "
                            f"{type(stream)}.")

    def synchronize(self):
        """Wait until the event is reached: it is, once recorded."""

    def query(self):
        return True

    def elapsed_time(self, end_event):
        """Milliseconds from this event to ``end_event``."""
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', the argument 'end_event' should be Event, "
                            f"but got {type(end_event)}.")
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument "
                               "'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._time - self._time) * 1000.0
