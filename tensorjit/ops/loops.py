"""Loops as ops: ``scan``, ``while_loop``, ``fori_loop`` (JAX's forms) and MindSpore's
``Scan`` / ``WhileLoop`` / ``ForiLoop`` conventions on top.

Eagerly they are Python loops (autodiff tapes see every step). While a graph is being
captured they ask the capture for one graph loop node (``capture.functional_scan`` /
``functional_while``): the step function is traced once into a sub-graph, so a loop of a
thousand steps is one node, and a loop whose trip count is a tensor runs as many steps as
the data says. States and per-step values are pytrees (tuples, lists, dicts) of tensors;
numbers in them become tensors.
"""
from .. import pytree
from ..state import state
from ..tensor import Tensor
from . import coerce
from . import shape as _shape


def _flatten(tree, what):
    leaves = []
    structure = pytree.flatten(tree, leaves)
    if structure != pytree.TENSOR and _has_numbers(structure):
        tree = _numbers_to_tensors(tree)
        leaves = []
        structure = pytree.flatten(tree, leaves)
    return leaves, structure


def _has_numbers(structure):
    if structure == pytree.TENSOR:
        return False
    tag = structure[0]
    if tag in ("tuple", "list"):
        return any(_has_numbers(s) for s in structure[1])
    if tag in ("dict", "namedtuple", "node"):
        return any(_has_numbers(s) for s in structure[2])
    return coerce.is_scalar(structure[1])


def _numbers_to_tensors(tree):
    if coerce.is_scalar(tree):
        return coerce.as_tensor(tree)
    if isinstance(tree, (tuple, list)) and not hasattr(tree, "_fields"):
        return type(tree)(_numbers_to_tensors(v) for v in tree)
    if isinstance(tree, dict):
        return {k: _numbers_to_tensors(v) for k, v in tree.items()}
    return tree


def _capture_loop(method):
    capture = state.capture
    if capture is None:
        return None
    build = getattr(capture, method, None)
    if build is None:
        raise NotImplementedError(f"this capture mode cannot build graph loops ({method})")
    return build


def scan(step, init, xs=None, length=None, reverse=False):
    """``carry, y = step(carry, x)`` for each ``x`` along the leading axis of ``xs`` (a
    pytree of tensors with that axis; None with ``length`` for no per-step input).
    Returns ``(final carry, ys)`` with the ``y`` of every step stacked on axis 0;
    ``reverse`` runs the steps from the last to the first (ys keep their positions)."""
    carry_leaves, carry_struct = _flatten(init, "scan")
    x_leaves, x_struct = _flatten(xs, "scan") if xs is not None else ([], None)
    if x_leaves:
        steps = {x.shape[0] if x.ndim else None for x in x_leaves}
        if len(steps) != 1 or None in steps:
            raise ValueError(f"scan: every xs needs the same leading axis, got shapes "
                             f"{[tuple(x.shape) for x in x_leaves]}")
        n = steps.pop()
        if length is not None and length != n:
            raise ValueError(f"scan: length={length} but xs have {n} steps")
        length = n
    elif length is None:
        raise ValueError("scan: give xs or length")
    y_struct = []

    def flat_step(*flat):
        carry = pytree.unflatten(carry_struct, flat[:len(carry_leaves)])
        x = pytree.unflatten(x_struct, flat[len(carry_leaves):]) if xs is not None else None
        out = step(carry, x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("scan: the step must return (carry, y)")
        new_leaves, new_struct = _flatten(out[0], "scan")
        if new_struct != carry_struct:
            raise TypeError(f"scan: the step returns a carry {pytree.describe(new_struct)} "
                            f"unlike the initial {pytree.describe(carry_struct)}")
        y_leaves, struct = _flatten(out[1], "scan")
        y_struct[:] = [struct]
        return tuple(new_leaves) + tuple(y_leaves)

    build = _capture_loop("functional_scan")
    if build is not None:
        carry, ys = build(flat_step, carry_leaves, x_leaves, length, reverse)
    else:
        carry, per_step = tuple(carry_leaves), [None] * length
        for t in (range(length - 1, -1, -1) if reverse else range(length)):
            out = flat_step(*carry, *[x[t] for x in x_leaves])
            carry, per_step[t] = out[:len(carry_leaves)], out[len(carry_leaves):]
        if length == 0:
            raise ValueError("scan: zero steps eagerly give no per-step values to stack")
        ys = tuple(_shape.stack([s[i] for s in per_step]) for i in range(len(per_step[0])))
    return (pytree.unflatten(carry_struct, carry),
            pytree.unflatten(y_struct[0], ys) if y_struct else None)


def while_loop(cond_fun, body_fun, init_val):
    """``while cond_fun(val): val = body_fun(val)``; returns the final ``val``. Inside a
    graph the condition may depend on tensors: the loop runs as the data says."""
    leaves, struct = _flatten(init_val, "while_loop")

    def flat(fn):
        def call(*values):
            out = fn(pytree.unflatten(struct, values))
            if fn is body_fun:
                out_leaves, out_struct = _flatten(out, "while_loop")
                if out_struct != struct:
                    raise TypeError(f"while_loop: the body returns "
                                    f"{pytree.describe(out_struct)} unlike the initial value "
                                    f"{pytree.describe(struct)}")
                return tuple(out_leaves)
            return out
        return call

    build = _capture_loop("functional_while")
    if build is not None:
        return pytree.unflatten(struct, build(flat(cond_fun), flat(body_fun), leaves))
    val = init_val
    while cond_fun(val):
        val = body_fun(val)
    return val


def fori_loop(lower, upper, body_fun, init_val):
    """``for i in range(lower, upper): val = body_fun(i, val)``; returns ``val``."""
    if state.capture is None and not isinstance(lower, Tensor) and \
            not isinstance(upper, Tensor):
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(i, val)
        return val
    start = coerce.as_tensor(lower, op="fori_loop")
    stop = coerce.as_tensor(upper, start.dtype, op="fori_loop")
    i, val = while_loop(lambda s: s[0] < stop, lambda s: (s[0] + 1, body_fun(s[0], s[1])),
                        (start, init_val))
    return val
