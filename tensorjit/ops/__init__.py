"""``tensorjit.ops``: the primitive registry and MindSpore's functional API over it."""
import builtins

from .. import dtype as dt
from ..state import state
from .primitive import PRIMITIVES, Primitive
from .coerce import as_tensor, constant
from .elementwise import *  # noqa: F401,F403
from .elementwise import (abs, round, pow, cast, stop_gradient, identity, where, clamp, clip,
                          zeros_like, ones_like)
from .reduction import *  # noqa: F401,F403
from .reduction import sum, max, min, any, all, mean, prod, _safe_sqrt
from .shape import *  # noqa: F401,F403
from .indexing import getitem, setitem_value, index_add, nonzero, masked_fill, gather, \
    gather_elements, take_along_axis
from .linalg import matmul, bmm, mm, dense, outer, dot, tensor_dot
from .creation import full, zeros, ones, full_like, arange, linspace, eye, one_hot, tril, triu
from .conv import conv2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d
from .normalization import softmax, log_softmax, batch_norm, layer_norm
from .random import dropout, set_seed, rand, randn, randint
from .loss import (nll_loss, cross_entropy, softmax_cross_entropy_with_logits, mse_loss,
                   l1_loss, smooth_l1_loss, binary_cross_entropy_with_logits)
from .cumulative import cumsum, cumprod, cummax, cummin, logcumsumexp
from .effects import runtime_print
from .collective import (ReduceOp, AllReduce, AllGather, ReduceScatter, Broadcast, Barrier,
                         all_reduce, all_gather, reduce_scatter, broadcast, reduce, barrier)
from .global_norm import clip_by_global_norm
from .special_math import *  # noqa: F401,F403  (acos, lgamma, bessel_*, hypot, xlogy, ...)
from . import tensor_methods as _tensor_methods  # noqa: F401  (installs Tensor operators)


def assign(variable, value):
    """``ops.assign``: write ``value`` into ``variable`` (a Parameter) in place."""
    return variable.assign_value(value)


def assign_add(variable, value):
    """``ops.assign_add``: ``variable += value`` in place (a Parameter); returns it."""
    return variable.assign_value(add(variable, value))


def assign_sub(variable, value):
    """``ops.assign_sub``: ``variable -= value`` in place (a Parameter); returns it."""
    return variable.assign_value(sub(variable, value))


def depend(value, expr):
    """Ordering hint in MindSpore graphs; execution here is already in program order."""
    return value


def print_(*values):
    """Print, also at run time inside compiled graphs."""
    return runtime_print(*values)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    return gather(weight, input, 0)


def relu6(x):
    return clamp(x, 0.0, 6.0)


def leaky_relu(input, alpha=0.2):
    return where(gt(input, 0), input, mul(input, alpha))


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return clamp(input, min_val, max_val)


def elu(input_x, alpha=1.0):
    # expm1 of the positive side is never used; computing it on 0 there keeps its gradient
    # (0 * exp(x), NaN once exp(x) overflows) out of the result
    negative = where(gt(input_x, 0), zeros_like(input_x), input_x)
    return where(gt(input_x, 0), input_x, mul(expm1(negative), alpha))


def mish(x):
    return mul(x, tanh(softplus(x)))


def normalize(input, p=2.0, dim=1, epsilon=1e-12):
    norm = _safe_sqrt(sum(mul(input, input), dim, keepdims=True)) if p == 2 else \
        pow(sum(pow(abs(input), p), dim, keepdims=True), 1.0 / p)
    if dt.is_float(norm.dtype):    # an epsilon below the dtype's range would round to 0
        epsilon = builtins.max(epsilon, float(dt.smallest_subnormal(norm.dtype)))
    return div(input, maximum(norm, epsilon))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm; its gradient at the zero vector is 0 (``_safe_sqrt``), as in PyTorch."""
    if ord not in (None, 2, "fro"):
        raise ValueError(f"norm: only the 2-norm / Frobenius norm is supported, got {ord!r}")
    return _safe_sqrt(sum(mul(A, A), dim, keepdim))


# ---- MindSpore's functional names added with the operator classes ----------------------
from .sorting import argsort, sort, topk
from .random import normal, uniform, standard_normal, dropout1d, dropout2d, dropout3d
from .activation import (hardswish, hardsigmoid, softplus, logsigmoid, selu, celu, glu, prelu,
                         bias_add, l2_normalize, fast_gelu)
from .loss import kl_div, binary_cross_entropy, cosine_embedding_loss
from .activation import hardshrink, softshrink, threshold, softmin, rrelu, gumbel_softmax
from .loss_extra import (huber_loss, margin_ranking_loss, hinge_embedding_loss,
                         soft_margin_loss, triplet_margin_loss, gaussian_nll_loss,
                         multi_margin_loss, multilabel_soft_margin_loss, multilabel_margin_loss)
from .rolling import roll
from .matrix_inverse import inverse, det, matrix_determinant
from .ctc import ctc_loss
from .normalization import group_norm, instance_norm
from .convolutions import conv1d, conv3d, conv_transpose2d, unfold, extract_patches
from .pooling import avg_pool1d, avg_pool3d, max_pool3d, lp_pool1d, lp_pool2d
from .adaptive_pooling import (adaptive_avg_pool1d, adaptive_avg_pool3d, adaptive_max_pool1d,
                               adaptive_max_pool2d, adaptive_max_pool3d)
from .unpooling import max_unpool1d, max_unpool2d, max_unpool3d
from .fractional_pooling import fractional_max_pool2d, fractional_max_pool3d
from .compat import (rank, size, unstack, select, addn, fill, fills, gather_d, sequence_mask,
                     scalar_to_tensor, baddbmm, is_tensor)
from .loops import scan, while_loop, fori_loop
from .attention import multi_head_attention_forward
from .resize import interpolate, upsample
from .boxes import bounding_box_encode, bounding_box_decode, iou, check_valid
from .grid_sampling import grid_sample, affine_grid
from .crops import crop_and_resize
from .rearrange import pixel_shuffle, pixel_unshuffle, channel_shuffle, repeat_elements
# indexing, scatter / gather, segments, searching, statistics, array manipulation
from .scattering import (tensor_scatter_add, tensor_scatter_sub, tensor_scatter_mul,
                         tensor_scatter_div, tensor_scatter_max, tensor_scatter_min,
                         tensor_scatter_update, tensor_scatter_elements, scatter, scatter_nd,
                         gather_nd, scatter_nd_add, scatter_nd_sub, scatter_nd_mul,
                         scatter_nd_div, scatter_nd_max, scatter_nd_min, scatter_nd_update,
                         scatter_add, scatter_mul, scatter_div, scatter_max, scatter_min,
                         scatter_update, inplace_add, inplace_sub, inplace_update,
                         inplace_index_add)
from .segments import (unsorted_segment_sum, unsorted_segment_max, unsorted_segment_min,
                       unsorted_segment_prod)
from .stacking import (atleast_1d, atleast_2d, atleast_3d, hstack, vstack, row_stack, dstack,
                       column_stack, tensor_split, hsplit, vsplit, dsplit, fliplr, flipud,
                       rot90, moveaxis)
from .slicing import (slice_tensor as slice, narrow, strided_slice, select_scatter,
                      slice_scatter, reverse, reverse_sequence, index_select, index_fill,
                      masked_select, take, space_to_batch_nd, batch_to_space_nd)
from .arrays import t, expand, expand_as, meshgrid, diff, vander, trapz, numel
from .searching import (searchsorted, bucketize, bincount, histc, unique, unique_with_pad,
                        unique_consecutive, argwhere, top_k, intopk, msort)
from .statistics import (median, nanmedian, quantile, nanquantile, nansum, nanmean,
                         count_nonzero, std_mean, var_mean, aminmax, vecdot, vector_norm)
# transforms' helpers, Python-value helpers, sampling, windows, in-place helpers (issue 36)
from .multitype import partial, MultitypeFuncGraph, HyperMap, Map
from .python_values import *  # noqa: F401,F403  (constexpr, dtype, scalar_add, tuple_len, ...)
from .sampling import *  # noqa: F401,F403  (bernoulli, multinomial, randperm, shuffle, ...)
from .windows import *  # noqa: F401,F403  (hann_window, kaiser_window, ...)
from .inplace import *  # noqa: F401,F403  (zero_, clamp_, put_, normal_, stop_gradient_, ...)
from .einsum import einsum, einsum_ext
from .matrix_structure import (diagonal, diag, diagflat, diag_embed, diagonal_scatter, trace,
                               tril_indices, triu_indices, block_diag, cartesian_prod,
                               combinations, adjoint)
from .matrix_bands import matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from .matrix_products import (kron, inner, ger, mv, addmm, addbmm, addmv, addr, baddbmm_ext,
                              batch_dot, cross, inv)
from .decompositions import (cholesky, cholesky_inverse, cholesky_solve, matrix_solve, svd, pinv,
                             lstsq, slogdet, logdet, log_matrix_determinant, matrix_exp,
                             matrix_power, lu_solve, lu_unpack)
from .householder import geqrf, orgqr, ormqr, qr
from .norms import matrix_norm, cdist, pdist, dist, renorm, cov
# sparse tensors and MindSpore's functions on them (coo_*, csr_*, coalesce, ...)
from .sparse import ELEMENTWISE as _SPARSE_ELEMENTWISE
from .sparse import (coo2csr, csr2coo, csr_to_coo, csr_to_dense, dense_to_sparse_coo,
                     dense_to_sparse_csr, coalesce, make_coo_tensor, make_csr_tensor,
                     make_sparse_tensor, make_row_tensor, make_row_tensor_inner,
                     coo_tensor_get_indices, coo_tensor_get_values, coo_tensor_get_dense_shape,
                     csr_tensor_get_indptr, csr_tensor_get_indices, csr_tensor_get_values,
                     csr_tensor_get_dense_shape, row_tensor_get_indices, row_tensor_get_values,
                     row_tensor_get_dense_shape, csr_mul, csr_div, csr_mv, csr_mm,
                     csr_reduce_sum, csr_gather, csr_softmax, csr_add, coo_add, coo_concat,
                     row_tensor_add, sparse_segment_mean)
globals().update(_SPARSE_ELEMENTWISE)
from .custom import Custom            # user-defined operators: pyfunc, hybrid (ops.kernel), aot
from .custom_registration import CustomRegOp, DataType, custom_info_register
from .hybrid import kernel, ms_kernel
from .math_extra import *  # noqa: F401,F403  (addcmul, population_count, range, logspace, ...)
from .special_extra import zeta, mvlgamma
from .gamma_sampling import random_gamma, gamma, random_poisson, poisson
from .nn_functions import *  # noqa: F401,F403  (rms_norm, lrn, swiglu, clip_by_norm, ...)
from .patches import fold, col2im
from .conv_transposed import conv3d_transpose
from .ctc_classes import ctc_greedy_decoder
from .deformable import deformable_conv2d
from .primitive_class import OpPrimitive
from .operations import *  # noqa: F401,F403  (MatMul, ReduceMean, Softmax, ...)
from . import operations
# ``ops.shape(x)`` is MindSpore's function returning the shape; the shape-op module stays
# importable as ``tensorjit.ops.shape`` (modules of this package import it before this).
from .compat import tensor_shape as shape  # noqa: E402,F811
