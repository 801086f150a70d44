"""Table entries: matrix inverse and determinant (Gauss-Jordan elimination written with
registry ops), against NumPy's LAPACK-based linalg."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ErrorCase

_DTYPES = (dt.float32, dt.float64)
_TOL = {dt.float32: (1e-4, 1e-4), dt.float64: (1e-10, 1e-10)}


def _well_conditioned(rng, shape, dtype):
    """Random matrices plus n on the diagonal: far from singular."""
    n = shape[-1]
    return (rng.uniform(-1, 1, shape) + n * np.eye(n)).astype(dtype)


def _samples(dtype, rng, full):
    permuted = np.array([[0.0, 2.0, 1.0], [3.0, 0.0, 1.0], [1.0, 1.0, 4.0]], dtype)
    return [Sample(_well_conditioned(rng, (3, 3), dtype), label="3x3"),
            Sample(_well_conditioned(rng, (2, 4, 4), dtype), label="batch of 4x4"),
            Sample(rng.uniform(-2, 2, (5, 5)).astype(dtype), label="random 5x5"),
            Sample(permuted, label="zero leading pivot (row swaps)"),
            Sample(np.ones((1, 1), dtype) * 4, label="1x1"),
            Sample(np.ones((2, 3), dtype), label="not square", raises=ValueError)]


_NOTES = {"method": "Gauss-Jordan elimination with partial pivoting, one step per row "
                    "(composed of registry ops: differentiable, compiles in every mode)",
          "dtypes": "float32 and float64 (MindSpore's CPU kernels: float32 / float64 and "
                    "complex); integers raise TypeError"}
_ERRORS = [ErrorCase(Sample(np.ones((2, 3))), ValueError, ":", "a non-square matrix")]

op("inverse", ref=np.linalg.inv, dtypes=_DTYPES, tol=_TOL, samples=_samples, notes=_NOTES,
   errors=_ERRORS, torch=lambda torch, a: torch.linalg.inv(a))
op("det", ref=np.linalg.det, dtypes=_DTYPES, tol=_TOL, samples=_samples, notes=_NOTES,
   errors=_ERRORS, torch=lambda torch, a: torch.linalg.det(a))
op("matrix_determinant", ref=np.linalg.det, dtypes=_DTYPES, tol=_TOL, samples=_samples,
   notes=_NOTES, errors=_ERRORS, torch=lambda torch, a: torch.linalg.det(a))
