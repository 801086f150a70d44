"""The ``*Ext`` layers of ``mindspore.nn`` (in MindSpore 2.10 they are ``mindspore.mint.nn``'s
classes: PyTorch's constructor arguments, mint's parameter names ``weight`` / ``bias``).
tensorjit's ``mint`` sits beside ``nn`` and imports it, so these are nn's own small classes
over the same ops: pooling over ``ops.pooling`` (unbatched input allowed, ``stride=None``
meaning the kernel size), dropout, embedding, L1 loss, layer norm and log-softmax."""
import numbers

from ... import dtype as dt
from ... import ops
from ...ops import pooling as _pool
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer, Normal
from ..loss import LossBase

__all__ = ["AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt", "DropoutExt",
           "Dropout2dExt", "EmbeddingExt", "L1LossExt", "LayerNormExt", "LogSoftmaxExt"]


def _stride(stride):
    return None if stride is None or stride == () else stride


class _AvgPoolExt(Cell):
    _rank = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input):
        op = type(self).__name__
        x, unbatched = _pool.spatial(op, input, self._rank, unbatched=True)
        out = _pool.avg_pool(x, self.kernel_size, _stride(self.stride), self.padding,
                             self.ceil_mode, self.count_include_pad,
                             _pool.divisor_arg(self.divisor_override, op), op)
        return _pool.unbatch(out, unbatched)


class AvgPool1dExt(_AvgPoolExt):
    _rank = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2dExt(_AvgPoolExt):
    _rank = 2


class AvgPool3dExt(_AvgPoolExt):
    _rank = 3


class MaxPool2dExt(Cell):
    """2-D max pooling (``return_indices``: also the flat h * W + w index of each maximum)."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, input):
        x, unbatched = _pool.spatial("MaxPool2dExt", input, 2, unbatched=True)
        out = _pool.max_pool(x, self.kernel_size, _stride(self.stride), self.padding,
                             self.dilation, self.ceil_mode, self.return_indices, "MaxPool2dExt")
        return _pool.unbatch(out, unbatched)


class _DropoutExt(Cell):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, numbers.Real):
            raise TypeError(f"{type(self).__name__}: 'p' must be a float, got {p!r}")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{type(self).__name__}: 'p' must be in [0, 1], got {p}")
        self.p, self.inplace = float(p), inplace

    def construct(self, input):
        if not self.training or self.p == 0.0:
            return input
        out = self._drop(input)
        return input.assign_value(out) if self.inplace else out


class DropoutExt(_DropoutExt):
    """Zeroes each element with probability ``p`` in training, scaling the rest by
    1 / (1 - p)."""

    def _drop(self, input):
        return ops.dropout(input, self.p, True)


class Dropout2dExt(_DropoutExt):
    """Zeroes whole channels of (N, C, H, W) input with probability ``p`` in training."""

    def _drop(self, input):
        return ops.dropout2d(input, self.p, True)


class EmbeddingExt(Cell):
    """A table of ``num_embeddings`` vectors (``weight``, N(0, 1) initialised; the
    ``padding_idx`` row zero); ``max_norm`` renormalises looked-up rows."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        for name, value in (("num_embeddings", num_embeddings),
                            ("embedding_dim", embedding_dim)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"EmbeddingExt: '{name}' must be a positive int, got "
                                 f"{value!r}")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"EmbeddingExt: 'padding_idx' must be in [{-num_embeddings}, "
                                 f"{num_embeddings}), got {padding_idx}")
            padding_idx %= num_embeddings
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        dtype = dtype or dt.float32
        if _weight is None:
            data = initializer(Normal(1.0), (num_embeddings, embedding_dim), dtype)
            if padding_idx is not None:
                values = data.asnumpy().copy()
                values[padding_idx] = 0
                data = Tensor(values)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"EmbeddingExt: '_weight' must have shape "
                                 f"{(num_embeddings, embedding_dim)}, got "
                                 f"{tuple(_weight.shape)}")
            data = _weight
        self.weight = Parameter(data, name="weight", requires_grad=not _freeze)

    def construct(self, input):
        out = ops.embedding(input, self.weight, self.padding_idx, self.max_norm,
                            self.norm_type, self.scale_grad_by_freq)
        if self.padding_idx is None:
            return out
        # the padding row gets no gradient (PyTorch's and mint's Embedding)
        padding = ops.expand_dims(ops.equal(input, self.padding_idx), -1)
        return ops.where(padding, ops.stop_gradient(out), out)


class L1LossExt(LossBase):
    """Mean / sum / element-wise absolute error."""

    def construct(self, input, target):
        return ops.l1_loss(input, target, self.reduction)


class LayerNormExt(Cell):
    """Normalise over the last ``len(normalized_shape)`` axes; ``elementwise_affine``:
    then scale by ``weight`` and (``bias``) shift by ``bias``."""

    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (int(normalized_shape),)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        dtype = dtype or dt.float32
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(initializer("ones", self.normalized_shape, dtype),
                                    name="weight")
            if bias:
                self.bias = Parameter(initializer("zeros", self.normalized_shape, dtype),
                                      name="bias")

    def construct(self, input):
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class LogSoftmaxExt(Cell):
    """log-softmax along ``dim`` (None: PyTorch's implicit axis, 0 for 0-, 1- and 3-D
    input, else 1)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        dim = self.dim if self.dim is not None else (0 if input.ndim in (0, 1, 3) else 1)
        return ops.log_softmax(input, dim)
