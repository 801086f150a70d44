"""``vmap`` against the same computation batched by hand, measured in alternation:

    python -m tensorjit.bench vmap [--rounds 7] [--workloads vmap_mlp,vmap_grads]
                                   [--peers numpy,jax]

Workloads (``peers/vmap_workloads.py``): a two-layer MLP written for one example, and
per-example weight gradients of a squared error through it (``vmap(grad(loss))`` against
the backward pass written by hand with batched outer products). Rows: tensorjit by hand and
vmap, each eager and jitted at O0 and O1 (a jitted function calling vmap: one batched
graph), NumPy by hand, JAX by hand and ``jax.vmap`` under ``jax.jit``. Every row is checked
against tensorjit's hand-batched eager result first. Reported per row: time to prepare,
the median per call over the rounds, and for vmap rows the median of the per-round ratios
vmap / by hand at the same level -- the figure the issue holds under 2x.
"""
import argparse

from . import alternate
from .peers import detect
from .peers.vmap_workloads import VMAP_WORKLOADS

LEVELS = ("eager", "O0", "O1")
# (label, framework, variant, peer name for detection or None)
CONTESTANTS = ([(f"tensorjit {style} {level}", "tensorjit", f"{style}.{level}", None)
                for level in LEVELS for style in ("batched", "vmap")]
               + [("NumPy batched", "numpy", "batched.eager", "numpy"),
                  ("jax batched jit", "jax", "batched.jit", "jax"),
                  ("jax vmap jit", "jax", "vmap.jit", "jax")])


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench vmap", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--workloads", default=",".join(VMAP_WORKLOADS),
                   help=f"comma-separated, of: {', '.join(VMAP_WORKLOADS)}")
    p.add_argument("--peers", default="numpy,jax")
    p.add_argument("--threads", type=int, default=None,
                   help="limit every worker to this many threads (BLAS, OpenMP, Numba, XLA): "
                        "steadier figures on a machine shared with other jobs")
    return p.parse_args(argv)


def main(argv=None):
    measure(parse_args(argv))
    return 0


def measure(args):
    """Build, check and time every workload; returns {workload: [alternate.Row]}."""
    peers = [p for p in args.peers.split(",") if p]
    found = detect(peers, None)
    workers, contestants = {}, []
    env = thread_limits(args.threads)
    for label, framework, variant, peer in CONTESTANTS:
        if peer is not None and (peer not in peers or not found.get(peer)):
            continue
        if framework not in workers:
            workers[framework] = alternate.Worker(framework, env=env)
        contestants.append((label, workers[framework], variant))
    print(f"vmap against batching by hand, {args.rounds} alternated rounds (one worker "
          f"process per framework{f', {args.threads} thread(s) each' if args.threads else ''}"
          f"); per call: median over rounds; vmap / by hand: median of per-round ratios")
    return alternate.compare_workloads(workers, contestants, args.workloads.split(","),
                                       VMAP_WORKLOADS, args.rounds, _print)


def thread_limits(threads):
    """Environment limiting a worker's thread pools (set before its libraries load)."""
    if not threads:
        return None
    from .cli import THREAD_VARIABLES
    env = {name: str(threads) for name in THREAD_VARIABLES}
    if threads == 1:
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    return env


def by_hand(row, rows):
    """The hand-batched row a vmap row is compared with (same framework and level)."""
    if " vmap " not in f" {row.label} ":
        return None
    twin = row.label.replace("vmap", "batched")
    return next((r for r in rows if r.label == twin), None)


def _print(rows):
    print(f"  {'':22s} {'prepare':>10s} {'per call':>10s} {'vmap / by hand':>15s}")
    for row in rows:
        if not row.samples:
            print(f"  {row.label:22s} {row.error or 'no result'}")
            continue
        reference = by_hand(row, rows)
        ratio = alternate.ratio(row, reference) if reference and reference.samples else None
        cell = f"{ratio:.2f}x" if ratio is not None else ""
        print(f"  {row.label:22s} {row.prepare_s * 1e3:8.1f}ms {row.median() * 1e3:8.3f}ms "
              f"{cell:>15s}" + (f"  {row.error}" if row.error else ""))
