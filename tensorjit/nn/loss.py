"""Loss cells: thin wrappers over the loss functions in ``tensorjit.ops``."""
from .. import ops
from ..tensor import Tensor
from .cell import Cell
from . import _checks

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
           "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss", "BCELoss", "KLDivLoss",
           "CosineEmbeddingLoss"]

REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base of the losses: holds ``reduction`` and offers ``get_loss`` for custom losses."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = _checks.one_of(reduction, REDUCTIONS, "reduction", type(self).__name__)

    def get_loss(self, x, weights=1.0):
        """Weight the element-wise loss ``x`` and reduce it by ``self.reduction``."""
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = ops.mul(x, weights)
        if self.reduction == "mean":
            return ops.mean(x)
        if self.reduction == "sum":
            return ops.sum(x)
        return x

    def extend_repr(self):
        return f"reduction={self.reduction}"


class MSELoss(LossBase):
    def construct(self, logits, labels):
        return ops.mse_loss(logits, labels, self.reduction)


class L1Loss(LossBase):
    def construct(self, logits, labels):
        return ops.l1_loss(logits, labels, self.reduction)


class SmoothL1Loss(LossBase):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = _checks.number(beta, "beta", "SmoothL1Loss", 0.0, low_open=True)

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of softmax(logits) against one-hot ``labels`` (class indices when
    ``sparse``); reduction 'none' by default, as in MindSpore."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = _checks.boolean(sparse, "sparse", "SoftmaxCrossEntropyWithLogits")

    def construct(self, logits, labels):
        return ops.softmax_cross_entropy_with_logits(logits, labels, self.sparse,
                                                     self.reduction)


def _weight(weight, layer):
    if weight is not None and not isinstance(weight, Tensor):
        raise TypeError(f"{layer}: 'weight' must be a Tensor or None, got "
                        f"{type(weight).__name__}")
    return weight


class CrossEntropyLoss(LossBase):
    """Cross entropy between logits (N, C, ...) and class indices or class probabilities."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight = _weight(weight, "CrossEntropyLoss")
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"CrossEntropyLoss: 'ignore_index' must be an int, got "
                            f"{ignore_index!r}")
        self.ignore_index = ignore_index
        self.label_smoothing = _checks.number(label_smoothing, "label_smoothing",
                                              "CrossEntropyLoss", 0.0, 1.0)

    def construct(self, logits, labels):
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index,
                                 self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of class indices under log-probabilities (N, C, ...)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = _weight(weight, "NLLLoss")
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"NLLLoss: 'ignore_index' must be an int, got {ignore_index!r}")
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of sigmoid(logits) against ``labels`` in [0, 1]."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = _weight(weight, "BCEWithLogitsLoss")
        self.pos_weight = _weight(pos_weight, "BCEWithLogitsLoss")

    def construct(self, logits, labels):
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight,
                                                    self.pos_weight, self.reduction)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities ``logits`` against ``labels``."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = _weight(weight, "BCELoss")

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class KLDivLoss(LossBase):
    """``labels * (log(labels) - logits)`` for log-probabilities ``logits``; reduction
    'mean' (over every element), 'batchmean', 'sum' or 'none'."""

    def __init__(self, reduction="mean"):
        Cell.__init__(self)
        self.reduction = _checks.one_of(reduction, REDUCTIONS + ("batchmean",), "reduction",
                                        "KLDivLoss")

    def construct(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``1 - cos(x1, x2)`` for label 1, ``max(0, cos(x1, x2) - margin)`` for label -1."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = _checks.number(margin, "margin", "CosineEmbeddingLoss", -1.0, 1.0)

    def construct(self, logits_x1, logits_x2, labels):
        return ops.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin,
                                         self.reduction)
