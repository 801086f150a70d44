"""Fuzzing as a campaign: fresh seeds, value and gradient programs, every core, a time budget.

    python -m tensorjit.tools.fuzz --campaign --budget 3600 [--programs 2000]
        [--grad-programs 500] [--seeds 905,906] [--jobs 2] [--save fuzz-campaign]

Fixed seeds (CI's) find what they found; about one defect per thousand fresh programs is
what they cannot see. A campaign runs one worker process per core, each a seed of value
programs or of gradient programs (alternately), with seeds never used before (from the
clock unless given), until the budget is spent (a worker still running then is stopped and
its progress counted). Every mismatch is written as a standalone script that re-checks the
program (``mismatch_<kind>_<seed>_<index>.py``, exit status 1 while it fails). The report
separates internal errors (the compiler raised, or the safety net caught a compiler
failure: a bug even when the answer was right) from wrong answers.
"""
import json
import os
import re
import subprocess
import sys
import time

from .programs import config_label

PROGRESS = re.compile(r"^\.\.\. (\d+)/\d+ programs")
RESULT = re.compile(r"^CAMPAIGN (\{.*\})$")


def run(budget, programs, grad_programs, seeds, jobs, save):
    os.makedirs(save, exist_ok=True)
    seeds = list(seeds) or _fresh_seeds(jobs * 64)
    queue = [(kind, seed) for seed in seeds for kind in ("value", "grad")]
    deadline = time.monotonic() + budget
    running, results = [], []
    while (queue or running) and time.monotonic() < deadline:
        while queue and len(running) < jobs:
            kind, seed = queue.pop(0)
            count = grad_programs if kind == "grad" else programs
            cmd = [sys.executable, "-m", "tensorjit.tools.fuzz", "--seed", str(seed),
                   "--programs", str(count), "--save", save, "--campaign-worker"]
            if kind == "grad":
                cmd.append("--grad")
            log = open(os.path.join(save, f"log_{kind}_{seed}.txt"), "w")
            running.append((kind, seed, subprocess.Popen(cmd, stdout=log,
                                                         stderr=subprocess.STDOUT), log))
        time.sleep(0.5)
        for item in list(running):
            if item[2].poll() is not None:
                running.remove(item)
                results.append(_collect(item, save, finished=True))
    for item in running:                     # the budget is spent: stop, count progress
        item[2].kill()
        item[2].wait()
        results.append(_collect(item, save, finished=False))
    return results


def _fresh_seeds(count):
    """Seeds no earlier run used: from the clock (printed, so a run can be repeated)."""
    base = 100_000 + int(time.time()) % 1_000_000 * 64
    return list(range(base, base + count))


def _collect(item, save, finished):
    kind, seed, _, log = item
    log.close()
    with open(log.name) as f:
        lines = f.read().splitlines()
    summary = next((json.loads(m.group(1)) for m in map(RESULT.match, lines) if m), None)
    if summary is None:
        done = max([int(m.group(1)) for m in map(PROGRESS.match, lines) if m], default=0)
        summary = {"programs": done, "mismatches": [], "internal": [], "crashed": finished}
    summary.update(kind=kind, seed=seed, finished=finished and not summary.get("crashed"))
    return summary


def report(results):
    lines = ["kind   seed      programs  wrong answers  internal errors  finished"]
    wrong = internal = programs = 0
    for r in sorted(results, key=lambda r: (r["kind"], r["seed"])):
        bad = [m for m in r["mismatches"] if not m["internal"]]
        errors = [m for m in r["mismatches"] if m["internal"]] + r["internal"]
        wrong += len(bad)
        internal += len(errors)
        programs += r["programs"]
        lines.append(f"{r['kind']:<6} {r['seed']:<9} {r['programs']:>8}  {len(bad):>13}  "
                     f"{len(errors):>15}  {'yes' if r['finished'] else 'stopped'}")
        for m in bad + errors:
            lines.append(f"    {m.get('config', m.get('stage', ''))}: {m['detail'][:160]}"
                         + (f"  -> {m['script']}" if m.get("script") else ""))
    lines.append(f"{programs} programs, {wrong} wrong answers, {internal} internal errors; "
                 f"seeds: {sorted({r['seed'] for r in results})}")
    return "\n".join(lines)


# ---- in the worker --------------------------------------------------------------------

def worker_summary(seed, kind, tried, found, save):
    """The worker's one-line result for the campaign, and a script per mismatch."""
    from tensorjit.jit import fallback
    mismatches = []
    for index, m in found:
        script = write_script(m, seed, index, kind, save)
        mismatches.append({"index": index, "config": config_label(m.config),
                           "detail": m.detail.strip().splitlines()[0] if m.detail.strip()
                           else "", "internal": m.detail.startswith("raised"),
                           "script": script})
    internal = [{"stage": f.stage, "detail": str(f)} for f in fallback.FAILURES]
    print("CAMPAIGN " + json.dumps({"programs": tried, "mismatches": mismatches,
                                    "internal": internal}), flush=True)


def write_script(mismatch, seed, index, kind, save):
    """A script re-checking this program in this configuration, inputs included."""
    program = mismatch.program
    inputs = [[(a.dtype.str, list(a.shape), a.tobytes().hex()) for a in arrays]
              for arrays in program.input_sets]
    check = "check_grad_program" if kind == "grad" else "check_program"
    text = f'''"""fuzz {kind} seed {seed} program {index}: {config_label(mismatch.config)},
call {mismatch.call}: {mismatch.detail.strip().splitlines()[0] if mismatch.detail.strip() else ""}

Re-checks the program against eager (exit status 1 while it mismatches)."""
import sys

import numpy as np

from tensorjit.tools.fuzz import Program, {check}

SOURCE = {program.source!r}
INPUTS = [[np.frombuffer(bytes.fromhex(data), dtype=dtype).reshape(shape).copy()
           for dtype, shape, data in arrays] for arrays in {inputs!r}]
CONFIG = {mismatch.config!r}

if __name__ == "__main__":
    found = {check}(Program(SOURCE, INPUTS, {program.kind!r}), [CONFIG])
    for m in found:
        print(m)
    sys.exit(1 if found else 0)
'''
    path = os.path.join(save, f"mismatch_{kind}_{seed}_{index}.py")
    with open(path, "w") as f:
        f.write(text)
    return path
