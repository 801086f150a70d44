"""``tensorjit.ops.composite`` (``from mindspore.ops import composite as C``): the
composite operations that exist here -- ``GradOperation``, the autodiff transforms,
``MultitypeFuncGraph`` / ``HyperMap`` / ``Map`` and the functional ops MindSpore keeps in
this module. A facade: it only re-exports (tests/architecture/test_layers.py counts it with
the top-level package)."""
from ..autodiff import grad, value_and_grad, vjp, GradOperation
from ..ops import (zeros_like, ones_like, normal, uniform, matmul, mm, dot, repeat_interleave,
                   sequence_mask)
from ..ops.multitype import MultitypeFuncGraph, HyperMap, Map

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "MultitypeFuncGraph",
           "HyperMap", "Map", "zeros_like", "ones_like", "normal", "uniform", "matmul", "mm",
           "dot", "repeat_interleave", "sequence_mask"]
