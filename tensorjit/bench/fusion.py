"""O1's fusion targets side by side with the peers, measured in alternation:

    python -m tensorjit.bench fusion [--rounds 7] [--peers numpy,torch,torch.compile,jax]

Workloads (``peers/server.py``): the elementwise chain ``((v*1.5+2).tanh()*v-0.5).exp()*0.1+v``
on 4M float32, exact GELU, softmax and layer norm on 2048x1024 float32. Rows: tensorjit
eager, O0 and O1 (default capture mode), raw NumPy, PyTorch eager and ``torch.compile``,
``jax.jit``, MindSpore (PyNative and ``jit``) when its interpreter is configured. Every row
is checked against tensorjit eager first. Reported per row: time to prepare (first call),
the median time per call over the rounds, and the median per-round ratio to tensorjit O0
and to O1.
"""
import argparse

from . import alternate
from .peers import detect, mindspore_python
from .peers.server import WORKLOADS

# (label, framework, variant, peer name for detection or None)
CONTESTANTS = [
    ("tensorjit eager", "tensorjit", "eager", None),
    ("tensorjit O0", "tensorjit", "O0", None),
    ("tensorjit O1", "tensorjit", "O1", None),
    ("NumPy", "numpy", "numpy", "numpy"),
    ("PyTorch eager", "torch", "eager", "torch"),
    ("torch.compile", "torch", "compile", "torch.compile"),
    ("jax.jit", "jax", "jit", "jax"),
    ("MindSpore PyNative", "mindspore", "pynative", "mindspore"),
    ("MindSpore jit", "mindspore", "jit", "mindspore"),
]
DEFAULT_PEERS = ("numpy", "torch", "torch.compile", "jax", "mindspore")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench fusion",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--workloads", default=",".join(WORKLOADS),
                   help=f"comma-separated, of: {', '.join(WORKLOADS)}")
    p.add_argument("--peers", default=",".join(DEFAULT_PEERS))
    p.add_argument("--mindspore-python", default=None,
                   help="interpreter with MindSpore (default: $TENSORJIT_MINDSPORE_PYTHON)")
    return p.parse_args(argv)


def main(argv=None):
    measure(parse_args(argv))
    return 0


def measure(args):
    """Build, check and time every workload; returns {workload: [alternate.Row]}."""
    peers = [p for p in args.peers.split(",") if p]
    ms_python = mindspore_python(args.mindspore_python)
    found = detect(peers, ms_python)
    workers, contestants = {}, []
    for label, framework, variant, peer in CONTESTANTS:
        if peer is not None and (peer not in peers or not found.get(peer)):
            continue
        if framework not in workers:
            python = ms_python if framework == "mindspore" else None
            workers[framework] = alternate.Worker(framework, python=python)
        contestants.append((label, workers[framework], variant))
    missing = [p for p in peers if not found.get(p)]
    print(f"fusion workloads, {args.rounds} alternated rounds (one worker process per "
          f"framework); per call: median over rounds; ratios: median of per-round ratios")
    if missing:
        print("not installed: " + ", ".join(missing) +
              (" (MindSpore: --mindspore-python or $TENSORJIT_MINDSPORE_PYTHON)"
               if "mindspore" in missing else ""))
    return alternate.compare_workloads(workers, contestants, args.workloads.split(","),
                                       WORKLOADS, args.rounds, _print)


def _print(rows):
    by_label = {r.label: r for r in rows}
    o0, o1 = by_label.get("tensorjit O0"), by_label.get("tensorjit O1")
    print(f"  {'':20s} {'prepare':>10s} {'per call':>10s} {'/ O0':>7s} {'/ O1':>7s}")
    for row in rows:
        if not row.samples:
            print(f"  {row.label:20s} {row.error or 'no result'}")
            continue
        cells = [_ratio(row, o0), _ratio(row, o1)]
        print(f"  {row.label:20s} {row.prepare_s * 1e3:8.1f}ms {row.median() * 1e3:8.3f}ms "
              f"{cells[0]:>7s} {cells[1]:>7s}" + (f"  {row.error}" if row.error else ""))


def _ratio(row, reference):
    if reference is None or not reference.samples:
        return "-"
    value = alternate.ratio(row, reference)
    return f"{value:.2f}x" if value is not None else "-"


if __name__ == "__main__":
    main()
