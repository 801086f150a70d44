"""``tensorjit.dataset.vision``: image operations (MindSpore's names)."""
from .transforms import (Inter, Border, Decode, Rescale, Normalize, HWC2CHW, Resize, CenterCrop,
                         RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, ToTensor)

__all__ = ["Inter", "Border", "Decode", "Rescale", "Normalize", "HWC2CHW", "Resize",
           "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "ToTensor"]
