"""Record MindSpore 2.10's own mindspore.numpy results for test_mnp_mindspore.py.

Run with MindSpore's interpreter (it is not a test dependency):

    /tmp/msvenv/bin/python tests/numpy/record_mindspore.py

Each call is an expression with ``m`` bound to the numpy module under test; the result's
dtype, shape and values (or the exception type) go to mindspore_numpy_2_10.json.
"""
import json
import os
import sys

import numpy as np

CALLS = [
    # dtype defaults of creation
    "m.array([1.0])", "m.array([1])", "m.array(1)", "m.array([True])", "m.array([1, 2.5])",
    "m.asarray([1, 2])", "m.asfarray([1, 2])", "m.arange(3)", "m.arange(3.0)",
    "m.arange(0, 1, 0.25)", "m.zeros(3)", "m.ones((2,))", "m.empty(2)", "m.full(2, 1)",
    "m.full(2, 1.5)", "m.full((2, 2), True)", "m.eye(2)", "m.identity(2)", "m.tri(3)",
    "m.linspace(0, 1, 5)", "m.logspace(0, 1, 3)", "m.geomspace(1, 8, 4)",
    "m.linspace(0, 10, 3, dtype=m.int32)", "m.hamming(4)", "m.bartlett(4)", "m.hanning(4)",
    "m.indices((2, 2))", "m.tril_indices(3)", "m.mgrid[0:2, 0:2]", "m.ogrid[0:2, 0:2]",
    "m.mgrid[0:1:3j]", "m.vander(m.array([1, 2, 3]))", "m.full_like(m.ones(2), 3)",
    "m.meshgrid(m.array([1, 2]), m.array([3, 4, 5]), indexing='ij')",
    # elementwise dtypes and values
    "m.divide(m.array([1, 2]), 2)", "m.sqrt(m.array([1, 4]))", "m.power(m.array([1, 2]), 2)",
    "m.power(m.array([1, 2, 3]), -1)", "m.add(m.array([1, 2], m.int8), 300)",
    "m.add(m.array([1.0, 2.0], m.float16), 2.5)", "m.subtract(2, m.array([1, 2, 3]))",
    "m.floor_divide(m.array([5, -5]), 2)", "m.fmod(m.array([5, -5]), 3)",
    "m.remainder(m.array([5, -5]), 3)", "m.divmod(m.array([5, -5]), 3)",
    "m.gcd(m.array([4, 6]), 4)", "m.lcm(m.array([4, 6]), 4)",
    "m.gcd(m.array([-4, 6]), m.array([6, -9]))", "m.rint(m.array([0.5, 1.5, 2.5]))",
    "m.fix(m.array([-1.5, 1.5]))", "m.exp2(m.array([1, 2]))", "m.exp2(m.array([-1]))",
    "m.cbrt(m.array([8, -8]))", "m.hypot(m.array([3]), m.array([4]))",
    "m.radians(m.array([180]))", "m.trunc(m.array([-1.5]))", "m.trunc(m.array([1, 2]))",
    "m.ceil(m.array([1, 2]))", "m.reciprocal(m.array([1, 2, 3]))",
    "m.arccos(m.array([0.5]))", "m.arcsinh(m.array([1, 2, 3]))",
    "m.heaviside(m.array([-1.0, 0.0, 1.0]), 0.5)", "m.heaviside(m.array([1, 2, 3]), 0)",
    "m.invert(m.array([1]))", "m.invert(m.array([1], m.uint8))",
    "m.float_power(m.array([1, 2, 3]), m.array([1, 2, 3]))",
    "m.logaddexp2(m.array([1.0, 2.0]), m.array([1.0, 2.0]))",
    "m.isneginf(m.array([-float('inf'), 1.0]))", "m.isclose(m.array([1.0]), m.array([1.0]))",
    # reductions and statistics
    "m.sum(m.array([True, False]))", "m.sum(m.array([1, 2], m.int8))", "m.sum(m.array([1, 2, 3]))",
    "m.mean(m.array([1.0, 2.0, 4.0]))", "m.mean(m.array([1, 2]))", "m.average(m.array([1, 2]))",
    "m.std(m.array([1, 2, 3]))", "m.var(m.array([1, 2, 3]), ddof=1)",
    "m.amax(m.array([1, 2, 3]))", "m.argmax(m.array([1, 2, 3]))", "m.argmin(m.array([1.0, 2.0]))",
    "m.cumsum(m.array([1, 2], m.int8))", "m.cumsum(m.array([True, True]))",
    "m.cumprod(m.array([1, 2, 3]))", "m.ptp(m.array([1, 5]))", "m.nansum(m.array([1, 2]))",
    "m.nanmean(m.array([1.0, float('nan')]))", "m.nanstd(m.array([1.0, float('nan'), 3.0]))",
    "m.nancumsum(m.array([1.0, float('nan')]))", "m.count_nonzero(m.array([1, 0, 2]))",
    "m.diff(m.array([1, 4, 9]))", "m.ediff1d(m.array([1, 4, 9]))",
    "m.gradient(m.array([1.0, 2.0, 4.0]))", "m.gradient(m.array([1, 2, 3]))",
    "m.trapz(m.array([1, 2, 3]))", "m.interp(m.array([-1.0, 0.5, 3.0]), m.array([0.0, 1.0]), "
    "m.array([0.0, 2.0]))", "m.unwrap(m.array([0.0, 4.0, 8.0]))",
    "m.cov(m.array([[1.0, 2, 4], [1, 3, 2]]))", "m.corrcoef(m.array([[1.0, 2, 4], [1, 3, 2]]))",
    "m.cov(m.array([1, 2, 3]))", "m.histogram(m.array([1.0, 2, 2, 3]), bins=3)",
    "m.histogram_bin_edges(m.array([1.0, 2, 3]), bins=2)",
    "m.bincount(m.array([1, 1, 3]))", "m.searchsorted(m.array([1, 2, 3]), m.array([2]))",
    "m.digitize(m.array([1.5]), m.array([1.0, 2.0]))",
    "m.convolve(m.array([1, 2, 3]), m.array([1, 2, 3]))",
    "m.correlate(m.array([1.0, 2, 3]), m.array([1.0, 1]))",
    # products, polynomials, sets, manipulation
    "m.dot(m.array([1, 2, 3]), m.array([1, 2, 3]))", "m.inner(m.ones(3), m.ones(3))",
    "m.kron(m.array([1, 2]), m.array([1, 1]))", "m.norm(m.array([3.0, 4.0]))",
    "m.norm(m.array([1, 2, 3]))", "m.norm(m.array([[1.0, 2], [3, 4]]), ord=1)",
    "m.cross(m.array([1.0, 0, 0]), m.array([0.0, 1, 0]))", "m.trace(m.ones((3, 3)))",
    "m.trace(m.ones((2, 3), m.int32))", "m.polyval(m.array([1, 2, 3]), 2)",
    "m.polyint(m.array([1, 2, 3]), m=2, k=1)", "m.polyder(m.array([1, 2, 3]), m=2)",
    "m.polyadd(m.array([1, 2]), m.array([1]))", "m.polymul(m.array([1, 2, 3]), m.array([1.0, 2, 4]))",
    "m.unique(m.array([3, 1, 1, 2]))", "m.unique(m.array([3, 1, 1, 2]), return_inverse=True)",
    "m.intersect1d(m.array([1, 2]), m.array([2, 3]))", "m.setdiff1d(m.array([1, 2]), m.array([2, 3]))",
    "m.isin(m.array([1, 2]), m.array([2]))", "m.in1d(m.array([[1, 2], [3, 4]]), m.array([2, 3]))",
    "m.argwhere(m.array([[1, 0], [0, 1]]))", "m.take(m.array([1, 4, 9]), m.array([0, 2]))",
    "m.take(m.array([1, 2, 3]), m.array([-1, 5]))", "m.take(m.array([1, 2, 3]), m.array([-5, -3]))",
    "m.choose(m.array([0, 1]), [m.array([1, 2]), m.array([3, 4])])",
    "m.roll(m.array([1, 2, 3]), -1)", "m.repeat(m.array([[1, 2], [3, 4]]), (1, 2), axis=0)",
    "m.rot90(m.reshape(m.arange(6), (2, 3)), 3)", "m.array_split(m.array([1, 2, 3]), 2)",
    "m.pad(m.array([1, 2, 3]), (1, 2), mode='reflect')",
    "m.pad(m.array([1, 2, 3]), 2, mode='linear_ramp', end_values=9)",
    "m.pad(m.array([1, 2, 3]), 4, mode='wrap')", "m.select([m.array([True, False])], [m.array([1, 2])])",
    "m.unravel_index(m.array([3]), (2, 2))", "m.unravel_index(m.array([5]), (2, 2))",
    "m.diag(m.reshape(m.arange(9), (3, 3)), -1)", "m.tril(m.array([1, 2, 3]))",
    "m.apply_over_axes(m.sum, m.ones((2, 3)), [0, 1])", "m.size(m.ones((2, 3)))",
    "m.array_str(m.ones(2))", "m.isscalar(1)", "m.promote_types(m.int32, m.float32)",
    "m.result_type(m.ones(2, m.int32), 1.0)", "m.int_", "m.float_", "m.bool_",
    "m.array_equal(m.array([1]), m.array([1]))", "m.array_equiv(m.array([1]), m.array([1, 1]))",
    # errors
    "m.zeros(-1)", "m.reshape(m.ones(4), (3,))", "m.amax(m.array([1, 2]), axis=3)",
    "m.concatenate((m.ones(2), m.ones((2, 2))))", "m.add(m.ones(2), m.ones(3))",
    "m.split(m.array([1, 2, 3]), 2)", "m.take(m.array([1, 4, 9]), 5)",
    "m.stack([m.ones(2), m.ones(3)])", "m.swapaxes(m.ones((2, 3)), 0, 2)",
    "m.transpose(m.ones((2, 3)), (0, 0))", "m.broadcast_to(m.ones(3), (2, 2))",
    "m.diff(m.ones(3), n=-1)", "m.histogram(m.array([1.0, 2.0]), bins=-1)",
    "m.norm(m.array([[1.0, 2], [3, 4]]), ord='nuc')",
]


def describe(value):
    if isinstance(value, (list, tuple)):
        return {"sequence": [describe(v) for v in value]}
    if hasattr(value, "asnumpy"):
        array = value.asnumpy()
        return {"dtype": str(array.dtype), "shape": list(array.shape),
                "values": np.where(np.isnan(array), None, array).tolist()
                if array.dtype.kind == "f" else array.tolist()}
    if hasattr(value, "__module__") and "mindspore" in type(value).__module__:
        return {"dtype_object": str(value).replace("mindspore.", "")}
    return {"python": value if isinstance(value, (int, float, bool, str)) else repr(value)}


def main():
    import mindspore
    import mindspore.numpy as mnp
    records = {}
    for expr in CALLS:
        try:
            records[expr] = describe(eval(expr, {"m": mnp, "np": np}))  # noqa: S307
        except Exception as exc:       # the error type is the record
            records[expr] = {"error": type(exc).__name__}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mindspore_numpy_2_10.json")
    with open(out, "w") as f:
        json.dump({"mindspore": mindspore.__version__, "calls": records}, f, indent=1)
    print(f"{len(records)} calls recorded in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
