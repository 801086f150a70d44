"""tensorjit.numpy: MindSpore 2.10's ``mindspore.numpy`` (NumPy's API on tensors).

``import tensorjit.numpy as mnp`` replaces ``import mindspore.numpy as mnp``. Every
function takes Tensors, numbers or (nested) lists and returns Tensors. Functions are
built from ``tensorjit.ops``, so they run under ``tensorjit.jit`` (every capture mode and
level) and differentiate; the few whose result size depends on the data (``unique``,
``intersect1d``, ``setdiff1d``, ``argwhere``, ``where(cond)``, ``histogram*``,
``bincount`` without ``length``) compute eagerly on the host, as MindSpore's CPU
versions do outside graphs, and say so.

Defaults, as measured on MindSpore 2.10 (``tests/numpy/record_mindspore.py``):

- Python ints become int32 and Python floats float32 (``array([1])`` is int32,
  ``array([1.0])`` float32; NumPy scalars too; a NumPy array keeps its dtype, which
  MindSpore refuses with a TypeError). In elementwise operations a Python number is such
  a tensor before promotion: int8 tensor + 2 is int32, float16 tensor + 2.5 float32.
- ``arange`` of ints is int32, of floats float32; ``zeros`` / ``ones`` / ``empty`` /
  ``eye`` / ``identity`` / ``tri`` / ``linspace`` / ``logspace`` / ``geomspace`` /
  ``rand`` / ``randn`` are float32; ``full`` takes the fill value's dtype (int32 /
  float32 / bool); ``randint`` and ``indices`` are int32.
- ``sum`` of integers or bools is int64; ``mean`` / ``average`` keep an integer dtype
  (truncating); ``cumsum`` / ``cumprod`` of small integers and bools are int32;
  ``argmax`` is int64 and ``argmin`` int32; ``count_nonzero`` int32; ``std`` / ``var`` /
  ``gradient`` / ``trapz`` / ``interp`` / ``polyval`` / ``polyint`` of integers are
  float32; ``histogram`` counts and ``bincount`` are float32; ``unique`` keeps the
  order of first appearance; ``trace`` of integers is int64, as ``sum``.
- Float functions (``sqrt``, ``sin``, ``exp``, ``log`` ...) of integer tensors compute in
  float32; ``ceil`` / ``floor`` / ``trunc`` / ``rint`` / ``fix`` of integers give float32;
  ``exp2``, ``reciprocal`` and ``power`` keep an integer dtype (2 ** -1 is 0).

Differences from MindSpore (where MindSpore raises and Python has a clear answer, this
module keeps the answer): integer inputs to ``exp`` / ``log`` / ``log1p`` / ``log2`` /
``logaddexp`` / ``fabs`` / ``positive`` / ``rint`` / ``floor`` and NumPy arrays to
``array`` are accepted; ``where(condition)`` returns the indices; ``signbit(-0.0)`` is
True (NumPy's); ``nanmin`` / ``nanmax`` of all-nan slices are nan; ``gradient`` accepts
edge_order=2 and coordinate spacings; ``pad`` supports 'median';
``ravel_multi_index`` returns int32 (MindSpore's CPU result is float32); ``piecewise``
keeps x's dtype; ``squeeze`` of a non-1 axis raises ValueError (NumPy's) where
MindSpore returns the input; ``var`` / ``std`` of integers use the exact mean (MindSpore
truncates it first: ``var([1, 2])`` is 0.5 there, 0.25 here), and ``mean(int_tensor,
dtype=float64)`` is the exact mean (MindSpore's is truncated); ``bincount`` refuses
negative values (ValueError) where MindSpore's CPU kernel miscounts them. Kept from
MindSpore against NumPy: ``unique`` in order of first appearance, ``heaviside`` gives x2
at nan, integer ``mean`` / ``exp2`` / ``reciprocal`` / ``power`` stay integer.
"""
from types import ModuleType as _ModuleType

from ..dtype import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                      float16, float32, float64, int_, float_)
from .creation import (array, asarray, asfarray, zeros, ones, empty, full, zeros_like,
                       ones_like, empty_like, full_like, arange, linspace, logspace,
                       geomspace)
from .matrices import (eye, identity, tri, tril, triu, diag, diagflat, indices, meshgrid, ix_,
                       vander, hamming, hanning, blackman, bartlett, tril_indices,
                       triu_indices, tril_indices_from, triu_indices_from, diag_indices, rand,
                       randn, randint, mgrid, ogrid)
from .elementwise import FUNCTIONS as _ELEMENTWISE, fix, divmod, clip  # noqa: A004
from .manipulation import (reshape, ravel, transpose, swapaxes, moveaxis, rollaxis,
                           expand_dims, squeeze, broadcast_to, broadcast_arrays, atleast_1d,
                           atleast_2d, atleast_3d, concatenate, stack, hstack, vstack, dstack,
                           column_stack, append, split, array_split, hsplit, vsplit, dsplit)
from .reordering import flip, fliplr, flipud, roll, rot90, tile, repeat, pad
from .indexing import (take, take_along_axis, choose, diagonal, trace, where, select, piecewise,
                       apply_along_axis, apply_over_axes, ravel_multi_index, unravel_index,
                       size, array_str)
from .reductions import (sum, mean, average, amax, amin, max, min, argmax, argmin, var,  # noqa
                         std, ptp, nansum, nanmean, nanmax, nanmin, nanvar, nanstd, cumsum,
                         cumprod, nancumsum)
from .differences import diff, ediff1d, gradient, trapz, interp, unwrap
from .statistics import (count_nonzero, cov, corrcoef, searchsorted, digitize,
                         histogram_bin_edges, histogram, histogramdd, histogram2d, bincount,
                         correlate, convolve)
from .linalg import tensordot, dot, matmul, inner, outer, multi_dot, kron, cross, norm
from .polynomial import polyadd, polysub, polymul, polyval, polyder, polyint
from .sets import unique, intersect1d, setdiff1d, isin, in1d, argwhere
from .logic import (array_equal, array_equiv, isclose, sometrue, isscalar, promote_types,
                    result_type)

globals().update(_ELEMENTWISE)

__all__ = sorted(name for name, value in globals().items() if not name.startswith("_") and
                 not isinstance(value, _ModuleType))     # the topic modules are not API names
