"""MindSpore's dynamic learning-rate functions: each returns the list of ``total_step``
rates, one per step, that an optimizer takes as ``learning_rate`` (step ``i`` uses entry
``i``).

The epoch of step ``i`` is ``floor(i / step_per_epoch)``; ``decay_epoch`` is counted in
epochs. ``is_stair=True`` makes the decay change once per ``decay_epoch`` epochs.
"""
import math
import numbers

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _positive_int(value, name, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: '{name}' must be an int, got {value!r}")
    if value <= 0:
        raise ValueError(f"{who}: '{name}' must be > 0, got {value}")
    return int(value)


def _number(value, name, who, positive=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{who}: '{name}' must be a float, got {value!r}")
    if positive and value <= 0:
        raise ValueError(f"{who}: '{name}' must be > 0, got {value}")
    if not positive and value < 0:
        raise ValueError(f"{who}: '{name}' must be >= 0, got {value}")
    return float(value)


def _epochs(who, total_step, step_per_epoch, decay_epoch):
    total_step = _positive_int(total_step, "total_step", who)
    step_per_epoch = _positive_int(step_per_epoch, "step_per_epoch", who)
    decay_epoch = _positive_int(decay_epoch, "decay_epoch", who)
    return [i // step_per_epoch for i in range(total_step)], decay_epoch


def piecewise_constant_lr(milestone, learning_rates):
    """Step ``i`` gets ``learning_rates[k]`` for the first ``milestone[k] > i``; the list
    has ``milestone[-1]`` entries."""
    who = "piecewise_constant_lr"
    if not isinstance(milestone, (list, tuple)) or not isinstance(learning_rates, (list, tuple)):
        raise TypeError(f"{who}: 'milestone' and 'learning_rates' must be lists")
    if len(milestone) != len(learning_rates) or not milestone:
        raise ValueError(f"{who}: 'milestone' and 'learning_rates' must be non-empty and of "
                         f"the same length, got {len(milestone)} and {len(learning_rates)}")
    last = 0
    for m in milestone:
        _positive_int(m, "milestone", who)
        if m <= last:
            raise ValueError(f"{who}: 'milestone' must be strictly increasing, got {milestone}")
        last = m
    rates = [_number(r, "learning_rates", who, positive=False) for r in learning_rates]
    result, k = [], 0
    for i in range(milestone[-1]):
        while i >= milestone[k]:
            k += 1
        result.append(rates[k])
    return result


def _decay_lr(who, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
              is_stair, rule):
    learning_rate = _number(learning_rate, "learning_rate", who)
    decay_rate = _number(decay_rate, "decay_rate", who)
    if not isinstance(is_stair, bool):
        raise TypeError(f"{who}: 'is_stair' must be a bool, got {is_stair!r}")
    epochs, decay_epoch = _epochs(who, total_step, step_per_epoch, decay_epoch)
    return [rule(learning_rate, decay_rate, epoch, decay_epoch, is_stair) for epoch in epochs]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``lr * decay_rate ** (epoch / decay_epoch)``."""
    def rule(lr, rate, epoch, decay_epoch, stair):
        p = epoch // decay_epoch if stair else epoch / decay_epoch
        return lr * rate ** p
    return _decay_lr("exponential_decay_lr", learning_rate, decay_rate, total_step,
                     step_per_epoch, decay_epoch, is_stair, rule)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """``lr * exp(-decay_rate * epoch)`` (stair: the epoch rounded down to a multiple of
    ``decay_epoch``)."""
    def rule(lr, rate, epoch, decay_epoch, stair):
        p = (epoch // decay_epoch) * decay_epoch if stair else epoch
        return lr * math.exp(-rate * p)
    return _decay_lr("natural_exp_decay_lr", learning_rate, decay_rate, total_step,
                     step_per_epoch, decay_epoch, is_stair, rule)


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """``lr / (1 + decay_rate * epoch / decay_epoch)``."""
    def rule(lr, rate, epoch, decay_epoch, stair):
        p = epoch // decay_epoch if stair else epoch / decay_epoch
        return lr / (1 + rate * p)
    return _decay_lr("inverse_decay_lr", learning_rate, decay_rate, total_step,
                     step_per_epoch, decay_epoch, is_stair, rule)


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))
    / 2``."""
    who = "cosine_decay_lr"
    min_lr = _number(min_lr, "min_lr", who, positive=False)
    max_lr = _number(max_lr, "max_lr", who)
    if max_lr <= min_lr:
        raise ValueError(f"{who}: 'max_lr' must be > 'min_lr', got {max_lr} and {min_lr}")
    epochs, decay_epoch = _epochs(who, total_step, step_per_epoch, decay_epoch)
    return [min_lr + 0.5 * (max_lr - min_lr)
            * (1.0 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch))
            for epoch in epochs]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False):
    """``(lr - end) * (1 - epoch / decay_epoch) ** power + end`` with the epoch capped at
    ``decay_epoch``; ``update_decay_epoch`` instead stretches ``decay_epoch`` to the next
    multiple of itself past the epoch (the decay restarts)."""
    who = "polynomial_decay_lr"
    learning_rate = _number(learning_rate, "learning_rate", who)
    end = _number(end_learning_rate, "end_learning_rate", who, positive=False)
    power = _number(power, "power", who)
    if not isinstance(update_decay_epoch, bool):
        raise TypeError(f"{who}: 'update_decay_epoch' must be a bool, got {update_decay_epoch!r}")
    epochs, decay_epoch = _epochs(who, total_step, step_per_epoch, decay_epoch)
    result = []
    for epoch in epochs:
        if update_decay_epoch:
            span = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            span, epoch = decay_epoch, min(epoch, decay_epoch)
        result.append((learning_rate - end) * (1.0 - epoch / span) ** power + end)
    return result


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``lr * min(epoch, warmup_epoch) / warmup_epoch``."""
    who = "warmup_lr"
    learning_rate = _number(learning_rate, "learning_rate", who)
    epochs, warmup_epoch = _epochs(who, total_step, step_per_epoch, warmup_epoch)
    return [learning_rate * min(epoch, warmup_epoch) / warmup_epoch for epoch in epochs]
