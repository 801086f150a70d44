"""Shared sample-input generators for the op table.

Every generator returns a function ``(dtype, rng, full) -> [Sample]``; ``full`` (``pytest
--full``, the nightly depth) adds larger and more varied inputs. Between them they give
every op random values, NaN, +-inf, +-0, subnormals, values near overflow, integers at
their limits, the empty shapes (0,) and (2, 0), 0-d tensors and broadcasting shapes.
"""
import ml_dtypes
import numpy as np

from tensorjit import dtype as dt

from .core import Sample


def finfo(dtype):
    return ml_dtypes.finfo(dtype) if dtype == dt.bfloat16 else np.finfo(dtype)


def specials(dtype):
    """A 1-D array of the edge values of ``dtype``."""
    if dtype == dt.bool_:
        return np.array([True, False, True])
    if dt.is_int(dtype):
        info = np.iinfo(dtype)
        small = [0, 1, 2, 3] if info.min == 0 else [0, 1, -1, 2, -3]
        return np.array(small + [info.min, info.min + 1, info.max, info.max - 1], dtype)
    f = finfo(dtype)
    tiny_sub = float(f.smallest_subnormal)
    values = [np.nan, np.inf, -np.inf, 0.0, -0.0, tiny_sub, -tiny_sub, float(f.tiny),
              float(f.max), -float(f.max), float(f.max) / 2, 1.0, -1.0, 0.5, -2.5, 3.0]
    return np.array(values, np.float64).astype(dtype)


def extreme(*arrays):
    """Where any operand is not an ordinary number: NaN, +-inf, +-0, subnormal or tiny,
    or so large that squaring or dividing by a small number overflows. PyTorch's formulas
    for gradients (and some values) round differently there; the table compares with it
    only elsewhere and says so."""
    mask = False
    for a in arrays:
        a = np.asarray(a, np.float64)
        mask = mask | ~np.isfinite(a) | (np.abs(a) < 1e-30) | (np.abs(a) > 1e30)
    return mask


def random(rng, shape, dtype, lo=-2.0, hi=2.0):
    """Random values of ``dtype``: uniform in [lo, hi) for floats, integers in [lo, hi]
    (clipped to the dtype's range) for integers, coin flips for bool."""
    if dtype == dt.bool_:
        return np.asarray(rng.random(shape) < 0.5)
    if dt.is_int(dtype):
        info = np.iinfo(dtype)
        lo, hi = max(int(np.floor(lo)), info.min), min(int(np.ceil(hi)), info.max)
        return np.asarray(rng.integers(lo, hi + 1, shape)).astype(dtype)
    return np.asarray(rng.uniform(lo, hi, shape)).astype(dtype)


def _int_range(dtype, domain):
    lo, hi = domain
    if np.iinfo(dtype).min == 0:
        lo = max(lo, 0)
    return lo, hi


def unary(domain=(-2.0, 2.0), int_domain=(-5, 5), edges=True):
    """One-operand ops: random values in ``domain`` (floats) / ``int_domain`` (integers),
    0-d, empty shapes, and the dtype's edge values."""
    def make(dtype, rng, full):
        lo, hi = domain if dt.is_float(dtype) or dtype == dt.bool_ else \
            _int_range(dtype, int_domain)
        out = [Sample(random(rng, (3, 4), dtype, lo, hi), label="random"),
               Sample(random(rng, (), dtype, lo, hi), label="0-d"),
               Sample(np.zeros((0,), dtype), label="empty"),
               Sample(np.zeros((2, 0), dtype), label="empty 2-d")]
        if edges:
            out.append(Sample(specials(dtype), label="edge", smooth=False))
        if full:
            out += [Sample(random(rng, (4, 5, 6), dtype, lo, hi), label="random 3-d"),
                    Sample(random(rng, (64,), dtype, lo, hi), label="random long")]
        return out
    return make


BROADCAST_SHAPES = [((3, 1), (1, 4)), ((), (2, 3)), ((4,), (3, 4)), ((2, 3), ())]


def binary(domain=(-2.0, 2.0), other=None, int_domain=(-5, 5), other_int=None, edges=True):
    """Two-operand elementwise ops: equal shapes, broadcasting, 0-d, empty shapes and,
    for ``edges``, every pair of edge values (an outer grid)."""
    other = other or domain
    other_int = other_int or int_domain

    def make(dtype, rng, full):
        is_num = dt.is_float(dtype) or dtype == dt.bool_
        xd = domain if is_num else _int_range(dtype, int_domain)
        yd = other if is_num else _int_range(dtype, other_int)

        def pair(sx, sy, label, smooth=True):
            return Sample(random(rng, sx, dtype, *xd), random(rng, sy, dtype, *yd),
                          label=label, smooth=smooth)
        out = [pair((3, 4), (3, 4), "random")]
        out += [pair(a, b, f"broadcast {a}x{b}") for a, b in BROADCAST_SHAPES[:2 + 2 * full]]
        out += [pair((0,), (0,), "empty"), pair((2, 0), (1, 0), "empty broadcast"),
                pair((2, 0), (), "empty with 0-d")]
        if edges:
            e = specials(dtype)
            out.append(Sample(np.repeat(e, e.size), np.tile(e, e.size), label="edge grid",
                              smooth=False))
        if full:
            out.append(pair((2, 3, 4), (3, 1), "random 3-d"))
        return out
    return make


def ternary(make_args):
    """Ops of three or more operands whose samples the entry builds itself:
    ``make_args(dtype, rng, shapes)`` returns the arguments for operand shapes."""
    def make(dtype, rng, full):
        shapes = [((3, 4),) * 3, ((3, 1), (1, 4), ()), ((0,),) * 3, ((2, 0), (1, 0), ())]
        return [Sample(*make_args(dtype, rng, s), label=f"shapes {s}") for s in shapes]
    return make


def edge_rows(dtype, width=3):
    """One row per edge value, the rest of each row ordinary values: a reduction over the
    rows shows how each edge value propagates."""
    e = specials(dtype)
    body = np.ones((e.size, width), dtype)
    body[:, 0] = e
    return body


def reduction(domain=(-2.0, 2.0), int_domain=(-5, 5), keepdims=True, multi_axis=True,
              empty_axis=True, edges=True, axis_none=True, empty_raises=None, extra=None):
    """Reductions called as ``op(x, axis, keepdims)``: every axis form (None, int,
    negative, tuple), keepdims, 0-d, empty inputs, a reduction over an empty axis (which
    must raise ``empty_raises`` when given) and rows of edge values. ``extra``: keyword
    arguments added to every sample (``dict(ddof=1)``), or a list of such dicts, each
    giving its own samples."""
    extras = extra if isinstance(extra, list) else [extra or {}]

    def make(dtype, rng, full):
        lo, hi = domain if dt.is_float(dtype) or dtype == dt.bool_ else \
            _int_range(dtype, int_domain)
        out = []
        for kw in extras:
            tag = "".join(f" {k}={v}" for k, v in kw.items())

            def s(shape, axis, keep=False, label="", smooth=True, raises=None, values=None):
                x = random(rng, shape, dtype, lo, hi) if values is None else values
                args = (x, axis) + ((keep,) if keepdims else ())
                return Sample(*args, label=(label or f"{shape} axis={axis}") + tag,
                              smooth=smooth, raises=raises, **kw)
            out += [s((3, 4), 1), s((3, 4), 0, True), s((3, 4), -1), s((5,), 0, label="vector")]
            if axis_none:
                out += [s((3, 4), None), s((), None, label="0-d")]
            if multi_axis:
                out.append(s((2, 3, 4), (0, 2), label="axes (0, 2)"))
            if empty_axis:
                out += [s((2, 0), 1, label="empty axis", raises=empty_raises),
                        s((2, 0), 0, label="over a non-empty axis of an empty tensor")]
            if edges:
                out.append(s(None, 1, label="edge rows", smooth=False, values=edge_rows(dtype)))
            if full:
                out += [s((4, 5, 6), 1, label="3-d"), s((300,), 0, label="long"),
                        s((2, 3, 4), (1, 2) if multi_axis else 2, True, label="3-d keepdims")]
        return out
    return make


def fixed(*samples_by_dtype):
    """Samples written out by the entry: ``fixed(lambda dtype, rng: [Sample, ...])``."""
    def make(dtype, rng, full):
        out = []
        for f in samples_by_dtype:
            out += list(f(dtype, rng))
        return out
    return make


def grad_unary(domain=(-2.0, 2.0)):
    """float64 gradient samples of a one-operand op, inside ``domain``."""
    def make(rng, full):
        return [Sample(rng.uniform(*domain, (3, 4)), label="random"),
                Sample(np.asarray(rng.uniform(*domain, ())), label="0-d"),
                Sample(np.zeros((0,)), label="empty")]
    return make


def mixed(rng, shape, dtype):
    """Random values of ``dtype`` with its edge values written over the first elements:
    ops that only move data (shapes, indexing) must move NaN, -0.0 and limits intact."""
    out = random(rng, shape, dtype)
    if out.size:
        flat = out.reshape(-1)
        e = specials(dtype)[:flat.size]
        flat[:e.size] = rng.permutation(e)
    return out


def structural(build):
    """Samples of ops that move data: ``build(arr, full)`` returns ``(label, args, kwargs)``
    cases, ``arr(*shape)`` making an operand. Values are ``mixed`` (edge values included);
    the float64 gradient samples are the same cases with plain random values."""
    def samples(dtype, rng, full):
        return [Sample(*args, label=label, smooth=False, **kw)
                for label, args, kw in build(lambda *shape: mixed(rng, shape, dtype), full)]

    def grad_samples(rng, full):
        return [Sample(*args, label=label, **kw)
                for label, args, kw in build(lambda *shape: rng.standard_normal(shape), full)]
    return dict(samples=samples, grad_samples=grad_samples)


def case(label, *args, **kwargs):
    return label, args, kwargs
