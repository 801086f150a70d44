"""MindSpore's module name (``from mindspore.train.loss_scale_manager import ...``)."""
from ..amp import LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager  # noqa: F401

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
