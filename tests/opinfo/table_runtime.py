"""Table entries: random numbers, side effects (print, assign, depend) and collectives.

Random ops have no reference values: their checks are the distribution's (range, moments,
fresh draws per call, reproducible after set_seed). Collectives run here in a one-process
world, where each is the identity; across processes they are checked against other
ranks in tests/communication."""
import contextlib
import io

import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt
from tensorjit.ops import PRIMITIVES
from tensorjit.ops.process_groups import WORLD

from .core import op, Sample, ALL, FLOATS, INTS, NUMERIC
from .samples import random, mixed, specials


def _requested(*_, dtype=None):
    return dtype


# ---- random numbers ------------------------------------------------------------------------

def _draws(entry, sample):
    """Two draws after the same seed and one after another: (first, again, other)."""
    def draw(seed):
        tj.set_seed(seed)
        return entry.op(*sample.tensors(), **sample.kwargs).asnumpy()
    return draw(5), draw(5), draw(6)


def _distribution_check(in_range, mean, std):
    def check(entry, sample, got):
        x = got[0].astype(np.float64)
        want = entry.result_dtypes(sample)[0]
        if got[0].dtype != want:
            return f"dtype {got[0].dtype}, expected {want}"
        if x.size and not in_range(x).all():
            return f"values outside the range: {x[~in_range(x)][:5]}"
        first, again, other = _draws(entry, sample)
        if not np.array_equal(first, again):
            return "the same seed gave other numbers"
        if x.size > 1000 and np.array_equal(first, other):
            return "another seed gave the same numbers"
        if x.size >= 10000:
            if abs(x.mean() - mean) > 0.03 or abs(x.std() - std) > 0.03:
                return f"mean {x.mean():.3f} / std {x.std():.3f}, expected {mean} / {std}"
        return None
    return check


def _shapes(dtype, rng, full):
    return [Sample(200, 100, dtype=dtype, label="20000 draws"), Sample(3, dtype=dtype, label="3"),
            Sample(0, dtype=dtype, label="none"), Sample((2, 3), dtype=dtype, label="tuple size")]


_RANDOM = dict(grad=False, torch=None, fuzz=False, random=True, result=_requested)
op("rand", prims=("random_uniform",), dtypes=FLOATS, samples=_shapes, **_RANDOM,
   check=_distribution_check(lambda x: (x >= 0) & (x < 1), 0.5, (1 / 12) ** 0.5))
op("randn", prims=("random_normal",), dtypes=FLOATS, samples=_shapes, **_RANDOM,
   check=_distribution_check(lambda x: np.isfinite(x), 0.0, 1.0))
op("randint", prims=("random_uniform",), dtypes=INTS, **_RANDOM,
   samples=lambda dtype, rng, full: [Sample(0, 5, (100, 200), dtype=dtype, label="[0, 5)"),
                                     Sample(3, 4, (3,), dtype=dtype, label="one value")],
   check=_distribution_check(lambda x: (x >= 0) & (x < 5), 2.0, 2 ** 0.5))


def _dropout(x, p=0.5, training=True):
    tj.set_seed(11)           # the same mask on every call: finite differences see one function
    return tj.ops.dropout(x, p, training)


def _dropout_check(entry, sample, got):
    x, = sample.leaves()
    p = sample.args[1] if len(sample.args) > 1 else 0.5
    training = sample.args[2] if len(sample.args) > 2 else True
    y = got[0].astype(np.float64)
    if got[0].dtype != x.dtype or y.shape != x.shape:
        return f"{got[0].dtype}{y.shape} for a {x.dtype}{x.shape} input"
    if not training or p == 0:
        return None if np.array_equal(got[0], x, equal_nan=True) else "not the identity"
    kept = y != 0
    scaled = (x.astype(np.float64) / (1 - p)).astype(x.dtype).astype(np.float64)
    if not np.allclose(y[kept], scaled[kept], rtol=1e-2, equal_nan=True):
        return "kept values are not x / (1 - p)"
    if x.size >= 10000 and abs((~kept).mean() - p) > 0.03:
        return f"dropped {(~kept).mean():.3f} of the values, expected {p}"
    return None


op("dropout", op=_dropout, dtypes=FLOATS, check=_dropout_check, torch=None, fuzz=False,
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (100, 100), dtype, 0.5, 2), 0.3, label="p=0.3"),
       Sample(random(rng, (3, 4), dtype), 0.5, False, label="not training"),
       Sample(random(rng, (3, 4), dtype), 0.0, label="p=0"),
       Sample(np.zeros((2, 0), dtype), 0.5, label="empty")],
   notes={"values": "kept values are scaled by 1 / (1 - p); a fresh mask on every call, "
                    "also in compiled graphs"})



def _moments_check(entry, sample, got):
    """N(mean, stddev^2) / U[minval, maxval) with the bounds the sample passes (tensors
    broadcast with the shape): in range, each row's moments, reproducible after set_seed."""
    x = got[0].astype(np.float64)
    want = entry.result_dtypes(sample)[0]
    if got[0].dtype != want:
        return f"dtype {got[0].dtype}, expected {want}"
    shape = sample.args[0]
    if x.shape != tuple(np.broadcast_shapes(shape, *[np.shape(a) for a in sample.args[1:3]])):
        return f"shape {x.shape} for shape {shape} and bounds {sample.args[1:3]}"
    a, b = (np.broadcast_to(np.asarray(v, np.float64), x.shape) for v in sample.args[1:3])
    if entry.name == "uniform":
        mean, std = (a + b) / 2, (b - a) / 12 ** 0.5
        outside = (x < a) | (x >= b)
    else:
        mean, std, outside = a, b, ~np.isfinite(x)
    if outside.any():
        return f"values outside the range: {x[outside][:5]}"
    first, again, other = _draws(entry, sample)
    if not np.array_equal(first, again):
        return "the same seed gave other numbers"
    if x.size > 1000 and np.array_equal(first, other):
        return "another seed gave the same numbers"
    if x.shape and x.shape[-1] >= 5000:       # rows of draws: each row's moments
        rows = x.reshape(-1, x.shape[-1])
        for k, row in enumerate(rows):
            m, s = mean.reshape(-1, x.shape[-1])[k, 0], std.reshape(-1, x.shape[-1])[k, 0]
            if abs(row.mean() - m) > 0.05 * max(s, 1) or abs(row.std() - s) > 0.05 * max(s, 1):
                return f"row {k}: mean {row.mean():.3f} / std {row.std():.3f}, expected {m} / {s}"
    return None


def _bound(dtype, *values):
    return np.array(values, dtype).reshape(-1, 1) if len(values) > 1 else np.array(values[0], dtype)


op("standard_normal", prims=("random_normal",), dtypes=(dt.float32,), **_RANDOM | {
   "result": lambda *_: dt.float32}, check=_distribution_check(np.isfinite, 0.0, 1.0),
   samples=lambda dtype, rng, full: [Sample((200, 100), label="20000 draws"),
                                     Sample((3,), label="3"), Sample((0, 2), label="none")],
   notes={"dtype": "float32, as MindSpore"})
op("normal", prims=("random_normal",), dtypes=FLOATS, check=_moments_check,
   **_RANDOM | {"result": lambda mean, std: mean}, samples=lambda dtype, rng, full: [
       Sample((2, 10000), _bound(dtype, 1.5), _bound(dtype, 2.0), label="0-d mean and stddev"),
       Sample((2, 10000), _bound(dtype, -1.0, 3.0), _bound(dtype, 0.5, 1.0),
              label="a mean and a stddev per row"),
       Sample((0, 3), _bound(dtype, 0.0), _bound(dtype, 1.0), label="none")],
   notes={"dtype": "the mean's dtype when it is a float, else float32",
          "bounds": "mean and stddev may be tensors; they broadcast with the shape"})
op("uniform", prims=("random_uniform",), dtypes=FLOATS, check=_moments_check,
   **_RANDOM | {"result": lambda a, b, dtype=dt.float32: dtype},
   samples=lambda dtype, rng, full: [
       Sample((2, 10000), _bound(dtype, -1.0), _bound(dtype, 3.0), dtype=dtype,
              label="[-1, 3)"),
       Sample((2, 10000), _bound(dtype, 0.0, 10.0), _bound(dtype, 1.0, 12.0), dtype=dtype,
              label="bounds per row"),
       Sample((3,), _bound(dtype, 2.0), _bound(dtype, 2.5), dtype=dtype, label="3")],
   notes={"range": "[minval, maxval): a draw that would round up to maxval in the dtype "
                   "stays below it"})


def _channel_dropout(name):
    def run(x, p=0.5, training=True):
        tj.set_seed(11)    # the same mask on every call: finite differences see one function
        return getattr(tj.ops, name)(x, p, training)
    return run


def _channel_dropout_check(spatial):
    def check(entry, sample, got):
        """Whole channels (the last ``spatial`` axes) are zero or x / (1 - p); about p of
        them are dropped."""
        x, = sample.leaves()
        p = sample.args[1] if len(sample.args) > 1 else 0.5
        training = sample.args[2] if len(sample.args) > 2 else True
        y = got[0].astype(np.float64)
        if got[0].dtype != x.dtype or y.shape != x.shape:
            return f"{got[0].dtype}{y.shape} for a {x.dtype}{x.shape} input"
        if not training or p == 0:
            return None if np.array_equal(got[0], x, equal_nan=True) else "not the identity"
        channels = y.reshape(y.shape[:-spatial] + (int(np.prod(y.shape[-spatial:])),))
        scaled = (x.astype(np.float64) / (1 - p)).astype(x.dtype).astype(np.float64)
        scaled = scaled.reshape(channels.shape)
        dropped = (channels == 0).all(-1)
        kept = np.isclose(channels, scaled, rtol=1e-2).all(-1)
        if not (dropped | kept).all():
            return "a channel is neither all zero nor all x / (1 - p)"
        if dropped.size >= 1000 and abs(dropped.mean() - p) > 0.05:
            return f"dropped {dropped.mean():.3f} of the channels, expected {p}"
        return None
    return check


def _channel_samples(spatial):
    def make(dtype, rng, full):
        def r(*shape):
            return random(rng, shape, dtype, 0.5, 2)
        sp = (3,) * spatial
        return [Sample(r(40, 50, *(2,) * spatial), 0.3, label="p=0.3"),
                Sample(r(4, *sp), 0.5, label="unbatched"),
                Sample(random(rng, (2, 3) + sp, dtype), 0.5, False, label="not training"),
                Sample(r(2, 3, *sp), 0.0, label="p=0"),
                Sample(np.zeros((0, 3) + sp, dtype), 0.5, label="empty"),
                Sample(r(*(2,) * (spatial + 3)), 0.5, label="too many axes", raises=ValueError)]
    return make


for _spatial in (1, 2, 3):
    _name = f"dropout{_spatial}d"
    op(_name, op=_channel_dropout(_name), prims=("random_uniform",), dtypes=FLOATS,
       check=_channel_dropout_check(_spatial), torch=None, fuzz=False, ms=None,
       samples=_channel_samples(_spatial), notes={
           "values": f"each channel (one draw per sample and channel, shared by the last "
                     f"{_spatial} axes) is zeroed with probability p, the rest scaled by "
                     f"1 / (1 - p); a fresh mask on every call, also in compiled graphs"})

# ---- side effects ----------------------------------------------------------------------------

def _printed(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


def _show(value):
    return np.array2string(value, separator=" ")


def _print_check(name):
    def check(entry, sample, got):
        """Eagerly and in a trace-captured graph (which binds the print primitive), the
        text is the values as NumPy shows them."""
        fn = getattr(tj.ops, name)
        x, = sample.leaves()
        want = f"x: {_show(x)} 3\n"
        eager = _printed(lambda t: fn("x:", t, 3), tj.Tensor(x))
        jitted = _printed(tj.jit(lambda t: fn("x:", t, 3), capture_mode="trace"), tj.Tensor(x))
        if eager != want or jitted != want:
            return f"printed {eager!r} eagerly and {jitted!r} compiled, expected {want!r}"
        return None
    return check


def _printing_graph(name):
    """The op inside a compiled graph, where it binds the print primitive."""
    def run(x):
        with contextlib.redirect_stdout(io.StringIO()):
            tj.jit(lambda t: getattr(tj.ops, name)("x:", t, 3), capture_mode="trace")(x)
    return run


def _print_samples(dtype, rng, full):
    return [Sample(mixed(rng, (2, 3), dtype), label="2-d"),
            Sample(random(rng, (), dtype), label="0-d")]


for _name in ("print_", "runtime_print"):
    op(_name, prims=("print",), op=_printing_graph(_name), dtypes=ALL, samples=_print_samples,
       check=_print_check(_name), grad=False, torch=None, fuzz=False, ms=None,
       notes={"format": "each value as NumPy prints it, separated by spaces; inside a "
                        "graph it prints when the graph runs"})


def _assigned(x, value):
    """A Parameter holding ``x`` gets ``value`` in a compiled graph (the assign primitive);
    the result is the Parameter's value afterwards."""
    param = tj.Parameter(x)
    tj.jit(lambda v: tj.ops.assign(param, v), capture_mode="trace")(value)
    return tj.Tensor(param.asnumpy())


op("assign", op=_assigned, prims=("assign",), dtypes=ALL, ref=lambda x, v: v, grad=False,
   torch=None, fuzz=False, ms=None, samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (2, 3), dtype), mixed(rng, (2, 3), dtype), label="2-d"),
       Sample(random(rng, (), dtype), random(rng, (), dtype), label="0-d")])
def _updated(name):
    """A Parameter holding ``x`` updated in place by ``ops.<name>(param, value)`` in a
    compiled graph; the result is the Parameter's value afterwards."""
    def run(x, value):
        param = tj.Parameter(x)
        tj.jit(lambda v: getattr(tj.ops, name)(param, v), capture_mode="trace")(value)
        return tj.Tensor(param.asnumpy())
    return run


def _two_same_shape(dtype, rng, full):
    return [Sample(mixed(rng, (2, 3), dtype), mixed(rng, (2, 3), dtype), label="2-d"),
            Sample(random(rng, (), dtype), random(rng, (), dtype), label="0-d")]


op("assign_add", op=_updated("assign_add"), prims=("assign", "add"), dtypes=ALL,
   ref=lambda x, v: x + v, grad=False, torch=None, fuzz=False, ms=None,
   samples=_two_same_shape)
op("assign_sub", op=_updated("assign_sub"), prims=("assign", "sub"), dtypes=NUMERIC,
   ref=lambda x, v: x - v, grad=False, torch=None, fuzz=False, ms=None,
   samples=_two_same_shape)
op("depend", prims=(), dtypes=ALL, ref=lambda value, expr: value, torch=None, ms=None,
   samples=lambda dtype, rng, full: [Sample(mixed(rng, (2, 3), dtype), mixed(rng, (2,), dtype),
                                            label="value first")],
   grad_samples=lambda rng, full: [Sample(rng.standard_normal((2, 3)), rng.standard_normal(2))])


# ---- collectives (one process: each is the identity) -------------------------------------

_ONE_RANK = {"ranks": "with one process each collective is the identity; across processes "
                      "tests/communication checks them against the other ranks"}


def _collective_samples(dtype, rng, full):
    return [Sample(mixed(rng, (4, 3), dtype), label="2-d", smooth=False),
            Sample(random(rng, (2,), dtype), label="vector"),
            Sample(np.zeros((0, 2), dtype), label="empty")]


def _collective(name, **fields):
    op(name, ref=lambda x, *a, **k: x, dtypes=ALL, samples=_collective_samples, torch=None,
       ms=None, fuzz=False, notes=_ONE_RANK, **fields,
       grad_samples=lambda rng, full: [Sample(rng.standard_normal((4, 3)))])


_collective("all_reduce")
_collective("all_gather")
_collective("reduce_scatter")
_collective("broadcast")
_collective("reduce")


def _barrier_check(entry, sample, got):
    return None if got == [np.asarray(None)] or got[0].size in (0, 1) else f"returned {got}"


op("barrier", dtypes=ALL, samples=lambda dtype, rng, full: [Sample(label="no arguments")],
   check=_barrier_check, grad=False, torch=None, ms=None, fuzz=False, notes=_ONE_RANK)


def _bucket(*xs):
    """The all-reduce pair passes/collectives.py issues: start (packs the operands into one
    message), wait (unpacks the reduced values)."""
    start, wait = PRIMITIVES["all_reduce_start"], PRIMITIVES["all_reduce_wait"]
    handle = start.bind(*xs, op="sum", group=WORLD, size=1)
    return wait.bind(handle, shapes=tuple(tuple(x.shape) for x in xs), op="sum",
                     group=WORLD, size=1)


op("prim:all_reduce_start", op=_bucket, prims=("all_reduce_start", "all_reduce_wait"),
   dtypes=ALL, ref=lambda *xs: list(xs), result=lambda *ds: ds, grad=False, torch=None,
   ms=None, fuzz=False, notes=_ONE_RANK, samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (2, 3), dtype), mixed(rng, (4,), dtype), label="two tensors"),
       Sample(np.zeros((0,), dtype), label="empty")])
