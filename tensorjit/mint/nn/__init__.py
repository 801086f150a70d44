"""``tensorjit.mint.nn``: MindSpore's ``mint.nn`` layers (PyTorch's constructor arguments,
MindSpore mint's parameter names) and ``mint.nn.functional``.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.nn.Linear(2, 1)(ms.Tensor([[1., 2.]]))
"""
from . import functional
from . import layers as _layers

# mint's own classes, plus the ``tensorjit.nn`` classes mint shares unchanged
__all__ = sorted(name for name, value in vars(_layers).items()
                 if isinstance(value, type) and not name.startswith("_") and (
                     value.__module__.startswith("tensorjit.mint.nn")
                     or name in _layers.SHARED_WITH_NN))
globals().update({name: getattr(_layers, name) for name in __all__})
