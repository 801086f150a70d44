"""``tensorjit.common.initializer`` (``mindspore.common.initializer``): the initializers,
defined once in ``tensorjit.nn.initializer``."""
from ..nn.initializer import (Initializer, initializer, Normal, Uniform, HeUniform, HeNormal,
                              XavierUniform, XavierNormal, TruncatedNormal, Zero, One, Constant)

__all__ = ["Initializer", "initializer", "Normal", "Uniform", "HeUniform", "HeNormal",
           "XavierUniform", "XavierNormal", "TruncatedNormal", "Zero", "One", "Constant"]
