"""Measuring in alternation: one persistent worker process per framework, interleaved rounds.

A machine shared with other work changes speed from second to second; timing tensorjit now
and a peer a minute later can move a ratio by 2x or more. Here every contestant lives in a
worker started once (``peers/server.py``: its own imports, threads and compile caches;
a peer may use another interpreter), builds each workload once, and then, round after
round, every contestant times the same workload back to back, in a rotating order. Each
row reports its median over the rounds and, against a reference row, the median of the
per-round ratios: what both saw in the same few hundred milliseconds.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "server.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE_SECONDS = 0.15          # each timing sample: about this long (at least one call)
# pause between samples: the thread pools of XLA, OpenMP (PyTorch) and Numba spin for a
# while after a call, which would steal the cores from the next contestant's sample
SETTLE_SECONDS = 0.05


class Worker:
    """A ``peers/server.py`` process for one framework."""

    def __init__(self, framework, python=None, env=None):
        self.framework = framework
        environment = dict(os.environ, PYTHONWARNINGS="ignore", GLOG_v="3", **(env or {}))
        if framework == "tensorjit":        # this tensorjit, installed or not
            environment["PYTHONPATH"] = os.pathsep.join(
                [ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p])
        self.process = subprocess.Popen(
            [python or sys.executable, SERVER, framework], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
            start_new_session=True)

    def request(self, **message):
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            error = self.process.stderr.read().strip().splitlines()
            return {"error": "worker exited: " + (error[-1][:300] if error else
                                                  f"code {self.process.poll()}")}
        return json.loads(line)

    def close(self):
        if self.process.poll() is None:
            try:
                self.request(op="exit")
            except Exception:      # pragma: no cover - already gone
                pass
        self.process.kill()
        self.process.wait()


class Row:
    """One contestant on one workload: who, how it was built, and its samples."""

    def __init__(self, label, worker, workload, variant):
        self.label, self.worker = label, worker
        self.workload, self.variant = workload, variant
        self.key = self.error = None
        self.prepare_s = self.calls = None
        self.output = None
        self.reply = {}               # the worker's whole answer to "build"
        self.samples = []

    @property
    def ok(self):
        return self.key is not None and self.error is None

    def median(self):
        return statistics.median(self.samples) if self.samples else None


def build(rows, scratch, log=print, **request):
    """Build every row in its worker (first call timed; result kept for checking);
    ``request`` adds fields to the build request (a training workload's data)."""
    for i, row in enumerate(rows):
        path = os.path.join(scratch, f"out{i}.npy")
        reply = row.worker.request(op="build", workload=row.workload, variant=row.variant,
                                   output=path, **request)
        if "error" in reply:
            row.error = reply["error"]
            log(f"  {row.label}: {row.error}")
            continue
        row.reply = reply
        row.key, row.prepare_s = reply["key"], reply["prepare_s"]
        row.calls = max(1, min(1000, int(SAMPLE_SECONDS / max(reply["call_s"], 1e-9))))
        row.output = np.load(path)


def check(rows, reference, rtol=1e-4, atol=1e-5):
    """Mark rows whose result differs from ``reference``'s (tensorjit eager)."""
    if reference is None or not reference.ok:
        return
    for row in rows:
        if row.ok and row is not reference:
            want = reference.output
            if row.output.shape != want.shape or not np.allclose(
                    row.output.astype(np.float64), want, rtol=rtol, atol=atol):
                worst = np.max(np.abs(row.output.astype(np.float64) - want)) \
                    if row.output.shape == want.shape else "shape"
                row.error = f"WRONG: differs from tensorjit eager (max abs diff {worst})"


def alternate(rows, rounds, budget_s=None):
    """``rounds`` rounds; in each, every row that built takes one sample, in an order that
    rotates from round to round. A row whose samples have taken ``budget_s`` in all sits
    out the later rounds (its ratios pair the rounds it took part in)."""
    live = [r for r in rows if r.ok]
    for r in range(rounds):
        shift = r % max(len(live), 1)
        for row in live[shift:] + live[:shift]:
            time.sleep(SETTLE_SECONDS)
            reply = row.worker.request(op="time", key=row.key, calls=row.calls)
            if "error" in reply:
                row.error = reply["error"]
            else:
                row.samples.append(reply["per_call_s"])
        live = [row for row in live if row.error is None and not (
            budget_s and sum(row.samples) * row.calls > budget_s)]


def compare_workloads(workers, contestants, workloads, descriptions, rounds, show):
    """For each workload: one row per ``(label, worker, variant)`` contestant, built,
    checked against the first, alternated ``rounds`` times and passed to ``show``; the
    workers are closed at the end. Returns {workload: [Row]}."""
    results = {}
    try:
        with scratch_dir() as scratch:
            for workload in workloads:
                rows = [Row(label, worker, workload, variant)
                        for label, worker, variant in contestants]
                print(f"\n{workload}: {descriptions[workload]}")
                build(rows, scratch)
                check(rows, rows[0])
                alternate(rows, rounds)
                show(rows)
                results[workload] = rows
    finally:
        for worker in workers.values():
            worker.close()
    return results


def ratio(row, reference):
    """Median of the per-round ratios row / reference."""
    pairs = list(zip(row.samples, reference.samples))
    if not pairs:
        return None
    return statistics.median(a / b for a, b in pairs)


def scratch_dir():
    return tempfile.TemporaryDirectory(prefix="tensorjit-bench-")
