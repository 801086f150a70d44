"""Constructor-argument checks shared by the layers.

Every failure names the layer, the argument and the value, so a user who passes
``pad_mode='smae'`` learns which layer complained and what it expected.
"""
import numbers

import numpy as np


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def positive_int(value, name, layer):
    if not _is_int(value):
        raise TypeError(f"{layer}: '{name}' must be an int, got {value!r} "
                        f"({type(value).__name__})")
    if value <= 0:
        raise ValueError(f"{layer}: '{name}' must be a positive int, got {value}")
    return int(value)


def non_negative_int(value, name, layer):
    if not _is_int(value):
        raise TypeError(f"{layer}: '{name}' must be an int, got {value!r} "
                        f"({type(value).__name__})")
    if value < 0:
        raise ValueError(f"{layer}: '{name}' must be >= 0, got {value}")
    return int(value)


def int_pair(value, name, layer, minimum=1):
    """An int or a pair of ints, each >= ``minimum``, as a 2-tuple."""
    if _is_int(value):
        items = (value, value)
    elif isinstance(value, (tuple, list)) and len(value) in (1, 2) and all(map(_is_int, value)):
        items = tuple(value) * (2 if len(value) == 1 else 1)
    else:
        raise TypeError(f"{layer}: '{name}' must be an int or a tuple of 2 ints, got {value!r}")
    if any(v < minimum for v in items):
        raise ValueError(f"{layer}: '{name}' must be >= {minimum}, got {value!r}")
    return tuple(int(v) for v in items)


def padding_arg(value, layer):
    """MindSpore's ``padding``: an int, or 2 (height, width) / 4 (top, bottom, left, right)
    non-negative ints."""
    if _is_int(value):
        return non_negative_int(value, "padding", layer)
    if isinstance(value, (tuple, list)) and len(value) in (2, 4) and all(map(_is_int, value)):
        if any(v < 0 for v in value):
            raise ValueError(f"{layer}: 'padding' must be >= 0, got {value!r}")
        return tuple(int(v) for v in value)
    raise TypeError(f"{layer}: 'padding' must be an int or a tuple of 2 or 4 ints, got {value!r}")


def is_zero_padding(padding):
    return padding == 0 or (isinstance(padding, tuple) and not any(padding))


def one_of(value, choices, name, layer):
    """A string option, matched case-insensitively; returns the lower-case form."""
    if not isinstance(value, str) or value.lower() not in choices:
        raise ValueError(f"{layer}: '{name}' must be one of {', '.join(map(repr, choices))}, "
                         f"got {value!r}")
    return value.lower()


def boolean(value, name, layer):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{layer}: '{name}' must be a bool, got {value!r} "
                        f"({type(value).__name__})")
    return bool(value)


def number(value, name, layer, low=None, high=None, low_open=False, high_open=False):
    """A real number (not bool) in the interval given by ``low``/``high``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{layer}: '{name}' must be a number, got {value!r} "
                        f"({type(value).__name__})")
    value = float(value)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{layer}: '{name}' must be in {left}{lo}, {hi}{right}, got {value}")
    return value
