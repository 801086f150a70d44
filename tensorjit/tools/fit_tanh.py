"""Fit the rational approximation of tanh that O1's float32 kernels use
(``backend/numba/scalar_math.py``) and print its coefficients.

    python -m tensorjit.tools.fit_tanh

tanh a ~ a P(t) / Q(t) with t = (a / 9)^2 on 0 <= a <= 9 (above 9 tanh rounds to 1 in
float32), P of degree 6 and Q of degree 3 with Q(0) = 1. The fit minimizes the relative
error by linearized least squares, reweighted by the previous denominator until it settles
(Loeb's iteration); its float64 relative error is printed, a few 1e-9, far under float32's
6e-8 ulp, so the float32 evaluation's rounding dominates. The coefficients are pasted into
scalar_math.py as hex literals (exact, and independent of the LAPACK that solved the fit).
"""
import numpy as np

LIMIT, P_DEGREE, Q_DEGREE = 9.0, 6, 3


def fit(limit=LIMIT, p_degree=P_DEGREE, q_degree=Q_DEGREE, iterations=30):
    """(P coefficients, Q coefficients), lowest degree first, and the maximum relative
    error over the fitting grid."""
    k = np.arange(1, 6001)
    a = np.concatenate([limit * (0.5 - 0.5 * np.cos(np.pi * (k - 0.5) / 6000)),
                        np.linspace(1e-4, limit, 4000)])
    t = (a / limit) ** 2
    target = np.tanh(a) / a
    weight = np.ones_like(a)
    for _ in range(iterations):
        # P(t) - target (Q(t) - 1) = target, each row scaled to a relative error
        numerator = np.vander(t, p_degree + 1, increasing=True)
        denominator = np.vander(t, q_degree + 1, increasing=True)[:, 1:]
        rows = np.concatenate([numerator, -target[:, None] * denominator], axis=1)
        scale = target * weight
        solution = np.linalg.lstsq(rows / scale[:, None], target / scale, rcond=None)[0]
        p, q = solution[:p_degree + 1], np.concatenate([[1.0], solution[p_degree + 1:]])
        denominator = np.polynomial.polynomial.polyval(t, q)
        error = np.abs(np.polynomial.polynomial.polyval(t, p) / denominator / target - 1)
        weight = denominator
    return p, q, float(error.max())


def main():
    p, q, error = fit()
    print(f"# tanh a ~ a P(t)/Q(t), t = (a/{LIMIT:g})^2; max relative error {error:.2e}")
    print(f"_TANH_P = {[float(c).hex() for c in p]}".replace("'", '"'))
    print(f"_TANH_Q = {[float(c).hex() for c in q]}".replace("'", '"'))


if __name__ == "__main__":
    main()
