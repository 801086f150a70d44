"""JitFunction: the state behind one jitted callable, and its slow path.

A call first runs the generated dispatcher (dispatch.py) which, for the hottest graph,
checks cheap guards and runs the graph's code inline. Anything else lands in
``JitFunction.call``: compute the cache key, try the cached entries (their value guards run
inside the graph), or capture -> optimize -> compile a new entry.
"""
import collections
import functools
import time
import types
import warnings

from .. import pytree, timeline
from ..tensor import Tensor
from ..state import state
from ..ops.effects import GuardFailure
from ..passes.pipeline import optimize
from .. import backend as backends
from ..nn.cell import STATE_VERSION, state_fingerprint, fingerprint_matches
from ..capture import capture_graph, CaptureRequest, NOT_RUN
from ..capture.guards import first_failure, Never
from .cache import CACHE, function_key
from .signature import call_signature
from . import dispatch
from .fallback import compile_with_fallback

RECOMPILE_WARNING_THRESHOLD = 8
STATS = {"compiles": 0}       # process-wide count of graph compilations (tests, bench)
HOT_AFTER_SLOW_HITS = 2


class Entry:
    """One compiled version of a function, and when it applies.

    Usually one graph and its code. Captures that split a function into several graphs
    with Python in between (ast fallbacks, bytecode graph breaks) supply ``program``, a
    callable taking the flat input tensors and returning the call's result."""

    def __init__(self, graph, executable, out_struct, shapes, info, program=None):
        self.graph = graph
        self.executable = executable
        self.fn = executable.fn if executable is not None else None
        self.out_struct = out_struct
        self.shapes = shapes                 # input shapes, or None if shape-generic
        self.info = info                     # CaptureInfo: guards, breaks, fallbacks, writes
        self.program = program
        # globals and closure values the graph baked in (trace; the other modes guard them
        # inside their programs)
        self.python_guards = tuple(getattr(info, "python_guards", ()))
        self.slow_hits = 0
        # the nn.Cell state version this entry was built with (None: uses no Cell)
        self.cell_state = STATE_VERSION[0] if info.uses_cells else None
        self.cell_fingerprint = state_fingerprint() if info.uses_cells else None

    def cells_match(self):
        """Whether the Cells are in the state this entry was built in (the same version,
        or a later one that brought every cell it knew back to it: set_train toggled
        back)."""
        if self.cell_state is None or self.cell_state == STATE_VERSION[0]:
            return True
        if fingerprint_matches(self.cell_fingerprint):
            self.cell_state = STATE_VERSION[0]
            return True
        return False

    @property
    def single_graph(self):
        return self.program is None

    def run(self, leaves):
        if self.python_guards:
            failed = first_failure(self.python_guards)
            if failed is not None:
                raise GuardFailure(-1, failed.failure())
        if self.program is not None:
            return self.program(leaves)
        fn = self.fn if timeline.recorder is None else self.executable.function()
        outs = fn(*[leaf._data for leaf in leaves])
        n_out = len(outs) - len(self.info.input_writes)
        for position, value in zip(self.info.input_writes, outs[n_out:]):
            leaves[position]._data = value
        return pytree.unflatten(self.out_struct, [Tensor._wrap(o) for o in outs[:n_out]])


class CompileEvent:
    """Why and how long: what ``explain`` reports (not the entry: a function compiled
    for thousands of shapes must not keep the graphs the cache dropped)."""
    __slots__ = ("reason", "seconds")

    def __init__(self, reason, seconds):
        self.reason, self.seconds = reason, seconds


KEPT_EVENTS = 64     # the most recent compilations and guard failures a function remembers


def resolve_target(fn):
    """(callable to capture, display name, whether the jitted callable is an unbound
    method whose first parameter is ``self``)."""
    from ..nn.cell import Cell
    if isinstance(fn, Cell):
        return fn, type(fn).__name__, fn.construct
    if isinstance(fn, types.MethodType):
        return fn, fn.__func__.__qualname__, fn
    if callable(fn):
        return fn, getattr(fn, "__qualname__", type(fn).__name__), fn
    raise TypeError(f"jit: expected a function, method or Cell, got "
                    f"{type(fn).__name__} {fn!r}, which is not callable")


class JitFunction:
    def __init__(self, fn, opts):
        self.fn = fn
        self.opts = opts
        self.target, self.name, signature_source = resolve_target(fn)
        self.signature = call_signature(signature_source)
        self.fn_key = function_key(fn)
        self.opts_key = opts.key()
        self.static_positions = self._static_positions()
        self.events = collections.deque(maxlen=KEPT_EVENTS)   # recent CompileEvents
        self.compile_count = 0
        # descriptions of recent guard failures that caused a retry
        self.guard_failures = collections.deque(maxlen=KEPT_EVENTS)
        self._warned = False
        self._warned_dynamic = False
        self.hot_entry = None
        self.hot_installs = 0
        self.last_entry = None
        self.request = CaptureRequest(
            self.target, self.name, opts, self.fn_key, self.signature.positional,
            functools.partial(compile_graph, opts=opts, name=self.name),
            self._note_recapture)
        self.entry_point = dispatch.build_entry_point(self)

    def _note_recapture(self, reason):
        event = CompileEvent(reason, 0.0)
        self._record(event)
        return event

    def _record(self, event):
        self.events.append(event)
        self.compile_count += 1

    def _static_positions(self):
        positions = set()
        arity = len(self.signature.positional)
        for i in self.opts.static_argnums:
            if self.signature.varargs is None and not -arity <= i < arity:
                raise ValueError(f"jit: static_argnums {i} is out of range for "
                                 f"{self.name}, which takes {arity} positional argument(s)")
            positions.add(i % arity if i < 0 and arity else i)
        for name in self.opts.static_argnames:
            if name in self.signature.positional:
                positions.add(self.signature.positional.index(name))
            elif name not in self.signature.kwonly and self.signature.varkw is None:
                raise ValueError(f"jit: static_argnames {name!r} is not a parameter of "
                                 f"{self.name}")
        return frozenset(positions)

    # ---- keys --------------------------------------------------------------------------
    def _static_value(self, value, label):
        if isinstance(value, Tensor):
            raise TypeError(f"jit: static argument {label} of {self.name} is a Tensor; static "
                            f"arguments must be hashable Python values")
        try:
            hash(value)
        except TypeError:
            raise TypeError(f"jit: static argument {label} of {self.name} is unhashable "
                            f"({type(value).__name__}: {value!r}); static arguments must be "
                            f"hashable (use a tuple instead of a list)") from None
        return ("static", value)

    def flatten_call(self, args, kwargs):
        leaves = []
        arg_structs = []
        names = self.signature.positional
        for i, value in enumerate(args):
            if i in self.static_positions:
                label = f"{i} ({names[i]!r})" if i < len(names) else str(i)
                arg_structs.append(self._static_value(value, label))
            else:
                arg_structs.append(pytree.flatten(value, leaves))
        kw_structs = []
        for key in kwargs:
            if key in self.opts.static_argnames:
                kw_structs.append(self._static_value(kwargs[key], repr(key)))
            else:
                kw_structs.append(pytree.flatten(kwargs[key], leaves))
        struct = (tuple(arg_structs), tuple(kwargs), tuple(kw_structs))
        return struct, leaves

    def key_of(self, struct, leaves):
        dtypes = tuple(leaf.dtype for leaf in leaves)
        shapes = tuple(tuple(leaf.shape) for leaf in leaves)
        return (self.fn_key, self.opts_key, struct, dtypes), shapes

    # ---- the slow path ----------------------------------------------------------------
    def call(self, args, kwargs):
        if timeline.recorder is None:
            return self._call(args, kwargs)
        with timeline.span(self.name, "jit"):
            return self._call(args, kwargs)

    def _call(self, args, kwargs):
        if state.capture is not None:
            # Inside another capture (a jitted function calling this one): its graph
            # absorbs our body, as MindSpore does for nested jit.
            return self.target(*args, **kwargs)
        if state.tapes:
            # Differentiating through a jitted call: run the body so the tape sees every
            # primitive (correct gradients; the compiled graph is used outside of grad).
            return self.target(*args, **kwargs)
        struct, leaves = self.flatten_call(args, kwargs)
        key, shapes = self.key_of(struct, leaves)
        tried = set()
        result = self._run_cached(key, shapes, leaves, tried, args, kwargs)
        if result is not _MISS:
            return result
        with CACHE.compile_lock(key):
            result = self._run_cached(key, shapes, leaves, tried, args, kwargs)
            if result is not _MISS:
                return result
            reason = self._compile_reason(tried)
            return self._compile_and_run(key, shapes, struct, leaves, reason)

    def _run_cached(self, key, shapes, leaves, tried, args, kwargs):
        for entry in CACHE.candidates(key, shapes):
            if id(entry) in tried or not entry.cells_match():
                continue
            tried.add(id(entry))
            try:
                result = entry.run(leaves)
            except GuardFailure as failure:
                self.guard_failures.append(failure.description)
                timeline.instant("guard failed", "cache", function=self.name,
                                 guard=str(failure.description))
                continue
            CACHE.promote(key, entry)
            self.last_entry = entry
            entry.slow_hits += 1
            # back off exponentially so entries taking turns do not regenerate code forever
            needed = HOT_AFTER_SLOW_HITS << min(self.hot_installs, 16)
            if entry.slow_hits >= needed and entry is not self.hot_entry:
                if dispatch.install_hot_entry(self, entry, args, kwargs, leaves):
                    self.hot_installs += 1
                    entry.slow_hits = 0
            return result
        return _MISS

    def _compile_reason(self, tried):
        if not self.compile_count:
            return "first call"
        if tried and self.guard_failures:
            return f"guard failed: {self.guard_failures[-1]}"
        return "new input structure, shapes or dtypes"

    def _compile_and_run(self, key, shapes, struct, leaves, reason):
        start = time.perf_counter()
        with timeline.span(f"compile {self.name}", "compile", reason=reason,
                           mode=self.opts.capture_mode, level=self.opts.jit_level):
            entry, result = self.compile(struct, leaves, shapes, run=True)
        STATS["compiles"] += 1
        if not any(isinstance(g, Never) for g in entry.python_guards):
            CACHE.add(key, entry)            # (an entry that is never valid again is not kept)
        self.last_entry = entry
        self._record(CompileEvent(reason, time.perf_counter() - start))
        self._warn_if_recompiling()
        return result

    def _warn_if_recompiling(self):
        if self.compile_count > RECOMPILE_WARNING_THRESHOLD and not self._warned:
            self._warned = True
            warnings.warn(
                f"tensorjit: {self.name} has been compiled {self.compile_count} times (latest "
                f"cause: {self.events[-1].reason}). Recompiling on every call is slow: pass "
                f"changing Python values as tensors (or mutable()), or see "
                f"tensorjit.explain({self.name}).", RuntimeWarning, stacklevel=4)

    def compile(self, struct, leaves, shapes, run):
        """Capture, optimize and compile. With ``run`` (trace mode) the capture is the real
        first call and its results are returned; otherwise parameters are restored."""
        with timeline.span(f"capture ({self.opts.capture_mode})", "compile") as phase:
            captured = capture_graph(self.request, struct, leaves, run=run)
            if phase.args is not None:     # (recording)
                phase.args["graph_breaks"] = [f"{b[0]} ({b[1]})" for b in captured.info.breaks]
        if captured.program is not None:
            if self.opts.dynamic:
                self._warn_shape_specific(captured.info, shapes, "it has graph breaks")
            entry = Entry(captured.graph, captured.executable, captured.out_struct, shapes,
                          captured.info, captured.program)
        else:
            executable = captured.executable or self.compile_graph(captured.graph)
            generic = executable.shape_generic and not captured.info.shape_dependent
            if self.opts.dynamic is False:
                generic = False                  # static shapes: one graph per shape
            elif self.opts.dynamic and not generic:
                self._warn_shape_specific(captured.info, shapes)
            entry = Entry(captured.graph, executable, captured.out_struct,
                          None if generic else shapes, captured.info)
        if captured.result is NOT_RUN:
            if run:     # a kernel failing in this first run is explained from its graph
                self.last_entry = entry
            return entry, (entry.run(leaves) if run else None)
        return entry, captured.result

    def _warn_shape_specific(self, info, shapes, why=None):
        """dynamic=True, but this graph serves only these input shapes: say so once."""
        if self._warned_dynamic:
            return
        self._warned_dynamic = True
        why = why or ("its code reads tensor shapes" if info.shape_dependent else
                      "it uses kernels specialized to shapes (reshape / broadcast targets, "
                      "shaped constants)")
        warnings.warn(
            f"tensorjit: dynamic=True, but {self.name}'s graph is specialized to the input "
            f"shapes {list(shapes)} because {why}; each new shape compiles again "
            f"(shapes read in Python are not symbolic yet). Functions that never read "
            f"shapes get one graph for every shape.", RuntimeWarning, stacklevel=5)

    def compile_graph(self, graph, name=None):
        """Optimize ``graph`` at this function's jit_level and compile it with its backend
        (captures that produce several graphs call this for each)."""
        return compile_graph(graph, self.opts, name or self.name)

    # ---- lowering ---------------------------------------------------------------------
    def lower(self, *args, **kwargs):
        struct, leaves = self.flatten_call(args, kwargs)
        key, shapes = self.key_of(struct, leaves)
        candidates = CACHE.candidates(key, shapes)
        if candidates:
            return Lowered(self, candidates[0])
        entry, _ = self.compile(struct, leaves, shapes, run=False)
        return Lowered(self, entry)


_MISS = object()


def compile_graph(graph, opts, name):
    """Optimize ``graph`` for ``opts`` (a JitOptions) and compile it with its backend (a
    compiler failure at O1 retries at O0: ``fallback.py``)."""
    def compile_at(graph, level):
        with timeline.span(f"passes ({level})", "compile"):
            optimize(graph, level, opts.options)
        with timeline.span("codegen", "compile"):
            return backends.compile(graph, opts.backend, name=_identifier(name),
                                    options=opts.options)
    return compile_with_fallback(graph, opts, name, compile_at)


def _identifier(name):
    cleaned = "".join(c if c.isalnum() else "_" for c in name.split(".")[-1])
    return cleaned if cleaned and not cleaned[0].isdigit() else "graph_fn"


class Lowered:
    """What ``jitted.lower(*args)`` returns: the optimized graph and its generated code."""

    def __init__(self, jit_function, entry):
        self.jit_function = jit_function
        self.entry = entry
        self.graph = entry.graph

    def as_text(self):
        return self.graph.as_text()

    def as_dot(self):
        return self.graph.to_dot()

    @property
    def code(self):
        """The generated host function (fused groups appear as calls)."""
        return self.entry.executable.source

    @property
    def kernels(self):
        """The source of each fused kernel O1 made (Numba, or NumPy where Numba cannot)."""
        return backends.kernel_sources(self.graph)

    @property
    def peak_memory(self):
        """Estimated peak bytes of intermediates under the chosen ``exec_order``."""
        memory = getattr(self.graph, "memory", None)
        return memory["peak_bytes"] if memory else None

    def compile(self):
        return self

    def __str__(self):
        return self.as_text()
