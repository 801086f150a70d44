"""Operators and methods of Tensor, each a thin call into the functional ops."""
from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as E
from . import reduction as R
from . import shape as S
from . import indexing as I
from . import linalg as L
from . import sorting as SORT
from . import creation as K
from . import normalization as N
from . import cumulative as C
from . import special_math as SM
from . import activation as ACT
from . import rolling as ROLL
from . import matrix_inverse as MI


def _swap(fn):
    return lambda self, other: fn(other, self)


def _inplace(fn):
    """``x += y``: in place (the value cast to ``x``'s dtype) when the result has ``x``'s
    shape; a result broadcast to a larger shape cannot be stored in ``x``, so ``x`` is
    rebound to it, as ``x = x + y`` (MindSpore's PyNative mode does the same)."""
    def method(self, other):
        result = fn(self, other)
        if not coerce.is_scalar(other):
            # whether ``x`` can hold the result depends on both shapes (a 0-d ``other``
            # too: the next call may bring a larger one): a graph being captured holds one
            # of the two outcomes (the dtype, what the caller sees)
            coerce.shape_decision()
        if tuple(result.shape) != tuple(self.shape):
            return result
        if result.dtype != self.dtype:
            result = E.cast(result, self.dtype)
        return self._assign(result)
    return method


def _comparison(fn):
    def method(self, other):
        if not (isinstance(other, Tensor) or coerce.is_scalar(other)
                or hasattr(other, "__array__") or isinstance(other, (list, tuple))):
            return NotImplemented
        return fn(self, other)
    return method


def _setitem(self, index, value):
    self._assign(I.setitem_value(self, index, value))


def _reshape(self, *shape):
    return S.reshape(self, shape[0] if len(shape) == 1 else shape)


def _transpose(self, *axes):
    return S.transpose(self, *axes)


def _permute(self, *axes):
    return S.transpose(self, *axes)


def _expand(self, *shape):
    return S.broadcast_to(self, shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)


def _repeat(self, *sizes):
    return S.tile(self, sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes)


def _astype(self, dtype, copy=True):
    return E.cast(self, dtype)


def _max(self, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
    return R.amax(self, axis, keepdims)


def _min(self, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
    return R.amin(self, axis, keepdims)


def _sum(self, axis=None, dtype=None, keepdims=False, initial=None):
    out = R.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else E.add(out, initial)


def _mean(self, axis=None, keep_dims=False):
    return R.mean(self, axis, keep_dims)


def _argmax(self, axis=None, keepdims=False):
    return R.argmax(self, axis, keepdims)


def _argmin(self, axis=None, keepdims=False):
    return R.argmin(self, axis, keepdims)


def _cumsum(self, axis=None, dtype=None):
    """MindSpore's Tensor.cumsum: no axis runs over the flattened tensor."""
    return C.cumsum(S.ravel(self), 0, dtype) if axis is None else C.cumsum(self, axis, dtype)


def _float_scalar(name):
    def method(self):
        return getattr(E, name)(self)
    return method


METHODS = {
    # operators
    "__add__": E.add, "__radd__": _swap(E.add), "__sub__": E.sub, "__rsub__": _swap(E.sub),
    "__mul__": E.mul, "__rmul__": _swap(E.mul), "__truediv__": E.div,
    "__rtruediv__": _swap(E.div), "__floordiv__": E.floor_div,
    "__rfloordiv__": _swap(E.floor_div), "__mod__": E.floor_mod, "__rmod__": _swap(E.floor_mod),
    "__pow__": E.pow, "__rpow__": _swap(E.pow), "__matmul__": L.matmul,
    "__rmatmul__": _swap(L.matmul), "__neg__": E.neg, "__pos__": lambda self: self,
    "__abs__": E.abs, "__invert__": lambda self: (E.logical_not(self) if self.dtype == dt.bool_
                                                   else E.sub(E.neg(self), 1)),
    "__and__": E.bitwise_and, "__rand__": _swap(E.bitwise_and), "__or__": E.bitwise_or,
    "__ror__": _swap(E.bitwise_or), "__xor__": E.bitwise_xor, "__rxor__": _swap(E.bitwise_xor),
    "__eq__": _comparison(E.eq), "__ne__": _comparison(E.ne), "__lt__": _comparison(E.lt),
    "__le__": _comparison(E.le), "__gt__": _comparison(E.gt), "__ge__": _comparison(E.ge),
    "__iadd__": _inplace(E.add), "__isub__": _inplace(E.sub), "__imul__": _inplace(E.mul),
    "__itruediv__": _inplace(E.div), "__ifloordiv__": _inplace(E.floor_div),
    "__imod__": _inplace(E.floor_mod), "__ipow__": _inplace(E.pow),
    "__imatmul__": _inplace(L.matmul), "__iand__": _inplace(E.bitwise_and),
    "__ior__": _inplace(E.bitwise_or), "__ixor__": _inplace(E.bitwise_xor),
    "__getitem__": I.getitem, "__setitem__": _setitem,
    # arithmetic and math
    "add": E.add, "sub": E.sub, "mul": E.mul, "div": E.div, "pow": E.pow, "neg": E.neg,
    "abs": E.abs, "sign": E.sign, "exp": E.exp, "log": E.log, "log1p": E.log1p,
    "sqrt": E.sqrt, "rsqrt": E.rsqrt, "square": E.square, "sin": E.sin, "cos": E.cos,
    "tan": E.tan, "tanh": E.tanh, "sigmoid": E.sigmoid, "relu": E.relu, "erf": E.erf,
    "floor": E.floor, "ceil": E.ceil, "round": E.round, "reciprocal": E.reciprocal,
    "clip": E.clamp, "clamp": E.clamp, "maximum": E.maximum, "minimum": E.minimum,
    "logical_not": E.logical_not, "logical_and": E.logical_and, "logical_or": E.logical_or,
    "isnan": E.isnan, "isinf": E.isinf, "isfinite": E.isfinite, "equal": E.eq,
    "not_equal": E.ne, "less": E.lt, "greater": E.gt, "less_equal": E.le,
    "greater_equal": E.ge, "lerp": E.lerp, "matmul": L.matmul, "outer": L.outer,
    "masked_fill": I.masked_fill,
    # dtype
    "astype": _astype, "to": _astype, "float": lambda self: E.cast(self, dt.float32),
    "half": lambda self: E.cast(self, dt.float16), "int": lambda self: E.cast(self, dt.int32),
    "long": lambda self: E.cast(self, dt.int64), "bool": lambda self: E.cast(self, dt.bool_),
    "double": lambda self: E.cast(self, dt.float64),
    # reductions
    "sum": _sum, "mean": _mean, "max": _max, "min": _min, "amax": R.amax, "amin": R.amin,
    "prod": R.prod, "argmax": _argmax, "argmin": _argmin, "any": R.any, "all": R.all,
    "var": R.var, "std": R.std, "logsumexp": R.logsumexp,
    "cumsum": _cumsum, "cumprod": C.cumprod, "cummax": C.cummax, "cummin": C.cummin,
    "logcumsumexp": C.logcumsumexp,
    # shape
    "reshape": _reshape, "view": _reshape, "transpose": _transpose, "permute": _permute,
    "swapaxes": S.swapaxes, "swapdims": S.swapaxes, "moveaxis": S.movedim,
    "movedim": S.movedim, "expand_dims": S.expand_dims, "unsqueeze": S.expand_dims,
    "squeeze": S.squeeze, "flatten": lambda self, order="C", start_dim=0, end_dim=-1:
    S.flatten(self, start_dim=start_dim, end_dim=end_dim), "ravel": S.ravel,
    "broadcast_to": S.broadcast_to, "expand": _expand, "expand_as":
    lambda self, other: S.broadcast_to(self, other.shape), "tile": S.tile, "repeat": _repeat,
    "repeat_interleave": S.repeat_interleave, "flip": S.flip, "split": S.split,
    "chunk": S.chunk, "unbind": S.unbind, "gather": I.gather,
    "gather_elements": I.gather_elements, "nonzero": I.nonzero,
    "view_as": lambda self, other: S.reshape(self, other.shape),
    "reshape_as": lambda self, other: S.reshape(self, other.shape),
    "contiguous": lambda self: self, "detach": E.stop_gradient, "copy": E.identity,
    # sorting, softmax, products, selection
    "topk": lambda self, k, dim=None, largest=True, sorted=True:
    SORT.topk(self, k, dim, largest, sorted),
    "sort": lambda self, axis=-1, descending=False: SORT.sort(self, axis, descending),
    "argsort": lambda self, axis=-1, descending=False: SORT.argsort(self, axis, descending),
    "softmax": lambda self, axis=-1: N.softmax(self, axis),
    "log_softmax": lambda self, axis=-1: N.log_softmax(self, axis),
    "bmm": L.bmm, "dot": L.dot,
    "index_select": lambda self, axis, index: I.gather(self, index, axis),
    "narrow": lambda self, axis, start, length: S.slice_axis(self, axis, start, start + length),
    "new_zeros": lambda self, size, dtype=None: K.zeros(size, dtype or self.dtype),
    "new_ones": lambda self, size, dtype=None: K.ones(size, dtype or self.dtype),
    # ops added for mint (MindSpore's Tensor has them as methods too)
    "roll": ROLL.roll, "inverse": MI.inverse, "det": MI.det,
    "matrix_determinant": MI.matrix_determinant, "hardshrink": ACT.hardshrink,
}
# acos, lgamma, hypot, xlogy, ... (special_math.TENSOR_METHODS): the functions themselves
METHODS.update({name: getattr(SM, name) for name in SM.TENSOR_METHODS})


@property
def _T(self):
    return S.transpose(self)


@property
def _mT(self):
    return S.swapaxes(self, -1, -2)


def install():
    for name, fn in METHODS.items():
        setattr(Tensor, name, fn)
    Tensor.T = _T
    Tensor.mT = _mT


install()
