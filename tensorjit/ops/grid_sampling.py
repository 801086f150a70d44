"""``ops.grid_sample`` (MindSpore's ``GridSampler2D`` / ``GridSampler3D``) and
``ops.affine_grid`` (``AffineGrid``).

grid_sample reads the input at the points of a grid of normalised coordinates in [-1, 1]
(x first, then y, then z): each coordinate is scaled to pixels (corner or centre
convention, ``align_corners``), folded back by the padding mode ("border" clips,
"reflection" mirrors) and read with "nearest" (round half to even) or "bilinear"
(trilinear in 3-D) interpolation, taps outside the input reading 0. The reads are one
``gather_elements`` per corner of the interpolation cell, over the flattened spatial axes,
with weights computed from the grid by elementwise ops: so the result differentiates
with respect to the input and the grid, and compiles in every capture mode. float16
computes in float32.
"""
import itertools

import numpy as np

from .. import dtype as dt
from . import coerce
from .boxes import check_dtype
from .elementwise import (add, sub, mul, div, abs, where, floor, round, clamp, cast,
                          logical_and, ge, le, eq)
from .indexing import gather_elements
from .linalg import matmul
from .shape import reshape, broadcast_to, transpose

__all__ = ["grid_sample", "affine_grid"]

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")


def _unnormalize(g, size, align_corners):
    """Pixel coordinate of the normalised ``g`` on an axis of ``size`` pixels."""
    if align_corners:
        return mul(add(g, 1.0), (size - 1) / 2.0)
    return div(sub(mul(add(g, 1.0), float(size)), 1.0), 2.0)


def _reflect(c, low2, high2):
    """``c`` mirrored into [low2 / 2, high2 / 2] (PyTorch's reflect_coordinates)."""
    if low2 == high2:
        return mul(c, 0.0)
    low, span = low2 / 2.0, (high2 - low2) / 2.0
    c = abs(sub(c, low))
    flips = floor(div(c, span))
    extra = sub(c, mul(flips, span))
    even = eq(sub(flips, mul(floor(div(flips, 2.0)), 2.0)), 0.0)
    return where(even, add(extra, low), add(sub(span, extra), low))


def _source(g, size, padding_mode, align_corners):
    c = _unnormalize(g, size, align_corners)
    if padding_mode == "border":
        return clamp(c, 0.0, float(size - 1))
    if padding_mode == "reflection":
        c = _reflect(c, 0, 2 * (size - 1)) if align_corners else _reflect(c, -1, 2 * size - 1)
        return clamp(c, 0.0, float(size - 1))
    return c


def _read(flat, index, valid, out_shape):
    """``flat`` (N, C, P) at the int64 ``index`` (N, Q); 0 where ``valid`` is false."""
    n, channels = flat.shape[0], flat.shape[1]
    index = where(valid, index, 0)
    picked = gather_elements(flat, 2, broadcast_to(reshape(index, (n, 1, index.shape[1])),
                                                    (n, channels, index.shape[1])))
    return reshape(picked, out_shape)


def _sample(x, grid, mode, padding_mode, align_corners):
    spatial = tuple(x.shape[2:])                      # (H, W) or (D, H, W)
    n, channels, k = x.shape[0], x.shape[1], len(spatial)
    points = tuple(grid.shape[1:-1])
    flat_grid = reshape(grid, (n, int(np.prod(points)), k))
    # grid coordinate j runs along the spatial axis k - 1 - j (x is the last axis)
    coords = [_source(flat_grid[:, :, k - 1 - axis], spatial[axis], padding_mode,
                      align_corners) for axis in range(k)]
    flat = reshape(x, (n, channels, int(np.prod(spatial))))
    strides = [int(np.prod(spatial[axis + 1:])) for axis in range(k)]
    out_shape = (n, channels) + points

    def tap(indices):
        valid, linear = None, None
        for axis, i in enumerate(indices):
            inside = logical_and(ge(i, 0.0), le(i, float(spatial[axis] - 1)))
            valid = inside if valid is None else logical_and(valid, inside)
            term = mul(cast(i, dt.int64), strides[axis])
            linear = term if linear is None else add(linear, term)
        return _read(flat, linear, valid, out_shape), valid

    if mode == "nearest":
        value, valid = tap([round(c) for c in coords])
        return where(reshape(valid, (n, 1) + points), value, 0.0)
    lows = [floor(c) for c in coords]
    fracs = [sub(c, low) for c, low in zip(coords, lows)]
    total = None
    for corner in itertools.product((0, 1), repeat=k):
        weight = None
        for axis, step in enumerate(corner):
            w = fracs[axis] if step else sub(1.0, fracs[axis])
            weight = w if weight is None else mul(weight, w)
        value, valid = tap([add(low, float(step)) for low, step in zip(lows, corner)])
        weight = reshape(where(valid, weight, 0.0), (n, 1) + points)
        term = mul(value, weight)
        total = term if total is None else add(total, term)
    return total


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` (N, C, H, W) / (N, C, D, H, W) at ``grid`` (N, H', W', 2) /
    (N, D', H', W', 3): the result is (N, C, H', W') / (N, C, D', H', W')."""
    x = coerce.as_tensor(input, op="grid_sample")
    grid = coerce.as_tensor(grid, op="grid_sample")
    op = "GridSampler3D" if x.ndim == 5 else "GridSampler2D"
    align_corners = False if align_corners is None else align_corners
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', 'align_corners' must be a bool, got "
                        f"{type(align_corners).__name__}")
    for name, value, allowed in (("interpolation_mode", mode, _MODES),
                                 ("padding_mode", padding_mode, _PADDINGS)):
        if value not in allowed:
            raise ValueError(f"For '{op}', '{name}' must be one of {allowed}, got {value!r}")
    check_dtype(x, (dt.float16, dt.float32, dt.float64), op, "input_x")
    if grid.dtype != x.dtype:
        raise TypeError(f"Input grid must have the same data type with input x! input[x] data "
                        f"type = {x.dtype} but input[grid] data type = {grid.dtype}")
    if x.ndim not in (4, 5) or grid.ndim != x.ndim:
        raise ValueError(f"For '{op}', 'input_x' and 'grid' must both be 4-D or 5-D tensors, "
                         f"but got {x.ndim}-D and {grid.ndim}-D")
    if grid.shape[0] != x.shape[0]:
        raise ValueError(f"For '{op}', the first dimension of grid and input_x must be equal, "
                         f"but got {grid.shape} and {x.shape}")
    if grid.shape[-1] != x.ndim - 2:
        raise ValueError(f"For '{op}', the last dimension of grid must be {x.ndim - 2}, but "
                         f"got {grid.shape[-1]}")
    if 0 in x.shape[2:]:          # nothing to read: every tap is outside (zeros)
        points = tuple(grid.shape[1:-1])
        return coerce.constant(np.zeros(tuple(x.shape[:2]) + points, x.dtype))
    work = dt.float32 if x.dtype == dt.float16 else x.dtype
    out = _sample(cast(x, work), cast(grid, work), mode, padding_mode, align_corners)
    return cast(out, x.dtype)


def _base_axis(n, align_corners):
    """The normalised coordinates of ``n`` pixels (PyTorch's and MindSpore's)."""
    if n <= 1:
        return np.zeros(max(n, 0))
    steps = np.linspace(-1.0, 1.0, n)
    return steps if align_corners else steps * (n - 1) / n


def affine_grid(theta, size, align_corners=False):
    """The sampling grid (N, H, W, 2) / (N, D, H, W, 3) of the affine maps ``theta``
    (N, 2, 3) / (N, 3, 4) for an output of ``size`` (N, C, H, W) / (N, C, D, H, W)."""
    op = "AffineGrid"
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', the type of 'align_corners' should be 'bool', but got "
                        f"type '{type(align_corners).__name__}'.")
    theta = coerce.as_tensor(theta, op=op)
    # float64 too (MindSpore 2.10's CPU kernel refuses it): double-precision grids
    check_dtype(theta, (dt.float16, dt.float32, dt.float64), op, "theta")
    if not isinstance(size, tuple):
        raise TypeError(f"For primitive[{op}], the input argument[output_size] must be a type "
                        f"of {{Tensor, Tuple}}, but got {type(size).__name__}.")
    if len(size) not in (4, 5):
        raise ValueError(f"For primitive[{op}], the size of 'output_size' must be in [4,5], but "
                         f"got {len(size)}.")
    k = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (k, k + 1):
        raise ValueError(f"For '{op}', the shape of 'theta' must be [N, 2, 3] and the size of "
                         f"'output_size' must be 4 for 2D; or the shape of 'theta' must be "
                         f"[N, 3, 4] and the size of 'output_size' must be 5 for 3D, but got "
                         f"{tuple(theta.shape)} and {len(size)}")
    if size[0] != theta.shape[0]:
        raise ValueError(f"For '{op}', the output_size[0] must be equal to the shape[0] of "
                         f"theta, but got the output_size[0] is {size[0]} and the shape[0] of "
                         f"theta is {theta.shape[0]}.")
    spatial = tuple(int(s) for s in size[2:])
    axes = np.meshgrid(*[_base_axis(s, align_corners) for s in spatial], indexing="ij")
    # homogeneous coordinates (x, y[, z], 1): x runs along the last spatial axis
    base = np.stack(list(axes[::-1]) + [np.ones(spatial)], -1).reshape(1, -1, k + 1)
    work = dt.float32 if theta.dtype == dt.float16 else theta.dtype
    base = coerce.constant(np.broadcast_to(base, (theta.shape[0],) + base.shape[1:]), work)
    grid = matmul(base, transpose(cast(theta, work), (0, 2, 1)))
    return cast(reshape(grid, (theta.shape[0],) + spatial + (k,)), theta.dtype)

