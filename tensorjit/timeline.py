"""What a running profiler records: timed spans, instants and counters, on every thread.

Every layer reports here (eager ops, a compiled graph's kernels, capture, passes, code
generation, kernel compiles, collectives, the dataset); ``tensorjit.profiler`` (top layer)
turns a recording into a Chrome trace, tables and a report. With no profiler recording,
``recorder`` is None and each report point costs one global read.

An event is a tuple ``(phase, name, category, start ns, duration ns, thread id, args)``,
phases as in Chrome's trace event format: ``X`` a span, ``i`` an instant, ``C`` a counter
(args: the values). Times are ``time.perf_counter_ns()``.
"""
import os
import sys
import threading
import time

__all__ = ["recorder", "graphs", "Recorder", "span", "instant", "counter", "user_line",
           "user_stack", "op_done", "kernel_done", "start", "stop"]

recorder = None          # the Recorder now recording, or None
# what the report shows of each graph profiled in this process (its IR, its timed code),
# by the label its kernels' events carry
graphs = {}
_clock = time.perf_counter_ns
_thread_id = threading.get_native_id
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class Recorder:
    """The events of one recording, and what was asked of it."""

    def __init__(self, record_shapes=False, with_stack=False, profile_memory=False):
        self.record_shapes = record_shapes
        self.with_stack = with_stack
        self.profile_memory = profile_memory
        self.events = []          # list.append is atomic: threads record without a lock
        self.pid = os.getpid()
        self.started = _clock()
        self.stopped = None

    def add(self, phase, name, category, start, duration, args=None):
        self.events.append((phase, name, category, start, duration, _thread_id(), args))


class _Span:
    __slots__ = ("name", "category", "args", "start")

    def __init__(self, name, category, args):
        self.name, self.category, self.args = name, category, args

    def __enter__(self):
        self.start = _clock()
        return self

    def __exit__(self, *exc):
        active = recorder
        if active is not None:
            active.add("X", self.name, self.category, self.start, _clock() - self.start,
                       self.args)


class _Nothing:
    __slots__ = ()
    args = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NOTHING = _Nothing()


def span(name, category, **args):
    """``with span("passes", "compile"):`` records the block's time while a profiler
    records; ``span(...).args`` may be filled in inside the block."""
    if recorder is None:
        return _NOTHING
    return _Span(name, category, args)


def instant(name, category, **args):
    active = recorder
    if active is not None:
        active.add("i", name, category, _clock(), 0, args)


def counter(name, **values):
    active = recorder
    if active is not None:
        active.add("C", name, "memory", _clock(), 0, values)


def user_line(skip=2):
    """``file:line`` of the innermost caller outside tensorjit (and NumPy), or None."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith((_PACKAGE, "<tensorjit")) and \
                os.sep + "numpy" + os.sep not in filename:
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def user_stack(skip=2, depth=16):
    """The caller's frames outside tensorjit, innermost first (``file:line (function)``)."""
    frames, frame = [], sys._getframe(skip)
    while frame is not None and len(frames) < depth:
        filename = frame.f_code.co_filename
        if not filename.startswith((_PACKAGE, "<tensorjit")):
            frames.append(f"{filename}:{frame.f_lineno} ({frame.f_code.co_name})")
        frame = frame.f_back
    return frames


def op_done(prim, arrays, start):
    """An eager primitive call that started at ``start`` has returned."""
    active = recorder
    if active is None:
        return
    end = _clock()
    args = {"line": user_line(3)}
    if active.with_stack:
        args["stack"] = user_stack(3)
    if active.record_shapes:
        args["shapes"] = [list(getattr(a, "shape", ())) for a in arrays]
    category = "collective" if prim.communicates else "op"
    active.events.append(("X", prim.name, category, start, end - start, _thread_id(), args))


def kernel_done(table, index, start):
    """A compiled graph's kernel ``table[index]`` (name, category, args) started at
    ``start`` has returned; returns the time now, the next kernel's start."""
    end = _clock()
    active = recorder
    if active is not None:
        name, category, args = table[index]
        active.events.append(("X", name, category, start, end - start, _thread_id(), args))
    return end


def start(new_recorder):
    global recorder
    recorder = new_recorder


def stop():
    """End the recording; returns it (None if none was running)."""
    global recorder
    active, recorder = recorder, None
    if active is not None:
        active.stopped = _clock()
    return active
