"""``tensorjit.mint.nn`` layers against ``torch.nn``'s, with the same weights: outputs,
parameter names (MindSpore mint's, so checkpoints load) and training-mode state."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as ms
from tensorjit import mint

from reference import compare

rng = np.random.default_rng(2)
X = rng.standard_normal((3, 4)).astype(np.float32)
IMG = rng.standard_normal((2, 3, 6, 5)).astype(np.float32)
SEQ = rng.standard_normal((2, 3, 8)).astype(np.float32)
VOL = rng.standard_normal((1, 2, 4, 4, 4)).astype(np.float32)

# (class name, constructor args, input): stateless layers, torch.nn.<name>(*args)(input)
STATELESS = [
    ("ReLU", (), X), ("ReLU6", (), X * 5), ("SiLU", (), X), ("Sigmoid", (), X),
    ("Tanh", (), X), ("Mish", (), X), ("SELU", (), X), ("LogSigmoid", (), X),
    ("Hardsigmoid", (), X * 3), ("Hardswish", (), X * 3), ("Hardshrink", (0.3,), X),
    ("ELU", (0.5,), X), ("GELU", (), X), ("GELU", ("tanh",), X), ("Hardtanh", (-0.5, 0.5), X),
    ("Threshold", (0.1, -2.0), X), ("Softmax", (1,), X), ("LogSoftmax", (0,), X),
    ("Identity", (), X), ("Flatten", (), IMG), ("Flatten", (0, 2), IMG),
    ("Unfold", ((2, 2),), IMG), ("Fold", ((4, 5), 2), rng.standard_normal(
        (2, 12, 12)).astype(np.float32)),
    ("PixelShuffle", (2,), rng.standard_normal((1, 8, 2, 3)).astype(np.float32)),
    ("AvgPool1d", (3, 2), SEQ), ("AvgPool2d", (2,), IMG), ("AvgPool3d", (2,), VOL),
    ("MaxPool2d", (2, 1), IMG),
    ("AdaptiveAvgPool1d", (3,), SEQ), ("AdaptiveAvgPool2d", ((2, 3),), IMG),
    ("AdaptiveAvgPool3d", (2,), VOL), ("AdaptiveMaxPool1d", (4,), SEQ),
    ("AdaptiveMaxPool2d", ((3, 2),), IMG),
    ("ConstantPad1d", ((1, 2), 0.5), SEQ), ("ConstantPad2d", (1, -1.0), IMG),
    ("ConstantPad3d", (1, 2.0), VOL), ("ZeroPad1d", (2,), SEQ), ("ZeroPad2d", ((1, 0, 2, 1),), IMG),
    ("ZeroPad3d", (1,), VOL), ("ReflectionPad1d", (2,), SEQ), ("ReflectionPad2d", (1,), IMG),
    ("ReflectionPad3d", (1,), VOL), ("ReplicationPad1d", ((1, 2),), SEQ),
    ("ReplicationPad2d", (2,), IMG), ("ReplicationPad3d", (1,), VOL),
    ("Upsample", (None, 2.0), IMG), ("Upsample", ((4, 7), None, "bilinear", False), IMG),
    ("UpsamplingNearest2d", (None, 2.0), IMG), ("UpsamplingBilinear2d", ((5, 4),), IMG),
]
PROB = rng.random((3, 4)).astype(np.float32) * 0.9 + 0.05
TARGET01 = (rng.random((3, 4)) > 0.5).astype(np.float32)
LOSSES = [
    ("L1Loss", {}, (X, PROB)), ("MSELoss", {"reduction": "sum"}, (X, PROB)),
    ("SmoothL1Loss", {"beta": 0.5}, (X, PROB)), ("BCELoss", {}, (PROB, TARGET01)),
    ("BCEWithLogitsLoss", {"pos_weight": np.full(4, 3.0, np.float32)}, (X, TARGET01)),
    ("KLDivLoss", {"reduction": "sum"}, (np.log(PROB), PROB)),
    ("SoftMarginLoss", {}, (X, np.sign(X))),
    ("CosineEmbeddingLoss", {"margin": 0.2}, (X, PROB, np.array([1., -1., 1.], np.float32))),
    ("CrossEntropyLoss", {"label_smoothing": 0.2}, (X, np.array([0, 3, 1]))),
    ("NLLLoss", {"reduction": "none"}, (np.log(PROB), np.array([0, 3, 1]))),
]


def _torch_class(name):
    return getattr(torch.nn, name)


@pytest.mark.parametrize("case", STATELESS, ids=[f"{c[0]}-{i}" for i, c in enumerate(STATELESS)])
def test_stateless_layers_against_torch(case):
    name, args, x = case
    ours = getattr(mint.nn, name)(*args)(ms.Tensor(x))
    theirs = _torch_class(name)(*args)(torch.tensor(x))
    compare(ours, theirs, rtol=1e-5, atol=1e-6, what=name)


@pytest.mark.parametrize("case", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_cells_against_torch(case):
    name, kwargs, inputs = case
    ours = getattr(mint.nn, name)(**{k: ms.Tensor(v) if isinstance(v, np.ndarray) else v
                                     for k, v in kwargs.items()})
    theirs = _torch_class(name)(**{k: torch.tensor(v) if isinstance(v, np.ndarray) else v
                                   for k, v in kwargs.items()})
    ours, theirs = ours(*[ms.Tensor(v) for v in inputs]), theirs(*[torch.tensor(v) for v in inputs])
    compare(ours, theirs, rtol=1e-5, atol=1e-6, what=name)


def test_max_unpool2d_layer():
    values, indices = mint.nn.MaxPool2d(2, return_indices=True)(ms.Tensor(IMG[:, :, :6, :4]))
    ours = mint.nn.MaxUnpool2d(2)(values, indices)
    tv, ti = torch.nn.MaxPool2d(2, return_indices=True)(torch.tensor(IMG[:, :, :6, :4]))
    compare(ours, torch.nn.MaxUnpool2d(2)(tv, ti))


def _copy_weights(ours, theirs):
    """torch's parameters into ours, by name: the names must be the same."""
    names = dict(theirs.named_parameters())
    names.update(dict(theirs.named_buffers()))
    for name, param in ours.parameters_and_names():
        param.set_data(ms.Tensor(names[name].detach().numpy()))


# (class name, constructor args, kwargs, input, MindSpore mint's parameter names)
WITH_PARAMETERS = [
    ("Linear", (4, 3), {}, X, ["weight", "bias"]),
    ("Linear", (4, 3), {"bias": False}, X, ["weight"]),
    ("Conv1d", (3, 4, 3), {"padding": 1, "stride": 2}, SEQ, ["weight", "bias"]),
    ("Conv2d", (3, 4, 3), {"padding": 1, "padding_mode": "reflect"}, IMG, ["weight", "bias"]),
    ("Conv2d", (3, 6, (2, 3)), {"groups": 3, "dilation": 2, "bias": False}, IMG, ["weight"]),
    ("Conv2d", (3, 4, 3), {"padding": "same", "padding_mode": "replicate"}, IMG,
     ["weight", "bias"]),
    ("Conv3d", (2, 3, 2), {"padding": 1}, VOL, ["weight", "bias"]),
    ("ConvTranspose2d", (3, 2, 3), {"stride": 2, "padding": 1, "output_padding": 1}, IMG,
     ["weight", "bias"]),
    ("GroupNorm", (3, 3), {}, IMG, ["weight", "bias"]),
    ("PReLU", (), {}, X, ["weight"]),
    ("PReLU", (4, 0.1), {}, X, ["weight"]),
    ("BatchNorm1d", (4,), {}, X,
     ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]),
    ("BatchNorm2d", (3,), {"momentum": 0.3}, IMG,
     ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]),
    ("BatchNorm3d", (2,), {"affine": False}, VOL,
     ["running_mean", "running_var", "num_batches_tracked"]),
    ("BatchNorm1d", (3,), {"track_running_stats": False}, SEQ, ["weight", "bias"]),
]


@pytest.mark.parametrize("case", WITH_PARAMETERS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(WITH_PARAMETERS)])
def test_layers_with_parameters_against_torch(case):
    name, args, kwargs, x, names = case
    ours = getattr(mint.nn, name)(*args, **kwargs)
    theirs = _torch_class(name)(*args, **kwargs)
    assert [n for n, _ in ours.parameters_and_names()] == names
    with torch.no_grad():      # random statistics, so evaluation is a real test
        for buffer in ("running_mean", "running_var"):
            if getattr(theirs, buffer, None) is not None:
                getattr(theirs, buffer).uniform_(0.5, 1.5)
    _copy_weights(ours, theirs)
    for mode in ("train", "eval"):
        ours.set_train(mode == "train")
        theirs.train(mode == "train")
        compare(ours(ms.Tensor(x)), theirs(torch.tensor(x)), rtol=1e-4, atol=1e-5,
                what=f"{name} {mode}")
        state = {n: t.detach() for n, t in list(theirs.named_buffers())}
        for n, param in ours.parameters_and_names():
            if n in state:
                compare(param, state[n], rtol=1e-5, what=f"{name}.{n}")


def test_default_initialisation_follows_torch_bounds():
    layer = mint.nn.Linear(50, 20)
    bound = 1 / np.sqrt(50)
    for param in (layer.weight, layer.bias):
        values = param.asnumpy()
        assert np.abs(values).max() <= bound and values.std() > bound / 3
    conv = mint.nn.Conv2d(4, 8, 3)
    bound = 1 / np.sqrt(4 * 9)
    assert np.abs(conv.weight.asnumpy()).max() <= bound
    assert np.abs(conv.bias.asnumpy()).max() <= bound
    norm = mint.nn.BatchNorm2d(5)
    assert (norm.weight.asnumpy() == 1).all() and (norm.running_var.asnumpy() == 1).all()
    assert not norm.running_mean.requires_grad and norm.num_batches_tracked.dtype == ms.int64


def test_batch_norm_counts_batches_and_sync_batch_norm_is_batch_norm_in_one_process():
    norm = mint.nn.SyncBatchNorm(3)
    norm.set_train()        # a Cell starts in evaluation mode (MindSpore), a torch Module not
    reference = torch.nn.BatchNorm2d(3)
    for _ in range(2):
        compare(norm(ms.Tensor(IMG)), reference(torch.tensor(IMG)), rtol=1e-4, atol=1e-5)
    compare(norm.running_var, reference.running_var, rtol=1e-5)
    assert int(norm.num_batches_tracked.asnumpy()) == 2


def test_checkpoint_round_trip_keeps_mint_names(tmp_path):
    net = mint.nn.Linear(3, 2)
    path = str(tmp_path / "linear.ckpt")
    ms.save_checkpoint(net, path)
    other = mint.nn.Linear(3, 2)
    ms.load_param_into_net(other, ms.load_checkpoint(path))
    compare(other.weight, net.weight)
    assert set(ms.load_checkpoint(path)) == {"weight", "bias"}


def test_bad_constructor_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="divisible by groups"):
        mint.nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode"):
        mint.nn.Conv2d(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="divisible by num_groups"):
        mint.nn.GroupNorm(2, 3)
    with pytest.raises(TypeError, match="mint.nn.ReLU6"):
        mint.nn.ReLU6(True, 3)
    with pytest.raises(ValueError, match="channels on axis 1"):
        mint.nn.BatchNorm2d(3)(ms.Tensor(X))
    with pytest.raises(ValueError, match="'padding' tuple must hold 4 ints"):
        mint.nn.ZeroPad2d((1, 2, 3))
