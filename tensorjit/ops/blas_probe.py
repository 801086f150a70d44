"""Is a BLAS right on this CPU? Products whose answers are known, before a library may run
tensorjit's.

A BLAS picks its kernels by CPU, and a kernel can be wrong at the edges: MKL on an AMD EPYC
returned NaN for a row holding -inf times a finite matrix, where IEEE arithmetic (and
OpenBLAS, and MindSpore) give -inf. Each probe is a product at a size that reaches the
library's blocked kernels, single and batched, with special values placed where their
effect on the result is certain, checked position by position against IEEE's answer, and
the finite part against a float64 product.
"""
import numpy as np

SIZES = (64, 256)                  # a small product and one past the blocking of every BLAS
BATCH = 4


def problems(library, dtype):
    """What ``library`` gets wrong in ``dtype`` products here (empty: nothing)."""
    found = []
    for n in SIZES:
        for batch in ((), (BATCH,)):
            a, b, want = _case(n, batch, dtype)
            try:
                with np.errstate(all="ignore"):      # the specials are the point here
                    got = library.matmul(a, b)
            except Exception as exc:      # a library that cannot run is not right either
                return [f"{type(exc).__name__}: {exc}"]
            found += _compare(got, want, dtype, f"{'x'.join(map(str, batch + (n, n, n)))}")
            if found:
                return found
    return found


def _case(n, batch, dtype):
    """Operands with special values in known rows, and the float64 answer with IEEE's
    special values at the positions they must reach."""
    rng = np.random.default_rng(n)
    a = rng.uniform(0.5, 1.5, batch + (n, n))
    b = rng.uniform(0.5, 1.5, batch + (n, n))           # every entry positive
    a[..., 1, 3] = -np.inf          # row 1: -inf times positives, plus finite terms: -inf
    a[..., 2, n - 1] = np.inf       # row 2: +inf
    a[..., 3, 0] = np.nan           # row 3: NaN
    a[..., 4, 5], a[..., 4, 6] = np.inf, -np.inf      # row 4: inf - inf: NaN
    a[..., 5, 7] = np.inf           # row 5: inf times a zero row of b ...
    b[..., 7, :] = 0.0              # ... is NaN
    a, b = a.astype(dtype), b.astype(dtype)
    finite_a = np.where(np.isfinite(a), a, 0).astype(np.float64)   # the rows checked exactly
    want = finite_a @ b.astype(np.float64)
    want[..., 1, :] = -np.inf
    want[..., 2, :] = np.inf
    want[..., 3:6, :] = np.nan
    return a, b, want


def _compare(got, want, dtype, shape):
    if got.shape != want.shape or got.dtype != dtype:
        return [f"a {shape} product came back {got.dtype}{list(got.shape)}"]
    wrong = []
    for row, name in ((1, "-inf"), (2, "+inf"), (3, "NaN"), (4, "inf - inf"),
                      (5, "inf * 0")):
        g, w = got[..., row, :], want[..., row, :]
        if not np.array_equal(g, w, equal_nan=True):
            seen = sorted({str(v) for v in np.unique(g)[:3]})
            wrong.append(f"a row holding {name} gave {'/'.join(seen)} in a {shape} product "
                         f"(IEEE: {w.flat[0]})")
    rest = np.r_[0, 6:got.shape[-2]]
    tol = 1e-5 if np.dtype(dtype) == np.float32 else 1e-12
    scale = np.abs(want[..., rest, :]).max()
    if not np.allclose(got[..., rest, :], want[..., rest, :], rtol=tol, atol=tol * scale):
        wrong.append(f"finite rows differ from the float64 product in a {shape} product")
    return wrong
