"""Batching rules (``vmap``): each primitive applied to a whole batch of examples at once,
and running a graph on batched values.

A batched value is a Tensor of the caller's level together with its batch axis ``dim``;
``dim`` is ``None`` when the value is the same for every example. A primitive's rule (its
``batch`` field in the registry) is

    batch(prim, dims, *args, **params) -> (outputs, out_dims)

It computes with ops -- so it runs eagerly, records into an enclosing capture and is
differentiable -- what the primitive gives for every example, in one call, never a loop
over the batch, and says where each output's batch axis is (an int, or ``None`` for an
output that is the same for every example; a tuple for multiple results). At least one of
``dims`` is not ``None`` when a rule is called.

Elementwise primitives need no rule of their own: ``rule_of`` derives the broadcasting rule
from the ``elementwise`` flag. The other families use the helpers below (move the batch axis
to the front, shift axis parameters by one, fold the batch into a leading axis).

The op families import this module, and it uses them (transpose, reshape, broadcast) only
inside its functions, once everything is loaded.
"""
import importlib

from ..ir.graph import Literal
from . import coerce


class NoBatchingRule(NotImplementedError):
    """A primitive reached ``vmap`` with batched inputs and declares no batching rule."""


def rule_of(prim):
    if prim.batch is not None:
        return prim.batch
    if prim.elementwise:
        return elementwise
    reason = f": {prim.no_batch}" if prim.no_batch else ""
    raise NoBatchingRule(
        f"vmap: primitive {prim.name!r} has no batching rule{reason}. Declare one with "
        f"batch=... where the primitive is registered (ops/primitive.py explains the "
        f"signature), or keep this operation out of the vmapped function")


# ---- helpers ---------------------------------------------------------------------------

def _shape_ops():
    # (by module name: the package attribute ``ops.shape`` is MindSpore's shape function)
    return importlib.import_module(".shape", __package__)


def batch_size(args, dims):
    for a, d in zip(args, dims):
        if d is not None:
            return a.shape[d]
    raise ValueError("internal error: a batching rule was called with no batched input")


def moveaxis(x, source, destination):
    """``x`` with axis ``source`` moved to ``destination`` (a transpose, or ``x`` itself)."""
    if source == destination:
        return x
    perm = [i for i in range(x.ndim) if i != source]
    perm.insert(destination, source)
    return _shape_ops().transpose_p.bind(x, perm=tuple(perm))


def to_front(x, dim):
    """``x`` with its batch axis first."""
    return moveaxis(x, dim, 0)


def materialize(x, dim, size):
    """``x`` batched along axis 0: moved there, or broadcast (a view) if unbatched."""
    if dim is not None:
        return to_front(x, dim)
    return _shape_ops().broadcast_to_p.bind(x, shape=(size,) + tuple(x.shape))


def pad_rank(x, rank):
    """A batched-at-0 ``x`` with size-1 axes after the batch axis so that each example has
    ``rank`` axes: how an example of lower rank broadcasts against the others."""
    missing = rank - (x.ndim - 1)
    if missing <= 0:
        return x
    shape = tuple(x.shape)
    return _shape_ops().reshape_p.bind(x, shape=shape[:1] + (1,) * missing + shape[1:])


def example_ndim(x, dim):
    return x.ndim - (dim is not None)


# ---- family rules ----------------------------------------------------------------------

def elementwise(prim, dims, *args, **params):
    """Broadcasting elementwise ops: batch axes first, each batched operand padded with
    size-1 axes to the rank of the example's result, unbatched operands as they are."""
    rank = max(example_ndim(a, d) for a, d in zip(args, dims))
    operands = [a if d is None else pad_rank(to_front(a, d), rank) for a, d in zip(args, dims)]
    out = prim.bind(*operands, **params)
    return out, (tuple(0 for _ in out) if prim.multiple_results else 0)


def reduction(prim, dims, x, axes, keepdims):
    """Reductions over ``axes``: the batch axis first, every axis shifted by one."""
    return prim.bind(to_front(x, dims[0]), axes=tuple(a + 1 for a in axes),
                     keepdims=keepdims), 0


def along_axis(prim, dims, x, axis, **params):
    """One operand and one ``axis`` parameter (softmax, log_softmax)."""
    return prim.bind(to_front(x, dims[0]), axis=axis + 1, **params), 0


def fold_leading(x, dim):
    """A batched-at-``dim`` ``x`` with the batch folded into the example's first axis:
    (B, N, ...) -> (B*N, ...); returns it and B."""
    x = to_front(x, dim)
    shape = tuple(x.shape)
    return _shape_ops().reshape_p.bind(x, shape=(shape[0] * shape[1],) + shape[2:]), shape[0]


def unfold_leading(y, size):
    """The inverse of ``fold_leading`` on a result: (B*N, ...) -> (B, N, ...)."""
    shape = tuple(y.shape)
    return _shape_ops().reshape_p.bind(y, shape=(size, shape[0] // size) + shape[1:])


# ---- running a graph on batched values ---------------------------------------------------

def batch_graph(graph, args, dims):
    """Run ``graph``'s nodes on batched ``args`` (batch axes ``dims``): nodes whose inputs
    are all unbatched are bound as they are, the others through their batching rules.
    Returns the outputs and their batch axes."""
    env = {}
    for var, a, d in zip(graph.inputs, args, dims):
        env[var] = (a, d)
    for ref in graph.refs:
        env[ref.var] = (ref.tensor, None)
    for var, value in graph.consts.items():
        env[var] = (coerce.constant(value), None)

    def read(v):
        return (coerce.constant(v.value), None) if isinstance(v, Literal) else env[v]

    writes = {ref.var: ref.tensor for ref in graph.refs}
    for node in graph.nodes:
        values = [read(v) for v in node.inputs]
        tensors = [t for t, _ in values]
        in_dims = [d for _, d in values]
        prim = node.prim
        if prim.name == "assign":
            if in_dims[1] is not None:
                raise ValueError(f"vmap: the graph writes a value that differs per example "
                                 f"into {writes[node.inputs[0]]!r}, which has one value")
            writes[node.inputs[0]]._assign(tensors[1])
            continue
        if all(d is None for d in in_dims):
            out = prim.bind(*tensors, **node.params)
            out_dims = tuple(None for _ in out) if prim.multiple_results else None
        else:
            out, out_dims = rule_of(prim)(prim, in_dims, *tensors, **node.params)
        if prim.multiple_results:
            env.update(zip(node.outputs, zip(out, out_dims)))
        else:
            env[node.outputs[0]] = (out, out_dims)
    outs = [read(v) for v in graph.outputs]
    return [t for t, _ in outs], [d for _, d in outs]
