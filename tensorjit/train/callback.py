"""MindSpore 1.x's module name (``from mindspore.train.callback import LossMonitor``)."""
from .callbacks import *  # noqa: F401,F403
from .callbacks import __all__ as _callbacks
from .checkpoint_callback import CheckpointConfig, ModelCheckpoint  # noqa: F401

__all__ = list(_callbacks) + ["CheckpointConfig", "ModelCheckpoint"]
