"""``nn.Linear``: the fully connected layer with PyTorch's argument names and
initialisation (MindSpore 2.10's ``nn.Linear`` and ``mint.nn.Linear`` are one class)."""
import math

from ... import dtype as dt
from ...ops import dense
from ...tensor import Parameter
from ..cell import Cell
from ..initializer import initializer, Uniform, HeUniform


class Linear(Cell):
    """``y = x @ weight.T + bias``.

    Args: ``in_features``, ``out_features`` (ints); ``bias`` (bool, default True; False
    leaves ``self.bias`` None); ``weight_init`` / ``bias_init`` (an initializer or tensor;
    default PyTorch's: weight HeUniform(sqrt(5)), bias U(-1/sqrt(in), 1/sqrt(in)));
    ``dtype`` (default float32). Parameters ``weight`` (out_features, in_features) and
    ``bias`` (out_features,). Unlike ``nn.Dense`` there is no ``activation``.

    >>> import tensorjit as ms
    >>> ms.nn.Linear(2, 3)(ms.Tensor([[1., 2.]])).shape
    (1, 3)
    """

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__()
        dtype = dtype or dt.float32
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(initializer(weight_init or HeUniform(math.sqrt(5)),
                                            (out_features, in_features), dtype), name="weight")
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        self.bias = Parameter(initializer(bias_init or Uniform(bound), (out_features,), dtype),
                              name="bias") if bias else None

    def construct(self, input):
        return dense(input, self.weight, self.bias)

    def extend_repr(self):
        return (f"input_features={self.in_features}, output_features={self.out_features}, "
                f"has_bias={self.bias is not None}")
