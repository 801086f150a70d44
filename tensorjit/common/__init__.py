"""``tensorjit.common``: MindSpore's ``mindspore.common`` import paths (``initializer``,
``dtype``, ``Tensor``, ``Parameter``, ``ParameterTuple``, ``set_seed``), re-exporting the
objects that live in their own units."""
from ..dtype import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                     float32, float64, bfloat16, half, single, double)
from ..tensor import Tensor, Parameter
from ..nn.cell import ParameterTuple
from ..ops.random import set_seed, get_seed
from ..ops.compat import is_tensor
from ..ops.sparse import COOTensor, CSRTensor, RowTensor, RowTensorInner, SparseTensor
from . import dtype, initializer, parameter
from . import tensor as _tensor_module  # noqa: F401  (tensorjit.common.tensor)
from ..tensor import tensor  # noqa: E402  (the function, as in mindspore.common)

__all__ = ["Tensor", "tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed",
           "is_tensor", "COOTensor", "CSRTensor", "RowTensor", "RowTensorInner",
           "SparseTensor", "dtype", "initializer", "parameter",
           "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "bfloat16", "half", "single", "double"]
