"""How MindSpore's operator classes compute (``ops/operations.py`` makes the classes):
each ``compute_*`` function takes the call's inputs and the class's attributes as keywords
and follows MindSpore's conventions for that class -- which values are attributes and
which are inputs, and what it returns (``TopK`` int32 indices, ``Dropout`` its mask,
``LayerNorm`` the mean and variance, ``SoftmaxCrossEntropyWithLogits`` the gradient of the
loss)."""
from .. import dtype as dt
from . import coerce
from . import elementwise as E
from . import reduction as R
from . import shape as S
from . import indexing as I
from . import linalg as L
from . import normalization as N
from . import creation as K
from . import random as RND
from . import loss as LOSS
from . import activation as A
from . import compat as C
from . import sorting
from . import conv
from . import loops


def compute_matmul(x, y, *, transpose_a, transpose_b):
    """Matrix product, optionally of the transposed operands."""
    if transpose_a:
        x = S.swapaxes(x, -1, -2)
    if transpose_b:
        y = S.swapaxes(y, -1, -2)
    return L.matmul(x, y)


def compute_reduction(fn):
    def compute(x, axis=(), *, keep_dims):
        return fn(x, None if axis == () else axis, keep_dims)
    compute.__doc__ = f"{fn.__name__} over ``axis`` (all axes when it is ``()``)."
    return compute


def compute_reduce_sum(x, axis=(), *, keep_dims, skip_mode):
    """Sum over ``axis`` (all axes when ``()``, or none with ``skip_mode``)."""
    if skip_mode and axis == ():
        return x
    return R.sum(x, None if axis == () else axis, keep_dims)


def compute_single_axis(axis):
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"only a single axis is supported, got {axis}")
        axis = axis[0]
    return axis


def compute_softmax(x, *, axis):
    """Softmax along ``axis``."""
    return N.softmax(x, compute_single_axis(axis))


def compute_log_softmax(x, *, axis):
    """Log-softmax along ``axis``."""
    return N.log_softmax(x, compute_single_axis(axis))


def compute_split(x, *, axis, output_num):
    """``output_num`` equal pieces along ``axis``."""
    x = coerce.as_tensor(x, op="Split")
    length = x.shape[coerce.normalize_axis(axis, x.ndim, "Split")]
    if output_num <= 0 or length % output_num:
        raise ValueError(f"Split: axis {axis} of size {length} cannot be split into "
                         f"{output_num} equal pieces")
    return S.split(x, length // output_num, axis)


def compute_unstack(x, *, axis, num):
    """Split along ``axis`` into tensors without that axis."""
    return C.unstack(x, axis)


def compute_squeeze(x, *, axis):
    """Remove axes of size 1 (all of them when ``axis`` is ``()``)."""
    return S.squeeze(x, None if axis == () else axis)


def compute_one_hot(indices, depth, on_value, off_value, *, axis):
    """One-hot vectors of ``depth`` along ``axis``, of ``on_value``'s dtype."""
    return K.one_hot(indices, depth, on_value, off_value, axis)


def compute_gather(params, indices, axis, *, batch_dims):
    """Slices of ``params`` along ``axis`` at ``indices``."""
    return I.gather(params, indices, axis, batch_dims)


def compute_arg(fn):
    def compute(x, *, axis, output_type):
        return E.cast(fn(x, axis), output_type)
    compute.__doc__ = f"Index of the {fn.__name__[3:]} along ``axis`` (``output_type``)."
    return compute


def compute_arg_with_value(fn, reduce):
    def compute(x, *, axis, keep_dims):
        return E.cast(fn(x, axis, keep_dims), dt.int64), reduce(x, axis, keep_dims)
    compute.__doc__ = f"(index int64, value) of the {fn.__name__[3:]} along ``axis``."
    return compute


def compute_top_k(x, k, *, sorted):
    """The ``k`` largest elements along the last axis and their int32 indices."""
    return sorting.topk(x, k, -1, True, True)


def compute_sort(x, *, axis, descending):
    """(values, int32 indices) sorted along ``axis``."""
    return sorting.sort(x, axis, descending)


def compute_dropout(x, *, keep_prob, Seed0, Seed1):
    """(output, mask): elements kept with probability ``keep_prob`` and scaled by
    1/keep_prob; the mask (of the input's dtype) marks the kept ones."""
    x = coerce.as_tensor(x, op="Dropout")
    if not 0 < keep_prob <= 1:
        raise ValueError(f"Dropout: keep_prob must be in (0, 1], got {keep_prob}")
    if keep_prob == 1:
        return x, E.ones_like(x)
    out, keep = RND.dropout_p.bind(x, p=float(1.0 - keep_prob))
    return out, E.cast(keep, x.dtype)


def compute_layer_norm(x, gamma, beta, *, begin_norm_axis, begin_params_axis, epsilon):
    """(y, mean, variance): normalised over the axes from ``begin_norm_axis`` on, scaled
    by ``gamma`` and shifted by ``beta`` (shaped as the input from
    ``begin_params_axis``); mean and variance keep the normalised axes as size 1."""
    x = coerce.as_tensor(x, op="LayerNorm")
    norm_axis = coerce.normalize_axis(begin_norm_axis, x.ndim, "LayerNorm")
    params_axis = coerce.normalize_axis(begin_params_axis, x.ndim, "LayerNorm")
    axes = tuple(range(norm_axis, x.ndim))
    mean = R.mean(x, axes, keep_dims=True)
    variance = R.var(x, axes, keepdims=True)
    normed = N.layer_norm(x, tuple(x.shape[norm_axis:]), None, None, epsilon)
    if tuple(gamma.shape) != tuple(x.shape[params_axis:]):
        raise ValueError(f"LayerNorm: gamma has shape {tuple(gamma.shape)}, expected the "
                         f"input's shape from axis {params_axis}: {tuple(x.shape[params_axis:])}")
    y = E.add(E.mul(normed, gamma), beta)
    return y, mean, variance


def compute_gelu(x):
    """GeLU with the tanh approximation (MindSpore's ``GeLU`` class)."""
    return E.gelu(x, approximate="tanh")


def compute_softmax_cross_entropy(logits, labels):
    """(loss per sample, gradient of the summed loss with respect to ``logits``) for
    one-hot or probability ``labels``."""
    loss = LOSS.softmax_cross_entropy_with_logits(logits, labels, False, "none")
    grad = E.sub(N.softmax(logits, -1), E.cast(labels, logits.dtype))
    return loss, E.stop_gradient(grad)


def compute_sparse_softmax_cross_entropy(logits, labels, *, is_grad):
    """The mean loss over the batch for class indices ``labels`` (with ``is_grad``: its
    gradient with respect to ``logits`` instead)."""
    if not is_grad:
        return LOSS.softmax_cross_entropy_with_logits(logits, labels, True, "mean")
    onehot = K.one_hot(labels, logits.shape[-1], 1.0, 0.0)
    grad = E.sub(N.softmax(logits, -1), E.cast(onehot, logits.dtype))
    return E.mul(grad, 1.0 / logits.shape[0])


def compute_conv2d(x, weight, *, out_channel, kernel_size, mode, pad_mode, pad, stride, dilation,
            group, data_format):
    """2-D convolution of an NCHW input with an (out, in/group, kh, kw) weight."""
    if data_format != "NCHW":
        raise ValueError(f"Conv2D: only data_format='NCHW' is supported, got {data_format!r}")
    stride = stride[-2:] if isinstance(stride, (tuple, list)) and len(stride) == 4 else stride
    dilation = dilation[-2:] if isinstance(dilation, (tuple, list)) and len(dilation) == 4 \
        else dilation
    return conv.conv2d(x, weight, None, stride, pad_mode, pad, dilation, group)


def compute_window(value):
    return tuple(value[-2:]) if isinstance(value, (tuple, list)) and len(value) == 4 else value


def compute_pool(fn):
    def compute(x, *, kernel_size, strides, pad_mode, data_format):
        if data_format != "NCHW":
            raise ValueError(f"only data_format='NCHW' is supported, got {data_format!r}")
        return fn(x, compute_window(kernel_size), compute_window(strides), pad_mode.lower())
    compute.__doc__ = f"{fn.__name__} over windows of ``kernel_size``."
    return compute


def compute_pad(x, *, paddings):
    """Constant zero padding: ``paddings`` holds one (before, after) pair per axis."""
    flat = []
    for before, after in reversed(tuple(paddings)):
        flat += [before, after]
    return S.pad(x, tuple(flat))


def compute_fill(type, shape, value):
    """A tensor of ``shape`` and ``type`` filled with ``value``."""
    return K.full(shape, value, dtype=type)


def compute_ones(shape, type=None):
    """Ones of ``shape`` and ``type``."""
    return K.ones(shape, type)


def compute_zeros(shape, type=None):
    """Zeros of ``shape`` and ``type``."""
    return K.zeros(shape, type)


def compute_eye(n, m, t):
    """An n x m identity matrix of type ``t``."""
    return K.eye(n, m, t)


def compute_l2_normalize(x, *, axis, epsilon):
    """``x / sqrt(max(sum(x^2, axis), epsilon))``."""
    return A.l2_normalize(x, compute_single_axis(axis), epsilon)


def compute_squared_difference(x, y):
    """``(x - y)^2``."""
    diff = E.sub(x, y)
    return E.mul(diff, diff)


def compute_print(*inputs):
    """Print the inputs (at run time inside compiled graphs)."""
    from .effects import runtime_print
    return runtime_print(*inputs)


def compute_depend(value, expr):
    """``value`` (an ordering hint in MindSpore graphs)."""
    return value


def compute_assign(variable, value):
    """Write ``value`` into the Parameter ``variable``; returns it."""
    variable.assign_value(value)
    return variable


def compute_random(sampler):
    def compute(shape, *, seed, seed2):
        return sampler(shape)
    compute.__doc__ = f"{sampler.__name__} samples of ``shape``."
    return compute


def compute_slice(x, begin, size):
    """``x[begin[i] : begin[i] + size[i]]`` per axis (a size of -1 takes the rest)."""
    index = tuple(slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))
    return I.getitem(x, index)


def compute_elu(x, *, alpha):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    return E.where(E.gt(x, 0), x, E.mul(E.expm1(x), alpha))


def compute_bias_add(x, bias, *, data_format):
    """Add a per-channel bias."""
    return A.bias_add(x, bias, data_format)


def compute_kl_div(logits, labels, *, reduction):
    """``labels * (log(labels) - logits)``, reduced."""
    return LOSS.kl_div(logits, labels, reduction)


def compute_bce_with_logits(logits, label, weight, pos_weight, *, reduction):
    """Binary cross entropy of sigmoid(logits)."""
    return LOSS.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, reduction)


def compute_binary_cross_entropy(logits, labels, weight=None, *, reduction):
    """Binary cross entropy of probabilities."""
    return LOSS.binary_cross_entropy(logits, labels, weight, reduction)


def compute_smooth_l1(prediction, target, *, beta, reduction):
    """Quadratic below ``beta``, linear above."""
    return LOSS.smooth_l1_loss(prediction, target, beta, reduction)


def compute_nll(logits, labels, weight=None, *, reduction, ignore_index):
    """(loss, total weight) of class indices under log-probabilities."""
    loss = LOSS.nll_loss(logits, labels, weight, ignore_index, reduction)
    valid = E.ne(labels, ignore_index)
    counted = E.cast(valid, logits.dtype)
    if weight is not None:
        safe = E.where(valid, labels, E.zeros_like(labels))
        counted = E.mul(counted, I.gather(coerce.as_tensor(weight, logits.dtype), safe, 0))
    return loss, R.sum(counted)


def compute_reduce_std(x, *, axis, unbiased, keep_dims):
    """(standard deviation, mean) over ``axis`` (all axes when empty)."""
    axis = None if axis in ((), []) else axis
    return (R.std(x, axis, 1 if unbiased else 0, keep_dims),
            R.mean(x, axis, keep_dims=keep_dims))


def compute_mod(x, y):
    """Remainder with the sign of the dividend (C's fmod): ``x - y * trunc(x / y)``."""
    x, y = coerce.coerce_pair(x, y, "Mod")
    q = E.div(x, y)
    truncated = E.where(E.lt(q, 0), E.ceil(q), E.floor(q))
    return E.sub(x, E.mul(y, E.cast(truncated, x.dtype)))


def compute_range(start, end, step, *, maxlen):
    """``start, start + step, ...`` below ``end``."""
    values = [v.item() if hasattr(v, "item") else v for v in (start, end, step)]
    dtype = coerce.as_tensor(start).dtype
    return K.arange(*values, dtype=dtype)


def compute_tensor_shape(x):
    """The shape as an int64 tensor."""
    return coerce.constant(list(coerce.as_tensor(x).shape), dt.int64)


def compute_while_loop(cond_func, loop_func, init_val):
    """``while cond_func(val): val = loop_func(val)`` (a graph loop inside jit)."""
    return loops.while_loop(cond_func, loop_func, init_val)


def compute_fori_loop(lower, upper, loop_func, init_val, unroll=True):
    """``for i in range(lower, upper): val = loop_func(i, val)``."""
    return loops.fori_loop(lower, upper, loop_func, init_val)


def compute_scan_op(loop_func, init, xs, length=None, unroll=True):
    """``(carry, [y for each x])`` of ``carry, y = loop_func(carry, x)`` over ``xs`` (a
    sequence, or a tensor's leading axis; None with ``length``)."""
    if isinstance(xs, (tuple, list)):
        xs = S.stack([coerce.as_tensor(x, op="Scan") for x in xs]) if xs else None
        length = length if xs is None else None
    carry, ys = loops.scan(loop_func, init, xs, length)
    steps = ys.shape[0] if ys is not None and hasattr(ys, "shape") else length
    return carry, [I.getitem(ys, t) for t in range(steps)] if ys is not None else []


def compute_lp_norm(input, *, axis, p, keep_dims, epsilon):
    """``LpNorm``: ``max((sum |x| ** p) ** (1 / p), epsilon)`` over ``axis`` (an int or a
    tuple of distinct ints); ``p`` an int >= 0, 0 counting the non-zeros. The gradient at
    a zero vector is 0, as MindSpore's."""
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"LpNorm: 'p' must be an int, got {type(p).__name__}")
    if p < 0:
        raise ValueError(f"LpNorm: 'p' must be an int >= 0, got {p}")
    x = coerce.as_tensor(input, op="LpNorm")
    if not dt.is_float(x.dtype):
        raise TypeError(f"LpNorm: the input must be a float tensor, got {x.dtype}")
    axes = coerce.normalize_axes(list(axis) if isinstance(axis, (tuple, list)) else axis,
                                 x.ndim, "LpNorm")
    if isinstance(axis, (tuple, list)) and len(set(axes)) != len(axis):
        raise ValueError(f"LpNorm: the axes must be different, got {axis}")
    if p == 0:
        norm = R.sum(E.cast(E.not_equal(x, 0), x.dtype), axes, keep_dims)
    elif p == 1:
        norm = R.sum(E.abs(x), axes, keep_dims)
    elif p == 2:
        norm = R._safe_sqrt(R.sum(E.mul(x, x), axes, keep_dims))
    else:
        total = R.sum(E.pow(E.abs(x), float(p)), axes, keep_dims)
        positive = E.gt(total, 0)   # pow's gradient at 0 would be inf * 0
        norm = E.where(positive, E.pow(E.where(positive, total, E.ones_like(total)),
                                       1.0 / p), E.zeros_like(total))
    return E.maximum(norm, epsilon)


def compute_pad_v3(x, paddings, constant_value=None, *, mode, paddings_contiguous):
    """``PadV3``: ``ops.pad`` with MindSpore's mode names ('edge' for 'replicate');
    ``paddings`` (a tuple or an int tensor) holds (before, after) pairs from the last axis,
    or, with ``paddings_contiguous=False``, all the befores and then all the afters."""
    flat = list(coerce.as_shape(paddings, "PadV3"))
    if not paddings_contiguous:
        half = len(flat) // 2
        flat = [p for pair in zip(flat[:half], flat[half:]) for p in pair]
    names = {"constant": "constant", "reflect": "reflect", "edge": "replicate",
             "circular": "circular"}
    if mode not in names:
        raise ValueError(f"PadV3: mode must be one of {list(names)}, got {mode!r}")
    if mode != "constant":
        return S.pad(x, tuple(flat), names[mode])
    value = None if constant_value is None else coerce.as_tensor(constant_value).item()
    return S.pad(x, tuple(flat), "constant", value)


def compute_padding(x, *, pad_dim_size):
    """``Padding(pad_dim_size)``: widen a last axis of size 1 to ``pad_dim_size`` with
    zeros after the value."""
    x = coerce.as_tensor(x, op="Padding")
    if x.ndim < 1 or x.shape[-1] != 1:
        raise ValueError(f"Padding: the last dimension of 'x' must be 1, got shape "
                         f"{tuple(x.shape)}")
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, int) or pad_dim_size < 1:
        raise ValueError(f"Padding: 'pad_dim_size' must be a positive int, got "
                         f"{pad_dim_size!r}")
    return S.pad(x, (0, pad_dim_size - 1))
