"""Reverse-mode autodiff: a tape of primitive calls, transposed with the VJP rules.

While a function runs under ``grad`` / ``value_and_grad``, every ``Primitive.bind`` whose
inputs depend on a watched tensor is appended to the active tapes. The backward pass walks
the tape in reverse and applies each primitive's VJP rule. VJP rules are written with ops,
so:
  * under a graph capture the backward pass is recorded into the same graph, and
  * an enclosing tape records the backward pass too (higher-order gradients).
"""
import threading
import weakref

from . import dtype as dt
from .tensor import Tensor, Parameter
from .ops.primitive import state
from . import ops


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
        self.entries.append((prim, saved_args, params, saved_outs, in_ids, out_ids))
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
        for prim, args, params, outs, in_ids, out_ids in reversed(self.entries):
            out_cts = [cts.pop(i, None) for i in out_ids]
            if all(c is None for c in out_cts):
                continue
            if prim.multiple_results:
                ct = tuple(c if c is not None else ops.zeros_like(o)
                           for c, o in zip(out_cts, outs))
                out = outs
            else:
                ct, out = out_cts[0], outs[0]
            in_cts = prim.vjp(ct, out, *args, **params)
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


# Compiled fast paths must not run while a tape records (the tape would not see their
# primitives). Reading the thread-local state there is too slow, so each jitted callable
# keeps the number of tapes active in any thread as a global of its own, updated here;
# when it is non-zero they defer to the slow path, which checks this thread's tapes.
_active_tapes = 0
_tape_watchers = weakref.WeakSet()     # jitted entry points
_tape_lock = threading.Lock()


def watch_tapes(entry_point):
    """Keep ``entry_point.__globals__['_tj_tapes']`` equal to the active tape count."""
    with _tape_lock:
        _tape_watchers.add(entry_point)
        entry_point.__globals__["_tj_tapes"] = _active_tapes


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


def _flatten_tensors(value, out):
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flatten_tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _flatten_tensors(v, out)
    return out


def _normalize_positions(grad_position, nargs, fn_name):
    if grad_position is None:
        return None
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in positions:
        if not isinstance(p, int) or not -nargs <= p < nargs:
            raise ValueError(f"grad of {fn_name}: grad_position {grad_position} is out of range "
                             f"for {nargs} positional argument(s)")
    return tuple(p % nargs for p in positions)


def _normalize_weights(weights):
    if weights is None:
        return None
    if isinstance(weights, Parameter) or isinstance(weights, Tensor):
        return (weights,)
    weights = tuple(weights)
    for w in weights:
        if not isinstance(w, Tensor):
            raise TypeError(f"weights must be Parameters, got {type(w).__name__}")
    return weights


def _fn_name(fn):
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs):
    name = _fn_name(fn)
    positions = _normalize_positions(grad_position, len(args), name)
    weights = _normalize_weights(weights)
    if positions is None and weights is None:
        raise ValueError(f"grad of {name}: grad_position and weights cannot both be None")
    tape = Tape()
    args = list(args)
    arg_nodes = []
    for p in positions or ():
        arg = args[p]
        if not isinstance(arg, Tensor):
            raise TypeError(f"grad of {name}: argument {p} is a {type(arg).__name__}, not a "
                            f"Tensor, so it cannot be differentiated")
        if any(args[q] is arg for q in range(len(args)) if q != p) or \
                tape.node_of(arg) is not None:
            arg = _alias(arg)          # the same tensor at two positions: two inputs
            args[p] = arg
        arg_nodes.append(tape.watch(arg))
    weight_nodes = [tape.node_of(w) if tape.node_of(w) is not None else tape.watch(w)
                    for w in weights or ()]

    with _push_tape(tape):
        output = fn(*args, **kwargs)

    if has_aux:
        if not isinstance(output, tuple) or not output:
            raise TypeError(f"grad of {name}: has_aux=True needs the function to return a "
                            f"tuple (output, aux...), got {type(output).__name__}")
        differentiated = output[0]
    else:
        differentiated = output
    seeds = {}
    for out in _flatten_tensors(differentiated, []):
        node = tape.node_of(out)
        if node is not None and dt.is_float(out.dtype):
            seed = ops.ones_like(out)
            seeds[node] = seed if node not in seeds else ops.add(seeds[node], seed)
    cts = tape.backward(seeds)

    def gradient(node, like):
        g = cts.get(node)
        return g if g is not None else ops.zeros_like(like)

    arg_grads = None
    if positions is not None:
        grads = tuple(gradient(n, args[p]) for n, p in zip(arg_nodes, positions))
        arg_grads = grads[0] if isinstance(grad_position, int) else grads
    weight_grads = None
    if weights is not None:
        weight_grads = tuple(gradient(n, w) for n, w in zip(weight_nodes, weights))
    if arg_grads is not None and weight_grads is not None:
        grads = (arg_grads, weight_grads)
    else:
        grads = arg_grads if arg_grads is not None else weight_grads
    return output, grads


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


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning ``(fn(*args), gradients)`` (MindSpore conventions).

    A non-scalar output is differentiated as the sum of its elements (sensitivity 1);
    ``grad_position=None`` with ``weights`` gives the weight gradients only.
    """
    def value_and_grad_fn(*args, **kwargs):
        return _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs)
    value_and_grad_fn.__wrapped__ = fn
    value_and_grad_fn._grad_transform = ("value_and_grad", grad_position, weights, has_aux)
    return value_and_grad_fn


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning the gradients of ``fn`` (plus aux outputs when has_aux)."""
    def grad_fn(*args, **kwargs):
        output, grads = _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs)
        if has_aux:
            aux = output[1:]
            return grads, (aux[0] if len(aux) == 1 else aux)
        return grads
    grad_fn.__wrapped__ = fn
    grad_fn._grad_transform = ("grad", grad_position, weights, has_aux)
    return grad_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """JAX-style ``vjp``: returns ``(outputs, vjp_fn)``; ``vjp_fn(cotangent)`` gives input
    gradients. Forward runs once; the tape is replayed for each cotangent."""
    tape = Tape()
    inputs = [_alias(x) for x in inputs]
    nodes = [tape.watch(x) for x in inputs]
    with _push_tape(tape):
        output = fn(*inputs)
    outs = _flatten_tensors(output[0] if has_aux else output, [])

    def vjp_fn(*cotangents):
        if len(cotangents) != len(outs):
            raise ValueError(f"vjp: expected {len(outs)} cotangent(s), got {len(cotangents)}")
        seeds = {}
        for o, c in zip(outs, cotangents):
            node = tape.node_of(o)
            if node is not None:
                seeds[node] = ops.as_tensor(c, o.dtype)
        cts = tape.backward(seeds)
        return tuple(cts.get(n) if cts.get(n) is not None else ops.zeros_like(x)
                     for n, x in zip(nodes, inputs))
    return output, vjp_fn

