"""How MindSpore's remaining nn operator classes compute (``ops/operations.py`` makes the
classes): losses returning MindSpore's extra outputs, channel dropout with its mask, local
response and RMS normalisation, log-softmax with PyTorch's implicit axis. Each takes the
call's inputs and the class's attributes as keywords."""
from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import random as _random
from . import reduction as _red
from . import shape as _shape
from .activation import _floating_input
from .loss import binary_cross_entropy_with_logits
from .loss_extra import soft_margin_loss, triplet_margin_loss, multilabel_margin_parts
from .normalization import log_softmax, batch_norm
from .nn_functions import lrn, rms_norm

__all__ = ["compute_sigmoid_cross_entropy", "compute_channel_dropout", "compute_lrn",
           "compute_rms_norm", "compute_soft_margin_loss", "compute_triplet_margin_loss",
           "compute_multilabel_margin_loss", "compute_log_softmax_ext", "compute_batch_norm"]


def compute_sigmoid_cross_entropy(logits, label):
    """``SigmoidCrossEntropyWithLogits``: the elementwise
    ``-(y log(sigmoid(x)) + (1 - y) log(1 - sigmoid(x)))``, unreduced."""
    op = "SigmoidCrossEntropyWithLogits"
    x = _floating_input(logits, op)
    y = coerce.as_tensor(label, op=op)
    if y.dtype != x.dtype or tuple(y.shape) != tuple(x.shape):
        raise TypeError(f"{op}: 'label' must have the shape and dtype of 'logits' "
                        f"{x.dtype}{list(x.shape)}, got {y.dtype}{list(y.shape)}")
    return binary_cross_entropy_with_logits(x, y, reduction="none")


def compute_channel_dropout(rank):
    """``Dropout2D`` / ``Dropout3D``: (output, bool mask) of an (N, C, spatial...) input
    whose channels are each kept with probability ``keep_prob`` (and scaled by
    1 / keep_prob), the mask marking the kept elements."""
    op = f"Dropout{rank}D"

    def compute(x, *, keep_prob):
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, float):
            raise TypeError(f"{op}: 'keep_prob' must be a float, got "
                            f"{type(keep_prob).__name__}")
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"{op}: 'keep_prob' must be in [0.0, 1.0], got {keep_prob}")
        x = coerce.as_tensor(x, op=op)
        if x.ndim != rank + 2:
            raise ValueError(f"{op}: expected a {rank + 2}-D input, got shape {tuple(x.shape)}")
        if keep_prob == 1.0:
            return x, _ew.cast(_ew.ones_like(x), dt.bool_)
        draw_dtype = x.dtype if dt.is_float(x.dtype) else dt.float32
        draws = _random.uniform_p.bind(shape=tuple(x.shape[:2]) + (1,) * rank,
                                       dtype=draw_dtype)
        keep = _shape.broadcast_to(_ew.lt(draws, keep_prob), tuple(x.shape))
        if keep_prob == 0.0:
            return _ew.zeros_like(x), keep
        if not dt.is_float(x.dtype):      # x / keep_prob in float, truncated (MindSpore)
            kept = _ew.mul(_ew.cast(x, dt.float32), _ew.cast(keep, dt.float32))
            return _ew.cast(_ew.mul(kept, 1.0 / keep_prob), x.dtype), keep
        scale = _ew.mul(_ew.cast(keep, x.dtype), 1.0 / keep_prob)
        return _ew.mul(x, scale), keep
    compute.__doc__ = compute_channel_dropout.__doc__
    return compute


def compute_lrn(x, *, depth_radius, bias, alpha, beta, norm_region):
    """``LRN``: local response normalisation across channels (``ops.lrn``)."""
    return lrn(x, depth_radius, bias, alpha, beta, norm_region)


def compute_rms_norm(x, gamma, *, epsilon):
    """``RmsNorm``: (y, rstd) of ``ops.rms_norm``."""
    return rms_norm(x, gamma, epsilon)


def compute_soft_margin_loss(input, target, *, reduction):
    """``SoftMarginLoss``: ``ops.soft_margin_loss``."""
    return soft_margin_loss(input, target, reduction)


def compute_triplet_margin_loss(x, positive, negative, margin, *, p, swap, eps, reduction):
    """``TripletMarginLoss``: ``ops.triplet_margin_loss`` with ``margin`` a 0-d float32
    Tensor input."""
    op = "TripletMarginLoss"
    if not hasattr(margin, "shape") or margin.ndim != 0:
        raise ValueError(f"{op}: 'margin' must be a 0-d Tensor, got {margin!r}")
    if margin.dtype != dt.float32:
        raise TypeError(f"{op}: 'margin' must be float32, got {margin.dtype}")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"{op}: 'p' must be an int, got {type(p).__name__}")
    return triplet_margin_loss(x, positive, negative, margin, p, eps, swap, reduction)


def compute_multilabel_margin_loss(x, target, *, reduction):
    """``MultilabelMarginLoss``: (loss, is_target), is_target marking the label classes."""
    return multilabel_margin_parts(x, target, reduction)


def compute_log_softmax_ext(input, dim=None, dtype=None):
    """``LogSoftmaxExt``: log-softmax along ``dim`` (None: axis 0 for 0-, 1- and 3-d
    inputs, else 1, as PyTorch's implicit choice), computed in ``dtype`` when given."""
    x = coerce.as_tensor(input, op="LogSoftmaxExt")
    if dtype is not None:
        x = _ew.cast(x, dtype)
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return log_softmax(x, dim)


def compute_batch_norm(input_x, scale, bias, mean, variance, *, is_training, epsilon,
                       momentum, data_format):
    """``BatchNorm``: (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2) as
    MindSpore 2.10's CPU kernel gives them: in training ``y`` is normalised with the batch
    statistics, the reserve spaces hold the batch mean and (biased) variance, and ``mean``
    / ``variance`` Parameters are updated in place (``(1 - momentum) * running + momentum *
    batch``, the unbiased variance); in inference ``y`` uses ``mean`` / ``variance``. The
    kernel leaves batch_mean / batch_variance (and in inference the reserve spaces) zero.
    A float16 input computes in float32; the statistics are float32."""
    op = "BatchNorm"
    if not isinstance(is_training, bool):
        raise TypeError(f"{op}: 'is_training' must be a bool, got {type(is_training).__name__}")
    for name, value in (("epsilon", epsilon), ("momentum", momentum)):
        if isinstance(value, bool) or not isinstance(value, float):
            raise TypeError(f"{op}: '{name}' must be a float, got {type(value).__name__}")
    if not 0 < epsilon <= 1 or not 0 <= momentum <= 1:
        raise ValueError(f"{op}: 'epsilon' must be in (0, 1] and 'momentum' in [0, 1], got "
                         f"{epsilon} and {momentum}")
    if data_format != "NCHW":
        raise ValueError(f"{op}: only data_format 'NCHW' is supported on CPU, got "
                         f"{data_format!r}")
    x = coerce.as_tensor(input_x, op=op)
    params = [coerce.as_tensor(p, op=op) for p in (scale, bias, mean, variance)]
    for t in [x] + params:
        if t.dtype not in (dt.float16, dt.float32):
            raise TypeError(f"{op}: the inputs must be float16 or float32, got {t.dtype}")
    if x.ndim not in (2, 4):
        raise ValueError(f"{op}: expected an (N, C) or (N, C, H, W) input, got shape "
                         f"{tuple(x.shape)}")
    wide = _ew.cast(x, dt.float32)
    scale, bias = (_ew.cast(p, dt.float32) for p in params[:2])
    zeros = _ew.zeros_like(_ew.cast(params[2], dt.float32))
    if not is_training:
        y = batch_norm(wide, _ew.cast(params[2], dt.float32), _ew.cast(params[3], dt.float32),
                       scale, bias, False, momentum, epsilon)
        return _ew.cast(y, x.dtype), zeros, zeros, zeros, zeros
    axes = (0,) + tuple(range(2, x.ndim))
    batch_mean = _ew.stop_gradient(_red.mean(wide, axes))
    batch_var = _ew.stop_gradient(_red.var(wide, axes))
    y = batch_norm(wide, params[2], params[3], scale, bias, True, momentum, epsilon)
    return _ew.cast(y, x.dtype), zeros, zeros, batch_mean, batch_var
