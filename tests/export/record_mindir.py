"""Record what MindSpore does with MindIR files, for test_mindir.py (CI has no MindSpore).

Run with MindSpore's interpreter from the repository root:

    /tmp/msvenv/bin/python tests/export/record_mindir.py [--part written|mindspore] [NAME...]

MindSpore's interpreter cannot import tensorjit (MindSpore pins numpy<2, tensorjit needs
ml_dtypes), so recording has two steps, both started from here:

1. tensorjit's interpreter ($TENSORJIT_PYTHON, else ``python3`` on PATH) runs this file with
   ``--export DIR``: each program (``models.py``'s seven and ``op_programs()``, which use
   every operator the writer knows) is exported to ``DIR/<name>.mindir`` with its inputs
   in ``DIR/<name>.inputs.npz``;
2. MindSpore loads each file (``mindspore.load`` + ``nn.GraphCell``), runs it on the inputs
   and the record ``data/mindir/written/<name>.npz`` keeps the inputs, MindSpore's outputs
   and the file's SHA-256 (the test checks that today's writer makes the same bytes).

``--part mindspore`` records MindSpore's own exported files (small networks built here) in
``data/mindir/mindspore/``: the .mindir, its inputs and MindSpore's outputs, which tensorjit
must reproduce when it loads the file.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
try:                     # step 1 and the tests; MindSpore's interpreter has no tensorjit
    from tensorjit import Tensor, jit, ops
except ImportError:
    Tensor = jit = ops = None
DATA = os.path.join(HERE, "data", "mindir")


# ---- step 1, in tensorjit's interpreter ---------------------------------------------------

def export_programs(directory, names):
    from tensorjit.deploy import export
    every = programs()
    for name in names:
        net, inputs = every[name]
        export(net, *inputs, file_name=os.path.join(directory, name), file_format="MINDIR")
        np.savez(os.path.join(directory, f"{name}.inputs.npz"),
                 **{f"in{i}": t.asnumpy() for i, t in enumerate(inputs)})
        print(f"exported {name}", flush=True)


# ---- programs that use every operator the writer knows ----------------------------------

def _elementwise(x, y, i):
    a = ops.sin(x) + ops.cos(y) - ops.erf(x) * ops.exp(y) / ops.sqrt(ops.abs(x) + 1)
    b = (ops.rsqrt(ops.abs(a) + 1) + ops.neg(a) + ops.sigmoid(a) + ops.tanh(a)
         + ops.relu(a) + ops.floor(a) + ops.ceil(a) + ops.sign(a) + ops.atan(a)
         + ops.expm1(a * 0.1) + ops.log1p(ops.abs(a)) + ops.silu(a) + ops.tan(a * 0.1))
    c = (ops.maximum(a, x) + ops.minimum(a, y) + ops.pow(ops.abs(a) + 0.5, y)
         + ops.atan2(a, y) + ops.log(ops.abs(b) + 1))
    d = ops.where(x > y, c, ops.where(x < 0, y, 0.5))
    logic = ops.logical_or(ops.logical_and(x >= y, x <= 0.5),
                           ops.logical_xor(ops.logical_not(x == y), x != 0))
    ints = ops.floor_div(i, 3) + ops.floor_mod(i, 3) - i
    finite = ops.logical_and(ops.isfinite(x), ops.logical_not(ops.isinf(y)))
    return d, logic, ints, ops.cast(i, np.float32) / 3.0, finite


def _shapes(x, idx):
    t = ops.transpose(x.reshape(4, 3, 2), (2, 0, 1))
    b = ops.broadcast_to(x[:, :1], (4, 6))
    joined = ops.concat((x, b, x * 2), axis=1)
    padded = ops.pad(x, (1, 2, 0, 1), value=0.5)
    sliced = x[1, ::2] + x[-1, 5:0:-2] + x[::-1, -3][1:4]
    picked = x[idx] + x[:, idx].sum()
    expanded = x[..., None, -1]
    sums = (x.sum((0, 1)) + x.amax(1).sum() + x.amin(0, keepdims=True).sum()
            + x.prod() + x.mean(1).sum())
    arg = ops.argmax(x, 1, keepdim=True) + ops.argmin(x, 0)
    soft = ops.softmax(x, 0) + ops.log_softmax(x, -1)
    cum = ops.cumsum(x, 1) + ops.cumprod(x * 0.5 + 1, 0)
    return t, joined, padded, sliced, picked, expanded, sums, arg, soft, cum


def _step(carry, x_t):
    carry = ops.tanh(carry + x_t)
    return carry, carry * 2


def _network(x, w, v, m):
    y = ops.conv2d(x, w, stride=(2, 1), pad_mode="pad", padding=(1, 2, 0, 1),
                   dilation=(1, 2), groups=2)
    h = ops.relu(y).reshape(2, 4, -1)                         # (2, 4, 16)
    h = ops.layer_norm(h, (16,), eps=1e-6)
    h = ops.gelu(h) + ops.gelu(h, approximate="tanh")
    z = ops.matmul(h, v)                                      # 3-d @ 2-d
    z = ops.matmul(m, z)                                      # broadcast batch
    return ops.scan(_step, z[:, 0], ops.transpose(z, (1, 0, 2)), reverse=True)


def op_programs():
    """{name: (function, [input Tensors])}: besides models.py's networks, programs that
    together use every primitive ``write_ops`` emits, in the forms that need care
    (broadcast operands, integer division, negative steps, index tensors, batched and
    broadcast matrix products, grouped strided convolutions, reversed loops)."""
    rng = np.random.default_rng(11)
    # trace mode: these functions are what they compute (ast mode is models.py's default)
    elementwise, shapes, network = (jit(fn, capture_mode="trace")
                                    for fn in (_elementwise, _shapes, _network))

    def f32(*shape):
        return Tensor(rng.standard_normal(shape).astype(np.float32))

    return {OP_PROGRAMS[0]: (elementwise, [f32(2, 3, 4), f32(2, 3, 4),
                                               Tensor(np.arange(-12, 12, dtype=np.int32)
                                                      .reshape(2, 3, 4))]),
            OP_PROGRAMS[1]: (shapes, [f32(4, 6), Tensor(np.array([2, -1, 0], np.int64))]),
            OP_PROGRAMS[2]: (network, [f32(2, 4, 6, 5), f32(4, 2, 3, 2), f32(16, 3),
                                       f32(1, 4, 4)])}


OP_PROGRAMS = ("ops_elementwise", "ops_shapes", "ops_network")


def programs():
    """{name: (net or function, [input Tensors])}: models.py's and op_programs'."""
    sys.path.insert(0, HERE)
    import models
    out = {name: models.build(name) for name in models.NAMES}
    out.update(op_programs())
    return out


# ---- step 2, in MindSpore's interpreter ---------------------------------------------------

def flat(result):
    if isinstance(result, (tuple, list)):
        return [a for r in result for a in flat(r)]
    return [result.asnumpy()]


def run_mindspore(path, arrays):
    import mindspore as ms
    from mindspore import Tensor, nn
    cell = nn.GraphCell(ms.load(path))
    return flat(cell(*[Tensor(a) for a in arrays]))


def record_written(names):
    directory = tempfile.mkdtemp(prefix="mindir_record_")
    try:
        python = os.environ.get("TENSORJIT_PYTHON") or shutil.which("python3")
        subprocess.run([python, os.path.abspath(__file__), "--export", directory, *names],
                       check=True, cwd=ROOT)
        os.makedirs(os.path.join(DATA, "written"), exist_ok=True)
        for name in names:
            path = os.path.join(directory, f"{name}.mindir")
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            loaded = np.load(os.path.join(directory, f"{name}.inputs.npz"))
            inputs = [loaded[f"in{i}"] for i in range(len(loaded.files))]
            outputs = run_mindspore(path, inputs)
            np.savez_compressed(os.path.join(DATA, "written", f"{name}.npz"),
                                sha256=np.array(digest), size=np.array(os.path.getsize(path)),
                                **{f"in{i}": a for i, a in enumerate(inputs)},
                                **{f"out{i}": a for i, a in enumerate(outputs)})
            print(f"{name}: MindSpore ran {os.path.getsize(path)} bytes, "
                  f"{len(outputs)} output(s), sha256 {digest[:12]}", flush=True)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# ---- MindSpore's own files ------------------------------------------------------------------

MINDSPORE_NETWORKS = ("mlp", "lenet5", "basic_block", "lstm", "op_zoo")


def mindspore_networks():
    """{name: (Cell, [input arrays])}: small networks as MindSpore users write them."""
    import mindspore as ms
    from mindspore import nn, ops
    ms.set_seed(7)
    rng = np.random.default_rng(7)

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(12, 16)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(16, 5)
            self.softmax = nn.Softmax()

        def construct(self, x):
            return self.softmax(self.fc2(self.relu(self.fc1(x))))

    class LeNet5(nn.Cell):      # MindSpore's model zoo LeNet-5, with BatchNorm
        def __init__(self, num_class=10):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.bn1 = nn.BatchNorm2d(6)
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.bn2 = nn.BatchNorm2d(16)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 32)
            self.fc2 = nn.Dense(32, 24)
            self.fc3 = nn.Dense(24, num_class)

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.bn1(self.conv1(x))))
            x = self.max_pool2d(self.relu(self.bn2(self.conv2(x))))
            x = self.flatten(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class BasicBlock(nn.Cell):  # ResNet's, with a strided projection shortcut
        def __init__(self, cin=8, cout=16, stride=2):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="same")
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride=stride),
                                           nn.BatchNorm2d(cout)])

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return self.relu(out + self.down(x))

    class OpZoo(nn.Cell):       # operators as MindSpore's own code spells them
        def __init__(self):
            super().__init__()
            self.ln = nn.LayerNorm((4,))
            self.gelu = nn.GELU(approximate=False)
            self.fast_gelu = nn.GELU()
            self.conv = nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=1, group=2)
            self.avg = nn.AvgPool2d(2, 1, pad_mode="same")
            self.w = ms.Parameter(ms.Tensor(rng.standard_normal((4, 4)).astype(np.float32)),
                                  name="w")

        def construct(self, x, y, i):
            a = ops.sin(x) + ops.cos(y) - ops.erf(x) * ops.exp(y) / ops.sqrt(ops.abs(x) + 1)
            a = ops.rsqrt(ops.abs(a) + 1) + ops.neg(a) + ops.sigmoid(a) + ops.tanh(a) \
                + ops.relu(a) + ops.relu6(a * 4)
            a = ops.log(ops.abs(a) + 1) + ops.maximum(a, x) + ops.minimum(a, y) \
                + ops.pow(ops.abs(a), 2.0) + ops.square(a) + ops.reciprocal(ops.abs(a) + 1)
            a = self.ln(a) + self.gelu(a) + self.fast_gelu(a)
            b = ops.matmul(a, self.w)
            c = ops.BatchMatMul(transpose_b=True)(a, y)
            d = ops.transpose(b, (1, 0, 2))
            e = ops.broadcast_to(x[:, :1, :], (2, 3, 4))
            f = ops.concat((x, e), axis=1)
            g = ops.where(x > y, x, ops.where(x < 0, y, x))
            h = ops.reduce_sum(f, (1, 2)) + ops.ReduceSum(keep_dims=True)(f, 1)[:, 0, 0] \
                + ops.ReduceMean()(f, 2)[:, 0] + ops.ReduceMax()(f, (1, 2))
            k = ops.cast(i, ms.float32) + ops.Argmax(axis=1)(x)[:, :1].astype(ms.float32)
            gathered = ops.gather(x, i, 0)
            sliced = x[1, ::2, 1:3] + x[::-1, -1, :2]
            squeezed = ops.expand_dims(x, 0).squeeze(0) + ops.flatten(x).reshape(2, 3, 4)
            soft = ops.softmax(x, -1) + ops.log_softmax(x, 1)
            conv = self.avg(self.conv(x.reshape(1, 2, 3, 4)))
            padded = ops.pad(x, (1, 0, 2, 1), value=0.5)
            return a, b, c, d, e, f, g, h, k, gathered, sliced, squeezed, soft, conv, padded

    nets = {"mlp": (MLP(), [rng.standard_normal((4, 12)).astype(np.float32)]),
            "lenet5": (LeNet5(), [rng.standard_normal((2, 1, 32, 32)).astype(np.float32)]),
            "basic_block": (BasicBlock(), [rng.standard_normal((2, 8, 8, 8))
                                           .astype(np.float32)]),
            "lstm": (nn.LSTM(6, 8, num_layers=2, batch_first=True),
                     [rng.standard_normal((2, 5, 6)).astype(np.float32)]),
            "op_zoo": (OpZoo(), [rng.standard_normal((2, 3, 4)).astype(np.float32),
                                 rng.standard_normal((2, 3, 4)).astype(np.float32),
                                 np.array([1, 0], np.int32)])}
    for net, _ in nets.values():
        # trained-looking statistics, so BatchNorm's inference form is exercised
        for p in net.get_parameters():
            if "moving_mean" in p.name:
                p.set_data(ms.Tensor(rng.standard_normal(p.shape).astype(np.float32) * 0.1))
            elif "moving_variance" in p.name:
                p.set_data(ms.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        net.set_train(False)
    return nets


def record_mindspore(names):
    import mindspore as ms
    from mindspore import Tensor
    out_dir = os.path.join(DATA, "mindspore")
    os.makedirs(out_dir, exist_ok=True)
    for name, (net, inputs) in mindspore_networks().items():
        if name not in names:
            continue
        base = os.path.join(out_dir, name)
        if os.path.exists(base + ".mindir"):
            os.remove(base + ".mindir")
        ms.export(net, *[Tensor(a) for a in inputs], file_name=base, file_format="MINDIR")
        os.chmod(base + ".mindir", 0o644)        # MindSpore writes it read-only
        outputs = run_mindspore(base + ".mindir", inputs)
        np.savez_compressed(base + ".npz", **{f"in{i}": a for i, a in enumerate(inputs)},
                            **{f"out{i}": a for i, a in enumerate(outputs)})
        print(f"{name}: MindSpore exported {os.path.getsize(base + '.mindir')} bytes, "
              f"{len(outputs)} output(s)", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--part", choices=("written", "mindspore"))
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if args.export:
        export_programs(args.export, args.names)
        return
    written = _model_names() + list(OP_PROGRAMS)
    unknown = sorted(set(args.names) - set(written) - set(MINDSPORE_NETWORKS))
    if unknown:
        parser.error(f"unknown program(s) {unknown}; known: {written + list(MINDSPORE_NETWORKS)}")
    chosen = list(dict.fromkeys(args.names or written + list(MINDSPORE_NETWORKS)))
    if args.part in (None, "written") and set(chosen) & set(written):
        record_written([n for n in chosen if n in written])
    if args.part in (None, "mindspore") and set(chosen) & set(MINDSPORE_NETWORKS):
        record_mindspore([n for n in chosen if n in MINDSPORE_NETWORKS])


def _model_names():
    """models.NAMES, read without importing models.py (which imports tensorjit)."""
    import ast
    with open(os.path.join(HERE, "models.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NAMES"
                                                for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise SystemExit("models.py has no NAMES")


if __name__ == "__main__":
    main()
