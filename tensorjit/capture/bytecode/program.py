"""What bytecode capture produces: a tree of segments run at call time.

    Segment      a point in the function where execution can resume (a frozen frame
                 state); holds the captured versions ("alternatives") of what follows it.
    Alternative  guards, a prelude of pure Python operations on run-time values, one
                 compiled graph, then a terminator:
                   Return  -- build the result;
                   Action  -- run one Python call for real (the graph break), store its
                              result, continue at the next Segment;
                   Branch  -- a Python decision on a run-time value (``if x.sum() > 0``):
                              continue at the Segment for that outcome, captured the
                              first time the outcome happens;
                   Interpret -- run the rest with the bytecode interpreter on real values
                              (for code the capture cannot handle).

A call walks the tree from the root; where no alternative's guards hold, capture resumes
right there, with the call's real values, and the call finishes inside that capture.
"""

import numpy as np

from ...tensor import Tensor
from ...ops.effects import GuardFailure
from ..base import LOCATION_PROVIDERS
from .values import build
from ...locks import ForkSafeLock


class Segment:
    __slots__ = ("snapshot", "alternatives", "label")

    def __init__(self, snapshot, label):
        self.snapshot = snapshot          # frozen frames (see interpreter.FrameSnapshot)
        self.alternatives = []
        self.label = label                # "file:line" where it starts, for explain


class Action:
    """A Python call run for real at a graph break."""
    __slots__ = ("fn", "args", "kwargs", "slot", "reason", "source", "kind", "next")

    def __init__(self, fn, args, kwargs, slot, reason, source, kind, next_segment):
        self.fn, self.args, self.kwargs = fn, args, kwargs     # templates
        self.slot = slot
        self.reason, self.source, self.kind = reason, source, kind
        self.next = next_segment

    def run(self, env):
        fn = build(self.fn, env)
        args = [build(a, env) for a in self.args]
        kwargs = {k: build(v, env) for k, v in self.kwargs.items()}
        env[self.slot] = fn(*args, **kwargs)
        return self.next


class Branch:
    """Continue where a run-time Python decision leads."""
    __slots__ = ("slot", "children", "make_child", "reason", "source", "kind")

    def __init__(self, slot, make_child, reason, source, kind):
        self.slot = slot
        self.children = {}
        self.make_child = make_child      # outcome -> Segment
        self.reason, self.source, self.kind = reason, source, kind

    def outcome(self, env):
        return bool(env[self.slot])

    def run(self, env):
        outcome = self.outcome(env)
        child = self.children.get(outcome)
        if child is None:        # (setdefault: threads meeting a new outcome share one)
            child = self.children.setdefault(outcome, self.make_child(outcome))
        return child


class IterBranch(Branch):
    """``for`` over a run-time sequence: has it another item at position ``index``?"""
    __slots__ = ("index",)

    def __init__(self, slot, index, make_child, reason, source, kind):
        super().__init__(slot, make_child, reason, source, kind)
        self.index = index

    def outcome(self, env):
        return self.index < len(env[self.slot])


class Return:
    __slots__ = ("template",)

    def __init__(self, template):
        self.template = template


class Interpret:
    """Run the rest of the call in the interpreter with real values (no graph)."""
    __slots__ = ("reason", "source", "kind")

    def __init__(self, reason, source, kind):
        self.reason, self.source, self.kind = reason, source, kind


class PreludeOp:
    """``env[slot] = fn(*args)`` for a pure Python operation on run-time values."""
    __slots__ = ("fn", "args", "kwargs", "slot")

    def __init__(self, fn, args, kwargs, slot):
        self.fn, self.args, self.kwargs, self.slot = fn, args, kwargs, slot

    def run(self, env):
        env[self.slot] = self.fn(*[build(a, env) for a in self.args],
                                 **{k: build(v, env) for k, v in self.kwargs.items()})


class Alternative:
    __slots__ = ("guards", "prelude", "executable", "graph", "inputs", "outputs",
                 "write_backs", "terminator", "shape_dependent", "uses_cells",
                 "graph_guards")

    def __init__(self, guards, prelude, executable, graph, inputs, outputs, write_backs,
                 terminator):
        self.guards = guards
        self.prelude = prelude
        self.executable = executable
        self.graph = graph
        self.inputs = inputs              # [(slot, converter)] feeding the graph
        self.outputs = outputs            # slot receiving each graph result (None: a
                                          # write-back, see write_backs)
        self.write_backs = write_backs    # [(slot, output index)]: in-place updates
        self.terminator = terminator
        self.shape_dependent = True       # set by the driver from its capture
        self.uses_cells = False
        self.graph_guards = []            # guards inside the graph (values read by library
                                          # code, as in trace mode): their descriptions

    def run(self, env):
        """Run prelude and graph; False if this version does not apply to ``env``.

        The prelude is pure, so it may run before the guards (some guards are about
        its results) and be thrown away when they fail."""
        try:
            for op in self.prelude:
                op.run(env)
        except Exception:
            return False
        if not all(g.check(env) for g in self.guards):
            return False
        if self.executable is None:
            return True
        try:
            fn = self.executable.function()
            outs = fn(*[convert(env[slot]) for slot, convert in self.inputs])
        except GuardFailure:
            return False
        for slot, value in zip(self.outputs, outs):
            if slot is not None:
                env[slot] = Tensor._wrap(value)
        for slot, index in self.write_backs:
            env[slot]._data = outs[index]
        return True


def tensor_data(value):
    return value._data


def scalar_converter(dtype):
    def convert(value):
        return np.asarray(value, dtype)
    return convert


class Program:
    """The compiled form of one bytecode-captured function for one input signature."""

    def __init__(self, driver):
        self.driver = driver              # captures (more of) the function on demand
        self.root = None
        self.slot_count = 0
        self.last_path = []               # alternatives taken by the latest call
        self.lock = ForkSafeLock(reentrant=True)     # one capture at a time (runs need no lock)

    def new_slot(self):
        self.slot_count += 1
        return self.slot_count - 1

    def __call__(self, leaves):
        env = dict(enumerate(leaves))
        segment = self.root
        path = []
        self.last_path = path
        while True:
            known = len(segment.alternatives)
            alternative = next((a for a in segment.alternatives if a.run(env)), None)
            if alternative is None:
                with self.lock:
                    # another thread may have captured this segment in the meantime
                    alternative = next((a for a in segment.alternatives[known:]
                                        if a.run(env)), None)
                    if alternative is None:
                        return self.driver.capture_from(self, segment, env, path)
            path.append(alternative)
            term = alternative.terminator
            if isinstance(term, Return):
                return build(term.template, env)
            if isinstance(term, Interpret):
                return self.driver.interpret_from(self, segment, env)
            segment = term.run(env)


def _runtime_location(frame):
    """Where the user's code is while a graph break's call or decision runs."""
    step = frame.f_locals.get("self")
    return getattr(step, "source", None)


# errors at run time name the user's line (jit/user_errors.py)
LOCATION_PROVIDERS[Action.run.__code__] = _runtime_location
LOCATION_PROVIDERS[Branch.outcome.__code__] = _runtime_location
LOCATION_PROVIDERS[IterBranch.outcome.__code__] = _runtime_location
