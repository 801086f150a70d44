"""``tensorjit.ops.functional`` (``from mindspore.ops import functional as F``): every
functional op of ``tensorjit.ops`` plus the autodiff transforms and the small helpers
MindSpore's optimizers use (``partial``, ``tuple_len``, ``dtype``, ...), as MindSpore's
module offers them. A facade: it only re-exports (tests/architecture/test_layers.py counts it with
the top-level package)."""
import types as _types

from .. import ops as _ops
from ..ops.primitive import Primitive as _Primitive
from ..ops.primitive_class import OpPrimitive as _OpPrimitive
from ..autodiff import grad, value_and_grad, vjp
from ..functional import vmap, jvp, jacfwd, jacrev
from ..ops.multitype import partial, tuple_len, make_tuple, tuple_getitem
from ..ops.python_values import dtype, typeof, isconstant


def _is_function(name, value):
    return (not name.startswith("_") and name[:1].islower() and callable(value)
            and not isinstance(value, (_types.ModuleType, type, _Primitive, _OpPrimitive)))


globals().update({n: v for n, v in vars(_ops).items() if _is_function(n, v)})
tensor_add, tensor_sub, tensor_mul, tensor_div = (
    _ops.add, _ops.sub, _ops.mul, _ops.div)   # noqa: F821  (MindSpore's F aliases)
tensor_pow, tensor_mod, tensor_floordiv = _ops.pow, _ops.floor_mod, _ops.floor_div
tensor_lt, tensor_le, tensor_gt, tensor_ge = _ops.lt, _ops.le, _ops.gt, _ops.ge
list_getitem, list_len = tuple_getitem, tuple_len

__all__ = sorted(n for n, v in globals().items() if _is_function(n, v))
