"""A persistent benchmark worker: ``python server.py FRAMEWORK`` (a standalone script, so
a peer can run in its own interpreter; only the standard library and NumPy here, plus the
framework it measures).

It reads one JSON request per line on stdin and answers one JSON line on stdout:

  {"op": "build", "workload": W, "variant": V, "output": PATH}
      builds W's function in this framework (variant: eager, O0, O1, jit, compile, ...),
      makes the first call (timed: "prepare_s"), two more, saves the first result to
      PATH (.npy) -> {"key": K, "prepare_s": s, "call_s": s} or {"error": text}
  {"op": "time", "key": K, "calls": N}
      -> {"per_call_s": s}: N calls back to back, waiting for the last result
  {"op": "build", "workload": "resnet18" | "gpt", "variant": V, "output": PATH,
   "data": NPZ, "config": {...}, "size": S, "first_steps": 10, "budget_s": 120}
      a training workload (``train_<framework>.py``): one call is one train step on the
      next batch. Steps 1..first_steps are timed one by one ("prepare_s" is the first,
      "first_steps_s" their sum; fewer once budget_s is spent), their losses saved to
      PATH; "peak_rss" is the resident-set high-water mark during one more step, in bytes
      (``peak_rss``); "call_s" the best of two further steps
  {"op": "build", "workload": W, "variant": V, "output": PATH, "file": F, "inputs": NPZ}
      an exported model file F run on the inputs in NPZ (``export_workloads.py``)
  {"op": "exit"}

Inputs come from ``np.random.default_rng(0)`` in every worker, so all see the same arrays.
The workloads (``WORKLOADS``) are O1's fusion targets: an elementwise chain with
transcendentals, exact GELU, softmax and layer norm, in float32; ``vmap_workloads.py``
adds vmap against the same computation batched by hand, ``kernel_workloads.py`` the
training kernels of ResNet-18 and the GPT decoder (``python -m tensorjit.bench kernels``).
"""
import importlib
import json
import sys
import time
import traceback

import numpy as np

try:                               # imported as tensorjit.bench.peers.server (bench.fusion)
    from .vmap_workloads import VMAP_WORKLOADS, VMAP_BUILDERS
except ImportError:                # run as a script: this directory is on sys.path
    from vmap_workloads import VMAP_WORKLOADS, VMAP_BUILDERS
try:
    from .kernel_workloads import KERNELS, BUILDERS as KERNEL_BUILDERS
except ImportError:
    from kernel_workloads import KERNELS, BUILDERS as KERNEL_BUILDERS
try:
    from .export_workloads import BUILDERS as FILE_BUILDERS
except ImportError:
    from export_workloads import BUILDERS as FILE_BUILDERS

ROWS, WIDTH = 2048, 1024
WORKLOADS = {
    "chain": "((v*1.5+2).tanh()*v-0.5).exp()*0.1+v on f32[4194304]",
    "gelu": f"exact GELU (erf) on f32[{ROWS},{WIDTH}]",
    "softmax": f"softmax over the last axis of f32[{ROWS},{WIDTH}]",
    "layernorm": f"layer norm over the last axis of f32[{ROWS},{WIDTH}], weight and bias",
}


def inputs(workload):
    rng = np.random.default_rng(0)
    if workload == "chain":
        return [rng.standard_normal(1 << 22).astype(np.float32)]
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float32)
    if workload == "layernorm":
        return [x, rng.standard_normal(WIDTH).astype(np.float32),
                rng.standard_normal(WIDTH).astype(np.float32)]
    return [x]


# ---- one builder per framework: (workload, variant) -> (fn, args, to_numpy, sync) -------

def numpy_builder(workload, variant):
    f32 = np.float32
    if workload == "chain":
        def fn(v):
            return np.exp(np.tanh(v * f32(1.5) + f32(2.0)) * v - f32(0.5)) * f32(0.1) + v
    elif workload == "gelu":
        try:
            from scipy.special import erf
        except ImportError:
            raise NotImplementedError("NumPy has no erf (SciPy is not installed)")

        def fn(x):
            return f32(0.5) * x * (f32(1.0) + erf(x * f32(1 / np.sqrt(2))))
    elif workload == "softmax":
        def fn(x):
            e = np.exp(x - x.max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True)
    else:
        def fn(x, w, b):
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            return (x - mean) / np.sqrt(var + f32(1e-5)) * w + b
    return fn, inputs(workload), np.asarray, None


def _mindspore_api(workload, ops):
    """The workload written with MindSpore's API, which tensorjit's follows."""
    if workload == "chain":
        return lambda v: ops.exp(ops.tanh(v * 1.5 + 2) * v - 0.5) * 0.1 + v
    if workload == "gelu":
        return lambda x: ops.gelu(x, approximate="none")
    if workload == "softmax":
        return lambda x: ops.softmax(x, -1)
    return lambda x, w, b: ops.layer_norm(x, (WIDTH,), w, b, 1e-5)


# tensorjit-only workloads, built by tensorjit.bench (python -m tensorjit.bench pipeline)
TENSORJIT_WORKLOADS = {"cnn_train": "a small CNN's jitted train step fed by tensorjit.dataset"}


def tensorjit_builder(workload, variant):
    if workload in TENSORJIT_WORKLOADS:
        from tensorjit.bench import train_pipeline
        return train_pipeline.build(variant)
    import tensorjit as ms
    fn = _mindspore_api(workload, ms.ops)
    if variant != "eager":
        fn = ms.jit(fn, jit_level=variant)
    return fn, [ms.Tensor(a) for a in inputs(workload)], lambda t: t.asnumpy(), None


def torch_builder(workload, variant):
    import torch
    import torch.nn.functional as F
    if workload == "chain":
        def fn(v):
            return ((v * 1.5 + 2).tanh() * v - 0.5).exp() * 0.1 + v
    elif workload == "gelu":
        def fn(x):
            return F.gelu(x)
    elif workload == "softmax":
        def fn(x):
            return torch.softmax(x, -1)
    else:
        def fn(x, w, b):
            return F.layer_norm(x, (WIDTH,), w, b, 1e-5)
    if variant == "compile":
        fn = torch.compile(fn)
    inference = torch.inference_mode()

    def run(*args):
        with inference:
            return fn(*args)
    return run, [torch.from_numpy(a) for a in inputs(workload)], lambda t: t.numpy(), None


def jax_builder(workload, variant):
    import jax
    import jax.numpy as jnp
    if workload == "chain":
        def fn(v):
            return jnp.exp(jnp.tanh(v * 1.5 + 2) * v - 0.5) * 0.1 + v
    elif workload == "gelu":
        def fn(x):
            return jax.nn.gelu(x, approximate=False)
    elif workload == "softmax":
        def fn(x):
            return jax.nn.softmax(x, -1)
    else:
        def fn(x, w, b):
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            return (x - mean) * jax.lax.rsqrt(var + 1e-5) * w + b
    if variant == "jit":
        fn = jax.jit(fn)
    args = [jnp.asarray(a) for a in inputs(workload)]
    return fn, args, np.asarray, lambda out: out.block_until_ready()


def mindspore_builder(workload, variant):
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE)
    fn = _mindspore_api(workload, ms.ops)
    if variant != "pynative":
        fn = ms.jit(fn)
    return fn, [ms.Tensor(a) for a in inputs(workload)], lambda t: t.asnumpy(), None


# training workloads: train_<framework>.py's build(workload, variant, request)
TRAINING = {
    "resnet18": "ResNet-18 (CIFAR layout), Momentum",
    "gpt": "GPT decoder (exact GELU), Adam",
}

def onnxruntime_builder(workload, variant):
    raise NotImplementedError("ONNX Runtime runs exported files only (bench export)")


BUILDERS = {"numpy": numpy_builder, "tensorjit": tensorjit_builder, "torch": torch_builder,
            "jax": jax_builder, "mindspore": mindspore_builder,
            "onnxruntime": onnxruntime_builder}


_framework = None


def serve(framework):
    global _framework
    _framework = framework
    builder = BUILDERS[framework]
    built = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if request["op"] == "exit":
                break
            if request["op"] == "build":
                reply = _build(builder, request, built)
            else:
                fn, args, _, sync = built[request["key"]]
                reply = {"per_call_s": _loop(fn, args, sync, request["calls"])}
        except NotImplementedError as exc:
            reply = {"error": f"not available: {exc}"}
        except Exception as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}".splitlines()[0][:300],
                     "traceback": traceback.format_exc(limit=6)[-2000:]}
        print(json.dumps(reply), flush=True)


def _build(builder, request, built):
    if request["workload"] in TRAINING:
        return _build_training(request, built)
    workload = request["workload"]
    if request.get("file"):               # an exported model file (export_workloads.py)
        if _framework not in FILE_BUILDERS:
            raise NotImplementedError(f"{_framework} does not run exported files")
        return _timed_build(lambda: FILE_BUILDERS[_framework](request), request, built)
    if workload in VMAP_WORKLOADS or workload in KERNELS:
        builders = VMAP_BUILDERS if workload in VMAP_WORKLOADS else KERNEL_BUILDERS
        builder = builders.get(_framework)
        if builder is None:
            raise NotImplementedError(f"no workload {workload} for {_framework}")
    elif workload not in WORKLOADS and not (
            builder is tensorjit_builder and workload in TENSORJIT_WORKLOADS):
        raise NotImplementedError(f"unknown workload {workload!r}")
    return _timed_build(lambda: builder(workload, request["variant"]), request, built)


def _timed_build(make, request, built):
    """Build (``make() -> (fn, args, to_numpy, sync)``), time the first call, save its
    result, time two more."""
    fn, args, to_numpy, sync = make()
    start = time.perf_counter()
    out = fn(*args)
    if sync:
        sync(out)
    prepare = time.perf_counter() - start
    np.save(request["output"], to_numpy(out))
    call = min(_loop(fn, args, sync, 1) for _ in range(2))
    key = f"{request['workload']}/{request['variant']}"
    built[key] = (fn, args, to_numpy, sync)
    return {"key": key, "prepare_s": prepare, "call_s": call}


def _build_training(request, built):
    framework = sys.argv[1]
    try:
        module = importlib.import_module(f"train_{framework}")
    except ModuleNotFoundError as exc:
        if exc.name == f"train_{framework}":
            raise NotImplementedError(f"no training workloads for {framework}")
        raise
    step, to_float, sync = module.build(request["workload"], request["variant"], request)
    losses, times = [], []
    for _ in range(request.get("first_steps", 10)):
        start = time.perf_counter()
        losses.append(to_float(step()))         # reading the loss waits for the step
        times.append(time.perf_counter() - start)
        if sum(times) > request.get("budget_s", float("inf")):
            break
    np.save(request["output"], np.array(losses, np.float64))
    if hasattr(module, "settle"):        # tensorjit: kernels still compiling (tiered)
        module.settle()
    peak = peak_rss(lambda: to_float(step()))
    call = min(_loop(step, (), sync, 1) for _ in range(2))
    key = f"{request['workload']}/{request['variant']}"
    built[key] = (step, (), to_float, sync)
    return {"key": key, "prepare_s": times[0], "first_steps_s": sum(times),
            "first_steps": len(times), "call_s": call, "peak_rss": peak}


def peak_rss(run):
    """Resident-set high-water mark (bytes) while ``run()`` runs: Linux resets the mark
    when "5" is written to /proc/self/clear_refs; elsewhere the process's lifetime peak."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        reset = True
    except OSError:
        reset = False
    run()
    if reset:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    import resource                      # not on Windows
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _loop(fn, args, sync, calls):
    start = time.perf_counter()
    for _ in range(calls):
        out = fn(*args)
    if sync:
        sync(out)
    return (time.perf_counter() - start) / calls


if __name__ == "__main__":
    serve(sys.argv[1])
