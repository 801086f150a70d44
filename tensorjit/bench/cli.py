"""The benchmark runner: seed 000's three tables for tensorjit, side by side with peers.

    python -m tensorjit.bench                 # all three workloads, CPU sizes
    python -m tensorjit.bench simple -n 1000 --repeat 5
    python -m tensorjit.bench conv --size seed            # the seed's size, 3 iterations
    python -m tensorjit.bench attention --rows seed --peers torch,jax
    python -m tensorjit.bench fusion          # O1's fusion targets, alternated (fusion.py)
    python -m tensorjit.bench resnet18        # whole-model training steps (training.py):
    python -m tensorjit.bench gpt             #   resnet18, gpt, or training for both
    python -m tensorjit.bench kernels         # their kernels against PyTorch (kernels.py)
    python -m tensorjit.bench data_parallel   # ResNet-18 on 1 and 2 MPI ranks (data_parallel.py)
    python -m tensorjit.bench vmap            # vmap against batching by hand (vmap.py)
    python -m tensorjit.bench profiler        # the profiler's cost and accounting (profiler.py)
    python -m tensorjit.bench pipeline        # a CNN train loop fed by tensorjit.dataset
    python -m tensorjit.bench export          # loaded files: tensorjit O1 against ONNX Runtime

Every row is checked against eager before it is timed (WRONG rows are not timed); rows
whose configuration is not built yet show "not available". Results go to a JSON file and,
when matplotlib is installed, to a PNG chart.
"""
import argparse
import os
import shlex
import sys

from . import report
from .measure import measure_row, NOT_AVAILABLE
from .peers import PEERS, DISPLAY, detect, mindspore_python, run_numpy, run_worker
from .progress import ProgressBar
from .rows import rows_for, select, known_tokens
from .suite import (WORKLOADS, DIRECTIONS, DEFAULT_ITERATIONS, SEED_SIZE_ITERATIONS, Case,
                    size_config)
from .system import machine_info, describe, load_average

DESCRIPTIONS = {
    "simple": "f(a, b, c) = a * b + c on 2x3 float32 tensors; every call gets new tensors "
              "(the seed's `dataset`).",
    "conv": "ResNet BasicBlock, input {batch}x{in_channel}x{height}x{width}, "
            "{in_channel}->{out_channel} channels, inference-mode BatchNorm.",
    "attention": "Llama attention, batch {batch}, sequence {seq_len}, hidden {hidden_size}, "
                 "{num_heads} heads, {num_key_value_heads} key/value heads.",
}


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python -m tensorjit.bench",
        description="Reproduce seed 000's benchmark tables (simple function, ResNet "
                    "BasicBlock, Llama attention) for tensorjit, next to raw NumPy, "
                    "PyTorch, JAX and MindSpore when they are installed.")
    p.add_argument("workload", nargs="?", default="all", choices=WORKLOADS + ("all",),
                   help="which table(s) to produce (default: all)")
    p.add_argument("--size", default="cpu", choices=("tiny", "cpu", "seed"),
                   help="size of the conv and attention blocks: 'cpu' (default; minutes "
                        "on 2 cores), 'seed' (the seed's sizes: conv 1x128x256x256, "
                        "attention hidden 4096 / seq 512; few iterations), 'tiny' (tests)")
    p.add_argument("-n", "--iterations", type=int, default=None,
                   help="calls in the timed loop (default: simple 1000, conv "
                        f"{DEFAULT_ITERATIONS['conv']}, attention "
                        f"{DEFAULT_ITERATIONS['attention']}; {SEED_SIZE_ITERATIONS} at "
                        "--size seed)")
    p.add_argument("--repeat", type=int, default=None,
                   help="run the timed loop up to this many times and keep the fastest; "
                        "repeats stop once a row has spent 2 s in its loops (default: 5 for "
                        "simple, 3 for the blocks)")
    p.add_argument("--rows", default="all",
                   help="tensorjit rows: 'all' (default: the seed's rows plus other capture "
                        "modes/levels/GE for the blocks), 'seed' (only seed 000's rows), or "
                        "comma-separated ids or parts: eager, ast, bytecode, trace, O0, O1, "
                        "GE, fullgraph, trace.O1, ast.O0.fullgraph, ... (eager always runs)")
    p.add_argument("--peers", default=",".join(PEERS),
                   help=f"comma-separated peers to measure ({', '.join(PEERS)}) or 'none' "
                        "(default: all; absent ones are listed as not installed)")
    p.add_argument("--mindspore-python", default=None,
                   help="interpreter with MindSpore installed (default: "
                        "$TENSORJIT_MINDSPORE_PYTHON, else this interpreter)")
    p.add_argument("--peer-timeout", type=float, default=600.0,
                   help="seconds allowed for each peer worker process (torch.compile can be "
                        "very slow to compile); default 600")
    p.add_argument("--peer-budget", type=float, default=10.0,
                   help="seconds of timed loop allowed per peer row: a slower peer runs fewer "
                        "calls (at least 3) and its total is extrapolated, marked '~' "
                        "(default 10)")
    p.add_argument("--threads", type=int, default=None,
                   help="limit every framework to this many threads (OMP, OpenBLAS, MKL, "
                        "Numba, PyTorch, XLA); for a machine shared with other jobs, where "
                        "multi-threaded BLAS slows down many times when a core is taken "
                        "(default: each framework's own default, i.e. all cores)")
    p.add_argument("--isolate", action="store_true",
                   help="measure every tensorjit row in a fresh process; O1 rows run with a "
                        "new kernel cache and report time to prepare cold and warm")
    p.add_argument("--tolerance", type=float, default=1e-4,
                   help="largest relative difference from eager (max |diff| / max |eager|) "
                        "counted as equal; default 1e-4")
    p.add_argument("--out-dir", default="bench-results",
                   help="directory for the result files (default: bench-results)")
    p.add_argument("--json", default=None,
                   help="JSON result file (default: OUT_DIR/tensorjit-bench.json)")
    p.add_argument("--png", default=None,
                   help="PNG chart (default: OUT_DIR/tensorjit-bench.png; needs matplotlib)")
    p.add_argument("--no-png", action="store_true", help="do not draw the chart")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: when stderr is a terminal)")
    args = p.parse_args(argv)
    unknown = {t.strip() for t in args.rows.split(",") if t.strip()} - known_tokens()
    if unknown:
        p.error(f"--rows: unknown row(s) {', '.join(sorted(unknown))}; known: "
                f"{', '.join(sorted(known_tokens()))}")
    if args.peers.strip() == "none":
        args.peer_list = []
    else:
        args.peer_list = [x.strip() for x in args.peers.split(",") if x.strip()]
        bad = set(args.peer_list) - set(PEERS)
        if bad:
            p.error(f"--peers: unknown peer(s) {', '.join(sorted(bad))}; known: "
                    f"{', '.join(PEERS)}, none")
    if args.iterations is not None and args.iterations < 1:
        p.error("--iterations must be at least 1")
    if args.repeat is not None and args.repeat < 1:
        p.error("--repeat must be at least 1")
    if args.threads is not None and args.threads < 1:
        p.error("--threads must be at least 1")
    return args


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMBA_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _limit_threads(threads, argv):
    """Thread pools are sized when libraries load, so ``--threads`` sets the environment and
    starts the benchmark again in a new interpreter (the workers inherit it)."""
    if os.environ.get("TENSORJIT_BENCH_THREADS") == str(threads):
        return
    env = dict(os.environ, TENSORJIT_BENCH_THREADS=str(threads))
    for name in THREAD_VARIABLES:
        env[name] = str(threads)
    if threads == 1:
        env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false "
                            "intra_op_parallelism_threads=1").strip()
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable, "-m", "tensorjit.bench"] + list(argv), env)


def iterations_for(args, workload):
    if args.iterations is not None:
        return args.iterations
    if args.size == "seed" and workload != "simple":
        return SEED_SIZE_ITERATIONS
    return DEFAULT_ITERATIONS[workload]


def repeat_for(args, workload):
    if args.repeat is not None:
        return args.repeat
    return 5 if workload == "simple" else 3


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["fusion"]:              # its own options: bench/fusion.py
        from . import fusion
        return fusion.main(argv[1:])
    if argv[:1] in (["resnet18"], ["gpt"], ["training"]):      # bench/training.py
        from . import training
        return training.main(argv)
    if argv[:1] == ["kernels"]:             # its own options: bench/kernels.py
        from . import kernels
        return kernels.main(argv[1:])
    if argv[:1] == ["data_parallel"]:       # its own options: bench/data_parallel.py
        from . import data_parallel
        return data_parallel.main(argv[1:])
    if argv[:1] == ["profiler"]:            # its own options: bench/profiler.py
        from . import profiler
        return profiler.main(argv[1:])
    if argv[:1] == ["vmap"]:                # its own options: bench/vmap.py
        from . import vmap
        return vmap.main(argv[1:])
    if argv[:1] == ["export"]:              # its own options: bench/export.py
        from . import export
        return export.main(argv[1:])
    if argv[:1] == ["pipeline"]:            # its own options: bench/train_pipeline.py
        from . import train_pipeline
        return train_pipeline.main(argv[1:])
    args = parse_args(argv)
    if args.threads is not None:
        _limit_threads(args.threads, argv)
    command = "python -m tensorjit.bench" + (" " + shlex.join(argv)).rstrip()
    workloads = WORKLOADS if args.workload == "all" else (args.workload,)
    info = machine_info()
    info["threads"] = args.threads or "default"
    ms_python = mindspore_python(args.mindspore_python)
    versions = detect(args.peer_list, ms_python)
    info["peers"] = {DISPLAY[k] + (".compile" if k == "torch.compile" else ""): v
                     for k, v in versions.items()}

    print(f"tensorjit benchmark: {describe(info)}")
    print(f"command: {command}")
    if args.threads:
        print(f"threads: every framework limited to {args.threads} "
              f"({', '.join(THREAD_VARIABLES)}, torch.set_num_threads, XLA flags)")
    load = info.get("load_average_at_start")
    if load is not None and info.get("cores") and load > 0.5:
        print(f"note: the machine is busy (load average {load:g} on {info['cores']} cores): "
              "other processes share the CPU and the times below are noisy")
    if args.peer_list:
        print("peers: " + ", ".join(
            f"{name} {versions[name]}" if versions[name] else f"{name} (not installed)"
            for name in args.peer_list))
    print()

    plan = []
    for workload in workloads:
        groups = select(rows_for(workload), args.rows)
        for direction in DIRECTIONS[workload]:
            plan.append((workload, direction, groups))
    n_workers = len([p for p in args.peer_list if p != "numpy" and versions.get(p)])
    units = sum(sum(len(g) for g in groups) + n_workers for _, _, groups in plan)
    enabled = {"on": True, "off": False, "auto": None}[args.progress]
    bar = ProgressBar(units, enabled=enabled)

    cases = []
    for workload, direction, groups in plan:
        iterations = iterations_for(args, workload)
        repeat = repeat_for(args, workload)
        bar.set_label(f"{workload} {direction}: building inputs and eager results")
        case = Case(workload, direction, args.size, iterations)
        size = size_config(workload, args.size)
        desc = DESCRIPTIONS[workload].format(**size)
        if workload != "simple":
            desc = f"{direction.capitalize()}. " + desc + f" Size preset '{args.size}'."
        desc += (f" Time to run {iterations} times: the fastest of up to {repeat} loops "
                 "(fewer once a row has spent 2 s timing)." if repeat > 1 else "")
        record = {"workload": workload, "direction": direction, "title": case.title,
                  "size": args.size, "config": case.config, "iterations": iterations,
                  "repeat": repeat, "description": desc, "groups": [], "peers": []}
        for group in groups:
            results = []
            for row in group:
                bar.set_label(f"{case.title}: tensorjit {row.id}")
                done = [0.0]

                def tick(fraction, done=done):
                    done[0] += fraction
                    bar.advance(fraction)
                if args.isolate and not row.eager:
                    from .isolated import run_row
                    result = run_row(case, row, tolerance=args.tolerance, repeat=repeat)
                    result.update(row=row.to_json(), id=row.id, iterations=iterations)
                else:
                    result = measure_row(case, row, tolerance=args.tolerance, repeat=repeat,
                                         progress=tick)
                bar.advance(max(1.0 - done[0], 0.0))
                results.append(result)
            record["groups"].append(results)
        for peer in args.peer_list:
            if peer == "numpy":
                record["peers"] += run_numpy(case, repeat=repeat)
                if workload == "simple":
                    record["interleaved"] = _interleaved(case, record)
                    record["ten_ops"] = _ten_ops()
                continue
            if not versions.get(peer):
                record["peers"].append({"peer": peer, "version": None,
                                        "variant": _absent_label(peer),
                                        "status": "not installed", "prepare_s": None,
                                        "run_s": None, "per_call_s": None})
                continue
            bar.set_label(f"{case.title}: {DISPLAY[peer]} {peer}")
            python = ms_python if peer == "mindspore" else sys.executable
            record["peers"] += run_worker(peer, case, groups, versions[peer], python=python,
                                          repeat=repeat, timeout=args.peer_timeout,
                                          tolerance=args.tolerance, budget=args.peer_budget,
                                          log=bar.write)
            bar.advance(1)
        bar.close()
        print(report.case_text(record), flush=True)
        cases.append(record)
        del case
    bar.close()

    summary = report.summary_lines(cases)
    unavailable = sorted({r["id"] for c in cases for g in c["groups"] for r in g
                          if r["status"] == NOT_AVAILABLE})
    problems = [f"{c['title']} {r['id']}: {r['status']}" for c in cases for g in c["groups"]
                for r in g if r["status"] in ("WRONG", "failed")]
    for c in cases:
        recompiled = [r for g in c["groups"] for r in g if r.get("compiles_while_timed")]
        if recompiled:
            warning = next((r["warnings"][0] for r in recompiled if r.get("warnings")), None)
            problems.append(
                f"{c['title']}: {', '.join(r['id'] for r in recompiled)} recompiled while "
                f"timed ({', '.join(str(r['compiles_while_timed']) for r in recompiled)} "
                "compilations): their times include capture and compilation"
                + (f"; first warning: {warning[:200]}" if warning else ""))
    print("### Summary\n")
    print("Per call; in brackets each peer's time over tensorjit's best (above 1: tensorjit "
          "is faster):\n")
    print(report.overview_table(cases))
    print()
    print("\n".join(summary))
    if unavailable:
        print(f"\nNot available yet in tensorjit (NotImplementedError): {', '.join(unavailable)}")
    if problems:
        print("\nRows with problems:\n" + "\n".join(f"- {p}" for p in problems))

    info["load_average_at_end"] = load_average()
    os.makedirs(args.out_dir, exist_ok=True)
    json_path = args.json or os.path.join(args.out_dir, "tensorjit-bench.json")
    os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
    report.write_json(json_path, {"format": "tensorjit-bench/1", "command": command,
                                  "machine": info, "options": _options(args),
                                  "cases": cases, "summary": summary,
                                  "unavailable_rows": unavailable})
    print(f"\nresults: {json_path}")
    if not args.no_png:
        png_path = args.png or os.path.join(args.out_dir, "tensorjit-bench.png")
        if report.write_png(png_path, cases):
            print(f"chart: {png_path}")
        else:
            print("chart: skipped (matplotlib is not installed)")
    return 1 if problems and any("WRONG" in p for p in problems) else 0


def _interleaved(case, record):
    """Raw NumPy against each capture mode at O0 (default backend) and the fastest jitted
    row: the per-call overhead of every mode."""
    from .measure import interleaved_per_call, OK as ROW_OK
    rows = [r for g in record["groups"] for r in g if r["status"] == ROW_OK
            and r["id"] != "eager"]
    if not rows:
        return None
    chosen = {r["id"]: r for r in rows if r["id"] in ("ast.O0", "bytecode.O0", "trace.O0")}
    fastest = min(rows, key=lambda r: r["per_call_s"])
    chosen.setdefault(fastest["id"], fastest)
    from .rows import RowSpec
    try:
        return interleaved_per_call(case, [RowSpec.from_json(r["row"]) for r in chosen.values()])
    except Exception:          # the main table already has these rows; this is a refinement
        return None


def _ten_ops():
    from .measure import ten_op_per_call
    try:
        return ten_op_per_call()
    except Exception:          # a refinement of the main table, as above
        return None


def _absent_label(peer):
    return {"torch": "eager", "torch.compile": "torch.compile", "jax": "jax.jit",
            "mindspore": "mindspore.jit"}.get(peer, peer)


def _options(args):
    return {k: v for k, v in vars(args).items() if k != "peer_list"}
