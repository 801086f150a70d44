"""MindSpore's ``linearize(fn, inputs)`` and ``derivative(fn, primals, order)``, both built
on forward mode (``jacobian.py``): ``linearize`` keeps the linear map ``v -> J v`` at the
inputs to apply to many tangents, ``derivative`` nests ``jvp`` to get the ``order``-th
derivative of ``t -> fn(primals + t)`` at 0 (every input moved along ones)."""
from .. import ops
from ..autodiff import vjp
from ..tensor import Tensor
from .jacobian import jvp, _name, _as_tuple, _leaves
from .. import pytree


def linearize(fn, inputs):
    """``(fn(*inputs), jvp_fn)``: ``jvp_fn(v)`` is ``J v`` at ``inputs``, ``v`` shaped as
    ``inputs`` (one tensor, or a tuple of one per input). The forward pass and its tape run
    once; each ``jvp_fn`` call is a backward pass through the recorded pullback."""
    name = _name(fn)
    single = isinstance(inputs, Tensor)
    primals = _as_tuple(inputs, "input", name)
    output, pullback = vjp(fn, *primals)
    structure, outs = _leaves(output)
    if not outs:
        raise ValueError(f"linearize of {name}: the function returns no tensor")
    placeholders = [ops.zeros_like(o) for o in outs]
    # the pullback is linear in the cotangents: its VJP at v is J v
    _, transpose = vjp(lambda *us: pullback(*us), *placeholders)

    def jvp_fn(v):
        tangents = (v,) if single else _as_tuple(v, "tangent", name)
        if len(tangents) != len(primals):
            raise ValueError(f"linearize of {name}: {len(tangents)} tangent(s) for "
                             f"{len(primals)} input(s)")
        for i, (x, t) in enumerate(zip(primals, tangents)):
            if not isinstance(t, Tensor):
                raise TypeError(f"linearize of {name}: tangent {i} is a "
                                f"{type(t).__name__}, not a Tensor")
            if tuple(t.shape) != tuple(x.shape):
                raise ValueError(f"linearize of {name}: tangent {i} has shape "
                                 f"{tuple(t.shape)}, input {i} has shape {tuple(x.shape)}")
        tangents = tuple(t if t.dtype == x.dtype else ops.cast(t, x.dtype)
                         for x, t in zip(primals, tangents))
        return pytree.unflatten(structure, list(transpose(*tangents)))

    return output, jvp_fn


def derivative(fn, primals, order):
    """``(fn(*primals), d^order/dt^order fn(primals + t) at t = 0)``: the ``order``-th
    directional derivative along ones (every input moved together)."""
    name = _name(fn)
    if isinstance(order, bool) or not isinstance(order, int):
        raise TypeError(f"derivative of {name}: order must be an int, got "
                        f"{type(order).__name__}")
    if order < 1:
        raise ValueError(f"derivative of {name}: order must be at least 1, got {order}")
    primals = _as_tuple(primals, "primal", name)
    ones = tuple(ops.ones_like(p) for p in primals)

    def along_ones(g):
        return lambda *p: jvp(g, p, ones)[1]

    derived = fn
    for _ in range(order):
        derived = along_ones(derived)
    return fn(*primals), derived(*primals)
