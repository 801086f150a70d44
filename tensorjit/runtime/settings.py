"""Once-per-process runtime settings, validated the way MindSpore 2.10 validates them.

tensorjit runs kernels synchronously on the host, so launch mode, dispatch threads, kernel
launch groups and the memory pool size change nothing at run time; they are recorded (read
back through ``settings``) so that a script's second call fails as it does in MindSpore.
"""
import re

settings = {}   # name -> the value a script set (absent: never set)

_MEMORY_PATTERN = re.compile(r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB')
_RESERVE_PATTERN = re.compile(r'[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB')


def check_type(name, value, kind):
    # MindSpore's args_type_check: isinstance, message naming the parameter
    if not isinstance(value, kind):
        raise TypeError(f"The parameter '{name}' must be {kind}, but got {type(value)}")


def _set_once(key, what, value):
    if key in settings:
        raise RuntimeError(f"The '{what}' can not be set repeatedly.")
    settings[key] = value


def launch_blocking():
    """Run operators synchronously (tensorjit always does: recorded only)."""
    settings["launch_blocking"] = True


def dispatch_threads_num(threads_num):
    """Number of runtime dispatch threads (MindSpore's default is 5)."""
    check_type("threads_num", threads_num, int)
    if "dispatch_threads_num" in settings:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if isinstance(threads_num, bool) or threads_num <= 0:
        error = TypeError if isinstance(threads_num, bool) else ValueError
        raise error(f"The 'threads_num' must be int and must > 0, but got '{threads_num}' "
                    f"with type '{type(threads_num).__name__}'.")
    settings["dispatch_threads_num"] = threads_num


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Parallel kernel dispatch in groups (O0 mode)."""
    check_type("thread_num", thread_num, int)
    check_type("kernel_group_num", kernel_group_num, int)
    if "kernel_launch_group" in settings:
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if settings.get("kernel_launch_capture"):
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got "
                         f"{kernel_group_num}")
    if kernel_group_num % thread_num:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot "
                         f"be evenly divisible by thread_num: {thread_num}")
    settings["kernel_launch_group"] = (thread_num, kernel_group_num)


def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """Capture operator dispatch into a graph (incremental inference)."""
    check_type("enable_capture_graph", enable_capture_graph, bool)
    if enable_capture_graph and "kernel_launch_group" in settings:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    if op_capture_skip is not None and not isinstance(op_capture_skip, (list, tuple)):
        raise TypeError(f"op_capture_skip must be a list or tuple, but got "
                        f"{type(op_capture_skip)}")
    settings["kernel_launch_capture"] = enable_capture_graph
    settings["op_capture_skip"] = list(op_capture_skip or [])


def _check_regular(value, pattern):
    # MindSpore's check_str_by_regular: a match at the start is enough
    if not pattern.match(value):
        raise ValueError(f"The '{value}' is illegal, it must be match regular'"
                         f"{pattern.pattern}' by flags're.ASCII.'")


def _check_memory_size(value):
    _check_regular(value, _MEMORY_PATTERN)
    if value in ("0GB", "0.0GB"):
        raise ValueError("The memory value should not be \"0GB\".")


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Memory pool sizes (tensorjit has no pool: validated and recorded)."""
    for name, value in (("init_size", init_size), ("increase_size", increase_size),
                        ("max_size", max_size), ("optimize_level", optimize_level),
                        ("huge_page_reserve_size", huge_page_reserve_size)):
        check_type(name, value, str)
    if "memory" in settings:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    for value in (init_size, increase_size, max_size):
        _check_memory_size(value)
    _check_regular(huge_page_reserve_size, _RESERVE_PATTERN)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got "
                         f"{optimize_level}.")
    settings["memory"] = {"init_size": float(init_size[:-2]),
                          "increase_size": float(increase_size[:-2]),
                          "max_size": float(max_size[:-2]), "optimize_level": optimize_level,
                          "huge_page_reserve_size": float(huge_page_reserve_size[:-2])}
