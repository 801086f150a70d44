"""The training kernels of ResNet-18 and the GPT decoder on their own, at the models' shapes
(``python -m tensorjit.bench kernels``): tensorjit jitted at O1 (its kernels: the
convolution primitives, fused Numba kernels for batch norm and the rest) against PyTorch
eager. Backward rows are forward + gradient: tensorjit takes ``value_and_grad`` of
``sum(f(x) * dy)`` (one more fused multiply-sum; the value keeps the forward from being
dropped as dead code), PyTorch ``autograd.grad(f(x), inputs, dy)``.

Each builder returns ``(fn, args, to_numpy, sync)`` like ``server.py``'s; ``to_numpy``
gives the first gradient (or the output), so rows are checked against each other.
"""
import numpy as np

# name: (description, shapes)
KERNELS = {
    "conv3x3": "conv 3x3 stride 1, 64->64 ch, f32[16,64,32,32]: forward",
    "conv3x3_grad": "conv 3x3 stride 1, 64->64 ch, f32[16,64,32,32]: forward + both grads",
    "conv3x3_s2_grad": "conv 3x3 stride 2, 64->128 ch, f32[16,64,32,32]: forward + both grads",
    "conv3x3_deep_grad": "conv 3x3 stride 1, 256->256 ch, f32[16,256,8,8]: forward + both grads",
    "bn_relu_grad": "batch norm (training) + ReLU, f32[16,64,32,32]: forward + grads",
    "embedding_grad": "embedding 2048x256, ids int[8,128]: forward + table grad",
    "softmax_xent_grad": "softmax cross-entropy, f32[1024,2048] logits: loss + grad",
    "layernorm_grad": "layer norm, f32[1024,256], weight and bias: forward + grads",
    "gelu_grad": "exact GELU, f32[1024,1024]: forward + grad",
    "attention_bmm": "attention matmuls q@k^T, p@v, f32[8,4,128,64]",
}


def inputs(name):
    rng = np.random.default_rng(0)

    def normal(*shape):
        return rng.standard_normal(shape).astype(np.float32)
    if name in ("conv3x3", "conv3x3_grad"):
        return [normal(16, 64, 32, 32), normal(64, 64, 3, 3) * 0.05, normal(16, 64, 32, 32)]
    if name == "conv3x3_s2_grad":
        return [normal(16, 64, 32, 32), normal(128, 64, 3, 3) * 0.05, normal(16, 128, 16, 16)]
    if name == "conv3x3_deep_grad":
        return [normal(16, 256, 8, 8), normal(256, 256, 3, 3) * 0.02, normal(16, 256, 8, 8)]
    if name == "bn_relu_grad":
        return [normal(16, 64, 32, 32), 1 + 0.1 * normal(64), 0.1 * normal(64),
                normal(16, 64, 32, 32)]
    if name == "embedding_grad":
        return [normal(2048, 256), rng.integers(0, 2048, (8, 128)).astype(np.int32),
                normal(8, 128, 256)]
    if name == "softmax_xent_grad":
        return [normal(1024, 2048), rng.integers(0, 2048, 1024).astype(np.int32)]
    if name == "layernorm_grad":
        return [normal(1024, 256), 1 + 0.1 * normal(256), 0.1 * normal(256), normal(1024, 256)]
    if name == "gelu_grad":
        return [normal(1024, 1024), normal(1024, 1024)]
    return [normal(8, 4, 128, 64), normal(8, 4, 128, 64), normal(8, 4, 128, 64)]


def _stride(name):
    return 2 if name == "conv3x3_s2_grad" else 1


def tensorjit_builder(name, variant):
    import tensorjit as ms
    from tensorjit import ops, nn
    if name == "conv3x3":
        def fn(x, w, dy):
            return ops.conv2d(x, w, pad_mode="pad", padding=1)
    elif name.startswith("conv"):
        stride = _stride(name)

        def loss(x, w, dy):
            return (ops.conv2d(x, w, stride=stride, pad_mode="pad", padding=1) * dy).sum()
        fn = ms.value_and_grad(loss, grad_position=(0, 1))
    elif name == "bn_relu_grad":
        def loss(x, g, b, dy):
            mean, var = ops.zeros(64, ms.float32), ops.ones(64, ms.float32)
            y = ops.batch_norm(x, mean, var, g, b, training=True)
            return (ops.relu(y) * dy).sum()
        fn = ms.value_and_grad(loss, grad_position=(0, 1, 2))
    elif name == "embedding_grad":
        def loss(table, ids, dy):
            return (table[ids] * dy).sum()
        fn = ms.value_and_grad(loss, grad_position=0)
    elif name == "softmax_xent_grad":
        xent = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        fn = ms.value_and_grad(lambda logits, labels: xent(logits, labels), grad_position=0)
    elif name == "layernorm_grad":
        def loss(x, g, b, dy):
            return (ops.layer_norm(x, (256,), g, b, 1e-5) * dy).sum()
        fn = ms.value_and_grad(loss, grad_position=(0, 1, 2))
    elif name == "gelu_grad":
        def loss(x, dy):
            return (ops.gelu(x, approximate="none") * dy).sum()
        fn = ms.value_and_grad(loss, grad_position=0)
    else:
        def fn(q, k, v):
            return ops.matmul(ops.matmul(q, k.swapaxes(-1, -2)), v)
    args = [ms.Tensor(a) for a in inputs(name)]
    if variant != "eager":
        from tensorjit.backend.numba import background
        fn = ms.jit(fn, jit_level=variant)
        fn(*args)
        background.wait(600)         # timed once its kernels are native (tiered compile)

    def first(out):
        if isinstance(out, tuple):                  # (value, gradients)
            out = out[1][0] if isinstance(out[1], tuple) else out[1]
        return out.asnumpy()
    return fn, args, first, None


def torch_builder(name, variant):
    import torch
    import torch.nn.functional as F
    arrays = [torch.from_numpy(a) for a in inputs(name)]
    if name == "conv3x3":
        def fn(x, w, dy):
            with torch.no_grad():
                return F.conv2d(x, w, padding=1)
    elif name.startswith("conv"):
        stride = _stride(name)
        arrays[0].requires_grad_(True)
        arrays[1].requires_grad_(True)

        def fn(x, w, dy):
            return torch.autograd.grad(F.conv2d(x, w, stride=stride, padding=1), (x, w), dy)
    elif name == "bn_relu_grad":
        for a in arrays[:3]:
            a.requires_grad_(True)

        def fn(x, g, b, dy):
            y = F.batch_norm(x, torch.zeros(64), torch.ones(64), g, b, training=True)
            return torch.autograd.grad(F.relu(y), (x, g, b), dy)
    elif name == "embedding_grad":
        arrays[0].requires_grad_(True)
        arrays[1] = arrays[1].long()

        def fn(table, ids, dy):
            return torch.autograd.grad(F.embedding(ids, table), (table,), dy)
    elif name == "softmax_xent_grad":
        arrays[0].requires_grad_(True)
        arrays[1] = arrays[1].long()

        def fn(logits, labels):
            return torch.autograd.grad(F.cross_entropy(logits, labels), (logits,))
    elif name == "layernorm_grad":
        for a in arrays[:3]:
            a.requires_grad_(True)

        def fn(x, g, b, dy):
            return torch.autograd.grad(F.layer_norm(x, (256,), g, b, 1e-5), (x, g, b), dy)
    elif name == "gelu_grad":
        arrays[0].requires_grad_(True)

        def fn(x, dy):
            return torch.autograd.grad(F.gelu(x), (x,), dy)
    else:
        def fn(q, k, v):
            with torch.no_grad():
                return (q @ k.transpose(-1, -2)) @ v

    def first(out):
        return (out[0] if isinstance(out, tuple) else out).detach().numpy()
    return fn, arrays, first, None


BUILDERS = {"tensorjit": tensorjit_builder, "torch": torch_builder}
