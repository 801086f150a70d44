"""The training kernels against PyTorch eager, at ResNet-18's and the GPT decoder's shapes:

    python -m tensorjit.bench kernels [--rounds 9] [--only conv3x3_grad,gelu_grad]

One tensorjit worker (each kernel jitted at O1, timed once its native kernels are compiled)
and one PyTorch worker (``peers/server.py``, ``peers/kernel_workloads.py``); rounds
alternate them on the same inputs; each line gives both medians and the median of the
per-round ratios. Results are checked against each other before timing.
"""
import argparse

from . import alternate
from .peers import detect
from .peers.kernel_workloads import KERNELS
from .report import fmt_time
from .system import machine_info, describe


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench kernels", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--only", default=",".join(KERNELS), help="kernels, comma-separated")
    p.add_argument("--level", default="O1", choices=("O0", "O1"))
    args = p.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in KERNELS]
    if unknown:
        p.error(f"unknown kernels {unknown}; known: {', '.join(KERNELS)}")
    if not detect(["torch"], None).get("torch"):
        print("PyTorch is not installed: nothing to compare with")
        return 1
    print(f"tensorjit kernels vs PyTorch eager: {describe(machine_info())}")
    print(f"\n| kernel | tensorjit {args.level} | PyTorch eager | ratio (tensorjit / PyTorch, "
          f"median of {args.rounds} rounds) |\n|---|---|---|---|")
    workers = {f: alternate.Worker(f) for f in ("tensorjit", "torch")}
    failed = False
    try:
        with alternate.scratch_dir() as scratch:
            for name in names:
                rows = [alternate.Row(f"tensorjit {args.level}", workers["tensorjit"], name,
                                      args.level),
                        alternate.Row("PyTorch eager", workers["torch"], name, "eager")]
                alternate.build(rows, scratch, log=lambda text: None)
                alternate.check(rows[1:], rows[0], rtol=1e-3, atol=1e-4)
                bad = [r for r in rows if not r.ok]
                if bad:
                    failed = True
                    print(f"| {KERNELS[name]} | " + "; ".join(
                        f"{r.label}: {r.error}" for r in bad) + " | | |")
                    continue
                alternate.alternate(rows, args.rounds)
                ratio = alternate.ratio(rows[0], rows[1])
                print(f"| {KERNELS[name]} | {fmt_time(rows[0].median())} | "
                      f"{fmt_time(rows[1].median())} | {ratio:.2f}x |", flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    return 1 if failed else 0
