"""Forward mode and Jacobians, with MindSpore's signatures: ``jvp(fn, inputs, v, has_aux)``,
``jacfwd`` / ``jacrev(fn, grad_position=0, has_aux=False)`` and ``hessian``.

Forward mode is derived from reverse mode by the transpose trick, not declared per
primitive: ``vjp`` gives the linear map ``u -> J^T u``, written with ops, and since an
enclosing tape records a backward pass (that is how higher-order gradients work), the VJP
of that map at ``v`` is ``J v``. Every primitive's VJP is already written with ops and
checked against finite differences (tests/core/test_vjp_registry.py), so forward mode
covers every primitive -- control flow, convolutions, fused and GE units included --
with no second rule per primitive to keep right. The price: a JVP costs a forward and two
backward passes instead of one forward pass with tangents, and keeps the forward values.

``jacfwd`` pushes the standard basis of the inputs through ``jvp`` and ``jacrev`` pulls the
basis of the outputs back through ``vjp``, each batched with ``vmap`` (one batched pass,
not a loop). A Jacobian has the output's shape followed by the input's.
"""
import numpy as np

from .. import pytree
from ..state import state
from ..tensor import Tensor
from .. import ops
from ..autodiff import vjp
from ..autodiff.tape import _alias
from .vmap import vmap


def _name(fn):
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def _as_tuple(value, what, name):
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            raise TypeError(f"jvp of {name}: {what} {i} is a {type(item).__name__}, not a "
                            f"Tensor")
    return items


def _leaves(value):
    leaves = []
    structure = pytree.flatten(value, leaves)
    return structure, leaves


def jvp(fn, inputs, v, has_aux=False):
    """Jacobian-vector product (forward mode): returns ``(fn(*inputs), J v)``; with
    ``has_aux``, ``(first output, its J v, aux)`` -- one aux output bare, several as a
    tuple, as MindSpore does."""
    name = _name(fn)
    inputs = _as_tuple(inputs, "input", name)
    v = _as_tuple(v, "tangent", name)
    if len(v) != len(inputs):
        raise ValueError(f"jvp of {name}: {len(v)} tangent(s) for {len(inputs)} input(s)")
    for i, (x, t) in enumerate(zip(inputs, v)):
        if tuple(t.shape) != tuple(x.shape):
            raise ValueError(f"jvp of {name}: tangent {i} has shape {tuple(t.shape)}, input "
                             f"{i} has shape {tuple(x.shape)}")
    v = tuple(t if t.dtype == x.dtype else ops.cast(t, x.dtype) for x, t in zip(inputs, v))
    output, tangents, aux = _linearize_and_push(fn, inputs, v, has_aux, name)
    return (output, tangents, aux) if has_aux else (output, tangents)


def _linearize_and_push(fn, inputs, v, has_aux, name):
    """(output, J v, aux as MindSpore returns it or None)."""
    result = vjp(fn, *inputs, has_aux=has_aux)
    output, pullback = result[0], result[1]
    structure, outs = _leaves(output)
    if not outs:
        raise ValueError(f"jvp of {name}: the function returns no tensor")
    placeholders = [ops.zeros_like(o) for o in outs]
    # the pullback is linear in the cotangents; its VJP at v is J v
    _, transpose = vjp(lambda *us: pullback(*us), *placeholders)
    tangents = transpose(*v)
    return output, pytree.unflatten(structure, list(tangents)), result[2] if has_aux else None


# ---- Jacobians -----------------------------------------------------------------------

def _separate(x):
    """Another tensor object for ``x``'s value, the same value for enclosing tapes."""
    alias = _alias(x)
    for tape in state.tapes:
        tape.alias(alias, x)
    return alias


def _positions(grad_position, nargs, name, kind):
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple)):
        raise TypeError(f"{kind} of {name}: grad_position must be an int or a tuple of ints, "
                        f"got {grad_position!r}")
    positions = (grad_position,) if isinstance(grad_position, int) else grad_position
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int) or not -nargs <= p < nargs:
            raise ValueError(f"{kind} of {name}: grad_position {grad_position} is out of "
                             f"range for {nargs} positional argument(s)")
    return tuple(p % nargs for p in positions)


def _with(args, positions, values):
    args = list(args)
    for p, value in zip(positions, values):
        args[p] = value
    return tuple(args)


def _basis(tensors):
    """The standard basis of the tensors' elements, concatenated: per tensor, one of shape
    (total size, *its shape) -- row k is the k-th unit vector, cut into the tensors."""
    sizes = [t.size for t in tensors]
    eye = np.eye(sum(sizes))
    parts, start = [], 0
    for t, size in zip(tensors, sizes):
        rows = eye[:, start:start + size].reshape((len(eye),) + tuple(t.shape))
        parts.append(ops.constant(rows, t.dtype))
        start += size
    return parts, sizes


def _blocks(rows, sizes, shapes, other_shape, rows_index_inputs):
    """Cut the (total, ...) rows into one Jacobian per tensor of ``shapes``: rows indexing
    inputs (jacfwd) go last, (*other_shape, *shape); rows indexing outputs (jacrev) go
    first, (*shape, *other_shape)."""
    blocks, start = [], 0
    for size, shape in zip(sizes, shapes):
        block = rows[start:start + size]
        start += size
        if rows_index_inputs and block.ndim > 1:
            block = ops.movedim(block, 0, -1)
        lead, tail = (other_shape, shape) if rows_index_inputs else (shape, other_shape)
        blocks.append(ops.reshape(block, tuple(lead) + tuple(tail)))
    return blocks


def _nest(per_output, structure, positions_tuple):
    """Jacobians per output tensor and input position, nested as MindSpore does: the
    outputs' structure outside, a tuple over positions inside if grad_position is one."""
    return pytree.unflatten(structure, [tuple(b) if positions_tuple else b[0]
                                        for b in per_output])


def _jacobian_transform(kind, compute):
    def transform(fn, grad_position=0, has_aux=False):
        name = _name(fn)

        def jacobian_fn(*args):
            positions = _positions(grad_position, len(args), name, kind)
            primals = _as_tuple(tuple(args[p] for p in positions), "input", name)
            # a tensor passed at another position too is another input there
            primals = tuple(_separate(x) if sum(a is x for a in args) > 1 else x
                            for x in primals)

            def of_primals(*values):
                return fn(*_with(args, positions, values))

            output, per_output, aux = compute(of_primals, primals, has_aux, name)
            structure, _ = _leaves(output)
            jac = _nest(per_output, structure, isinstance(grad_position, tuple))
            return (jac, aux) if has_aux else jac

        jacobian_fn.__qualname__ = jacobian_fn.__name__ = f"{kind}({name})"
        jacobian_fn.__wrapped__ = fn
        jacobian_fn._tj_rebuild = lambda inner: transform(inner, grad_position, has_aux)
        return jacobian_fn
    return transform


def _forward_jacobian(of_primals, primals, has_aux, name):
    basis, sizes = _basis(primals)

    def push(*tangents):
        output, tangents, aux = _linearize_and_push(of_primals, primals, tangents, has_aux,
                                                    name)
        return (output, tangents, aux) if has_aux else (output, tangents)

    # the output and aux depend on the primals only: one copy, not one per basis vector
    result = vmap(push, out_axes=(None, 0, None) if has_aux else (None, 0))(*basis)
    output, pushed = result[0], result[1]
    _, outs = _leaves(output)
    _, rows = _leaves(pushed)
    shapes = [tuple(p.shape) for p in primals]
    per_output = [_blocks(r, sizes, shapes, tuple(o.shape), True) for o, r in zip(outs, rows)]
    return output, per_output, result[2] if has_aux else None


def _reverse_jacobian(of_primals, primals, has_aux, name):
    result = vjp(of_primals, *primals, has_aux=has_aux)
    output, pullback = result[0], result[1]
    _, outs = _leaves(output)
    if not outs:
        raise ValueError(f"jacrev of {name}: the function returns no tensor")
    basis, sizes = _basis(outs)
    pulled = vmap(pullback)(*basis)              # per primal: (total outputs, *primal shape)
    per_primal = [_blocks(rows, sizes, [tuple(o.shape) for o in outs], tuple(p.shape), False)
                  for p, rows in zip(primals, pulled)]
    per_output = [[blocks[k] for blocks in per_primal] for k in range(len(outs))]
    return output, per_output, result[2] if has_aux else None


jacfwd = _jacobian_transform("jacfwd", _forward_jacobian)
jacfwd.__doc__ = """Jacobian by forward mode (MindSpore's ``jacfwd(fn, grad_position=0,
has_aux=False)``): for every output, ``output.shape + input.shape``; a tuple over
``grad_position`` when it is a tuple, inside the outputs' tuple; with ``has_aux``,
``(Jacobian of the first output, aux)``. Best when outputs outnumber inputs."""
jacrev = _jacobian_transform("jacrev", _reverse_jacobian)
jacrev.__doc__ = """Jacobian by reverse mode (MindSpore's ``jacrev``), same conventions as
``jacfwd``. Best when inputs outnumber outputs."""


def hessian(fn, grad_position=0, has_aux=False):
    """Second derivatives: ``jacfwd(jacrev(fn))`` (forward over reverse, as JAX's
    ``hessian``): ``output.shape + input.shape + input.shape``; nested per position pair
    when ``grad_position`` is a tuple; with ``has_aux``, ``(hessian, aux)``."""
    inner = jacrev(fn, grad_position, has_aux)
    outer = jacfwd(inner, grad_position, has_aux)
    outer.__qualname__ = outer.__name__ = f"hessian({_name(fn)})"
    outer._tj_rebuild = lambda converted: hessian(converted, grad_position, has_aux)
    outer.__wrapped__ = fn
    return outer
