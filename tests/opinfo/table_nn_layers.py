"""Table entries: more nn layers (adaptive_avg_pool2d_ext, fold / col2im, the transposed 3-D
convolution, the deformable convolution, greedy CTC decoding); their defining loops and
sums written out in NumPy, PyTorch as the second reference where it has the op."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, FLOATS

_TOL = {dt.float16: (1e-2, 1e-2), dt.bfloat16: (8e-2, 8e-2), dt.float32: (1e-5, 1e-5)}
_F = lambda torch: torch.nn.functional  # noqa: E731


def _r(rng, dtype, *shape):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v) * (2 if len(v) == 1 else 1)


# ---- adaptive pooling --------------------------------------------------------------------------

def _adaptive_ref(x, output_size):
    sizes = (output_size, output_size) if isinstance(output_size, int) else output_size
    h, w = x.shape[-2:]
    oh, ow = (h if sizes[0] is None else sizes[0]), (w if sizes[1] is None else sizes[1])
    out = np.zeros(x.shape[:-2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            rows = slice(i * h // oh, -(-(i + 1) * h // oh))
            cols = slice(j * w // ow, -(-(j + 1) * w // ow))
            out[..., i, j] = x[..., rows, cols].mean((-2, -1))
    return out


op("adaptive_avg_pool2d_ext", ref=_adaptive_ref, dtypes=FLOATS, tol=_TOL,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 1, 2, 5, 7), (2, 3), label="uneven"),
       Sample(_r(rng, dtype, 2, 4, 4), 2, label="3-d, int size"),
       Sample(_r(rng, dtype, 1, 1, 4, 5), (None, 2), label="None keeps"),
       Sample(_r(rng, dtype, 1, 1, 4, 5), (1, 2, 3), label="3 sizes", raises=ValueError)],
   torch=lambda torch, x, size: _F(torch).adaptive_avg_pool2d(x, size),
   notes={"platform": "MindSpore 2.10 has only an Ascend kernel: adaptive_avg_pool2d's "
                      "windows"})


# ---- fold / col2im -------------------------------------------------------------------------------

def _col2im_ref(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum each block x[n, c, ki * kw + kj, l] into image[n, c, i * s + ki * d - p, ...]."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = (_pair(v) for v in (kernel_size, dilation,
                                                                  padding, stride))
    h, w = (int(v) for v in np.asarray(output_size).reshape(-1))
    n, c = x.shape[:2]
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw))
    blocks = x.reshape(n, c, kh, kw, oh, ow)
    for ki in range(kh):
        for kj in range(kw):
            for i in range(oh):
                for j in range(ow):
                    out[:, :, i * sh + ki * dh, j * sw + kj * dw] += blocks[:, :, ki, kj, i, j]
    return out[:, :, ph:ph + h, pw:pw + w]


def _fold_ref(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    kh, kw = _pair(kernel_size)
    blocks = x.reshape(x.shape[0], -1, kh * kw, x.shape[-1])
    return _col2im_ref(blocks, output_size, kernel_size, dilation, padding, stride)


_SIZE = np.array([4, 5], np.int32)


op("fold", ref=_fold_ref, dtypes=FLOATS, tol=_TOL, nondiff=(1,),
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 1, 8, 12), _SIZE, 2, label="kernel 2"),
       Sample(_r(rng, dtype, 2, 6, 6), _SIZE.astype(np.int64), (1, 2), 1, (1, 0), (2, 2),
              label="padding, stride"),
       Sample(_r(rng, dtype, 1, 8, 7), _SIZE, 2, label="wrong block count",
              raises=ValueError)],
   torch=lambda torch, x, size, k, dilation=1, padding=0, stride=1: _F(torch).fold(
       x, tuple(int(v) for v in size), k, dilation, padding, stride),
   notes={"output_size": "a 1-D int32 / int64 Tensor (read for the output's shape) or 2 ints"})
op("col2im", ref=_col2im_ref, dtypes=FLOATS, tol=_TOL, nondiff=(1,),
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 1, 2, 4, 12), _SIZE, 2, 1, 0, 1, label="kernel 2"),
       Sample(_r(rng, dtype, 2, 2, 6, 3), _SIZE, (2, 3), (1, 2), (1, 0), (2, 1),
              label="dilation, padding, stride"),
       Sample(_r(rng, dtype, 1, 2, 3, 12), _SIZE, 2, 1, 0, 1, label="wrong block size",
              raises=ValueError)],
   torch=lambda torch, x, size, k, dilation, padding, stride: _F(torch).fold(
       x.reshape(x.shape[0], -1, x.shape[-1]), tuple(int(v) for v in size), k, dilation,
       padding, stride))


# ---- the transposed 3-D convolution --------------------------------------------------------------

def _conv3d_transpose_ref(x, w, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                          output_padding=0):
    """Each input voxel scatters x[n, c, p] * w[c, o, k] to out[n, o, p * s + k * d - pad]."""
    s = (stride,) * 3 if isinstance(stride, int) else tuple(stride)
    d = (dilation,) * 3 if isinstance(dilation, int) else tuple(dilation)
    e = (output_padding,) * 3 if isinstance(output_padding, int) else tuple(output_padding)
    k = w.shape[2:]
    p = [(0, 0)] * 3
    if pad_mode == "pad":
        flat = (padding,) * 6 if isinstance(padding, int) else padding
        p = [(flat[2 * i], flat[2 * i + 1]) for i in range(3)]
    elif pad_mode == "same":
        p = []
        for i in range(3):
            total = max(0, (x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1
                        - x.shape[2 + i] * s[i])
            p.append((total // 2, total - total // 2))
    n, cin = x.shape[:2]
    cg, og = cin // group, w.shape[1]
    full = [(x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + e[i] for i in range(3)]
    out = np.zeros((n, og * group) + tuple(full))
    for g in range(group):
        xs = x[:, g * cg:(g + 1) * cg]
        ws = w[g * cg:(g + 1) * cg]
        for a in range(k[0]):
            for b in range(k[1]):
                for c in range(k[2]):
                    part = np.einsum("ncdhw,co->nodhw", xs, ws[:, :, a, b, c])
                    out[:, g * og:(g + 1) * og,
                        a * d[0]:a * d[0] + s[0] * (x.shape[2] - 1) + 1:s[0],
                        b * d[1]:b * d[1] + s[1] * (x.shape[3] - 1) + 1:s[1],
                        c * d[2]:c * d[2] + s[2] * (x.shape[4] - 1) + 1:s[2]] += part
    return out[:, :, p[0][0]:full[0] - p[0][1], p[1][0]:full[1] - p[1][1],
               p[2][0]:full[2] - p[2][1]]


def _conv3d_transpose_samples(dtype, rng, full):
    return [Sample(_r(rng, dtype, 1, 2, 2, 3, 2), _r(rng, dtype, 2, 3, 2, 2, 2),
                   label="valid"),
            Sample(_r(rng, dtype, 1, 2, 2, 2, 3), _r(rng, dtype, 2, 2, 3, 2, 2), "pad",
                   (1, 0, 1, 1, 0, 1), 2, 1, 1, 1, label="pad, stride, output_padding"),
            Sample(_r(rng, dtype, 1, 4, 2, 2, 2), _r(rng, dtype, 4, 1, 1, 2, 2), "same", 0,
                   (1, 2, 2), (1, 1, 2), 2, label="same, groups, dilation"),
            Sample(_r(rng, dtype, 1, 2, 2, 2), _r(rng, dtype, 2, 3, 2, 2, 2),
                   label="4-d input", raises=ValueError)]


op("conv3d_transpose", prims=(), ref=_conv3d_transpose_ref, dtypes=FLOATS, tol=_TOL,
   samples=_conv3d_transpose_samples,
   notes={"construction": "conv3d of the input spread by the stride and padded by "
                          "dilation * (k - 1) - pad, with the flipped kernel, in / out "
                          "channels swapped (the adjoint)",
          "dilation": "the depth dilation must be 1 (MindSpore 2.10)"})


# ---- the deformable convolution ------------------------------------------------

def _bilinear(img, y, x):
    """img (C, H, W) at (y, x); corners outside the image count 0."""
    h, w = img.shape[1:]
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    total = np.zeros(img.shape[0])
    for yy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xx, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= yy < h and 0 <= xx < w:
                total += wy * wx * img[:, yy, xx]
    return total


def _deformable_ref(x, weight, offsets, kernel_size, strides, padding, bias=None,
                    dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    n, c = x.shape[:2]
    kh, kw = kernel_size
    oh, ow = offsets.shape[2:]
    g = deformable_groups
    parts = offsets.reshape(n, 3, g, kh, kw, oh, ow)
    image = np.zeros((n, c, oh * kh, ow * kw))
    for b in range(n):
        for grp in range(g):
            chans = slice(grp * c // g, (grp + 1) * c // g)
            for i in range(kh):
                for j in range(kw):
                    for p in range(oh):
                        for q in range(ow):
                            dx, dy, m = parts[b, :, grp, i, j, p, q]
                            y = p * strides[2] - padding[0] + i * dilations[2] + dy
                            xx = q * strides[3] - padding[2] + j * dilations[3] + dx
                            image[b, chans, p * kh + i, q * kw + j] = m * _bilinear(
                                x[b, chans], y, xx)
    cout, cg = weight.shape[0], c // groups
    out = np.zeros((n, cout, oh, ow))
    for o in range(cout):
        grp = o // (cout // groups)
        patch = image[:, grp * cg:(grp + 1) * cg].reshape(n, cg, oh, kh, ow, kw)
        out[:, o] = np.einsum("ncpiqj,cij->npq", patch, weight[o])
    return out if bias is None else out + bias.reshape(1, -1, 1, 1)


def _deformable_samples(dtype, rng, full):
    def offsets(*shape):
        return (rng.uniform(-1.5, 1.5, shape)).astype(dtype)
    return [Sample(_r(rng, dtype, 1, 2, 4, 4), _r(rng, dtype, 3, 2, 2, 2), offsets(1, 12, 3, 3),
                   (2, 2), (1, 1, 1, 1), (0, 0, 0, 0), _r(rng, dtype, 3), label="bias"),
            Sample(_r(rng, dtype, 1, 4, 3, 4), _r(rng, dtype, 2, 2, 2, 2), offsets(1, 24, 2, 3),
                   (2, 2), (1, 1, 2, 1), (1, 0, 0, 1), None, (1, 1, 1, 2), 2, 2,
                   label="groups, stride, padding, dilation"),
            Sample(_r(rng, dtype, 1, 2, 4, 4), _r(rng, dtype, 3, 2, 2, 2), offsets(1, 12, 2, 2),
                   (2, 2), (1, 1, 1, 1), (0, 0, 0, 0), label="offsets size", raises=ValueError)]


op("deformable_conv2d", prims=(), ref=_deformable_ref, dtypes=FLOATS, samples=_deformable_samples,
   tol={dt.float16: (2e-2, 2e-2), dt.bfloat16: (1.5e-1, 1.5e-1), dt.float32: (1e-5, 1e-5)},
   notes={"offsets": "(N, 3 * deformable_groups * kh * kw, OH, OW): the x offsets, the y "
                     "offsets and the masks (deformable convolution v2)",
          "gradients": "the input, the weight and the offsets get gradients; at integer "
                       "sampling positions the bilinear weights have a kink"})


# ---- greedy CTC decoding ------------------------------------------------------------------------

def _greedy_ref(inputs, sequence_length, merge_repeated=True):
    steps, batch, classes = inputs.shape
    indices, values, longest, log_p = [], [], 0, []
    for b in range(batch):
        best = inputs[:sequence_length[b], b].argmax(-1)
        log_p.append([-inputs[:sequence_length[b], b].max(-1).sum()])
        decoded, previous = [], -1
        for label in best:
            if label != classes - 1 and not (merge_repeated and label == previous):
                decoded.append(label)
            previous = label
        indices += [[b, j] for j in range(len(decoded))]
        values += decoded
        longest = max(longest, len(decoded))
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([batch, longest], np.int64), np.array(log_p))


def _greedy_samples(dtype, rng, full):
    def scores(*shape):
        return rng.standard_normal(shape).astype(dtype)
    return [Sample(scores(5, 2, 4), np.array([5, 3], np.int32), label="merged"),
            Sample(scores(6, 3, 3), np.array([6, 0, 2], np.int32), False, label="not merged"),
            Sample(scores(5, 2, 4), np.array([5, 3], np.int64), label="int64 lengths",
                   raises=TypeError)]


op("ctc_greedy_decoder", ref=_greedy_ref, dtypes=(dt.float32, dt.float64), grad=False,
   fuzz=False, samples=_greedy_samples,
   result=lambda x, lengths: (dt.int64, dt.int64, dt.int64, x),
   notes={"capture": "the number of decoded labels depends on the values (nonzero): a guard "
                     "in trace capture, a graph break in bytecode, a fallback in ast",
          "log_probability": "minus the sum of each step's best score (MindSpore 2.10)"})
