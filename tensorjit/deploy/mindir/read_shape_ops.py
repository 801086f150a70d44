"""MindSpore's shape operators as tensorjit primitives, for reading MindIR files (filled
tensors, Reshape, Flatten, ExpandDims, Squeeze, Transpose, BroadcastTo, Concat, pads,
StridedSlice, Gather); ``read_ops`` holds the table and the conventions."""
import math

from ... import dtype as dt
from .reader import Const, Seq
from .read_ops import (IMPORTERS, axis_of, imports, ints, reshape, resolve_shape, setting,
                       tensors)


def _filled(value):
    def importer(r, inputs, attrs):
        x = r.tensor(inputs[0])
        return r.bind("full", [], shape=tuple(x.aval.shape), value=value, dtype=x.aval.dtype)
    return importer


IMPORTERS.update(ZerosLike=_filled(0), OnesLike=_filled(1))


# ---- shapes ----------------------------------------------------------------------------------

@imports("Reshape")
def _reshape(r, inputs, attrs):
    x = r.tensor(inputs[0])
    shape = ints(r, setting(r, inputs, 1, attrs, "shape"), "Reshape's shape")
    return reshape(r, x, resolve_shape(r, shape, x.aval.size))


@imports("Flatten")
def _flatten(r, inputs, attrs):
    x = r.tensor(inputs[0])
    if x.aval.ndim < 1:
        r.fail("Flatten of a 0-d tensor")
    return reshape(r, x, (x.aval.shape[0], math.prod(x.aval.shape[1:])))


@imports("ExpandDims")
def _expand_dims(r, inputs, attrs):
    x = r.tensor(inputs[0])
    axis = axis_of(r, setting(r, inputs, 1, attrs, "axis"), x.aval.ndim + 1)
    shape = list(x.aval.shape)
    shape.insert(axis, 1)
    return reshape(r, x, shape)


@imports("Squeeze")
def _squeeze(r, inputs, attrs):
    x = r.tensor(inputs[0])
    axes = ints(r, setting(r, inputs, 1, attrs, "axis", ()), "Squeeze's axis")
    shape = x.aval.shape
    axes = {axis_of(r, a, x.aval.ndim) for a in axes} or {i for i, d in enumerate(shape)
                                                           if d == 1}
    if any(shape[a] != 1 for a in axes):
        r.fail(f"Squeeze of axes {sorted(axes)} of shape {shape} that are not 1")
    return reshape(r, x, [d for i, d in enumerate(shape) if i not in axes])


@imports("Transpose")
def _transpose(r, inputs, attrs):
    x = r.tensor(inputs[0])
    perm = ints(r, setting(r, inputs, 1, attrs, "perm"), "Transpose's permutation")
    perm = tuple(axis_of(r, p, x.aval.ndim) for p in perm)
    if sorted(perm) != list(range(x.aval.ndim)):
        r.fail(f"Transpose's permutation {perm} does not fit a {x.aval.ndim}-d tensor")
    if perm == tuple(range(x.aval.ndim)):
        return x
    return r.bind("transpose", [x], perm=perm)


@imports("BroadcastTo")
def _broadcast_to(r, inputs, attrs):
    x = r.tensor(inputs[0])
    shape = list(ints(r, setting(r, inputs, 1, attrs, "shape"), "BroadcastTo's shape"))
    offset = len(shape) - x.aval.ndim
    if offset < 0:
        r.fail(f"BroadcastTo shape {tuple(shape)} has fewer axes than {x.aval}")
    for i, d in enumerate(shape):        # -1 keeps the input's size on that axis
        if d == -1 and i >= offset:
            shape[i] = x.aval.shape[i - offset]
    if tuple(shape) == tuple(x.aval.shape):
        return x
    return r.bind("broadcast_to", [x], shape=tuple(shape))


@imports("Concat")
def _concat(r, inputs, attrs):
    parts = inputs[0]
    if not isinstance(parts, Seq) or not parts.items:
        r.fail("Concat takes a non-empty tuple of tensors")
    values = tensors(r, *parts.items)
    axis = axis_of(r, setting(r, inputs, 1, attrs, "axis", 0), values[0].aval.ndim)
    if len(values) == 1:
        return values[0]
    return r.bind("concat", values, axis=axis)


@imports("PadV3", "ConstantPadND")
def _pad(r, inputs, attrs):
    """Constant padding: (before, after) pairs from the last axis backwards (PadV3 with
    ``paddings_contiguous``, as ``ops.pad`` exports; otherwise all befores, then afters)."""
    x = r.tensor(inputs[0])
    if attrs.get("mode", "constant") != "constant":
        r.fail(f"padding mode {attrs.get('mode')!r} is not supported (constant is)")
    flat = ints(r, setting(r, inputs, 1, attrs, "paddings"), "the paddings")
    value = inputs[2] if len(inputs) > 2 else Const(0)
    if len(flat) % 2 or len(flat) > 2 * x.aval.ndim or any(p < 0 for p in flat):
        r.fail(f"paddings {flat} do not fit {x.aval}")
    half = len(flat) // 2
    pairs = list(zip(flat[0::2], flat[1::2])) if attrs.get("paddings_contiguous", True) \
        else list(zip(flat[:half], flat[half:]))
    pads = [(0, 0)] * (x.aval.ndim - half) + pairs[::-1]
    fill = r.setting(value, "padding value") if isinstance(value, Const) else None
    if isinstance(fill, tuple) and len(fill) == 1:        # a one-element tensor
        fill = fill[0]
    if not isinstance(fill, (int, float, bool)):
        r.fail("a padding value computed by the graph is not supported")
    return r.bind("pad", [x], pads=tuple(pads), value=fill)


@imports("StridedSlice")
def _strided_slice(r, inputs, attrs):
    """TensorFlow's StridedSlice (begin/end/strides and five bit masks) as a getitem."""
    x = r.tensor(inputs[0])
    begin = ints(r, setting(r, inputs, 1, attrs, "begin"), "StridedSlice's begin")
    end = ints(r, setting(r, inputs, 2, attrs, "end"), "StridedSlice's end")
    strides = ints(r, setting(r, inputs, 3, attrs, "strides"), "StridedSlice's strides")
    masks = [setting(r, inputs, 4 + i, attrs, name, 0) for i, name in enumerate(
        ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"))]
    if not len(begin) == len(end) == len(strides) or any(s == 0 for s in strides):
        r.fail(f"StridedSlice with begin {begin}, end {end}, strides {strides}")
    if not all(isinstance(m, int) and m >= 0 for m in masks):
        r.fail(f"StridedSlice masks {masks} must be non-negative integers")
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_mask = masks
    spec = []
    for k in range(len(begin)):
        bit = 1 << k
        if ellipsis_mask & bit:
            spec.append(("e",))
        elif new_axis_mask & bit:
            spec.append(("n",))
        elif shrink_mask & bit:
            spec.append(("i", begin[k]))
        else:
            spec.append(("s", None if begin_mask & bit else begin[k],
                         None if end_mask & bit else end[k], strides[k]))
    if sum(1 for e in spec if e[0] == "e") > 1:
        r.fail("StridedSlice with two ellipses")
    return r.bind("getitem", [x], spec=tuple(spec))


@imports("Gather", "GatherV2")
def _gather(r, inputs, attrs):
    x, index = r.tensor(inputs[0]), r.tensor(inputs[1])
    axis = axis_of(r, setting(r, inputs, 2, attrs, "axis", 0), x.aval.ndim)
    if setting(r, inputs, 3, attrs, "batch_dims", 0):
        r.fail("Gather with batch_dims is not supported")
    if not dt.is_int(index.aval.dtype):
        r.fail(f"Gather indices must be integers, got {index.aval}")
    spec = (("s", None, None, None),) * axis + (("t",),)
    return r.bind("getitem", [x, index], spec=spec)
