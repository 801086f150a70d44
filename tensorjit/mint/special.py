"""``tensorjit.mint.special``: MindSpore's ``mint.special`` (PyTorch's ``torch.special``
names) as the same functions of ``mint``.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.special.expm1(ms.Tensor([0.5]))
"""
from .. import mint as _mint
from .nn.functional import log_softmax

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]
# taken from mint when present (erfc, exp2, sinc come with ops' elementwise math)
globals().update({name: getattr(_mint, name) for name in __all__[:-1] if hasattr(_mint, name)})
__all__ = [name for name in __all__ if name in globals()]
