"""``tensorjit.dataset.config``: the pipeline's global settings (MindSpore's names)."""
import numbers
import os

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size"]

# MindSpore's default dataset seed (its mt19937 default): shuffles are reproducible unless a
# script sets another seed.
_SETTINGS = {"seed": 5489, "num_parallel_workers": min(8, os.cpu_count() or 1),
             "prefetch_size": 16, "seed_generation": 0}


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"dataset.config: '{name}' must be a positive int, got {value!r}")
    return int(value)


def set_seed(seed):
    """Seed of every shuffle and random transform created after this call."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not \
            0 <= seed < 2 ** 32:
        raise ValueError(f"dataset.config.set_seed: seed must be an int in [0, 2**32), got "
                         f"{seed!r}")
    _SETTINGS["seed"] = int(seed)
    _SETTINGS["seed_generation"] = 0        # random ops made after this count from 0


def get_seed():
    return _SETTINGS["seed"]


def set_num_parallel_workers(num):
    _SETTINGS["num_parallel_workers"] = _positive_int(num, "num")


def get_num_parallel_workers():
    return _SETTINGS["num_parallel_workers"]


def set_prefetch_size(size):
    """Rows (or batches) each parallel stage may run ahead of its consumer."""
    _SETTINGS["prefetch_size"] = _positive_int(size, "size")


def get_prefetch_size():
    return _SETTINGS["prefetch_size"]
