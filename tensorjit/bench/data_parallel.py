"""``python -m tensorjit.bench data_parallel``: ResNet-18 trained data-parallel on 1 and 2
ranks (one thread each): samples per second and the share of step time spent waiting on
communication.

Each round starts one MPI job per rank count (``mpirun``, found as ``python -m
tensorjit.run`` finds it), alternating 1 and 2 ranks, so both see the same background
load; a job warms up (compiles) and then times ``--steps`` steps of the idiomatic MindSpore
train step of ``bench.models.make_model("resnet18")`` (``value_and_grad`` + Momentum,
jitted) under ``ParallelMode.DATA_PARALLEL`` with ``gradients_mean=True``: every rank
trains on its own batch of the model's batch size, so 2 ranks process twice the samples
per step (weak scaling), and the optimizer all-reduces the gradients (bucketed,
non-blocking inside the graph). Communication wait = the time a rank spends in
collectives and in waits for non-blocking ones (``communication.stats()``), over the timed
steps' wall time. The report gives per-round numbers, medians and the per-round ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def _worker(args):
    import numpy as np
    import tensorjit as ms
    from tensorjit import communication
    from .models import make_model

    communication.init()
    rank, size = communication.get_rank(), communication.get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, comm_fusion={
                                     "allreduce": {"mode": "size", "config": args.bucket_mb,
                                                   "overlap": not args.blocking}})
    model = make_model("resnet18", args.size, seed=rank, batches=2)
    step = ms.jit(model.step, capture_mode=args.capture_mode, jit_level=args.jit_level)
    for i in range(args.warmup):
        step(*model.inputs[i % 2]).asnumpy()
    communication.barrier()
    communication.reset_stats()
    started = time.perf_counter()
    for i in range(args.steps):
        loss = step(*model.inputs[i % 2])
    float(loss.asnumpy())
    seconds = time.perf_counter() - started
    waited = communication.stats()["wait_seconds"]
    everyone = communication.all_gather(ms.Tensor(np.array([[seconds, waited]]))).asnumpy()
    batch = int(model.inputs[0][0].shape[0])
    if rank == 0:
        print("RESULT " + json.dumps({
            "ranks": size, "batch_per_rank": batch, "steps": args.steps,
            "seconds": float(everyone[:, 0].max()),
            "samples_per_second": size * batch * args.steps / float(everyone[:, 0].max()),
            "wait_share": float((everyone[:, 1] / everyone[:, 0]).mean())}), flush=True)


def _run_job(ranks, blocking, args, timeout):
    from ..communication.launch import find_mpirun, build_command, flavour
    mpirun = find_mpirun()
    program = ["-m", "tensorjit.bench.data_parallel", "--worker", "--size", args.size,
               "--steps", str(args.steps), "--warmup", str(args.warmup),
               "--capture-mode", args.capture_mode, "--jit-level", args.jit_level,
               "--bucket-mb", str(args.bucket_mb)] + (["--blocking"] if blocking else [])
    cmd, _ = build_command(ranks, program, mpirun=mpirun, kind=flavour(mpirun), threads=1)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"the {ranks}-rank job failed (exit {proc.returncode}):\n"
                       f"{(proc.stdout + proc.stderr)[-3000:]}")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench data_parallel",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--size", default="cpu", choices=("cpu", "tiny"),
                   help="ResNet-18 size: 'cpu' (width 64, batch 16 of 32x32 per rank) or "
                        "'tiny' (tests)")
    p.add_argument("--steps", type=int, default=5, help="timed steps per job")
    p.add_argument("--warmup", type=int, default=2, help="untimed steps first (compiling)")
    p.add_argument("--rounds", type=int, default=2, help="alternated rounds of 1 and 2 ranks")
    p.add_argument("--capture-mode", default="ast", choices=("ast", "bytecode", "trace"))
    p.add_argument("--jit-level", default="O1", choices=("O0", "O1"))
    p.add_argument("--bucket-mb", type=float, default=16.0,
                   help="all-reduce bucket size (comm_fusion), MB")
    p.add_argument("--ranks", default="1,2", help="rank counts to compare")
    p.add_argument("--blocking-row", action=argparse.BooleanOptionalAction, default=True,
                   help="also run the largest rank count with blocking all-reduces (no "
                        "overlap), to see what the non-blocking ones gain")
    p.add_argument("--blocking", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--timeout", type=float, default=1800, help="seconds per job at most")
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.worker:
        _worker(args)
        return 0
    counts = [int(r) for r in args.ranks.split(",")]
    variants = [(str(n), n, False) for n in counts]
    if args.blocking_row and max(counts) > 1:
        variants.append((f"{max(counts)}, blocking", max(counts), True))
    rounds = []
    for index in range(args.rounds):
        order = variants if index % 2 == 0 else variants[::-1]
        rounds.append({label: _run_job(n, blocking, args, args.timeout)
                       for label, n, blocking in order})
        line = ", ".join(f"{label} rank(s) {r['samples_per_second']:.1f} samples/s "
                         f"(waiting {100 * r['wait_share']:.1f}%)"
                         for label, r in rounds[-1].items())
        print(f"round {index + 1}: {line}", file=sys.stderr, flush=True)
    labels = [label for label, _, _ in variants]
    print(report(rounds, labels, args))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": vars(args), "rounds": rounds}, f, indent=1)
    return 0


def report(rounds, labels, args):
    lines = ["#### data_parallel\n",
             f"ResNet-18 ({args.size}), jit({args.capture_mode}, {args.jit_level}), one thread "
             f"per rank, {args.steps} timed steps per job, {len(rounds)} alternated rounds, "
             f"buckets of {args.bucket_mb:g} MB (non-blocking unless marked blocking).\n",
             "| ranks | batch per rank | samples/s (median) | per round | communication wait "
             "(share of step time) | vs 1 rank (median of per-round ratios) |",
             "| --- | --- | --- | --- | --- | --- |"]
    base = labels[0]
    for label in labels:
        sps = [r[label]["samples_per_second"] for r in rounds]
        ratios = [r[label]["samples_per_second"] / r[base]["samples_per_second"]
                  for r in rounds]
        waits = [r[label]["wait_share"] for r in rounds]
        lines.append(f"| {label} | {rounds[0][label]['batch_per_rank']} | "
                     f"{statistics.median(sps):.1f} | {' / '.join(f'{v:.1f}' for v in sps)} | "
                     f"{100 * statistics.median(waits):.1f}% | "
                     f"{statistics.median(ratios):.2f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
