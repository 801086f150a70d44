"""``mint.nn``'s layers with parameters (convolutions, batch / group normalisation,
PReLU): PyTorch's constructor arguments and initialisation, computed by
``mint.nn.functional`` / ops."""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Parameter
from ...nn.cell import Cell
from ...nn.initializer import initializer, Uniform, HeUniform
from . import functional as F


def _uniform(bound, shape, dtype):
    return Parameter(initializer(Uniform(bound), shape, dtype))


class _ConvNd(Cell):
    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None,
                 output_padding=0):
        super().__init__()
        name = type(self).__name__
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"mint.nn.{name}: in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by groups ({groups})")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"mint.nn.{name}: padding_mode must be 'zeros', 'reflect', "
                             f"'replicate' or 'circular', got {padding_mode!r}")
        if self._transposed and padding_mode != "zeros":
            raise ValueError(f"mint.nn.{name}: only padding_mode='zeros' is supported")
        dtype = dtype or dt.float32
        kernel = F._pair(kernel_size, self._dims)
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel
        self.stride, self.padding, self.dilation = stride, padding, dilation
        self.groups, self.padding_mode, self.output_padding = groups, padding_mode, output_padding
        if self._transposed:
            shape = (in_channels, out_channels // groups) + kernel
            fan_in = out_channels // groups * math.prod(kernel)
        else:
            shape = (out_channels, in_channels // groups) + kernel
            fan_in = in_channels // groups * math.prod(kernel)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype),
                                name="weight")
        self.bias = _uniform(1 / math.sqrt(fan_in), (out_channels,), dtype) if bias else None
        if self.bias is not None:
            self.bias.name = "bias"

    def construct(self, input):
        if self._transposed:
            return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                      self.output_padding, self.groups, self.dilation)
        padding = self.padding
        if self.padding_mode != "zeros" and padding != "valid":
            input = ops.pad(input, self._explicit_padding(), self.padding_mode)
            padding = 0
        function = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self._dims]
        return function(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)

    def _explicit_padding(self):
        """(left, right) pairs, last axis first, as ``ops.pad`` takes them; ``'same'`` puts
        the odd element on the right, as PyTorch does."""
        dilation = F._pair(self.dilation, self._dims)
        pairs = []
        for axis in range(self._dims):
            if self.padding == "same":
                total = dilation[axis] * (self.kernel_size[axis] - 1)
                pairs.append((total // 2, total - total // 2))
            else:
                amount = F._pair(self.padding, self._dims)[axis]
                pairs.append((amount, amount))
        return tuple(p for pair in reversed(pairs) for p in pair)

    def extend_repr(self):
        return (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, padding={self.padding}")


class Conv1d(_ConvNd):
    """1-D convolution layer with PyTorch's arguments; weight (out, in / groups, k).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.Conv1d(1, 2, 3)(ms.Tensor(np.ones((1, 1, 5), np.float32)))
    """
    _dims = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)


class Conv2d(Conv1d):
    """2-D convolution layer with PyTorch's arguments; weight (out, in / groups, kh, kw).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.Conv2d(1, 2, 3, padding=1)(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)))
    """
    _dims = 2


class Conv3d(Conv1d):
    """3-D convolution layer with PyTorch's arguments.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.Conv3d(1, 2, 2)(ms.Tensor(np.ones((1, 1, 3, 3, 3), np.float32)))
    """
    _dims = 3


class ConvTranspose2d(_ConvNd):
    """Transposed 2-D convolution layer; weight (in, out / groups, kh, kw).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.ConvTranspose2d(1, 2, 2)(ms.Tensor(np.ones((1, 1, 3, 3), np.float32)))
    """
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype, output_padding)


class _BatchNorm(Cell):
    _ranks = (2, 3)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        dtype = dtype or dt.float32
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = Parameter(initializer("ones", num_features, dtype),
                                name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", num_features, dtype),
                              name="bias") if affine else None
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", num_features, dtype),
                                          name="running_mean", requires_grad=False)
            self.running_var = Parameter(initializer("ones", num_features, dtype),
                                         name="running_var", requires_grad=False)
            self.num_batches_tracked = Parameter(initializer("zeros", (), dt.int64),
                                                 name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ranks or input.shape[1] != self.num_features:
            raise ValueError(f"mint.nn.{type(self).__name__}: expected a "
                             f"{' or '.join(f'{r}-D' for r in self._ranks)} input with "
                             f"{self.num_features} channels on axis 1, got shape "
                             f"{tuple(input.shape)}")
        # without running statistics even evaluation normalises with the batch's, as PyTorch
        use_batch = self.training or self.running_mean is None
        if self.training and self.num_batches_tracked is not None:
            self.num_batches_tracked.assign_value(self.num_batches_tracked + 1)
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            use_batch, self.momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) input (PyTorch's arguments and names).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.BatchNorm1d(2)(ms.Tensor([[1., 2.], [3., 5.]]))
    """


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) input.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.BatchNorm2d(1)(ms.Tensor(np.ones((2, 1, 2, 2), np.float32)))
    """
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) input.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.BatchNorm3d(1)(ms.Tensor(np.ones((2, 1, 2, 2, 2), np.float32)))
    """
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics span the process group; in one process (the
    only case here without ``communication.init``) it is ``BatchNorm`` of any rank >= 2.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.SyncBatchNorm(2)(ms.Tensor([[1., 2.], [3., 5.]]))
    """
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(Cell):
    """Group normalisation with per-channel ``weight`` / ``bias``.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.GroupNorm(1, 2)(ms.Tensor(np.ones((1, 2, 3), np.float32)))
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"mint.nn.GroupNorm: num_channels ({num_channels}) must be "
                             f"divisible by num_groups ({num_groups})")
        dtype = dtype or dt.float32
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.weight = Parameter(initializer("ones", num_channels, dtype),
                                name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", num_channels, dtype),
                              name="bias") if affine else None

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class PReLU(Cell):
    """``max(0, x) + weight * min(0, x)`` with ``num_parameters`` learned slopes.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.PReLU()(ms.Tensor([-1., 2.]))
    """

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.weight = Parameter(initializer(init, num_parameters, dtype or dt.float32),
                                name="weight")

    def construct(self, input):
        return ops.prelu(input, self.weight)
