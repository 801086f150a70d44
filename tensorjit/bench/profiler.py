"""What the profiler costs, and whether its figures add up:

    python -m tensorjit.bench profiler [--model gpt|resnet18] [--size cpu|tiny] [--rounds 7]

One jitted train step (the training benchmark's model, O1), timed in alternated rounds
without a profiler and inside ``tensorjit.profiler.profile`` (steps marked with
``step()``): the median per-round ratio is the profiler's overhead. From the recording:
the share of each step that its kernels account for (the rest is the jitted call's own
Python), and for a first call (a fresh jit of the same step) how its time splits into
capture, passes, code generation, kernel compiles and running. Whether the code without
a profiler got slower is ``python -m tensorjit.bench.ab`` against the previous tree.
"""
import argparse
import os
import statistics
import tempfile
import time

import tensorjit as ms
from tensorjit.profiler import profile
from tensorjit.profiler import summary
from .measure import _wait_for_kernels   # (the steady state, as the other rows time)
from .models import make_model


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench profiler", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default="gpt", choices=("gpt", "resnet18"))
    p.add_argument("--size", default="cpu", choices=("cpu", "tiny"))
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--steps", type=int, default=3, help="steps per round and situation")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    result = measure(args)
    print(render(result, args))
    return 0


def _steps(step, inputs, count, session=None):
    start = time.perf_counter()
    for i in range(count):
        data, label = inputs[i % len(inputs)]
        step(data, label).asnumpy()
        if session is not None:
            session.step()
    return (time.perf_counter() - start) / count


def measure(args):
    model = make_model(args.model, args.size, batches=2)
    step = ms.jit(model.step, jit_level="O1")
    _steps(step, model.inputs, 4)
    _wait_for_kernels()
    _steps(step, model.inputs, 2)
    with profile() as session:          # the timed copy of the step's code is made once
        _steps(step, model.inputs, 2, session)
    off, on, ratios, coverage, kernel_ms = [], [], [], [], []
    for round_ in range(args.rounds):
        first_on = round_ % 2 == 1          # alternate which situation goes first
        times = {}
        for situation in (("on", "off") if first_on else ("off", "on")):
            if situation == "off":
                times["off"] = _steps(step, model.inputs, args.steps)
            else:
                with profile() as session:
                    times["on"] = _steps(step, model.inputs, args.steps, session)
                coverage.append(kernel_share(session.recording))
                kernel_ms.append(kernel_time(session.recording) / args.steps / 1e3)
        off.append(times["off"])
        on.append(times["on"])
        ratios.append(times["on"] / times["off"])
    trace_mb = _trace_megabytes(session, args.steps) * 10 / args.steps
    fresh = ms.jit(make_model(args.model, args.size, batches=1).step, jit_level="O1")
    first = make_model(args.model, args.size, batches=1).inputs
    with profile() as session:
        fresh(*first[0]).asnumpy()
    return {"off": statistics.median(off), "on": statistics.median(on),
            "ratio": statistics.median(ratios), "ratios": ratios,
            "kernel_share": statistics.median(coverage),
            "kernel_ms": statistics.median(kernel_ms),
            "first_call": summary.compile_breakdown(session.recording),
            "trace_mb_per_10_steps": trace_mb, "top": session_top(session)}


def kernel_time(recording):
    """Microseconds of kernels and eager ops within the recorded steps."""
    return sum(e.duration for e in recording.spans()
               if e.category in ("kernel", "collective", "op") and e.step is not None)


def kernel_share(recording):
    """Kernels' time over the steps' time (the steps' spans)."""
    total = sum(s.duration for s in recording.spans("step"))
    return kernel_time(recording) / total if total else float("nan")


def _trace_megabytes(session, steps):
    with tempfile.TemporaryDirectory() as scratch:
        path = session.export_chrome_trace(os.path.join(scratch, "trace.json"))
        return os.path.getsize(path) / 2 ** 20


def session_top(session, rows=8):
    return session.key_averages().table(row_limit=rows)


def render(result, args):
    lines = [f"profiler overhead, {args.model} ({args.size}) train step at O1, "
             f"{args.rounds} alternated rounds of {args.steps} steps:",
             f"  without a profiler  {result['off'] * 1e3:9.2f} ms per step",
             f"  inside profile()    {result['on'] * 1e3:9.2f} ms per step",
             f"  on / off            {result['ratio']:9.3f}x (median of per-round ratios; "
             f"rounds {', '.join(f'{r:.3f}' for r in result['ratios'])})",
             f"  kernels and ops account for {100 * result['kernel_share']:.1f}% of each "
             f"recorded step; their sum per step, {result['kernel_ms']:.2f} ms, is "
             f"{result['kernel_ms'] / (result['off'] * 1e3):.3f}x the step without a profiler",
             f"  Chrome trace of 10 steps: {result['trace_mb_per_10_steps']:.1f} MB", "",
             "first call of a fresh jit (compile phases):"]
    for call in result["first_call"]:
        lines.append(f"  {call['function']} ({call['reason']}, {call['mode']}, "
                     f"{call['level']}): {call['total'] / 1e3:.1f} ms")
        for name, us in call["phases"].items():
            lines.append(f"    {name:<24} {us / 1e3:9.1f} ms  {100 * us / call['total']:5.1f}%")
    return "\n".join(lines)
