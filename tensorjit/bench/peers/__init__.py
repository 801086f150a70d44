"""Peers: the same workloads in other frameworks, measured in the same run.

Never dependencies of tensorjit: each is detected and skipped ("not installed") when
absent. Raw NumPy runs in this process (simple function only). PyTorch, JAX and MindSpore
run in worker processes (``*_worker.py``: standalone scripts), which keeps their threads,
imports and compile caches out of tensorjit's measurements, lets ``torch.compile`` be cut
off by a timeout, and lets MindSpore use its own interpreter (it needs NumPy < 2):
``--mindspore-python`` or ``$TENSORJIT_MINDSPORE_PYTHON`` (else this interpreter, where
it is usually absent: it is then listed as not installed, with how to name it).

A peer row carries: peer, version, variant, status, prepare_s, run_s, per_call_s and the
largest relative difference from tensorjit's eager result (peers are checked too).
"""
import importlib.metadata
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

from ..suite import compare
from ..rows import RowSpec

PEERS = ("numpy", "torch", "torch.compile", "jax", "mindspore")
HERE = os.path.dirname(os.path.abspath(__file__))

DISPLAY = {"numpy": "NumPy", "torch": "PyTorch", "torch.compile": "PyTorch",
           "jax": "JAX", "mindspore": "MindSpore"}


def mindspore_python(option=None):
    if option:
        return option
    # no default path: MindSpore lives in a virtualenv of the user's choosing, named by the
    # flag or the environment; otherwise this interpreter (where it is usually absent)
    return os.environ.get("TENSORJIT_MINDSPORE_PYTHON") or sys.executable


def _local_version(module, dist):
    if importlib.util.find_spec(module) is None:
        return None
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def detect(names, ms_python, timeout=120):
    """{peer: version or None (not installed)}; MindSpore is asked in its interpreter."""
    found = {}
    for name in names:
        if name == "numpy":
            found[name] = np.__version__
        elif name in ("torch", "torch.compile"):
            found[name] = _local_version("torch", "torch")
        elif name == "jax":
            found[name] = _local_version("jax", "jax")
        elif name == "mindspore":
            found[name] = _mindspore_version(ms_python, timeout)
    return found


def _mindspore_version(python, timeout):
    if not python or not (os.path.exists(python) or shutil.which(python)):
        return None
    try:
        proc = subprocess.run(
            [python, "-c", "import importlib.metadata as m; print(m.version('mindspore'))"],
            capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


# ---------------------------------------------------------------------------------------
# in process: raw NumPy

def run_numpy(case, repeat=1):
    """The seed's simple function on ndarrays: the floor a jitted call is compared with."""
    if case.workload != "simple":
        return []
    pool = [tuple(t.asnumpy() for t in args) for args in case.pool]
    calls = [pool[i % len(pool)] for i in range(len(case.calls))]

    def f(a, b, c):
        return a * b + c

    start = time.perf_counter()
    first = f(*pool[0])
    prepare = time.perf_counter() - start
    from ..measure import timed_loop
    run_s = timed_loop(f, calls, repeat=repeat)
    problem, err = compare([first], case.refs[0], 1e-6)
    return [{"peer": "numpy", "version": np.__version__, "variant": "raw NumPy expression",
             "status": "ok" if problem is None else "WRONG", "prepare_s": prepare,
             "run_s": run_s, "per_call_s": run_s / max(len(calls), 1), "max_rel_err": err,
             "error": problem}]


# ---------------------------------------------------------------------------------------
# worker processes

def variants_for(peer, case, row_groups):
    """What each worker runs for this case."""
    if peer == "torch":
        return ["eager"]
    if peer == "torch.compile":
        return ["compile"]
    if peer == "jax":
        return ["eager", "jit"]
    if peer == "mindspore":
        # seed 000's rows for this workload (MindSpore is the seed's own subject)
        rows = [r for group in row_groups for r in group if r.seed]
        return [r.to_json() for r in rows]
    raise ValueError(peer)


def run_worker(peer, case, row_groups, version, *, python=None, repeat=1, timeout=600,
               tolerance=1e-4, budget=10.0, log=None):
    """Run ``peer``'s worker on ``case``; returns its rows (status, times, check)."""
    script = {"torch": "torch_worker.py", "torch.compile": "torch_worker.py",
              "jax": "jax_worker.py", "mindspore": "mindspore_worker.py"}[peer]
    variants = variants_for(peer, case, row_groups)
    python = python or sys.executable
    tmp = tempfile.mkdtemp(prefix="tensorjit-bench-")
    try:
        arrays_path = os.path.join(tmp, "arrays.npz")
        np.savez(arrays_path, **case.arrays_for_peers())
        spec = dict(case.peer_spec(), arrays=arrays_path, out=os.path.join(tmp, "out"),
                    variants=variants, repeat=repeat, budget_s=budget)
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        env = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
        error = None
        try:
            proc = subprocess.Popen([python, os.path.join(HERE, script), spec_path],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=env, start_new_session=True)
        except OSError as exc:
            return [_row(peer, version, _label(peer, v), "failed", error=str(exc))
                    for v in variants]
        try:
            _, stderr = proc.communicate(timeout=timeout)
            if proc.returncode != 0:
                error = f"worker exited with {proc.returncode}: " + _last_line(stderr)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            error = f"timed out after {timeout:g} s"
        results = []
        out_json = spec["out"] + ".json"
        if os.path.exists(out_json):
            with open(out_json) as f:
                results = json.load(f)
        rows = []
        for i, variant in enumerate(variants):
            if i < len(results):
                rows.append(_checked(peer, version, results[i], case, tolerance))
            else:
                rows.append(_row(peer, version, _label(peer, variant),
                                 "timed out" if error and "timed out" in error else "failed",
                                 error=error or "no result"))
        if log and error:
            log(f"  {DISPLAY[peer]}: {error}")
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


LABELS = {("torch", "eager"): "eager",
          ("torch.compile", "compile"): "torch.compile (default: inductor)",
          ("jax", "eager"): "op by op (no jit)", ("jax", "jit"): "jax.jit"}


def _label(peer, variant):
    return variant["id"] if peer == "mindspore" else LABELS[(peer, variant)]


def _row(peer, version, variant, status, **extra):
    row = {"peer": peer, "version": version, "variant": variant, "status": status,
           "prepare_s": None, "run_s": None, "per_call_s": None, "max_rel_err": None,
           "error": None}
    row.update(extra)
    return row


def _checked(peer, version, result, case, tolerance):
    row = _row(peer, version, result.get("label") or result["variant"], result["status"],
               prepare_s=result.get("prepare_s"), run_s=result.get("run_s"),
               per_call_s=result.get("per_call_s"), error=result.get("error"),
               extrapolated_from=result.get("extrapolated_from"))
    if result["status"] == "ok" and result.get("outputs"):
        with np.load(result["outputs"]) as data:
            got = [data[f"o{i}"] for i in range(len(data.files))]
        problem, err = compare(got, case.refs[0], tolerance)
        row["max_rel_err"] = err
        if problem:
            row["status"] = "WRONG"
            row["error"] = f"differs from tensorjit eager: {problem}"
    return row


def _last_line(text):
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def mindspore_row_spec(row_id):
    """The RowSpec of a MindSpore peer row id (for labelling it like the seed's table)."""
    if row_id == "eager":
        return RowSpec()
    parts = row_id.split(".")
    mode, level = parts[0], parts[1]
    return RowSpec(mode, "O0" if level == "GE" else level,
                   "GE" if level == "GE" else "ms_backend", "fullgraph" in parts)
