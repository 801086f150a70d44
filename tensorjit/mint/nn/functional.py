"""``tensorjit.mint.nn.functional``: MindSpore's ``mint.nn.functional`` (PyTorch's
``torch.nn.functional`` names and arguments) over tensorjit.ops.

Mechanical renamings come from ``TABLE`` through ``_translate.translated``; pooling
and ``fold`` (``ceil_mode``, indices, ``count_include_pad``, ...) come from ``_pooling``,
which maps PyTorch's arguments onto ops' pooling.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.nn.functional.relu(ms.Tensor([-1., 2.]))
"""
from ... import dtype as dt
from ... import ops
from .._translate import translated as _translated
# pooling and fold: PyTorch's arguments mapped onto ops' pooling (``_pooling``)
from ._pooling import (_pair, max_pool2d, avg_pool1d, avg_pool2d, avg_pool3d, max_unpool2d,
                       fold, adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,
                       adaptive_max_pool2d, adaptive_max_pool1d)

_MODULE = "mint.nn.functional"
_X = "ms.Tensor([-0.5, 1.5])"
_IMG = "ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))"
_LOGITS = "ms.Tensor([[1., 2., 0.5]])"


def _in_place(input, inplace, result):
    """PyTorch's ``inplace=True``: ``input`` takes the result and is returned."""
    return input.assign_value(result) if inplace else result


# ---- activations -------------------------------------------------------------------------
def relu(input, inplace=False):
    """``max(input, 0)``; ``inplace`` writes it into ``input``.

    >>> out = mint.nn.functional.relu(ms.Tensor([-1., 2.]))
    """
    return _in_place(input, inplace, ops.relu(input))


def relu_(input):
    """In-place ``relu``.

    >>> out = mint.nn.functional.relu_(ms.Tensor([-1., 2.]))
    """
    return relu(input, True)


def relu6(input, inplace=False):
    """``min(max(input, 0), 6)``.

    >>> out = mint.nn.functional.relu6(ms.Tensor([-1., 8.]))
    """
    return _in_place(input, inplace, ops.relu6(input))


def silu(input, inplace=False):
    """``input * sigmoid(input)``.

    >>> out = mint.nn.functional.silu(ms.Tensor([-1., 2.]))
    """
    return _in_place(input, inplace, ops.silu(input))


def sigmoid_(input):
    """In-place ``sigmoid``.

    >>> out = mint.nn.functional.sigmoid_(ms.Tensor([-1., 2.]))
    """
    return input.assign_value(ops.sigmoid(input))


def elu(input, alpha=1.0, inplace=False):
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere.

    >>> out = mint.nn.functional.elu(ms.Tensor([-1., 2.]))
    """
    return _in_place(input, inplace, ops.elu(input, alpha))


def elu_(input, alpha=1.0):
    """In-place ``elu``.

    >>> out = mint.nn.functional.elu_(ms.Tensor([-1., 2.]))
    """
    return elu(input, alpha, True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``input`` clamped to [``min_val``, ``max_val``].

    >>> out = mint.nn.functional.hardtanh(ms.Tensor([-3., 0.5]))
    """
    if min_val > max_val:
        raise ValueError(f"hardtanh: min_val ({min_val}) must not exceed max_val ({max_val})")
    return _in_place(input, inplace, ops.hardtanh(input, min_val, max_val))


def hardtanh_(input, min_val=-1, max_val=1):
    """In-place ``hardtanh``.

    >>> out = mint.nn.functional.hardtanh_(ms.Tensor([-3., 0.5]))
    """
    return hardtanh(input, min_val, max_val, True)


def threshold(input, threshold, value, inplace=False):
    """``input`` where it exceeds ``threshold``, else ``value``.

    >>> out = mint.nn.functional.threshold(ms.Tensor([0.5, 2.]), 1.0, 0.0)
    """
    return _in_place(input, inplace, ops.threshold(input, threshold, value))


def threshold_(input, threshold, value):
    """In-place ``threshold``.

    >>> out = mint.nn.functional.threshold_(ms.Tensor([0.5, 2.]), 1.0, 0.0)
    """
    return globals()["threshold"](input, threshold, value, True)


def gelu(input, approximate="none"):
    """GELU: exact (``'none'``) or the tanh approximation (``'tanh'``).

    >>> out = mint.nn.functional.gelu(ms.Tensor([-1., 2.]))
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return ops.gelu(input, approximate)


def _softmax_dim(input, dim):
    """PyTorch's implicit axis when ``dim`` is None: 0 for 0-, 1- and 3-D input, else 1."""
    return dim if dim is not None else (0 if input.ndim in (0, 1, 3) else 1)


def softmax(input, dim=None, dtype=None):
    """Softmax along ``dim`` (PyTorch's implicit axis when None); ``dtype`` casts first.

    >>> out = mint.nn.functional.softmax(ms.Tensor([[1., 2.]]), dim=1)
    """
    if dtype is not None:
        input = ops.cast(input, dtype)
    return ops.softmax(input, _softmax_dim(input, dim))


def log_softmax(input, dim=None, *, dtype=None):
    """Log-softmax along ``dim`` (PyTorch's implicit axis when None).

    >>> out = mint.nn.functional.log_softmax(ms.Tensor([[1., 2.]]), dim=1)
    """
    if dtype is not None:
        input = ops.cast(input, dtype)
    return ops.log_softmax(input, _softmax_dim(input, dim))


def glu(input, dim=-1):
    """Gated linear unit: first half times sigmoid of the second half along ``dim``.

    >>> out = mint.nn.functional.glu(ms.Tensor([[1., 2.]]))
    """
    if input.shape[dim] % 2:
        raise ValueError(f"glu: dimension {dim} has odd size {input.shape[dim]}")
    return ops.glu(input, dim)


# ---- linear, dropout, embedding, normalisation -----------------------------------------
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``.

    >>> out = mint.nn.functional.linear(ms.Tensor([[1., 2.]]), ms.Tensor([[3., 4.]]))
    """
    return ops.dense(input, weight, bias)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)`` while
    ``training``.

    >>> out = mint.nn.functional.dropout(ms.Tensor([1., 2.]), p=0.5, training=False)
    """
    if not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    return _in_place(input, inplace, ops.dropout(input, p, training))


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input with probability ``p`` while ``training``.

    >>> out = mint.nn.functional.dropout2d(ms.Tensor(np.ones((1, 2, 2, 2), np.float32)), training=False)
    """
    if not 0 <= p <= 1:
        raise ValueError(f"dropout2d: p must be in [0, 1], got {p}")
    return _in_place(input, inplace, ops.dropout2d(input, p, training))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Rows of ``weight`` at the indices ``input``. Difference from MindSpore: ``max_norm``
    renormalises the looked-up rows without writing them back into ``weight``.

    >>> out = mint.nn.functional.embedding(ms.Tensor([1, 0]), ms.Tensor([[1., 2.], [3., 4.]]))
    """
    out = ops.gather(weight, input, 0)
    if max_norm is not None:
        norms = ops.pow(ops.sum(ops.pow(ops.abs(out), norm_type), -1, True), 1.0 / norm_type)
        scale = ops.where(ops.gt(norms, max_norm), ops.div(max_norm, ops.add(norms, 1e-7)),
                          ops.ones_like(norms))
        out = ops.mul(out, ops.stop_gradient(scale))
    return out


def one_hot(tensor, num_classes=-1):
    """int64 one-hot rows of the class indices ``tensor`` (``num_classes`` -1: max + 1).

    >>> out = mint.nn.functional.one_hot(ms.Tensor([0, 2]), 3)
    """
    if num_classes == -1:
        num_classes = int(tensor.asnumpy().max()) + 1 if tensor.size else 0
    return ops.cast(ops.one_hot(tensor, num_classes, 1, 0), dt.int64)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Batch normalisation over the channel axis 1; in training the batch's statistics are
    used and ``running_mean`` / ``running_var`` updated in place (PyTorch's ``momentum``:
    the new value's weight).

    >>> out = mint.nn.functional.batch_norm(ms.Tensor([[1., 2.], [3., 4.]]), ms.Tensor([0., 0.]), ms.Tensor([1., 1.]))
    """
    channels = input.shape[1] if input.ndim > 1 else 0
    if weight is None:
        weight = ops.ones((channels,), input.dtype)
    if bias is None:
        bias = ops.zeros((channels,), input.dtype)
    if running_mean is not None and running_var is not None:
        return ops.batch_norm(input, running_mean, running_var, weight, bias, training,
                              momentum, eps)
    if not training:
        raise ValueError("batch_norm: running_mean and running_var are required when not "
                         "training")
    axes = (0,) + tuple(range(2, input.ndim))
    return _normalize_channels(input, ops.mean(input, axes), ops.var(input, axes, 0), weight,
                               bias, eps)


def _normalize_channels(input, mean, variance, weight, bias, eps):
    shape = (1, -1) + (1,) * (input.ndim - 2)
    scale = ops.reshape(weight * ops.rsqrt(variance + eps), shape)
    return (input - ops.reshape(mean, shape)) * scale + ops.reshape(bias, shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalise over the trailing ``normalized_shape`` axes (an int or a tuple), then
    scale and shift (``ops.layer_norm``).

    >>> out = mint.nn.functional.layer_norm(ms.Tensor([[1., 2., 3.]]), (3,))
    """
    return ops.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each of ``num_groups`` channel groups per sample, then scale and shift.

    >>> out = mint.nn.functional.group_norm(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 2)), 2)
    """
    if input.shape[1] % num_groups:
        raise ValueError(f"group_norm: {input.shape[1]} channels are not divisible into "
                         f"{num_groups} groups")
    return ops.group_norm(input, num_groups, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``).

    >>> out = mint.nn.functional.normalize(ms.Tensor([[3., 4.]]))
    """
    return ops.normalize(input, p, dim, eps)


# ---- losses ------------------------------------------------------------------------------
def kl_div(input, target, reduction="mean", log_target=False):
    """``target * (log(target) - input)`` (``input`` holds log-probabilities; with
    ``log_target`` so does ``target``); ``'batchmean'`` divides the sum by the batch size
    (``ops.kl_div``).

    >>> out = mint.nn.functional.kl_div(ms.Tensor([-1., -2.]), ms.Tensor([0.5, 0.5]))
    """
    return ops.kl_div(input, ops.exp(target) if log_target else target, reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-target * input))`` (``ops.soft_margin_loss``).

    >>> out = mint.nn.functional.soft_margin_loss(ms.Tensor([0.5, -1.]), ms.Tensor([1., -1.]))
    """
    return ops.soft_margin_loss(input, target, reduction)


_TABLE = [
    ("sigmoid", "input", ops.sigmoid, None, f"{_MODULE}.sigmoid({_X})"),
    ("tanh", "input", ops.tanh, None, f"{_MODULE}.tanh({_X})"),
    ("logsigmoid", "input", ops.logsigmoid, None, f"{_MODULE}.logsigmoid({_X})"),
    ("leaky_relu", "input, negative_slope=0.01", ops.leaky_relu,
     {"negative_slope": "alpha"}, f"{_MODULE}.leaky_relu({_X})"),
    ("prelu", "input, weight", ops.prelu, None, f"{_MODULE}.prelu({_X}, ms.Tensor([0.25]))"),
    ("flatten", "input, start_dim=0, end_dim=-1", ops.flatten,
     {"start_dim": "start_dim", "end_dim": "end_dim"},
     f"{_MODULE}.flatten({_IMG})"),
    ("mse_loss", "input, target, reduction='mean'", ops.mse_loss, None,
     f"{_MODULE}.mse_loss({_X}, {_X})"),
    ("binary_cross_entropy", "input, target, weight=None, reduction='mean'",
     ops.binary_cross_entropy, {"input": "logits", "target": "labels"},
     f"{_MODULE}.binary_cross_entropy(ms.Tensor([0.2, 0.9]), ms.Tensor([0., 1.]))"),
    ("binary_cross_entropy_with_logits",
     "input, target, weight=None, reduction='mean', pos_weight=None",
     ops.binary_cross_entropy_with_logits, {"input": "logits", "target": "label"},
     f"{_MODULE}.binary_cross_entropy_with_logits({_X}, ms.Tensor([0., 1.]))"),
    ("cross_entropy",
     "input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0",
     ops.cross_entropy, None, f"{_MODULE}.cross_entropy({_LOGITS}, ms.Tensor([1]))"),
    ("nll_loss", "input, target, weight=None, ignore_index=-100, reduction='mean'",
     ops.nll_loss, {"input": "inputs"},
     f"{_MODULE}.nll_loss({_LOGITS}, ms.Tensor([1]))"),
    ("cosine_embedding_loss", "input1, input2, target, margin=0.0, reduction='mean'",
     ops.cosine_embedding_loss, None,
     f"{_MODULE}.cosine_embedding_loss({_LOGITS}, {_LOGITS}, ms.Tensor([1.]))"),
    ("pad", "input, pad, mode='constant', value=None", ops.pad,
     {"input": "input_x", "pad": "padding"}, f"{_MODULE}.pad({_IMG}, (1, 1))"),
    ("interpolate",
     "input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
     "recompute_scale_factor=None", getattr(ops, "interpolate", None), None,
     f"{_MODULE}.interpolate({_IMG}, scale_factor=2.0)"),
    ("upsample", "input, size=None, scale_factor=None, mode='nearest', align_corners=None",
     getattr(ops, "interpolate", None), None, f"{_MODULE}.upsample({_IMG}, scale_factor=2.0)"),
    ("pixel_shuffle", "input, upscale_factor", getattr(ops, "pixel_shuffle", None), None,
     "mint.nn.functional.pixel_shuffle(ms.Tensor(np.ones((1, 4, 2, 2), np.float32)), 2)"),
    ("unfold", "input, kernel_size, dilation=1, padding=0, stride=1", ops.unfold, None,
     f"{_MODULE}.unfold({_IMG}, 2)"),
]
_SUMMARY = {
    "sigmoid": "``1 / (1 + exp(-input))``.", "tanh": "Hyperbolic tangent.",
    "logsigmoid": "``log(sigmoid(input))``, computed stably.",
    "leaky_relu": "``input`` where positive, ``negative_slope * input`` elsewhere.",
    "prelu": "``max(0, input) + weight * min(0, input)``, ``weight`` per channel (axis 1).",
    "flatten": "Axes ``start_dim`` .. ``end_dim`` merged into one.",
    "mse_loss": "Mean squared error.",
    "binary_cross_entropy": "Binary cross entropy of probabilities ``input``.",
    "binary_cross_entropy_with_logits": "Binary cross entropy of logits (``pos_weight`` "
                                        "weighs the positive class).",
    "cross_entropy": "Cross entropy of logits with class indices or probabilities.",
    "nll_loss": "Negative log-likelihood of log-probabilities at the class indices.",
    "cosine_embedding_loss": "``1 - cos`` for target 1, ``max(0, cos - margin)`` for -1.",
    "pad": "Pad the last axes by ``pad`` (last axis first): constant, reflect, replicate or "
           "circular.",
    "interpolate": "Resize by ``size`` or ``scale_factor`` (nearest, linear, bilinear, ...).",
    "upsample": "``interpolate`` (its older name).",
    "pixel_shuffle": "(N, C*r*r, H, W) -> (N, C, H*r, W*r).",
    "unfold": "Sliding blocks of (N, C, H, W) input as (N, C*kh*kw, L) columns.",
}
for _name, _spec, _target, _rename, _example in _TABLE:
    if _target is not None:
        globals()[_name] = _translated(_name, _spec, _target, _rename, _SUMMARY[_name],
                                       _example, _MODULE)


# ---- convolutions ------------------------------------------------------------------------
def _conv_padding(padding):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"conv: padding must be 'same', 'valid' or numbers, got "
                             f"{padding!r}")
        return padding, 0
    return "pad", padding


def _convolution(op, target):
    def function(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        pad_mode, pads = _conv_padding(padding)
        return target(input, weight, bias, stride, pad_mode, pads, dilation, groups)
    function.__name__ = function.__qualname__ = op
    function.__doc__ = (
        f"{op[-2:].upper()} convolution with PyTorch's arguments: ``padding`` a number, a "
        f"tuple or ``'same'`` / ``'valid'``.\n\n"
        f">>> out = mint.nn.functional.{op}(ms.Tensor(np.ones((1, 1{', 4' * int(op[-2])}), "
        f"np.float32)), ms.Tensor(np.ones((1, 1{', 3' * int(op[-2])}), np.float32)))")
    return function


conv1d = _convolution("conv1d", ops.conv1d)
conv2d = _convolution("conv2d", ops.conv2d)
conv3d = _convolution("conv3d", ops.conv3d)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """Transposed 2-D convolution; ``weight`` is (in, out / groups, kH, kW).

    >>> out = mint.nn.functional.conv_transpose2d(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)), ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))
    """
    return ops.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


# ---- sampling -----------------------------------------------------------------------------
def _reflect(coordinate, low, high):
    """Fold ``coordinate`` into [low, high] by reflecting at the ends (repeatedly)."""
    span = high - low
    if span <= 0:
        return ops.zeros_like(coordinate)
    distance = ops.abs(coordinate - low)
    flips = ops.floor(distance / span)
    extra = distance - flips * span
    even = ops.eq(ops.remainder(flips, 2.0), 0)
    return ops.where(even, extra + low, span - extra + low)


def _source_coordinate(normalized, size, padding_mode, align_corners):
    if align_corners:
        coordinate = (normalized + 1) / 2 * (size - 1)
    else:
        coordinate = ((normalized + 1) * size - 1) / 2
    if padding_mode == "border":
        coordinate = ops.clamp(coordinate, 0, size - 1)
    elif padding_mode == "reflection":
        if align_corners:
            coordinate = _reflect(coordinate, 0.0, size - 1.0)
        else:
            coordinate = _reflect(coordinate, -0.5, size - 0.5)
        coordinate = ops.clamp(coordinate, 0, size - 1)
    return coordinate


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample (N, C, H, W) ``input`` at the (N, Ho, Wo, 2) ``grid`` of normalised (x, y)
    points in [-1, 1]: ``mode`` ``'bilinear'`` or ``'nearest'``, ``padding_mode``
    ``'zeros'`` / ``'border'`` / ``'reflection'`` for points outside. Differences from
    MindSpore: 4-D input only, no ``'bicubic'``.

    >>> out = mint.nn.functional.grid_sample(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)), ms.Tensor(np.zeros((1, 1, 1, 2), np.float32)))
    """
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"grid_sample: mode must be 'bilinear' or 'nearest', got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"grid_sample: padding_mode must be 'zeros', 'border' or "
                         f"'reflection', got {padding_mode!r}")
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2 \
            or grid.shape[0] != input.shape[0]:
        raise ValueError(f"grid_sample: expected a 4-D input (N, C, H, W) and a grid "
                         f"(N, Ho, Wo, 2), got {tuple(input.shape)} and {tuple(grid.shape)}")
    n, c, h, w = input.shape
    ho, wo = grid.shape[1], grid.shape[2]
    grid = ops.cast(grid, input.dtype)
    x = _source_coordinate(grid[..., 0], w, padding_mode, bool(align_corners))
    y = _source_coordinate(grid[..., 1], h, padding_mode, bool(align_corners))
    flat = ops.reshape(input, (n, c, h * w))

    def corner(yy, xx):
        """Input values at integer points (yy, xx) (N, Ho, Wo), 0 outside the input."""
        inside = ops.logical_and(ops.logical_and(ops.ge(xx, 0), ops.le(xx, w - 1)),
                                 ops.logical_and(ops.ge(yy, 0), ops.le(yy, h - 1)))
        index = ops.cast(ops.clamp(yy, 0, h - 1) * w + ops.clamp(xx, 0, w - 1), dt.int64)
        index = ops.broadcast_to(ops.reshape(index, (n, 1, ho * wo)), (n, c, ho * wo))
        values = ops.gather_elements(flat, 2, index)
        values = ops.where(ops.reshape(inside, (n, 1, ho * wo)), values,
                           ops.zeros_like(values))
        return ops.reshape(values, (n, c, ho, wo))

    if mode == "nearest":
        return corner(ops.round(y), ops.round(x))
    x0, y0 = ops.floor(x), ops.floor(y)
    wx, wy = ops.unsqueeze(x - x0, 1), ops.unsqueeze(y - y0, 1)
    # the integer corners carry no gradient; the weights carry it to the grid
    x0, y0 = ops.stop_gradient(x0), ops.stop_gradient(y0)
    return (corner(y0, x0) * (1 - wx) * (1 - wy) + corner(y0, x0 + 1) * wx * (1 - wy)
            + corner(y0 + 1, x0) * (1 - wx) * wy + corner(y0 + 1, x0 + 1) * wx * wy)


__all__ = sorted(name for name, value in globals().items()
                 if not name.startswith("_") and callable(value)
                 and getattr(value, "__module__", "").startswith("tensorjit.mint"))
