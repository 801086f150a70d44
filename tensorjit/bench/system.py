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
    info["load_average_at_start"] = load_average()
    # old OpenBLAS builds are made safe on some machines with these; a user's has neither
    info["openblas_env"] = {name: os.environ.get(name) for name in OPENBLAS_VARIABLES}
    info["tensorjit_choices"] = tensorjit_choices()
    return info


OPENBLAS_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def tensorjit_choices():
    """Which BLAS tensorjit runs here and why (measured, from the tuning table, or set)."""
    from tensorjit.ops import blas, tuning
    blas.library_name()
    return [f"{d.problem} {d.key}: {d.choice} ({d.how})" for d in tuning.consulted()
            if d.problem == "blas"]


def load_average():
    """The 1-minute load average (None where the OS has none): other processes' work, which
    makes timings on a small shared machine noisy."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):     # pragma: no cover
        return None


def describe(info):
    text = (f"{info['date']} | {info['cpu']}, {info['cores']} cores | "
            f"Python {info['python']}, NumPy {info['numpy']}"
            + (f", Numba {info['numba']}" if info.get("numba") else ""))
    load = info.get("load_average_at_start")
    if load is not None:
        text += f" | load average {load:g}"
    openblas = info.get("openblas_env") or {}
    text += " | " + ", ".join(f"{k}={v}" if v else f"{k} unset" for k, v in openblas.items())
    if info.get("tensorjit_choices"):
        text += " | tensorjit " + "; ".join(info["tensorjit_choices"])
    return text


def executable():
    return sys.executable
