"""Checkpoints in MindSpore's own formats: ``.ckpt`` (protobuf) and safetensors."""
from .api import (save_checkpoint, load_checkpoint, load_param_into_net,
                  async_ckpt_thread_status, CheckpointFormatError)

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net",
           "async_ckpt_thread_status", "CheckpointFormatError"]
