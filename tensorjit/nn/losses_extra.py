"""More loss cells: margin, ranking, likelihood, segmentation (Dice) and focal losses.

Most wrap a function of ``tensorjit.ops``; the ones MindSpore has only as cells (Dice,
focal, RMSE, MAE, Poisson) are composed here from ops, so every loss differentiates and
compiles like any other cell."""
from .. import dtype as dt
from .. import ops
from ..ops import loss_extra
from ..tensor import Tensor
from .cell import Cell
from .loss import LossBase
from .layers.activation import get_activation
from . import _checks

__all__ = ["HuberLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
           "TripletMarginLoss", "GaussianNLLLoss", "PoissonNLLLoss", "MultiMarginLoss",
           "MultiLabelSoftMarginLoss", "MultilabelMarginLoss", "DiceLoss",
           "MultiClassDiceLoss", "FocalLoss", "RMSELoss", "MAELoss", "CTCLoss"]


def _optional_tensor(value, name, layer):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{layer}: '{name}' must be a Tensor or None, got "
                        f"{type(value).__name__}")
    return value


class HuberLoss(LossBase):
    """Huber loss of ``logits`` against ``labels`` (``ops.huber_loss``): quadratic below
    ``delta``, linear above.

    Args: ``reduction`` 'mean' | 'sum' | 'none' (default 'mean'); ``delta`` > 0 (1.0).

    >>> import tensorjit as ms
    >>> float(ms.nn.HuberLoss()(ms.Tensor([0.0, 3.0]), ms.Tensor([0.5, 0.0])))
    1.3125
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = _checks.number(delta, "delta", "HuberLoss", 0.0, low_open=True)

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)`` (``ops.margin_ranking_loss``).

    Args: ``margin`` a float (0.0); ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> loss = ms.nn.MarginRankingLoss()
    >>> float(loss(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 1.0]), ms.Tensor([1.0, 1.0])))
    0.5
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` for positive labels, ``max(0, margin - x)`` for negative ones
    (``ops.hinge_embedding_loss``).

    Args: ``margin`` a number (1.0); ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> float(ms.nn.HingeEmbeddingLoss()(ms.Tensor([0.5, 0.5]), ms.Tensor([1.0, -1.0])))
    0.5
    """

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = _checks.number(margin, "margin", "HingeEmbeddingLoss")

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-labels * logits))`` (``ops.soft_margin_loss``).

    Args: ``reduction`` 'mean' | 'sum' | 'none'.

    >>> import tensorjit as ms
    >>> round(float(ms.nn.SoftMarginLoss()(ms.Tensor([0.0]), ms.Tensor([1.0]))), 4)
    0.6931
    """

    def construct(self, logits, labels):
        return ops.soft_margin_loss(logits, labels, self.reduction)


class TripletMarginLoss(LossBase):
    """Triplet loss ``max(d(x, positive) - d(x, negative) + margin, 0)``
    (``ops.triplet_margin_loss``). As in MindSpore, ``construct``'s ``margin`` is used
    unless the constructor's differs from 1.0.

    Args: ``p`` (2), ``swap`` (False), ``eps`` (1e-6), ``reduction`` ('mean'),
    ``margin`` (1.0).

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[0.0, 0.0]])
    >>> float(ms.nn.TripletMarginLoss(eps=0.0)(x, ms.Tensor([[0.0, 1.0]]), ms.Tensor([[1.0, 0.0]])))
    1.0
    """

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=1.0):
        if self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                       self.swap, self.reduction)


class GaussianNLLLoss(LossBase):
    """Gaussian negative log-likelihood of ``labels`` under N(``logits``, ``var``)
    (``ops.gaussian_nll_loss``).

    Args (keyword-only): ``full`` (False), ``eps`` (1e-6), ``reduction`` ('mean').

    >>> import tensorjit as ms
    >>> float(ms.nn.GaussianNLLLoss()(ms.Tensor([1.0]), ms.Tensor([1.0]), ms.Tensor([1.0])))
    0.0
    """

    def __init__(self, *, full=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        self.full = _checks.boolean(full, "full", "GaussianNLLLoss")
        self.eps = _checks.number(eps, "eps", "GaussianNLLLoss", 0.0, low_open=True)

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log-likelihood: ``exp(input) - target * input`` for log-rates
    (``log_input=True``), else ``input - target * log(input + eps)``; ``full`` adds
    Stirling's approximation of ``log(target!)`` where ``target > 1``.

    Args: ``log_input`` (True), ``full`` (False), ``eps`` (1e-8), ``reduction`` ('mean').
    Integer inputs compute in float32 (MindSpore's exp refuses int32).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.PoissonNLLLoss()(ms.Tensor([0.0]), ms.Tensor([2.0]))), 4)
    1.0
    """

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input = _checks.boolean(log_input, "log_input", "PoissonNLLLoss")
        self.full = _checks.boolean(full, "full", "PoissonNLLLoss")
        self.eps = _checks.number(eps, "eps", "PoissonNLLLoss")

    def construct(self, input, target):
        return loss_extra.poisson_nll_loss(input, target, self.log_input, self.full, self.eps,
                                           self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss (``ops.multi_margin_loss``); the constructor's ``weight``
    wins over ``construct``'s, as in MindSpore.

    Args: ``p`` 1 or 2 (1), ``margin`` (1.0), ``reduction`` ('mean'), ``weight`` None or
    a (C,) Tensor.

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> round(float(ms.nn.MultiMarginLoss()(x, ms.Tensor([3], ms.int64))), 4)
    0.325
    """

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        if isinstance(p, bool) or p not in (1, 2):
            raise ValueError(f"MultiMarginLoss: 'p' must be 1 or 2, got {p!r}")
        self.p = p
        self.margin = _checks.number(margin, "margin", "MultiMarginLoss")
        self.weight = _optional_tensor(weight, "weight", "MultiMarginLoss")

    def construct(self, x, target, weight=None):
        if self.weight is not None:
            weight = self.weight
        return ops.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """Multi-label one-versus-all logistic loss (``ops.multilabel_soft_margin_loss``).

    Args: ``weight`` None or a Tensor of per-class weights; ``reduction`` ('mean').

    >>> import tensorjit as ms
    >>> loss = ms.nn.MultiLabelSoftMarginLoss()
    >>> round(float(loss(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[1.0, 0.0]]))), 4)
    0.6931
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = _optional_tensor(weight, "weight", "MultiLabelSoftMarginLoss")

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss over the labels listed in ``target`` up to its first -1
    (``ops.multilabel_margin_loss``). Returns the loss only (MindSpore's cell does too).

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]]); y = ms.Tensor([[3, 0, -1, 1]], ms.int32)
    >>> round(float(ms.nn.MultilabelMarginLoss()(x, y)), 4)
    0.85
    """

    def construct(self, x, target):
        return ops.multilabel_margin_loss(x, target, self.reduction)


def _same_shape(logits, label, layer):
    if tuple(logits.shape) != tuple(label.shape):
        raise ValueError(f"{layer}: logits shape {tuple(logits.shape)} must equal label shape "
                         f"{tuple(label.shape)}")


def _dice_loss(logits, label, smooth):
    """``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over all elements."""
    x = ops.reshape(logits, (-1,))
    y = ops.cast(ops.reshape(label, (-1,)), x.dtype)
    overlap = ops.sum(ops.mul(x, y))
    union = ops.add(ops.sum(ops.mul(x, x)), ops.sum(ops.mul(y, y)))
    return ops.sub(1.0, ops.div(ops.mul(overlap, 2.0), ops.add(union, smooth)))


class DiceLoss(Cell):
    """Dice loss of predicted probabilities ``logits`` against ``label`` (same shape, else
    ValueError): ``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over every element.

    Args: ``smooth`` a positive float (1e-5; an int raises TypeError, as in MindSpore).

    >>> import tensorjit as ms
    >>> round(float(ms.nn.DiceLoss(smooth=1.0)(ms.Tensor([1.0, 0.0]), ms.Tensor([1.0, 0.0]))), 4)
    0.3333
    """

    def __init__(self, smooth=1e-05):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"DiceLoss: 'smooth' must be a float, got {type(smooth).__name__}")
        self.smooth = _checks.number(smooth, "smooth", "DiceLoss", 0.0, low_open=True)

    def construct(self, logits, label):
        _same_shape(logits, label, "DiceLoss")
        return _dice_loss(logits, label, self.smooth)


_DICE_ACTIVATIONS = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")


class MultiClassDiceLoss(Cell):
    """Mean over the classes (axis 1) of the Dice loss of each class's slice, after
    ``activation``; ``weights`` (a (1, C)-like 2-D Tensor, indexed by class on its first
    axis as MindSpore does) scale each class's loss; class ``ignore_indiex`` (MindSpore's
    spelling) is left out of the sum but still counted in the mean.

    Args: ``weights`` None or a 2-D Tensor; ``ignore_indiex`` None or an int;
    ``activation`` one of 'softmax', 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid',
    a Cell, or None.

    >>> import tensorjit as ms
    >>> loss = ms.nn.MultiClassDiceLoss(activation=None)
    >>> round(float(loss(ms.Tensor([[1.0, 0.0]]), ms.Tensor([[1.0, 0.0]]))), 4)
    0.5
    """

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        self.weights = _optional_tensor(weights, "weights", "MultiClassDiceLoss")
        if weights is not None and weights.ndim != 2:
            raise ValueError(f"MultiClassDiceLoss: 'weights' must be 2-D, got {weights.ndim}-D")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool)
                                          or not isinstance(ignore_indiex, int)):
            raise TypeError(f"MultiClassDiceLoss: 'ignore_indiex' must be an int, got "
                            f"{ignore_indiex!r}")
        self.ignore_indiex = ignore_indiex
        if isinstance(activation, str):
            if activation not in _DICE_ACTIVATIONS:
                raise ValueError(f"MultiClassDiceLoss: 'activation' must be one of "
                                 f"{list(_DICE_ACTIVATIONS)}, got {activation!r}")
            activation = get_activation(activation)
        elif activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"MultiClassDiceLoss: 'activation' must be a str or a Cell, got "
                            f"{type(activation).__name__}")
        self.activation = activation

    def construct(self, logits, label):
        _same_shape(logits, label, "MultiClassDiceLoss")
        if logits.ndim < 2:
            raise ValueError(f"MultiClassDiceLoss: 'logits' dimension must be greater than 1, "
                             f"got {logits.ndim}")
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ValueError(f"MultiClassDiceLoss: weights.shape[0] ({self.weights.shape[0]}) "
                             f"must equal label.shape[1] ({classes})")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0.0
        for i in range(classes):
            if i == self.ignore_indiex:
                continue
            loss = _dice_loss(logits[:, i], label[:, i], 1e-5)
            if self.weights is not None:
                loss = ops.mul(loss, self.weights[i])
            total = ops.add(loss, total)
        return ops.div(total, float(classes))


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p)^gamma log p`` of the softmax over axis 1 of ``logits``
    (N, C) or (N, C, H[, W]); ``labels`` are class indices with a channel of size 1
    (N, 1, ...), or one-hot / probabilities of ``logits``' shape. As in MindSpore, the
    per-sample loss averages over the spatial positions (index labels) or over the last
    axis (one-hot labels) before ``reduction``.

    Args: ``weight`` None or a 1-D Tensor of class weights; ``gamma`` a float (2.0; an int
    raises TypeError); ``reduction`` ('mean').

    >>> import tensorjit as ms
    >>> loss = ms.nn.FocalLoss(gamma=0.0)
    >>> round(float(loss(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[1]], ms.int32))), 4)
    0.6931
    """

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"FocalLoss: 'gamma' must be a float, got {type(gamma).__name__}")
        self.gamma = gamma
        self.weight = _optional_tensor(weight, "weight", "FocalLoss")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"FocalLoss: 'weight' must be 1-D, got {weight.ndim}-D")

    def construct(self, logits, labels):
        for name, value in (("logits", logits), ("labels", labels)):
            if not 2 <= value.ndim <= 4:
                raise ValueError(f"FocalLoss: the rank of '{name}' must be in [2, 4], got "
                                 f"{value.ndim}")
        if logits.shape[1] == 1:
            raise ValueError("FocalLoss: logits.shape[1] (the classes) cannot be 1")
        if labels.shape[1] not in (1, logits.shape[1]):
            raise ValueError(f"FocalLoss: labels.shape[1] must be 1 or logits.shape[1] "
                             f"({logits.shape[1]}), got {labels.shape[1]}")
        n, c = logits.shape[0], logits.shape[1]
        x = ops.reshape(logits, (n, c, -1))
        y = ops.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        logp = ops.log_softmax(x, 1)
        indices = labels.shape[1] == 1
        if indices:
            picks = ops.cast(y, dt.int64)
            logp = ops.squeeze(ops.gather_elements(logp, 1, picks), 1)          # (N, L)
        if self.weight is not None:
            w = ops.cast(self.weight, logp.dtype)
            w = ops.squeeze(ops.gather(w, picks, 0), 1) if indices else \
                ops.reshape(w, (1, c, 1))
            weighted_logp = ops.mul(logp, w)
        else:
            weighted_logp = logp
        modulation = ops.pow(ops.sub(1.0, ops.exp(logp)), self.gamma)
        if indices:
            loss = ops.mean(ops.neg(ops.mul(modulation, weighted_logp)), 1)
        else:
            per = ops.mul(ops.mul(modulation, ops.cast(y, logp.dtype)), weighted_logp)
            loss = ops.mean(ops.neg(per), -1)
        return self.get_loss(loss)


class RMSELoss(LossBase):
    """Root mean squared error ``sqrt(mean((logits - label)^2))``; the inputs broadcast.

    >>> import tensorjit as ms
    >>> round(float(ms.nn.RMSELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0]))), 5)
    0.57735
    """

    def __init__(self):
        super().__init__("mean")

    def construct(self, logits, label):
        for name, value in (("logits", logits), ("label", label)):
            if value.dtype in (dt.uint8, dt.uint16, dt.uint32, dt.uint64):
                raise TypeError(f"RMSELoss: '{name}' must not be unsigned, got {value.dtype}")
        diff = ops.sub(logits, label)
        mse = ops.mean(ops.mul(diff, diff))
        return ops.sqrt(mse)


class MAELoss(LossBase):
    """Mean absolute error ``|logits - label|`` reduced by ``reduction``; the inputs
    broadcast and keep their (promoted) dtype, integers too.

    >>> import tensorjit as ms
    >>> float(ms.nn.MAELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 2.0])))
    0.5
    """

    def construct(self, logits, label):
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class CTCLoss(LossBase):
    """Connectionist temporal classification loss (``ops.ctc_loss``; the cell returns the
    loss only, as MindSpore's).

    Args: ``blank`` the blank class (0); ``reduction`` 'mean' (losses divided by their
    target lengths, then averaged), 'sum' or 'none'; ``zero_infinity`` (False) replaces
    infinite losses and their gradients by 0.

    >>> import tensorjit as ms, numpy as np
    >>> lp = ms.Tensor(np.log(np.full((2, 1, 2), 0.5, np.float32)))
    >>> loss = ms.nn.CTCLoss()(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1]))
    >>> round(float(loss), 4)
    0.2877
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        self.blank = _checks.non_negative_int(blank, "blank", "CTCLoss")
        self.zero_infinity = _checks.boolean(zero_infinity, "zero_infinity", "CTCLoss")

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)
        return loss
