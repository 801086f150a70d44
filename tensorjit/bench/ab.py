"""Two source trees of tensorjit measured in alternation: did a change make it slower?

    python -m tensorjit.bench.ab OLD_TREE NEW_TREE [--rounds 7] [--only simple,chain]

e.g. ``git worktree add /tmp/old HEAD~3`` and compare it with the working tree (``.``).
One persistent worker process per tree (``PYTHONPATH=<tree>``) builds every workload once;
then each round times every workload in both workers, alternating which goes first, so
load on a shared machine hits both alike. The report gives each tree's median and the
median of the per-round ratios NEW/OLD (below 1: the new tree is faster).

Workloads use only the public API, so any two versions compare:
  simple.<mode>.<level>  seed 000's ``a * b + c`` on 2x3 float32, per call (new inputs
                         each call), every capture mode at O0 / O1, and GE
  numpy                  the same expression in NumPy (the floor both are held to)
  chain.<level>          ``((v*1.5+2).tanh()*v-0.5).exp()*0.1+v`` on 4M float32 (trace)
  block.<level>          ResNet BasicBlock forward, the benchmark's CPU size (trace)
  attention.O1           Llama attention forward, the benchmark's CPU size (trace)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

_WORKER = r'''
import json, sys, time
import numpy as np
import tensorjit as ms
from tensorjit import Tensor
from tensorjit.bench import workloads

rng = np.random.default_rng(0)
dataset = [[Tensor(rng.standard_normal((2, 3)).astype(np.float32)) for _ in range(3)]
           for _ in range(1000)]
arrays = [[t.asnumpy() for t in args] for args in dataset]


def f(a, b, c):
    return a * b + c


def chain(v):
    return ((v * 1.5 + 2).tanh() * v - 0.5).exp() * 0.1 + v


def per_call(fn, data, calls):
    def run():
        start = time.perf_counter()
        for i in range(calls):
            fn(*data[i % len(data)])
        return (time.perf_counter() - start) / calls
    return run


def per_block(fn, args, calls):
    def run():
        fn(*args)
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        return (time.perf_counter() - start) / calls
    return run


builders = {"numpy": lambda: per_call(lambda a, b, c: a * b + c, arrays, 3000)}
for mode in ("ast", "bytecode", "trace"):
    for level in ("O0", "O1"):
        builders[f"simple.{mode}.{level}"] = (lambda m=mode, lv=level: per_call(
            ms.jit(f, capture_mode=m, jit_level=lv), dataset, 3000))
builders["simple.ast.GE"] = lambda: per_call(ms.jit(f, backend="GE"), dataset, 3000)
big = Tensor(rng.standard_normal(1 << 22).astype(np.float32))
for level in ("O0", "O1"):
    builders[f"chain.{level}"] = (lambda lv=level: per_block(
        ms.jit(chain, capture_mode="trace", jit_level=lv), [big], 10))
    builders[f"block.{level}"] = (lambda lv=level: (lambda wl: per_block(
        ms.jit(wl.cell, capture_mode="trace", jit_level=lv), wl.args, 5))(
        workloads.resnet_block("cpu")))
builders["attention.O1"] = lambda: (lambda wl: per_block(
    ms.jit(wl.cell, capture_mode="trace", jit_level="O1"), wl.args, 5))(
    workloads.llama_attention("cpu"))

wanted = sys.argv[1].split(",")
runs = {}
for name, build in builders.items():
    if any(name == w or name.startswith(w + ".") for w in wanted):
        runs[name] = build()
        runs[name]()                     # compile and warm up
print(json.dumps(sorted(runs)), flush=True)
for line in sys.stdin:
    name = line.strip()
    print(json.dumps(runs[name]()), flush=True)
'''


class Worker:
    def __init__(self, tree, only, script):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
        self.tree = tree
        self.process = subprocess.Popen([sys.executable, script, only], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, cwd=os.path.abspath(tree))
        self.names = json.loads(self._line())

    def _line(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker for {self.tree} exited (code "
                               f"{self.process.wait()})")
        return line

    def time(self, name):
        self.process.stdin.write(name + "\n")
        self.process.stdin.flush()
        return json.loads(self._line())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def _us(seconds):
    return f"{seconds * 1e6:10.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:10.2f} ms"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench.ab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old", help="source tree of the baseline (holds tensorjit/)")
    p.add_argument("new", help="source tree of the change")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--only", default="numpy,simple,chain,block,attention",
                   help="workload names or prefixes, comma-separated")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        script = os.path.join(scratch, "ab_worker.py")     # ast mode reads its source
        with open(script, "w") as f:
            f.write(_WORKER)
        old, new = Worker(args.old, args.only, script), Worker(args.new, args.only, script)
        times, names = _alternate(old, new, args.rounds)
    print(f"{args.rounds} alternated rounds; old = {args.old}, new = {args.new}")
    print(f"{'workload':22s} {'old (median)':>14s} {'new (median)':>14s} {'new/old':>8s}")
    for n in names:
        t_old, t_new = times[n]
        ratio = statistics.median(b / a for a, b in zip(t_old, t_new))
        print(f"{n:22s} {_us(statistics.median(t_old)):>14s} "
              f"{_us(statistics.median(t_new)):>14s} {ratio:8.3f}")


def _alternate(old, new, rounds):
    names = [n for n in old.names if n in new.names]
    times = {n: ([], []) for n in names}
    try:
        for r in range(rounds):
            for n in names:
                first, second = (old, new) if r % 2 == 0 else (new, old)
                a, b = first.time(n), second.time(n)
                t_old, t_new = (a, b) if first is old else (b, a)
                times[n][0].append(t_old)
                times[n][1].append(t_new)
    finally:
        old.close()
        new.close()
    return times, names


if __name__ == "__main__":
    main()
