"""The computations of MindSpore's sampling and window operator classes and of the
classes over Python values (rows of ``operations.py``), following each class's convention:
which values are attributes (``seed``, ``dtype``, ``count``) and which are inputs (a shape
as a tuple or an int tensor, bounds as tensors)."""
from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as E
from . import creation as K
from . import shape as S
from . import sampling as SA
from . import python_values as PV
from .multitype import partial


def _shape_input(shape, op):
    """A shape given as a tuple / list or a 1-D integer tensor."""
    if isinstance(shape, Tensor):
        if not dt.is_int(shape.dtype) or shape.ndim != 1:
            raise TypeError(f"{op}: shape must be a 1-D int tensor or a tuple, got "
                            f"{shape.dtype}{tuple(shape.shape)}")
        coerce.shape_decision()
    shape = coerce.as_shape(shape, op)
    if any(d < 0 for d in shape):
        raise ValueError(f"{op}: shape must not have negative dimensions, got {shape}")
    return shape


def compute_bernoulli(x, p, *, seed, offset):
    """Bernoulli(seed, offset)(x, p): 0 / 1 draws shaped and typed as ``x``."""
    return SA.bernoulli(x, p)


def compute_multinomial(x, num_samples, *, seed, seed2, dtype):
    """Multinomial(seed, seed2, dtype)(x, num_samples): draws with replacement."""
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.int32, dt.int64):
        raise TypeError(f"Multinomial: dtype must be int32 or int64, got {dtype}")
    weights = SA._weights(x, "Multinomial")
    drawn = SA.draw_categories(weights, SA._count(num_samples, "Multinomial"), True,
                               "Multinomial")
    return E.cast(drawn, dtype)


def compute_multinomial_with_replacement(x, seed, offset, *, numsamples, replacement):
    return SA.multinomial_with_replacement(x, seed, offset, numsamples, replacement)


def compute_random_categorical(logits, num_sample, seed=0, *, dtype):
    return SA.random_categorical(logits, num_sample, seed, dtype)


def compute_shuffle(x, *, seed, seed2):
    return SA.shuffle(x)


def compute_standard_laplace(shape, *, seed, seed2):
    return SA.standard_laplace(_shape_input(shape, "StandardLaplace"))


def compute_truncated_normal(shape, *, dtype, seed, seed2):
    """TruncatedNormal(dtype, seed, seed2)(shape): N(0, 1) draws within [-2, 2]."""
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"TruncatedNormal: dtype must be float16, float32 or float64, got "
                        f"{dtype}")
    shape = _shape_input(shape, "TruncatedNormal")
    return E.cast(SA.truncated_normal_draws(shape, -2.0, 2.0), dtype)


def compute_parameterized_truncated_normal(shape, mean, stdevs, min, max, *, seed, seed2):
    """ParameterizedTruncatedNormal()(shape, mean, stdevs, min, max): row ``b`` (the first
    axis of ``shape``) draws from N(mean[b], stdevs[b]^2) within [min[b], max[b]]; the
    parameters are 1-D of one element or of the batch size, of one float dtype."""
    op = "ParameterizedTruncatedNormal"
    shape = _shape_input(shape, op)
    if not shape:
        raise ValueError(f"{op}: shape must have at least one dimension (the batch)")
    params = (mean, stdevs, min, max)
    if not all(isinstance(p, Tensor) and dt.is_float(p.dtype) for p in params):
        raise TypeError(f"{op}: mean, stdevs, min and max must be float tensors")
    if len({p.dtype for p in params}) != 1:
        raise TypeError(f"{op}: mean, stdevs, min and max must have one dtype")
    for p in params:
        if p.ndim != 1 or p.shape[0] not in (1, shape[0]):
            raise ValueError(f"{op}: each parameter must be 1-D of 1 or {shape[0]} elements, "
                             f"got shape {tuple(p.shape)}")
    def per_row(p):
        return S.reshape(E.cast(p, dt.float64), (p.shape[0],) + (1,) * (len(shape) - 1))
    m, s, low, high = (per_row(p) for p in params)
    standard = SA.truncated_normal_draws(shape, E.div(E.sub(low, m), s),
                                         E.div(E.sub(high, m), s))
    return E.cast(E.add(E.mul(standard, s), m), mean.dtype)


def compute_uniform_int(shape, minval, maxval, *, seed, seed2):
    """UniformInt()(shape, minval, maxval): int32 draws in [minval, maxval) (0-d int32
    tensors)."""
    op = "UniformInt"
    for name, v in (("minval", minval), ("maxval", maxval)):
        if not isinstance(v, Tensor) or v.dtype != dt.int32:
            raise TypeError(f"{op}: {name} must be an int32 tensor, got {v!r}")
    coerce.shape_decision()
    return SA.integer_draws(_shape_input(shape, op), int(minval.item()), int(maxval.item()),
                            dt.int32, op)


def compute_cauchy(*, size, median, sigma):
    """Cauchy(size, median, sigma)(): float32 draws of ``size``."""
    shape = _shape_input(size, "Cauchy")
    return E.cast(SA.cauchy_draws(shape, median, sigma), dt.float32)


def compute_log_normal_reverse(input, *, mean, std):
    """LogNormalReverse(mean, std)(input): ``exp(N(mean, std^2))`` shaped and typed as
    ``input`` (float16 / float32)."""
    x = SA._tensor(input, "LogNormalReverse")
    if x.dtype not in (dt.float16, dt.float32):
        raise TypeError(f"LogNormalReverse: the input must be float16 or float32, got "
                        f"{x.dtype}")
    normal = SA.normal_draws(x.shape, dt.float64)
    return E.cast(E.exp(E.add(E.mul(normal, float(std)), float(mean))), x.dtype)


def compute_choice_with_mask(x, *, count, seed, seed2):
    return SA.choice_with_mask(x, count)


def compute_randperm_v2(n, *, seed, offset, dtype):
    return SA.randperm(n, seed, offset, dtype)


def compute_randperm(n, *, max_length, pad, dtype):
    """Randperm(max_length, pad, dtype)(n): a permutation of 0 .. n-1 (``n`` a 1-D int
    tensor of one element) padded with ``pad`` to ``max_length``."""
    op = "Randperm"
    if not isinstance(n, Tensor) or not dt.is_int(n.dtype) or tuple(n.shape) != (1,):
        raise TypeError(f"Randperm: n must be a 1-D int tensor of one element, got {n!r}")
    coerce.shape_decision()
    count = int(n.item())
    if not 0 <= count <= max_length:
        raise ValueError(f"{op}: n must be in [0, max_length = {max_length}], got {count}")
    dtype = dt.as_dtype(dtype)
    permutation = E.cast(SA.permutation(count), dtype)
    padding = K.full((max_length - count,), pad, dtype=dtype)
    return S.concat([permutation, padding], 0)


def compute_non_deterministic_ints(shape, *, dtype):
    """NonDeterministicInts(dtype)(shape): integers over the whole range of int32 / int64,
    from two 32-bit halves (uniform draws scaled to [0, 2^32))."""
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.int32, dt.int64, dt.uint32, dt.uint64):
        raise TypeError(f"NonDeterministicInts: dtype must be int32, int64, uint32 or "
                        f"uint64, got {dtype}")
    shape = _shape_input(shape, "NonDeterministicInts")

    def half():
        return E.cast(E.floor(E.mul(SA.uniform_draws(shape), 2.0 ** 32)), dt.uint64)
    bits = half() if dtype.itemsize == 4 else E.add(E.mul(half(), 2 ** 32), half())
    return E.cast(bits, dtype)      # wraps into the signed range, as a bit pattern


def compute_dtype(x):
    return PV.dtype(x)


def compute_scalar_cast(x, t):
    return PV.scalar_cast(x, t)


def compute_tuple_to_array(x):
    return PV.tuple_to_array(x)


def compute_scalar_to_array(x):
    return PV.scalar_to_array(x)


def compute_eps(x):
    return PV.eps(x)


def compute_partial(fn, *args):
    """Partial()(fn, *args): ``fn`` with its first arguments bound."""
    return partial(fn, *args)
