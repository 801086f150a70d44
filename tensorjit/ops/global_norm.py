"""``clip_by_global_norm``: scale a tuple of tensors (gradients) so that their joint L2 norm
is at most ``clip_norm`` -- composed of ops, so it compiles and differentiates."""
import numbers

from .. import dtype as dt
from ..tensor import Tensor
from .binary import add, div, maximum, mul, square
from .reduction import sum as reduce_sum
from .unary import cast, sqrt
from .coerce import as_tensor

__all__ = ["clip_by_global_norm"]


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """``t * clip_norm / max(global_norm, clip_norm)`` for each ``t`` in ``x``, where
    ``global_norm = sqrt(sum of every element squared)`` (or ``use_norm`` when given);
    each result keeps its tensor's dtype. The norm accumulates in float32 (MindSpore), or
    in float64 when a tensor is float64 (whose precision float32 would lose)."""
    if isinstance(x, Tensor):
        x = (x,)
    if not isinstance(x, (tuple, list)) or not x or not all(isinstance(t, Tensor) for t in x):
        raise TypeError(f"clip_by_global_norm: 'x' must be a Tensor or a non-empty tuple of "
                        f"Tensors, got {type(x).__name__}")
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (numbers.Real, Tensor)):
        raise TypeError(f"clip_by_global_norm: 'clip_norm' must be a float or a Tensor, got "
                        f"{clip_norm!r}")
    wrong = [t.dtype for t in x if not dt.is_float(t.dtype)]
    if wrong:       # a scale in (0, 1] cast to an integer dtype would zero the tensor
        raise TypeError(f"clip_by_global_norm: expected floating-point tensors, got "
                        f"{wrong[0]}")
    if isinstance(clip_norm, numbers.Real) and clip_norm <= 0:
        raise ValueError(f"clip_by_global_norm: 'clip_norm' must be > 0, got {clip_norm}")
    accumulate = "float64" if any(t.dtype == dt.float64 for t in x) else "float32"
    if use_norm is None:
        squares = [reduce_sum(square(cast(t, accumulate))) for t in x]
        total = squares[0]
        for s in squares[1:]:
            total = add(total, s)
        global_norm = sqrt(total)
    else:
        global_norm = cast(as_tensor(use_norm, op="clip_by_global_norm"), accumulate)
    scale = div(clip_norm, maximum(global_norm, clip_norm))
    return tuple(mul(t, cast(scale, t.dtype)) for t in x)
