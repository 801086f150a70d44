"""``tensorjit.mint``: MindSpore's PyTorch-style API (``mindspore.mint``) over tensorjit.ops.

Names whose PyTorch signature is a renaming of an ops function come from one table
(``TABLE``: name, signature, target, renamed arguments, example) through
``_translate.translated``; the rest, whose semantics differ (``max(input, dim)`` returning
values and indices, ``alpha`` / ``beta`` scales, ...), are small functions in
``_reductions``, ``_arithmetic``, ``_arrays`` and ``_creation``. Submodules: ``nn``
(layers; ``nn.functional``), ``optim``, ``linalg``, ``special``, ``distributed``.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> out = mint.sum(ms.Tensor([[1., 2.], [3., 4.]]), dim=0)
"""
import numpy as np

from .. import dtype as dt
from .. import ops
from ._translate import translated as _translated
from ._reductions import (sum, prod, mean, nansum, max, min, amax, amin, argmax, argmin, all,
                          any, count_nonzero, logsumexp, var, std, var_mean, std_mean, median,
                          kthvalue, norm, trace, histc, batch_norm_stats,
                          batch_norm_elemt, batch_norm_gather_stats_with_counts)
from ._arithmetic import (add, sub, div, addcdiv, addmm, addbmm, addmv, baddbmm, addr_, mv,
                          vdot, cross, cdist, einsum, triangular_solve)
from ._arrays import (permute, t, squeeze, hstack, dstack, narrow, select, index_select,
                      gather, scatter, scatter_add, index_add, take, masked_select, where,
                      nonzero, diag, diff, meshgrid, repeat_interleave, searchsorted, sort,
                      argsort, topk, unique_consecutive, bincount, clone, conv_tbc)
from ._creation import (zeros, empty, empty_like, full, eye, arange, rand, randn, rand_like,
                        randn_like, randint, randint_like, randperm, normal, bernoulli,
                        multinomial)

_X = "ms.Tensor([0.5, 1.5])"
_XY = "ms.Tensor([0.5, 1.5]), ms.Tensor([2., 0.5])"
_M = "ms.Tensor([[1., 2.], [3., 4.]])"
_IJ = "ms.Tensor([6, 3]), ms.Tensor([4, 5])"

# elementwise functions of one tensor, same meaning as ops: mint.<name>(input)
_UNARY = ("abs ceil cos exp expm1 floor log log1p neg negative reciprocal rsqrt sigmoid "
          "sign sin sqrt square tan tanh erf atan arctan isfinite isinf isnan logical_not "
          # added to ops by the elementwise-math work; taken when present
          "acos acosh arccos arccosh arcsin arcsinh arctanh asin asinh atanh cosh sinh erfc "
          "erfinv exp2 log10 log2 sinc frac isneginf").split()
# elementwise functions of two tensors: mint.<name>(input, other)
_BINARY = ("mul maximum minimum atan2 arctan2 eq ne not_equal gt greater greater_equal lt "
           "less le less_equal logical_and logical_or logical_xor bitwise_and bitwise_or "
           "bitwise_xor remainder matmul dot "
           "fmod gcd logaddexp logaddexp2 xlogy").split()


def _bitwise_not(input):
    """``~input``: logical not for bools, ``-input - 1`` (two's complement) for signed
    integers, ``max - input`` for unsigned ones."""
    if input.dtype == dt.bool_:
        return ops.logical_not(input)
    if input.dtype.kind == "u":
        return ops.sub(ops.full_like(input, np.iinfo(input.dtype).max), input)
    if input.dtype.kind != "i":
        raise TypeError(f"mint.bitwise_not: expected a bool or integer tensor, got "
                        f"{input.dtype}")
    return ops.sub(ops.neg(input), 1)


def _round(input, decimals):
    if decimals == 0:
        return ops.round(input)
    scale = 10.0 ** decimals
    return ops.div(ops.round(ops.mul(input, scale)), scale)


def _int_to_int64(input, dtype):
    """PyTorch's cumulative sums and products of integers and bools run in int64."""
    if dtype is None and input.dtype.kind in "biu":
        return dt.int64
    return dtype


def _real_only(input, name, result):
    """tensorjit has no complex dtypes: the real part of a real tensor is itself, its
    imaginary part zero."""
    if input.dtype.kind == "c":
        raise TypeError(f"mint.{name}: complex tensors are not supported")
    return result


# (name, mint signature, target, {mint argument: target argument}, example call)
TABLE = [
    ("pow", "input, exponent", ops.pow, None, f"mint.pow({_X}, 2)"),
    ("float_power", "input, exponent", getattr(ops, "float_power", None), None,
     f"mint.float_power({_X}, 2)"),
    ("floor_divide", "input, other", ops.floor_div, None, f"mint.floor_divide({_XY})"),
    ("divide", "input, other, *, rounding_mode=None", div, None, f"mint.divide({_XY})"),
    ("clamp", "input, min=None, max=None", ops.clamp, None, f"mint.clamp({_X}, 0., 1.)"),
    ("lerp", "input, end, weight", ops.lerp, None, f"mint.lerp({_XY}, 0.5)"),
    ("isclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False", ops.isclose, None,
     f"mint.isclose({_XY})"),
    ("round", "input, *, decimals=0", lambda input, decimals: _round(input, decimals), None,
     f"mint.round({_X})"),
    ("nan_to_num", "input, nan=None, posinf=None, neginf=None",
     getattr(ops, "nan_to_num", None), None, f"mint.nan_to_num({_X})"),
    ("bitwise_not", "input", getattr(ops, "bitwise_not", None) or _bitwise_not, None,
     "mint.bitwise_not(ms.Tensor([1, 2]))"),
    ("softmax", "input, dim, *, dtype=None", ops.softmax, {"dim": "axis"},
     f"mint.softmax({_M}, dim=1)"),
    ("npu_gelu", "input, approximate='none'", ops.gelu, None, f"mint.npu_gelu({_X})"),
    ("mm", "input, mat2", ops.mm, None, f"mint.mm({_M}, {_M})"),
    ("bmm", "input, mat2", ops.bmm, None, "mint.bmm(ms.Tensor([[[1.]]]), "
     "ms.Tensor([[[2.]]]))"),
    ("outer", "input, vec2", ops.outer, None, f"mint.outer({_XY})"),
    ("cumsum", "input, dim, dtype=None", lambda input, dim, dtype: ops.cumsum(
        input, dim, _int_to_int64(input, dtype)), None, f"mint.cumsum({_M}, 0)"),
    ("cumprod", "input, dim, dtype=None", lambda input, dim, dtype: ops.cumprod(
        input, dim, _int_to_int64(input, dtype)), None, f"mint.cumprod({_M}, 0)"),
    ("cummax", "input, dim", ops.cummax, {"dim": "axis"}, f"mint.cummax({_M}, 0)"),
    ("cummin", "input, dim", ops.cummin, {"dim": "axis"}, f"mint.cummin({_M}, 0)"),
    ("reshape", "input, shape", ops.reshape, None, f"mint.reshape({_M}, (4,))"),
    ("flatten", "input, start_dim=0, end_dim=-1", ops.flatten,
     {"start_dim": "start_dim", "end_dim": "end_dim"}, f"mint.flatten({_M})"),
    ("ravel", "input", ops.ravel, None, f"mint.ravel({_M})"),
    ("unsqueeze", "input, dim", ops.unsqueeze, {"dim": "axis"}, f"mint.unsqueeze({_X}, 0)"),
    ("transpose", "input, dim0, dim1", ops.swapaxes, {"dim0": "axis0", "dim1": "axis1"},
     f"mint.transpose({_M}, 0, 1)"),
    ("swapaxes", "input, axis0, axis1", ops.swapaxes, None, f"mint.swapaxes({_M}, 0, 1)"),
    ("flip", "input, dims", ops.flip, None, f"mint.flip({_M}, (0,))"),
    ("tile", "input, dims", ops.tile, None, f"mint.tile({_X}, (2,))"),
    ("broadcast_to", "input, shape", ops.broadcast_to, None,
     f"mint.broadcast_to({_X}, (3, 2))"),
    ("cat", "tensors, dim=0", ops.cat, {"dim": "axis"}, f"mint.cat([{_X}, {_X}])"),
    ("concat", "tensors, dim=0", ops.cat, {"dim": "axis"}, f"mint.concat([{_X}, {_X}])"),
    ("stack", "tensors, dim=0", ops.stack, {"dim": "axis"}, f"mint.stack([{_X}, {_X}], 1)"),
    ("split", "tensor, split_size_or_sections, dim=0", ops.split, {"dim": "axis"},
     f"mint.split({_M}, 1)"),
    ("chunk", "input, chunks, dim=0", ops.chunk, {"dim": "axis"}, f"mint.chunk({_M}, 2)"),
    ("unbind", "input, dim=0", ops.unbind, None, f"mint.unbind({_M}, 1)"),
    ("tril", "input, diagonal=0", ops.tril, None, f"mint.tril({_M})"),
    ("triu", "input, diagonal=0", ops.triu, None, f"mint.triu({_M})"),
    ("full_like", "input, fill_value, *, dtype=None", ops.full_like, None,
     f"mint.full_like({_X}, 7.)"),
    ("zeros_like", "input, *, dtype=None", ops.zeros_like, None, f"mint.zeros_like({_X})"),
    ("ones_like", "input, *, dtype=None", ops.ones_like, None, f"mint.ones_like({_X})"),
    ("allclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False",
     lambda input, other, rtol, atol, equal_nan: bool(ops.all(ops.isclose(
         input, other, rtol, atol, equal_nan)).asnumpy()), None, f"mint.allclose({_XY})"),
    ("real", "input", lambda input: _real_only(input, "real", input), None, f"mint.real({_X})"),
    ("imag", "input", lambda input: _real_only(input, "imag", ops.zeros_like(input)), None,
     f"mint.imag({_X})"),
    ("roll", "input, shifts, dims=None", ops.roll, None, "mint.roll(ms.Tensor([1., 2., 3.]), 1)"),
    ("inverse", "input", ops.inverse, None, f"mint.inverse({_M})"),
]


_SUMMARY = {
    "pow": "``input ** exponent``.", "float_power": "``input ** exponent`` in float64.",
    "floor_divide": "``floor(input / other)``.", "divide": "``div`` (its other name).",
    "clamp": "``input`` limited to [``min``, ``max``].",
    "lerp": "``input + weight * (end - input)``.",
    "isclose": "``|input - other| <= atol + rtol * |other|``, elementwise.",
    "round": "Round half to even, to ``decimals`` decimal places.",
    "nan_to_num": "NaN, +inf and -inf replaced by finite numbers.",
    "bitwise_not": "Bitwise (bools: logical) not.",
    "softmax": "Softmax along ``dim``; ``dtype`` casts the input first.",
    "npu_gelu": "GELU (``approximate``: ``'none'`` or ``'tanh'``).",
    "mm": "Product of two matrices.", "bmm": "Batched matrix product.",
    "outer": "Outer product of two vectors.",
    "cumsum": "Cumulative sum along ``dim`` (integers and bools in int64).",
    "cumprod": "Cumulative product along ``dim`` (integers and bools in int64).",
    "cummax": "(running maximum, int64 index of it) along ``dim``.",
    "cummin": "(running minimum, int64 index of it) along ``dim``.",
    "reshape": "``input`` with a new shape (one entry may be -1).",
    "flatten": "Axes ``start_dim`` .. ``end_dim`` merged into one.",
    "ravel": "``input`` as a 1-D tensor.", "unsqueeze": "A new axis of size 1 at ``dim``.",
    "transpose": "Axes ``dim0`` and ``dim1`` swapped.",
    "swapaxes": "Axes ``axis0`` and ``axis1`` swapped.", "flip": "Reverse along ``dims``.",
    "tile": "``input`` repeated ``dims`` times along each axis.",
    "broadcast_to": "``input`` broadcast to ``shape``.",
    "cat": "Join tensors along ``dim``.", "concat": "``cat`` (its other name).",
    "stack": "Join tensors along a new axis ``dim``.",
    "split": "Pieces of ``split_size_or_sections`` along ``dim``.",
    "chunk": "``chunks`` near-equal pieces along ``dim``.",
    "unbind": "The slices along ``dim``, each without that axis.",
    "tril": "Lower triangle (below diagonal ``diagonal``), the rest zero.",
    "triu": "Upper triangle (above diagonal ``diagonal``), the rest zero.",
    "full_like": "A tensor like ``input`` filled with ``fill_value``.",
    "zeros_like": "Zeros like ``input``.", "ones_like": "Ones like ``input``.",
    "allclose": "Whether every element is ``isclose`` (a Python bool: reads the values).",
    "real": "The real part: the tensor itself (tensorjit has no complex dtypes).",
    "imag": "The imaginary part: zeros (tensorjit has no complex dtypes).",
    "roll": "Rotate elements along ``dims`` by ``shifts`` (the flattened tensor when None).",
    "inverse": "Inverse of square float32 / float64 matrices (..., n, n).",
}


def _build():
    made = {}
    for name in _UNARY:
        target = getattr(ops, name, None)
        if target is not None:
            made[name] = _translated(name, "input", target, None, f"Elementwise ``{name}``.",
                                     f"mint.{name}({_X})")
    for name in _BINARY:
        target = getattr(ops, name, None)
        if target is not None:
            integers = name.startswith("bitwise") or name == "gcd"
            made[name] = _translated(name, "input, other", target, None,
                                     f"Elementwise ``{name}`` of two tensors (broadcast).",
                                     f"mint.{name}({_IJ if integers else _XY})")
    for name, spec, target, rename, example in TABLE:
        if target is not None:
            made[name] = _translated(name, spec, target, rename, _SUMMARY.get(name, ""),
                                     example)
    return made


globals().update(_build())
from . import nn, optim, linalg, special, distributed  # noqa: E402

# MindSpore's mint.__all__ also lists these names of its submodules (layers, functional,
# optimizers, linear algebra, collectives); the first submodule having one provides it
_ELSEWHERE = (
    "Adam AdamW AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
    "AdaptiveMaxPool2d AvgPool1d AvgPool2d AvgPool3d BCELoss BCEWithLogitsLoss BatchNorm1d "
    "BatchNorm2d BatchNorm3d ConstantPad1d ConstantPad2d ConstantPad3d Conv1d Conv2d Conv3d "
    "ConvTranspose2d CosineEmbeddingLoss ELU Flatten Fold FusedAdamW GELU GroupNorm Hardshrink "
    "Hardsigmoid Hardswish Hardtanh Identity KLDivLoss L1Loss Linear LogSigmoid LogSoftmax "
    "MSELoss MaxUnpool2d Mish P2POp PReLU PixelShuffle ReLU ReLU6 ReflectionPad1d "
    "ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d SELU "
    "SGD SiLU Sigmoid SmoothL1Loss SoftMarginLoss Softmax SyncBatchNorm Tanh Threshold Unfold "
    "Upsample UpsamplingBilinear2d UpsamplingNearest2d ZeroPad1d ZeroPad2d ZeroPad3d "
    "adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d "
    "adaptive_max_pool2d all_gather all_gather_into_tensor all_gather_into_tensor_uneven "
    "all_gather_object all_reduce all_to_all all_to_all_single avg_pool1d avg_pool2d "
    "avg_pool3d barrier batch_isend_irecv batch_norm binary_cross_entropy "
    "binary_cross_entropy_with_logits broadcast broadcast_object_list conv1d conv2d conv3d "
    "conv_transpose2d cosine_embedding_loss cross_entropy destroy_process_group dropout "
    "dropout2d elu elu_ embedding fold gather_object gelu get_backend get_global_rank "
    "get_group_rank get_process_group_ranks get_rank get_world_size glu grid_sample "
    "group_norm hardtanh hardtanh_ init_process_group interpolate inv irecv is_available "
    "is_initialized isend kl_div layer_norm leaky_relu linear log_softmax logsigmoid "
    "matrix_norm max_pool2d max_unpool2d mse_loss new_group nll_loss normalize one_hot pad "
    "pixel_shuffle prelu qr recv recv_object_list reduce reduce_scatter reduce_scatter_tensor "
    "reduce_scatter_tensor_uneven relu relu6 relu_ scatter_object_list send send_object_list "
    "sigmoid_ silu soft_margin_loss threshold threshold_ unfold upsample vector_norm").split()


def _take_from_submodules():
    for name in _ELSEWHERE:
        for module in (nn, nn.functional, optim, linalg, distributed):
            if hasattr(module, name):
                globals()[name] = getattr(module, name)
                break


_take_from_submodules()
