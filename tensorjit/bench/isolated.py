"""``--isolate``: measure one tensorjit row in a fresh process.

``python -m tensorjit.bench.isolated SPEC.json`` builds the case, measures the row and
prints its result as JSON. The parent runs O1 rows twice with a new, empty kernel cache
directory (``TENSORJIT_CACHE_DIR``): the first run's time to prepare is the cold one (the
fused kernels are compiled), the second run's the warm one (they come from the disk cache).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from .rows import RowSpec


def run_row(case, row, *, tolerance, repeat, timeout=1800):
    spec = {"workload": case.workload, "direction": case.direction, "size": case.size,
            "iterations": case.iterations, "row": row.to_json(), "tolerance": tolerance,
            "repeat": repeat}
    cold_cache = row.jit_level == "O1" and row.backend != "GE"
    tmp = tempfile.mkdtemp(prefix="tensorjit-bench-row-")
    try:
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        env = dict(os.environ)
        if cold_cache:
            env["TENSORJIT_CACHE_DIR"] = os.path.join(tmp, "kernels")
        cold = _run(spec_path, env, timeout)
        if not cold_cache or cold["status"] != "ok":
            return cold
        warm = _run(spec_path, env, timeout)
        warm["prepare_cold_s"] = cold["prepare_s"]
        return warm
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(spec_path, env, timeout):
    cmd = [sys.executable, "-m", "tensorjit.bench.isolated", spec_path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return _failed(f"timed out after {timeout} s")
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        return _failed(f"row process exited with {proc.returncode}: {tail[0][:300]}")
    return json.loads(lines[-1])


def _failed(message):
    return {"status": "failed", "error": message, "prepare_s": None, "run_s": None,
            "per_call_s": None, "max_rel_err": None}


def main():
    from .suite import Case
    from .measure import measure_row
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    case = Case(spec["workload"], spec["direction"], spec["size"], spec["iterations"])
    row = RowSpec.from_json(spec["row"])
    result = measure_row(case, row, tolerance=spec["tolerance"], repeat=spec["repeat"])
    result.pop("traceback", None)
    print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
