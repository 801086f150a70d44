"""Shared by the peer worker scripts, which run as plain scripts in another interpreter
(MindSpore lives in its own virtualenv): only the standard library and NumPy here.

Protocol: ``python <framework>_worker.py SPEC.json``. The spec names the workload, its
configuration, the NumPy file of inputs (``in_<k>_<j>``: pool entry k, argument j) and
weights (``p_<name>``), the variants to run, iterations and repeats. After each variant
the worker rewrites ``<out>.json`` (so a timeout keeps what finished) and saves the first
call's results to ``<out>_<i>.npz`` (``o0``, ``o1``, ...; the output, then gradients in
``trainable`` order) for the parent to compare with tensorjit's eager results.
"""
import json
import math
import sys
import time
import traceback

import numpy as np

CHECK_CALLS = 4


def load():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    arrays = dict(np.load(spec["arrays"]))
    return spec, arrays


def pool(spec, arrays, convert):
    """The input pool as tuples of framework tensors (None where the workload passes None)."""
    out = []
    for k in range(spec["pool"]):
        args = []
        for j in range(spec["n_args"]):
            args.append(None if j in spec["none_args"] else convert(arrays[f"in_{k}_{j}"]))
        out.append(tuple(args))
    return out


def params(arrays):
    return {key[2:]: value for key, value in arrays.items() if key.startswith("p_")}


class Recorder:
    def __init__(self, spec):
        self.spec = spec
        self.results = []

    def add(self, result, outputs=None):
        index = len(self.results)
        if outputs is not None:
            np.savez(f"{self.spec['out']}_{index}.npz",
                     **{f"o{i}": np.asarray(o) for i, o in enumerate(outputs)})
            result["outputs"] = f"{self.spec['out']}_{index}.npz"
        self.results.append(result)
        with open(self.spec["out"] + ".json", "w") as f:
            json.dump(self.results, f)


def measure(recorder, variant, make, to_numpy, sync=None, label=None, sync_each=True):
    """Build with ``make()`` (untimed), then time the first call (prepare), make the
    remaining check calls, and time the loop over ``spec['iterations']`` calls (best of
    ``repeat``). ``sync(out)`` waits for asynchronous work where the framework has any:
    after every call (``sync_each``), or once after the loop (a framework whose queue runs
    in order: waiting for the last result drains it)."""
    spec = recorder.spec
    result = {"variant": variant, "label": label or variant, "status": None,
              "prepare_s": None, "run_s": None, "per_call_s": None, "error": None}
    try:
        fn, calls_pool = make()
        n = spec["iterations"]
        calls = [calls_pool[i % len(calls_pool)] for i in range(n)]
        start = time.perf_counter()
        out = fn(*calls_pool[0])
        if sync:
            sync(out)
        result["prepare_s"] = time.perf_counter() - start
        first = to_numpy(out)
        # warm-up calls; a peer whose first call takes seconds gets one
        checks = min(CHECK_CALLS if result["prepare_s"] < 1.0 else 2, len(calls_pool))
        start = time.perf_counter()
        for i in range(1, checks):
            out = fn(*calls_pool[i])
            if sync:
                sync(out)
        estimate = (time.perf_counter() - start) / max(checks - 1, 1)
        # a very slow peer runs fewer calls (at least 3) and its total is extrapolated
        budget = spec.get("budget_s")
        runs = n
        if budget and estimate > 0 and estimate * n > budget:
            runs = min(n, max(3, int(budget / estimate)))
        calls = calls[:runs]
        best = math.inf
        spent = 0.0
        for attempt in range(max(spec.get("repeat", 1), 1)):
            if attempt and spent > 2.0:          # repeats only while they are cheap
                break
            start = time.perf_counter()
            if sync and sync_each:
                for args in calls:
                    sync(fn(*args))
            else:
                for args in calls:
                    out = fn(*args)
                if sync:
                    sync(out)
            elapsed = time.perf_counter() - start
            spent += elapsed
            best = min(best, elapsed)
        result["runs"] = runs
        if runs < n:
            result["extrapolated_from"] = runs
            best = best * n / runs
        result.update(status="ok", run_s=best, per_call_s=best / max(n, 1))
        recorder.add(result, first)
    except NotImplementedError as exc:
        result.update(status="not available", error=f"{type(exc).__name__}: {exc}"[:300])
        recorder.add(result)
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}".strip().splitlines()
        result.update(status="failed", error=(text[0] if text else type(exc).__name__)[:300],
                      traceback=traceback.format_exc(limit=8)[-3000:])
        recorder.add(result)


def flat(out, to_array):
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flat(o, to_array)]
    if isinstance(out, dict):
        return [a for k in out for a in flat(out[k], to_array)]
    return [to_array(out)]
