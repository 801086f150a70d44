"""``tensorjit.dataset.config``: the pipeline's global settings (MindSpore's names)."""
import enum
import numbers
import os

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size", "ErrorSamplesMode"]

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



# Settings of MindSpore's C++ pipeline (autotuning, shared memory, watchdogs, NUMA binding,
# ...): tensorjit's pipeline has no such machinery, so they are checked as MindSpore checks
# them and stored for scripts that set and read them back; they change nothing here.
INT32_MAX = 2 ** 31 - 1


class ErrorSamplesMode(enum.IntEnum):
    RETURN = 0
    REPLACE = 1
    SKIP = 2


_SETTINGS.update({
    "auto_num_workers": False, "auto_offload": False, "autotune_interval": 0,
    "callback_timeout": 60, "debug_mode": False, "debug_hooks": [], "dynamic_shape": False,
    "enable_autotune": False, "autotune_filepath": None, "enable_shared_mem": True,
    "enable_watchdog": True, "error_samples_mode": ErrorSamplesMode.RETURN,
    "fast_recovery": True, "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "monitor_sampling_interval": 1000, "multiprocessing_start_method": "fork",
    "multiprocessing_timeout_interval": 300, "numa_enable": False, "video_backend": "CPU",
    "sending_batches": 0,
})


def _bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"dataset.config: {name} must be of type bool, got {value!r}")
    return value


def _interval(value, name, low_open=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"dataset.config: {name} isn't of type int, got {value!r}")
    if not (0 < value <= INT32_MAX if low_open else 0 <= value <= INT32_MAX):
        bracket = "(" if low_open else "["
        raise ValueError(f"dataset.config: {name} given is not within the required range "
                         f"{bracket}0, INT32_MAX({INT32_MAX})], got {value}")
    return int(value)


def _setter(key, check):
    def setter(value):
        _SETTINGS[key] = check(value)
    setter.__name__ = f"set_{key}"
    return setter


def _getter(key):
    def getter():
        return _SETTINGS[key]
    getter.__name__ = f"get_{key}"
    return getter


def set_enable_autotune(enable, filepath_prefix=None):
    _bool(enable, "enable")
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError(f"dataset.config: json_filepath must be a str value but was: "
                        f"{filepath_prefix!r}.")
    _SETTINGS["enable_autotune"], _SETTINGS["autotune_filepath"] = enable, filepath_prefix


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    if not isinstance(debug_mode_flag, bool):
        raise TypeError("dataset.config: debug_mode_flag isn't of type boolean.")
    if debug_hook_list is not None and not isinstance(debug_hook_list, list):
        raise TypeError("dataset.config: debug_hook_list is not a list.")
    _SETTINGS["debug_mode"], _SETTINGS["debug_hooks"] = debug_mode_flag, debug_hook_list or []


def set_error_samples_mode(error_samples_mode):
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"dataset.config: error_samples_mode must be of type ErrorSamplesMode, "
                        f"got {error_samples_mode!r}")
    _SETTINGS["error_samples_mode"] = error_samples_mode


def _choice(choices, name):
    def check(value):
        if value not in choices:
            raise ValueError(f"dataset.config: input {name} is not within the valid set of "
                             f"{list(choices)}, got {value!r}")
        return value
    return check


def set_iterator_mode(do_copy=False, parallel_convert=False):
    _SETTINGS["iterator_mode"] = {"do_copy": _bool(do_copy, "do_copy"),
                                  "parallel_convert": _bool(parallel_convert,
                                                            "parallel_convert")}


def get_iterator_mode():
    return dict(_SETTINGS["iterator_mode"])


def set_sending_batches(batch_num):
    if isinstance(batch_num, bool) or not isinstance(batch_num, numbers.Integral):
        raise TypeError(f"dataset.config: batch_num must be an int dtype, got {batch_num!r}")
    _SETTINGS["sending_batches"] = int(batch_num)


set_auto_num_workers = _setter("auto_num_workers", lambda v: _bool(v, "enable"))
set_auto_offload = _setter("auto_offload", lambda v: _bool(v, "offload"))
set_autotune_interval = _setter("autotune_interval",
                                lambda v: _interval(v, "interval", low_open=False))
set_callback_timeout = _setter("callback_timeout", lambda v: _interval(v, "timeout"))
set_dynamic_shape = _setter("dynamic_shape", lambda v: _bool(v, "is_dynamic"))
set_enable_shared_mem = _setter("enable_shared_mem", lambda v: _bool(v, "enable"))
set_enable_watchdog = _setter("enable_watchdog", lambda v: _bool(v, "enable"))
set_fast_recovery = _setter("fast_recovery", lambda v: _bool(v, "fast_recovery"))
set_monitor_sampling_interval = _setter("monitor_sampling_interval",
                                        lambda v: _interval(v, "interval"))
set_multiprocessing_start_method = _setter("multiprocessing_start_method",
                                           _choice(("fork", "spawn"), "start_method"))
set_multiprocessing_timeout_interval = _setter("multiprocessing_timeout_interval",
                                               lambda v: _interval(v, "interval"))
set_numa_enable = _setter("numa_enable", lambda v: _bool(v, "numa_enable"))
set_video_backend = _setter("video_backend", _choice(("CPU", "Ascend"), "backend"))

get_auto_num_workers = _getter("auto_num_workers")
get_auto_offload = _getter("auto_offload")
get_autotune_interval = _getter("autotune_interval")
get_callback_timeout = _getter("callback_timeout")
get_debug_mode = _getter("debug_mode")
get_dynamic_shape = _getter("dynamic_shape")
get_enable_autotune = _getter("enable_autotune")
get_enable_shared_mem = _getter("enable_shared_mem")
get_enable_watchdog = _getter("enable_watchdog")
get_error_samples_mode = _getter("error_samples_mode")
get_fast_recovery = _getter("fast_recovery")
get_monitor_sampling_interval = _getter("monitor_sampling_interval")
get_multiprocessing_start_method = _getter("multiprocessing_start_method")
get_multiprocessing_timeout_interval = _getter("multiprocessing_timeout_interval")
get_numa_enable = _getter("numa_enable")
get_video_backend = _getter("video_backend")

__all__ += [name for name in list(globals()) if name.startswith(("set_", "get_"))
            and name not in __all__]
