"""Accuracy of O1's own vectorizable math (``backend/numba/scalar_math.py``) against NumPy.

Every function runs over a dense grid of its whole useful range (plus subnormals, the
overflow and underflow boundaries and the special values) in a compiled loop, as a fused
kernel runs it. The error is measured in units in the last place (ulp) of the result's
dtype against NumPy's result (erf, which NumPy lacks: the standard library's float64
``math.erf``). Special values (NaN, +-inf, +-0, overflow to inf, underflow to 0) must be
NumPy's exactly, sign of zero included. ``-s`` prints each function's maximum error; the
bounds are the ones docs/architecture.md states.
"""
import math

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from tensorjit.backend.numba import scalar_math as sm  # noqa: E402

F32, F64 = np.float32, np.float64
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
            1e-45, -1e-45, 1e-40, -1e-40, 1.17549435e-38, 3.4e38, -3.4e38, 88.72283, 88.7229,
            89.0, -87.3365, -103.97, -104.0, -110.0, 709.78, 709.79, -745.1, -745.2, 3.92,
            3.9199, 5.93, 9.5, 20.0, 1e300, -1e300, 5e-324, -5e-324, 2.2250738585072014e-308]


def _erf(x):
    return np.array([math.erf(v) for v in x.astype(np.float64)])


# name -> (scalar_math function, reference, float32 range, float64 range)
FUNCTIONS = {
    "exp": (sm.tj_exp, np.exp, (-104.0, 89.0), (-746.0, 710.0)),
    "expm1": (sm.tj_expm1, np.expm1, (-20.0, 89.0), (-40.0, 710.0)),
    "log": (sm.tj_log, np.log, None, None),             # log-spaced over all positives
    "log1p": (sm.tj_log1p, np.log1p, (-0.9999, 1e4), (-0.9999, 1e4)),
    "tanh": (sm.tj_tanh, np.tanh, (-12.0, 12.0), (-25.0, 25.0)),
    "erf": (sm.tj_erf, _erf, (-6.0, 6.0), (-7.0, 7.0)),
}
# maximum error in ulp against the reference (what the module is built to; see its notes;
# float32 tanh: 6 is its maximum over every float32 in [0, 10), which the grid may miss)
BOUNDS = {F32: dict(exp=3, expm1=3, log=3, log1p=3, tanh=6, erf=3),
          F64: dict(exp=2, expm1=3, log=2, log1p=3, tanh=3, erf=8)}
POINTS = 400_001


_RUNNERS = {}


def _runner(fn):
    """A compiled loop over an array calling ``fn``, as a fused kernel's loop does."""
    if fn not in _RUNNERS:
        @numba.njit(error_model="numpy")
        def run(x, out):
            for i in range(x.shape[0]):
                out[i] = fn(x[i])
        _RUNNERS[fn] = run
    return _RUNNERS[fn]


def _inputs(name, dtype):
    f32 = dtype is F32
    if name == "log":
        tiny = 1e-45 if f32 else 5e-324
        grid = np.exp(np.linspace(math.log(tiny), math.log(3e38 if f32 else 1e308), POINTS))
        grid = np.concatenate([grid, np.linspace(0.5, 2.0, POINTS)])
    else:
        lo, hi = FUNCTIONS[name][2 if f32 else 3]
        grid = np.concatenate([np.linspace(lo, hi, POINTS),
                               np.linspace(-1.0, 1.0, POINTS) * (hi - lo) / 1000])
    with np.errstate(over="ignore"):
        return np.concatenate([grid, SPECIALS]).astype(dtype), len(SPECIALS)


def ulp_error(got, ref, dtype):
    """|got - ref| in ulp of ``ref`` rounded to ``dtype``; 0 where both are the same NaN
    or infinity."""
    got64, ref64 = got.astype(np.float64), ref.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        spacing = np.spacing(np.abs(ref64).astype(dtype)).astype(np.float64)
        err = np.abs(got64 - ref64) / spacing
    same = (np.isnan(got64) & np.isnan(ref64)) | (np.isinf(got64) & (got64 == ref64))
    err[same] = 0.0
    err[np.isnan(err)] = np.inf
    return err


def _same_special(got, ref):
    if np.isnan(ref):
        return bool(np.isnan(got))
    if ref == 0 or np.isinf(ref):
        return bool(got == ref and np.signbit(got) == np.signbit(ref))
    return True      # a finite non-zero value: measured in ulp with the rest


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_error_within_stated_ulps_and_special_values_exact(name, dtype):
    fn, reference, _, _ = FUNCTIONS[name]
    x, n_special = _inputs(name, dtype)
    got = np.empty_like(x)
    _runner(fn)(x, got)
    with np.errstate(all="ignore"):
        ref = np.asarray(reference(x)).astype(dtype)
        ref64 = np.asarray(reference(x.astype(np.float64)))
    err = ulp_error(got, ref, dtype)
    worst = int(np.argmax(err))
    in_range = np.abs(ref64) <= np.finfo(dtype).max
    vs64 = ulp_error(got[in_range], ref64[in_range], dtype).max()
    print(f"\n{name} {np.dtype(dtype).name}: max {err.max():.2f} ulp vs NumPy at "
          f"x={x[worst]!r}; {vs64:.2f} ulp vs float64")
    assert err.max() <= BOUNDS[dtype][name], (x[worst], got[worst], ref[worst])
    bad = [(float(a), float(g), float(r)) for a, g, r in
           zip(x[-n_special:], got[-n_special:], ref[-n_special:]) if not _same_special(g, r)]
    assert not bad, f"special values differ from NumPy (x, got, NumPy): {bad}"


@pytest.mark.parametrize("name", ["erf", "tanh"])
def test_relative_error_near_zero(name):
    fn, reference, _, _ = FUNCTIONS[name]
    x = np.concatenate([np.geomspace(1e-30, 0.5, 20001), -np.geomspace(1e-30, 0.5, 20001)])
    x = x.astype(F32)
    got = np.empty_like(x)
    _runner(fn)(x, got)
    ref = np.asarray(reference(x.astype(np.float64)))
    assert np.max(np.abs(got / ref - 1)) <= 1e-6


def test_pow_float32_within_one_ulp_and_specials_exact():
    @numba.njit(error_model="numpy")
    def run(x, y, out):
        for i in range(x.shape[0]):
            out[i] = sm.tj_pow(x[i], y[i])

    rng = np.random.default_rng(0)
    base = np.abs(rng.standard_normal(200_000)) * 10.0 ** rng.uniform(-8, 8, 200_000)
    expo = rng.uniform(-8.0, 8.0, 200_000)
    integral = rng.integers(-9, 10, 2000).astype(np.float64)
    special = np.array(SPECIALS[:13] + [3.0, -3.0, 0.25, -7.0])
    sx, sy = np.meshgrid(special, special)
    x = np.concatenate([base, -base[:2000], sx.ravel()]).astype(F32)
    y = np.concatenate([expo, integral, sy.ravel()]).astype(F32)
    got = np.empty_like(x)
    run(x, y, got)
    with np.errstate(all="ignore"):
        ref = np.power(x, y)            # element by element: no scalar-exponent shortcut
    err = ulp_error(got, ref, F32)
    print(f"\npow float32: max {err.max():.2f} ulp vs NumPy")
    assert err.max() <= 1
    n = sx.size
    bad = [(float(a), float(b), float(g), float(r)) for a, b, g, r in
           zip(x[-n:], y[-n:], got[-n:], ref[-n:]) if not _same_special(g, r)]
    assert not bad, f"special values differ from NumPy (x, y, got, NumPy): {bad}"
