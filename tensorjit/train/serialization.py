"""MindSpore's module name (``from mindspore.train.serialization import load_checkpoint``)."""
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net  # noqa: F401

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
