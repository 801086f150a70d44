"""Exported models: the loaded file under ``jit`` (O1) against ONNX Runtime on the same file,
measured in alternation.

    python -m tensorjit.bench export [--models resnet18,gpt] [--batches 1,32]
                                     [--rounds 7] [--size cpu]

Each model is built here (fixed seed, inference mode), exported with ``tensorjit.export`` to
ONNX and to TJIR, and every contestant runs in its own worker (``peers/server.py``):
tensorjit loads the ONNX file (``tensorjit.load``) and jits it at O1; ONNX Runtime (CPU,
all graph optimizations) runs the same file; tensorjit also runs the TJIR file. Every row is
checked against the source model's eager output before it is timed. Reported: the first
call (tensorjit compiles then), the median per call over the rounds and the median of
per-round ratios against ONNX Runtime.
"""
import argparse
import importlib.util
import os

import numpy as np

from . import alternate, models
from .system import describe, machine_info

MODELS = ("resnet18", "gpt")
SIZES = {
    "cpu": {"resnet18": dict(width=64, image=32, classes=10),
            "gpt": dict(vocab=2048, width=256, heads=4, layers=4, seq=128)},
    "tiny": {"resnet18": dict(width=8, image=16, classes=10),
             "gpt": dict(vocab=64, width=32, heads=4, layers=2, seq=16),
             "mobilenet_v2": dict(alpha=0.35, image=32, classes=10)},
}


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench export", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default=",".join(MODELS),
                   help=f"comma-separated, of: {', '.join(MODELS)}")
    p.add_argument("--batches", default="1,32")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--size", default="cpu", choices=sorted(SIZES))
    return p.parse_args(argv)


def build_model(name, size, batch, seed=0):
    """(net in inference mode, [input arrays]) of ``name`` at ``size`` for ``batch``."""
    import tensorjit as ms
    from tensorjit import Tensor
    cfg = SIZES[size][name]
    ms.set_seed(seed)
    rng = np.random.default_rng(seed)
    if name == "resnet18":
        net = models.ResNet18(num_classes=cfg["classes"], width=cfg["width"])
        inputs = [rng.standard_normal((batch, 3, cfg["image"], cfg["image"])).astype(np.float32)]
    elif name == "gpt":
        net = models.GPT(vocab=cfg["vocab"], width=cfg["width"], heads=cfg["heads"],
                         layers=cfg["layers"], max_seq=cfg["seq"])
        inputs = [rng.integers(0, cfg["vocab"], (batch, cfg["seq"])).astype(np.int32)]
    else:
        raise ValueError(f"unknown model {name!r}: expected one of {', '.join(MODELS)}")
    net.set_train(False)
    return net, inputs, [Tensor(a) for a in inputs]


def main(argv=None):
    measure(parse_args(argv))
    return 0


def measure(args):
    """Export, load, check and time every model at every batch; returns {"<model> batch
    <n>": [alternate.Row]}."""
    import tensorjit as ms
    have_ort = importlib.util.find_spec("onnxruntime") is not None
    have_onnx = importlib.util.find_spec("onnx") is not None
    print(f"exported models, loaded and run: {describe(machine_info())}")
    print(f"{args.rounds} alternated rounds, one worker per contestant; per call: median; "
          f"ratio: median of per-round ratios against ONNX Runtime")
    if not have_onnx or not have_ort:
        print("note: the onnx / onnxruntime packages are missing: only the TJIR rows run "
              "(pip install onnx onnxruntime)")
    contestants = []
    if have_onnx:
        contestants.append(("tensorjit O1 (.onnx)", "tensorjit", "onnx.O1"))
    contestants.append(("tensorjit O1 (.tjir)", "tensorjit", "tjir.O1"))
    if have_onnx and have_ort:
        contestants.append(("ONNX Runtime (.onnx)", "onnxruntime", "onnx.ort"))
    workers = {f: alternate.Worker(f) for f in {c[1] for c in contestants}}
    results = {}
    try:
        with alternate.scratch_dir() as scratch:
            for name in args.models.split(","):
                for batch in (int(b) for b in args.batches.split(",")):
                    key = f"{name} batch {batch}"
                    results[key] = _compare(name, batch, args, contestants, workers, scratch,
                                            ms)
    finally:
        for worker in workers.values():
            worker.close()
    return results


def _compare(name, batch, args, contestants, workers, scratch, ms):
    net, arrays, tensors = build_model(name, args.size, batch)
    expected = _first(net(*tensors)).asnumpy()
    stem = os.path.join(scratch, f"{name}_b{batch}")
    files = {"tjir": ms.export(net, *tensors, file_name=stem, file_format="TJIR")}
    if any(v.startswith("onnx") for _, _, v in contestants):
        files["onnx"] = ms.export(net, *tensors, file_name=stem, file_format="ONNX")
    inputs = stem + "_inputs.npz"
    np.savez(inputs, **{f"arg{i}": a for i, a in enumerate(arrays)})
    print(f"\n{name}, batch {batch}: inputs {[a.shape for a in arrays]}, files "
          + ", ".join(f"{os.path.basename(p)} {os.path.getsize(p) / 1e6:.1f} MB"
                      for p in files.values()))
    rows = []
    for label, framework, variant in contestants:
        row = alternate.Row(label, workers[framework], f"{name}_b{batch}", variant)
        alternate.build([row], scratch, file=files[variant.split(".")[0]], inputs=inputs)
        if row.ok and not np.allclose(row.output, expected, rtol=1e-3, atol=1e-4):
            row.error = (f"WRONG: differs from the source model (max abs diff "
                         f"{np.max(np.abs(row.output - expected)):.3g})")
        rows.append(row)
    alternate.alternate(rows, args.rounds)
    reference = next((r for r in rows if r.worker.framework == "onnxruntime" and r.samples),
                     None)
    print(f"  {'':22s} {'1st call':>11s} {'per call':>10s} {'vs ORT':>8s}")
    for row in rows:
        if not row.samples:
            print(f"  {row.label:22s} {row.error or 'no result'}")
            continue
        ratio = alternate.ratio(row, reference) if reference is not None else None
        print(f"  {row.label:22s} {row.prepare_s * 1e3:9.1f}ms {row.median() * 1e3:8.2f}ms "
              f"{(f'{ratio:.2f}x' if ratio else ''):>8s}" + (f"  {row.error}" if row.error
                                                             else ""))
    return rows


def _first(out):
    return out[0] if isinstance(out, tuple) else out
