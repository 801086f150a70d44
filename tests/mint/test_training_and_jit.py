"""mint in use: a training step (Linear + ReLU + CrossEntropyLoss + mint.optim) against the
same in PyTorch, gradients of mint functions against torch.autograd, and mint code under
``tensorjit.jit`` in every capture mode and level against eager."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as ms
from tensorjit import mint
from tensorjit.mint.nn import functional as F

from reference import compare

rng = np.random.default_rng(4)
MODES = [("ast", "O0"), ("bytecode", "O0"), ("trace", "O0"), ("ast", "O1"),
         ("bytecode", "O1"), ("trace", "O1")]


class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = mint.nn.Linear(5, 8)
        self.act = mint.nn.ReLU()
        self.fc2 = mint.nn.Linear(8, 3)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _torch_twin(net):
    twin = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    with torch.no_grad():
        for ours, theirs in ((net.fc1, twin[0]), (net.fc2, twin[2])):
            theirs.weight.copy_(torch.tensor(ours.weight.asnumpy()))
            theirs.bias.copy_(torch.tensor(ours.bias.asnumpy()))
    return twin


@pytest.mark.parametrize("optimizer", ["AdamW", "Adam", "SGD"])
@pytest.mark.parametrize("compiled", [False, True])
def test_training_steps_match_torch(optimizer, compiled):
    net = Net()
    twin = _torch_twin(net)
    loss_fn = mint.nn.CrossEntropyLoss()
    options = {"AdamW": dict(lr=0.01, weight_decay=0.1, amsgrad=True),
               "Adam": dict(lr=0.01, weight_decay=0.05),
               "SGD": dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)}[optimizer]
    ours = getattr(mint.optim, optimizer)(net.trainable_params(), **options)
    theirs = getattr(torch.optim, optimizer)(twin.parameters(), **options)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, ours.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        ours(grads)
        return loss

    if compiled:
        step = ms.jit(step, capture_mode="ast", jit_level="O1")
    for _ in range(4):
        x = rng.standard_normal((6, 5)).astype(np.float32)
        y = rng.integers(0, 3, 6)
        loss = step(ms.Tensor(x), ms.Tensor(y))
        theirs.zero_grad()
        expected = torch.nn.functional.cross_entropy(twin(torch.tensor(x)), torch.tensor(y))
        expected.backward()
        theirs.step()
        compare(loss, expected.detach(), rtol=1e-5, atol=1e-6)
    compare(net.fc1.weight, twin[0].weight.detach(), rtol=1e-4, atol=1e-5)
    compare(net.fc2.bias, twin[2].bias.detach(), rtol=1e-4, atol=1e-5)


def test_maximize_ascends():
    weight = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="w")
    optimizer = mint.optim.SGD([weight], lr=0.5, maximize=True)
    optimizer((ms.Tensor(np.array([2.0], np.float32)),))
    np.testing.assert_allclose(weight.asnumpy(), [2.0])


def _grads(function, arrays):
    """Gradients of sum(function(*inputs) * fixed weights) by tensorjit and by torch."""
    outputs = function(mint, *[ms.Tensor(a) for a in arrays])
    weights = rng.standard_normal(tuple(outputs.shape)).astype(np.float32)
    ours = ms.grad(lambda *xs: mint.sum(function(mint, *xs) * ms.Tensor(weights)),
                   tuple(range(len(arrays))))(*[ms.Tensor(a) for a in arrays])
    leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    (function(torch, *leaves) * torch.tensor(weights)).sum().backward()
    return ours, [leaf.grad for leaf in leaves]


A = rng.standard_normal((3, 4)).astype(np.float32)
B = rng.standard_normal((3, 4)).astype(np.float32)
S = (rng.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
GRADIENTS = [
    ("max with dim", lambda m, x: m.max(x, 1)[0], (A,)),
    ("median", lambda m, x: m.median(x, 0)[0], (A,)),
    ("std", lambda m, x: m.std(x, 1, keepdim=True), (A,)),
    ("norm p=3", lambda m, x: m.norm(x, 3.0, 1), (A,)),
    ("addmm", lambda m, a, b: m.addmm(a[:, :3], b, a.T, beta=0.5, alpha=2.0), (A, B)),
    ("einsum", lambda m, a, b: m.einsum("ij,kj->ik", a, b), (A, B)),
    ("inverse", lambda m, s: m.inverse(s), (S,)),
    ("cross", lambda m, a, b: m.cross(a[:, :3], b[:, :3], dim=1), (A, B)),
    ("cdist", lambda m, a, b: m.cdist(a, b), (A, B)),
    ("gather", lambda m, a: m.gather(a, 1, (m.arange(3)[:, None] * 0 + 1)), (A,)),
    ("roll", lambda m, a: m.roll(a, (1, 2), (0, 1)), (A,)),
    ("diff", lambda m, a: m.diff(a, 2), (A,)),
    ("logsumexp", lambda m, a: m.logsumexp(a, 1), (A,)),
    ("div trunc-free", lambda m, a, b: m.div(a, b * b + 1), (A, B)),
]


@pytest.mark.parametrize("case", GRADIENTS, ids=[c[0] for c in GRADIENTS])
def test_gradients_against_torch_autograd(case):
    _, function, arrays = case
    ours, theirs = _grads(function, arrays)
    compare(list(ours), theirs, rtol=1e-4, atol=1e-5)


def test_functional_gradients_against_torch_autograd():
    img = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    cases = [
        lambda f, x: f.max_pool2d(x, 3, 2, 1, ceil_mode=True),
        lambda f, x: f.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
        lambda f, x: f.adaptive_avg_pool2d(x, (3, 4)),
        lambda f, x: f.fold(f.unfold(x, 2), (5, 6), 2),
        lambda f, x: f.layer_norm(x, (5, 6)),
    ]
    for case in cases:
        x = ms.Tensor(img)
        out = case(F, x)
        weights = rng.standard_normal(tuple(out.shape)).astype(np.float32)
        ours = ms.grad(lambda x: mint.sum(case(F, x) * ms.Tensor(weights)))(x)
        leaf = torch.tensor(img, requires_grad=True)
        (case(torch.nn.functional, leaf) * torch.tensor(weights)).sum().backward()
        compare(ours, leaf.grad, rtol=1e-4, atol=1e-5)


def _program(x, y):
    values, indices = mint.max(x, dim=1)
    z = mint.add(mint.einsum("ij,kj->ik", x, y), mint.unsqueeze(values, 1), alpha=0.5)
    z = mint.cat([z, mint.roll(z, 1, 0)], dim=1)
    pooled = F.avg_pool2d(mint.reshape(z, (1, 1, 3, 6)), 2, ceil_mode=True)
    return (mint.softmax(z, dim=-1), indices, mint.std(x, 0), F.gelu(pooled),
            mint.cumsum(mint.argsort(x, dim=1), 1),
            mint.inverse(mint.matmul(x, y.T) + 5 * mint.eye(3)))


@pytest.mark.parametrize("mode,level", MODES)
def test_mint_program_under_jit_equals_eager(mode, level):
    x, y = ms.Tensor(A), ms.Tensor(B)
    expected = _program(x, y)
    jitted = ms.jit(_program, capture_mode=mode, jit_level=level)
    for _ in range(2):                # the capture, then the compiled program
        got = jitted(x, y)
    compare(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode,level", MODES)
def test_mint_layers_under_jit_equal_eager(mode, level):
    net = ms.nn.SequentialCell([mint.nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
                                mint.nn.BatchNorm2d(3), mint.nn.GELU(),
                                mint.nn.MaxPool2d(2, ceil_mode=True), mint.nn.Flatten(),
                                mint.nn.Linear(12, 2)])
    x = ms.Tensor(rng.standard_normal((2, 2, 4, 3)).astype(np.float32))
    expected = net(x)
    jitted = ms.jit(net, capture_mode=mode, jit_level=level)
    for _ in range(2):
        got = jitted(x)
    compare(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_batch_norm_training_state_under_jit_equals_eager(mode):
    x = ms.Tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32))
    eager, compiled = mint.nn.BatchNorm2d(3), mint.nn.BatchNorm2d(3)
    eager.set_train()
    compiled.set_train()
    jitted = ms.jit(compiled, capture_mode=mode, jit_level="O1")
    for _ in range(3):
        compare(jitted(x), eager(x), rtol=1e-6, atol=1e-6)
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        compare(getattr(compiled, name), getattr(eager, name), rtol=1e-6, what=name)
