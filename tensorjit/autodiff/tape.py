"""The tape: primitive calls recorded while differentiating, and the backward pass.

While a function runs under ``grad`` / ``value_and_grad``, every ``Primitive.bind`` whose
inputs depend on a watched tensor is appended to the active tapes. The backward pass walks
the tape in reverse and applies each primitive's VJP rule. VJP rules are written with ops,
so:
  * under a graph capture the backward pass is recorded into the same graph, and
  * an enclosing tape records the backward pass too (higher-order gradients).
"""
import weakref

from ..tensor import Tensor
from ..state import state
from .. import ops
from ..locks import ForkSafeLock


class Tape:
    __slots__ = ("ids", "keep", "entries", "count")

    def __init__(self):
        self.ids = {}        # id(tensor) -> node id, for every tensor that depends on a watched one
        self.keep = []       # keeps those tensors alive so their ids stay unique
        self.entries = []    # (prim, args, params, outputs, input node ids, output node ids)
        self.count = 0

    def watch(self, tensor):
        node = self.count
        self.count += 1
        self.ids[id(tensor)] = node
        self.keep.append(tensor)
        return node

    def record(self, prim, args, params, result, saved=None):
        """Append a primitive call if it depends on a watched tensor. Returns the
        (inputs, outputs) saved for its VJP, which the next active tape shares."""
        ids = self.ids
        in_ids = [ids.get(id(a)) for a in args]
        if all(i is None for i in in_ids):
            return saved
        outs = result if prim.multiple_results else (result,)
        out_ids = [self.watch(o) for o in outs]
        if saved is None:
            # The VJP needs the values of this call: a later in-place update (+=, setitem)
            # rebinds the same Tensor objects, so save aliases of the current values. They
            # map to the same nodes, so an enclosing tape sees the backward pass's inputs.
            saved = tuple(map(_alias, args)), tuple(map(_alias, outs))
        saved_args, saved_outs = saved
        for t, node in zip(saved_args, in_ids):
            if node is not None:
                ids[id(t)] = node
        for t, node in zip(saved_outs, out_ids):
            ids[id(t)] = node
        capture = state.capture
        source = getattr(capture, "last_source", None) if capture is not None else None
        self.entries.append((prim, saved_args, params, saved_outs, in_ids, out_ids, source))
        return saved

    def alias(self, target, value):
        """``target`` now holds ``value`` (an in-place update)."""
        node = self.ids.get(id(value))
        if node is None:
            self.ids.pop(id(target), None)
        else:
            self.ids[id(target)] = node
            self.keep.append(target)

    def node_of(self, tensor):
        return self.ids.get(id(tensor))

    def backward(self, seeds):
        """``seeds``: {node id: cotangent}. Returns {node id: cotangent} for all nodes
        reached, the watched inputs among them."""
        cts = dict(seeds)
        for prim, args, params, outs, in_ids, out_ids, source in reversed(self.entries):
            out_cts = [cts.pop(i, None) for i in out_ids]
            if all(c is None for c in out_cts):
                continue
            if prim.multiple_results:
                ct = tuple(c if c is not None or prim.symbolic_zeros else ops.zeros_like(o)
                           for c, o in zip(out_cts, outs))
                out = outs
            else:
                ct, out = out_cts[0], outs[0]
            if source is None:
                in_cts = prim.vjp(ct, out, *args, **params)
            else:
                in_cts = _vjp_at(source, prim, ct, out, args, params)
            for node, arg, g in zip(in_ids, args, in_cts):
                if node is None or g is None:
                    continue
                if tuple(g.shape) != tuple(arg.shape):
                    raise RuntimeError(f"internal error: the VJP of {prim.name} returned a "
                                       f"gradient of shape {tuple(g.shape)} for an input of "
                                       f"shape {tuple(arg.shape)}")
                if g.dtype != arg.dtype:
                    g = ops.cast(g, arg.dtype)
                previous = cts.get(node)
                cts[node] = g if previous is None else ops.add(previous, g)
        return cts


def _vjp_at(source, prim, ct, out, args, params):
    """``prim``'s VJP, its nodes (in a graph being captured) attributed to the forward
    call's source line."""
    previous = state.source_override
    state.source_override = backward_source(source)
    try:
        return prim.vjp(ct, out, *args, **params)
    finally:
        state.source_override = previous


def backward_source(source):
    """The source a backward node of ``source``'s forward call gets (its function name says
    so)."""
    if source.function.endswith(BACKWARD):
        return source
    return type(source)(source.filename, source.lineno, source.function + BACKWARD)


BACKWARD = " (backward)"


# Compiled fast paths must not run while a tape records (the tape would not see their
# primitives). Reading the thread-local state there is too slow, so each jitted callable
# keeps the number of tapes active in any thread as a global of its own, updated here;
# when it is non-zero they defer to the slow path, which checks this thread's tapes.
_active_tapes = 0
_tape_watchers = weakref.WeakSet()     # jitted entry points
_tape_lock = ForkSafeLock()


def watch_tapes(entry_point):
    """Keep ``entry_point.__globals__['_tj_tapes']`` equal to the active tape count."""
    with _tape_lock:
        _tape_watchers.add(entry_point)
        entry_point.__globals__["_tj_tapes"] = _active_tapes


def hold_fast_paths(delta):
    """+1: jitted calls take the slow path until a matching -1 (the profiler, which times
    each kernel there). The dispatchers' fast-path test is the tape count, so this costs
    them nothing."""
    _change_tape_count(delta)


def _change_tape_count(delta):
    global _active_tapes
    with _tape_lock:
        _active_tapes += delta
        for fn in list(_tape_watchers):
            fn.__globals__["_tj_tapes"] = _active_tapes


class _push_tape:
    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        state.tapes = state.tapes + (self.tape,)
        _change_tape_count(1)

    def __exit__(self, *exc):
        state.tapes = tuple(t for t in state.tapes if t is not self.tape)
        _change_tape_count(-1)


class no_grad:
    """Context manager: operations inside are not recorded for differentiation."""

    def __enter__(self):
        self.previous = state.grad_enabled
        state.grad_enabled = False

    def __exit__(self, *exc):
        state.grad_enabled = self.previous


def _alias(t):
    """A new Tensor object holding ``t``'s current value (and graph value, if any)."""
    alias = Tensor._wrap(t._data)
    var = t._var
    if var is None and state.capture is not None:
        # an external tensor (a Parameter) under capture: the alias must stand for the
        # same graph value, not become a second, frozen input of the graph
        var = state.capture.value_of(t)
    alias._var = var
    return alias
