"""``profile``: one profiling session (MindSpore's ``mindspore.profiler.profile``, used as
PyTorch's ``torch.profiler.profile`` is): start / stop or a ``with`` block, ``step()``
marks training steps, a ``schedule`` says which steps are recorded, ``on_trace_ready``
gets the session after each recorded cycle."""
import enum
import os
import socket
import threading
import time
import warnings

from .. import timeline
from ..autodiff.tape import hold_fast_paths
from .chrome import write_chrome_trace
from .recording import Recording
from . import summary


class ProfilerActivity(enum.Enum):
    CPU = "CPU"
    NPU = "NPU"
    GPU = "GPU"


class ProfilerLevel(enum.Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class AicoreMetrics(enum.Enum):
    AiCoreNone = "AiCoreNone"
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"


class ExportType(enum.Enum):
    Text = "text"
    Db = "db"


class ProfilerAction(enum.Enum):
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class schedule:
    """Which steps are recorded: skip ``skip_first`` steps, then cycles of ``wait`` steps
    not recorded, ``warmup`` steps recorded and dropped, ``active`` steps recorded and
    handed to ``on_trace_ready``; ``repeat`` cycles (0: until the session ends)."""

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        for name, value, least in (("wait", wait, 0), ("active", active, 1),
                                   ("warmup", warmup, 0), ("repeat", repeat, 0),
                                   ("skip_first", skip_first, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"schedule: {name} must be an int >= {least}, got {value!r}")
        self.wait, self.active, self.warmup = wait, active, warmup
        self.repeat, self.skip_first = repeat, skip_first

    def __call__(self, step):
        if step < 0:
            raise ValueError(f"schedule: the step must be >= 0, got {step}")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat and step >= cycle * self.repeat:
            return ProfilerAction.NONE
        at = step % cycle
        if at < self.wait:
            return ProfilerAction.NONE
        if at < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return (ProfilerAction.RECORD_AND_SAVE if at == cycle - 1 else ProfilerAction.RECORD)

    def to_dict(self):
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup,
                "repeat": self.repeat, "skip_first": self.skip_first}


def _always(step):
    return ProfilerAction.RECORD


class _ExperimentalConfig:
    """MindSpore's Ascend-side settings: accepted, and (on this CPU) ignored with a note."""

    def __init__(self, profiler_level=ProfilerLevel.Level0,
                 aic_metrics=AicoreMetrics.AiCoreNone, l2_cache=False, mstx=False,
                 data_simplification=True, export_type=None, mstx_domain_include=None,
                 mstx_domain_exclude=None, sys_io=False, sys_interconnection=False,
                 host_sys=None):
        self.settings = {k: v for k, v in locals().items() if k != "self"}


_noted = set()


def _ignored(name, why="it has no meaning on a CPU"):
    """Say once per process that an argument is accepted but does nothing here."""
    if name not in _noted:
        _noted.add(name)
        warnings.warn(f"tensorjit.profiler: {name} is ignored: {why}", UserWarning,
                      stacklevel=4)


class _MemorySampler(threading.Thread):
    """The process's resident memory every few milliseconds while recording."""

    def __init__(self, interval=0.005):
        super().__init__(name="tensorjit memory sampler", daemon=True)
        self.interval = interval
        self.done = threading.Event()
        self.page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def run(self):
        self.sample()
        while not self.done.wait(self.interval):
            self.sample()

    def sample(self):
        rss = _resident_bytes(self.page)
        if rss is not None:
            timeline.counter("process memory", resident_mb=round(rss / 2 ** 20, 3))

    def finish(self):
        """The last sample, however short the recording was."""
        self.done.set()
        self.join()
        self.sample()


def _resident_bytes(page):
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page
    except (OSError, ValueError, IndexError):
        return None


_session_lock = threading.Lock()
_running = [None]       # the session recording now (one at a time per process)


class profile:
    """Record what tensorjit runs between ``start()`` and ``stop()`` (or in a ``with``
    block): every jitted graph's kernels with the source lines they came from, eager
    operations, compile phases, passes, kernel compiles, collectives, the dataset, user
    markers; ``profile_memory`` adds the process's memory over time."""

    def __init__(self, activities=None, with_stack=False, profile_memory=False,
                 data_process=False, parallel_strategy=False, start_profile=True,
                 hbm_ddr=False, pcie=False, sync_enable=True, record_shapes=False,
                 schedule=None, on_trace_ready=None, experimental_config=None, **kwargs):
        activities = list(activities) if activities is not None else [ProfilerActivity.CPU]
        for activity in activities:
            if not isinstance(activity, ProfilerActivity):
                raise TypeError(f"profile: activities must hold ProfilerActivity values, got "
                                f"{activity!r}")
            if activity is not ProfilerActivity.CPU:
                _ignored(f"activity {activity.name}", "this build runs on the CPU only")
        for name, value in (("parallel_strategy", parallel_strategy), ("hbm_ddr", hbm_ddr),
                            ("pcie", pcie)):
            if value:
                _ignored(name)
        if experimental_config is not None:
            _ignored("experimental_config", "its settings are for Ascend devices")
        for name in kwargs:
            _ignored(name)
        if schedule is not None and not callable(schedule):
            raise TypeError(f"profile: schedule must be callable (a schedule(...)), got "
                            f"{schedule!r}")
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise TypeError(f"profile: on_trace_ready must be callable, got "
                            f"{on_trace_ready!r}")
        self.activities = activities
        self.with_stack = bool(with_stack)
        self.profile_memory = bool(profile_memory)
        self.record_shapes = bool(record_shapes)
        self.data_process = bool(data_process)
        self.schedule = schedule or _always
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.recording = None        # the latest finished Recording
        self.metadata = {}
        self._recorder = None
        self._sampler = None
        self._steps = []             # (number, start ns, end ns) of recorded steps
        self._step_start = None
        self._action = ProfilerAction.NONE
        self._started = False
        self._stepped = False
        self._start_profile = start_profile

    # ---- control -----------------------------------------------------------------------
    def start(self):
        if self._started:
            return
        self._started = True
        self.step_num = 0
        self._action = self.schedule(0)
        if self._action is not ProfilerAction.NONE:
            self._begin()
        self._step_start = time.perf_counter_ns()

    def stop(self):
        if not self._started:
            return
        self._end_step()
        if self._recorder is not None:
            self._finish(save=True)
        self._started = False

    def step(self):
        """The end of a training step: the schedule decides what the next one records."""
        if not self._started:
            return
        self._stepped = True
        self._end_step()
        previous = self._action
        self.step_num += 1
        self._action = self.schedule(self.step_num)
        if previous is ProfilerAction.RECORD_AND_SAVE and self._recorder is not None:
            self._finish(save=True)
        elif previous is not ProfilerAction.NONE and self._action is ProfilerAction.NONE \
                and self._recorder is not None:
            self._finish(save=False)
        if self._action is not ProfilerAction.NONE and self._recorder is None:
            self._begin()
        self._step_start = time.perf_counter_ns()

    def __enter__(self):
        if self._start_profile:
            self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    # ---- results -----------------------------------------------------------------------
    def events(self):
        """The latest recording's events (Recording.events)."""
        return self._latest().events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """Totals per name (PyTorch's ``key_averages``); ``.table(sort_by=..., row_limit=...)``
        prints them. ``group_by_stack_n`` > 0 splits each name by its user source line."""
        return summary.key_averages(self._latest(), group_by_input_shape, group_by_stack_n)

    def by_source_line(self):
        """Kernel and operator time per line of the user's code."""
        return summary.by_source_line(self._latest())

    def export_chrome_trace(self, path):
        """The latest recording as a Chrome trace (open it in https://ui.perfetto.dev or
        chrome://tracing)."""
        return write_chrome_trace(self._latest(), path)

    def export_report(self, path):
        """The latest recording as one self-contained HTML page."""
        from .report import write_report
        return write_report(self._latest(), path)

    def add_metadata(self, key, value):
        self.metadata[str(key)] = str(value)

    def add_metadata_json(self, key, value):
        self.metadata[str(key)] = value

    # ---- internals ---------------------------------------------------------------------
    def _latest(self):
        if self.recording is None:
            raise RuntimeError("profile: nothing recorded yet (call start() and stop(), or "
                               "use it in a with block, and run something in between)")
        return self.recording

    def _begin(self):
        with _session_lock:
            if _running[0] is not None and _running[0] is not self:
                raise RuntimeError("profile: another profiler is recording in this process; "
                                   "stop it first")
            _running[0] = self
            self._recorder = timeline.Recorder(self.record_shapes, self.with_stack,
                                               self.profile_memory)
            self._steps = []
            timeline.start(self._recorder)
            hold_fast_paths(1)
        if self.profile_memory:
            self._sampler = _MemorySampler()
            self._sampler.start()

    def _end_step(self):
        if self._recorder is None or self._step_start is None:
            return
        now = time.perf_counter_ns()
        # (a session whose steps are never marked has no step spans, as PyTorch's)
        if self._action is not ProfilerAction.NONE and (self.step_num or self._stepped):
            self._recorder.add("X", f"step {self.step_num}", "step", self._step_start,
                               now - self._step_start, {"action": self._action.name})
            if self._action is not ProfilerAction.WARM_UP:
                self._steps.append((self.step_num, self._step_start, now))

    def _finish(self, save):
        if self._sampler is not None:
            self._sampler.finish()
            self._sampler = None
        with _session_lock:
            recorder = timeline.stop()
            hold_fast_paths(-1)
            _running[0] = None
        self._recorder = None
        if recorder is None or not save:
            return
        if self._steps and self.schedule is not _always:
            first = self._steps[0][1]       # warm-up steps are recorded, then dropped
            recorder.events = [e for e in recorder.events if e[3] >= first]
        self.recording = Recording(recorder, self._steps)
        self.recording.metadata = dict(self.metadata)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True,
                              async_mode=False):
    """An ``on_trace_ready`` writing each recorded cycle to ``dir_name`` (default
    ``./data``) in MindSpore's layout: ``<worker>_<time>_ascend_ms/ASCEND_PROFILER_OUTPUT/``
    with ``trace_view.json`` (Chrome trace), ``report.html``, ``op_statistic.csv`` and
    ``kernel_details.csv``."""
    if async_mode:
        _ignored("async_mode", "the trace is written when the cycle ends")
    directory = os.path.abspath(dir_name or "./data")

    def handler(session):
        if not analyse_flag:
            return
        from . import output
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        output.write_all(session.recording, directory, name)
    return handler


def tensor_board_trace_handler(*args, **kwargs):
    """MindSpore 2.5's spelling: passed itself as ``on_trace_ready`` (its examples do), it
    writes to ``./data``; called with arguments, it returns a handler."""
    if len(args) == 1 and not kwargs and isinstance(args[0], profile):
        return tensorboard_trace_handler()(args[0])
    return tensorboard_trace_handler(*args, **kwargs)
