"""``vmap`` against the same computation batched by hand, for the benchmark workers
(``server.py`` imports this; standalone like it: NumPy here, the framework inside the
builders).

Workloads, float32, inputs from ``np.random.default_rng(0)``:
  vmap_mlp    a two-layer MLP written for one example (x: (D,)), on a batch of B. By hand
              the same code takes the batch (matmul broadcasts), which is what a user
              would write.
  vmap_grads  per-example gradients of a squared error through that MLP (the weights'
              gradients for every example): ``vmap(grad(loss), in_axes=(None, None, 0, 0))``
              against the backward pass written by hand with batched outer products.

Variants: ``<style>.<level>`` with style ``batched`` (by hand) or ``vmap`` and level
``eager``, ``O0``, ``O1`` (tensorjit: the function, or a jitted function calling it) or
``jit`` (JAX).
"""
import numpy as np

SIZES = {"vmap_mlp": dict(B=1024, D=256, H=256, O=16),
         "vmap_grads": dict(B=128, D=256, H=128, O=16)}
VMAP_WORKLOADS = {
    "vmap_mlp": "MLP {D}->{H}->{O} (relu) per example, batch {B}".format(**SIZES["vmap_mlp"]),
    "vmap_grads": "per-example weight gradients of |MLP(x) - y|^2, MLP {D}->{H}->{O}, batch "
                  "{B}".format(**SIZES["vmap_grads"]),
}


def inputs(workload):
    s = SIZES[workload]
    rng = np.random.default_rng(0)
    f32 = np.float32
    x = rng.standard_normal((s["B"], s["D"])).astype(f32)
    w1 = (rng.standard_normal((s["D"], s["H"])) / np.sqrt(s["D"])).astype(f32)
    w2 = (rng.standard_normal((s["H"], s["O"])) / np.sqrt(s["H"])).astype(f32)
    if workload == "vmap_mlp":
        b1 = rng.standard_normal(s["H"]).astype(f32)
        b2 = rng.standard_normal(s["O"]).astype(f32)
        return [x, w1, b1, w2, b2]
    y = rng.standard_normal((s["B"], s["O"])).astype(f32)
    return [w1, w2, x, y]


def _concat(parts):
    return np.concatenate([np.asarray(p).ravel() for p in parts])


# ---- tensorjit -------------------------------------------------------------------------

def tensorjit_builder(workload, variant):
    import tensorjit as ms
    from tensorjit import ops
    style, level = variant.split(".")

    def mlp(x, w1, b1, w2, b2):
        return ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) + b2

    def loss(w1, w2, x, y):
        return ((ops.matmul(ops.relu(ops.matmul(x, w1)), w2) - y) ** 2).sum()

    def grads_by_hand(w1, w2, x, y):
        pre = ops.matmul(x, w1)
        hidden = ops.relu(pre)
        d_out = (ops.matmul(hidden, w2) - y) * 2.0
        d_w2 = hidden[:, :, None] * d_out[:, None, :]
        d_pre = ops.matmul(d_out, w2.T) * (pre > 0)
        return x[:, :, None] * d_pre[:, None, :], d_w2

    def mlp_vmapped(x, w1, b1, w2, b2):
        return ms.vmap(mlp, in_axes=(0, None, None, None, None))(x, w1, b1, w2, b2)

    def grads_vmapped(w1, w2, x, y):
        return ms.vmap(ms.grad(loss, (0, 1)), in_axes=(None, None, 0, 0))(w1, w2, x, y)

    table = {("vmap_mlp", "batched"): mlp, ("vmap_mlp", "vmap"): mlp_vmapped,
             ("vmap_grads", "batched"): grads_by_hand, ("vmap_grads", "vmap"): grads_vmapped}
    fn = table[workload, style]
    if level != "eager":
        fn = ms.jit(fn, jit_level=level)
    to_numpy = (lambda t: t.asnumpy()) if workload == "vmap_mlp" else \
        (lambda out: _concat([t.asnumpy() for t in out]))
    return fn, [ms.Tensor(a) for a in inputs(workload)], to_numpy, None


# ---- NumPy (by hand) and JAX -------------------------------------------------------------

def numpy_builder(workload, variant):
    if workload == "vmap_mlp":
        def fn(x, w1, b1, w2, b2):
            return np.maximum(x @ w1 + b1, 0) @ w2 + b2
        return fn, inputs(workload), np.asarray, None

    def grads(w1, w2, x, y):
        pre = x @ w1
        hidden = np.maximum(pre, 0)
        d_out = (hidden @ w2 - y) * np.float32(2)
        d_pre = (d_out @ w2.T) * (pre > 0)
        return x[:, :, None] * d_pre[:, None, :], hidden[:, :, None] * d_out[:, None, :]
    return grads, inputs(workload), _concat, None


def jax_builder(workload, variant):
    import jax
    import jax.numpy as jnp
    style, _ = variant.split(".")

    def mlp(x, w1, b1, w2, b2):
        return jnp.maximum(x @ w1 + b1, 0) @ w2 + b2

    def loss(w1, w2, x, y):
        return ((jnp.maximum(x @ w1, 0) @ w2 - y) ** 2).sum()

    def grads_by_hand(w1, w2, x, y):
        pre = x @ w1
        hidden = jnp.maximum(pre, 0)
        d_out = (hidden @ w2 - y) * 2.0
        d_pre = (d_out @ w2.T) * (pre > 0)
        return x[:, :, None] * d_pre[:, None, :], hidden[:, :, None] * d_out[:, None, :]

    if workload == "vmap_mlp":
        fn = mlp if style == "batched" else jax.vmap(mlp, in_axes=(0, None, None, None, None))
    else:
        fn = grads_by_hand if style == "batched" else jax.vmap(
            jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    fn = jax.jit(fn)
    to_numpy = np.asarray if workload == "vmap_mlp" else _concat
    return (fn, [jnp.asarray(a) for a in inputs(workload)], to_numpy,
            lambda out: jax.block_until_ready(out))


VMAP_BUILDERS = {"tensorjit": tensorjit_builder, "numpy": numpy_builder, "jax": jax_builder}
