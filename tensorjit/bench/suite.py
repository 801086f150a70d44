"""The three seed workloads as benchmark cases: the function a user jits, its inputs, and
the eager results every row is checked against.

    simple     f(a, b, c) = a * b + c on 2x3 float32 tensors; a fresh input triple per call,
               like the seed's ``dataset``.
    conv       the ResNet ``BasicBlock`` (``workloads.resnet_block``).
    attention  the Llama ``LlamaAttention`` (``workloads.llama_attention``).

Each of conv and attention has two directions, as in the seed scripts::

    fp(x)        = block(x)
    fp_and_bp(x) = grad_fn(x),  grad_fn = mindspore.value_and_grad(block, None,
                                                                   block.trainable_params())

Inputs come from a small pool of distinct tensors (the seed scales its input by ``i/1000``
inside the loop; pre-made inputs keep that elementwise work out of the measurement, for
tensorjit and for the peers alike). BatchNorm statistics are set to random values so the
correctness check can see them (freshly initialized BatchNorm is nearly the identity).
"""
import numpy as np

import tensorjit as mindspore
from tensorjit import Tensor
from . import workloads as W

WORKLOADS = ("simple", "conv", "attention")
DIRECTIONS = {"simple": ("forward",), "conv": ("forward", "forward+backward"),
              "attention": ("forward", "forward+backward")}
DEFAULT_ITERATIONS = {"simple": 1000, "conv": 100, "attention": 50}
SEED_SIZE_ITERATIONS = 3          # default iterations at --size seed
SIMPLE_SHAPE = (2, 3)
POOL = 8                          # distinct inputs for the blocks
CHECK_CALLS = 4                   # calls compared with eager before timing


def f(a, b, c):
    return a * b + c


def size_config(workload, size):
    if workload == "simple":
        return {"shape": list(SIMPLE_SHAPE)}
    table = W.RESNET_BLOCK_SIZES if workload == "conv" else W.LLAMA_ATTENTION_SIZES
    if size not in table:
        raise ValueError(f"size must be one of {', '.join(table)}; got {size!r}")
    return dict(table[size])


class Case:
    """One table: a workload in one direction, at one size.

    ``fn`` is the plain Python function (eager row; what the jit rows wrap); ``calls`` is
    the list of argument tuples of the timed loop (``iterations`` long, drawn from the
    pool); ``refs[i]`` are the eager results for ``pool[i]`` as flat NumPy arrays."""

    def __init__(self, workload, direction, size, iterations, seed=0):
        self.workload, self.direction, self.size = workload, direction, size
        self.iterations = iterations
        self.config = size_config(workload, size)
        self.trainable = []
        self.params = {}
        rng = np.random.default_rng(seed)
        if workload == "simple":
            self.fn = f
            n = max(iterations, CHECK_CALLS)
            self.pool = [tuple(Tensor(rng.standard_normal(SIMPLE_SHAPE), mindspore.float32)
                               for _ in range(3)) for _ in range(n)]
        else:
            self._build_block(rng, seed)
        self.calls = [self.pool[i % len(self.pool)] for i in range(iterations)]
        self.refs = {i: flat_numpy(self.fn(*self.pool[i]))
                     for i in range(min(CHECK_CALLS, len(self.pool)))}

    def _build_block(self, rng, seed):
        if self.workload == "conv":
            work = W.resnet_block(self.size, seed=seed)
            block = work.cell
            for name, p in block.parameters_and_names():
                if "moving_variance" in name or "gamma" in name:
                    p.set_data(Tensor(rng.uniform(0.5, 1.5, p.shape), p.dtype))
                elif "moving_mean" in name or "beta" in name:
                    p.set_data(Tensor(rng.normal(0.0, 0.2, p.shape), p.dtype))
        else:
            work = W.llama_attention(self.size, seed=seed)
            block = work.cell
            self.config = dict(self.config, rope_theta=block.rope_theta,
                               max_position_embeddings=block.max_position_embeddings)
        self.block = block
        x = work.args[0]
        rest = tuple(work.args[1:])
        self.pool = [(Tensor(x.asnumpy() * ((k + 1) / POOL), x.dtype),) + rest
                     for k in range(POOL)]
        self.params = {name: p.asnumpy() for name, p in block.parameters_and_names()}
        self.trainable = [p.name for p in block.trainable_params()]
        if self.direction == "forward":
            def fp(*args, **kwargs):
                out = block(*args, **kwargs)
                return out
            self.fn = fp
        else:
            grad_fn = mindspore.value_and_grad(block, None, block.trainable_params())

            def fp_and_bp(*args, **kwargs):
                out, grads = grad_fn(*args, **kwargs)
                return out, grads
            self.fn = fp_and_bp

    @property
    def key(self):
        return f"{self.workload}/{self.direction}"

    @property
    def title(self):
        return self.workload if self.workload == "simple" else f"{self.workload} {self.direction}"

    def arrays_for_peers(self):
        """Inputs and weights as NumPy arrays, for frameworks that rebuild the workload."""
        arrays = {}
        for k, args in enumerate(self.pool):
            for j, a in enumerate(args):
                if isinstance(a, Tensor):
                    arrays[f"in_{k}_{j}"] = a.asnumpy()
        for name, value in self.params.items():
            arrays[f"p_{name}"] = value
        return arrays

    def peer_spec(self):
        n_args = len(self.pool[0])
        return {"workload": self.workload, "direction": self.direction,
                "config": self.config, "iterations": self.iterations,
                "pool": len(self.pool), "n_args": n_args,
                "none_args": [j for j, a in enumerate(self.pool[0]) if a is None],
                "trainable": self.trainable, "params": sorted(self.params)}


def flat_numpy(out):
    """A result (tensor, or nested tuples/lists of tensors) as a flat list of arrays."""
    if isinstance(out, Tensor):
        return [out.asnumpy()]
    if isinstance(out, np.ndarray):
        return [out]
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flat_numpy(o)]
    if out is None:
        return []
    try:                          # a peer framework's tensor
        return [np.asarray(out)]
    except Exception:             # pragma: no cover
        raise TypeError(f"cannot compare a result of type {type(out).__name__}")


def compare(got, want, tolerance, check_dtype=False):
    """None when ``got`` equals ``want`` within ``tolerance`` (normwise: the largest
    absolute difference relative to the largest magnitude of the reference), else a
    message. Also returns the error measured."""
    if len(got) != len(want):
        return f"{len(got)} outputs, eager has {len(want)}", float("inf")
    worst = 0.0
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape:
            return f"output {k}: shape {g.shape}, eager {w.shape}", float("inf")
        if check_dtype and g.dtype != w.dtype:
            return f"output {k}: dtype {g.dtype}, eager {w.dtype}", float("inf")
        if g.size == 0:
            continue
        scale = max(float(np.max(np.abs(w.astype(np.float64)))), 1e-30)
        err = float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) / scale
        if not np.isfinite(err):
            return f"output {k}: not finite", float("inf")
        worst = max(worst, err)
        if err > tolerance:
            return f"output {k}: relative error {err:.2e} > {tolerance:g}", err
    return None, worst
