"""O1 / GE benchmark: ``python -m tensorjit.bench.o1 [--iters N] [--only NAME ...]``.

Prints time to prepare (first call: capture + passes + kernel compilation + the run) and
time per run (best of ``--repeats`` blocks of ``--iters`` calls, since the machine may be
shared) for:

  chain      six+ elementwise ops on a 4M-element float32 tensor, O0 vs O1
  block      ResNet BasicBlock 1x64x56x56, forward and forward+backward
  attention  Llama attention hidden 1024, 8 heads, 2 KV heads, seq 256, fwd and fwd+bwd
  kernels    conv2d forward / input grad / weight grad and matmul, vs PyTorch
  cache      time to prepare an O1 graph in a fresh process, kernels not cached vs cached

with PyTorch eager (CPU) side by side when it is installed. Each section is a function
returning rows, so other runners can reuse them.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.bench import workloads

try:  # a peer for measurement only, never a dependency
    import torch
    import torch.nn.functional as F
except Exception:  # pragma: no cover - optional
    torch = None


def timed(fn, iters, repeats):
    """(seconds of the first call, best mean seconds per later call)."""
    start = time.perf_counter()
    out = fn()
    _block(out)
    prepare = time.perf_counter() - start
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iters):
            out = fn()
        _block(out)
        best = min(best, (time.perf_counter() - start) / iters)
    return prepare, best


def _block(out):
    if isinstance(out, (tuple, list)):
        for o in out:
            _block(o)


def row(name, prepare, per_run, ref=None):
    ratio = f"{per_run / ref:6.2f}x" if ref else "      -"
    return f"  {name:<28} prepare {prepare * 1e3:9.1f} ms   per run {per_run * 1e3:9.3f} ms   vs torch {ratio}"


JIT_CONFIGS = [("O0", dict(jit_level="O0")), ("O1", dict(jit_level="O1")),
               ("GE", dict(backend="GE")), ("O1+GE", dict(jit_level="O1", backend="GE"))]


# ---------------------------------------------------------------------------------------

def chain_fn(x, y):
    a = x * y + 1.0
    b = ops.relu(a) - y
    c = ops.maximum(b * 0.5 + x, y)
    return ops.abs(c - 0.25) * 2.0


def bench_chain(iters=20, repeats=3):
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal(1 << 22).astype(np.float32))
    y = Tensor(rng.standard_normal(1 << 22).astype(np.float32))
    lines = ["chain of 9 elementwise ops on f32[4194304]"]
    results = {}
    p, r = timed(lambda: chain_fn(x, y), iters, repeats)
    lines.append(row("eager", p, r))
    for name, cfg in JIT_CONFIGS[:2]:
        f = ms.jit(chain_fn, capture_mode="trace", **cfg)
        p, r = timed(lambda: f(x, y), iters, repeats)
        results[name] = r
        lines.append(row(name, p, r))
    if torch is not None:
        tx, ty = torch.from_numpy(x.asnumpy()), torch.from_numpy(y.asnumpy())
        p, r = timed(lambda: ((torch.maximum((torch.relu(tx * ty + 1.0) - ty) * 0.5 + tx, ty)
                               - 0.25).abs() * 2.0), iters, repeats)
        lines.append(row("torch eager", p, r))
    lines.append(f"  O1 speedup over O0: {results['O0'] / results['O1']:.1f}x")
    return lines


# ---------------------------------------------------------------------------------------

def _grad_fn(cell):
    params = cell.trainable_params()

    def loss(*args):
        return cell(*args).sum()
    return ms.value_and_grad(loss, None, params)


def _bench_cell(title, make, torch_make, iters, repeats):
    lines = [title]
    for mode in ("forward", "forward+backward"):
        grad = mode != "forward"
        ref = None
        if torch is not None:
            tfn = torch_make(grad)
            p, ref = timed(tfn, iters, repeats)
        wl = make()
        fn = _grad_fn(wl.cell) if grad else wl.cell
        p, r = timed(lambda: fn(*wl.args), iters, repeats)
        lines.append(row(f"{mode}: eager", p, r, ref))
        for name, cfg in JIT_CONFIGS:
            wl = make()
            fn = _grad_fn(wl.cell) if grad else wl.cell
            jf = ms.jit(fn, capture_mode="trace", **cfg)
            p, r = timed(lambda: jf(*wl.args), iters, repeats)
            lines.append(row(f"{mode}: {name}", p, r, ref))
        if ref is not None:
            lines.append(row(f"{mode}: torch eager", 0.0, ref, ref))
    return lines


def _torch_block(grad):
    torch.manual_seed(0)
    conv1 = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False)
    conv2 = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False)
    bn1, bn2 = torch.nn.BatchNorm2d(64), torch.nn.BatchNorm2d(64)
    for m in (conv1, conv2, bn1, bn2):
        m.eval()
    x = torch.randn(1, 64, 56, 56)

    def fwd():
        out = torch.relu(bn1(conv1(x)))
        return torch.relu(bn2(conv2(out)) + x)
    return _torch_runner(fwd, (conv1, conv2, bn1, bn2), grad)


def _torch_runner(fwd, modules, grad):
    """A PyTorch forward (under no_grad), or forward+backward of its sum into the modules'
    parameters -- what the tensorjit rows run."""
    if not grad:
        def run():
            with torch.no_grad():
                return fwd()
        return run
    params = [p for m in modules for p in m.parameters()]

    def step():
        for p in params:
            p.grad = None
        loss = fwd().sum()
        loss.backward()
        return loss
    return step


def bench_block(iters=20, repeats=3):
    return _bench_cell("BasicBlock 1x64x56x56 (inference-mode BatchNorm; fwd+bwd = value_and_grad"
                       " of out.sum() w.r.t. the parameters)",
                       lambda: workloads.resnet_block("cpu"), _torch_block, iters, repeats)


def _torch_attention(grad, hidden=1024, heads=8, kv=2, seq=256):
    torch.manual_seed(0)
    hd = hidden // heads
    q = torch.nn.Linear(hidden, hidden, bias=False)
    k = torch.nn.Linear(hidden, kv * hd, bias=False)
    v = torch.nn.Linear(hidden, kv * hd, bias=False)
    o = torch.nn.Linear(hidden, hidden, bias=False)
    x = torch.randn(1, seq, hidden)
    inv = 1.0 / (10000.0 ** (torch.arange(0, hd, 2).float() / hd))
    freqs = torch.outer(torch.arange(seq).float(), inv)
    emb = torch.cat((freqs, freqs), -1)
    cos, sin = emb.cos()[None, None], emb.sin()[None, None]

    def rot(t):
        return torch.cat((-t[..., hd // 2:], t[..., :hd // 2]), -1)

    def fwd():
        qs = q(x).view(1, seq, heads, hd).transpose(1, 2)
        ks = k(x).view(1, seq, kv, hd).transpose(1, 2)
        vs = v(x).view(1, seq, kv, hd).transpose(1, 2)
        qs, ks = qs * cos + rot(qs) * sin, ks * cos + rot(ks) * sin
        ks = ks[:, :, None].expand(1, kv, heads // kv, seq, hd).reshape(1, heads, seq, hd)
        vs = vs[:, :, None].expand(1, kv, heads // kv, seq, hd).reshape(1, heads, seq, hd)
        w = torch.softmax(qs @ ks.transpose(2, 3) / math.sqrt(hd), -1)
        return o((w @ vs).transpose(1, 2).reshape(1, seq, hidden))
    return _torch_runner(fwd, (q, k, v, o), grad)


def bench_attention(iters=10, repeats=3):
    return _bench_cell("Llama attention hidden 1024, 8 heads, 2 KV heads, seq 256",
                       lambda: workloads.llama_attention("cpu"), _torch_attention, iters,
                       repeats)


# ---------------------------------------------------------------------------------------

def bench_kernels(iters=20, repeats=3):
    from tensorjit.ops import conv as C
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 64, 56, 56)).astype(np.float32)
    w = rng.standard_normal((64, 64, 3, 3)).astype(np.float32)
    geo = dict(stride=(1, 1), padding=(1, 1, 1, 1), dilation=(1, 1), groups=1)
    dy = C._conv_impl(x, w, **geo)
    a = rng.standard_normal((256, 1024)).astype(np.float32)
    b = rng.standard_normal((1024, 1024)).astype(np.float32)
    ours = {
        "conv2d 64->64 3x3 56x56": lambda: C._conv_impl(x, w, **geo),
        "conv2d input grad": lambda: C._conv_input_grad_impl(dy, w, x_shape=x.shape, **geo),
        "conv2d weight grad": lambda: C._conv_weight_grad_impl(x, dy, w_shape=w.shape, **geo),
        "matmul 256x1024 @ 1024x1024": lambda: a @ b,
    }
    theirs = {}
    if torch is not None:
        tx, tw, tdy = map(torch.from_numpy, (x, w, dy))
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        theirs = {
            "conv2d 64->64 3x3 56x56": lambda: F.conv2d(tx, tw, padding=1),
            "conv2d input grad": lambda: torch.nn.grad.conv2d_input(tx.shape, tw, tdy, padding=1),
            "conv2d weight grad": lambda: torch.nn.grad.conv2d_weight(tx, tw.shape, tdy, padding=1),
            "matmul 256x1024 @ 1024x1024": lambda: ta @ tb,
        }
    lines = ["heavy kernels (tensorjit NumPy/BLAS kernels vs PyTorch)"]
    for name, fn in ours.items():
        ref = None
        if name in theirs:
            with torch.no_grad():
                _, ref = timed(theirs[name], iters, repeats)
        p, r = timed(fn, iters, repeats)
        lines.append(row(name, p, r, ref))
    return lines


# ---------------------------------------------------------------------------------------

_CHILD = r"""
import time, numba  # imported before timing in both processes: we measure the compile
import numpy as np, tensorjit as ms
from tensorjit.bench import workloads
from tensorjit.backend import numba as native
wl = workloads.resnet_block("cpu", training=True)
params = wl.cell.trainable_params()
def loss(x):
    return wl.cell(x).sum()
f = ms.jit(ms.value_and_grad(loss, None, params), capture_mode="trace", jit_level="O1")
start = time.perf_counter()
f(*wl.args)
print(time.perf_counter() - start, native.STATS["compiled"], native.STATS["loaded"])
"""


def bench_cache():
    lines = ["time to prepare an O1 graph (BasicBlock training fwd+bwd) in a new process"]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TENSORJIT_CACHE_DIR=os.path.join(tmp, "cache"))
        results = []
        for label in ("first process (kernels compiled)", "second process (kernels on disk)"):
            out = subprocess.run([sys.executable, "-c", _CHILD], env=env, text=True,
                                 capture_output=True, check=True).stdout.split()
            seconds, compiled, loaded = float(out[0]), int(out[1]), int(out[2])
            results.append(seconds)
            lines.append(f"  {label:<36} prepare {seconds * 1e3:9.1f} ms "
                         f"(kernels compiled {compiled}, loaded {loaded})")
        lines.append(f"  second process prepares {results[0] / results[1]:.1f}x faster")
    return lines


SECTIONS = {"chain": bench_chain, "block": bench_block, "attention": bench_attention,
            "kernels": bench_kernels, "cache": bench_cache}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(SECTIONS), default=None)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"tensorjit O1 benchmark -- numpy {np.__version__}"
          f"{', torch ' + torch.__version__ if torch is not None else ', torch not installed'}"
          f", {os.cpu_count()} CPUs")
    for name in args.only or list(SECTIONS):
        fn = SECTIONS[name]
        lines = fn() if name == "cache" else fn(repeats=args.repeats)
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
