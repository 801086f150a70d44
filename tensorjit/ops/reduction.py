"""Reduction primitives (sum, max, min, prod, argmax, argmin, any, all) and the
functional reductions built on them (mean, var, std, logsumexp, ...)."""
import builtins

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH, to_array as _to_array
from . import coerce
from . import batching
from . import elementwise as _ew
from . import shape as _shape
from . import blas


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce_rule(name, result_dtype=None, nonempty=False):
    def rule(x, axes, keepdims):
        for a in axes:
            if not 0 <= a < x.ndim:
                raise IndexError(f"{name}: axis {a} out of range for {x}")
            if nonempty and x.shape[a] == 0:
                raise ValueError(f"{name}: cannot reduce over axis {a} of size 0 in {x}")
        return ShapedArray(_reduced_shape(x.shape, axes, keepdims), result_dtype or x.dtype)
    return rule


def _expand_to(ct, x_shape, axes, keepdims):
    """Broadcast a reduced cotangent back over the reduced axes."""
    if not keepdims:
        ct = _shape.reshape(ct, _reduced_shape(x_shape, axes, True))
    return _shape.broadcast_to(ct, x_shape)


def _sum_vjp(ct, out, x, axes, keepdims):
    return (_expand_to(ct, x.shape, axes, keepdims),)


_WIDER = {dt.float16: dt.float32, dt.bfloat16: dt.float32}


_COLUMN_SUM_MIN_ROWS = 64


def _column_sum(x, axes, keepdims):
    """The sum over leading axes of a contiguous float array (a bias gradient: the sum over
    rows of a (rows, features) array) as a product with a row of ones: BLAS reads the
    rows once, in blocks, on every core (2-4x faster than ``np.sum``, which adds one row
    at a time on one core, and more accurate: its partial sums are shorter)."""
    if x.dtype not in (np.float32, np.float64) or not x.flags.c_contiguous or \
            tuple(axes) != tuple(range(len(axes))) or not 0 < len(axes) < x.ndim:
        return None
    rows = int(np.prod(x.shape[:len(axes)]))
    if rows < _COLUMN_SUM_MIN_ROWS or x.size == 0:
        return None
    total = blas.matmul(np.ones((1, rows), x.dtype), x.reshape(rows, x.size // rows))
    return total.reshape(_reduced_shape(x.shape, axes, keepdims))


def _sum_impl(x, axes, keepdims):
    columns = _column_sum(x, axes, keepdims)
    if columns is not None:
        return columns
    # float16 / bfloat16 accumulate in float32 and round once (as MindSpore and PyTorch):
    # partial sums in 8 bits of mantissa lose the small terms
    wide = _WIDER.get(x.dtype, x.dtype)
    return _to_array(np.sum(x, axis=axes, keepdims=keepdims, dtype=wide), x.dtype)


def _prod_impl(x, axes, keepdims):
    wide = _WIDER.get(x.dtype, x.dtype)
    return _to_array(np.prod(x, axis=axes, keepdims=keepdims, dtype=wide), x.dtype)


def _sum_rule(x, axes, keepdims):
    return _reduce_rule("sum")(x, axes, keepdims)


def _extremum_vjp(ct, out, x, axes, keepdims):
    out_b = _expand_to(out, x.shape, axes, keepdims)
    mask = _ew.cast(_ew.eq(x, out_b), x.dtype)
    count = reduce_sum_p.bind(mask, axes=axes, keepdims=True)
    return (_ew.mul(_ew.div(mask, count), _expand_to(ct, x.shape, axes, keepdims)),)


def _prod_vjp(ct, out, x, axes, keepdims):
    """d prod / d x_i is the product of the other elements: ``out / x_i`` while no element
    is 0; with one zero, the product of the non-zero elements at the zero and 0 elsewhere;
    with more, 0 everywhere (as MindSpore and PyTorch)."""
    is_zero = _ew.eq(x, 0)
    zeros = reduce_sum_p.bind(_ew.cast(is_zero, dt.int64), axes=axes, keepdims=True)
    nonzero_prod = reduce_prod_p.bind(_ew.where(is_zero, _ew.ones_like(x), x), axes=axes,
                                      keepdims=True)
    safe_x = _ew.where(is_zero, _ew.ones_like(x), x)
    out_b = _expand_to(out, x.shape, axes, keepdims)
    at_one_zero = _ew.where(_ew.logical_and(is_zero, _ew.eq(zeros, 1)), nonzero_prod,
                            _ew.zeros_like(x))
    others = _ew.where(_ew.eq(zeros, 0), _ew.div(out_b, safe_x), at_one_zero)
    return (_ew.mul(_expand_to(ct, x.shape, axes, keepdims), others),)


def _arg_impl(fn):
    def impl(x, axis, keepdims):
        out = fn(x, axis=axis)
        if keepdims and np.ndim(x):          # (a 0-d input gives a 0-d index, as the rule says)
            out = np.expand_dims(out, axis)
        return np.asarray(out, dtype=np.int64)
    return impl


def _arg_rule(name):
    def rule(x, axis, keepdims):
        if not 0 <= axis < (x.ndim or 1):      # (``max`` is this module's reduction)
            raise IndexError(f"{name}: axis {axis} out of range for {x}")
        if x.ndim and x.shape[axis] == 0:
            raise ValueError(f"{name}: cannot take {name} over an empty axis of {x}")
        if x.ndim == 0:
            return ShapedArray((), dt.int64)
        return ShapedArray(_reduced_shape(x.shape, (axis,), keepdims), dt.int64)
    return rule


def _arg_batch(prim, dims, x, axis, keepdims):
    x = batching.to_front(x, dims[0])
    if x.ndim == 1:         # 0-d examples: the index is 0 (the rule gives a 0-d result)
        x = _shape.reshape(x, (x.shape[0], 1))
        return prim.bind(x, axis=1, keepdims=False), 0
    return prim.bind(x, axis=axis + 1, keepdims=keepdims), 0


_REDUCTION = dict(aliasing=FRESH, batch=batching.reduction)
reduce_sum_p = Primitive("reduce_sum", _sum_impl, _sum_rule, _sum_vjp, **_REDUCTION)
reduce_max_p = Primitive("reduce_max", lambda x, axes, keepdims: np.max(x, axis=axes, keepdims=keepdims),
                         _reduce_rule("reduce_max", nonempty=True), _extremum_vjp,
                         **_REDUCTION)
reduce_min_p = Primitive("reduce_min", lambda x, axes, keepdims: np.min(x, axis=axes, keepdims=keepdims),
                         _reduce_rule("reduce_min", nonempty=True), _extremum_vjp,
                         **_REDUCTION)
reduce_prod_p = Primitive("reduce_prod", _prod_impl, _reduce_rule("reduce_prod"), _prod_vjp,
                          **_REDUCTION)
reduce_any_p = Primitive("reduce_any", lambda x, axes, keepdims: np.any(x, axis=axes, keepdims=keepdims),
                         _reduce_rule("reduce_any", dt.bool_), lambda ct, out, x, **p: (None,),
                         **_REDUCTION)
reduce_all_p = Primitive("reduce_all", lambda x, axes, keepdims: np.all(x, axis=axes, keepdims=keepdims),
                         _reduce_rule("reduce_all", dt.bool_), lambda ct, out, x, **p: (None,),
                         **_REDUCTION)
argmax_p = Primitive("argmax", _arg_impl(np.argmax), _arg_rule("argmax"),
                     lambda ct, out, x, **p: (None,), aliasing=FRESH, batch=_arg_batch)
argmin_p = Primitive("argmin", _arg_impl(np.argmin), _arg_rule("argmin"),
                     lambda ct, out, x, **p: (None,), aliasing=FRESH, batch=_arg_batch)


# ---------------------------------------------------------------------------------------
# functional API

def _reduce(prim, input, axis, keepdims, name):
    x = coerce.as_tensor(input, op=name)
    axes = coerce.normalize_axes(axis, x.ndim, name)
    if not axes and prim is not reduce_any_p and prim is not reduce_all_p:
        coerce.shape_decision()          # (axis=None of a 0-d tensor)
        return x
    return prim.bind(x, axes=axes, keepdims=bool(keepdims))


_WIDENED = (dt.bool_, dt.int8, dt.int16, dt.int32, dt.uint8)


def _accumulation_dtype(dtype):
    """The dtype sums and products accumulate in (MindSpore 2.10's ``sum`` / ``prod``):
    bool, the signed integers and uint8 widen to int64; uint16 / uint32 / uint64 keep
    their dtype (MindSpore's rule, recorded in tests/opinfo/mindspore_2_10.json)."""
    return dt.int64 if dtype in _WIDENED else dtype


def _accumulating(input, dtype, op):
    x = coerce.as_tensor(input, op=op)
    return _ew.cast(x, dtype if dtype is not None else _accumulation_dtype(x.dtype))


def sum(input, axis=None, keepdims=False, *, dtype=None):
    x = _accumulating(input, dtype, "sum")
    return _reduce(reduce_sum_p, x, axis, keepdims, "sum")


def mean(input, axis=None, keep_dims=False, *, keepdims=None):
    keepdims = keep_dims if keepdims is None else keepdims
    x = coerce.as_tensor(input, op="mean")
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.DEFAULT_FLOAT)
    axes = coerce.normalize_axes(axis, x.ndim, "mean")
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    total = _reduce(reduce_sum_p, x, axes, keepdims, "mean")
    return _ew.mul(total, 1.0 / count) if count else _ew.div(total, 0.0)


def amax(input, axis=None, keepdims=False):
    return _reduce(reduce_max_p, input, axis, keepdims, "amax")


def amin(input, axis=None, keepdims=False):
    return _reduce(reduce_min_p, input, axis, keepdims, "amin")


def prod(input, axis=None, keep_dims=False, *, keepdims=None, dtype=None):
    keepdims = keep_dims if keepdims is None else keepdims
    return _reduce(reduce_prod_p, _accumulating(input, dtype, "prod"), axis, keepdims, "prod")


def any(input, axis=None, keep_dims=False, *, keepdims=None):
    keepdims = keep_dims if keepdims is None else keepdims
    return _reduce(reduce_any_p, _ew._as_bool(input, "any"), axis, keepdims, "any")


def all(input, axis=None, keep_dims=False, *, keepdims=None):
    keepdims = keep_dims if keepdims is None else keepdims
    return _reduce(reduce_all_p, _ew._as_bool(input, "all"), axis, keepdims, "all")


def _arg(prim, input, axis, keepdims, name):
    x = coerce.as_tensor(input, op=name)
    if axis is None:
        flat = _shape.reshape(x, (-1,))
        out = prim.bind(flat, axis=0, keepdims=False)
        return _shape.reshape(out, (1,) * x.ndim) if keepdims else out
    return prim.bind(x, axis=coerce.normalize_axis(axis, x.ndim, name), keepdims=bool(keepdims))


def argmax(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    axis = dim if axis is None else axis
    return _arg(argmax_p, input, axis, keepdim if keepdims is None else keepdims, "argmax")


def argmin(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    axis = dim if axis is None else axis
    return _arg(argmin_p, input, axis, keepdim if keepdims is None else keepdims, "argmin")


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over ``axis`` (MindSpore's Tensor.max returns values only)."""
    return amax(input, axis, keepdims)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    return amin(input, axis, keepdims)


def var(input, axis=None, ddof=0, keepdims=False):
    x = coerce.as_tensor(input, op="var")
    out = _variance(x, axis, ddof, keepdims)
    return _ew.cast(out, x.dtype) if x.dtype in _WIDER else out


def _variance(x, axis, ddof, keepdims):
    """The variance in the dtype it is computed in: float16 / bfloat16 in float32 (their
    squares overflow past |x| ~ 256), bool and integers in float32."""
    x = _ew.cast(x, _WIDER[x.dtype]) if x.dtype in _WIDER else x
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.DEFAULT_FLOAT)
    axes = coerce.normalize_axes(axis, x.ndim, "var")
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    centered = _ew.sub(x, mean(x, axes, keep_dims=True))
    total = sum(_ew.mul(centered, centered), axes, keepdims)
    # no degrees of freedom left (an empty axis, ddof >= count): 0 / 0 is NaN (NumPy,
    # MindSpore, PyTorch), never the -0.0 of dividing by a negative count
    return _ew.div(total, float(builtins.max(count - ddof, 0)))


def std(input, axis=None, ddof=0, keepdims=False):
    """sqrt(var). Its gradient where the variance is 0 (a constant row) is 0: the
    subgradient of sqrt(sum of squares) at its minimum, as abs gets 0 at 0 (MindSpore and
    PyTorch give NaN there)."""
    x = coerce.as_tensor(input, op="std")
    out = _safe_sqrt(_variance(x, axis, ddof, keepdims))
    return _ew.cast(out, x.dtype) if x.dtype in _WIDER else out


def _safe_sqrt(x):
    """sqrt whose gradient at 0 is 0 instead of inf * 0 = NaN (norms at their minimum)."""
    zero = _ew.eq(x, 0)
    return _ew.where(zero, _ew.zeros_like(x), _ew.sqrt(_ew.where(zero, _ew.ones_like(x), x)))


def logsumexp(input, axis, keep_dims=False):
    x = coerce.as_tensor(input, op="logsumexp")
    axes = coerce.normalize_axes(axis, x.ndim, "logsumexp")
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.DEFAULT_FLOAT)
    if 0 in [x.shape[a] for a in axes]:      # log(0): the sum of no exponentials
        coerce.shape_decision()
        from .creation import full
        return full(_reduced_shape(x.shape, axes, keep_dims), -np.inf, dtype=x.dtype)
    peak = _ew.stop_gradient(amax(x, axes, keepdims=True))
    peak = _ew.where(_ew.isfinite(peak), peak, _ew.zeros_like(peak))
    total = sum(_ew.exp(_ew.sub(x, peak)), axes, keepdims=True)
    out = _ew.add(_ew.log(total), peak)
    return out if keep_dims else _shape.reshape(out, _reduced_shape(x.shape, axes, False))


def sum_to(x, shape):
    """Sum ``x`` down to ``shape`` (the transpose of broadcasting)."""
    shape = tuple(shape)
    if tuple(x.shape) == shape:
        coerce.shape_decision()
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    out = reduce_sum_p.bind(x, axes=axes, keepdims=True) if axes else x
    return _shape.reshape(out, shape)


reduce_sum = sum
reduce_mean = mean
reduce_max = amax
reduce_min = amin
