"""Table entries: MindSpore's functional names built from other ops (addn, baddbmm, fill,
fills, gather_d, select, sequence_mask, scalar_to_tensor, unstack, clip_by_global_norm)
and the queries that return Python values (is_tensor, rank, size, shape), whose check is
the Python value NumPy gives for the same array, eagerly and inside compiled functions."""
import functools

import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, Kink, ALL, NUMERIC, INTS, FLOATS, bool_result
from .samples import random, mixed, specials, structural, case


def _requested(*_, type=None, dtype=None):
    return type if type is not None else dtype


def _value(dtype):
    return True if dtype == dt.bool_ else (3 if dt.is_int(dtype) else 2.5)


# ---- sums and products ---------------------------------------------------------------------

def _addn_samples(dtype, rng, full):
    def m(*shape):
        return mixed(rng, shape, dtype)
    return [Sample([m(3, 4), random(rng, (3, 4), dtype), random(rng, (3, 4), dtype)],
                   label="three", smooth=False),
            Sample([random(rng, (3,), dtype)], label="one"),
            Sample([random(rng, (), dtype), random(rng, (), dtype)], label="0-d"),
            Sample([np.zeros((2, 0), dtype)] * 2, label="empty"),
            Sample([m(3), m(4)], label="shapes differ", raises=ValueError)]


op("addn", prims=(), ref=lambda xs: functools.reduce(np.add, xs), dtypes=ALL,
   samples=_addn_samples, grad_samples=lambda rng, full: [
       Sample([rng.standard_normal((3, 4)) for _ in range(3)], label="three")],
   torch=lambda torch, xs: functools.reduce(lambda a, b: a + b, xs),
   notes={"bool": "adding bools is or, as add is (MindSpore's AddN too)",
          "integers": "wrap around in their dtype (NumPy, MindSpore)"})


def _baddbmm_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    scale = (2, 3) if dt.is_int(dtype) else (0.5, -1.5)
    nan_input = np.full((2, 3, 2), np.nan if dt.is_float(dtype) else 7, dtype)
    return [Sample(r(2, 3, 2), r(2, 3, 4), r(2, 4, 2), label="beta = alpha = 1"),
            Sample(r(2, 3, 2), r(2, 3, 4), r(2, 4, 2), *scale, label="beta, alpha"),
            Sample(r(3, 2), r(2, 3, 4), r(2, 4, 2), label="input broadcasts"),
            Sample(nan_input, r(2, 3, 4), r(2, 4, 2), 0, label="beta = 0 ignores the input"),
            Sample(r(2, 3, 2), r(2, 3, 0), r(2, 0, 2), label="empty contraction"),
            Sample(r(0, 3, 2), r(0, 3, 4), r(0, 4, 2), label="empty batch")]


op("baddbmm", prims=(), ref=lambda x, b1, b2, beta=1, alpha=1:
   (0 if beta == 0 else beta * x) + alpha * np.matmul(b1, b2), dtypes=NUMERIC,
   samples=_baddbmm_samples, tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   torch=lambda torch, x, b1, b2, beta=1, alpha=1: torch.baddbmm(x, b1, b2, beta=beta,
                                                                 alpha=alpha),
   notes={"beta = 0": "the input is not read: NaN / inf in it do not propagate (PyTorch)",
          "dtypes": "bool is refused (matmul's rule); integers multiply in their dtype"})


# ---- creation ------------------------------------------------------------------------------

op("fill", ref=lambda type, shape, value: np.full(shape, value, type), dtypes=ALL,
   result=_requested, grad=False, torch=None, prims=(), fuzz=False,
   samples=lambda dtype, rng, full: [
       Sample(type=dtype, shape=(2, 3), value=_value(dtype), label="2-d"),
       Sample(type=dtype, shape=(), value=_value(dtype), label="0-d"),
       Sample(type=dtype, shape=(2, 0), value=_value(dtype), label="empty")],
   notes={"signature": "MindSpore's fill(type, shape, value): ops.full with the dtype first"})
op("fills", ref=lambda x, value: np.full(x.shape, value, x.dtype), dtypes=ALL, grad=False,
   torch=None, prims=(), samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (3, 4), dtype), _value(dtype), label="2-d"),
       Sample(mixed(rng, (), dtype), _value(dtype), label="0-d"),
       Sample(mixed(rng, (2, 0), dtype), _value(dtype), label="empty")])
op("scalar_to_tensor", ref=lambda value, dtype: np.asarray(value).astype(dtype), dtypes=ALL,
   result=_requested, grad=False, torch=None, prims=(), fuzz=False,
   samples=lambda dtype, rng, full: [
       Sample(_value(dtype), dtype=dtype, label="a number of the dtype's kind"),
       Sample(1, dtype=dtype, label="an int"),
       Sample(True, dtype=dtype, label="a bool"),
       Sample([1, 2], dtype=dtype, label="a list", raises=TypeError)],
   notes={"conversion": "the number converted to the dtype (a float to an integer dtype "
                        "truncates, as NumPy)"})


# ---- indexing and selection ------------------------------------------------------------------

def _i(*values):
    return np.array(values, np.int64)


op("gather_d", prims=(), ref=lambda x, dim, idx: np.take_along_axis(x, idx, dim), dtypes=ALL,
   torch=lambda torch, x, dim, idx: torch.gather(x, dim, idx % x.shape[dim]),
   result=lambda x, idx: x, notes={"alias": "ops.gather_elements under MindSpore's older name"},
   **structural(lambda a, full: [
       case("dim 1", a(3, 4), 1, _i(0, 3, 3, 1, 2, 0).reshape(3, 2)),
       case("dim 0", a(3, 4), 0, _i(2, 0, 1, 1).reshape(1, 4)),
       case("negative indices", a(3, 4), 1, _i(-1, 0, -2).reshape(3, 1)),
       case("no indices", a(3, 4), 1, np.zeros((3, 0), np.int64))]))


def _select_samples(dtype, rng, full):
    def cond(*shape):
        return np.asarray(rng.random(shape) < 0.5)
    return [Sample(cond(3, 4), mixed(rng, (3, 4), dtype), mixed(rng, (3, 4), dtype),
                   label="same shapes", smooth=False),
            Sample(cond(3, 1), random(rng, (1, 4), dtype), random(rng, (3, 4), dtype),
                   label="broadcast"),
            Sample(cond(), random(rng, (2,), dtype), random(rng, (2,), dtype), label="0-d condition"),
            Sample(cond(2, 0), random(rng, (2, 0), dtype), random(rng, (2, 0), dtype),
                   label="empty")]


op("select", prims=(), ref=np.where, dtypes=ALL, samples=_select_samples,
   result=lambda c, x, y: x, torch=lambda torch, c, x, y: torch.where(c, x, y),
   grad_samples=lambda rng, full: [Sample(rng.random((3, 4)) < 0.5, rng.standard_normal((3, 4)),
                                          rng.standard_normal((3, 4)), label="random")],
   notes={"gradient": "each operand gets the cotangent where it was chosen, 0 elsewhere"})


def _sequence_mask_ref(lengths, maxlen=None):
    maxlen = (int(lengths.max()) if lengths.size else 0) if maxlen is None else maxlen
    return np.arange(maxlen) < lengths[..., None]


def _sequence_mask_samples(dtype, rng, full):
    signed = dt.is_int(dtype) and np.iinfo(dtype).min < 0
    return [Sample(random(rng, (4,), dtype, 0, 5), label="lengths"),
            Sample(random(rng, (2, 3), dtype, 0, 5), 6, label="2-d, maxlen"),
            Sample(np.array([-1 if signed else 0, 0, 2], dtype), 3, label="short lengths"),
            Sample(np.array([5, 1], dtype), 3, label="longer than maxlen"),
            Sample(np.zeros((0,), dtype), label="no lengths")]


op("sequence_mask", prims=(), ref=_sequence_mask_ref, dtypes=INTS, result=bool_result,
   samples=_sequence_mask_samples, grad=False, torch=None,
   notes={"maxlen": "None: the largest length (read from the data, so the result's shape "
                    "depends on it)"})
op("unstack", prims=(), ref=lambda x, axis=0: [np.take(x, i, axis) for i in range(x.shape[axis])],
   dtypes=ALL, torch=lambda torch, x, axis=0: torch.unbind(x, axis), **structural(
       lambda a, full: [case("rows", a(3, 4)), case("axis 1", a(3, 4), 1),
                        case("negative axis", a(2, 3, 2), -1), case("vector", a(3)),
                        case("an empty axis", a(0, 3))]))


# ---- clip_by_global_norm --------------------------------------------------------------------

def _clip_ref(xs, clip_norm=1.0, use_norm=None):
    norm = np.sqrt(sum(np.sum(np.square(x)) for x in xs)) if use_norm is None else use_norm
    scale = clip_norm / np.maximum(norm, clip_norm)
    return [x * scale for x in xs]


def _clip_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    out = [Sample([r(3, 4), r(5)], 1.0, label="clipped"),
           Sample([r(3, 4), r(5)], 100.0, label="within the norm"),
           Sample([r(2, 3)], 0.5, 4.0, label="use_norm"),
           Sample([r(3), np.zeros((0, 2), dtype)], 0.5, label="an empty tensor"),
           Sample([r(3)], 0.0, label="clip_norm 0", raises=ValueError)]
    if dt.is_float(dtype):
        out.append(Sample([specials(dtype)[3:8].copy()], 1.0, label="edge", smooth=False))
    return out


op("clip_by_global_norm", prims=(), ref=_clip_ref, dtypes=FLOATS, samples=_clip_samples,
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}, torch=None,
   kinks=[Kink(Sample([np.array([2.0, 0.0])], 2.0), [np.array([0.5, 1.0])],
               "where the global norm equals clip_norm, max(norm, clip_norm) gives half its "
               "slope to the norm (maximum's tie rule): 1 - sum(x) x / (2 norm^2) here")],
   notes={"norm": "accumulated in float32 (MindSpore), in float64 when a tensor is float64",
          "dtypes": "floats only: the scale cast to an integer dtype would zero the tensor "
                    "(MindSpore 2.10 accepts integers and returns zeros)"})


# ---- queries: Python values -------------------------------------------------------------------

def _query_check(fn, want):
    """The op gives ``want(x)`` (a Python value, of its type) eagerly, and a compiled
    function using it gives what eager does in every capture mode."""
    def user(t):
        return tj.ops.zeros(fn(t)) if fn is tj.ops.shape else t * fn(t)

    def check(entry, sample, got):
        x, = sample.leaves()
        value = fn(tj.Tensor(x))
        if type(value) is not type(want(x)) or value != want(x):
            return f"{value!r}, expected {want(x)!r}"
        eager = user(tj.Tensor(x)).asnumpy()
        for mode in ("trace", "ast", "bytecode"):
            jitted = tj.jit(user, capture_mode=mode)(tj.Tensor(x)).asnumpy()
            if jitted.shape != eager.shape or not np.array_equal(jitted, eager, equal_nan=True):
                return f"in {mode} capture the function gives {jitted!r}, eagerly {eager!r}"
        return None
    return check


def _query_samples(dtype, rng, full):
    return [Sample(random(rng, (2, 3), dtype), label="2-d"),
            Sample(random(rng, (), dtype), label="0-d"),
            Sample(np.zeros((2, 0, 3), dtype), label="empty 3-d")]


_QUERY = dict(dtypes=ALL, samples=_query_samples, grad=False, torch=None, fuzz=False, prims=(),
              ms=None,
              notes={"result": "a Python value, known while a graph is captured (the shape "
                               "is static)"})
op("shape", check=_query_check(tj.ops.shape, lambda x: tuple(int(d) for d in x.shape)),
   **_QUERY)
op("rank", check=_query_check(tj.ops.rank, lambda x: int(x.ndim)), **_QUERY)
op("size", check=_query_check(tj.ops.size, lambda x: int(x.size)), **_QUERY)


def _is_tensor_check(entry, sample, got):
    x, = sample.leaves()
    answers = {"a Tensor": tj.ops.is_tensor(tj.Tensor(x)), "an ndarray": tj.ops.is_tensor(x),
               "a number": tj.ops.is_tensor(1.5), "a list": tj.ops.is_tensor([tj.Tensor(x)])}
    want = {"a Tensor": True, "an ndarray": False, "a number": False, "a list": False}
    return None if answers == want else f"{answers}, expected {want}"


op("is_tensor", check=_is_tensor_check, **_QUERY)
