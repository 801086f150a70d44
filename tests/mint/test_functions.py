"""Every ``tensorjit.mint`` function against PyTorch's function of the same name on the same
inputs: values, shapes and dtypes."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as ms
from tensorjit import mint

from reference import check, compare, to_ms

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
Y = rng.standard_normal((3, 4)).astype(np.float32)
POS = (rng.random((3, 4)) + 0.5).astype(np.float32)
UNIT = (rng.random((3, 4)) * 1.8 - 0.9).astype(np.float32)
BIG = (rng.random((3, 4)) * 3 + 1.1).astype(np.float32)
I = rng.integers(-5, 6, (3, 4)).astype(np.int64)
J = rng.integers(1, 6, (3, 4)).astype(np.int64)
B = rng.random((3, 4)) > 0.5
B2 = rng.random((3, 4)) > 0.5
V = rng.standard_normal(4).astype(np.float32)
W = rng.standard_normal(3).astype(np.float32)
SQ = (rng.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
BATCH1 = rng.standard_normal((2, 3, 4)).astype(np.float32)
BATCH2 = rng.standard_normal((2, 4, 5)).astype(np.float32)
DISTINCT = rng.permutation(12).astype(np.float32).reshape(3, 4)

# (name, args, kwargs[, torch name]): mint.<name>(*args) against torch.<name>(*args)
CASES = [(n, (X,), {}) for n in "abs ceil cos exp expm1 floor neg negative sigmoid sign sin "
          "square tan tanh erf atan arctan isfinite isinf isnan ravel clone sinh cosh exp2 "
          "frac".split()]
CASES += [(n, (POS,), {}) for n in "log log1p reciprocal rsqrt sqrt log10 log2".split()]
CASES += [(n, (UNIT,), {}) for n in "acos arccos asin arcsin atanh arctanh erfinv".split()]
CASES += [(n, (BIG,), {}) for n in "acosh arccosh".split()]
CASES += [(n, (X,), {}) for n in "asinh arcsinh erfc sinc".split()]
CASES += [(n, (X, Y), {}) for n in "mul maximum minimum atan2 arctan2 eq ne not_equal gt "
          "greater greater_equal lt less le less_equal sub add div divide logaddexp "
          "logaddexp2".split()]
CASES += [(n, (POS, BIG), {}) for n in "remainder fmod floor_divide pow float_power "
          "xlogy".split()]
CASES += [(n, (B, B2), {}) for n in "logical_and logical_or logical_xor bitwise_and bitwise_or "
          "bitwise_xor".split()]
CASES += [(n, (I, J), {}) for n in "bitwise_and bitwise_or bitwise_xor gcd remainder "
          "floor_divide".split()]
CASES += [
    ("logical_not", (B,), {}),
    ("isneginf", (np.array([-np.inf, 1, np.inf], np.float32),), {}),
    ("nan_to_num", (np.array([np.nan, -np.inf, np.inf, 1], np.float32),), {}),
    ("add", (X, Y), {"alpha": 2.5}),
    ("sub", (X, Y), {"alpha": 0.5}),
    ("div", (X, POS), {"rounding_mode": "floor"}),
    ("div", (X, POS), {"rounding_mode": "trunc"}),
    ("div", (I, J), {"rounding_mode": "trunc"}),
    ("div", (I, J), {"rounding_mode": "floor"}),
    ("clamp", (X,), {"min": -0.5, "max": 0.5}),
    ("clamp", (X, -0.2), {}),
    ("lerp", (X, Y, 0.3), {}),
    ("isclose", (X, X + 1e-7), {}),
    ("round", (X * 10,), {}),
    ("round", (X * 10,), {"decimals": 1}),
    ("addcdiv", (X, Y, POS), {"value": 0.5}),
    ("sum", (X,), {}), ("sum", (X, 1), {}), ("sum", (X, (0, 1), True), {}),
    ("sum", (I,), {"dim": 0}), ("sum", (X,), {"dtype": torch.float64}, None),
    ("prod", (X, 1), {}), ("prod", (J,), {}), ("mean", (X,), {}), ("mean", (X, 0, True), {}),
    ("nansum", (np.array([1, np.nan, 2], np.float32),), {}),
    ("max", (X,), {}), ("max", (X, 1), {}), ("max", (X, 0, True), {}), ("max", (X, Y), {}),
    ("min", (X,), {}), ("min", (X, 1), {}), ("min", (X, Y), {}),
    ("amax", (X, 1), {}), ("amin", (X, (0, 1)), {}), ("amax", (X,), {}),
    ("argmax", (X,), {}), ("argmax", (X, 1, True), {}), ("argmin", (X, 0), {}),
    ("all", (B,), {}), ("all", (B, 1), {}), ("any", (B, 0, True), {}), ("any", (B,), {}),
    ("count_nonzero", (I,), {}), ("count_nonzero", (I, 1), {}),
    ("logsumexp", (X, 1), {}), ("logsumexp", (X, (0, 1), True), {}),
    ("std", (X,), {}), ("std", (X, 1), {"correction": 0, "keepdim": True}),
    ("var", (X, 0), {}), ("var_mean", (X, 1), {}), ("std_mean", (X,), {"correction": 0}),
    ("median", (DISTINCT,), {}), ("median", (DISTINCT, 1), {}),
    ("kthvalue", (DISTINCT, 2, 1), {}), ("kthvalue", (DISTINCT, 1), {"dim": 0, "keepdim": True}),
    ("norm", (X,), {}), ("norm", (X, 1, 1), {}), ("norm", (X, float("inf")), {}),
    ("norm", (X, 3.0, (0, 1), True), {}),
    ("cumsum", (X, 1), {}), ("cumsum", (I, 0), {}), ("cumprod", (X, 0), {}),
    ("cummax", (X, 1), {}), ("cummin", (X, 0), {}),
    ("trace", (SQ,), {}), ("histc", (X,), {"bins": 5, "min": -1, "max": 1}),
    ("histc", (X,), {"bins": 4}),
    ("bincount", (np.array([0, 1, 1, 4]),), {}),
    ("bincount", (np.array([0, 1, 1]),), {"weights": np.array([0.5, 1., 2.], np.float32),
                                          "minlength": 5}),
    ("matmul", (X, Y.T.copy()), {}), ("mm", (X, Y.T.copy()), {}), ("bmm", (BATCH1, BATCH2), {}),
    ("mv", (X, V), {}), ("dot", (V, V), {}), ("vdot", (V, V), {}), ("outer", (V, W), {}),
    ("addmm", (SQ, X[:, :3].copy(), SQ), {"beta": 0.5, "alpha": 2}),
    ("addbmm", (np.ones((3, 5), np.float32), BATCH1, BATCH2), {}),
    ("addmv", (W, X, V), {"alpha": 2}),
    ("baddbmm", (np.ones((2, 3, 5), np.float32), BATCH1, BATCH2), {"beta": 0.5}),
    ("cross", (X[:, :3].copy(), Y[:, :3].copy()), {"dim": 1}),
    ("cdist", (X, Y), {}), ("cdist", (X, Y), {"p": 1.0}),
    ("einsum", ("ij,kj->ik", X, Y), {}), ("einsum", ("bij,bjk->bik", BATCH1, BATCH2), {}),
    ("einsum", ("...j,j", X, V), {}), ("einsum", ("ij->", X), {}),
    ("inverse", (SQ,), {}),
    ("reshape", (X, (2, 6)), {}), ("flatten", (BATCH1,), {}), ("flatten", (BATCH1, 1), {}),
    ("squeeze", (X[None],), {"dim": 0}), ("unsqueeze", (X, 1), {}),
    ("transpose", (BATCH1, 0, 2), {}), ("swapaxes", (BATCH1, 0, 1), {}),
    ("permute", (BATCH1, (2, 0, 1)), {}), ("t", (X,), {}), ("flip", (X, (0, 1)), {}),
    ("roll", (X, 1), {}), ("roll", (X, (1, -2), (0, 1)), {}), ("tile", (X, (2, 1)), {}),
    ("broadcast_to", (V, (3, 4)), {}),
    ("cat", ([X, Y],), {}), ("cat", ([X, Y], 1), {}), ("concat", ([X, Y],), {"dim": 1}),
    ("stack", ([X, Y], 1), {}), ("hstack", ([X, Y],), {}), ("dstack", ([X, Y],), {}),
    ("hstack", ([V, V],), {}),
    ("split", (X, 2, 1), {}), ("split", (X, [1, 2]), {}), ("chunk", (X, 2, 1), {}),
    ("unbind", (X, 1), {}), ("narrow", (X, 1, 1, 2), {}), ("select", (X, 1, -1), {}),
    ("index_select", (X, 1, np.array([2, 0])), {}),
    ("gather", (X, 1, np.array([[0, 3], [1, 1], [2, 0]])), {}),
    ("scatter", (X, 1, np.array([[0, 3], [1, 2], [2, 0]]), Y), {}),
    ("scatter_add", (X, 1, np.array([[0, 0], [1, 2], [3, 3]]), Y), {}),
    ("index_add", (X, 0, np.array([0, 0, 2]), Y), {"alpha": 2}),
    ("take", (X, np.array([[0, 11], [5, 3]])), {}),
    ("masked_select", (X, B), {}), ("where", (B, X, Y), {}), ("where", (B,), {}),
    ("nonzero", (I,), {}), ("nonzero", (I,), {"as_tuple": True}),
    ("tril", (X,), {}), ("triu", (X, 1), {}), ("diag", (V,), {}), ("diag", (V, -1), {}),
    ("diag", (X,), {}), ("diag", (X, 1), {}),
    ("diff", (X,), {}), ("diff", (X, 2, 0), {}),
    ("diff", (V,), {"prepend": np.zeros(1, np.float32), "append": np.ones(2, np.float32)}),
    ("meshgrid", (V, W), {"indexing": "ij"}), ("meshgrid", (V, W), {"indexing": "xy"}),
    ("repeat_interleave", (X, 2), {}), ("repeat_interleave", (X, 2, 1), {}),
    ("searchsorted", (np.sort(V), W), {}), ("searchsorted", (np.sort(X, 1), Y[:, :2].copy()),
                                            {"right": True}),
    ("sort", (X,), {}), ("sort", (X,), {"dim": 0, "descending": True}),
    ("argsort", (X, 0), {}), ("argsort", (X,), {"descending": True}),
    ("topk", (X, 2), {}), ("topk", (X, 2, 0, False), {}),
    ("unique_consecutive", (np.array([1, 1, 2, 2, 3, 1, 1]),), {"return_inverse": True,
                                                                  "return_counts": True}),
    ("softmax", (X, 1), {}), ("allclose", (X, X), {}),
    ("full_like", (X, 7.0), {}), ("zeros_like", (X,), {}), ("ones_like", (I,), {}),
    ("real", (X,), {}), ("bitwise_not", (I,), {}), ("bitwise_not", (B,), {}),
    ("bitwise_not", (I.astype(np.uint8),), {}),
]
# 0-d and empty inputs
Z, E = np.array(1.5, np.float32), np.zeros((0, 3), np.float32)
CASES += [("sum", (Z,), {}), ("sum", (E, 0), {}), ("mean", (E, 1), {}), ("amax", (E, 1), {}),
          ("argmax", (Z,), {}), ("cumsum", (Z, 0), {}), ("flatten", (Z,), {}),
          ("squeeze", (Z,), {}), ("t", (Z,), {}), ("roll", (E, 1, 0), {}),
          ("diff", (E, 1, 0), {}), ("norm", (E,), {}), ("logsumexp", (E, 1), {}),
          ("sort", (Z,), {}), ("argsort", (Z,), {}), ("topk", (E, 0, 0), {}),
          ("nonzero", (Z,), {}), ("einsum", ("ij->j", E), {}), ("histc", (E,), {}),
          ("count_nonzero", (Z,), {}), ("searchsorted", (np.array([1., 2.], np.float32), 1.5), {}),
          ("diag", (np.zeros(0, np.float32),), {}), ("trace", (np.zeros((0, 0), np.float32),), {}),
          ("cdist", (E, E), {}), ("median", (np.arange(5, dtype=np.float32),), {}),
          ("kthvalue", (np.arange(3, dtype=np.float32), 3), {}), ("prod", (Z,), {})]
# PyTorch spells a few differently
TORCH_NAME = {}


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_torch(case):
    name, args, kwargs = case[:3]
    kwargs = dict(kwargs)
    ms_kwargs = {k: (ms.float64 if v is torch.float64 else v) for k, v in kwargs.items()}
    ours = getattr(mint, name)(*[to_ms(a) for a in args], **{k: to_ms(v)
                                                             for k, v in ms_kwargs.items()})
    from reference import to_torch
    theirs = getattr(torch, TORCH_NAME.get(name, name))(
        *[to_torch(a) for a in args], **{k: to_torch(v) for k, v in kwargs.items()})
    compare(ours, theirs, rtol=2e-5, atol=2e-5, what=name)


def test_imag_of_real_tensors_is_zero_and_inv_is_inverse():
    compare(mint.imag(ms.Tensor(X)), torch.zeros(3, 4))
    compare(mint.inv(ms.Tensor(SQ)), torch.linalg.inv(torch.tensor(SQ)), rtol=1e-4, atol=1e-5)


def test_creation_matches_torch():
    compare(mint.zeros((2, 3)), torch.zeros((2, 3)))
    compare(mint.zeros((2,), dtype=ms.int32), torch.zeros((2,), dtype=torch.int32))
    compare(mint.full((2, 2), 3), torch.full((2, 2), 3))
    compare(mint.full((2,), 1.5), torch.full((2,), 1.5))
    compare(mint.full((2,), True), torch.full((2,), True))
    compare(mint.eye(3), torch.eye(3))
    compare(mint.eye(2, 3, ms.int64), torch.eye(2, 3, dtype=torch.int64))
    compare(mint.arange(5), torch.arange(5))
    compare(mint.arange(1, 2, 0.25), torch.arange(1, 2, 0.25))
    compare(mint.arange(0., 3), torch.arange(0., 3))
    compare(mint.empty(2, 3).shape, torch.empty(2, 3).shape, check_dtype=False)
    assert mint.empty((2, 3)).dtype == ms.float32
    assert mint.empty_like(ms.Tensor(I)).dtype == ms.int64


def test_random_functions_have_torch_shapes_dtypes_and_moments():
    ms.set_seed(1)
    assert mint.rand(2, 3).shape == (2, 3) and mint.rand(2, 3).dtype == ms.float32
    assert mint.randn((4,), dtype=ms.float64).dtype == ms.float64
    values = mint.randint(2, 5, (2000,)).asnumpy()
    assert values.dtype == np.int64 and values.min() == 2 and values.max() == 4
    assert mint.randint(3, (4,)).asnumpy().max() < 3
    like = mint.randint_like(ms.Tensor(I), 0, 4)
    assert like.shape == (3, 4) and like.dtype == ms.int64
    assert mint.rand_like(ms.Tensor(X)).shape == (3, 4)
    assert mint.randn_like(ms.Tensor(X)).dtype == ms.float32
    perm = mint.randperm(10).asnumpy()
    assert sorted(perm) == list(range(10)) and perm.dtype == np.int64
    normal = mint.normal(2.0, 0.5, (20000,)).asnumpy()
    assert abs(normal.mean() - 2.0) < 0.02 and abs(normal.std() - 0.5) < 0.02
    assert mint.normal(ms.Tensor(X), 1.0).shape == (3, 4)
    coin = mint.bernoulli(ms.Tensor(np.full((20000,), 0.3, np.float32))).asnumpy()
    assert set(np.unique(coin)) <= {0.0, 1.0} and abs(coin.mean() - 0.3) < 0.02
    weights = ms.Tensor(np.array([0., 1., 3.], np.float32))
    draws = mint.multinomial(weights, 4000, replacement=True).asnumpy()
    assert (draws != 0).all() and abs((draws == 2).mean() - 0.75) < 0.03
    picked = mint.multinomial(weights, 2).asnumpy()
    assert sorted(picked) == [1, 2]


def test_in_place_addr_writes_its_input():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    out = mint.addr_(x, ms.Tensor(W[:2].copy()), ms.Tensor(V[:3].copy()), beta=0.5, alpha=2)
    expected = torch.ones(2, 3).addr_(torch.tensor(W[:2]), torch.tensor(V[:3]), beta=0.5,
                                      alpha=2)
    compare(x, expected)
    assert out is x


def test_triangular_solve_against_torch():
    lower = np.tril(SQ)
    b = X[:, :2].copy()
    check(lambda b, a: mint.triangular_solve(b, a, upper=False),
          lambda b, a: torch.triangular_solve(b, a, upper=False), b, lower, rtol=1e-4)
    upper = np.triu(SQ)
    check(lambda b, a: mint.triangular_solve(b, a, transpose=True, unitriangular=True),
          lambda b, a: torch.triangular_solve(b, a, transpose=True, unitriangular=True),
          b, upper, rtol=1e-4)


def test_conv_tbc_against_torch():
    x = rng.standard_normal((6, 2, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    check(mint.conv_tbc, torch.conv_tbc, x, w, b, 1, rtol=1e-4, atol=1e-5)


def test_npu_gelu_is_gelu():
    check(mint.npu_gelu, torch.nn.functional.gelu, X, rtol=1e-5)


def test_batch_norm_statistics_helpers_against_formulas():
    """PyTorch runs these three only on CUDA: the reference is their formulas in NumPy."""
    x = rng.standard_normal((4, 3, 5)).astype(np.float64)
    mean, invstd = mint.batch_norm_stats(ms.Tensor(x), 1e-5)
    np.testing.assert_allclose(mean.asnumpy(), x.mean((0, 2)))
    np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(x.var((0, 2)) + 1e-5))
    weight, bias = np.full(3, 2.0), np.full(3, 0.5)
    out = mint.batch_norm_elemt(ms.Tensor(x), ms.Tensor(weight), ms.Tensor(bias), mean,
                                invstd, 1e-5)
    expected = (x - x.mean((0, 2))[:, None]) / np.sqrt(x.var((0, 2)) + 1e-5)[:, None] * 2 + 0.5
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10)
    # two processes' statistics: the first 4 rows, the last 2 rows of one batch
    data = rng.standard_normal((6, 3)).astype(np.float64)
    parts = [data[:4], data[4:]]
    means = np.stack([p.mean(0) for p in parts])
    invstds = np.stack([1 / np.sqrt(p.var(0) + 1e-5) for p in parts])
    running_mean, running_var = ms.Tensor(np.zeros(3)), ms.Tensor(np.ones(3))
    global_mean, global_invstd = mint.batch_norm_gather_stats_with_counts(
        ms.Tensor(data), ms.Tensor(means), ms.Tensor(invstds), running_mean, running_var,
        0.1, 1e-5, ms.Tensor(np.array([4.0, 2.0])))
    np.testing.assert_allclose(global_mean.asnumpy(), data.mean(0), rtol=1e-10)
    np.testing.assert_allclose(global_invstd.asnumpy(), 1 / np.sqrt(data.var(0) + 1e-5),
                               rtol=1e-6)
    np.testing.assert_allclose(running_mean.asnumpy(), 0.1 * data.mean(0), rtol=1e-10)
    np.testing.assert_allclose(running_var.asnumpy(), 0.9 + 0.1 * data.var(0, ddof=1),
                               rtol=1e-6)


def test_bad_arguments_raise_clear_errors():
    x = ms.Tensor(X)
    with pytest.raises(TypeError, match=r"sum\(\)"):
        mint.sum(x, 0, False, 3)
    with pytest.raises(TypeError, match="unexpected keyword"):
        mint.cat([x, x], axis=0)
    with pytest.raises(ValueError, match="rounding_mode"):
        mint.div(x, x, rounding_mode="ceil")
    with pytest.raises(ValueError, match="k must be"):
        mint.kthvalue(x, 9, 1)
    with pytest.raises(ValueError, match="square"):
        mint.inverse(x)
    with pytest.raises(ValueError, match="size 3"):
        mint.cross(x[:2], x[:2])
    with pytest.raises(IndexError, match="out of range"):
        mint.select(x, 1, 7)
    with pytest.raises(ValueError, match="repeats"):
        mint.einsum("i->ii", ms.Tensor(V))
    with pytest.raises(ValueError, match="without replacement"):
        mint.multinomial(ms.Tensor(V), 9)


def test_docstring_examples_run():
    """Every public mint name has a docstring whose ``>>>`` lines run."""
    import doctest
    modules = [mint, mint.nn, mint.nn.functional, mint.optim, mint.linalg, mint.special,
               mint.distributed]
    seen = set()
    for module in modules:
        for name in dir(module):
            value = getattr(module, name)
            if name.startswith("_") or id(value) in seen or not callable(value):
                continue
            if not getattr(value, "__module__", "").startswith("tensorjit.mint"):
                continue
            seen.add(id(value))
            assert value.__doc__ and ">>>" in value.__doc__, f"{module.__name__}.{name}"
            examples = doctest.DocTestParser().get_examples(value.__doc__)
            namespace = {"ms": ms, "mint": mint, "np": np}
            for example in examples:
                exec(compile(example.source, f"<{name} docstring>", "exec"), namespace)
