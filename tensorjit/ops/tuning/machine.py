"""What a measured choice depends on: this machine's processor and the libraries that do the
work. The tuning table is kept per fingerprint, so a new CPU, a new BLAS or a new Numba is
measured again rather than trusted."""
import functools
import hashlib
import json
import math
import os
import platform
import sys
from importlib import metadata

# instruction-set extensions that change which code a BLAS or LLVM runs
ISA_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl",
             "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16",
             "asimd", "sve")
LIBRARIES = ("numpy", "numba", "llvmlite", "mkl")


@functools.lru_cache(maxsize=None)
def fingerprint():
    """A dict naming the processor, its extensions, the usable CPUs and the libraries."""
    model, flags = _cpuinfo()
    return {"cpu": model or platform.processor() or platform.machine(),
            "isa": [f for f in ISA_FLAGS if f in flags],
            "cpus": usable_cpus(),
            "arch": platform.machine(),
            "python": f"{sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]}",
            "libraries": _library_versions()}


def digest():
    """A short hash of the fingerprint: the tuning table's file name."""
    text = json.dumps(fingerprint(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@functools.lru_cache(maxsize=None)
def usable_cpus():
    """CPUs this process may run on: its affinity mask, capped by a cgroup CPU quota (a
    container given 1.5 CPUs of a 64-core host has 2 to use, not 64)."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(count, math.ceil(quota))) if quota else count


def _cgroup_quota():
    """CPUs allowed by the cgroup (v2 ``cpu.max``, v1 ``cfs_quota_us``), or None."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:
            quota, period = f.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") as f:
            quota = int(f.read())
        with open("/sys/fs/cgroup/cpu/cpu.cfs_period_us") as f:
            period = int(f.read())
        return quota / period if quota > 0 and period > 0 else None
    except (OSError, ValueError):
        return None


def _cpuinfo():
    """(model name, set of flags) from /proc/cpuinfo; (None, empty) elsewhere."""
    model, flags = None, set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                name, _, value = line.partition(":")
                name = name.strip()
                if name == "model name" and model is None:
                    model = value.strip()
                elif name in ("flags", "Features") and not flags:
                    flags = set(value.split())
                if model and flags:
                    break
    except OSError:
        pass
    return model, flags


def _library_versions():
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    versions["numpy blas"] = _numpy_blas()
    return versions


def _numpy_blas():
    """The BLAS NumPy was built with, e.g. "scipy-openblas 0.3.31", or None."""
    try:
        import numpy as np
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas.get('name')} {blas.get('version')}"
    except Exception:        # older NumPy: no dict form; the NumPy version still keys it
        return None
