"""``vmap(fn, in_axes=0, out_axes=0)``: ``fn`` written for one example, run on a batch.

The function is traced once, for one example, into a closed graph (an ``ExampleCapture``,
the same kind of sub-capture that builds ``cond`` branches); then the graph's nodes run on
the whole batch through each primitive's batching rule (``ops/batching.py``), at the
caller's level: eagerly, into an enclosing capture (``vmap`` inside ``jit``), and on the
caller's autodiff tapes (``grad`` of a vmapped function). Nothing loops over the batch.

* ``grad`` inside ``vmap`` (per-example gradients) works because the trace of ``grad(f)``
  records the backward pass too; the batching rules then batch forward and backward.
* ``jit`` inside ``vmap``: a jitted function called while tracing is inlined (as nested
  jits are); an ast-mode one is converted first, so its tensor ``if`` / ``while`` become
  ``cond`` / ``while_loop`` nodes, which have batching rules.
* Python reading a value that differs per example (``if x.sum() > 0``) cannot be traced
  for one example: a clear error says so.
* ``fn`` may be a ``CellList`` of cells of one structure (model ensembling): cell 0 is
  traced and its parameters are replaced by the stacked parameters of all cells.
"""
from ..state import state
from ..tensor import Tensor
from .. import ops
from ..ops import batching
from ..capture.base import ConcretizationError, CaptureError, LOCATION_PROVIDERS
from ..capture.subgraph import SubCapture, sub_scope
from . import axes as ax
from .axes import VmapError


class ExampleCapture(SubCapture):
    """Traces the function for one example. Outside tensors (an enclosing capture's
    values, Parameters, eager tensors) become operands of the closed graph."""

    def value_of(self, t):
        if self.parent is not None:
            return super().value_of(t)
        var = t._var
        if var is not None:
            if id(var) in self.known:
                return var
            raise CaptureError("a symbolic tensor from another graph capture reached vmap "
                               "(stored from an earlier jitted call?); pass it as an argument")
        current = self.ref_current.get(id(t))
        if current is not None:
            return current
        inner = self._captured_by_key.get(id(t))
        if inner is None:
            inner = self.new_var(t.aval)
            self.captured.append((t, None, inner))
            self._captured_by_key[id(t)] = inner
            self._keep.append(t)
        return inner

    def note_cell(self, cell):
        if self.parent is not None:
            self.parent.note_cell(cell)


def _node_location(frame):
    """Nodes a batching rule records carry the line of the per-example node they batch."""
    node = frame.f_locals.get("node")
    return getattr(node, "source", None)


LOCATION_PROVIDERS[batching.batch_graph.__code__] = _node_location


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorizing map (MindSpore's ``vmap``): returns a function that runs ``fn`` -- written
    for one example -- on every example of a batch at once.

    ``in_axes``: the batch axis of the positional arguments -- an int (or ``None``) for all,
    or a tuple / list with one entry per argument, each an int, ``None`` (not batched) or a
    nested tuple / list / dict following that argument's structure. Axes may be negative.
    Keyword arguments are batched along axis 0. ``out_axes``: where the batch axis goes in
    the outputs, in the same forms; an output that is the same for every example is
    broadcast along it (``None`` keeps it unbatched). ``fn`` may be a function, a Cell, a
    jitted function or a CellList of cells of one structure (ensembling: the parameters
    of cell ``i`` serve example ``i``)."""
    if not callable(fn):
        raise TypeError(f"vmap: fn must be a function, a Cell or a CellList, got "
                        f"{type(fn).__name__}")
    ax.check_spec(in_axes, "in_axes")
    ax.check_spec(out_axes, "out_axes")

    def vmapped(*args, **kwargs):
        return _vmap_call(fn, in_axes, out_axes, args, kwargs)

    vmapped.__qualname__ = vmapped.__name__ = f"vmap({_name(fn)})"
    vmapped.__doc__ = getattr(fn, "__doc__", None)
    vmapped.__wrapped__ = fn
    vmapped._tj_rebuild = lambda inner: vmap(inner, in_axes, out_axes)
    return vmapped


def _name(fn):
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def _vmap_call(fn, in_axes, out_axes, args, kwargs):
    name = _name(fn)
    args = ax.map_leaves(tuple(args), lambda t: t)          # NumPy arrays -> Tensors
    kwargs = ax.map_leaves(dict(kwargs), lambda t: t)
    if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
        raise VmapError(f"vmap of {name}: in_axes has {len(in_axes)} entries for "
                        f"{len(args)} positional argument(s)")
    spec = tuple(in_axes) if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
    leaves = []
    for i, (s, a) in enumerate(zip(spec, args)):
        leaves += ax.broadcast_spec(s, a, "in_axes", f"argument {i}")
    for key, value in kwargs.items():
        leaves += ax.broadcast_spec(0, value, "in_axes", f"keyword argument {key!r}")
    dims = [None if a is None else ax.normalize_axis(a, t.ndim, "in_axes", path)
            for path, t, a in leaves]
    ensemble = _ensemble(fn)
    size = _axis_size(leaves, dims, name, ensemble)

    graph, out_tree, out_leaves, written, captured = _trace(fn, ensemble, args, kwargs,
                                                            leaves, dims, name)
    operands, operand_dims = _operands(captured, ensemble, size)
    outs, out_dims = batching.batch_graph(
        graph, [t for _, t, _ in leaves] + operands, dims + operand_dims)
    n = len(out_leaves)
    _write_back(written, leaves, dims, outs[n:], out_dims[n:], size, name)
    return _place_outputs(out_tree, out_leaves, outs[:n], out_dims[:n], out_axes, size, name)


def _ensemble(fn):
    from ..nn.container import CellList
    return list(fn) if isinstance(fn, CellList) else None


def _axis_size(leaves, dims, name, ensemble):
    sizes = {}
    for (path, t, _), d in zip(leaves, dims):
        if d is not None:
            sizes.setdefault(t.shape[d], path)
    if ensemble is not None:
        sizes.setdefault(len(ensemble), "the number of cells in the CellList")
    if not sizes:
        raise VmapError(f"vmap of {name}: in_axes {'' if leaves else '(no tensor arguments) '}"
                        f"maps no argument; at least one must have an axis that is not None")
    if len(sizes) > 1:
        described = ", ".join(f"{size} ({path})" for size, path in sizes.items())
        raise VmapError(f"vmap of {name}: the mapped axes must all have one size, got "
                        f"{described}")
    return next(iter(sizes))


def _example_aval(t, dim):
    shape = tuple(t.shape)
    return t.aval if dim is None else t.aval.update(shape=shape[:dim] + shape[dim + 1:])


def _target(fn, ensemble):
    if ensemble is not None:
        return ensemble[0]
    jitted = getattr(fn, "_tj_jit", None)
    if jitted is not None and jitted.opts.capture_mode == "ast":
        # the ast capture's meaning of tensor if / while: graph control flow
        from ..capture.ast.convert import converted_callable
        return converted_callable(fn)
    return fn


def _trace(fn, ensemble, args, kwargs, leaves, dims, name):
    """The closed graph of ``fn`` on one example: its inputs are one per tensor leaf,
    then the outside tensors it used (``captured``)."""
    capture = ExampleCapture(state.capture, f"vmap_{name}")
    tracers = [capture.input(_example_aval(t, d)) for (_, t, _), d in zip(leaves, dims)]
    feed = iter(tracers)
    example_args = ax.map_leaves(args, lambda t: next(feed))
    example_kwargs = ax.map_leaves(kwargs, lambda t: next(feed))
    target = _target(fn, ensemble)
    try:
        with sub_scope(capture):
            try:
                out = target(*example_args, **example_kwargs)
            except ConcretizationError as exc:
                if capture.parent is not None:
                    raise            # the enclosing capture decides (graph break, fallback)
                raise VmapError(
                    f"vmap of {name}: {str(exc.source) + ': ' if exc.source else ''}{exc.why} "
                    f"needs the value of a tensor, and inside vmap a tensor stands for one "
                    f"example of many. Use ops.where / ops.select instead of Python "
                    f"branching on it, or jit(fn, capture_mode='ast') so that tensor if / "
                    f"while become graph control flow, which vmap batches") from None
            out = ax.map_leaves(_numbers_to_tensors(out), lambda t: t)
            out_leaves = []
            _collect(out, out_leaves)
            outputs = [capture.value_of(t) for t in out_leaves]
            # in-place updates: of arguments (their tracer now stands for a new value) and
            # of outside tensors; their final values become extra outputs
            writes = [(i, tracer._var) for i, (tracer, var) in
                      enumerate(zip(tracers, capture.explicit_inputs)) if tracer._var is not var]
            writes += [(tensor, capture.final_value(tensor))
                       for tensor, _ in capture.written_targets()]
    finally:
        capture.restore_outer()
    graph = capture.close(outputs + [value for _, value in writes])
    return (graph, out, out_leaves, [written for written, _ in writes],
            [obj for obj, _, _ in capture.captured])


def _numbers_to_tensors(value):
    kind = type(value)
    if kind in (tuple, list):
        return kind(_numbers_to_tensors(v) for v in value)
    if kind is dict:
        return {k: _numbers_to_tensors(v) for k, v in value.items()}
    if ops.coerce.is_scalar(value):
        return ops.as_tensor(value)
    return value


def _collect(value, out):
    ax.map_leaves(value, lambda t: out.append(t) or t)


def _write_back(written, leaves, dims, values, value_dims, size, name):
    """Apply the function's in-place updates: a batched argument gets every example's new
    value (as in eager code); one value for every example may go anywhere."""
    for target, value, dim in zip(written, values, value_dims):
        if isinstance(target, int):
            path, tensor, _ = leaves[target]
            if dims[target] is not None:
                if dim is None:          # the same new value for every example: a copy each
                    value, dim = ops.identity(batching.materialize(value, None, size)), 0
                tensor._assign(batching.moveaxis(value, dim, dims[target]))
                continue
            what = path
        else:
            tensor = target
            what = repr(target.name) if getattr(target, "name", None) else \
                "a tensor from outside the function"
        if dim is not None:
            raise VmapError(f"vmap of {name}: the function writes a value that differs per "
                            f"example into {what}, which is one tensor for all examples; "
                            f"return the new value instead")
        tensor._assign(value)


def _operands(captured, ensemble, size):
    """The outside tensors the graph reads, at the caller's level, and their batch axes:
    unbatched, except an ensemble's parameters, stacked over its cells."""
    if ensemble is None:
        return list(captured), [None] * len(captured)
    own = {id(p): i for i, (_, p) in enumerate(ensemble[0].parameters_and_names())}
    per_cell = [[p for _, p in cell.parameters_and_names()] for cell in ensemble]
    if any(len(params) != len(per_cell[0]) for params in per_cell):
        raise VmapError("vmap of a CellList: the cells must have the same structure (they "
                        "have different numbers of parameters)")
    operands, operand_dims = [], []
    for t in captured:
        i = own.get(id(t))
        if i is None:
            operands.append(t)
            operand_dims.append(None)
            continue
        shapes = {tuple(params[i].shape) for params in per_cell}
        if len(shapes) != 1:
            raise VmapError(f"vmap of a CellList: parameter {t.name!r} has different shapes "
                            f"in the cells: {sorted(shapes)}")
        operands.append(ops.stack([params[i] for params in per_cell]))
        operand_dims.append(0)
    return operands, operand_dims


def _place_outputs(out_tree, out_leaves, outs, out_dims, out_axes, size, name):
    if isinstance(out_axes, (tuple, list)) and not isinstance(out_tree, (tuple, list)):
        raise VmapError(f"vmap of {name}: out_axes {out_axes!r} is a sequence but the "
                        f"function returns one {type(out_tree).__name__}")
    if isinstance(out_axes, (tuple, list)) and len(out_axes) != len(out_tree):
        raise VmapError(f"vmap of {name}: out_axes has {len(out_axes)} entries for "
                        f"{len(out_tree)} outputs")
    specs = ax.broadcast_spec(out_axes, out_tree, "out_axes", "output")
    placed = iter([_place(out, dim, axis, size, path, name)
                   for (path, _, axis), out, dim in zip(specs, outs, out_dims)])
    return ax.map_leaves(out_tree, lambda t: next(placed))


def _place(out, dim, axis, size, path, name):
    if axis is None:
        if dim is not None:
            raise VmapError(f"vmap of {name}: {path} differs per example, but out_axes gives "
                            f"it None (no batch axis)")
        return out
    axis = ax.normalize_axis(axis, out.ndim + (dim is None), "out_axes", path)
    if dim is None:
        out = batching.materialize(out, None, size)
        dim = 0
    return batching.moveaxis(out, dim, axis)
