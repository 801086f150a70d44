"""Forward results of conv2d, batch_norm, softmax, log_softmax, layer_norm and matmul
against NumPy formulas written here (a naive loop convolution, textbook normalisation),
in float32 and float64."""
import math

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

from .helpers import assert_close

FLOATS = [np.float32, np.float64]


# ---- references ------------------------------------------------------------------------

def ref_conv2d(x, w, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """Direct definition: out[n,o,i,j] = sum_{c,p,q} xpad[n, g*cg+c, i*s+p*d, j*s+q*d] w[o,c,p,q]."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    top, bottom, left, right = pads
    xp = np.zeros((n, c, h + top + bottom, wd + left + right))
    xp[:, :, top:top + h, left:left + wd] = x
    sh, sw = stride
    dh, dw = dilation
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (xp.shape[3] - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    out = np.zeros((n, o, oh, ow))
    for b in range(n):
        for oc in range(o):
            g = oc // og
            for i in range(oh):
                for j in range(ow):
                    total = 0.0
                    for ci in range(cg):
                        for p in range(kh):
                            for q in range(kw):
                                total += (xp[b, g * cg + ci, i * sh + p * dh, j * sw + q * dw]
                                          * w[oc, ci, p, q])
                    out[b, oc, i, j] = total
    return out


def same_pads(size, k, s, d):
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def ref_softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def ref_log_softmax(x, axis):
    x = x.astype(np.float64)
    return x - np.log(np.sum(np.exp(x), axis=axis, keepdims=True))


# ---- conv2d ------------------------------------------------------------------------------

CONV_CASES = [
    # (x shape, w shape, kwargs, explicit (top, bottom, left, right) or None for 'same')
    ((2, 3, 6, 5), (4, 3, 3, 3), dict(), (0, 0, 0, 0)),
    ((1, 2, 7, 7), (3, 2, 3, 2), dict(stride=2), (0, 0, 0, 0)),
    ((1, 2, 7, 6), (3, 2, 3, 3), dict(stride=(2, 1), pad_mode="pad", padding=1), (1, 1, 1, 1)),
    ((1, 2, 5, 6), (2, 2, 2, 3), dict(pad_mode="pad", padding=(1, 2)), (1, 1, 2, 2)),
    ((1, 2, 5, 6), (2, 2, 3, 3), dict(pad_mode="pad", padding=(0, 1, 2, 1)), (0, 1, 2, 1)),
    ((1, 3, 8, 7), (2, 3, 3, 3), dict(dilation=2), (0, 0, 0, 0)),
    ((2, 4, 6, 6), (6, 2, 3, 3), dict(groups=2, pad_mode="pad", padding=1), (1, 1, 1, 1)),
    ((1, 4, 5, 5), (4, 1, 3, 3), dict(groups=4), (0, 0, 0, 0)),          # depthwise
    ((1, 2, 7, 8), (3, 2, 3, 2), dict(pad_mode="same"), None),
    ((1, 2, 7, 8), (3, 2, 4, 3), dict(pad_mode="same", stride=2), None),
    ((1, 2, 9, 8), (2, 2, 3, 3), dict(pad_mode="same", dilation=(2, 3), stride=(1, 2)), None),
    ((1, 2, 6, 6), (2, 2, 3, 3), dict(pad_mode="valid", stride=(1, 2), dilation=(2, 1)),
     (0, 0, 0, 0)),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("xs,ws,kwargs,pads", CONV_CASES)
def test_conv2d_matches_loop_reference(xs, ws, kwargs, pads, dtype, rng):
    x = rng.standard_normal(xs).astype(dtype)
    w = rng.standard_normal(ws).astype(dtype)
    stride = kwargs.get("stride", 1)
    stride = (stride, stride) if isinstance(stride, int) else stride
    dilation = kwargs.get("dilation", 1)
    dilation = (dilation, dilation) if isinstance(dilation, int) else dilation
    if pads is None:
        pads = (same_pads(xs[2], ws[2], stride[0], dilation[0])
                + same_pads(xs[3], ws[3], stride[1], dilation[1]))
    expected = ref_conv2d(x, w, stride, pads, dilation, kwargs.get("groups", 1))
    out = ops.conv2d(Tensor(x), Tensor(w), **kwargs)
    assert_close(out, expected, dtype=dtype, rtol=1e-4 if dtype == np.float32 else None)
    if kwargs.get("pad_mode") == "same":
        assert out.shape[2:] == (math.ceil(xs[2] / stride[0]), math.ceil(xs[3] / stride[1]))


@pytest.mark.parametrize("dtype", FLOATS)
def test_conv2d_bias(dtype, rng):
    x = rng.standard_normal((2, 3, 5, 5)).astype(dtype)
    w = rng.standard_normal((4, 3, 3, 3)).astype(dtype)
    b = rng.standard_normal(4).astype(dtype)
    out = ops.conv2d(Tensor(x), Tensor(w), Tensor(b), pad_mode="pad", padding=1)
    expected = ref_conv2d(x, w, pads=(1, 1, 1, 1)) + b.reshape(1, 4, 1, 1)
    assert_close(out, expected, dtype=dtype, rtol=1e-4 if dtype == np.float32 else None)


# ---- batch norm --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 3, 2, 5), (6, 3)])
def test_batch_norm_training(shape, dtype, rng):
    x = rng.standard_normal(shape).astype(dtype) * 2 + 1
    c = shape[1]
    gamma = rng.uniform(0.5, 1.5, c).astype(dtype)
    beta = rng.standard_normal(c).astype(dtype)
    rm0 = rng.standard_normal(c).astype(dtype)
    rv0 = rng.uniform(0.5, 2, c).astype(dtype)
    running_mean, running_var = ms.Parameter(Tensor(rm0)), ms.Parameter(Tensor(rv0))
    eps, momentum = 1e-5, 0.2
    out = ops.batch_norm(Tensor(x), running_mean, running_var, Tensor(gamma), Tensor(beta),
                         training=True, momentum=momentum, eps=eps)

    axes = (0,) + tuple(range(2, len(shape)))
    bshape = (1, c) + (1,) * (len(shape) - 2)
    xd = x.astype(np.float64)
    count = xd.size // c
    mean = xd.sum(axis=axes) / count
    var = ((xd - mean.reshape(bshape)) ** 2).sum(axis=axes) / count
    expected = ((xd - mean.reshape(bshape)) / np.sqrt(var.reshape(bshape) + eps)
                * gamma.reshape(bshape) + beta.reshape(bshape))
    assert_close(out, expected, dtype=dtype)
    # running statistics: (1 - momentum) * running + momentum * batch (unbiased variance)
    assert_close(running_mean, (1 - momentum) * rm0 + momentum * mean, dtype=dtype)
    assert_close(running_var, (1 - momentum) * rv0 + momentum * var * count / (count - 1),
                 dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_batch_norm_eval_uses_running_statistics(dtype, rng):
    x = rng.standard_normal((3, 4, 2, 2)).astype(dtype)
    gamma, beta = rng.standard_normal(4).astype(dtype), rng.standard_normal(4).astype(dtype)
    rm, rv = rng.standard_normal(4).astype(dtype), rng.uniform(0.5, 2, 4).astype(dtype)
    running_mean, running_var = ms.Parameter(Tensor(rm)), ms.Parameter(Tensor(rv))
    out = ops.batch_norm(Tensor(x), running_mean, running_var, Tensor(gamma), Tensor(beta),
                         training=False, eps=1e-3)
    b = (1, 4, 1, 1)
    expected = (x.astype(np.float64) - rm.reshape(b)) / np.sqrt(rv.reshape(b) + 1e-3) \
        * gamma.reshape(b) + beta.reshape(b)
    assert_close(out, expected, dtype=dtype)
    assert_close(running_mean, rm, dtype=dtype)        # eval mode leaves them alone
    assert_close(running_var, rv, dtype=dtype)


# ---- softmax / log_softmax -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_and_log_softmax(axis, dtype, rng):
    x = (rng.standard_normal((3, 4, 5)) * 5).astype(dtype)
    assert_close(ops.softmax(Tensor(x), axis), ref_softmax(x, axis), dtype=dtype)
    assert_close(ops.log_softmax(Tensor(x), axis), ref_log_softmax(x, axis), dtype=dtype)


def test_softmax_is_stable_for_large_logits():
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, -1000.0, -1000.0]], np.float32)
    e = np.exp(np.array([-2.0, -1.0, 0.0]))
    assert_close(ops.softmax(Tensor(x)), np.stack([e / e.sum(), np.full(3, 1 / 3)]),
                 dtype=np.float32)
    assert_close(ops.log_softmax(Tensor(x)),
                 np.stack([np.log(e / e.sum()), np.full(3, -np.log(3))]), dtype=np.float32)


def test_softmax_of_integers_gives_float32():
    out = ops.softmax(Tensor([1, 2, 3]))
    assert_close(out, ref_softmax(np.array([1.0, 2.0, 3.0]), -1), dtype=np.float32)


# ---- layer norm --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("normalized", [(5,), (4, 5)])
def test_layer_norm(normalized, dtype, rng):
    x = (rng.standard_normal((2, 3, 4, 5)) * 3 + 2).astype(dtype)
    gamma = rng.standard_normal(normalized).astype(dtype)
    beta = rng.standard_normal(normalized).astype(dtype)
    axes = tuple(range(4 - len(normalized), 4))
    xd = x.astype(np.float64)
    mean = xd.mean(axis=axes, keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=axes, keepdims=True)
    xhat = (xd - mean) / np.sqrt(var + 1e-5)
    assert_close(ops.layer_norm(Tensor(x), normalized, Tensor(gamma), Tensor(beta)),
                 xhat * gamma + beta, dtype=dtype)
    assert_close(ops.layer_norm(Tensor(x), normalized), xhat, dtype=dtype)


# ---- matmul ------------------------------------------------------------------------------

def ref_matmul(a, b):
    """Definition with explicit loops over the contraction (plus NumPy broadcasting of the
    batch axes and NumPy's 1-D promotion rules)."""
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    if a_vec:
        a = a[None, :]
    if b_vec:
        b = b[:, None]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.zeros(batch + (a.shape[-2], b.shape[-1]))
    for k in range(a.shape[-1]):
        out += a[..., :, k:k + 1] * b[..., k:k + 1, :]
    if a_vec:
        out = out[..., 0, :]
    if b_vec:
        out = out[..., 0]
    return out


MATMUL_SHAPES = [
    ((3, 4), (4, 5)),
    ((2, 3, 4), (2, 4, 5)),
    ((2, 3, 4), (4, 5)),               # batch broadcast of the right operand
    ((3, 4), (6, 4, 2)),               # batch broadcast of the left operand
    ((2, 1, 3, 4), (5, 4, 2)),         # both broadcast
    ((4,), (4, 5)),                    # 1-D left
    ((2, 3, 4), (4,)),                 # 1-D right, batched left
    ((4,), (4,)),                      # dot product -> 0-d
    ((4,), (3, 4, 2)),                 # 1-D left, batched right
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul(sa, sb, dtype, rng):
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    expected = ref_matmul(a, b)
    assert_close(ops.matmul(Tensor(a), Tensor(b)), expected, dtype=dtype)
    assert_close(Tensor(a) @ Tensor(b), expected, dtype=dtype)
    assert_close(Tensor(a).matmul(Tensor(b)), expected, dtype=dtype)


def test_matmul_promotes_mixed_dtypes(rng):
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((3, 2))
    assert_close(ops.matmul(Tensor(a), Tensor(b)), ref_matmul(a, b), dtype=np.float64)
    ia = rng.integers(-3, 4, (2, 3))
    ib = rng.integers(-3, 4, (3, 4))
    out = ops.matmul(Tensor(ia), Tensor(ib))
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), ref_matmul(ia, ib).astype(np.int64))
