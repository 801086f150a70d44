"""One finished recording, in the terms the outputs share: events in microseconds from the
start, each with its thread, its nesting and its self time."""
import os
import threading

from .. import timeline

CATEGORIES = ("jit", "kernel", "op", "collective", "compile", "pass", "cache", "dataset",
              "user", "memory", "step")


class Event:
    """One span (``phase`` X), instant (i) or counter sample (C)."""
    __slots__ = ("phase", "name", "category", "start", "duration", "tid", "args", "self_time",
                 "depth", "step")

    def __init__(self, phase, name, category, start, duration, tid, args):
        self.phase, self.name, self.category = phase, name, category
        self.start, self.duration = start, duration          # microseconds
        self.tid, self.args = tid, args or {}
        self.self_time = duration
        self.depth = 0
        self.step = None

    @property
    def end(self):
        return self.start + self.duration

    def __repr__(self):
        return f"Event({self.name!r}, {self.category}, {self.duration:.1f} us)"


class Recording:
    """``events`` sorted by start; ``graphs``: the IR and code of each graph whose kernels
    ran (by label); ``steps``: (number, start, end) of each ``step()`` interval."""

    def __init__(self, recorder, steps=()):
        origin = recorder.started
        self.origin = origin / 1e3           # microseconds of the monotonic clock at start
        self.pid = recorder.pid
        self.duration = ((recorder.stopped or timeline._clock()) - origin) / 1e3
        self.options = {"record_shapes": recorder.record_shapes,
                        "with_stack": recorder.with_stack,
                        "profile_memory": recorder.profile_memory}
        self.events = sorted((Event(phase, name, category, (start - origin) / 1e3,
                                    duration / 1e3, tid, args)
                              for phase, name, category, start, duration, tid, args
                              in recorder.events), key=lambda e: (e.start, -e.duration))
        self.steps = [(n, (s - origin) / 1e3, (e - origin) / 1e3) for n, s, e in steps]
        self.thread_names = _thread_names({e.tid for e in self.events})
        labels = {e.args.get("graph") for e in self.events if e.category in ("kernel",
                                                                             "collective")}
        self.graphs = {label: timeline.graphs[label] for label in labels
                       if label in timeline.graphs}
        self.process_name = _process_name()
        self.metadata = {}                   # profile.add_metadata(...)
        if recorder.profile_memory:
            self.events = sorted(self.events + _graph_memory(self.events),
                                 key=lambda e: (e.start, -e.duration))
        _nest(self.events)
        _assign_steps(self.events, self.steps)

    def spans(self, category=None):
        return [e for e in self.events if e.phase == "X" and
                (category is None or e.category == category)]


def _graph_memory(events):
    """Counter samples of the compiled graphs' intermediates (the liveness estimate of
    each kernel's moment: its results allocated, the buffers dead before it freed)."""
    samples = []
    for e in events:
        if e.phase == "X" and e.category in ("kernel", "collective") and \
                "live_bytes" in e.args:
            samples.append(Event("C", "graph intermediates", "memory", e.start, 0.0, e.tid,
                                 {"estimated_mb": round(e.args["live_bytes"] / 2 ** 20, 3)}))
    return samples


def _nest(events):
    """Depth and self time of every span: a span's children are the spans of its thread
    that start inside it."""
    open_spans = {}
    for event in events:
        if event.phase != "X":
            continue
        stack = open_spans.setdefault(event.tid, [])
        # (a kernel starts where the one before ended: equal in nanoseconds, maybe not in
        # the microseconds computed from them)
        while stack and stack[-1].end <= event.start + 1e-6:
            stack.pop()
        if stack:
            parent = stack[-1]
            parent.self_time -= min(event.duration, parent.end - event.start)
            event.depth = len(stack)
        stack.append(event)
    for event in events:
        event.self_time = max(event.self_time, 0.0)


def _assign_steps(events, steps):
    for event in events:
        for number, start, end in steps:
            if start <= event.start < end:
                event.step = number
                break


def _thread_names(tids):
    names = {t.native_id: t.name for t in threading.enumerate()}
    main = threading.main_thread().native_id
    return {tid: ("main" if tid == main else names.get(tid, f"thread {tid}")) for tid in tids}


def _process_name():
    """``rank r`` under MPI (each rank writes its own trace), else the program's name."""
    for name in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "RANK_ID"):
        if os.environ.get(name, "").isdigit():
            return f"rank {os.environ[name]} (pid {os.getpid()})"
    return f"tensorjit (pid {os.getpid()})"
