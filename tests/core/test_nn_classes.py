"""The nn operator classes of ``ops/nn_class_rows.py`` that ``op_class_cases.py`` cannot
record: those MindSpore 2.10 has no CPU kernel for (RmsNorm, the margin losses,
LogSoftmaxExt, ExtractImagePatches, Dilation2D, DepthwiseConv2dNative), checked against
NumPy; the random ones (Dropout2D / 3D, FractionalMaxPool / AvgPool), checked by their
distribution and against pooling with the sequences they return; BatchNorm's in-place
training update. Then the gradients of the classes built here, against central finite
differences in float64 (CTCLoss's gradient output against the finite differences of its
loss), and the no-CPU-kernel classes compiled in every capture mode."""
import numpy as np
import pytest
from scipy import special

import tensorjit as ms
from tensorjit import ops, Tensor

NO_MINDSPORE_CPU_KERNEL = {"RmsNorm", "SoftMarginLoss", "TripletMarginLoss",
                           "MultilabelMarginLoss", "LogSoftmaxExt", "ExtractImagePatches",
                           "Dilation2D", "DepthwiseConv2dNative"}
RANDOM = {"Dropout2D", "Dropout3D", "FractionalMaxPool", "FractionalAvgPool"}
CHECKED_HERE = NO_MINDSPORE_CPU_KERNEL | RANDOM

RNG = np.random.default_rng(7)


def _f(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _windows(x, kernel, stride, dilation, pads, fill):
    """(N, C, OH, OW, kh, kw) windows of the padded input."""
    xp = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]), constant_values=fill)
    kh, kw = kernel
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.empty(x.shape[:2] + (oh, ow, kh, kw), x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[..., i, j] = xp[:, :, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:
                                stride[0], j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1)
                                + 1:stride[1]]
    return out


def _rms(x, g, eps):
    rstd = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + eps)
    return x * rstd * g, rstd


def _margin(x, t):
    loss = []
    for row, target in zip(x, t):
        labels = list(target[:list(target).index(-1)] if -1 in target else target)
        loss.append(sum(max(0, 1 - (row[j] - row[i])) for j in labels
                        for i in range(len(row)) if i not in labels) / len(row))
    return np.mean(loss)


def _reference_cases():
    x, g = _f(3, 4), np.abs(_f(4)) + 0.5
    a, p, n = _f(3, 4), _f(3, 4), _f(3, 4)
    img, filt = _f(1, 2, 5, 6), _f(2, 2, 3)
    target = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2]], np.int32)
    d_pos = np.linalg.norm(a - p + 1e-6, axis=-1)
    d_neg = np.linalg.norm(a - n + 1e-6, axis=-1)
    patches = _windows(img, (2, 3), (1, 2), (2, 1), (0, 0, 0, 0), 0)
    dw = _f(1, 2, 3, 3)
    return [
        ("RmsNorm", {"epsilon": 1e-3}, [x, g], _rms(x, g, 1e-3)),
        ("SoftMarginLoss", {"reduction": "sum"}, [x, np.sign(_f(3, 4))], None),
        ("TripletMarginLoss", {"reduction": "none"}, [a, p, n, np.float32(0.5)],
         np.maximum(d_pos - d_neg + 0.5, 0)),
        ("MultilabelMarginLoss", {}, [x, target], None),
        ("LogSoftmaxExt", {}, [_f(2, 3, 4)], None),
        ("ExtractImagePatches", {"ksizes": (1, 1, 2, 3), "strides": (1, 1, 1, 2),
                                 "rates": (1, 1, 2, 1), "padding": "valid"}, [img],
         patches.transpose(0, 4, 5, 1, 2, 3).reshape(1, -1, *patches.shape[2:4])),
        ("Dilation2D", {"stride": 2, "dilation": (1, 1, 1, 2), "pad_mode": "same"},
         [img, filt], None),
        ("DepthwiseConv2dNative", {"channel_multiplier": 1, "kernel_size": 3, "pad_mode": "pad",
                                   "pad": 1}, [img, dw],
         np.einsum("ncpqij,cij->ncpq", _windows(img, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 0),
                   dw[0])),
    ]


CASES = _reference_cases()


def _expected(name, init, inputs, given):
    """The NumPy reference of a case (some computed here from the case's inputs)."""
    if name == "SoftMarginLoss":
        return np.log1p(np.exp(-inputs[1] * inputs[0])).sum()
    if name == "MultilabelMarginLoss":
        return _margin(inputs[0], inputs[1]), None
    if name == "LogSoftmaxExt":      # dim None: PyTorch's implicit axis, 0 for a 3-d input
        return special.log_softmax(inputs[0], 0)
    if name == "Dilation2D":
        x, f = inputs       # 'same', stride 2: 5 rows pad (0, 1), 6 columns (5 wide) (1, 2)
        win = _windows(x, (2, 3), (2, 2), (1, 2), (0, 1, 1, 2), -np.inf)
        return (win + f[None, :, None, None]).max((-2, -1))
    return given


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_no_cpu_kernel_classes_follow_the_formula(case):
    name, init, inputs, given = case
    out = getattr(ops, name)(**init)(*[Tensor(v) for v in inputs])
    want = _expected(name, init, inputs, given)
    outs = out if isinstance(out, tuple) else (out,)
    wants = want if isinstance(want, tuple) else (want,)
    for got, ref in zip(outs, wants):
        if ref is not None:
            np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-5, atol=1e-5, err_msg=name)
    assert outs[0].dtype == ms.float32


def test_multilabel_margin_loss_marks_the_targets():
    x, t = _f(2, 4), np.array([[3, 0, -1, 1], [2, -1, 0, 0]], np.int32)
    _, is_target = ops.MultilabelMarginLoss()(Tensor(x), Tensor(t))
    assert is_target.dtype == ms.int32
    np.testing.assert_array_equal(is_target.asnumpy(), [[1, 0, 0, 1], [0, 0, 1, 0]])


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_no_cpu_kernel_classes_compiled_equal_eager(mode):
    instances = [(getattr(ops, name)(**init), [Tensor(v) for v in inputs])
                 for name, init, inputs, _ in CASES]

    def run(*flat):
        out, at = [], 0
        for op, args in instances:
            out.append(op(*flat[at:at + len(args)]))
            at += len(args)
        return out
    flat = [t for _, args in instances for t in args]
    eager = run(*flat)
    jitted = ms.jit(run, capture_mode=mode, jit_level="O1", fullgraph=True)
    for _ in range(2):
        got = jitted(*flat)
    for e, g in zip(eager, got):
        for a, b in zip(e if isinstance(e, tuple) else (e,), g if isinstance(g, tuple) else (g,)):
            np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-6, atol=1e-6)


# ---- random classes ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, shape", [("Dropout2D", (8, 50, 2, 3)),
                                         ("Dropout3D", (8, 50, 2, 2, 1))])
def test_channel_dropout_keeps_whole_channels(name, shape):
    ms.set_seed(5)
    x = np.ones(shape, np.float32)
    out, mask = getattr(ops, name)(keep_prob=0.75)(Tensor(x))
    out, mask = out.asnumpy(), mask.asnumpy()
    assert mask.dtype == np.bool_ and out.dtype == np.float32
    per_channel = mask.reshape(shape[0], shape[1], -1)
    assert (per_channel.all(-1) | ~per_channel.any(-1)).all()       # whole channels
    assert abs(per_channel[..., 0].mean() - 0.75) < 0.06
    np.testing.assert_allclose(out, mask / 0.75, rtol=1e-6)
    ints, int_mask = getattr(ops, name)(keep_prob=0.75)(Tensor(np.full(shape, 5, np.int32)))
    assert ints.dtype == ms.int32       # x / keep_prob in float, truncated (MindSpore)
    np.testing.assert_array_equal(ints.asnumpy(), np.where(int_mask.asnumpy(), 6, 0))
    kept, keep_all = getattr(ops, name)(1.0)(Tensor(x))
    assert keep_all.asnumpy().all() and np.array_equal(kept.asnumpy(), x)
    with pytest.raises(ValueError, match=name):
        getattr(ops, name)(1.5)(Tensor(x))
    with pytest.raises(ValueError, match=name):
        getattr(ops, name)()(Tensor(x[0]))


def _pool_with(x, rows, cols, overlapping, kind):
    out = np.zeros((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            r1 = rows[i + 1] + (overlapping and rows[i + 1] < x.shape[1])
            c1 = cols[j + 1] + (overlapping and cols[j + 1] < x.shape[2])
            block = x[:, rows[i]:r1, cols[j]:c1]
            out[:, i, j] = block.max((1, 2)) if kind == "max" else block.mean((1, 2))
    return out


@pytest.mark.parametrize("name", ["FractionalMaxPool", "FractionalAvgPool"])
@pytest.mark.parametrize("pseudo_random, overlapping", [(False, False), (True, True)])
def test_fractional_pools_pool_their_sequences(name, pseudo_random, overlapping):
    x = _f(2, 7, 6, 3)
    ms.set_seed(11)
    y, rows, cols = getattr(ops, name)([1.0, 1.5, 2.0, 1.0], pseudo_random, overlapping)(
        Tensor(x))
    rows, cols = rows.asnumpy(), cols.asnumpy()
    assert rows.dtype == cols.dtype == np.int64 and y.shape == (2, 4, 3, 3)
    assert rows[0] == cols[0] == 0 and rows[-1] == 7 and cols[-1] == 6
    assert set(np.diff(rows)) <= {1, 2, 3} and set(np.diff(cols)) <= {2}
    kind = "max" if name == "FractionalMaxPool" else "avg"
    np.testing.assert_allclose(y.asnumpy(), _pool_with(x, rows, cols, overlapping, kind),
                               rtol=1e-6)
    with pytest.raises(ValueError, match=name):
        getattr(ops, name)([1.0, 0.5, 2.0, 1.0])(Tensor(x))
    with pytest.raises(TypeError, match=name):
        getattr(ops, name)((1.0, 1.5, 2.0, 1.0))(Tensor(x))


def test_batch_norm_training_updates_the_running_statistics():
    x, scale, bias = _f(4, 3, 2, 2), np.abs(_f(3)) + 0.5, _f(3)
    mean, var = ms.Parameter(Tensor(np.zeros(3, np.float32))), ms.Parameter(
        Tensor(np.ones(3, np.float32)))
    y, bm, bv, r1, r2 = ops.BatchNorm(is_training=True, momentum=0.2)(
        Tensor(x), Tensor(scale), Tensor(bias), mean, var)
    m, v = x.mean((0, 2, 3)), x.var((0, 2, 3))
    want = (x - m[:, None, None]) / np.sqrt(v[:, None, None] + 1e-5) * scale[:, None, None] \
        + bias[:, None, None]
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(r1.asnumpy(), m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r2.asnumpy(), v, rtol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), 0.2 * m, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(var.asnumpy(), 0.8 + 0.2 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
    assert not bm.asnumpy().any() and not bv.asnumpy().any()       # the CPU kernel's zeros


# ---- gradients against finite differences ------------------------------------------------

def _fd_check(fn, *arrays, eps=1e-6, tol=1e-5):
    """Reverse mode of ``sum(fn(*arrays) * ct)`` against central differences along random
    directions, in float64."""
    rng = np.random.default_rng(3)
    out = fn(*[Tensor(a) for a in arrays])
    ct = rng.standard_normal(out.shape)

    def objective(*xs):
        return ops.sum(fn(*xs) * Tensor(ct))
    grads = ms.grad(objective, grad_position=tuple(range(len(arrays))))(
        *[Tensor(a) for a in arrays])
    grads = grads if isinstance(grads, tuple) else (grads,)
    for i, (a, g) in enumerate(zip(arrays, grads)):
        d = rng.standard_normal(a.shape)
        moved = [list(arrays), list(arrays)]
        moved[0][i], moved[1][i] = a + eps * d, a - eps * d
        values = [float(np.sum(fn(*[Tensor(v) for v in m]).asnumpy() * ct)) for m in moved]
        numeric = (values[0] - values[1]) / (2 * eps)
        assert abs(float(np.sum(g.asnumpy() * d)) - numeric) <= tol * (1 + abs(numeric)), i


def _d(*shape):
    return RNG.standard_normal(shape)


GRADIENT_CASES = {
    "Conv2DTranspose": (lambda dy, w: ops.Conv2DTranspose(4, 3, pad_mode="same", stride=2)(
        dy, w, (1, 4, 5, 6)), [_d(1, 2, 3, 3), _d(2, 4, 3, 3)]),
    "Conv3DTranspose": (lambda x, w: ops.Conv3DTranspose(2, 2, 2, pad_mode="pad",
                                                         pad=(1, 0, 0, 1, 1, 0), stride=2)(x, w),
                        [_d(1, 2, 2, 2, 2), _d(2, 2, 2, 2, 2)]),
    "Im2Col": (lambda x: ops.Im2Col((2, 3), 2, 1, 1)(x), [_d(1, 2, 4, 5)]),
    "Col2Im": (lambda x: ops.Col2Im(2, 1, 1, 2)(x, (4, 4)), [_d(1, 2, 4, 9)]),
    "ExtractImagePatches": (lambda x: ops.ExtractImagePatches(
        (1, 1, 2, 2), (1, 1, 2, 1), (1, 1, 1, 2), "same")(x), [_d(1, 2, 4, 5)]),
    "Dilation2D": (lambda x, f: ops.Dilation2D(1, 1, "valid")(x, f),
                   [_d(1, 2, 4, 4), _d(2, 2, 2)]),
    "DeformableOffsets": (lambda x, o: ops.DeformableOffsets(
        (1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(x, o), [_d(1, 2, 4, 4),
                                                    RNG.uniform(0.1, 0.4, (1, 12, 3, 3))]),
    "LRN": (lambda x: ops.LRN(2, 1.0, 0.5, 0.75)(x), [_d(1, 5, 2, 2)]),
    "RmsNorm": (lambda x, g: ops.RmsNorm()(x, g)[0], [_d(3, 4), _d(4)]),
    "FractionalMaxPoolWithFixedKsize": (
        lambda x: ops.FractionalMaxPoolWithFixedKsize(2, (2, 3))(
            x, Tensor(np.full((1, 2, 2), 0.4)))[0], [_d(1, 2, 5, 6)]),
    "FractionalAvgPool": (lambda x: (ms.set_seed(2), ops.FractionalAvgPool(
        [1.0, 1.5, 1.5, 1.0], True, True)(x))[1][0], [_d(1, 5, 5, 2)]),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_class_gradients_match_finite_differences(name):
    fn, arrays = GRADIENT_CASES[name]
    _fd_check(fn, *arrays)


def test_ctc_loss_gradient_output_is_the_loss_gradient():
    x = _d(5, 2, 4)
    labels = (Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64)),
              Tensor(np.array([1, 1, 2, 0, 0], np.int32)), Tensor(np.array([5, 4], np.int32)))
    for init in ({}, {"ctc_merge_repeated": False}, {"preprocess_collapse_repeated": True}):
        op = ops.CTCLoss(**init)
        _, grad = op(Tensor(x), *labels)
        numeric = np.zeros_like(x)
        for index in np.ndindex(*x.shape):
            step = np.zeros_like(x)
            step[index] = 1e-6
            up = op(Tensor(x + step), *labels)[0].asnumpy().sum()
            down = op(Tensor(x - step), *labels)[0].asnumpy().sum()
            numeric[index] = (up - down) / 2e-6
        np.testing.assert_allclose(grad.asnumpy(), numeric, rtol=1e-5, atol=1e-6,
                                   err_msg=str(init))
