"""MindSpore's sparse tensors: ``COOTensor`` (2-D, one ``[row, col]`` per stored value),
``CSRTensor`` (compressed rows: ``indptr``, column ``indices``), ``RowTensor`` (slices of
the first axis) and the deprecated ``SparseTensor``.

Each is a few dense Tensors and a static ``shape``: the index tensors pass through
``stop_gradient`` (as MindSpore's constructors do), so the values alone are
differentiable, and every method computes with the dense ops of this package (gather,
scatter-add, segment sums), so they run eagerly, compile and differentiate. They are
pytree nodes (``_tj_flatten`` / ``_tj_unflatten``): a jitted function takes and returns
them, its cache keyed by their shape. The constructors' checks and messages are
MindSpore 2.10's (``_checkparam.check_coo_tensor_*`` / ``check_csr_tensor_*``).
"""
import numpy as np

from ... import dtype as dt
from ...tensor import Tensor
from .. import elementwise as _unary

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "RowTensorInner", "SparseTensor"]

INDEX_DTYPES = (dt.int16, dt.int32, dt.int64)


def _check_parts(indices, values, shape):
    if not isinstance(indices, Tensor):
        raise TypeError(f"For SparseTensors, 'indices' must be Tensor, but got {type(indices)}.")
    if not isinstance(values, Tensor):
        raise TypeError(f"For SparseTensors, 'values' must be Tensor, but got {type(values)}.")
    if not isinstance(shape, tuple):
        raise TypeError(f"For SparseTensors, 'shape' must be tuple, but got {type(shape)}.")


def _check_dims(shape, who):
    size = 1
    for item in shape:
        if item <= 0:
            raise ValueError(f"For {who}, the element of 'shape' must be positive, but got "
                             f"{item} in {shape}.")
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise TypeError(f"For {who}, the element type of 'shape' must be int, but got "
                            f"{type(item)}")
        size *= int(item)
    return size


def _check_coo(indices, values, shape):
    _check_parts(indices, values, shape)
    if len(shape) != 2:
        raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
    ind, val = tuple(indices.shape), tuple(values.shape)
    if not (ind == (0,) and val == (0,)):
        size = _check_dims(shape, "COOTensor")
        if val and size < val[0]:
            raise ValueError(f"For COOTensor, shape is too small: ({size}) to hold all "
                             f"values({val[0]}).")
        if len(ind) != 2:
            raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but "
                             f"got a {len(ind)}-dimensional tensor.")
        if len(val) != 1:
            raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but "
                             f"got a {len(val)}-dimensional tensor.")
        if ind[0] != val[0]:
            raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to "
                             f"'values.shape[0]', but got 'indices.shape[0]' = {ind[0]} and "
                             f"'values.shape[0]' = {val[0]}.")
        if ind[1] != 2:
            raise ValueError(f"For COOTensor, 'indices.shape[1]' must be 2, but got {ind[1]}.")
    if indices.dtype not in INDEX_DTYPES:
        raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, int32, "
                        f"int64], but got {indices.dtype}.")


def _check_csr(indptr, indices, values, shape):
    if not isinstance(indptr, Tensor):
        raise TypeError(f"For CSRTensor, 'indptr' must be Tensor, but got {type(indptr)}.")
    _check_parts(indices, values, shape)
    ptr, ind, val = tuple(indptr.shape), tuple(indices.shape), tuple(values.shape)
    if not (ptr == (0,) and ind == (0,) and val == (0,)):
        size = _check_dims(shape, "CSRTensor")
        if any(item <= 0 for item in val):
            raise ValueError(f"The element of shape must be positive, but got {val}")
        if size < int(np.prod(val)):
            raise ValueError(f"Shape total size: {size} is too small to hold "
                             f"{int(np.prod(val))} non-zero values.")
        if len(ind) != 1:
            raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got "
                             f"a {len(ind)} dimension tensor.")
        if len(ptr) != 1:
            raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got "
                             f"a {len(ptr)} dimension tensor.")
        if shape[0] + 1 != ptr[0]:
            raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but "
                             f"got: {ptr[0]}")
        if ind[0] != val[0]:
            raise ValueError(f"For CSRTensor, indices and values must equal in their shape, "
                             f"but got indices shape: {ind[0]}, values shape: {val[0]}.")
        if len(val) + 1 != len(shape):
            raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, "
                             f"but got Values' dimension: {len(val)} , CSRTensor's dimension: "
                             f"{len(shape)}")
        if val[1:] != tuple(shape[2:]):
            raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ], but "
                             f"CSRTensor's shape[2: ] got: {tuple(shape[2:])} and value's "
                             f"shape[1: ] got: {val[1:]}")
    if indptr.dtype not in INDEX_DTYPES:
        raise TypeError(f"For CSRTensor, indptr must have int16 or int32 or int64 data type, "
                        f"but got {indptr.dtype}.")
    if indices.dtype not in INDEX_DTYPES:
        raise TypeError(f"For CSRTensor, indices must have int16 or int32 or int64 data type, "
                        f"but got {indices.dtype}.")


class _Sparse:
    """What the three kinds share: the values' dtype and sizes, a pytree node."""
    _parts = ()                      # the tensor attributes, in pytree order

    @property
    def values(self):
        return self._values

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def size(self):
        return self._values.size

    @property
    def itemsize(self):
        return self._values.itemsize

    def _tj_flatten(self):
        return tuple(getattr(self, "_" + p) for p in self._parts), self._shape

    @classmethod
    def _tj_unflatten(cls, shape, tensors):
        out = object.__new__(cls)
        for name, tensor in zip(cls._parts, tensors):
            setattr(out, "_" + name, tensor)
        out._shape = shape
        return out

    def _copy_from(self, other, kind):
        if not isinstance(other, kind):
            raise TypeError(f"Expect input `{kind.__name__[:3].lower()}_tensor` to be a "
                            f"{kind.__name__}, but got {type(other)}")
        for name in self._parts:
            setattr(self, "_" + name, getattr(other, "_" + name))
        self._shape = other._shape

    def _with_values(self, values):
        """The same sparsity pattern holding ``values`` (the elementwise ops' result)."""
        tensors, shape = self._tj_flatten()
        return type(self)._tj_unflatten(shape, tensors[:-1] + (values,))

    def __repr__(self):
        parts = ", ".join(f"{p}={getattr(self, '_' + p)!r}" for p in self._parts)
        return f"{type(self).__name__}(shape={list(self._shape)}, dtype={self.dtype}, {parts})"


class COOTensor(_Sparse):
    """``COOTensor(indices, values, shape)``: a 2-D sparse tensor holding ``values[k]`` at
    ``indices[k] = [row, col]`` (int16 / int32 / int64 indices, ``shape`` a tuple of 2
    positive ints); or a copy of ``coo_tensor``. Repeated indices add up in ``to_dense``."""
    _parts = ("indices", "values")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            self._copy_from(coo_tensor, COOTensor)
            return
        _check_coo(indices, values, shape)
        self._indices = _unary.stop_gradient(indices)
        self._values, self._shape = values, tuple(int(d) for d in shape)

    @property
    def indices(self):
        return self._indices

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    def to_tuple(self):
        return self._indices, self._values, self._shape

    def to_dense(self):
        from .conversions import coo_to_dense
        return coo_to_dense(self)

    def to_csr(self):
        from .conversions import coo_to_csr
        return coo_to_csr(self)

    def coalesce(self):
        from .conversions import coo_coalesce
        return coo_coalesce(self)

    def astype(self, dtype):
        return self._with_values(_unary.cast(self._values, dtype))

    def abs(self):
        return self._with_values(_unary.abs(self._values))

    def add(self, other, thresh):
        from .coo_math import coo_add
        return coo_add(self, other, thresh)

    def __neg__(self):
        return self._with_values(_unary.neg(self._values))

    def _same_shape(self, other):
        if tuple(getattr(other, "shape", ())) != self._shape:
            raise ValueError("Input tensors should have the same shape.")

    def __add__(self, other):
        from .coo_math import coo_add, coo_dense_add
        self._same_shape(other)
        if isinstance(other, Tensor):
            return coo_dense_add(self, other)
        if isinstance(other, COOTensor):
            return coo_add(self, other, Tensor(np.zeros((), self.dtype)))
        raise TypeError(f"COOTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        from .coo_math import coo_add, coo_dense_add
        self._same_shape(other)
        if isinstance(other, Tensor):
            return coo_dense_add(self, _unary.neg(other))
        if isinstance(other, COOTensor):
            return coo_add(self, -other, Tensor(np.zeros((), self.dtype)))
        raise TypeError(f"COOTensor subtract with {type(other)} is not supported.")

    def __mul__(self, other):
        from .coo_math import coo_dense_combine
        self._same_shape(other)
        if isinstance(other, Tensor):
            return coo_dense_combine(self, other, "mul")
        raise TypeError(f"COOTensor multiply with {type(other)} is not supported.")

    def __truediv__(self, other):
        from .coo_math import coo_dense_combine
        self._same_shape(other)
        if isinstance(other, Tensor):
            return coo_dense_combine(self, other, "div")
        raise TypeError(f"COOTensor divide with {type(other)} is not supported.")


class CSRTensor(_Sparse):
    """``CSRTensor(indptr, indices, values, shape)``: row ``r``'s values are
    ``values[indptr[r]:indptr[r + 1]]`` at columns ``indices[...]``; ``values`` may carry
    trailing axes (``shape[2:]``). Or a copy of ``csr_tensor``."""
    _parts = ("indptr", "indices", "values")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, "
                                "`values`, `shapes` should all be `None`")
            self._copy_from(csr_tensor, CSRTensor)
            return
        _check_csr(indptr, indices, values, shape)
        self._indptr = _unary.stop_gradient(indptr)
        self._indices = _unary.stop_gradient(indices)
        self._values, self._shape = values, tuple(int(d) for d in shape)

    @property
    def indptr(self):
        return self._indptr

    @property
    def indices(self):
        return self._indices

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    def to_tuple(self):
        return self._indptr, self._indices, self._values, self._shape

    def to_coo(self):
        from .conversions import csr_to_coo
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to "
                             "COOTensor.")
        return csr_to_coo(self)

    def to_dense(self):
        from .conversions import csr_to_dense
        return csr_to_dense(self)

    def astype(self, dtype):
        return self._with_values(_unary.cast(self._values, dtype))

    def abs(self):
        return self._with_values(_unary.abs(self._values))

    def mv(self, dense_vector):
        from .csr_math import csr_mv
        if not isinstance(dense_vector, Tensor):
            raise TypeError(f"For 'CSRTensor.mv', the type of 'dense_vector' should be Tensor, "
                            f"but got {type(dense_vector).__name__}.")
        return csr_mv(self, dense_vector)

    def mm(self, matrix):
        from .csr_math import csr_mm, csr_dense_mm
        if isinstance(matrix, CSRTensor):
            return csr_mm(self, matrix)
        if not isinstance(matrix, Tensor):
            raise TypeError(f"For 'CSRTensor.mm', the type of 'matrix' should be Tensor or "
                            f"CSRTensor, but got {type(matrix).__name__}.")
        return csr_dense_mm(self, matrix)

    def sum(self, axis):
        from .csr_math import csr_reduce_sum
        return csr_reduce_sum(self, axis)

    def add(self, b, alpha, beta):
        from .csr_math import csr_add
        return csr_add(self, b, alpha, beta)

    def __neg__(self):
        return self._with_values(_unary.neg(self._values))

    def __mul__(self, other):
        from .csr_math import csr_mul
        return csr_mul(self, other)

    def __truediv__(self, other):
        from .csr_math import csr_div
        return csr_div(self, other)

    def _combine(self, other, beta, what):
        from .csr_math import csr_add
        if tuple(getattr(other, "shape", ())) != self._shape:
            raise ValueError("Input tensors should have the same shape.")
        if isinstance(other, CSRTensor):
            return csr_add(self, other, Tensor(np.ones((), self.dtype)),
                           Tensor(np.array(beta, self.dtype)))
        raise TypeError(f"CSRTensor {what} with {type(other)} is not supported.")

    def __add__(self, other):
        return self._combine(other, 1, "add")

    def __sub__(self, other):
        return self._combine(other, -1, "subtract")


class RowTensorInner(_Sparse):
    """``RowTensorInner(indices, values, shape)``: rows ``indices`` of a tensor of
    ``shape`` (``dense_shape``) hold ``values`` (one slice per index), the others zeros:
    the gradient of a gather. Or a copy of ``row_tensor``."""
    _parts = ("indices", "values")

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            self._copy_from(row_tensor, RowTensorInner)
            return
        _check_parts(indices, values, shape)
        if indices.ndim != 1 or values.ndim < 1 or values.shape[0] != indices.shape[0] or \
                tuple(values.shape[1:]) != tuple(shape[1:]):
            raise ValueError(f"For RowTensor, 'values' must hold one slice of 'dense_shape' "
                             f"{shape} per index, got indices {tuple(indices.shape)} and "
                             f"values {tuple(values.shape)}")
        if not dt.is_int(indices.dtype):
            raise TypeError(f"For RowTensor, 'indices' must be an integer tensor, but got "
                            f"{indices.dtype}.")
        self._indices, self._values = indices, values
        self._shape = tuple(int(d) for d in shape)

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._shape


class RowTensor(RowTensorInner):
    """``RowTensor``: ``RowTensorInner``'s deprecated public name (MindSpore warns)."""


class SparseTensor(_Sparse):
    """``SparseTensor(indices, values, shape)``: ``COOTensor``'s deprecated name (only the
    argument types are checked, as in MindSpore)."""
    _parts = ("indices", "values")

    def __init__(self, indices, values, shape):
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor)
                and isinstance(shape, tuple)):
            raise TypeError("Inputs must follow: COOTensor(indices, values, shape).")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self):
        return self._indices

    @property
    def shape(self):
        return self._shape
