"""Graph loops: ``while`` (and ``for`` over a symbolic ``range``) as a ``while_loop`` node.

The body runs once abstractly with fresh inputs for the carried values, then the capture
checks what changed: a Python number that changes is promoted to a carried 0-d tensor (and
the body traced again), a tensor must keep its shape and dtype, other Python values must not
change. In-place updates of outside tensors and Parameters become carried values.
"""
import numpy as np

from ... import ops
from ...aval import ShapedArray
from ...ir.graph import Literal
from ...state import state
from ...tensor import Tensor
from .. import control_flow as control
from ..subgraph import SubCapture, sub_scope, union_operands
from .values import (Undefined, ControlFlowError, INTERNAL_PREFIX, MAX_LOOP_RETRACES,
                     _TensorLeaf, _is_number, same_value, snapshot, describe, to_bool_tensor,
                     is_symbolic, _number_aval)
from .conditionals import (_only_if_taken, _label, _same_object, _rebuild, _leaf_value,
                           _is_sequence, alias_condition)


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
    flagged = []                       # variables the body reassigns on some paths only
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
        # per such variable, a carried flag: "still the tensor object from before the loop"
        flag_carry = {}
        for i in flagged:
            carries.append(_Carry(_FLAG_AVAL, True, True, f"{names[i]} (same object)"))
            flag_carry[i] = len(carries) - 1
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
                flag_outs = {}
                for i, (v, o, si) in enumerate(zip(values, out, state_in)):
                    if not _reassigned(v, kept[i], trees[i]):
                        continue
                    same = alias_condition(body_trace.sub, o, si)
                    if same is None or same is True:
                        continue
                    if i not in flag_carry:
                        flagged.append(i)
                        changed = True
                        continue
                    still = ops.logical_and(body_trace.inputs[flag_carry[i]], same)
                    flag_outs[flag_carry[i]] = snapshot(body_trace.sub, still)
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
    for index, still in flag_outs.items():
        leaves[index] = still
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
    first_test = _initial_test(test, values, trees, kept, where, flag_carry)
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
    aliases = getattr(capture, "branch_aliases", None)
    for i, index in flag_carry.items():
        # reassigned on some paths: the same object while no iteration took such a path
        if isinstance(outputs[i], Tensor) and outputs[i] is not values[i]:
            aliases.add(values[i], outputs[i], results[index], True, capture)
    if first_test is not None:
        # a loop that runs zero times leaves each variable the tensor object it was
        for i, (v, o, same, t) in enumerate(zip(values, outputs, kept, trees)):
            if _reassigned(v, same, t) and isinstance(o, Tensor) and o is not v \
                    and aliases is not None and i not in flag_carry:
                aliases.add(v, o, first_test, False, capture)
    return tuple(outputs)


_FLAG_AVAL = ShapedArray((), np.dtype(bool))


def _reassigned(value, kept, tree):
    return tree[0] == "dyn" and not kept and isinstance(value, Tensor) and \
        value._var is not None


def _initial_test(test, values, trees, kept, where, flagged=()):
    """The loop condition on the values before the loop (None if no variable needs it):
    see ``BranchAliases``."""
    if not any(_reassigned(v, same, t) and i not in flagged
               for i, (v, same, t) in enumerate(zip(values, kept, trees))):
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
