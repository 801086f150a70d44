"""Cumulative ops along an axis: cumsum, cumprod, cummax / cummin (values and indices),
logcumsumexp -- primitives with their VJPs, and MindSpore's functional API.

``cumsum``, ``cumprod`` and ``logcumsumexp`` take ``reverse`` (accumulate from the end), so
each VJP is the same family of scans run the other way:

    cumsum:        dx = reverse cumsum of ct
    cumprod:       dx_i = sum_{k >= i} ct_k * prod_{j <= k, j != i} x_j, zero-safe (below)
    logcumsumexp:  dx_i = sum_{k >= i} ct_k * exp(x_i - out_k), in log space per sign of ct
    cummax/cummin: ct goes to the index each running extremum came from (a scatter-add)
"""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH, to_array
from . import batching
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from .indexing import index_add_p
from .reduction import _accumulation_dtype, _WIDER


def _axis_rule(name, result_dtype=None):
    def rule(x, axis, **params):
        if x.ndim == 0 or not 0 <= axis < x.ndim:
            raise IndexError(f"{name}: axis {axis} out of range for {x}")
        return ShapedArray(x.shape, result_dtype or x.dtype)
    return rule


def _scan(ufunc, x, axis, reverse):
    """``ufunc.accumulate`` along ``axis`` (from the end with ``reverse``), float16 /
    bfloat16 in float32 and rounded once."""
    wide = x.astype(_WIDER[x.dtype]) if x.dtype in _WIDER else x
    if reverse:
        wide = np.flip(wide, axis)
    out = ufunc.accumulate(wide, axis=axis, dtype=wide.dtype)
    return to_array(np.flip(out, axis) if reverse else out, x.dtype)


# ---- cumsum ---------------------------------------------------------------------------

def _cumsum_vjp(ct, out, x, axis, reverse):
    return (cumsum_p.bind(ct, axis=axis, reverse=not reverse),)


_SCAN = dict(aliasing=FRESH, batch=batching.along_axis)
cumsum_p = Primitive("cumsum", lambda x, axis, reverse: _scan(np.add, x, axis, reverse),
                     _axis_rule("cumsum"), _cumsum_vjp, **_SCAN)


# ---- cumprod --------------------------------------------------------------------------

def _cumprod_vjp(ct, out, x, axis, reverse):
    """Before the first zero (in scan order) ``x_i`` divides the prefix products:
    dx_i = revcumsum(ct * out)_i / x_i. At the first zero, the same sum with that zero
    taken as 1 (its products skip it). After it every product holds the zero: 0."""
    is_zero = _ew.eq(x, 0)
    zeros_so_far = cumsum_p.bind(_ew.cast(is_zero, dt.int64), axis=axis, reverse=reverse)
    before = _ew.eq(zeros_so_far, 0)
    first_zero = _ew.logical_and(is_zero, _ew.eq(zeros_so_far, 1))
    one = _ew.ones_like(x)
    safe_x = _ew.where(before, x, one)
    back = not reverse
    ahead = _ew.div(cumsum_p.bind(_ew.mul(ct, out), axis=axis, reverse=back), safe_x)
    skipped = cumprod_p.bind(_ew.where(first_zero, one, x), axis=axis, reverse=reverse)
    at_zero = cumsum_p.bind(_ew.mul(ct, skipped), axis=axis, reverse=back)
    return (_ew.where(before, ahead, _ew.where(first_zero, at_zero, _ew.zeros_like(x))),)


cumprod_p = Primitive("cumprod", lambda x, axis, reverse: _scan(np.multiply, x, axis, reverse),
                      _axis_rule("cumprod"), _cumprod_vjp, **_SCAN)


# ---- logcumsumexp ---------------------------------------------------------------------

def _logcumsumexp_vjp(ct, out, x, axis, reverse):
    """dx_i = sum_{k >= i} ct_k exp(x_i - out_k) = exp(x_i + L(log ct_k - out_k)) with L the
    reverse logcumsumexp, which needs ct > 0. The map is linear in ct, so it is computed as
    g(ct + t) - g(t) for a constant t > |ct| (per row, no gradient): every logarithm is of a
    positive number, also at ct = 0, where forward mode (jvp) differentiates this rule."""
    if x.shape[axis] == 0:
        return (_ew.zeros_like(x),)
    from .reduction import amax
    back = not reverse
    tiny = float(np.finfo(np.float32).tiny) if x.dtype != dt.float64 else 1e-300
    shift = _ew.stop_gradient(_ew.add(_ew.mul(amax(_ew.abs(ct), axis, keepdims=True), 2.0),
                                      tiny))

    def through_logs(c):
        return _ew.exp(_ew.add(x, logcumsumexp_p.bind(_ew.sub(_ew.log(c), out), axis=axis,
                                                      reverse=back)))
    return (_ew.sub(through_logs(_ew.add(ct, shift)),
                    through_logs(_shape.broadcast_to(shift, tuple(x.shape)))),)


def _logcumsumexp_impl(x, axis, reverse):
    return _scan(np.logaddexp, x, axis, reverse)


logcumsumexp_p = Primitive("logcumsumexp", _logcumsumexp_impl, _axis_rule("logcumsumexp"),
                           _logcumsumexp_vjp, **_SCAN)


# ---- cummax / cummin ------------------------------------------------------------------

def _running_extremum(ufunc):
    def impl(x, axis):
        values = ufunc.accumulate(x, axis=axis)
        # an index moves to k where x_k is the running extremum: ties take the later
        # position, and once NaN is reached every later NaN (MindSpore, PyTorch)
        hit = values == x
        if x.dtype.kind == "f" or x.dtype == dt.bfloat16:
            hit |= np.isnan(x)
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        positions = np.arange(x.shape[axis], dtype=np.int64).reshape(shape)
        index = np.maximum.accumulate(np.where(hit, positions, 0), axis=axis)
        return values, index
    return impl


def _extremum_rule(name):
    rule = _axis_rule(name)

    def both(x, axis):
        values = rule(x, axis=axis)
        return values, ShapedArray(x.shape, dt.int64)
    return both


def _extremum_vjp(cts, outs, x, axis):
    ct, _ = cts
    _, index = outs
    coords = []
    for a in range(x.ndim):
        if a == axis:
            coords.append(index)
        else:
            shape = [1] * x.ndim
            shape[a] = x.shape[a]
            coords.append(coerce.constant(np.arange(x.shape[a], dtype=np.int64).reshape(shape)))
    return (index_add_p.bind(_ew.zeros_like(x), ct, *coords, spec=(("t",),) * x.ndim),)


def _extremum_batch(prim, dims, x, axis):
    return prim.bind(batching.to_front(x, dims[0]), axis=axis + 1), (0, 0)


_EXTREMUM = dict(multiple_results=True, aliasing=FRESH, batch=_extremum_batch)
cummax_p = Primitive("cummax", _running_extremum(np.maximum), _extremum_rule("cummax"),
                     _extremum_vjp, **_EXTREMUM)
cummin_p = Primitive("cummin", _running_extremum(np.minimum), _extremum_rule("cummin"),
                     _extremum_vjp, **_EXTREMUM)


# ---- functional API ---------------------------------------------------------------------

def _along(prim, x, axis, op, **params):
    """Bind ``prim`` along ``axis``; a 0-d tensor is scanned as one element."""
    axis = coerce.normalize_axis(axis, x.ndim, op)
    if x.ndim == 0:
        out = prim.bind(_shape.reshape(x, (1,)), axis=0, **params)
        if prim.multiple_results:
            return tuple(_shape.reshape(o, ()) for o in out)
        return _shape.reshape(out, ())
    return prim.bind(x, axis=axis, **params)


def _accumulating(x, dtype, op):
    x = coerce.as_tensor(x, op=op)
    return _ew.cast(x, dt.as_dtype(dtype) if dtype is not None else _accumulation_dtype(x.dtype))


def cumsum(x, axis, dtype=None):
    """Running sums along ``axis``; bool and integers narrower than 64 bits accumulate in
    int64, as ``sum`` does (MindSpore 2.10's cumsum keeps them; NumPy and PyTorch widen)."""
    return _along(cumsum_p, _accumulating(x, dtype, "cumsum"), axis, "cumsum", reverse=False)


def cumprod(input, dim, dtype=None):
    """Running products along ``dim`` (bool and integers in int64, as MindSpore)."""
    return _along(cumprod_p, _accumulating(input, dtype, "cumprod"), dim, "cumprod",
                  reverse=False)


def _ordered(x, op):
    x = coerce.as_tensor(x, op=op)
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    return x


def cummax(input, axis):
    """(running maximum, the index it came from) along ``axis``; indices are int64, ties
    take the later index and NaN propagates (MindSpore, PyTorch)."""
    return _along(cummax_p, _ordered(input, "cummax"), axis, "cummax")


def cummin(input, axis):
    """(running minimum, the index it came from) along ``axis`` (see ``cummax``)."""
    return _along(cummin_p, _ordered(input, "cummin"), axis, "cummin")


def logcumsumexp(input, axis):
    """log(cumsum(exp(x))) along ``axis``, without overflow (bool and integers in float32)."""
    x = coerce.as_tensor(input, op="logcumsumexp")
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.DEFAULT_FLOAT)
    return _along(logcumsumexp_p, x, axis, "logcumsumexp", reverse=False)
