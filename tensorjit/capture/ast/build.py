"""Building graph control flow (``cond`` / ``while_loop`` nodes) when a condition is a
symbolic tensor.

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
import numbers

import numpy as np

from ... import dtype as dt
from ...aval import ShapedArray
from ...ir.graph import Literal
from ...state import state
from .. import control_flow as control
from ...tensor import Tensor
from ..base import CaptureError
from ..subgraph import SubCapture, sub_scope, union_operands

INTERNAL_PREFIX = "_tj_"
MAX_LOOP_RETRACES = 8


class Undefined:
    """The value of a local variable that has not been assigned (on every path)."""
    __slots__ = ("name", "reason")

    def __init__(self, name, reason=None):
        self.name = name
        self.reason = reason

    def message(self):
        if self.reason:
            return f"local variable {self.name!r} is not defined here: {self.reason}"
        return f"local variable {self.name!r} referenced before assignment"

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(self.message())

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self):
        return f"<undefined {self.name}>"


for _method in ("__bool__", "__call__", "__iter__", "__len__", "__getitem__", "__setitem__",
                "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                "__truediv__", "__rtruediv__", "__floordiv__", "__mod__", "__pow__",
                "__matmul__", "__rmatmul__", "__neg__", "__pos__", "__abs__", "__lt__",
                "__le__", "__gt__", "__ge__", "__index__", "__int__", "__float__",
                "__and__", "__or__", "__invert__", "__contains__"):
    setattr(Undefined, _method, Undefined._fail)


class ControlFlowError(CaptureError):
    """Graph control flow cannot represent what a branch or loop does to a variable."""


# ---- values while building ------------------------------------------------------------

class _TensorLeaf:
    """A tensor in a branch's / body's result: the object and its value in that graph."""
    __slots__ = ("tensor", "value", "aval")

    def __init__(self, tensor, value):
        self.tensor, self.value, self.aval = tensor, value, value.aval


_PLACEHOLDER = object()       # an internal variable undefined in one branch


def _is_number(v):
    return isinstance(v, (bool, numbers.Number, np.generic)) and not isinstance(v, complex) \
        and not isinstance(v, Tensor)


def same_value(a, b):
    if a is b:
        return True
    if _is_number(a) and _is_number(b):
        return type(a) is type(b) and a == b
    if isinstance(a, (str, bytes, type(None))) and type(a) is type(b):
        return a == b
    if isinstance(a, tuple) and type(a) is type(b) and len(a) == len(b):
        return all(same_value(x, y) for x, y in zip(a, b))
    return False


def snapshot(capture, value):
    """``value`` with every tensor replaced by its value in ``capture``'s graph."""
    if isinstance(value, Tensor):
        return _TensorLeaf(value, capture.value_of(value))
    kind = type(value)
    if kind is tuple or kind is list:
        return kind(snapshot(capture, v) for v in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return kind(*(snapshot(capture, v) for v in value))
    if kind is dict:
        return {k: snapshot(capture, v) for k, v in value.items()}
    return value


def describe(value):
    if isinstance(value, _TensorLeaf):
        return f"a {value.aval} tensor"
    if isinstance(value, Tensor):
        return f"a {value.aval} tensor"
    if isinstance(value, Undefined):
        return "undefined"
    if _is_number(value):
        return f"the number {value!r}"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"{type(value).__name__} {value!r}"[:80]


def _number_aval(values):
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return ShapedArray((), np.dtype(np.bool_))
    if all(isinstance(v, (bool, int, np.integer, np.bool_)) for v in values):
        return ShapedArray((), np.dtype(dt.int64))
    return ShapedArray((), np.dtype(dt.float32))


# ---- predicates -----------------------------------------------------------------------

def to_bool_tensor(value, where="condition"):
    """A symbolic tensor as a 0-d bool tensor (recorded in the current capture)."""
    from ... import ops
    if value.size != 1:
        raise ValueError(f"{where}: the truth value of a tensor of shape {tuple(value.shape)} "
                         f"is ambiguous; reduce it with .any() or .all()")
    if value.shape != ():
        value = ops.reshape(value, ())
    if value.dtype != np.bool_:
        value = ops.not_equal(value, 0)
    return value


def truth_value(value, where="condition"):
    """``bool(value)`` for Python values, a 0-d bool tensor for symbolic ones."""
    if isinstance(value, Tensor) and is_symbolic(value):
        return to_bool_tensor(value, where)
    return bool(value)


def is_symbolic(value):
    if not isinstance(value, Tensor):
        return False
    capture = state.capture
    if capture is None:
        return False
    return not capture.is_constant(capture.value_of(value))


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


def _plan(plan, name, values, where):
    real = [v for v in values if v is not _PLACEHOLDER]
    first = real[0]
    if all(isinstance(v, _TensorLeaf) or _is_number(v) for v in real):
        tensors = [v for v in real if isinstance(v, _TensorLeaf)]
        if not tensors and all(same_value(v, first) for v in real):
            return ("static", first)
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
            children.append(_plan(plan, f"{name}[{i}]", column, where))
        return ("seq", type(first), children)
    if kinds == {dict} and len({tuple(v) for v in real}) == 1:
        keys = list(first)
        children = [_plan(plan, f"{name}[{k!r}]", [v if v is _PLACEHOLDER else v[k]
                                                    for v in values], where) for k in keys]
        return ("dict", keys, children)
    if all(same_value(v, first) or _same_object(v, first) for v in real):
        return ("static", first)
    shown = " and ".join(sorted({describe(v) for v in real}))
    raise ControlFlowError(
        f"{where}: variable {name!r} is {shown} depending on a tensor value; inside "
        f"tensor-dependent control flow only tensors and numbers may differ between paths")


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


def graph_if(pred_value, branch_fns, names, where):
    """Build a ``cond`` node. ``branch_fns``: (then, else) zero-argument functions
    returning a tuple with one value per name. Returns the merged tuple."""
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
        trees.append(_plan(plan, name, column, where))
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
                same = pred if when else ops.logical_not(pred)
                same = same if active is None else ops.logical_and(active, same)
                other._assign(ops.where(same, value, other))
                done.add(id(other))
                frontier.append((other, same))
    finally:
        aliases.busy = False


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


# ---- loops ----------------------------------------------------------------------------

class _Carry:
    """A value carried around a graph loop."""
    __slots__ = ("aval", "init", "from_number", "label")

    def __init__(self, aval, init, from_number, label):
        self.aval, self.init, self.from_number, self.label = aval, init, from_number, label


def _loop_tree(value, name, carries, promote):
    """Template of a loop variable: tensors (and numbers in ``promote``) carried."""
    if isinstance(value, Tensor):
        carries.append(_Carry(value.aval, value, False, name))
        return ("dyn", len(carries) - 1)
    if _is_number(value) and name in promote:
        aval = promote[name]
        carries.append(_Carry(aval, value, True, name))
        return ("dyn", len(carries) - 1)
    kind = type(value)
    if kind is tuple or kind is list or (isinstance(value, tuple) and hasattr(value, "_fields")):
        return ("seq", kind, [_loop_tree(v, f"{name}[{i}]", carries, promote)
                              for i, v in enumerate(value)])
    if kind is dict:
        keys = list(value)
        return ("dict", keys, [_loop_tree(value[k], f"{name}[{k!r}]", carries, promote)
                               for k in keys])
    return ("static", value)


def _compare(tree, out, name, carries, promote, where):
    """Check a body result against the loop template; returns True if the template must
    change (a number to promote)."""
    tag = tree[0]
    if tag == "dyn":
        carry = carries[tree[1]]
        if isinstance(out, _TensorLeaf):
            if out.aval != carry.aval:
                if carry.from_number and out.aval.shape == carry.aval.shape or \
                        carry.from_number and carry.aval.shape == ():
                    promote[carry.label] = out.aval
                    return True
                raise ControlFlowError(
                    f"{where}: loop variable {name!r} changes from a {carry.aval} tensor to a "
                    f"{out.aval} tensor inside the tensor-dependent loop; a graph loop keeps "
                    f"each variable's shape and dtype (cast it before the loop)")
            return False
        if _is_number(out):
            return False
        raise ControlFlowError(f"{where}: loop variable {name!r} becomes {describe(out)} "
                               f"inside the tensor-dependent loop")
    if tag == "static":
        value = tree[1]
        if same_value(out, value) or _same_object(out, value):
            return False
        if _is_number(value) and (_is_number(out) or isinstance(out, _TensorLeaf)):
            promote[name] = out.aval if isinstance(out, _TensorLeaf) else _number_aval([value, out])
            return True
        raise ControlFlowError(
            f"{where}: loop variable {name!r} changes from {describe(value)} to "
            f"{describe(out)} inside the tensor-dependent loop; only tensors and numbers can "
            f"change in a graph loop (unrolled loops over Python values can do more)")
    if tag == "seq":
        kind, children = tree[1], tree[2]
        if type(out) is not kind or len(out) != len(children):
            raise ControlFlowError(f"{where}: loop variable {name!r} changes structure "
                                   f"inside the tensor-dependent loop")
        return any([_compare(c, o, f"{name}[{i}]", carries, promote, where)
                    for i, (c, o) in enumerate(zip(children, out))])
    keys, children = tree[1], tree[2]
    if type(out) is not dict or list(out) != keys:
        raise ControlFlowError(f"{where}: loop variable {name!r} changes structure inside "
                               f"the tensor-dependent loop")
    return any([_compare(c, out[k], f"{name}[{k!r}]", carries, promote, where)
                for k, c in zip(keys, children)])


def _collect(tree, out, leaves):
    """Per carried leaf, the body's value (in template order)."""
    tag = tree[0]
    if tag == "dyn":
        leaves[tree[1]] = out
    elif tag == "seq":
        for c, o in zip(tree[2], out):
            _collect(c, o, leaves)
    elif tag == "dict":
        for k, c in zip(tree[1], tree[2]):
            _collect(c, out[k], leaves)


class _LoopTrace:
    def __init__(self, capture, name, avals):
        self.sub = SubCapture(capture, name)
        self.inputs = [self.sub.input(a) for a in avals]
        self.saved = []

    def install(self, targets, offset):
        """Let the loop's reads of outside tensors see the carried values."""
        sub = self.sub
        for (t, is_ref), tracer in zip(targets, self.inputs[offset:]):
            if is_ref:
                sub.ref_current[id(t)] = tracer._var
            else:
                self.saved.append((t, t._var))
                t._var = tracer._var

    def same_objects(self, state_in, values, trees, identity):
        """The loop's input values, where variables in ``identity`` are their tensor
        object from before the loop holding the carried value."""
        state_in = list(state_in)
        for i in identity:
            obj, tracer = values[i], self.inputs[trees[i][1]]
            if obj._var is tracer._var:       # (two names for one object)
                state_in[i] = obj
                continue
            self.saved.append((obj, obj._var))
            obj._var = tracer._var
            state_in[i] = obj
        return tuple(state_in)

    def finals(self, targets):
        out = []
        for t, is_ref in targets:
            out.append(self.sub.ref_current[id(t)] if is_ref else t._var)
        return out

    def restore(self):
        for t, var in self.saved:
            t._var = var
        self.saved = []
        self.sub.restore_outer()


def graph_while(test, body, values, names, where):
    """Build a ``while_loop`` node for ``while test(*state): state = body(*state)``."""
    capture = state.capture
    promote = {}
    targets = []                       # (tensor, is_ref) carried besides the variables
    placeholders = {}                  # internal variables first assigned in the body
    identity = set()                   # variables the body keeps as the same object
    for _ in range(MAX_LOOP_RETRACES):
        carries = []
        trees = []
        for v, n in zip(values, names):
            if n in placeholders:
                trees.append(_placeholder_tree(placeholders[n], n, carries))
            elif isinstance(v, Undefined):
                trees.append(("local",))
            else:
                trees.append(_loop_tree(v, n, carries, promote))
        target_avals = [_target_aval(capture, t) for t, _ in targets]
        all_avals = [c.aval for c in carries] + target_avals
        # the body
        body_trace = _LoopTrace(capture, f"{_label(where)}_body", all_avals)
        changed = False
        try:
            with sub_scope(body_trace.sub), _only_if_taken(f"{where} (loop body)"):
                body_trace.install(targets, len(carries))
                state_in = tuple(Undefined(n) if t[0] == "local" else _rebuild(t, body_trace.inputs)
                                 for t, n in zip(trees, names))
                state_in = body_trace.same_objects(state_in, values, trees, identity)
                vars_in = [v._var if isinstance(v, Tensor) else None for v in state_in]
                out = body(*state_in)
                # a variable the body only updates in place stays the same Python object
                kept = [isinstance(v, Tensor) and o is i for v, o, i in zip(values, out, state_in)]
                _check_loop_identity(names, state_in, vars_in, out, where)
                for i, same in enumerate(kept):
                    if same and trees[i][0] == "dyn" and i not in identity and \
                            values[i]._var is not None:
                        # trace again with the object itself standing for the carried
                        # value, so other names for it (``y = x`` before the loop) see
                        # the loop's value inside the body too
                        identity.add(i)
                        changed = True
                out_snap = [snapshot(body_trace.sub, v) for v in out]
                finals = body_trace.finals(targets)
                new_targets = [(t, r) for t, r in body_trace.sub.written_targets()
                               if not any(t is u for u, _ in targets)]
        finally:
            body_trace.restore()
        for t, n, o in zip(trees, names, out_snap):
            if t[0] == "local":
                if n.startswith(INTERNAL_PREFIX) and not isinstance(o, Undefined):
                    # e.g. the return value of a ``return`` inside the loop: carried, with a
                    # placeholder before the first iteration (its flag guards every use)
                    placeholders[n] = o
                    changed = True
                continue
            if isinstance(o, Undefined):
                raise ControlFlowError(f"{where}: loop variable {n!r} is deleted inside the "
                                       f"tensor-dependent loop")
            changed |= _compare(t, o, n, carries, promote, where)
        if new_targets:
            targets.extend(new_targets)
            changed = True
        if changed:
            continue
        # the condition
        cond_trace = _LoopTrace(capture, f"{_label(where)}_cond", all_avals)
        try:
            with sub_scope(cond_trace.sub):
                cond_trace.install(targets, len(carries))
                state_in = tuple(Undefined(n) if t[0] == "local" else _rebuild(t, cond_trace.inputs)
                                 for t, n in zip(trees, names))
                state_in = cond_trace.same_objects(state_in, values, trees, identity)
                pred = test(*state_in)
                pred_value = (cond_trace.sub.value_of(to_bool_tensor(pred, where))
                              if isinstance(pred, Tensor) else Literal(np.bool_(bool(pred))))
                if cond_trace.sub.written_targets():
                    raise ControlFlowError(f"{where}: the loop condition updates a tensor in "
                                           f"place, which a graph loop cannot do")
        finally:
            cond_trace.restore()
        break
    else:
        raise ControlFlowError(f"{where}: the types of the loop variables do not settle")
    # body outputs, in carry order
    leaves = [None] * len(carries)
    for t, o in zip(trees, out_snap):
        if t[0] != "local":
            _collect(t, o, leaves)
    body_outputs = [_leaf_value(body_trace.sub, leaf, c.aval) for leaf, c in zip(leaves, carries)]
    body_outputs += finals
    keys, operands = union_operands([cond_trace.sub, body_trace.sub])
    n_consts = len(keys)
    graphs = []
    for trace, outputs in ((cond_trace, [pred_value]), (body_trace, body_outputs)):
        graph = trace.sub.close(outputs, keys)
        explicit = len(trace.sub.explicit_inputs)
        graph.inputs = graph.inputs[explicit:] + graph.inputs[:explicit]
        graphs.append(graph)
    first_test = _initial_test(test, values, trees, kept, where)
    init = [_init_tensor(c) for c in carries] + [t for t, _ in targets]
    effects = control.has_effects(graphs[0]) or control.has_effects(graphs[1])
    prim = control.while_loop_effect_p if effects else control.while_loop_p
    results = prim.bind(*operands, *init, cond_graph=graphs[0], body_graph=graphs[1],
                        num_consts=n_consts)
    n = len(carries)
    for (t, _), value in zip(targets, results[n:]):
        t._assign(value)             # (Tensor._assign: autodiff tapes see it too)
    outputs = []
    for t, n_, v, same in zip(trees, names, values, kept):
        if t[0] == "local":
            outputs.append(Undefined(n_, f"it is assigned only inside the tensor-dependent "
                                         f"loop at {where}; assign it before the loop"))
        elif same and t[0] == "dyn":
            # ``y += 1`` in the body: as in Python, the tensor object before the loop
            # (which other names may share) is the one updated
            v._assign(results[t[1]])
            outputs.append(v)
        else:
            outputs.append(_rebuild(t, results[:n]))
    if first_test is not None:
        # a loop that runs zero times leaves each variable the tensor object it was
        aliases = getattr(capture, "branch_aliases", None)
        for v, o, same, t in zip(values, outputs, kept, trees):
            if _reassigned(v, same, t) and isinstance(o, Tensor) and o is not v \
                    and aliases is not None:
                aliases.add(v, o, first_test, False, capture)
    return tuple(outputs)


def _reassigned(value, kept, tree):
    return tree[0] == "dyn" and not kept and isinstance(value, Tensor) and \
        value._var is not None


def _initial_test(test, values, trees, kept, where):
    """The loop condition on the values before the loop (None if no variable needs it):
    see ``BranchAliases``."""
    if not any(_reassigned(v, same, t) for v, same, t in zip(values, kept, trees)):
        return None
    try:
        pred = test(*values)
    except Exception:
        return None
    return to_bool_tensor(pred, where) if isinstance(pred, Tensor) else None


def _check_loop_identity(names, state_in, vars_in, out, where):
    """A loop variable the body both updates in place (``x += 1``) and reassigns
    (``x = x * 2``): in Python, which tensor object the update reaches (the one from
    before the loop, that other names may share, or a new one) depends on the iteration
    and the data, which a graph loop cannot represent."""
    for name, t, var, o in zip(names, state_in, vars_in, out):
        if isinstance(t, Tensor) and t._var is not var and o is not t:
            raise ControlFlowError(
                f"{where}: loop variable {name!r} is both updated in place and reassigned "
                f"inside the tensor-dependent loop, so which tensor object the in-place "
                f"update reaches depends on the data; write {name} = {name} + ... (or "
                f"copy it with {name} = {name}.copy() before the loop)")


_ZEROS = object()


def _placeholder_tree(value, name, carries):
    """Template of an internal loop variable that is undefined before the loop: its
    tensors (and numbers) are carried, starting from zeros."""
    if isinstance(value, _TensorLeaf):
        carries.append(_Carry(value.aval, _ZEROS, True, name))
        return ("dyn", len(carries) - 1)
    if _is_number(value):
        carries.append(_Carry(_number_aval([value]), _ZEROS, True, name))
        return ("dyn", len(carries) - 1)
    if _is_sequence(value):
        return ("seq", type(value), [_placeholder_tree(v, f"{name}[{i}]", carries)
                                     for i, v in enumerate(value)])
    if type(value) is dict:
        keys = list(value)
        return ("dict", keys, [_placeholder_tree(value[k], f"{name}[{k!r}]", carries)
                               for k in keys])
    return ("static", value)


def _target_aval(capture, tensor):
    return capture.value_of(tensor).aval


def _init_tensor(carry):
    from ...ops.coerce import constant
    value = carry.init
    if isinstance(value, Tensor):
        return value
    if value is _ZEROS:
        return constant(np.zeros(carry.aval.shape, carry.aval.dtype))
    return constant(np.full(carry.aval.shape, value, carry.aval.dtype))


# ---- symbolic range -------------------------------------------------------------------

class SymbolicRange:
    """``range(n)`` where a bound is a symbolic tensor: ``for`` over it is a graph loop."""

    def __init__(self, start, stop, step):
        if is_symbolic(step) if isinstance(step, Tensor) else False:
            raise ValueError("range(): the step of a graph loop must be a Python int")
        self.start, self.stop, self.step = start, stop, step

    def __len__(self):
        raise ValueError("len() of a range with a tensor bound is not known while the graph "
                         "is built")


def graph_range_for(rng, extra_test, body, values, names, where):
    step = rng.step

    def test(counter, *st):
        more = counter < rng.stop if step > 0 else counter > rng.stop
        if extra_test is None:
            return more
        from .runtime import and_
        return and_(more, lambda: extra_test(*st))

    def loop_body(counter, *st):
        return (counter + step,) + tuple(body(counter, *st))

    result = graph_while(test, loop_body, (rng.start,) + tuple(values),
                         ("_tj_range_index",) + tuple(names), where)
    return result[1:]
