"""What the benchmark ran on: date, CPU, core count, Python and library versions."""
import datetime
import importlib.metadata
import os
import platform
import sys


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def package_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def machine_info():
    import numpy
    info = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "tensorjit": package_version("tensorjit"),
        "numba": package_version("numba"),
    }
    try:
        info["affinity"] = len(os.sched_getaffinity(0))
    except AttributeError:          # pragma: no cover - not Linux
        pass
    return info


def describe(info):
    return (f"{info['date']} | {info['cpu']}, {info['cores']} cores | "
            f"Python {info['python']}, NumPy {info['numpy']}"
            + (f", Numba {info['numba']}" if info.get("numba") else ""))


def executable():
    return sys.executable
