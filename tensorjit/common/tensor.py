"""``tensorjit.common.tensor`` (``mindspore.common.tensor``)."""
from ..tensor import Tensor, tensor

__all__ = ["Tensor", "tensor"]
