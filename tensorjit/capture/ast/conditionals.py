"""Graph ``if``: building a ``cond`` node when a condition is a symbolic tensor (loops.py
does ``while`` / ``for``).

The converted code hands over *functions* for the branches / loop body and the values of
the variables the block assigns (its state). Each function is run once in a
``SubCapture`` (a nested abstract capture) per branch; the results are merged variable by
variable:

* the same Python value in every branch stays a Python value (a compile-time constant);
* tensors must agree in shape and dtype; a Python number facing a tensor becomes a
  constant of the tensor's type; different Python numbers become a 0-d tensor
  (bool, int64 or float32) -- this is how ``break`` / ``return`` flags turn into data;
* a user variable assigned in only one branch is undefined afterwards (using it is an
  error that says why); the internal return value takes the other branch's value, since
  the return flag guards every use of it;
* anything else that differs between branches is an error naming the variable.

Loops run their body once abstractly with fresh inputs for the carried values, then check
what changed: a Python number that changes is promoted to a carried 0-d tensor (and the
body traced again), a tensor must keep its shape and dtype, other Python values must not
change. In-place updates of outside tensors and Parameters inside a branch or a loop body
become extra outputs (carried values for loops) that are written back afterwards.
"""
import contextlib

import numpy as np

from ...state import state
from ...tensor import Tensor
from .. import control_flow as control
from ..subgraph import SubCapture, sub_scope, union_operands
from .values import (Undefined, ControlFlowError, INTERNAL_PREFIX, _TensorLeaf, _PLACEHOLDER,
                     _is_number, same_value, snapshot, describe, _number_aval,
                     to_bool_tensor)


# ---- branches -------------------------------------------------------------------------

@contextlib.contextmanager
def _only_if_taken(label):
    """A branch or loop body that fails for these shapes or dtypes: eager execution runs it
    only when the data selects it, so the statement runs as Python (or, with
    ``fullgraph=True``, the error says why it cannot be a graph)."""
    try:
        yield
    except (ValueError, TypeError, IndexError) as exc:
        raise ControlFlowError(f"{label}: this branch or loop body, which graph control "
                               f"flow must compile whether or not the data selects it, "
                               f"fails: {type(exc).__name__}: {exc}") from exc


class _Branch:
    def __init__(self, sub, values, writes, objects):
        self.sub = sub
        self.values = values            # snapshot per state name
        self.writes = writes            # id(target) -> (target, is_ref, value)
        self.objects = objects          # the Python object per state name


def _trace_branch(capture, fn, name, where=None):
    sub = SubCapture(capture, name)
    try:
        with sub_scope(sub), _only_if_taken(where or name):
            out = fn()
            values = [snapshot(sub, v) for v in out]
            writes = {id(t): (t, is_ref, sub.final_value(t))
                      for t, is_ref in sub.written_targets()}
    finally:
        sub.restore_outer()
    return _Branch(sub, values, writes, list(out))


class _Plan:
    """How a merged value is rebuilt: a tree whose leaves are Python constants or indices
    into the node's outputs."""

    def __init__(self):
        self.avals = []          # per dynamic leaf
        self.sources = []        # per dynamic leaf: per-branch source

    def dyn(self, aval, sources):
        self.avals.append(aval)
        self.sources.append(sources)
        return ("dyn", len(self.avals) - 1)


def _plan(plan, name, values, where, strict=False):
    real = [v for v in values if v is not _PLACEHOLDER]
    first = real[0]
    if all(isinstance(v, _TensorLeaf) or _is_number(v) for v in real):
        tensors = [v for v in real if isinstance(v, _TensorLeaf)]
        if not tensors and all(same_value(v, first) for v in real):
            return ("static", first)
        if strict and tensors and len(tensors) != len(real) and not _bools(real):
            # an expression's value (``a and 5``): Python gives the tensor or the number
            # depending on the data, which one graph value cannot be (True / False facing
            # a bool tensor -- flags, conditions -- become bool tensors)
            shown = " and ".join(sorted({describe(v) for v in real}))
            raise ControlFlowError(f"{where}: the value is {shown} depending on a tensor "
                                   f"value; one graph value cannot be both")
        if tensors:
            aval = tensors[0].aval
            for t in tensors[1:]:
                if t.aval != aval:
                    raise ControlFlowError(
                        f"{where}: variable {name!r} is a {aval} tensor on one path and a "
                        f"{t.aval} tensor on another; graph control flow needs one shape and "
                        f"dtype (cast or reshape it in the branches)")
        else:
            aval = _number_aval(real)
        return plan.dyn(aval, list(values))
    kinds = {type(v) for v in real}
    if len(kinds) == 1 and _is_sequence(first) and len({len(v) for v in real}) == 1:
        children = []
        for i in range(len(first)):
            column = [v if v is _PLACEHOLDER else v[i] for v in values]
            children.append(_plan(plan, f"{name}[{i}]", column, where, strict))
        return ("seq", type(first), children)
    if kinds == {dict} and len({tuple(v) for v in real}) == 1:
        keys = list(first)
        children = [_plan(plan, f"{name}[{k!r}]", [v if v is _PLACEHOLDER else v[k]
                                                    for v in values], where, strict)
                    for k in keys]
        return ("dict", keys, children)
    if all(same_value(v, first) or _same_object(v, first) for v in real):
        return ("static", first)
    shown = " and ".join(sorted({describe(v) for v in real}))
    raise ControlFlowError(
        f"{where}: variable {name!r} is {shown} depending on a tensor value; inside "
        f"tensor-dependent control flow only tensors and numbers may differ between paths")


def _bools(values):
    return all(v.aval.dtype == np.bool_ if isinstance(v, _TensorLeaf)
               else isinstance(v, (bool, np.bool_)) for v in values)


def _is_sequence(value):
    kind = type(value)
    return kind is tuple or kind is list or (isinstance(value, tuple) and hasattr(value, "_fields"))


def _same_object(a, b):
    if isinstance(a, _TensorLeaf) or isinstance(b, _TensorLeaf):
        return False
    return a is b


def _rebuild(tree, outputs):
    tag = tree[0]
    if tag == "static":
        return tree[1]
    if tag == "dyn":
        return outputs[tree[1]]
    if tag == "seq":
        kind, children = tree[1], tree[2]
        items = [_rebuild(c, outputs) for c in children]
        if kind is tuple or kind is list:
            return kind(items)
        return kind(*items)
    return {k: _rebuild(c, outputs) for k, c in zip(tree[1], tree[2])}


def _leaf_value(sub, source, aval):
    """The value of one dynamic leaf in a branch graph."""
    if isinstance(source, _TensorLeaf):
        return source.value
    if source is _PLACEHOLDER:
        return sub.const(np.zeros(aval.shape, aval.dtype))
    return sub.const(np.full(aval.shape, source, aval.dtype))


def graph_if(pred_value, branch_fns, names, where, strict=False, live=()):
    """Build a ``cond`` node. ``branch_fns``: (then, else) zero-argument functions
    returning a tuple with one value per name. Returns the merged tuple. ``strict``: the
    values of an expression (``and`` / ``or``), where a number facing a tensor is an error
    rather than a constant of the tensor's type. ``live``: user variables read after the
    ``if``, which must then be assigned on both paths."""
    capture = state.capture
    pred = to_bool_tensor(pred_value, where)
    branches = [_trace_branch(capture, fn, f"{_label(where)}_{label}",
                              f"{where} ({side} branch)")
                for fn, label, side in zip(branch_fns, ("then", "else"), ("true", "false"))]
    plan = _Plan()
    trees = []
    for i, name in enumerate(names):
        column = [b.values[i] for b in branches]
        undefined = [isinstance(v, Undefined) for v in column]
        if any(undefined) and not all(undefined):
            if name.startswith(INTERNAL_PREFIX):
                column = [_PLACEHOLDER if u else v for u, v in zip(undefined, column)]
            else:
                side = "true" if undefined[1] else "false"
                if name in live:
                    raise ControlFlowError(
                        f"{where}: variable {name!r} is assigned only when the tensor "
                        f"condition is {side}, and read afterwards; whether it exists "
                        f"depends on the data (assign it on both paths)")
                trees.append(("static", Undefined(name, f"it is assigned only when the "
                                                        f"tensor condition at {where} is "
                                                        f"{side}; assign it on both paths")))
                continue
        elif all(undefined):
            trees.append(("static", column[0]))
            continue
        first = branches[0].objects[i]
        if isinstance(first, Tensor) and first is branches[1].objects[i]:
            # one tensor object on both paths, at most updated in place (``x += 1``): it
            # stays that object, and gets its new value from the writes below
            trees.append(("static", first))
            continue
        trees.append(_plan(plan, name, column, where, strict))
    # in-place updates of outside tensors and Parameters, in any branch
    targets = {}
    for b in branches:
        for key, (t, is_ref, _) in b.writes.items():
            targets.setdefault(key, (t, is_ref))
    resolved = _resolve_without_node(plan, branches, pred)
    kept = [k for k in range(len(plan.avals)) if k not in resolved]
    outputs = []
    for index, b in enumerate(branches):
        values = [_leaf_value(b.sub, plan.sources[k][index], plan.avals[k]) for k in kept]
        for key, (t, _) in targets.items():
            write = b.writes.get(key)
            values.append(write[2] if write is not None else b.sub.final_value(t))
        outputs.append(values)
    effects = any(control.has_effects(b.sub.graph) for b in branches)
    results = ()
    if outputs[0] or effects:
        keys, operands = union_operands([b.sub for b in branches])
        graphs = [b.sub.close(values, keys) for b, values in zip(branches, outputs)]
        prim = control.cond_effect_p if effects else control.cond_p
        results = prim.bind(pred, *operands, then_branch=graphs[0], else_branch=graphs[1])
        for (t, _), value in zip(targets.values(), results[len(kept):]):
            t._assign(value)         # (Tensor._assign: autodiff tapes see it too)
    merged = [resolved[k] if k in resolved else results[kept.index(k)]
              for k in range(len(plan.avals))]
    _note_aliases(capture, pred, branches, trees, merged)
    return tuple(_rebuild(t, merged) for t in trees)


class BranchAliases:
    """Tensor objects that are one Python object on one path of a tensor ``if``.

    After ``z = y`` and ``if c: z = f(z)``, eager execution has ``z is y`` when ``c`` is
    false, so a later in-place update of ``y`` (``y += 1``) changes ``z`` too, and vice
    versa. The graph's ``z`` is the ``cond`` node's output, a tensor object of its own; the
    capture remembers the pair and applies an update of one to the other under the
    path's condition: ``z = where(not c, y_new, z)`` (see ``propagate_inplace``)."""

    def __init__(self):
        self.pairs = {}            # id(tensor) -> [(partner, pred, when, owner capture)]
        self.busy = False

    def add(self, a, b, pred, when, owner):
        self.pairs.setdefault(id(a), []).append((b, pred, when, owner))
        self.pairs.setdefault(id(b), []).append((a, pred, when, owner))

    def snapshot(self):
        return {k: list(v) for k, v in self.pairs.items()}

    def restore(self, snapshot):
        self.pairs = snapshot


def _note_aliases(capture, pred, branches, trees, merged):
    aliases = getattr(capture, "branch_aliases", None)
    if aliases is None:
        return
    outside = [{id(obj) for obj, _, _ in b.sub.captured} | set(b.writes) for b in branches]
    for i, tree in enumerate(trees):
        if tree[0] != "dyn":
            continue
        result = merged[tree[1]]
        for side, b in enumerate(branches):
            obj = b.objects[i]
            if isinstance(obj, Tensor) and obj is not result and id(obj) in outside[side]:
                aliases.add(obj, result, pred, side == 0, capture)


def propagate_inplace(capture, target, value):
    """``target`` was updated in place to ``value``: update the tensors it may be the same
    object as (``BranchAliases``)."""
    aliases = getattr(capture, "branch_aliases", None)
    if aliases is None or aliases.busy or id(target) not in aliases.pairs:
        return
    from ... import ops
    aliases.busy = True
    try:
        # transitively: after ``z = y`` / ``if a: z = ...`` / ``w = z`` / ``if b: w = ...``,
        # ``w`` is ``y`` when neither condition held
        done, frontier = {id(target)}, [(target, None)]
        while frontier:
            obj, active = frontier.pop()
            for other, pred, when, owner in aliases.pairs.get(id(obj), ()):
                if id(other) in done or not _encloses(owner, capture):
                    continue
                same = _path_condition(active, pred, when)
                if same is False:
                    continue
                other._assign(value if same is True else ops.where(same, value, other))
                done.add(id(other))
                frontier.append((other, same))
    finally:
        aliases.busy = False


def alias_condition(capture, a, b):
    """A bool tensor of ``capture``'s graph that is true where ``a`` and ``b`` are one
    Python object (through the ``BranchAliases`` pairs its own tensor ``if``s recorded),
    ``True`` if they are the same object, or None if they never are."""
    if a is b:
        return True
    aliases = getattr(capture, "branch_aliases", None)
    if aliases is None:
        return None
    from ... import ops
    done, frontier = {id(a)}, [(a, None)]
    while frontier:
        obj, active = frontier.pop()
        for other, pred, when, owner in aliases.pairs.get(id(obj), ()):
            if id(other) in done or owner is not capture:
                continue
            same = _path_condition(active, pred, when)
            if same is False:
                continue
            if other is b:
                return same
            done.add(id(other))
            frontier.append((other, same))
    return None


def _path_condition(active, pred, when):
    """The condition of one more alias pair on a path (``active``: the path's condition so
    far, None at its start): a bool tensor, or True / False where a condition is a Python
    bool (a loop's first test known at capture)."""
    from ... import ops
    if isinstance(pred, (bool, np.bool_)):
        same = bool(pred) == when
    else:
        same = pred if when else ops.logical_not(pred)
    if active is None or active is True or same is False:
        return same
    if same is True:
        return active
    return ops.logical_and(active, same)


def _encloses(owner, capture):
    while capture is not None:
        if capture is owner:
            return True
        capture = vars(capture).get("parent")
    return False


def _resolve_without_node(plan, branches, pred):
    """Merged values that need no ``cond`` output: the same outside tensor on both paths,
    or the literals True / False (the predicate itself, or its negation)."""
    from ... import ops
    outer_of = [{id(inner): (obj, outer) for obj, outer, inner in b.sub.captured}
                for b in branches]
    resolved = {}
    for k, sources in enumerate(plan.sources):
        a, b = sources
        if isinstance(a, _TensorLeaf) and isinstance(b, _TensorLeaf):
            oa, ob = outer_of[0].get(id(a.value)), outer_of[1].get(id(b.value))
            if oa is not None and ob is not None and oa[1] is ob[1]:
                resolved[k] = oa[0]
        elif plan.avals[k].dtype == np.bool_ and plan.avals[k].shape == () and \
                isinstance(a, (bool, np.bool_)) and isinstance(b, (bool, np.bool_)):
            resolved[k] = pred if a else ops.logical_not(pred)
    return resolved


def _label(where):
    text = str(where).rsplit("/", 1)[-1]
    return "".join(c if c.isalnum() else "_" for c in text)
