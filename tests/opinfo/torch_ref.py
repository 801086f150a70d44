"""PyTorch as a second reference: values and autograd of the same samples. PyTorch is
not a dependency; the checks skip when it is absent."""
import numpy as np

from tensorjit import dtype as dt

from .core import as_results
from .run import quiet

try:
    import torch
except ImportError:        # pragma: no cover - depends on the environment
    torch = None

TORCH_VALUE_DTYPES = (dt.float32, dt.float64)


def to_torch(value, requires_grad=False):
    if isinstance(value, np.ndarray):
        if value.dtype == dt.bfloat16:
            t = torch.tensor(value.astype(np.float32)).to(torch.bfloat16)
        else:
            t = torch.from_numpy(np.array(value))
        return t.requires_grad_(True) if requires_grad else t
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
        return type(value)(to_torch(v) for v in value)
    return value


def from_torch(value):
    if isinstance(value, (tuple, list)):
        return [from_torch(v) for v in value]
    if isinstance(value, torch.Tensor):
        value = value.detach()
        if value.dtype == torch.bfloat16:
            value = value.float()
        return value.numpy()
    return np.asarray(value)


def values(entry, sample):
    """PyTorch's results for ``sample`` as a list of ndarrays."""
    with quiet(), torch.no_grad():
        out = entry.torch(torch, *sample.build(lambda a, i: to_torch(a)), **sample.kwargs)
    out = from_torch(out)
    return out if isinstance(out, list) else [out]


def gradients(entry, sample, positions, cts):
    """PyTorch's gradients of ``sum_k <out_k, ct_k>`` for the leaves at ``positions``."""
    leaves = {}

    def leaf(a, i):
        leaves[i] = to_torch(a, requires_grad=i in positions)
        return leaves[i]
    args = sample.build(leaf)
    with quiet():
        out = entry.torch(torch, *args, **sample.kwargs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        total = sum((o * torch.from_numpy(np.asarray(c))).sum()
                    for o, c in zip(outs, cts) if c is not None)
        grads = torch.autograd.grad(total, [leaves[p] for p in positions], allow_unused=True)
    shapes = [a.shape for a in sample.leaves()]
    return [np.zeros(shapes[p]) if g is None else g.detach().numpy()
            for g, p in zip(grads, positions)]


def ours(entry, sample):
    with quiet():
        return as_results(entry.op(*sample.tensors(), **sample.kwargs))
