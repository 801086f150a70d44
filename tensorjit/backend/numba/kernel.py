"""Running a fused sub-graph: a compiled Numba kernel behind a Python wrapper, loaded from
the disk cache or compiled once per kernel *structure* (the generated source, which depends
on ranks, broadcasting patterns, ops and dtypes, not on sizes); without Numba, or for
dtypes it does not handle (float16, bfloat16), the sub-graph's NumPy code."""
import hashlib
import math
import os
import sys
import warnings

import numpy as np
# Numba's ``typeof`` of an array imports ``numpy.ma`` on first use. Imported here, before
# any compile thread runs: a fork while a thread was importing it left the child waiting
# forever on the module's import lock (seen on 3.12 under load).
import numpy.ma  # noqa: F401

from . import config
from .config import STATS, numba_available
from .plan import KernelPlan, NATIVE_DTYPES
from .source import KernelSource
from .disk_cache import (cache_dir, index_path, load_module, memory_module, private_files, purge,
                         warn_once as _warn_once)
from . import background
from ... import timeline
from ...locks import ForkSafeLock
from ...ops import cpu_share, thread_pool


class NativeKernel:
    """A compiled Numba kernel behind a dispatcher that loads it from disk or compiles."""

    def __init__(self, source):
        self.source = source
        self.digest = hashlib.sha256(source.encode()).hexdigest()[:24]
        self.stem = "k_" + self.digest
        self.directory = cache_dir()
        self.dispatcher = None
        self.checked = set()
        self.ready = False       # compiled for the types it was prepared for
        self.failed = False      # its compilation failed: callers keep their NumPy code
        self.queued = set()      # signatures sent to the background compiler
        self.server_done = set()   # ... and compiled into the disk cache by its server

    def on_disk(self):
        """Whether Numba's cache holds an index for this kernel in this Python (then
        loading it takes milliseconds: no reason to run its NumPy version meanwhile).
        The index's exact name is looked up: listing the directory cost 28 ms per kernel
        at 60,000 cached files, half the fuzzers' time."""
        if self.directory is None:
            return False
        return os.path.exists(index_path(self.directory, self.stem, self.source))

    def prepare(self, *arrays):
        """Compile, or load from the disk cache, for these arrays' types, now."""
        self.prepare_types(*_signature(arrays))

    def prepare_types(self, key, types):
        """Compile for Numba ``types`` without running the kernel (the background
        compiler must not launch a parallel kernel: Numba's workqueue pool takes one
        launch at a time, and the program's thread may be in one); then it is ``ready``."""
        if key not in self.checked:
            self._first(key, lambda dispatcher: dispatcher.compile(types))
        self.ready = True

    def submit(self, *arrays):
        """Queue a compile for these arrays' types in the background (tiered)."""
        key, types = _signature(arrays)
        if key not in self.queued:
            self.queued.add(key)
            background.submit(self, key, types)

    def call_compiled(self, *arrays):
        """Run if compiled for these arrays' types; else queue that compile and return
        ``NOT_COMPILED`` (the caller runs its NumPy code meanwhile)."""
        dispatcher = self.dispatcher
        if dispatcher is not None and tuple(_type_key(a) for a in arrays) in self.checked:
            return dispatcher(*arrays)
        self.submit(*arrays)
        return NOT_COMPILED

    def _get(self, fresh=False):
        if self.dispatcher is None or fresh:
            if self.directory is not None:
                try:
                    if fresh:
                        purge(self.directory, self.stem)
                    self.dispatcher = load_module(self.directory, self.stem, self.source,
                                                  fresh)
                    return self.dispatcher
                except OSError as exc:
                    self._in_memory(exc)
            self.dispatcher = memory_module(self.source)
        return self.dispatcher

    def _in_memory(self, exc):
        """Give up the disk cache for this kernel (read-only, full, ...): compile it in
        memory, with one warning per process."""
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        _warn_once(f"tensorjit: the kernel cache {self.directory} cannot be written "
                   f"({reason}); fused kernels are compiled in memory")
        self.directory = None
        self.dispatcher = None

    def __call__(self, *arrays):
        dispatcher = self.dispatcher
        signature = tuple(_type_key(a) for a in arrays)
        if dispatcher is not None and signature in self.checked:
            return dispatcher(*arrays)
        return self._first(signature, lambda dispatcher: dispatcher(*arrays))

    def _first(self, signature, action):
        """``action(dispatcher)`` (a call, or a compile) the first time for a signature:
        from the disk cache or compiled, with the cache's faults handled."""
        with config.LOCK:
            started = timeline._clock()
            dispatcher = self.dispatcher or self._get()
            try:
                before = _counts(dispatcher)
                result = action(dispatcher)
            except OSError as exc:       # saving to the cache failed (disk full, ...)
                if self.directory is None:
                    raise
                self._in_memory(exc)
                dispatcher = self._get()
                before = _counts(dispatcher)
                result = action(dispatcher)
            except Exception as exc:
                if self.directory is None or _is_typing_error(exc):
                    raise
                result, before, dispatcher = self._recover(exc, action)
            hits, misses = _counts(dispatcher)
            if misses > before[1]:
                STATS["compiled"] += 1
            elif hits > before[0]:
                STATS["loaded"] += 1
            active = timeline.recorder
            how = "compile" if misses > before[1] else "load" if hits > before[0] else None
            if active is not None and how:
                active.add("X", f"numba {how} {self.stem}", "compile", started,
                           timeline._clock() - started)
            if self.directory is not None:
                private_files(self.directory, self.stem)
            self.checked.add(signature)
        return result

    def _recover(self, exc, action):
        """A cached entry failed to load (corrupted): compile afresh on disk, and if that
        fails too, in memory."""
        warnings.warn(f"tensorjit: kernel cache entry {self.stem} could not be loaded "
                      f"({type(exc).__name__}: {exc}); recompiling", RuntimeWarning,
                      stacklevel=4)
        STATS["recovered"] += 1
        dispatcher = self._get(fresh=True)
        before = _counts(dispatcher)
        try:
            return action(dispatcher), before, dispatcher
        except Exception as again:
            if self.directory is None or _is_typing_error(again):
                raise
            self._in_memory(again)
            dispatcher = self._get()
            before = _counts(dispatcher)
            return action(dispatcher), before, dispatcher


def _counts(dispatcher):
    stats = getattr(dispatcher, "stats", None)
    if stats is None:
        return (0, 0)
    return (sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))


def _is_typing_error(exc):
    try:
        from numba.core.errors import TypingError
    except Exception:   # pragma: no cover
        return False
    return isinstance(exc, TypingError)


NOT_COMPILED = object()


def _signature(arrays):
    from numba import typeof
    return tuple(_type_key(a) for a in arrays), tuple(typeof(a) for a in arrays)


def _type_key(a):
    if not isinstance(a, np.ndarray):        # a number passed to a hand-written kernel
        return type(a)
    return (a.dtype.str, a.ndim, a.flags.c_contiguous, a.flags.writeable)



def kernel_for(graph, inplace=()):
    """The callable running a fused sub-graph: ``f(*arrays) -> tuple``. ``inplace``:
    ``(output, input)`` pairs (``passes/buffers.py``) whose output the kernel may write
    into that input's buffer, which the caller no longer needs."""
    inplace = tuple(inplace)
    kernel = getattr(graph, "_tj_kernels", {}).get(inplace)
    if kernel is None:
        with _BUILD_LOCK:       # not the compile lock: a background compile holds that
            kernels = graph.__dict__.setdefault("_tj_kernels", {})
            kernel = kernels.get(inplace)
            if kernel is None:
                kernel = kernels[inplace] = build(graph, background.ENABLED, inplace)
    return kernel


def native_ok(graph):
    """Whether this sub-graph can (and should) run as a Numba kernel."""
    if not numba_available() or not config.COMPILE_AFTER_FORK or not thread_pool.usable():
        return False
    avals = [v.aval for v in graph.inputs] + [o.aval for n in graph.nodes for o in n.outputs]
    if any(a.dtype not in NATIVE_DTYPES for a in avals):
        return False
    try:
        KernelPlan(graph)
    except ValueError:
        return False
    return True


_sources = {}    # source text -> NativeKernel (one per structure per process)
_BUILD_LOCK = ForkSafeLock(reentrant=True)
RECYCLE_BYTES = 1 << 20   # results at least this large reuse a buffer the caller dropped


def build(graph, background_compile=False, inplace=()):
    """The callable running ``graph``: a native kernel where it can be one (compiled now,
    or with ``background_compile`` in the background while NumPy code runs), else the
    sub-graph's NumPy code."""
    if native_ok(graph):
        plan = KernelPlan(graph)
        parallel = math.prod(plan.shape) >= config.PARALLEL_MIN_ELEMENTS
        ks = KernelSource(plan, parallel, inplace)
        source = ks.module_source()
        native = _sources.get(source)
        if native is None:
            native = _sources[source] = NativeKernel(source)
        return _native_wrapper(graph, ks, native, background_compile)
    return _numpy_wrapper(graph)


def _native_wrapper(graph, ks, native, background_compile):
    in_shapes = ks.in_shapes
    out_specs = []
    for o, shape_c in zip(graph.outputs, ks.out_shapes_c):
        out_specs.append((tuple(o.aval.shape), o.aval.dtype, shape_c))
    reshape_in = [tuple(v.aval.shape) != s for v, s in zip(graph.inputs, in_shapes)]

    # A large result the caller has dropped is written again instead of a fresh np.empty:
    # a new multi-megabyte buffer comes from the OS page by page (glibc gives it back when
    # two such buffers are freed), and the page faults, taken by every kernel thread at
    # once, cost up to 5x the kernel. Each output keeps up to two buffers it made (a loop
    # ``out = f(x)`` holds the last result while the next is computed); only a buffer that
    # nothing else references (refcount) is reused, so no result the caller holds changes.
    pools = [[] if math.prod(shape) * np.dtype(dtype).itemsize >= RECYCLE_BYTES else None
             for shape, dtype, _ in out_specs]

    def fresh(k, shape, dtype):
        pool = pools[k]
        if pool is None:
            return np.empty(shape, dtype)
        for buffer in pool:
            if sys.getrefcount(buffer) == 3:     # pool list, loop variable, argument
                return buffer
        buffer = np.empty(shape, dtype)
        if len(pool) == 2:
            pool.pop(0)
        pool.append(buffer)
        return buffer

    # outputs the kernel writes into one of its inputs (source.py: ``out0 = in2``)
    aliases = ks.aliases
    numpy_version = []                   # the sub-graph's NumPy code, made when first needed
    tiered = False

    def run_numpy(*arrays):
        if not numpy_version:
            numpy_version.append(_numpy_function(graph))
        return numpy_version[0](*arrays)

    def run(*arrays):
        if not native.ready or not thread_pool.usable():
            if not native.ready:
                background.poke()          # still compiling (tiered)
            return run_numpy(*arrays)      # ... or a child forked off the OpenMP pool
        args = [np.reshape(a, s) if r else a for a, s, r in zip(arrays, in_shapes, reshape_in)]
        outs = []
        shaped = []
        for k, (shape, dtype, shape_c) in enumerate(out_specs):
            j = aliases.get(k)
            if j is None:
                target = fresh(k, shape, dtype)
                shaped.append(target.reshape(shape_c))
            else:
                target = arrays[j]
                if not target.flags.c_contiguous or not target.flags.writeable:
                    target = target.copy(order="C")     # a view the kernel may not write
                    args[j] = target.reshape(in_shapes[j])
            outs.append(target)
        if ks.parallel:
            cpu_share.fit_to_load()        # as many threads as the other processes leave
        if not tiered:
            native(*args, *shaped)
        elif native.call_compiled(*args, *shaped) is NOT_COMPILED:
            return run_numpy(*arrays)             # new argument types: compiling them
        return tuple(outs)

    run.native = native
    run.source = native.source
    # compile (or load from the disk cache) for C-contiguous writable arrays: zero-size
    # arrays of the right ranks and dtypes run no iteration. In the background (tiered
    # compilation), the sub-graph's NumPy code runs meanwhile; else now, at prepare time.
    arrays = ([np.empty((0,) * len(s), v.aval.dtype) for v, s in zip(graph.inputs, in_shapes)]
              + [np.empty((0,) * len(s), dtype) for k, (_, dtype, s) in enumerate(out_specs)
                 if k not in aliases])
    if native.failed:
        return _numpy_wrapper(graph)
    if background_compile and not native.ready and native.on_disk():
        background_compile = False        # a warm cache: loading is quick, do it now
    if background_compile:
        tiered = True
        if not native.ready:
            native.submit(*arrays)
    elif not native.ready:
        native.prepare(*arrays)
    return run


def _numpy_function(graph):
    from ..codegen import generate
    return generate(graph).function("fused_numpy")[0]


def _numpy_wrapper(graph):
    from ..codegen import generate
    fn, source = generate(graph).function("fused_numpy")
    STATS["numpy"] += 1

    def run(*arrays):
        return fn(*arrays)

    run.native = None
    run.source = source
    return run
