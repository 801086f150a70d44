"""Table entries: pooling beyond 2-D max / average pooling (1-D and 3-D average and max
pooling, LP pooling, adaptive pooling of 1-3 axes, max unpooling). The references visit
every output position in NumPy and read its window's input positions directly (PyTorch's
documented windows: ``start = o * stride - padding``, ``ceil_mode``'s last window starting
inside the input; adaptive windows ``[floor(o * L / out), ceil((o + 1) * L / out))``)."""
import itertools

import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, Differs, ErrorCase, ALL, FLOATS, NUMERIC, float_result
from .samples import random, specials

_TOL = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2), dt.float32: (1e-5, 1e-5)}
_F = lambda torch: torch.nn.functional  # noqa: E731


def _tuple(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v) * (n if len(v) == 1 else 1)


def _out_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1
    n = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (n - 1) * s >= size + p:
        n -= 1
    return n


def _regular_windows(sizes, kernel, stride, padding, dilation, ceil_mode):
    """Per output position (a tuple), the input positions of its window per axis (those
    inside the input) and its padded extent per axis (for count_include_pad)."""
    out = [_out_size(n, k, s, p, d, ceil_mode)
           for n, k, s, p, d in zip(sizes, kernel, stride, padding, dilation)]
    for pos in np.ndindex(*out):
        inside, extent = [], []
        for o, n, k, s, p, d in zip(pos, sizes, kernel, stride, padding, dilation):
            start = o * s - p
            at = [start + j * d for j in range(k)]
            inside.append([a for a in at if 0 <= a < n])
            extent.append(min(start + (k - 1) * d + 1, n + p) - start)
        yield pos, inside, extent, tuple(out)


def _gather(x, inside):
    """(N, C, m) the window's elements, row-major over the kernel, and their positions."""
    coords = list(itertools.product(*inside))
    vals = np.stack([x[(slice(None), slice(None)) + c] for c in coords], -1)
    return vals, coords


def _max_ref(rank):
    def ref(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
            return_indices=False):
        kernel = _tuple(kernel_size, rank)
        stride = kernel if stride is None else _tuple(stride, rank)
        sizes = x.shape[2:]
        values = indices = None
        for pos, inside, _, out in _regular_windows(sizes, kernel, stride, _tuple(padding, rank),
                                                    _tuple(dilation, rank), ceil_mode):
            if values is None:
                values = np.zeros(x.shape[:2] + out, x.dtype)
                indices = np.zeros(x.shape[:2] + out, np.int64)
            vals, coords = _gather(x, inside)
            first = np.argmax(vals, -1)          # the first maximum (NaN counts as one)
            values[(slice(None), slice(None)) + pos] = np.take_along_axis(
                vals, first[..., None], -1)[..., 0]
            flat = np.array([np.ravel_multi_index(c, sizes) for c in coords])
            indices[(slice(None), slice(None)) + pos] = flat[first]
        return (values, indices) if return_indices else values
    return ref


def _avg_ref(rank):
    def ref(x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
            divisor_override=0):
        kernel = _tuple(kernel_size, rank)
        stride = kernel if stride is None else _tuple(stride, rank)
        if not isinstance(padding, int) and len(padding) == 2 * rank:
            padding = padding[::2]                      # symmetric (before, after) pairs
        out = None
        for pos, inside, extent, shape in _regular_windows(
                x.shape[2:], kernel, stride, _tuple(padding, rank), (1,) * rank, ceil_mode):
            if out is None:
                out = np.zeros(x.shape[:2] + shape)
            vals, _ = _gather(x, inside)
            if divisor_override:
                divisor = divisor_override
            elif count_include_pad:
                divisor = np.prod(extent)
            else:
                divisor = vals.shape[-1]
            out[(slice(None), slice(None)) + pos] = vals.sum(-1) / divisor
        return out
    return ref


def _lp_ref(rank):
    def ref(x, norm_type, kernel_size, stride=None, ceil_mode=False):
        """(sum of x ** p over the window's elements inside the input, times kernel size
        over their count) ** (1 / p): MindSpore's and PyTorch's scaling of a ceil_mode
        window cut by the input's end."""
        batched = x.ndim == rank + 2
        x = x if batched else x[None]
        kernel = _tuple(kernel_size, rank)
        stride = kernel if stride is None else _tuple(stride, rank)
        out = None
        for pos, inside, _, shape in _regular_windows(x.shape[2:], kernel, stride, (0,) * rank,
                                                      (1,) * rank, ceil_mode):
            if out is None:
                out = np.zeros(x.shape[:2] + shape)
            vals, _ = _gather(x, inside)
            total = (vals ** norm_type).sum(-1) * np.prod(kernel) / vals.shape[-1]
            out[(slice(None), slice(None)) + pos] = total ** (1.0 / norm_type)
        return out if batched else out[0]
    return ref


def _adaptive_ranges(size, out):
    return [range((o * size) // out, -((-(o + 1) * size) // out)) for o in range(out)]


def _adaptive_ref(rank, how):
    def ref(x, output_size, return_indices=False):
        batched = x.ndim == rank + 2
        x = x if batched else x[None]
        sizes = x.shape[2:]
        want = _tuple(output_size, rank) if not isinstance(output_size, (tuple, list)) or \
            len(output_size) == rank else tuple(output_size) * rank
        want = tuple(n if o is None else o for n, o in zip(sizes, want))
        values = np.zeros(x.shape[:2] + want, x.dtype if how == "max" else np.float64)
        indices = np.zeros(x.shape[:2] + want, np.int64)
        for pos in np.ndindex(*want):
            inside = [list(_adaptive_ranges(n, o)[p]) for n, o, p in zip(sizes, want, pos)]
            vals, coords = _gather(x, inside)
            at = (slice(None), slice(None)) + pos
            if how == "avg":
                values[at] = vals.mean(-1)
                continue
            first = np.argmax(vals, -1)
            values[at] = np.take_along_axis(vals, first[..., None], -1)[..., 0]
            indices[at] = np.array([np.ravel_multi_index(c, sizes) for c in coords])[first]
        result = (values, indices) if return_indices else values
        if batched:
            return result
        return tuple(r[0] for r in result) if return_indices else result[0]
    return ref


def _unpool_ref(rank):
    def ref(x, indices, kernel_size, stride=None, padding=0, output_size=None):
        batched = x.ndim == rank + 2
        x, indices = (x, indices) if batched else (x[None], indices[None])
        kernel = _tuple(kernel_size, rank)
        stride = kernel if stride is None else _tuple(stride, rank)
        padding = _tuple(padding, rank)
        if output_size is None:
            sizes = tuple((n - 1) * s - 2 * p + k
                          for n, k, s, p in zip(x.shape[2:], kernel, stride, padding))
        else:
            sizes = tuple(output_size)[-rank:]
        out = np.zeros(x.shape[:2] + (int(np.prod(sizes)),), x.dtype)
        n, c = x.shape[:2]
        for i, j in np.ndindex(n, c):
            out[i, j, indices[i, j].reshape(-1)] = x[i, j].reshape(-1)
        out = out.reshape(x.shape[:2] + sizes)
        return out if batched else out[0]
    return ref


# ---- samples ---------------------------------------------------------------------------------

def _r(rng, dtype, lo=-3, hi=3):
    return lambda *shape: random(rng, shape, dtype, lo, hi)


def _edge(dtype, shape):
    e = specials(dtype)
    return np.resize(e, int(np.prod(shape))).reshape(shape)


def _avg1d_samples(dtype, rng, full):
    r = _r(rng, dtype)
    return [Sample(r(2, 3, 9), 3, 2, 1, label="stride, padding"),
            Sample(r(2, 3, 9), 3, 2, 1, True, False, label="ceil_mode, padding not counted"),
            Sample(r(1, 2, 9), 4, 3, 2, True, True, label="ceil_mode, padding counted"),
            Sample(r(2, 2, 5), label="defaults"),
            Sample(r(0, 2, 5), 2, 2, label="empty batch"),
            Sample(_edge(dtype, (1, 2, 8)), 2, 2, label="edge", smooth=False),
            Sample(r(2, 3, 4, 4), 2, label="4-d input", raises=ValueError),
            Sample(r(2, 3, 9), 3, 1, 2, label="padding over half the kernel",
                   raises=ValueError)]


def _avg3d_samples(dtype, rng, full):
    r = _r(rng, dtype)
    return [Sample(r(1, 2, 5, 6, 7), 2, 2, 1, True, label="ceil_mode, padding"),
            Sample(r(2, 1, 5, 6, 7), (2, 3, 2), (1, 2, 3), (1, 1, 0), False, False,
                   label="per-axis, padding not counted"),
            Sample(r(1, 2, 5, 5, 4), 3, 2, (1, 1, 1, 1, 0, 0), label="6 paddings"),
            Sample(r(1, 2, 4, 4, 4), 3, 1, 1, False, True, 5, label="divisor"),
            Sample(r(0, 2, 3, 3, 3), 2, label="empty batch"),
            Sample(_edge(dtype, (1, 2, 2, 2, 4)), 2, 2, label="edge", smooth=False),
            Sample(r(2, 4, 4, 4), 2, label="4-d input", raises=ValueError)]


def _max3d_samples(dtype, rng, full):
    r = _r(rng, dtype, -50, 50)
    return [Sample(r(1, 2, 5, 6, 7), 2, label="2x2x2"),
            Sample(r(2, 1, 5, 6, 7), (2, 3, 2), (1, 2, 3), (1, 1, 0), (2, 1, 1), True,
                   return_indices=True, label="per-axis, dilation, ceil_mode, indices"),
            Sample(r(1, 2, 4, 5, 5), 3, 2, 1, return_indices=True, label="padding, indices"),
            Sample(r(0, 2, 3, 3, 3), 2, label="empty batch"),
            Sample(_edge(dtype, (1, 2, 2, 2, 4)), 2, 2, return_indices=True, label="edge",
                   smooth=False),
            Sample(r(1, 4, 4, 4), 2, label="4-d input", raises=ValueError)]


def _distinct(rng, shape, dtype):
    """Values without ties (finite differences need a unique maximum per window)."""
    return (rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 1).astype(dtype)


def _lp1d_samples(dtype, rng, full):
    r = _r(rng, dtype, 0.2, 2)
    return [Sample(r(2, 3, 9), 2, 3, label="p=2"),
            Sample(r(2, 3, 9), 3, 3, 2, True, label="p=3, stride, ceil_mode"),
            Sample(r(3, 8), 1.5, 2, label="unbatched, p=1.5"),
            Sample(r(1, 2, 7), 1, 3, 1, label="p=1"),
            Sample(r(2, 3, 9), 0, 3, label="p=0", raises=ValueError)]


def _lp2d_samples(dtype, rng, full):
    r = _r(rng, dtype, 0.2, 2)
    return [Sample(r(2, 3, 7, 8), 2, 3, label="p=2"),
            Sample(r(1, 2, 7, 8), 1, (2, 3), (2, 1), True, label="p=1, ceil_mode"),
            Sample(r(2, 5, 6), 3, 2, label="unbatched, p=3"),
            Sample(r(3, 7), 2, 3, label="2-d input", raises=ValueError)]


def _adaptive_samples(rank, max_pool=False):
    shapes = {1: (2, 3, 9), 2: (2, 3, 7, 8), 3: (1, 2, 5, 6, 7)}
    sizes = {1: [4, 3, 12], 2: [(3, 5), (4, None), (10, 3)], 3: [(3, 4, 3), (2, None, 5)]}

    def make(dtype, rng, full):
        def r(*shape):
            return _distinct(rng, shape, dtype) if dt.is_float(dtype) else \
                random(rng, shape, dtype, -50, 50)
        extra = {"return_indices": True} if max_pool and rank > 1 else {}
        out = [Sample(r(*shapes[rank]), s, label=f"to {s}", **extra) for s in sizes[rank]]
        out.append(Sample(r(*(0,) + shapes[rank][1:]), 2, label="empty batch"))
        if rank > 1:
            out.append(Sample(r(*shapes[rank][1:]), 2, label="unbatched", **extra))
        out.append(Sample(_edge(dtype, shapes[rank]), 3, label="edge", smooth=False, **extra))
        out.append(Sample(r(*shapes[rank]), 0, label="output size 0", raises=ValueError))
        out.append(Sample(r(*shapes[rank]), 2.5, label="float output size", raises=TypeError))
        return out
    return make


def _unpool_samples(rank):
    shapes = {1: (2, 3, 4), 2: (2, 2, 3, 4), 3: (1, 2, 2, 3, 2)}

    def make(dtype, rng, full):
        shape = shapes[rank]
        k, s = 2, 2

        def indices(out_sizes, lead=shape[:2]):
            total = int(np.prod(out_sizes))
            picks = [rng.permutation(total)[:int(np.prod(shape[2:]))]
                     for _ in range(int(np.prod(lead)))]
            return np.stack(picks).reshape(lead + shape[2:]).astype(np.int64)
        default = tuple((n - 1) * s + k for n in shape[2:])
        bigger = tuple(d + 1 for d in default)
        padded = tuple((n - 1) * s - 2 + 3 for n in shape[2:])     # kernel 3, padding 1
        x = random(rng, shape, dtype, -3, 3)
        out = [Sample(x, indices(default), k, label="default size"),
               Sample(x, indices(bigger).astype(np.int32), k, s, 0, bigger,
                      label="output_size, int32 indices"),
               Sample(x, indices(padded), 3, 2, 1, label="kernel 3, padding 1"),
               Sample(x[0], indices(default)[0], k, label="unbatched"),
               Sample(x, indices(default).astype(np.float32), k, label="float indices",
                      raises=TypeError),
               Sample(x, indices(default)[..., :1], k, label="indices of another shape",
                      raises=ValueError),
               Sample(x, indices(default), k, None, 0, tuple(d + 3 for d in default),
                      label="output_size too large", raises=ValueError)]
        return out
    return make


# ---- PyTorch -----------------------------------------------------------------------------------

def _torch_avg(rank):
    def run(torch, x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
            count_include_pad=True, divisor_override=0):
        if not isinstance(padding, int) and len(padding) == 2 * rank:
            padding = tuple(padding[::2])
        fn = getattr(_F(torch), f"avg_pool{rank}d")
        extra = (divisor_override or None,) if rank > 1 else ()
        return fn(x, kernel_size, stride, padding, ceil_mode, count_include_pad, *extra)
    return run


def _torch_max3d(torch, x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                 return_indices=False):
    return _F(torch).max_pool3d(x, kernel_size, stride, padding, dilation, ceil_mode,
                                return_indices)


def _torch_adaptive(rank, how):
    def run(torch, x, output_size, return_indices=False):
        fn = getattr(_F(torch), f"adaptive_{how}_pool{rank}d")
        if how == "avg":
            return fn(x, output_size)
        return fn(x, output_size, return_indices)
    return run


def _torch_unpool(rank):
    def run(torch, x, indices, kernel_size, stride=None, padding=0, output_size=None):
        fn = getattr(_F(torch), f"max_unpool{rank}d")
        return fn(x, indices.long(), kernel_size, stride, padding, output_size)
    return run


def _indices_result(index_dtype):
    def rule(d, *_, return_indices=False):
        return (d, index_dtype) if return_indices else d
    return rule


_FLOAT_NOTE = {"dtypes": "floats only (MindSpore, PyTorch)"}
_TIES = ("tied maxima of a window share its gradient evenly (the reduction's rule; PyTorch "
         "gives it to the first); a window holding NaN gets a NaN gradient")
_EDGE_GRAD = {"grad:edge": Differs(_TIES)}
_NAN_INDEX = _EDGE_GRAD | {"value:edge": Differs(
    "the index of a window holding several NaN is the first NaN's (NumPy's argmax), "
    "PyTorch's the last one's")}
# the max of a window holding 0.0 and -0.0 may be either (they are equal): signed_zeros=False
_INDEX_NOTE = ("return_indices: the flat index over the input's spatial axes of the first "
               "maximum in row-major order (NaN counts as a maximum, padding never)")

op("avg_pool1d", prims=(), ref=_avg_ref(1), dtypes=FLOATS, samples=_avg1d_samples, tol=_TOL,
   torch=_torch_avg(1), errors=[
       ErrorCase(Sample(np.ones((1, 2, 3, 4)), 2), ValueError, "avg_pool1d:", "a 4-D input"),
       ErrorCase(Sample(np.ones((1, 2, 4), np.int32), 2), TypeError, "avg_pool1d:",
                 "an integer input")],
   notes=_FLOAT_NOTE | {
       "construction": "the window primitive over a height-1 image; a sum over each window "
                       "divided by a constant count"})
op("avg_pool3d", prims=(), ref=_avg_ref(3), dtypes=FLOATS, samples=_avg3d_samples, tol=_TOL,
   torch=_torch_avg(3), errors=[
       ErrorCase(Sample(np.ones((1, 2, 4, 4, 4)), 2, 1, 2), ValueError, "avg_pool3d:",
                 "padding over half the kernel")],
   notes=_FLOAT_NOTE | {
       "padding": "an int, 3 ints or MindSpore's 6 (front, back, top, bottom, left, right)",
       "construction": "one 2-D window extraction per kernel depth over the strided depth "
                       "planes folded into the batch"})
op("max_pool3d", prims=(), ref=_max_ref(3), dtypes=NUMERIC, samples=_max3d_samples,
   result=_indices_result(dt.int64), tol=_TOL, torch=_torch_max3d, signed_zeros=False,
   grad_samples=lambda rng, full: [
       Sample(_distinct(rng, (1, 2, 4, 5, 6), np.float64), 2, 2, 1, label="distinct"),
       Sample(_distinct(rng, (1, 1, 5, 5, 5), np.float64), 3, 2, 0, 2, True,
              label="distinct, dilation, ceil_mode")],
   torch_differs=_EDGE_GRAD, errors=[
       ErrorCase(Sample(np.ones((1, 2, 3, 3, 3)), 4), ValueError, "max_pool3d:",
                 "a kernel larger than the input"),
       ErrorCase(Sample(np.ones((1, 2, 3, 3, 3), bool), 2), TypeError, "max_pool3d:",
                 "a bool input")],
   notes={"ties": _TIES, "indices": _INDEX_NOTE,
                                    "dtypes": "bool is refused"})
op("lp_pool1d", prims=(), ref=_lp_ref(1), dtypes=NUMERIC, result=float_result,
   samples=_lp1d_samples, tol=_TOL,
   torch=lambda torch, x, p, k, s=None, ceil_mode=False: _F(torch).lp_pool1d(
       x, p, k, s, ceil_mode),
   errors=[ErrorCase(Sample(np.ones((1, 2, 6)), 0, 2), ValueError, "lp_pool1d:",
                     "norm_type 0")],
   notes={"dtypes": "integers compute in float32 (MindSpore); bool is refused",
          "NaN": "where x ** p is NaN (a fractional power of a negative number) the result is "
                 "NaN, as PyTorch (MindSpore 2.10 gives 0)"})
op("lp_pool2d", prims=(), ref=_lp_ref(2), dtypes=NUMERIC, result=float_result,
   samples=_lp2d_samples, tol=_TOL,
   torch=lambda torch, x, p, k, s=None, ceil_mode=False: _F(torch).lp_pool2d(
       x, p, k, s, ceil_mode),
   notes={"dtypes": "integers compute in float32 (MindSpore); bool is refused",
          "unbatched": "a (C, H, W) input is accepted (MindSpore 2.10 refuses it)"})
_MS_NAN = {"value:edge": "a window holding NaN gives NaN (max propagates NaN, as PyTorch); "
                        "MindSpore 2.10's CPU kernel skips NaN"}
_ADAPTIVE_NOTE = ("the input size need not be a multiple of the output size (MindSpore 2.10's "
                  "1-D functions refuse it); windows [floor(o*L/out), ceil((o+1)*L/out))")
op("adaptive_avg_pool1d", prims=(), ref=_adaptive_ref(1, "avg"), dtypes=FLOATS, tol=_TOL,
   samples=_adaptive_samples(1), torch=_torch_adaptive(1, "avg"),
   notes={"windows": _ADAPTIVE_NOTE, "dtypes": "floats (MindSpore 2.10: float16 / float32)"})
op("adaptive_avg_pool3d", prims=(), ref=_adaptive_ref(3, "avg"), dtypes=FLOATS, tol=_TOL,
   samples=_adaptive_samples(3), torch=_torch_adaptive(3, "avg"),
   notes={"windows": _ADAPTIVE_NOTE})
op("adaptive_max_pool1d", prims=(), ref=_adaptive_ref(1, "max"), dtypes=NUMERIC, tol=_TOL,
   samples=_adaptive_samples(1, True), torch=_torch_adaptive(1, "max"), signed_zeros=False,
   ms_differs=_MS_NAN,
   torch_differs=_EDGE_GRAD,
   notes={"windows": _ADAPTIVE_NOTE, "ties": _TIES,
          "dtypes": "every dtype but bool (MindSpore 2.10: float16 / float32)"})
op("adaptive_max_pool2d", prims=(), ref=_adaptive_ref(2, "max"), dtypes=NUMERIC, tol=_TOL,
   samples=_adaptive_samples(2, True), torch=_torch_adaptive(2, "max"), signed_zeros=False,
   ms_differs=_MS_NAN,
   errors=[ErrorCase(Sample(np.ones((1, 2, 4, 4)), (2, 0)), ValueError,
                     "adaptive_max_pool2d:", "an output size 0")],
   result=_indices_result(dt.int64), torch_differs=_NAN_INDEX,
   notes={"windows": _ADAPTIVE_NOTE, "ties": _TIES, "indices": _INDEX_NOTE,
          "dtypes": "every dtype but bool (MindSpore 2.10's CPU kernel: floats)"})
op("adaptive_max_pool3d", prims=(), ref=_adaptive_ref(3, "max"), dtypes=NUMERIC, tol=_TOL,
   samples=_adaptive_samples(3, True), torch=_torch_adaptive(3, "max"), signed_zeros=False,
   ms_differs=_MS_NAN,
   result=_indices_result(dt.int32), torch_differs=_NAN_INDEX,
   notes={"windows": _ADAPTIVE_NOTE, "ties": _TIES,
          "indices": _INDEX_NOTE + "; int32 as MindSpore 2.10 (PyTorch: int64)"})
for _rank in (1, 2, 3):
    op(f"max_unpool{_rank}d", prims=(), ref=_unpool_ref(_rank), dtypes=ALL, errors=[
        ErrorCase(Sample(np.ones((1, 2) + (2,) * _rank), np.zeros((1, 2) + (2,) * _rank), 2),
                  TypeError, f"max_unpool{_rank}d:", "float indices")],
       samples=_unpool_samples(_rank), result=lambda d, i: d, torch=_torch_unpool(_rank),
       notes={"indices": "int32 or int64 flat positions over the output's spatial axes; "
                         "one outside the output raises IndexError (a negative one counts "
                         "from the end; MindSpore raises)",
              "dtypes": "any (the values are copied)"})


# ---- fractional max pooling (windows fixed by the samples) ---------------------------------------

def _intervals(u, size, k, out):
    """Graham's window starts, written out as PyTorch documents them."""
    if out == 1:
        return [size - k]
    alpha = (size - k) / (out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(out - 1)] + [size - k]


def _fractional_ref(rank):
    order = {2: (1, 0), 3: (0, 1, 2)}[rank]         # which sample each axis reads

    def ref(x, kernel_size, output_size, output_ratio, _random_samples, return_indices=False):
        batched = x.ndim == rank + 2
        x = x if batched else x[None]
        sizes = x.shape[2:]
        kernel = _tuple(kernel_size, rank)
        out = _tuple(output_size, rank) if output_size is not None else tuple(
            int(n * r) for n, r in zip(sizes, _tuple(output_ratio, rank)))
        values = np.zeros(x.shape[:2] + out, x.dtype)
        indices = np.zeros(x.shape[:2] + out, np.int64)
        for n, c in np.ndindex(*x.shape[:2]):
            u = _random_samples[n, c]
            starts = [_intervals(u[order[d]], sizes[d], kernel[d], out[d]) for d in range(rank)]
            for pos in np.ndindex(*out):
                inside = [range(starts[d][p], starts[d][p] + kernel[d]) for d, p in enumerate(pos)]
                coords = list(itertools.product(*inside))
                vals = np.array([x[(n, c) + co] for co in coords])
                first = int(np.argmax(vals))
                values[(n, c) + pos] = vals[first]
                indices[(n, c) + pos] = np.ravel_multi_index(coords[first], sizes)
        result = (values, indices) if return_indices else values
        if batched:
            return result
        return tuple(r[0] for r in result) if return_indices else result[0]
    return ref


def _fractional_samples(rank):
    shape = {2: (2, 3, 9, 11), 3: (1, 2, 7, 8, 9)}[rank]

    def make(dtype, rng, full):
        x = _distinct(rng, shape, dtype)
        u = rng.random(shape[:2] + (rank,)).astype(dtype)
        size = (4,) * rank
        # the samples are an input (ndarrays become tensors only among the arguments)
        # (the entry's caller below takes them before return_indices, a keyword here)
        return [Sample(x, 3, size, None, u, label="output_size"),
                Sample(x, 2, None, (0.5,) * rank, u, return_indices=True,
                       label="output_ratio, indices"),
                Sample(x[0], 2, size, None, u[:1], return_indices=True, label="unbatched"),
                Sample(x, 3, None, None, u, label="no output size", raises=ValueError),
                Sample(x, 3, (20,) * rank, None, u, label="output too large",
                       raises=ValueError),
                Sample(x, 3, size, None, u[..., :1], label="samples of another shape",
                       raises=ValueError)]
    return make


def _torch_fractional(rank):
    def run(torch, x, kernel_size, output_size, output_ratio, samples, return_indices=False):
        fn = getattr(_F(torch), f"fractional_max_pool{rank}d")
        return fn(x, kernel_size, output_size, output_ratio, return_indices,
                  _random_samples=samples)
    return run


def _fractional_call(rank):
    """The op with its samples before ``return_indices`` (the table's result rule reads
    ``return_indices`` from the keywords; samples are arrays, so arguments)."""
    def call(x, kernel_size, output_size, output_ratio, samples, return_indices=False):
        fn = getattr(tj.ops, f"fractional_max_pool{rank}d")
        return fn(x, kernel_size, output_size, output_ratio, return_indices, samples)
    return call


for _rank in (2, 3):
    op(f"fractional_max_pool{_rank}d", op=_fractional_call(_rank), prims=(),
       ref=_fractional_ref(_rank),
       dtypes=(dt.float32, dt.float64), only_declared=False, samples=_fractional_samples(_rank),
       result=_indices_result(dt.int64), torch=_torch_fractional(_rank), nondiff=(1,),
       ms=None,    # MindSpore's results: tests/nn/test_pooling_extra.py (given samples)
       notes={"windows": "Graham's pseudo-random windows from _random_samples (N, C, rank) "
                         "in the input's dtype (a 2-D input's first sample is the width's); "
                         "without them drawn from tensorjit's generator (MindSpore draws from "
                         "its own)",
              "dtypes": "every dtype but bool runs; the table checks float32 / float64, "
                        "where the samples are exact (MindSpore wants them in the input's "
                        "dtype)"})
