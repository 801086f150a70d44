"""MindSpore's math, creation and random operator classes added with issue 36's math
family, as rows for the factory of ``operations.py``: ``(class name, compute, attributes
with defaults)``. Classes MindSpore 2.10 has no CPU kernel for (Fmin, LerpScalar,
EuclideanNorm, AccumulateNV2, Einsum, MatrixExp, HistogramFixedWidth, Fills, Gamma,
Poisson) follow its documentation and the functional op they name."""
from . import array_extra as AX
from . import gamma_sampling as GS
from . import math_extra as MX
from . import special_extra as SX
from .binary import lerp
from .decompositions import matrix_exp
from .einsum import einsum
from .special_binary import fmin
from .. import dtype as dt

__all__ = ["ROWS"]


def _lerp_scalar(input, end, weight):
    """``LerpScalar()(input, end, weight)``: ``input + weight * (end - input)``, ``weight``
    a float."""
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(f"LerpScalar: weight must be a number, got {type(weight).__name__}")
    return lerp(input, end, float(weight))


def _log_space(start, end, *, steps, base, dtype):
    return MX.log_space(start, end, steps, base, dtype, "LogSpace")


def _einsum(operands, *, equation):
    return einsum(equation, *operands)


ROWS = [
    ("Addcdiv", MX.addcdiv, {}),
    ("Addcmul", MX.addcmul, {}),
    ("DivNoNan", MX.div_no_nan, {}),
    ("MulNoNan", MX.mul_no_nan, {}),
    ("Fmin", fmin, {}),
    ("Rint", MX.rint, {}),
    ("Invert", MX.invert, {}),
    ("PopulationCount", MX.population_count, {}),
    ("LerpScalar", _lerp_scalar, {}),
    ("SquareSumAll", SX.square_sum_all, {}),
    ("EuclideanNorm", AX.euclidean_norm, dict(keep_dims=False)),
    ("AccumulateNV2", MX.accumulate_n, {}),
    ("IdentityN", AX.identity_n, {}),
    ("LogSpace", _log_space, dict(steps=10, base=10, dtype=dt.float32)),
    ("Einsum", _einsum, dict(equation=None)),
    ("Zeta", SX.zeta, {}),
    ("Mvlgamma", lambda x, *, p: SX.mvlgamma(x, p), dict(p=None)),
    ("Betainc", SX.betainc, {}),
    ("MatrixExp", matrix_exp, {}),
    ("CheckNumerics", SX.check_numerics, {}),
    ("Histogram", AX.histogram, dict(bins=100, min=0.0, max=0.0)),
    ("HistogramFixedWidth", AX.histogram_fixed_width, dict(nbins=None, dtype="int32")),
    ("FillV2", AX.fill_v2, {}),
    ("Fills", AX.fills, {}),
    ("FillDiagonal", AX.fill_diagonal, dict(fill_value=None, wrap=False)),
    ("CompareAndBitpack", AX.compare_and_bitpack, {}),
    ("ListDiff", AX.list_diff, dict(out_idx=dt.int32)),
    ("RaggedRange", AX.ragged_range, dict(Tsplits=None)),
    ("DataFormatDimMap", AX.data_format_dim_map, dict(src_format="NHWC", dst_format="NCHW")),
    ("DataFormatVecPermute", AX.data_format_vec_permute,
     dict(src_format="NHWC", dst_format="NCHW")),
    ("ConjugateTranspose", AX.conjugate_transpose, {}),
    ("RandomGamma", GS.compute_random_gamma, dict(seed=0, seed2=0)),
    ("Gamma", GS.compute_gamma, dict(seed=0, seed2=0)),
    ("RandomPoisson", GS.compute_random_poisson, dict(seed=0, seed2=0, dtype=dt.int64)),
    ("Poisson", GS.compute_poisson, dict(seed=0, seed2=0)),
]
