"""``tensorjit.common.parameter`` (``mindspore.common.parameter``)."""
from ..tensor import Parameter
from ..nn.cell import ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
