"""Indexing in ONNX, both ways: ``getitem`` (its spec of ints, slices, None, Ellipsis and
index tensors, ``ops/indexing.py``) written as Slice for slices and ints, Gather for one
index tensor and GatherND for several, laid out as NumPy lays out the result; ``setitem``
/ ``index_add`` as ScatterND at the flat positions of the indexed region. Reading maps
Slice, Split, Gather, GatherND, GatherElements and ScatterND back to these primitives.
"""
import numpy as np

from ... import dtype as dt
from ...ops.primitive import PRIMITIVES
from . import reads, writes
from .reader import FULL, axis_of, getitem, shape_of

_INT64_MIN = np.iinfo(np.int64).min


def _aval(node, i=0):
    return node.inputs[i].aval


# ---- writing ---------------------------------------------------------------------------

@writes("getitem")
def _getitem(w, node, ins, outs):
    indices = list(zip(ins[1:], [v.aval for v in node.inputs[1:]]))
    result = index(w, ins[0], _aval(node).shape, node.params["spec"], indices,
                   node.outputs[0].aval.shape)
    w.result(result, outs[0])


def _entries(spec, ndim):
    """The spec with its Ellipsis (or the implicit one at the end) as full slices."""
    used = sum(1 for e in spec if e[0] in "ist")
    fill = [FULL] * max(ndim - used, 0)
    if not any(e[0] == "e" for e in spec):
        return list(spec) + fill
    out = []
    for e in spec:
        out += fill if e[0] == "e" else [e]
    return out


def index(w, x, shape, spec, indices, out_shape):
    """``x[spec]`` (``getitem``'s spec; ``indices``: (name, aval) of its index tensors) as
    Slice for slices and ints, Gather for one index tensor, GatherND for several, laid out
    as NumPy does; returns the value name."""
    entries = _entries(spec, len(shape))
    if any(e[0] == "n" for e in entries):     # new axes: size-1 axes sliced in full
        dims = iter(shape)
        shape = [1 if e[0] == "n" else next(dims) for e in entries]
        x = w.op("Reshape", [x, w.ints(shape)])
        entries = [FULL if e[0] == "n" else e for e in entries]
    shape = list(shape)
    advanced = any(e[0] == "t" for e in entries)
    starts, ends, axes, steps = [], [], [], []
    for axis, e in enumerate(entries):
        if e[0] == "s":
            start, stop, step = slice(*e[1:]).indices(shape[axis])
            size = len(range(start, stop, step))
            if size == shape[axis] and step == 1:
                continue
            if size == 0:
                start, stop, step = 0, 0, 1
            elif step < 0 and stop < 0:        # (down to and including index 0)
                stop = _INT64_MIN
        elif e[0] == "i" and not advanced:     # (with index tensors, ints gather too)
            start = e[1] + shape[axis] if e[1] < 0 else e[1]
            stop, step, size = start + 1, 1, 1
        else:
            continue
        starts.append(start), ends.append(stop), axes.append(axis), steps.append(step)
        shape[axis] = size
    if starts:
        x = w.op("Slice", [x, w.ints(starts), w.ints(ends), w.ints(axes), w.ints(steps)])
    if advanced:
        x = _gather(w, x, entries, indices)
    elif tuple(shape) != tuple(out_shape):     # ints drop their axes
        x = w.op("Reshape", [x, w.ints(out_shape)])
    return x


def _gather(w, x, entries, indices):
    picked = [a for a, e in enumerate(entries) if e[0] in "it"]
    tensors = iter(indices)
    idx = []
    for a in picked:
        if entries[a][0] == "i":
            idx.append((w.constant(np.asarray(entries[a][1], np.int64)), ()))
            continue
        name, aval = next(tensors)
        if aval.dtype != dt.int64:
            name = w.op("Cast", [name], to=w.elem_type(dt.int64))
        idx.append((name, tuple(aval.shape)))
    if len(picked) == 1:
        return w.op("Gather", [x, idx[0][0]], axis=picked[0])
    # several index tensors: their broadcast shape R selects whole sub-arrays (GatherND on
    # the indexed axes moved to the front); NumPy puts R first, or where the indexed
    # axes were when they are adjacent
    rank = len(entries)
    others = [a for a in range(rank) if a not in picked]
    if picked + others != list(range(rank)):
        x = w.op("Transpose", [x], perm=picked + others)
    common = tuple(np.broadcast_shapes(*[s for _, s in idx]))
    columns = []
    for name, s in idx:
        if s != common:
            name = w.op("Expand", [name, w.ints(common)])
        columns.append(w.op("Reshape", [name, w.ints(common + (1,))]))
    y = w.op("GatherND", [x, w.op("Concat", columns, axis=-1)])
    first = picked[0]
    if picked == list(range(first, first + len(picked))) and first > 0:
        n = len(common)
        perm = [n + j for j in range(first)] + list(range(n)) + \
            [n + j for j in range(first, len(others))]
        y = w.op("Transpose", [y], perm=perm)
    return y


@writes("setitem", "index_add")
def _update(w, node, ins, outs):
    """``x[index] = value`` / ``+= value``: ScatterND on the flattened tensor at the flat
    positions of the indexed region (an iota indexed the same way)."""
    x_aval, spec = _aval(node), node.params["spec"]
    size = int(np.prod(x_aval.shape, dtype=np.int64))
    region = _region_shape(node)
    indices = list(zip(ins[2:], [v.aval for v in node.inputs[2:]]))
    if indices:     # (the iota is computed when the model runs: it is x's size)
        zero, one = w.scalar(0, dt.int64), w.scalar(1, dt.int64)
        iota = w.op("Range", [zero, w.scalar(size, dt.int64), one])
        iota = w.op("Reshape", [iota, w.ints(x_aval.shape)])
        positions = index(w, iota, x_aval.shape, spec, indices, region)
    else:           # the positions are known now
        iota = np.arange(size, dtype=np.int64).reshape(x_aval.shape)
        positions = w.constant(iota[_basic_index(spec)], "positions")
    count = int(np.prod(region, dtype=np.int64))
    value = ins[1]
    if tuple(node.inputs[1].aval.shape) != tuple(region):
        value = w.op("Expand", [value, w.ints(region)])
    flat = w.op("ScatterND", [w.op("Reshape", [ins[0], w.ints([size])]),
                              w.op("Reshape", [positions, w.ints([count, 1])]),
                              w.op("Reshape", [value, w.ints([count])])],
                reduction="add" if node.prim.name == "index_add" else None)
    w.op("Reshape", [flat, w.ints(x_aval.shape)], outs[0])


def _region_shape(node):
    avals = [node.inputs[0].aval] + [v.aval for v in node.inputs[2:]]
    return tuple(PRIMITIVES["getitem"].abstract_eval(avals, {"spec": node.params["spec"]})[0]
                 .shape)


def _basic_index(spec):
    items = {"i": lambda e: e[1], "s": lambda e: slice(*e[1:]), "n": lambda e: None,
             "e": lambda e: Ellipsis}
    return tuple(items[e[0]](e) for e in spec)


# ---- reading ---------------------------------------------------------------------------

def _slice_entry(start, end, step, size):
    """ONNX's clamped slice bounds as a Python slice (a negative step's end of -1 after
    clamping means "past index 0")."""
    start, end = int(start), int(end)
    start = start + size if start < 0 else start
    end = end + size if end < 0 else end
    if step > 0:
        return ("s", min(max(start, 0), size), min(max(end, 0), size), step)
    start, end = min(max(start, 0), size - 1), min(max(end, -1), size - 1)
    return ("s", start, None if end < 0 else end, step)


@reads("Slice")
def _read_slice(c):
    x = c.x(0)
    shape = shape_of(x)
    starts, ends = c.const(1, "starts"), c.const(2, "ends")
    axes = c.const(3, "axes", np.arange(len(starts)))
    steps = c.const(4, "steps", np.ones(len(starts), np.int64))
    spec = [FULL] * len(shape)
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis = axis_of(axis, len(shape))
        spec[axis] = _slice_entry(start, end, int(step), shape[axis])
    return getitem(c, x, spec)


@reads("Split")
def _read_split(c):
    x = c.x(0)
    shape = shape_of(x)
    axis = axis_of(c.attr("axis", 0), len(shape))
    sizes = c.const(1, "split") if c.has(1) else c.attr("split")
    if sizes is None:
        count = c.attr("num_outputs", len(c.proto.output))
        size = -(-shape[axis] // count)
        sizes = [min(size, shape[axis] - k * size) for k in range(count)]
    pieces, start = [], 0
    for size in sizes:
        spec = [FULL] * axis + [("s", start, start + int(size), None)]
        pieces.append(getitem(c, x, spec))
        start += int(size)
    return pieces


@reads("Gather")
def _read_gather(c):
    x, indices = c.x(0), c.x(1)
    axis = axis_of(c.attr("axis", 0), len(shape_of(x)))
    if isinstance(indices, np.ndarray) and indices.ndim == 0:
        return getitem(c, x, [FULL] * axis + [("i", int(indices))])
    return getitem(c, x, [FULL] * axis + [("t",)], indices)


def _column(c, indices, j):
    return getitem(c, indices, [("e",), ("i", j)])


@reads("GatherND")
def _read_gather_nd(c):
    x, indices = c.x(0), c.x(1)
    if c.attr("batch_dims", 0):
        c.fail("batch_dims other than 0 is not supported")
    k = shape_of(indices)[-1]
    return getitem(c, x, [("t",)] * k, *[_column(c, indices, j) for j in range(k)])


def along(index, axis):
    """The index tensors of ``x[..., index, ...]`` taken elementwise along ``axis``
    (gather_elements)."""
    shape = shape_of(index)
    coords = []
    for a in range(len(shape)):
        if a == axis:
            coords.append(index)
        else:
            view = [1] * len(shape)
            view[a] = shape[a]
            coords.append(np.arange(shape[a], dtype=np.int64).reshape(view))
    return coords


@reads("GatherElements")
def _read_gather_elements(c):
    x, index = c.x(0), c.x(1)
    axis = axis_of(c.attr("axis", 0), len(shape_of(x)))
    return getitem(c, x, [("t",)] * len(shape_of(x)), *along(index, axis))


@reads("ScatterND")
def _read_scatter_nd(c):
    x, indices, updates = c.x(0), c.x(1), c.x(2)
    reduction = c.attr("reduction", "none")
    if reduction not in ("none", "add"):
        c.fail(f"reduction {reduction!r} is not supported")
    k = shape_of(indices)[-1]
    columns = [_column(c, indices, j) for j in range(k)]
    prim = "setitem" if reduction == "none" else "index_add"
    return c.bind(prim, x, updates, *columns, spec=(("t",),) * k)
