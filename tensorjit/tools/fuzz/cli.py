"""``python -m tensorjit.tools.fuzz``: generate programs, check them, report."""
import argparse
import os
import sys
import time

from .programs import CONFIGS, RandomChooser, config_label
from .generate import Generator
from .generate_grad import GradGenerator
from .check import check_program, check_grad_program, GRAD_CONFIGS, STATS


def generate(seed, index, grad=False, max_statements=8):
    """Program ``index`` of run ``seed`` (None if the generator gave up)."""
    chooser = RandomChooser(f"{seed}:{index}")
    if grad:
        return GradGenerator(chooser, max_statements=max_statements).program()
    return Generator(chooser, max_statements=max_statements).program()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tensorjit.tools.fuzz",
        description="Differential fuzzing: random programs, eager vs every capture mode x "
                    "jit_level x backend (or, with --grad, jitted grad vs finite differences).")
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--grad", action="store_true", help="fuzz gradients instead")
    parser.add_argument("--max-statements", type=int, default=8)
    parser.add_argument("--configs", default="", help="comma-separated filters such as "
                        "'ast', 'O1', 'GE' or 'bytecode/O1/GE' (default: all)")
    parser.add_argument("--no-fusion-threshold", dest="fuse_all", action="store_false",
                        help="keep O1's fusion size threshold (default: fuse every group, so "
                             "small programs exercise the native kernels)")
    parser.add_argument("--show", action="store_true", help="print every program")
    parser.add_argument("--save", default="", help="directory to write mismatching programs")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds per configuration call before it counts as a hang")
    parser.add_argument("--campaign", action="store_true",
                        help="fresh seeds on every core until --budget runs out (campaign.py)")
    parser.add_argument("--budget", type=float, default=3600.0, help="campaign seconds")
    parser.add_argument("--grad-programs", type=int, default=500,
                        help="gradient programs per campaign seed (--programs: value ones)")
    parser.add_argument("--seeds", default="", help="campaign seeds (default: fresh ones)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="campaign workers (default: one per core)")
    parser.add_argument("--campaign-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.campaign:
        from . import campaign
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        results = campaign.run(args.budget, args.programs, args.grad_programs, seeds,
                               max(1, args.jobs), args.save or "fuzz-campaign")
        print(campaign.report(results))
        return 1 if any(r["mismatches"] or r["internal"] for r in results) else 0

    if args.fuse_all:
        from tensorjit.passes import fusion
        fusion.MIN_ELEMENTS = 0
    configs = GRAD_CONFIGS if args.grad else CONFIGS
    if args.configs:
        wanted = [w.strip() for w in args.configs.split(",") if w.strip()]
        configs = tuple(c for c in configs
                        if any(all(part in config_label(c).split("/") for part in w.split("/"))
                               for w in wanted))
    from tensorjit.jit.cache import CACHE
    start = time.perf_counter()
    tried = skipped = runs = 0
    mismatches = []
    found_all = []
    for index in range(args.start, args.start + args.programs):
        program = generate(args.seed, index, args.grad, args.max_statements)
        if program is None:
            skipped += 1
            continue
        if args.show:
            print(f"# program {index}\n{program!r}")
        CACHE.clear()
        found = (check_grad_program if args.grad else check_program)(
            program, configs, timeout=args.timeout)
        tried += 1
        runs += len(configs)
        mismatches.extend((index, m) for m in found)
        if found and args.campaign_worker:
            found_all.extend((index, m) for m in found)
        if found:
            details = "\n".join(f"  {config_label(m.config)}, call {m.call}: "
                                 f"{m.detail.strip()}" for m in found)
            report = (f"MISMATCH program {index} (--seed {args.seed} --start {index}) in "
                      f"{len(found)} configuration(s):\n{details}\n{program!r}")
            print(report, flush=True)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, f"mismatch_{args.seed}_{index}.txt"),
                          "w") as f:
                    f.write(report)
        done = index - args.start + 1
        if done % 50 == 0:
            print(f"... {done}/{args.programs} programs, {len(mismatches)} mismatches, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    kind = "gradient programs" if args.grad else "programs"
    print(f"{kind}: {tried} (seed {args.seed}, start {args.start}; {skipped} not generated)")
    print(f"configurations: {len(configs)} ({', '.join(config_label(c) for c in configs)})")
    print(f"program x configuration runs: {runs} ({STATS['calls']} calls compared with "
          f"eager; {STATS['ill_conditioned']} ill-conditioned, see ill_conditioned())")
    print(f"mismatches: {len(mismatches)}"
          + (f" in programs {sorted({i for i, _ in mismatches})}" if mismatches else ""))
    from tensorjit.backend import numba as native
    print(f"O1 fused kernels: {native.STATS['compiled']} compiled, {native.STATS['loaded']} "
          f"loaded from the disk cache, {native.STATS['numpy']} on NumPy")
    print(f"time: {elapsed:.0f} s")
    from tensorjit.jit import fallback
    print(f"internal errors the safety net caught: {len(fallback.FAILURES)}")
    if args.campaign_worker:
        from . import campaign
        campaign.worker_summary(args.seed, "grad" if args.grad else "value", tried, found_all,
                                args.save)
    return 1 if mismatches or fallback.FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
