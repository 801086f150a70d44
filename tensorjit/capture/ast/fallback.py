"""What an ast capture with Python in it runs at call time: a ``Program`` of compiled
graph segments and fallback statements.

The jitted function's body is a list of top-level statements. A segment is a compiled
graph for a run of consecutive statements; a fallback is one statement that could not
enter a graph (``fullgraph=False``), executed as Python with the real values of the
variables. After a fallback, the next segment is looked up by the Python values and
tensor types of the variables at that point (``env_key``) and captured on first use, so
a fallback that computes a Python value (``n = int(x.sum())``) gets a graph per value.

The environment passed between them maps variable names to values. Tensors are passed
to a graph as inputs (the same object at two names is one input); Parameters and every
other Python value are part of the key (Parameters by identity: graphs read them as refs).
"""
from ...tensor import Tensor, Parameter
from ...ops.effects import GuardFailure
from ...pytree import Identity
from .values import Undefined
import functools
import types

from ..guards import first_failure, guard_names, GlobalGuard, MISSING
from ..python_reads import names_read
from ..python_state import StateWatch
from ...locks import ForkSafeLock

# ---- Python facts a graph relied on ----------------------------------------------------

class PythonGuards:
    """Globals and closure values converted code read while capturing, and the mutable
    state they lead to (lists, dicts, plain objects: ``capture/python_state.py``): a graph
    built with them is only right while they are the same (``capture/guards.py``).

    Per top-level statement it also knows what the statement touched (``touched``: guard
    keys) and what it changed (``statement_writes``), so the driver can run a statement
    that changes Python state, or reads state the function changes, as Python instead.
    ``written`` (shared by the function's captures) is what the function changes; guards on
    it are not checked unless a graph statement read it (``graph_reads``: a statement
    captured before a later one turned out to change that state -- the entry then fails
    its guard at the next call, and the new capture knows to run that read as Python)."""

    def __init__(self, written=None):
        self.items = {}
        self.watch = StateWatch()
        self.touched = set()
        self.written = set() if written is None else written
        self.graph_reads = set()
        self._failing = set()

    def note(self, fn, global_names, free_names=None):
        guard_names(fn, global_names, self.items)
        namespace = fn.__globals__
        for name in global_names:
            value = namespace.get(name, MISSING)
            if value is not MISSING and not isinstance(value, types.ModuleType):
                self._touch(("global", id(namespace), name), value, f"global {name!r}")
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            if free_names is not None and name not in free_names:
                continue
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            self._touch(("cell", id(cell)), value, f"closure variable {name!r}")

    def _touch(self, key, value, label):
        self.touched.add(key)
        if self.watch.track(value, label):
            self.touched.add(("contents", id(value)))

    # ---- one statement ------------------------------------------------------------------
    def begin_statement(self, fn, code):
        """Before a top-level statement (``code``) of ``fn`` runs."""
        self.touched = set()
        self.watch.rebase()
        self._failing = {k for k, g in self.items.items() if not g.check()}
        global_names, free_names = names_read(code)
        self.note(fn, sorted(global_names), free_names)

    def statement_writes(self):
        """[(key, description, undo)] of the Python state the statement changed: globals
        and closure variables it rebound, state whose contents it changed."""
        found = []
        for key, guard in list(self.items.items()):
            if key[0] in ("global", "cell") and key not in self._failing and \
                    not guard.check():
                found.append((key, guard.label, functools.partial(_rebind, guard)))
        for obj, label in self.watch.changed():
            found.append((("contents", id(obj)), f"the contents of {label}",
                          functools.partial(self.watch.restore, [obj])))
        return found

    def reads_written(self):
        """A description of written state the statement touched, or None."""
        for key in self.touched & self.written:
            return self._label(key)
        return None

    def _label(self, key):
        guard = self.items.get(key)
        if guard is not None:
            return guard.label
        snapshot = self.watch.snapshots.get(key[1])
        return snapshot[1] if snapshot else "Python state"

    def guard_contents(self):
        """The statement enters a graph: guard the contents of the state it touched."""
        self.graph_reads |= self.touched
        ids = {key[1] for key in self.touched if key[0] == "contents"}
        for key, guard in self.watch.guards(ids).items():
            self.items.setdefault(key, guard)

    # ---- checking -----------------------------------------------------------------------
    def _checked(self, key):
        return key not in self.written or key in self.graph_reads

    def check(self):
        """None if every fact still holds, else a description of the first that fails."""
        failed = first_failure(g for k, g in self.items.items() if self._checked(k))
        return None if failed is None else failed.failure()

    def descriptions(self):
        return [g.description for k, g in self.items.items() if self._checked(k)]

    def has_guards(self):
        return any(self._checked(k) for k in self.items)


def _rebind(guard):
    """Give a global or closure variable back the value its guard expects."""
    if isinstance(guard, GlobalGuard):
        guard.namespace[guard.name] = guard.expected
    else:
        guard.cell.cell_contents = guard.expected


# ---- the environment ------------------------------------------------------------------

def flatten_env(env, names):
    """(hashable structure, tensor leaves, a readable name per leaf)."""
    leaves, hints, index = [], [], {}

    def flat(value, hint):
        if isinstance(value, Tensor):
            if isinstance(value, Parameter) and value._var is None:
                return ("param", Identity(value))
            k = index.get(id(value))
            if k is None:
                k = index[id(value)] = len(leaves)
                leaves.append(value)
                hints.append(hint)
            return ("T", k)
        kind = type(value)
        if kind is tuple or kind is list:
            return (kind.__name__, tuple(flat(v, f"{hint}_{i}") for i, v in enumerate(value)))
        if kind is dict:
            return ("dict", tuple(value), tuple(flat(v, f"{hint}_{k}") for k, v in value.items()))
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return ("namedtuple", kind, tuple(flat(v, f"{hint}_{i}") for i, v in enumerate(value)))
        if kind is Undefined:
            return ("undefined", value.name, value.reason)
        try:
            hash(value)
        except TypeError:
            return ("static", kind, Identity(value))
        return ("static", kind, value)

    struct = tuple(flat(env[name], name) for name in names)
    return struct, leaves, hints


def unflatten_env(struct, leaves, names):
    return {name: _build(s, leaves) for name, s in zip(names, struct)}


def _build(s, leaves):
    # a module-level function: a nested recursive one would be a reference cycle holding
    # ``leaves`` (every result tensor of the call) until the garbage collector runs
    tag = s[0]
    if tag == "T":
        return leaves[s[1]]
    if tag == "param":
        return s[1].value
    if tag == "tuple":
        return tuple(_build(c, leaves) for c in s[1])
    if tag == "list":
        return [_build(c, leaves) for c in s[1]]
    if tag == "dict":
        return {k: _build(c, leaves) for k, c in zip(s[1], s[2])}
    if tag == "namedtuple":
        return s[1](*(_build(c, leaves) for c in s[2]))
    if tag == "undefined":
        return Undefined(s[1], s[2])
    value = s[2]
    return value.value if isinstance(value, Identity) else value


def env_key(struct, leaves):
    return struct, tuple((tuple(t.shape), t.dtype) for t in leaves)


# ---- run-time pieces ------------------------------------------------------------------

class GraphSegment:
    """A compiled graph for statements ``[start, stop)``.

    The environment after it (``out_names``: every variable, or only the return value
    when the function ends here) is ``out_struct`` rebuilt with, per tensor leaf, a new
    tensor from the graph's outputs (``("new", k)``) or one of the segment's input objects
    (``("input", i)``, which keeps tensor identity)."""

    def __init__(self, executable, start, stop, out_names, out_struct, out_leaves,
                 input_writes):
        self.executable = executable
        self.start, self.stop = start, stop
        self.out_names = out_names
        self.out_struct = out_struct
        self.out_leaves = out_leaves
        self.input_writes = input_writes    # [(input index, output index)]
        self.fallback = None                # the FallbackStatement at ``stop``, if any
        self.aliases = []                   # [(leaf, leaf, output, value)]: leaves that are
                                            # one object when that output has that value

    def run(self, inputs):
        """Run on the input tensors; returns the environment after the segment."""
        outs = self.executable.function()(*[t._data for t in inputs])
        for i, k in self.input_writes:
            inputs[i]._data = outs[k]
        leaves = [inputs[k] if kind == "input" else Tensor._wrap(outs[k])
                  for kind, k in self.out_leaves]
        for keep, same, k, value in self.aliases:
            if bool(outs[k]) == value:
                leaves[same] = leaves[keep]
        return unflatten_env(self.out_struct, leaves, self.out_names)


class FallbackStatement:
    """One top-level statement run as Python at call time, and the graph segments that
    follow it (one per environment key, captured on first use)."""

    def __init__(self, index, fn, construct, location):
        self.index = index
        self.fn = fn
        self.construct = construct
        self.location = location
        self.continuations = {}
        self.lock = ForkSafeLock()

    def run(self, env, names):
        values = self.fn(*[env[n] for n in names])
        return dict(zip(names, values))


class Program:
    """``program(leaves) -> result`` for ``Entry.program``: check the Python guards, run
    the first segment on the call's tensors, then fallbacks and the segments after them."""

    def __init__(self, builder, first, guards):
        self.builder = builder
        self.first = first
        self.guards = guards

    def __call__(self, leaves):
        failure = self.guards.check()
        if failure is not None:
            raise GuardFailure(-1, failure)
        builder = self.builder
        names = builder.names
        segment, inputs = self.first, list(leaves)
        while True:
            env = segment.run(inputs)
            fallback = segment.fallback
            if fallback is None:
                return builder.result(env)
            env = fallback.run(env, names)
            if builder.returned(env) or fallback.index + 1 >= builder.n_statements:
                return builder.result(env)
            struct, inputs, hints = flatten_env(env, names)
            key = env_key(struct, inputs)
            segment = fallback.continuations.get(key)
            if segment is None:
                with fallback.lock:
                    segment = fallback.continuations.get(key)
                    if segment is None:
                        segment = builder.continuation(fallback.index + 1, struct, inputs,
                                                       hints)
                        fallback.continuations[key] = segment
