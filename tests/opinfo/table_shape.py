"""Table entries: ops that move data -- reshapes, transposes, broadcasting, joining and
splitting, tiling, flipping, padding. Their values are the inputs' own (edge values
moved intact), every dtype, gradients by finite differences."""
import numpy as np

from .core import op, ALL
from .samples import structural, case

MOVES = dict(dtypes=ALL)


op("reshape", ref=lambda x, shape: np.reshape(x, shape), **MOVES, method="reshape",
   torch=lambda torch, x, shape: torch.reshape(x, shape), **structural(lambda a, full: [
       case("(2,3,4) -> (4,6)", a(2, 3, 4), (4, 6)), case("-1", a(2, 3, 4), (-1,)),
       case("infer a middle axis", a(2, 3), (3, -1)), case("0-d -> (1,)", a(), (1,)),
       case("(1,) -> 0-d", a(1), ()), case("empty", a(2, 0), (0, 5)),
       case("same shape", a(3, 4), (3, 4))]))

op("transpose", ref=lambda x, *perm: np.transpose(x, perm[0] if len(perm) == 1 and isinstance(
    perm[0], tuple) else (perm or None)), **MOVES, aliases=("permute",),
   torch=lambda torch, x, *perm: x.permute(tuple(perm[0] if len(perm) == 1 and isinstance(
       perm[0], tuple) else (perm or tuple(reversed(range(x.ndim)))))),
   method=None, **structural(lambda a, full: [
       case("perm", a(2, 3, 4), (1, 2, 0)), case("perm as arguments", a(2, 3, 4), 2, 0, 1),
       case("no perm reverses", a(3, 4)), case("negative axes", a(2, 3, 4), (-1, 0, 1)),
       case("0-d", a()), case("empty", a(2, 0), (1, 0)), case("identity", a(3, 4), (0, 1))]))

op("swapaxes", ref=np.swapaxes, **MOVES, aliases=("swapdims",), method="swapaxes",
   torch=lambda torch, x, a, b: torch.swapaxes(x, a, b), **structural(lambda a, full: [
       case("3-d", a(2, 3, 4), 0, 2), case("negative", a(2, 3, 4), -1, 1),
       case("same axis", a(3, 4), 1, 1), case("empty", a(2, 0), 0, 1)]))

op("movedim", ref=np.moveaxis, **MOVES, torch=lambda torch, x, s, d: torch.movedim(x, s, d),
   **structural(lambda a, full: [
       case("forward", a(2, 3, 4), 0, 2), case("back", a(2, 3, 4), -1, 0),
       case("empty", a(2, 0, 3), 1, 0)]))


def _broadcast_ref(x, shape):
    lead = len(shape) - x.ndim
    shape = tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape))
    return np.broadcast_to(x, shape)


op("broadcast_to", ref=_broadcast_ref, **MOVES, method="broadcast_to",
   torch=lambda torch, x, shape: x.expand(*shape), **structural(lambda a, full: [
       case("(3,1) -> (2,3,4)", a(3, 1), (2, 3, 4)), case("0-d", a(), (2, 2)),
       case("-1 keeps an axis", a(3, 1), (2, -1, 4)), case("to empty", a(1), (0,)),
       case("same shape", a(3, 4), (3, 4))]))
op("expand_dims", ref=np.expand_dims, **MOVES, aliases=("unsqueeze",), method="expand_dims",
   torch=lambda torch, x, axis: torch.unsqueeze(x, axis), **structural(lambda a, full: [
       case("front", a(3, 4), 0), case("back", a(3, 4), -1), case("0-d", a(), 0),
       case("empty", a(0), 1)]))


def _squeeze_ref(x, axis=None):
    return np.squeeze(x, axis=tuple(axis) if isinstance(axis, list) else axis)


op("squeeze", ref=_squeeze_ref, **MOVES, method="squeeze",
   torch=lambda torch, x, axis=None: torch.squeeze(x) if axis is None else torch.squeeze(x, axis),
   **structural(lambda a, full: [
       case("all", a(1, 3, 1, 4)), case("one axis", a(1, 3, 1), 2),
       case("axes", a(1, 3, 1), (0, 2)), case("nothing to squeeze", a(3, 4)),
       case("0-d", a()), case("empty", a(1, 0))]))


def _flatten_ref(x, order="C", start_dim=1, end_dim=-1):
    if x.ndim == 0:
        return x.reshape(1)
    start, end = start_dim % x.ndim, end_dim % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[end + 1:])


op("flatten", ref=_flatten_ref, **MOVES,
   method=lambda x, **kw: x.flatten(**{"start_dim": 1, **kw}),   # Tensor.flatten: start_dim=0
   torch=lambda torch, x, start_dim=1, end_dim=-1: torch.flatten(
       x, start_dim, end_dim) if x.ndim else x.reshape(1), **structural(lambda a, full: [
           case("keeps the batch axis", a(2, 3, 4)), case("all", a(2, 3, 4), start_dim=0),
           case("middle", a(2, 3, 4, 5), start_dim=1, end_dim=2), case("0-d", a()),
           case("empty", a(2, 0, 3))]))
op("ravel", ref=np.ravel, **MOVES, method="ravel", torch=lambda torch, x: torch.ravel(x),
   **structural(lambda a, full: [case("3-d", a(2, 3, 4)), case("0-d", a()),
                                 case("empty", a(2, 0))]))

op("concat", ref=lambda xs, axis=0: np.concatenate(xs, axis), **MOVES, aliases=("cat",),
   torch=lambda torch, xs, axis=0: torch.cat(xs, axis), **structural(lambda a, full: [
       case("axis 1", [a(2, 1, 3), a(2, 4, 3), a(2, 2, 3)], 1), case("axis 0", [a(2, 3), a(1, 3)]),
       case("negative axis", [a(2, 3), a(2, 2)], -1), case("one tensor", [a(3, 4)], 0),
       case("with an empty tensor", [a(2, 0), a(2, 3)], 1), case("all empty", [a(0), a(0)])]))
op("stack", ref=lambda xs, axis=0: np.stack(xs, axis), **MOVES,
   torch=lambda torch, xs, axis=0: torch.stack(xs, axis), **structural(lambda a, full: [
       case("axis 0", [a(2, 3), a(2, 3)]), case("last axis", [a(2, 3), a(2, 3), a(2, 3)], -1),
       case("0-d", [a(), a()]), case("empty", [a(0), a(0)], 1)]))


def _slice_ref(x, axis, start, stop, step=1):
    return x[(slice(None),) * axis + (slice(start, stop, step),)]


op("slice_axis", ref=_slice_ref, **MOVES, ms=None,
   torch=lambda torch, x, axis, start, stop, step=1: x[(slice(None),) * axis
                                                       + (slice(start, stop, step),)],
   **structural(lambda a, full: [
       case("range", a(3, 5), 1, 1, 4), case("step", a(3, 5), 1, 0, 5, 2),
       case("past the end", a(3, 5), 0, 1, 10), case("empty range", a(3, 5), 1, 3, 3)]))


def _split_ref(x, size_or_sections, axis=0):
    length = x.shape[axis]
    if isinstance(size_or_sections, int):
        cuts = list(range(size_or_sections, length, size_or_sections))
    else:
        cuts = list(np.cumsum(size_or_sections)[:-1])
    return np.split(x, cuts, axis)


op("split", ref=_split_ref, **MOVES, method="split",
   torch=lambda torch, x, s, axis=0: torch.split(x, s, axis), **structural(lambda a, full: [
       case("even", a(6, 2), 2), case("uneven", a(7, 2), 3),
       case("sections", a(2, 6), [1, 2, 3], 1),
       case("a section of 0", a(4, 2), [0, 4]), case("empty axis", a(0, 2), 2)]))
op("chunk", ref=lambda x, chunks, axis=0: _split_ref(x, max(1, -(-x.shape[axis] // chunks)),
                                                      axis), **MOVES, method="chunk",
   torch=lambda torch, x, chunks, axis=0: torch.chunk(x, chunks, axis),
   **structural(lambda a, full: [case("even", a(6, 2), 3), case("uneven", a(7, 2), 3, 0),
                                 case("more chunks than rows", a(2, 3), 5),
                                 case("axis 1", a(2, 5), 2, 1)]))
op("unbind", ref=lambda x, dim=0: [np.take(x, i, axis=dim) for i in range(x.shape[dim])],
   **MOVES, method="unbind", torch=lambda torch, x, dim=0: torch.unbind(x, dim),
   **structural(lambda a, full: [case("rows", a(3, 4)), case("columns", a(3, 4), 1),
                                 case("vector", a(3))]))
op("tile", ref=np.tile, **MOVES, method="tile", torch=lambda torch, x, dims: torch.tile(x, dims),
   **structural(lambda a, full: [
       case("2-d", a(2, 3), (2, 1)), case("more reps than axes", a(3), (2, 2)),
       case("fewer reps than axes", a(2, 3), (2,)), case("zero reps", a(2, 3), (0, 1)),
       case("0-d", a(), (3,))]))


def _repeat_ref(x, repeats, axis=None):
    return np.repeat(x, repeats, axis=axis)


op("repeat_interleave", ref=_repeat_ref, **MOVES, method="repeat_interleave",
   torch=lambda torch, x, repeats, axis=None: torch.repeat_interleave(x, repeats, axis),
   **structural(lambda a, full: [case("flat", a(2, 3), 2), case("axis 1", a(2, 3), 3, 1),
                                 case("zero", a(2, 3), 0, 0)]))
op("flip", ref=lambda x, dims: np.flip(x, dims), **MOVES, method="flip",
   torch=lambda torch, x, dims: torch.flip(x, dims if isinstance(dims, tuple) else (dims,)),
   **structural(lambda a, full: [case("one axis", a(3, 4), 1), case("both", a(3, 4), (0, 1)),
                                 case("negative", a(2, 3, 4), -1), case("empty", a(2, 0), 0)]))


def _pad_ref(x, padding, mode="constant", value=None):
    pads = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        pads[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    if mode != "constant":
        return np.pad(x, pads, mode={"reflect": "reflect", "replicate": "edge",
                                     "circular": "wrap"}[mode])
    crop = tuple(slice(max(-b, 0), d - max(-a, 0)) for (b, a), d in zip(pads, x.shape))
    return np.pad(x[crop], [(max(b, 0), max(a, 0)) for b, a in pads],
                  constant_values=0 if value is None else value)


def _torch_pad(torch, x, padding, mode="constant", value=None):
    if mode != "constant":
        return torch.nn.functional.pad(x, padding, mode=mode)
    return torch.nn.functional.pad(x, padding, value=0 if value is None else value)


op("pad", ref=_pad_ref, **MOVES, torch=_torch_pad, **structural(lambda a, full: [
       case("last axis", a(2, 3), (1, 2)), case("two axes", a(2, 3), (1, 0, 0, 2)),
       case("value", a(2, 3), (1, 1), value=1), case("nothing", a(2, 3), (0, 0)),
       case("empty", a(0, 2), (1, 1)), case("negative crops", a(3, 4), (-1, 2, 1, -2)),
       case("reflect", a(2, 3, 4), (2, 1, 1, 0), "reflect"),
       case("replicate", a(2, 3), (3, 1), "replicate"),
       case("circular", a(1, 2, 3, 2), (1, 0, 2, 1, 0, 1), "circular")]),
   notes={"modes": "reflect / replicate / circular are a gather per axis at np.pad's "
                   "padded indices; they take any rank >= the number of pairs (MindSpore: "
                   "exactly one or two axes more)"})
