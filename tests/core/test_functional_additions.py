"""The functional ops added with the operator classes (sorting, sampling, activations,
losses, group / instance norm, 1-D / 3-D / transposed convolutions, unfold) against NumPy
formulas written here, finite differences, and PyTorch where it is installed."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, Tensor

try:
    import torch
except ImportError:          # the NumPy and finite-difference checks still run
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def T(a):
    return Tensor(np.asarray(a))


def numeric_grad(f, x, eps=1e-6):
    """Central differences of the scalar ``f`` (NumPy in, float out) at ``x``."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def check_grad(fn, *arrays, wrt=0, rtol=1e-5, atol=1e-7):
    """Gradient of sum(fn(...) * weights) by tensorjit against central differences."""
    rng = np.random.default_rng(9)
    out = fn(*[T(a) for a in arrays])
    weights = rng.standard_normal(out.shape)

    def scalar(*ts):
        return ops.sum(fn(*ts) * T(weights))

    got = ms.grad(scalar, grad_position=wrt)(*[T(a) for a in arrays]).asnumpy()

    def numeric(x):
        args = list(arrays)
        args[wrt] = x
        return float((fn(*[T(a) for a in args]).asnumpy() * weights).sum())

    np.testing.assert_allclose(got, numeric_grad(numeric, arrays[wrt]), rtol=rtol, atol=atol)


# ---- sorting ------------------------------------------------------------------------------

def test_topk_sort_argsort_values_indices_and_ties():
    x = np.array([[3.0, 1.0, 3.0, 2.0], [0.5, -1.0, 4.0, 4.0]])
    values, indices = ops.topk(T(x), 2)
    np.testing.assert_array_equal(values.asnumpy(), [[3.0, 3.0], [4.0, 4.0]])
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 2], [2, 3]])   # ties: lower first
    assert indices.dtype == ms.int32
    small, small_idx = ops.topk(T(x), 1, dim=0, largest=False)
    np.testing.assert_array_equal(small.asnumpy(), x.min(0, keepdims=True))
    np.testing.assert_array_equal(small_idx.asnumpy(), x.argmin(0)[None])
    sorted_x, order = ops.sort(T(x), axis=-1, descending=True)
    np.testing.assert_array_equal(sorted_x.asnumpy(), -np.sort(-x, -1))
    np.testing.assert_array_equal(order.asnumpy(), [[0, 2, 3, 1], [2, 3, 0, 1]])
    np.testing.assert_array_equal(ops.argsort(T(x), 0).asnumpy(), np.argsort(x, 0, kind="stable"))
    ints = np.array([5, -2, 7, 7, 0], np.int32)
    np.testing.assert_array_equal(ops.sort(T(ints))[0].asnumpy(), np.sort(ints))
    with pytest.raises(ValueError, match="topk: k=5"):
        ops.topk(T(x), 5)


def test_topk_and_sort_gradients_reach_the_chosen_elements():
    rng = np.random.default_rng(0)
    x = rng.permutation(12).reshape(3, 4) * 0.3
    check_grad(lambda t: ops.topk(t, 2)[0], x)
    check_grad(lambda t: ops.sort(t, 0, True)[0], x)


def test_topk_in_every_capture_mode():
    x = T(np.random.default_rng(1).standard_normal((3, 5)))
    expected = [o.asnumpy() for o in ops.topk(x, 3)]
    for mode in ("trace", "ast", "bytecode"):
        jitted = ms.jit(lambda t: ops.topk(t, 3), capture_mode=mode)
        for _ in range(2):
            out = jitted(x)
        for got, want in zip(out, expected):
            np.testing.assert_array_equal(got.asnumpy(), want)


# ---- sampling ----------------------------------------------------------------------------

def test_normal_and_uniform_statistics_and_broadcasting():
    ms.set_seed(1)
    mean = T(np.array([[-3.0], [5.0]], np.float32))
    samples = ops.normal((2, 20000), mean, 0.5).asnumpy()
    assert samples.shape == (2, 20000) and samples.dtype == np.float32
    np.testing.assert_allclose(samples.mean(1), [-3.0, 5.0], atol=0.02)
    np.testing.assert_allclose(samples.std(1), [0.5, 0.5], atol=0.02)
    u = ops.uniform((20000,), T(np.float32(2.0)), T(np.float32(4.0))).asnumpy()
    assert u.min() >= 2.0 and u.max() < 4.0 and abs(u.mean() - 3.0) < 0.02
    assert ops.standard_normal((3, 2)).shape == (3, 2)


def test_dropout2d_zeroes_whole_channels():
    ms.set_seed(2)
    x = np.ones((50, 40, 3, 3), np.float32)
    y = ops.dropout2d(T(x), p=0.25).asnumpy()
    per_channel = y.reshape(50, 40, 9)
    assert np.all((per_channel == 0).all(-1) | np.isclose(per_channel, 1 / 0.75).all(-1))
    assert abs((per_channel[..., 0] == 0).mean() - 0.25) < 0.03
    np.testing.assert_array_equal(ops.dropout2d(T(x), 0.5, training=False).asnumpy(), x)


# ---- activations -------------------------------------------------------------------------

ACTIVATIONS = {
    "hardswish": (ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "hardsigmoid": (ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    "softplus": (lambda x: ops.softplus(x, 2.0, 3.0),
                 lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2)),
    "logsigmoid": (ops.logsigmoid, lambda x: -np.log1p(np.exp(-x))),
    "selu": (ops.selu, lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(x))),
    "celu": (lambda x: ops.celu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x / 0.7))),
    "glu": (lambda x: ops.glu(x, 1), lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    "fast_gelu": (ops.fast_gelu, lambda x: x / (1 + np.exp(-1.702 * x))),
    "prelu": (lambda x: ops.prelu(x, T(np.array([0.1, -0.2, 0.3, 0.4]))),
              lambda x: np.where(x > 0, x, np.array([0.1, -0.2, 0.3, 0.4])[None, :, None] * x)),
    "bias_add": (lambda x: ops.bias_add(x, T(np.array([1.0, 2.0, 3.0, 4.0]))),
                 lambda x: x + np.array([1.0, 2.0, 3.0, 4.0])[None, :, None]),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_matches_formula_and_finite_differences(name):
    fn, formula = ACTIVATIONS[name]
    x = np.random.default_rng(3).uniform(0.2, 2.5, (2, 4, 3)) * \
        np.random.default_rng(4).choice([-1.0, 1.0], (2, 4, 3))
    np.testing.assert_allclose(fn(T(x)).asnumpy(), formula(x), rtol=1e-12, atol=1e-12)
    check_grad(fn, x)


# ---- losses ------------------------------------------------------------------------------

def test_kl_div_reductions_and_zero_labels():
    x = np.log(np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]))
    y = np.array([[0.1, 0.0, 0.9], [0.5, 0.5, 0.0]])
    per = np.where(y > 0, y * (np.log(np.where(y > 0, y, 1)) - x), 0)
    expected = {"none": per, "sum": per.sum(), "mean": per.mean(), "batchmean": per.sum() / 2}
    for reduction, want in expected.items():
        np.testing.assert_allclose(ops.kl_div(T(x), T(y), reduction).asnumpy(), want,
                                   rtol=1e-12)
    check_grad(lambda t: ops.kl_div(t, T(y), "none"), x)


def test_binary_cross_entropy_and_cosine_embedding_formulas():
    rng = np.random.default_rng(5)
    p, y, w = rng.uniform(0.05, 0.95, (3, 4)), rng.uniform(0, 1, (3, 4)), rng.uniform(0.5, 2, (3, 4))
    bce = -w * (y * np.log(p) + (1 - y) * np.log(1 - p))
    np.testing.assert_allclose(ops.binary_cross_entropy(T(p), T(y), T(w)).asnumpy(), bce.mean())
    assert np.isfinite(ops.binary_cross_entropy(T(np.array([0.0, 1.0])),
                                                T(np.array([1.0, 0.0]))).asnumpy())
    check_grad(lambda t: ops.binary_cross_entropy(t, T(y), T(w), "none"), p)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    target = np.array([1, -1, -1])
    cos = (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1))
    want = np.where(target == 1, 1 - cos, np.maximum(cos - 0.1, 0))
    got = ops.cosine_embedding_loss(T(a), T(b), T(target), 0.1, "none").asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-9)
    check_grad(lambda t: ops.cosine_embedding_loss(t, T(b), T(target), -0.5, "none"), a)


def test_cross_entropy_label_smoothing_with_class_weights():
    """Smoothing weighs each class by its own weight; 'mean' divides by the target
    weights (PyTorch's and MindSpore's definition)."""
    rng = np.random.default_rng(6)
    logits, target, w = rng.standard_normal((4, 5)), np.array([0, 3, 3, 1]), rng.uniform(0.5, 2, 5)
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    eps = 0.2
    per = (1 - eps) * -w[target] * logp[np.arange(4), target] + eps * -(logp * w).sum(1) / 5
    got = ops.cross_entropy(T(logits), T(target), T(w), label_smoothing=eps).asnumpy()
    np.testing.assert_allclose(got, per.sum() / w[target].sum(), rtol=1e-12)


# ---- normalisation -----------------------------------------------------------------------

def _group_norm_reference(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    normed = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return normed.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


def test_group_and_instance_norm_formula_and_gradients():
    rng = np.random.default_rng(7)
    x, gamma, beta = rng.standard_normal((2, 4, 3, 2)), rng.uniform(0.5, 2, 4), rng.standard_normal(4)
    got = ops.group_norm(T(x), 2, T(gamma), T(beta), 1e-5).asnumpy()
    np.testing.assert_allclose(got, _group_norm_reference(x, 2, gamma, beta, 1e-5), rtol=1e-10)
    got = ops.instance_norm(T(x), T(gamma), T(beta)).asnumpy()
    np.testing.assert_allclose(got, _group_norm_reference(x, 4, gamma, beta, 1e-5), rtol=1e-10)
    check_grad(lambda t: ops.group_norm(t, 2, T(gamma), T(beta)), x)
    check_grad(lambda g: ops.group_norm(T(x), 2, g, T(beta)), gamma)
    with pytest.raises(ValueError, match="group_norm: 4 channels cannot be split into 3"):
        ops.group_norm(T(x), 3)


# ---- convolutions ------------------------------------------------------------------------

def _direct_transpose_conv(x, w, stride, pads, dilation, groups, out_hw):
    """Scatter every input pixel through the kernel (the definition of a transposed
    convolution), then crop the padding."""
    n, cin, h, wd = x.shape
    cout_g = w.shape[1]
    kh, kw = w.shape[2:]
    full = np.zeros((n, cout_g * groups, out_hw[0] + pads[0] + pads[1] + kh * dilation[0],
                     out_hw[1] + pads[2] + pads[3] + kw * dilation[1]))
    per_group = cin // groups
    for ci in range(cin):
        g = ci // per_group
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for b in range(kw):
                        full[:, g * cout_g:(g + 1) * cout_g,
                             i * stride[0] + a * dilation[0],
                             j * stride[1] + b * dilation[1]] += x[:, ci, i, j, None] * w[ci, :, a, b]
    return full[:, :, pads[0]:pads[0] + out_hw[0], pads[2]:pads[2] + out_hw[1]]


@pytest.mark.parametrize("stride,padding,groups,dilation", [
    (1, 0, 1, 1), (2, 1, 2, 1), (2, (1, 0), 1, 2), (3, 2, 1, 1)])
def test_conv_transpose2d_is_the_scattering_definition(stride, padding, groups, dilation):
    rng = np.random.default_rng(8)
    x, w = rng.standard_normal((2, 4, 3, 4)), rng.standard_normal((4, 3, 3, 2))
    got = ops.conv_transpose2d(T(x), T(w), None, stride, padding, 0, groups, dilation).asnumpy()
    s = (stride, stride)
    p = (padding, padding) if isinstance(padding, int) else padding
    pads = (p[0], p[0], p[1], p[1])
    want = _direct_transpose_conv(x, w, s, pads, (dilation, dilation), groups, got.shape[2:])
    assert got.shape[2] == (3 - 1) * stride - 2 * p[0] + dilation * 2 + 1
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    check_grad(lambda t: ops.conv_transpose2d(t, T(w), None, stride, padding, 0, groups,
                                              dilation), x)
    check_grad(lambda k: ops.conv_transpose2d(T(x), k, None, stride, padding, 0, groups,
                                              dilation), w)
    if torch is not None:
        ref = torch.nn.functional.conv_transpose2d(torch.tensor(x), torch.tensor(w), None,
                                                   stride, p, 0, groups, dilation).numpy()
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)


def test_conv1d_and_conv3d_against_direct_sums():
    rng = np.random.default_rng(9)
    x, w = rng.standard_normal((2, 4, 9)), rng.standard_normal((6, 2, 3))
    got = ops.conv1d(T(x), T(w), None, 2, "pad", 1, 2, 2).asnumpy()
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1)))
    want = np.zeros((2, 6, 4))
    for o in range(6):
        g = o // 3
        for t in range(4):
            want[:, o, t] = np.einsum("nck,ck->n", xp[:, 2 * g:2 * g + 2, 2 * t:2 * t + 5:2], w[o])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    x3, w3 = rng.standard_normal((1, 2, 4, 3, 3)), rng.standard_normal((3, 2, 2, 2, 2))
    got = ops.conv3d(T(x3), T(w3), None, 1, "valid").asnumpy()
    want = np.zeros((1, 3, 3, 2, 2))
    for idx in np.ndindex(3, 2, 2):
        d, i, j = idx
        want[0, :, d, i, j] = np.einsum("cxyz,ocxyz->o", x3[0, :, d:d + 2, i:i + 2, j:j + 2], w3)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    check_grad(lambda t: ops.conv3d(t, T(w3), None, (2, 1, 1), "same"), x3)


def test_unfold_layouts():
    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 3, 4, 5))
    cols = ops.unfold(T(x), (2, 3), 1, 0, 1).asnumpy()           # (N, C*kh*kw, L)
    assert cols.shape == (2, 18, 3 * 3)
    np.testing.assert_array_equal(cols[:, :, 4].reshape(2, 3, 2, 3), x[:, :, 1:3, 1:4])
    patches = ops.extract_patches(T(x), [1, 2, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1]).asnumpy()
    assert patches.shape == (2, 18, 3, 3)                         # (N, kh*kw*C, OH, OW)
    np.testing.assert_array_equal(patches[:, :, 1, 1].reshape(2, 2, 3, 3).transpose(0, 3, 1, 2),
                                  x[:, :, 1:3, 1:4])
    if torch is not None:
        ref = torch.nn.functional.unfold(torch.tensor(x), (2, 3), 2, 1, (2, 1)).numpy()
        np.testing.assert_array_equal(ops.unfold(T(x), (2, 3), 2, 1, (2, 1)).asnumpy(), ref)
