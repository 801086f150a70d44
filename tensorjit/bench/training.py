"""Whole-model training steps, measured in alternation:

    python -m tensorjit.bench resnet18      # ResNet-18 (CIFAR layout), batch 16 at 32x32
    python -m tensorjit.bench gpt           # GPT decoder: vocab 2048, width 256, 4 layers
    python -m tensorjit.bench training      # both

One train step is forward, loss, gradients and the optimizer update (``bench/models.py``:
``value_and_grad`` + Momentum or Adam). Every row -- tensorjit eager, O0, O1 and GE;
PyTorch eager and ``torch.compile``; ``jax.jit``; MindSpore PyNative and ``jit`` -- runs
in its own persistent worker process (``peers/server.py``, ``peers/train_*.py``) from the
same initial weights and batches. For each row:

* **first step** and **first N steps** (default 10), with an empty compile cache of that
  framework (cold: tensorjit's kernel cache, inductor's, JAX's, MindSpore's, each in a
  new directory), then again in a second process sharing the now filled cache (warm);
* the **losses** of those first steps, checked against tensorjit eager's;
* **peak memory**: the worker's resident-set high-water mark during one step;
* **per step**: rounds alternate the rows (one step each, in rotating order), and each row
  reports the median over the rounds and the median of its per-round ratios to PyTorch
  eager and to tensorjit O0.

With ``--busy spin,blas`` (or ``all``) the same rows, in the same workers, are then
alternated again (``--busy-rounds``, default 5) beside each background load of
``busy.py`` -- ``spin``, a plain Python process in a busy loop, and ``blas``, a second
tensorjit job on the same BLAS / OpenMP threads -- each round once with the load paused
(SIGSTOP) and once with it running. Per row: the median step beside the load and the
slowdown, the median of the per-round ratios running / paused.
"""
import argparse
import os
import shutil
import tempfile
import time

import numpy as np

from . import alternate, busy, report
from .peers import detect, mindspore_python
from .peers import train_data
from .peers.server import TRAINING
from .system import machine_info, describe, load_average

MODELS = tuple(TRAINING)

# (label, framework, variant, peer name for detection or None, cache kept between processes)
CONTESTANTS = [
    ("tensorjit eager", "tensorjit", "eager", None, False),
    ("tensorjit O0", "tensorjit", "O0", None, True),
    ("tensorjit O1", "tensorjit", "O1", None, True),
    ("tensorjit GE", "tensorjit", "GE", None, True),
    ("PyTorch eager", "torch", "eager", "torch", False),
    ("torch.compile", "torch", "compile", "torch.compile", True),
    ("jax.jit", "jax", "jit", "jax", True),
    ("MindSpore PyNative", "mindspore", "pynative", "mindspore", False),
    ("MindSpore jit", "mindspore", "jit", "mindspore", True),
]
PEERS = ("torch", "torch.compile", "jax", "mindspore")
TENSORJIT_ROWS = ("eager", "O0", "O1", "GE")

# a framework's compile cache, pointed at a directory of the row's own
CACHE_ENV = {
    # Numba's own cache too: the kernels written in the package (Winograd's transforms)
    # are cached by Numba beside their source otherwise, and would never be cold
    "tensorjit": lambda d: {"TENSORJIT_CACHE_DIR": d, "NUMBA_CACHE_DIR": d},
    "torch": lambda d: {"TORCHINDUCTOR_CACHE_DIR": d},
    "jax": lambda d: {"JAX_COMPILATION_CACHE_DIR": d,
                      "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
                      "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0"},
    "mindspore": lambda d: {"MS_COMPILER_CACHE_ENABLE": "1", "MS_COMPILER_CACHE_PATH": d},
}
CHECK_STEPS = 3          # losses of the first steps that must equal eager's ...
LOSS_RTOL = 2e-3         # ... within this (the rest of the first steps are reported)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench resnet18|gpt|training",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=MODELS + ("training",))
    p.add_argument("--size", default="cpu", choices=("cpu", "tiny"),
                   help="'cpu' (the issue's shapes, default) or 'tiny' (tests)")
    p.add_argument("--rounds", type=int, default=10, help="alternated rounds (default 10)")
    p.add_argument("--first-steps", type=int, default=10,
                   help="steps timed from the start, cold and warm (default 10)")
    p.add_argument("--batches", type=int, default=4,
                   help="distinct batches the steps cycle through (default 4)")
    p.add_argument("--rows", default=",".join(TENSORJIT_ROWS),
                   help=f"tensorjit rows, of {', '.join(TENSORJIT_ROWS)} (default: all)")
    p.add_argument("--capture-mode", default="ast", choices=("ast", "bytecode", "trace"))
    p.add_argument("--peers", default=",".join(PEERS),
                   help=f"comma-separated, of {', '.join(PEERS)}, or 'none'")
    p.add_argument("--mindspore-python", default=None,
                   help="interpreter with MindSpore (default: $TENSORJIT_MINDSPORE_PYTHON)")
    p.add_argument("--no-warm", action="store_true",
                   help="skip the second (warm cache) process of each row")
    p.add_argument("--row-budget", type=float, default=120.0,
                   help="seconds a row may spend on its first steps, and again on its "
                        "alternated samples; a slower row does fewer (default 120)")
    p.add_argument("--busy", default=None, metavar="LOADS",
                   help=f"then alternate again beside each background load, of "
                        f"{', '.join(busy.SCENARIOS)}, or 'all' (default: none)")
    p.add_argument("--busy-rounds", type=int, default=5,
                   help="alternated rounds beside each load (default 5)")
    p.add_argument("--out-dir", default="bench-results")
    p.add_argument("--no-png", action="store_true", help="do not draw the chart")
    args = p.parse_args(argv)
    args.row_list = [r for r in args.rows.split(",") if r]
    bad = set(args.row_list) - set(TENSORJIT_ROWS)
    if bad:
        p.error(f"--rows: unknown {', '.join(sorted(bad))}; known: {', '.join(TENSORJIT_ROWS)}")
    args.peer_list = [] if args.peers == "none" else [x for x in args.peers.split(",") if x]
    bad = set(args.peer_list) - set(PEERS)
    if bad:
        p.error(f"--peers: unknown {', '.join(sorted(bad))}; known: {', '.join(PEERS)}, none")
    if args.busy in (None, "none"):
        args.busy_list = []
    elif args.busy == "all":
        args.busy_list = list(busy.SCENARIOS)
    else:
        args.busy_list = [x for x in args.busy.split(",") if x]
    bad = set(args.busy_list) - set(busy.SCENARIOS)
    if bad:
        p.error(f"--busy: unknown {', '.join(sorted(bad))}; known: "
                f"{', '.join(busy.SCENARIOS)}, all")
    if min(args.rounds, args.first_steps, args.batches, args.busy_rounds) < 1:
        p.error("--rounds, --first-steps, --batches and --busy-rounds must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    info = machine_info()
    print(f"tensorjit training benchmark: {describe(info)}")
    records = []
    for model in (MODELS if args.model == "training" else (args.model,)):
        record = measure(model, args)
        records.append(record)
        os.makedirs(args.out_dir, exist_ok=True)
        path = os.path.join(args.out_dir, f"tensorjit-bench-{model}.json")
        report.write_json(path, dict(record, machine=info, format="tensorjit-train/1"))
        print(f"\nresults: {path}")
        if not args.no_png:
            png = os.path.join(args.out_dir, f"tensorjit-bench-{model}.png")
            print(f"chart: {png}" if report.write_training_png(png, record)
                  else "chart: skipped (matplotlib is not installed)")
    wrong = any(r["error"] and r["error"].startswith("WRONG")
                for record in records for r in record["rows"])
    return 1 if wrong else 0


def contestants(args):
    """[(label, framework, variant, keeps cache)] for the rows asked for and installed."""
    ms_python = mindspore_python(args.mindspore_python)
    found = detect(args.peer_list, ms_python)
    chosen = []
    for label, framework, variant, peer, keeps in CONTESTANTS:
        if framework == "tensorjit" and variant not in args.row_list and variant != "eager":
            continue
        if peer is not None and (peer not in args.peer_list or not found.get(peer)):
            continue
        chosen.append((label, framework, variant, keeps))
    missing = [p for p in args.peer_list if not found.get(p)]
    return chosen, missing, ms_python


def measure(model, args):
    """Build (cold, then warm), check and alternate every row on ``model``; returns the
    record that is printed, written to JSON and drawn."""
    from .models import make_model, MODEL_SIZES
    config = MODEL_SIZES[model][args.size]
    chosen, missing, ms_python = contestants(args)
    print(f"\n## {model}: {TRAINING[model]} ({_shape_text(model, config)}), "
          f"{args.rounds} alternated rounds")
    if missing:
        print("not installed: " + ", ".join(missing) + (
            " (MindSpore: --mindspore-python or $TENSORJIT_MINDSPORE_PYTHON)"
            if "mindspore" in missing else ""))
    scratch = tempfile.mkdtemp(prefix="tensorjit-train-")
    workers = []
    try:
        data = os.path.join(scratch, "data.npz")
        built = make_model(model, args.size, seed=0, batches=args.batches)
        train_data.write(data, [(p.name, p.asnumpy()) for p in built.optimizer.parameters],
                         [(x.asnumpy(), y.asnumpy()) for x, y in built.inputs])
        del built
        request = dict(data=data, config=config, size=args.size, seed=0,
                       first_steps=args.first_steps, budget_s=args.row_budget,
                       capture_mode=args.capture_mode)
        rows = []
        for i, (label, framework, variant, keeps) in enumerate(chosen):
            cache = os.path.join(scratch, f"cache{i}")
            os.makedirs(cache)
            env = CACHE_ENV[framework](cache)
            worker = alternate.Worker(framework, python=_python(framework, ms_python), env=env)
            workers.append(worker)
            row = alternate.Row(label, worker, model, variant)
            row.cache_env, row.keeps_cache = env, keeps
            rows.append(row)
            print(f"  building {label} (cold cache) ...", flush=True)
            alternate.build([row], scratch, log=_indent, **request)
        if not args.no_warm:
            for row in rows:
                if row.ok and row.keeps_cache:
                    row.warm = _warm(row, ms_python, scratch, request)
        _check(rows)
        print(f"  alternating {sum(r.ok for r in rows)} rows ...", flush=True)
        alternate.alternate(rows, args.rounds, budget_s=args.row_budget)
        loads = [beside_load(rows, scenario, args) for scenario in args.busy_list]
        record = _record(model, config, args, rows, missing, loads)
        print()
        print(report.training_table(record))
        print()
        print("\n".join(report.training_summary(record)))
        if loads:
            print()
            print(report.busy_table(record))
            print()
            print("\n".join(report.busy_summary(record)))
        return record
    finally:
        for worker in workers:
            worker.close()
        shutil.rmtree(scratch, ignore_errors=True)


def beside_load(rows, scenario, args):
    """The rows that have quiet samples, alternated again with ``scenario``'s load
    (``busy.py``) running, paused (SIGSTOP) and running in turn, round by round: the quiet
    and the loaded samples come from the same minutes, so their ratio is not the machine's
    mood. The rows keep their main samples and errors. Returns {"scenario", "description",
    "load", "cores", "error", "load_average_before", "rows": {label: entry}}, a row's entry
    holding its samples beside the load and paused, the median step beside it and the
    slowdown (median of the per-round ratios loaded / paused)."""
    rows = [r for r in rows if r.ok and r.samples]
    result = {"scenario": scenario, "description": busy.SCENARIOS[scenario], "load": None,
              "cores": None, "error": None, "rows": {},
              # what else ran on the machine (the load adds to it)
              "load_average_before": load_average()}
    print(f"  starting background load '{scenario}' ...", flush=True)
    kept = [(row.samples, row.error) for row in rows]
    phases = {row.label: {"quiet": [], "loaded": []} for row in rows}
    try:
        with busy.load(scenario) as neighbour:
            result["load"] = neighbour.info
            print(f"  alternating {len(rows)} rows beside it, paused and running ...",
                  flush=True)
            for _ in range(args.busy_rounds):
                for phase in ("quiet", "loaded"):
                    (neighbour.pause if phase == "quiet" else neighbour.resume)()
                    time.sleep(PHASE_SETTLE_SECONDS)
                    # one round untimed: programs that adapt to the load (tensorjit's
                    # thread count) are timed once they have seen this phase
                    for _ in range(2):            # the first round is not kept
                        for row in rows:
                            row.samples = []
                        alternate.alternate(rows, 1, budget_s=None)
                    for row in rows:
                        phases[row.label][phase] += row.samples
            neighbour.resume()
        result["cores"] = neighbour.cores
    except busy.LoadError as exc:       # no such load here: the others are still measured
        result["error"] = str(exc)
        print(f"  {exc}", flush=True)
    finally:
        for row, (samples, error) in zip(rows, kept):
            busy_error = row.error
            row.samples, row.error = samples, error
            if result["error"] is None:
                result["rows"][row.label] = _slowdown(phases[row.label], busy_error)
    return result


PHASE_SETTLE_SECONDS = 0.3     # after pausing or resuming the load, before timing


def _slowdown(phases, error):
    loaded, quiet = phases["loaded"], phases["quiet"]
    pairs = list(zip(loaded, quiet))
    return {"samples": list(loaded), "quiet_samples": list(quiet), "error": error,
            "per_step_s": float(np.median(loaded)) if loaded else None,
            "quiet_step_s": float(np.median(quiet)) if quiet else None,
            "slowdown": float(np.median([a / b for a, b in pairs])) if pairs else None}


def _python(framework, ms_python):
    return ms_python if framework == "mindspore" else None


def _indent(text):
    print("  " + text)


def _warm(row, ms_python, scratch, request):
    """First steps again in a new process whose compile cache the cold one filled."""
    worker = alternate.Worker(row.worker.framework, python=_python(row.worker.framework,
                                                                    ms_python),
                              env=row.cache_env)
    try:
        print(f"  building {row.label} (warm cache) ...", flush=True)
        reply = worker.request(op="build", workload=row.workload, variant=row.variant,
                               output=os.path.join(scratch, "warm.npy"), **request)
    finally:
        worker.close()
    return None if "error" in reply else reply


def _check(rows):
    """Each row's first losses against tensorjit eager's (WRONG rows are not timed)."""
    reference = next((r for r in rows if r.label == "tensorjit eager" and r.ok), None)
    for row in rows:
        row.loss_error = None
        if not row.ok or reference is None:
            continue
        n = min(len(row.output), len(reference.output))
        diff = np.abs(row.output[:n] - reference.output[:n]) / np.maximum(
            np.abs(reference.output[:n]), 1e-6)
        row.loss_error = float(diff.max()) if n else None
        k = min(n, CHECK_STEPS)
        if k and not np.all(diff[:k] <= LOSS_RTOL):
            row.error = (f"WRONG: losses of the first {k} steps differ from tensorjit "
                         f"eager's by up to {diff[:k].max():.2e} (relative)")


def _record(model, config, args, rows, missing, loads=()):
    by_label = {r.label: r for r in rows}
    references = {"PyTorch eager": by_label.get("PyTorch eager"),
                  "tensorjit O0": by_label.get("tensorjit O0")}
    out = []
    for row in rows:
        warm = getattr(row, "warm", None) or {}
        entry = {"label": row.label, "framework": row.worker.framework,
                 "variant": row.variant, "error": row.error,
                 "first_step_s": row.prepare_s,
                 "first_steps_s": row.reply.get("first_steps_s"),
                 "first_steps": row.reply.get("first_steps"),
                 "warm_first_step_s": warm.get("prepare_s"),
                 "warm_first_steps_s": warm.get("first_steps_s"),
                 "peak_rss": row.reply.get("peak_rss"),
                 "losses": None if row.output is None else [float(v) for v in row.output],
                 "loss_rel_diff": getattr(row, "loss_error", None),
                 "samples": list(row.samples),
                 "per_step_s": row.median(), "ratios": {}}
        for name, reference in references.items():
            if reference is not None and reference.samples and row.samples:
                entry["ratios"][name] = alternate.ratio(row, reference)
        if loads:
            entry["busy"] = {load["scenario"]: load["rows"].get(row.label) for load in loads}
        out.append(entry)
    record = {"model": model, "description": TRAINING[model], "config": config,
              "size": args.size, "rounds": args.rounds, "first_steps": args.first_steps,
              "batches": args.batches, "capture_mode": args.capture_mode,
              "not_installed": missing, "rows": out}
    if loads:           # the rows' figures are in their "busy"; here, the loads'
        record["busy"] = {"rounds": args.busy_rounds, "scenarios": {
            load["scenario"]: {k: v for k, v in load.items() if k != "rows"}
            for load in loads}}
    return record


def _shape_text(model, config):
    if model == "resnet18":
        return f"batch {config['batch']} x 3 x {config['image']} x {config['image']}"
    return (f"batch {config['batch']} x seq {config['seq']}, vocab {config['vocab']}, width "
            f"{config['width']}, {config['heads']} heads, {config['layers']} layers")


if __name__ == "__main__":
    raise SystemExit(main())
