"""``set_cpu_affinity``: bind this process to CPU cores, with MindSpore 2.10's checks.

MindSpore binds its "main", "runtime", "pynative" and "minddata" threads; tensorjit's work
runs on the main thread (and dataset workers it starts), so the "main" module's cores become
this process's affinity through ``os.sched_setaffinity`` (inherited by the workers).
"""
import json
import os
import re
import warnings

from .settings import settings

_RANGE = re.compile(r'^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$')
_MODULES = ("main", "runtime", "pynative", "minddata")


def _check_cpu_list(cpu_list):
    if cpu_list is None:
        return
    if not isinstance(cpu_list, list):
        raise TypeError(f"The parameter '{cpu_list}' must be list, but got {type(cpu_list)}")
    for item in cpu_list:
        if not isinstance(item, str):
            raise ValueError(f"CPU range '{item}' in '{cpu_list}' should be a string.")
        if not _RANGE.match(item):
            raise ValueError(f"CPU range '{item}' in '{cpu_list}' should be in format "
                             "'cpuidX-cpuidY' or 'cpuidX,cpuidY,cpuidZ'.")


def _check_module_dict(module_dict):
    if module_dict is None:
        return
    if not isinstance(module_dict, dict):
        raise TypeError(f"The parameter '{module_dict}' must be dict, but got {type(module_dict)}")
    for module, indices in module_dict.items():
        if not isinstance(indices, list):
            raise ValueError(f"The value of module_to_cpu_dict: {indices} should be a list.")
        for index in indices:
            if not isinstance(index, int) or index < 0:
                raise ValueError(f"CPU index '{index}' for module '{module}' in '{indices}' "
                                 "should be a non-negative integer.")


def _expand(cpu_list, available):
    cpus = []
    for item in cpu_list:
        for segment in (s.strip() for s in item.split(",") if s.strip()):
            start, _, end = segment.partition("-")
            for cpu in range(int(start), int(end or start) + 1):
                if cpu not in available:
                    raise RuntimeError(f"CPU id:{cpu} set in affinity_cpu_list:{cpu_list} is "
                                       "not available.")
                cpus.append(cpu)
    return cpus


def _from_bind_file(path):
    # the msrun bind file: {"bind_cpu": {"device0": {"main": "0-4", ...}}}; this process is
    # device 0 (tensorjit has one CPU device)
    if not os.path.isfile(path):
        raise ValueError(f"The bind file '{path}' does not exist.")
    try:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
    except ValueError as e:
        raise ValueError(f"Failed to parse bind file '{path}' as JSON.") from e
    if not isinstance(content, dict):
        raise ValueError(f"The bind file '{path}' content must be a JSON object.")
    modules = content.get("bind_cpu", {})
    if not isinstance(modules, dict):
        raise ValueError(f"The 'bind_cpu' field in bind file '{path}' must be a dict.")
    entry = modules.get("device0")
    if not entry:
        return None, None
    cpu_list, module_dict = [], {}
    for module, ranges in entry.items():
        start = len(cpu_list)
        cpu_list.append(str(ranges))
        module_dict.setdefault(module, []).append(start)
    # indices in module_dict point at ranges; expanded below into cpu positions
    return cpu_list, module_dict


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None):
    """Bind this process to CPU cores (see the module docstring for what is bound)."""
    if isinstance(affinity_cpu_list, dict):   # per-device form: {"device0": [...]}
        affinity_cpu_list = affinity_cpu_list.get("device0", False)
        if affinity_cpu_list is False:
            warnings.warn("'mindspore.runtime.set_cpu_affinity' is not enabled as wrong dict "
                          "passed in to affinity_cpu_list.")
            return
    if "cpu_affinity" in settings:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not enable_affinity:
        settings["cpu_affinity"] = None
        return
    by_range = False
    if bind_file is not None:
        affinity_cpu_list, module_to_cpu_dict = _from_bind_file(os.path.abspath(bind_file))
        by_range = True
        if affinity_cpu_list is None:
            settings["cpu_affinity"] = None
            return
    _check_cpu_list(affinity_cpu_list)
    _check_module_dict(module_to_cpu_dict)
    available = sorted(os.sched_getaffinity(0))
    if not affinity_cpu_list:
        cpus = available
    elif by_range:   # bind file: each module owns whole ranges
        per_range = [_expand([r], available) for r in affinity_cpu_list]
        cpus = [c for r in per_range for c in r]
        module_to_cpu_dict = {m: [c for i in idx for c in per_range[i]]
                              for m, idx in module_to_cpu_dict.items()}
    else:
        cpus = _expand(affinity_cpu_list, available)
    if by_range:
        main = module_to_cpu_dict.get("main", cpus)
    elif module_to_cpu_dict:
        main = [cpus[i] for i in module_to_cpu_dict.get("main", []) if i < len(cpus)]
    else:
        main = cpus
    if not cpus:
        warnings.warn("set_cpu_affinity is not enabled because the environment does not meet "
                      "the basic conditions for binding core.")
        settings["cpu_affinity"] = None
        return
    if not main:   # only other modules' threads named: tensorjit has none of those to bind
        settings["cpu_affinity"] = None
        return
    os.sched_setaffinity(0, main)
    settings["cpu_affinity"] = sorted(set(main))
