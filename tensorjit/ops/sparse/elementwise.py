"""MindSpore's elementwise functions on sparse tensors (``coo_abs`` ... ``csr_tanh``), made
from one table: each name is the dense op of this package applied to the stored values.

MindSpore's rule (``mindspore/ops/function/sparse_unary_func.py``): the result keeps the
input's sparsity pattern whatever the function -- the implicit zeros stay zeros even where
``f(0) != 0`` (``coo_cos``, ``coo_exp``, ``coo_sigmoid``, ``coo_isfinite``, ...) -- and the
values' dtype is the dense op's (``coo_isnan`` gives bool values, ``coo_sqrt`` of int32
float32). ``ZERO_PRESERVING`` says for which names the result is also ``f`` of the dense
tensor; a non-sparse argument raises TypeError ("Expects COOTensor for coo_abs").
"""
from ... import ops as _ops
from .tensors import COOTensor, CSRTensor

# name -> the dense op (a ``tensorjit.ops`` name: ``inv`` is the elementwise reciprocal of
# ``ops.inv``; ``relu6`` is defined in ops/__init__, so the ops are looked up when called)
UNARY = {name: name for name in (
    "abs acos acosh asin asinh atan atanh ceil cos cosh exp expm1 floor inv isfinite isinf "
    "isnan log log1p neg relu relu6 round sigmoid sin sinh softsign sqrt square tan tanh"
).split()}
# f(0) == 0 (False for bool results): to_dense(coo_f(x)) == f(to_dense(x)) for these only
ZERO_PRESERVING = frozenset(
    "abs asin asinh atan atanh ceil expm1 floor isinf isnan log1p neg relu relu6 round sin "
    "sinh softsign sqrt square tan tanh".split())


def _sparse_unary(kind, prefix, name):
    op_name = UNARY[name]
    public = f"{prefix}_{name}"

    def apply(x):
        if not isinstance(x, kind):
            raise TypeError(f"Expects {kind.__name__} for {public}")
        return x._with_values(getattr(_ops, op_name)(x.values))
    apply.__name__ = apply.__qualname__ = public
    apply.__doc__ = (f"``ops.{public}(x)``: ``ops.{op_name}`` of the stored values of the "
                     f"{kind.__name__} ``x``; the same indices and shape (MindSpore's rule: "
                     f"implicit zeros stay zeros).")
    return apply


FUNCTIONS = {}
for _name in UNARY:
    FUNCTIONS[f"coo_{_name}"] = _sparse_unary(COOTensor, "coo", _name)
    FUNCTIONS[f"csr_{_name}"] = _sparse_unary(CSRTensor, "csr", _name)
globals().update(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
