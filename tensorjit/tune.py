"""Measure this machine's kernel choices ahead of time, and print them.

    python -m tensorjit.tune                 # the BLAS choice, then the whole table
    python -m tensorjit.tune train.py ARGS   # also every shape train.py meets (it runs)
    python -m tensorjit.tune --refresh       # measure again what the table holds
    python -m tensorjit.tune --forget        # delete this machine's table

tensorjit measures each choice lazily the first time a program needs it (``ops/tuning``);
this command does it before, on a quiet machine, and shows what was chosen, what the
alternatives measured, and which environment variable overrides each choice.
"""
import argparse
import os
import runpy
import sys

from .ops import blas, conv_select, tuning

CHOICES = (blas.LIBRARY,) + conv_select.CHOICES


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tensorjit.tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--refresh", action="store_true",
                        help="measure again, replacing the table's entries")
    parser.add_argument("--forget", action="store_true",
                        help="delete this machine's table (everything is measured again)")
    parser.add_argument("script", nargs="?", help="a program to run with measuring on")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    args = parser.parse_args(argv)
    os.environ["TENSORJIT_TUNE"] = "refresh" if args.refresh else "1"
    path = tuning.TABLE.path()
    if args.forget:
        if path and os.path.exists(path):
            os.unlink(path)
            print(f"deleted {path}")
        else:
            print(f"no table to delete ({path or 'the cache directory is unusable'})")
        tuning.TABLE.forget()
        return 0
    for dtype in blas.DTYPES:
        blas.library_name(dtype)
    if args.script:
        sys.argv = [args.script] + args.args
        runpy.run_path(args.script, run_name="__main__")
    print(report(path))
    if any("other work" in d.how for d in tuning.consulted()):
        print("\nOther processes kept the CPUs busy during some measurements: those choices "
              "held for this run only. Run again on a quiet machine to record them.")
    return 0


def report(path):
    """The machine, the table (choices with their measured alternatives) and the
    overrides, as text."""
    fp = tuning.machine.fingerprint()
    libraries = ", ".join(f"{k} {v}" for k, v in fp["libraries"].items() if v)
    lines = [f"machine: {fp['cpu']} ({fp['arch']}, {fp['cpus']} CPUs; "
             f"{' '.join(fp['isa']) or 'no extensions listed'})",
             f"libraries: {libraries}; {fp['python']}",
             f"table: {path or 'none (the cache directory is unusable): in memory only'}",
             "", "| choice | for | chosen | measured (ms) | how |", "| --- | --- | --- | --- | --- |"]
    decided = {(d.problem, d.key): d for d in tuning.consulted()}
    rows = [(p, k, e["choice"], e["seconds"], e["note"]) for p, k, e in tuning.TABLE.entries()]
    stored = {(p, k) for p, k, *_ in rows}
    rows += [(d.problem, d.key, d.choice, d.seconds, d.how) for d in decided.values()
             if (d.problem, d.key) not in stored]
    for problem, key, choice, seconds, how in rows:
        lines.append(f"| {problem} | {key} | **{choice}** | {_alternatives(seconds)} | {how} |")
    lines += ["", "overrides (environment variables; `TENSORJIT_TUNE=0`: built-in defaults, "
              "no measuring):"]
    for choice in CHOICES:
        current = ", ".join(f"{v}={os.environ[v]}" for v in choice.env if os.environ.get(v))
        lines.append(f"- {' / '.join(choice.env)}: {choice.doc}; one of "
                     f"{', '.join(choice.names)}" + (f" (now {current})" if current else ""))
    return "\n".join(lines)


def _alternatives(seconds):
    timed = sorted((v, k) for k, v in seconds.items() if isinstance(v, float))
    failed = [f"{k}: {v}" for k, v in seconds.items() if isinstance(v, str)]
    return ", ".join([f"{k} {v * 1e3:.3g}" for v, k in timed] + failed) or "-"


if __name__ == "__main__":
    sys.exit(main())
