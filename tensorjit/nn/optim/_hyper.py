"""Hyper-parameter checks of the optimizers, with MindSpore's strictness: a value documented
as a float must be a Python float (an int is a TypeError, as in MindSpore), a flag a bool;
a value out of its range is a ValueError naming the optimizer, the argument and the range."""
import numpy as np

__all__ = ["strict_float", "float_range", "non_negative", "positive", "flag"]


def strict_float(who, name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (float, np.floating)):
        raise TypeError(f"{who}: '{name}' must be a float, got {value!r} "
                        f"({type(value).__name__})")
    return float(value)


def float_range(who, name, value, low, high, closed=(False, False)):
    """A float in (low, high), its ends included where ``closed`` says."""
    value = strict_float(who, name, value)
    left_ok = value >= low if closed[0] else value > low
    right_ok = value <= high if closed[1] else value < high
    if not (left_ok and right_ok):
        left, right = "[" if closed[0] else "(", "]" if closed[1] else ")"
        raise ValueError(f"{who}: '{name}' must be in {left}{low}, {high}{right}, got {value}")
    return value


def non_negative(who, name, value):
    value = strict_float(who, name, value)
    if value < 0:
        raise ValueError(f"{who}: '{name}' must be >= 0, got {value}")
    return value


def positive(who, name, value):
    value = strict_float(who, name, value)
    if value <= 0:
        raise ValueError(f"{who}: '{name}' must be > 0, got {value}")
    return value


def flag(who, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: '{name}' must be a bool, got {value!r}")
    return value
