"""``tensorjit.dataset.vision``: image operations (MindSpore's names)."""
from .transforms import (Inter, Border, Decode, Rescale, Normalize, HWC2CHW, Resize, CenterCrop,
                         RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, ToTensor)
from .color import (Equalize, AutoContrast, Invert, Posterize, Solarize, AdjustBrightness,
                    AdjustContrast, AdjustSaturation, AdjustHue, AdjustSharpness)
from .random_color import (RandomColorAdjust, RandomEqualize, RandomAutoContrast, RandomInvert,
                           RandomPosterize, RandomSolarize, RandomSharpness)
from .geometry import (Pad, Rotate, Affine, RandomRotation, RandomAffine, RandomResizedCrop,
                       RandomErasing)
from . import transforms as _base, color as _color, random_color as _random_color
from .augment import (AutoAugmentPolicy, AutoAugment, RandAugment, TrivialAugmentWide,
                      RandomSelectSubpolicy)
from . import geometry as _geometry, augment as _augment

__all__ = (_base.__all__ + _color.__all__ + _random_color.__all__ + _geometry.__all__
           + _augment.__all__)
