"""The option enums of MindSpore's audio operations (same members and values)."""
from enum import Enum


class ScaleType(str, Enum):
    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, Enum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class BorderType(str, Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class NormType(str, Enum):
    SLANEY = "slaney"
    NONE = "none"


class MelType(str, Enum):
    HTK = "htk"
    SLANEY = "slaney"
