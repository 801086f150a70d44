"""What every training worker shares (standard library and NumPy only: it runs in the
peers' interpreters too).

The parent writes one ``.npz`` per model (``write``): the initial value of every trainable
parameter under ``param:<tensorjit name>`` (in ``trainable_params()`` order) and the
batches ``x<k>`` / ``y<k>``. Each framework's builder loads it (``load``), so all start
from the same weights and see the same batches in the same order; a step ``k`` trains on
batch ``k % len(batches)`` (``cycle``).

The optimizers are MindSpore's (the API tensorjit follows): Momentum
``v = momentum * v + g; p -= lr * v`` and Adam with the bias correction folded into the
step size, ``p -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)``.
"""
import numpy as np

# the optimizer of each model and its settings (bench/models.py builds the same ones)
OPTIMIZER = {"resnet18": ("Momentum", {"learning_rate": 0.01, "momentum": 0.9}),
             "gpt": ("Adam", {"learning_rate": 1e-3, "beta1": 0.9, "beta2": 0.999,
                              "eps": 1e-8})}
BN_EPS = 1e-5                 # nn.BatchNorm2d's default
LN_EPS = 1e-7                 # nn.LayerNorm's default (MindSpore's)


def write(path, named_params, batches):
    arrays = {f"param:{name}": np.asarray(value) for name, value in named_params}
    for k, (x, y) in enumerate(batches):
        arrays[f"x{k}"], arrays[f"y{k}"] = np.asarray(x), np.asarray(y)
    np.savez(path, **arrays)


def load(path):
    """(ordered [(name, array)], [(x, y)])."""
    with np.load(path) as data:
        names = [k for k in data.files if k.startswith("param:")]
        params = [(k[len("param:"):], data[k]) for k in names]
        batches = []
        while f"x{len(batches)}" in data.files:
            k = len(batches)
            batches.append((data[f"x{k}"], data[f"y{k}"]))
    return params, batches


def cycle(step, batches):
    """A function of no arguments making one train step on the next batch."""
    position = [0]

    def run():
        k = position[0]
        position[0] = k + 1
        return step(*batches[k % len(batches)])
    return run


def torch_name(name):
    """tensorjit / MindSpore parameter name -> PyTorch's (gamma/beta, embedding tables)."""
    prefix, _, leaf = name.rpartition(".")
    leaf = {"gamma": "weight", "beta": "bias", "embedding_table": "weight"}.get(leaf, leaf)
    return f"{prefix}.{leaf}" if prefix else leaf


def resnet_blocks(params):
    """[(prefix, stride, has_projection)] of ResNet-18's BasicBlocks: four stages of two
    blocks, the first block of stages 2-4 with stride 2 (bench/models.py)."""
    names = {name for name, _ in params}
    blocks = []
    while f"layers.{len(blocks)}.conv1.weight" in names:
        k = len(blocks)
        stride = 2 if k // 2 > 0 and k % 2 == 0 else 1
        blocks.append((f"layers.{k}.", stride, f"layers.{k}.down_sample.0.weight" in names))
    return blocks
