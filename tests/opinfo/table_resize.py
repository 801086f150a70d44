"""Table entries: resizing (interpolate, upsample), mirror padding and the rearranging ops
(pixel shuffle / unshuffle, channel shuffle, repeat_elements). The references are written
here in NumPy: an interpolation is, per spatial axis, a dense (out, in) matrix whose rows
are the mode's kernel evaluated at the source coordinate; the rearrangements are index
formulas."""
import math

import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, Differs, ALL, FLOATS
from .samples import random, mixed, structural, case

MOVES = dict(dtypes=ALL)
_F = lambda torch: torch.nn.functional  # noqa: E731


# ---- interpolate -------------------------------------------------------------------------

def _keys(d, a):
    """Keys' cubic convolution kernel at distance d."""
    d = abs(d)
    if d <= 1:
        return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
    return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a if d < 2 else 0.0


def _matrix(n, m, mode, corners, factor):
    """The (m, n) matrix resizing one axis from n to m."""
    scale = 1 / factor if factor else n / m
    out = np.zeros((m, n))
    for i in range(m):
        if mode in ("nearest", "nearest-exact"):
            c = (i + 0.5) * scale if mode == "nearest-exact" else i * scale
            out[i, min(int(math.floor(c)), n - 1)] = 1
            continue
        if mode == "area":
            start, stop = (i * n) // m, -((-(i + 1) * n) // m)
            out[i, start:stop] = 1 / (stop - start)
            continue
        if corners:
            c = i * (n - 1) / (m - 1) if m > 1 else 0.0
        elif mode == "linear" and m == 1:
            c = 0.0                     # MindSpore's ResizeLinear1D: one output is input 0
        else:
            c = (i + 0.5) * scale - 0.5
        if mode == "bicubic":           # MindSpore's ResizeBicubic: a 1024-entry table
            base = math.floor(c)
            t = np.rint((c - base) * 1024) / 1024
            a = -0.75 if corners else -0.5
            taps = [(base + k, _keys(t - k, a)) for k in (-1, 0, 1, 2)]
            if not corners:             # taps outside the axis left out, the rest rescaled
                taps = [(j, w) for j, w in taps if 0 <= j < n]
                total = sum(w for _, w in taps)
                taps = [(j, w / total) for j, w in taps]
            for j, w in taps:
                out[i, min(max(j, 0), n - 1)] += w
        else:                           # the triangle kernel around the clamped coordinate
            c = min(max(c, 0.0), n - 1)
            for j in range(n):
                out[i, j] = max(0.0, 1 - abs(c - j))
    return out


def _interpolate_ref(x, size=None, scale_factor=None, mode="nearest", align_corners=None,
                     recompute_scale_factor=None):
    spatial = x.shape[2:]
    if size is not None:
        sizes = (size,) * len(spatial) if isinstance(size, int) else tuple(size)
        factors = (None,) * len(spatial)
    else:
        factors = (scale_factor,) * len(spatial) if isinstance(scale_factor, float) \
            else tuple(scale_factor)
        sizes = tuple(math.floor(n * f) for n, f in zip(spatial, factors))
        if recompute_scale_factor or mode == "area":
            factors = (None,) * len(spatial)
    out = x
    for k, (n, m, f) in enumerate(zip(spatial, sizes, factors)):
        w = _matrix(n, m, mode, bool(align_corners), None if align_corners else f)
        if mode.startswith("nearest"):     # picks: edge values (inf, NaN) move intact
            out = np.take(out, w.argmax(1), axis=2 + k)
        else:
            out = np.moveaxis(np.tensordot(out, w, axes=([2 + k], [1])), -1, 2 + k)
    return out


def _interpolate_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [
        Sample(r(2, 2, 5, 7), size=(9, 4), mode="bilinear", label="bilinear"),
        Sample(r(1, 2, 4, 5), size=(7, 3), mode="bilinear", align_corners=True,
               label="bilinear corners"),
        Sample(r(1, 2, 5, 7), size=(3, 11), mode="bicubic", label="bicubic"),
        Sample(r(1, 2, 4, 5), size=(7, 9), mode="bicubic", align_corners=True,
               label="bicubic corners"),
        Sample(r(1, 2, 4, 5), size=(7, 3), label="nearest"),
        Sample(r(2, 3, 4), scale_factor=1.5, label="nearest scale_factor"),
        Sample(r(2, 3, 4), size=9, mode="nearest-exact", label="nearest-exact"),
        Sample(r(2, 3, 6), size=11, mode="linear", label="linear"),
        Sample(r(2, 3, 6), size=(4,), mode="linear", align_corners=True,
               label="linear corners"),
        Sample(r(1, 2, 5, 7), size=(2, 3), mode="area", label="area"),
        Sample(r(1, 2, 3, 4, 5), size=(4, 7, 3), mode="trilinear", label="trilinear"),
        Sample(r(1, 1, 2, 3, 4), scale_factor=(1.5, 2.0, 1.0), label="nearest 5-d"),
        Sample(mixed(rng, (1, 2, 3, 4), dtype), size=(5, 2), label="edge values moved",
               smooth=False),
        Sample(r(1, 2, 3, 4), size=(3,), mode="linear", label="linear needs 3-d",
               raises=ValueError),
        Sample(r(1, 2, 3, 4), size=(3, 3), scale_factor=2.0, label="size and scale",
               raises=ValueError),
    ]


_RESIZE_TOL = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2), dt.float32: (1e-5, 1e-5)}
_BICUBIC = "MindSpore's ResizeBicubic: weights read from a 1024-entry table, and a = -0.5 " \
           "with out-of-range taps excluded for half-pixel centers (PyTorch: a = -0.75, " \
           "exact weights, taps clamped)"
_RESIZE_NOTES = {
    "construction": "each spatial axis resampled by a table of taps (source indices and "
                    "weights from the static sizes): gather, mul, sum; nearest is a gather",
    "scale_factor": "accepted by every mode (MindSpore 2.10 refuses it for nearest / "
                    "bilinear / bicubic / linear 3-4-D); coordinates scale by 1 / factor",
    "dtypes": "floats (float16 / bfloat16 computed in float32); the nearest modes also "
              "take ints"}


def _torch_interpolate(torch, x, **kw):
    return _F(torch).interpolate(x, **kw)


for _name in ("interpolate", "upsample"):
    op(_name, prims=(), ref=_interpolate_ref, dtypes=FLOATS, samples=_interpolate_samples,
       tol=_RESIZE_TOL, torch=_torch_interpolate, notes=_RESIZE_NOTES,
       torch_differs={"value:bicubic": Differs(_BICUBIC),
                      "value:bicubic corners": Differs(_BICUBIC),
                      "grad:bicubic": Differs(_BICUBIC),
                      "grad:bicubic corners": Differs(_BICUBIC)})


# ---- mirror_pad ----------------------------------------------------------------------------

def _pairs(*pairs):
    """mirror_pad's paddings as MindSpore takes them: an int64 (rank, 2) tensor."""
    return np.array(pairs, np.int64)


op("mirror_pad", prims=(), ref=lambda x, paddings, mode: np.pad(x, paddings, mode=mode.lower()),
   **MOVES, result=lambda x, paddings: x, **structural(lambda a, full: [
       case("reflect", a(3, 4), _pairs((1, 2), (3, 0)), "REFLECT"),
       case("symmetric", a(2, 3, 4), _pairs((0, 2), (3, 3), (1, 4)), "SYMMETRIC"),
       case("nothing", a(2, 3), _pairs((0, 0), (0, 0)), "REFLECT")]),
   fuzz=False,   # the fuzzer draws other values for every tensor: paddings out of range
   notes={"construction": "a gather of each axis at np.pad's padded indices",
          "paddings": "an int (rank, 2) tensor, as MindSpore, or a tuple of pairs; its "
                      "values decide the shape, so a jitted call reads them"})


# ---- rearrangements ------------------------------------------------------------------------

def _pixel_shuffle_ref(x, r):
    """out[..., c, h * r + i, w * r + j] = x[..., c * r * r + i * r + j, h, w]"""
    *lead, c, h, w = x.shape
    out = np.empty(tuple(lead) + (c // (r * r), h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i::r, j::r] = x[..., i * r + j::r * r, :, :]
    return out


def _pixel_unshuffle_ref(x, r):
    *lead, c, h, w = x.shape
    out = np.empty(tuple(lead) + (c * r * r, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i * r + j::r * r, :, :] = x[..., i::r, j::r]
    return out


def _channel_shuffle_ref(x, groups):
    """output channel i * groups + g is input channel g * (C / groups) + i"""
    per = x.shape[1] // groups
    return x[:, [g * per + i for i in range(per) for g in range(groups)]]


op("pixel_shuffle", prims=(), ref=_pixel_shuffle_ref, **MOVES,
   torch=lambda torch, x, r: _F(torch).pixel_shuffle(x, r), **structural(lambda a, full: [
       case("4-d", a(2, 8, 2, 3), 2), case("3-d", a(9, 1, 2), 3), case("5-d", a(1, 2, 4, 2, 2), 2),
       case("factor 1", a(1, 3, 2, 2), 1)]))
op("pixel_unshuffle", prims=(), ref=_pixel_unshuffle_ref, **MOVES,
   torch=lambda torch, x, r: _F(torch).pixel_unshuffle(x, r), **structural(lambda a, full: [
       case("4-d", a(2, 2, 4, 6), 2), case("3-d", a(1, 6, 3), 3), case("5-d", a(1, 2, 1, 4, 2), 2)]))
op("channel_shuffle", prims=(), ref=_channel_shuffle_ref, **MOVES,
   torch=lambda torch, x, g: _F(torch).channel_shuffle(x, g), **structural(lambda a, full: [
       case("4-d", a(2, 6, 2, 3), 3), case("5-d", a(1, 4, 2, 1, 2), 2),
       case("one group", a(1, 3, 2, 2), 1)]))
op("repeat_elements", prims=(), ref=lambda x, rep, axis=0: np.repeat(x, rep, axis),
   dtypes=tuple(d for d in ALL if d != dt.bool_),
   torch=lambda torch, x, rep, axis=0: torch.repeat_interleave(x, rep, axis),
   **structural(lambda a, full: [
       case("axis 0", a(2, 3), 2), case("axis 1", a(2, 3), 3, 1), case("negative axis", a(2, 3, 2), 2, -1),
       case("once", a(3,), 1), case("empty", a(0, 2), 2, 1)]))
