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
from ..guards import first_failure, guard_names
from ...locks import ForkSafeLock

# ---- Python facts a graph relied on ----------------------------------------------------

class PythonGuards:
    """Globals and closure values converted code read while capturing: a graph built
    with them is only right while they are the same (``capture/guards.py``)."""

    def __init__(self):
        self.items = {}

    def note(self, fn, global_names):
        guard_names(fn, global_names, self.items)

    def check(self):
        """None if every fact still holds, else a description of the first that fails."""
        failed = first_failure(self.items.values())
        return None if failed is None else failed.failure()

    def descriptions(self):
        return [guard.description for guard in self.items.values()]


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
        outs = self.executable.fn(*[t._data for t in inputs])
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
