"""Argument checks with MindSpore's dataset messages."""
_MAX = 16777216


def check_type(name, value, kinds):
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise TypeError(f"Argument {name} with value {value} is not of type {list(kinds)}, but "
                        f"got {type(value)}.")


def check_positive(name, value):
    # a number in (0, 16777216]
    check_type(name, value, (int, float))
    if not 0 < value <= _MAX:
        raise ValueError(f"Input {name} is not within the required interval of (0, {_MAX}].")


def check_non_negative(name, value):
    check_type(name, value, (int, float))
    if not 0 <= value <= _MAX:
        raise ValueError(f"Input {name} is not within the required interval of [0, {_MAX}].")


def check_int_range(name, value, low=1, high=2147483647):
    check_type(name, value, int)
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


def pipeline_error(message):
    # a bad row inside MindSpore's pipeline is a RuntimeError
    return RuntimeError(f"[ERROR] {message}")
