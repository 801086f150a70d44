"""Every registered primitive's VJP rule against central finite differences (float64).

For a primitive ``f`` with inputs ``x_i``, a random cotangent ``ct`` and a random
direction ``dx``, reverse mode must satisfy

    <vjp(ct)_i, dx>  ==  d/de <ct, f(..., x_i + e dx, ...)>   at e = 0,

the right side computed by central differences. Inputs and parameters for each primitive
are written below, by hand, independently of the implementation. Primitives without a
meaningful derivative are listed in NON_DIFFERENTIABLE and their VJP must give None/zero.

Registering a primitive without an entry here fails this module: that is on purpose.
"""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit.ops import PRIMITIVES, Primitive

from .helpers import is_floating

_WORLD = "hccl_world_group"

F64 = np.float64


class Case:
    """One sample call: ``make(rng)`` returns the positional input arrays; ``params`` the
    keyword parameters (or a function returning them, for values built at test time).
    Float64 array inputs are differentiated unless listed in ``nondiff``."""

    def __init__(self, make, params=None, *, nondiff=(), eps=1e-6, tol=1e-6, seed=None,
                 label="", integer_only=False):
        self.make, self._params = make, params
        self.integer_only = integer_only     # no float input: only check the VJP is None/0
        self.nondiff, self.eps, self.tol = set(nondiff), eps, tol
        self.seed, self.label = seed, label

    @property
    def params(self):
        return dict((self._params() if callable(self._params) else self._params) or {})


def C(*makers, **kw):
    """Case from per-input makers (each ``rng -> array``)."""
    params = kw.pop("params", None)
    return Case(lambda rng: [m(rng) for m in makers], params, **kw)


# ---- input makers ----------------------------------------------------------------------

def rn(*shape):
    return lambda rng: rng.standard_normal(shape)


def pos(*shape, lo=0.5, hi=2.0):
    return lambda rng: rng.uniform(lo, hi, shape)


def away(*shape):
    """Values with |v| in [0.3, 1.5]: away from the kink at 0 (relu, abs)."""
    return lambda rng: rng.uniform(0.3, 1.5, shape) * rng.choice([-1.0, 1.0], shape)


def distinct(*shape):
    """A random permutation of well-separated values: no ties for max/min."""
    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n) * 0.37 - n * 0.15).reshape(shape)


def const(value):
    return lambda rng: np.array(value)


def well(*shape):
    """Random matrices plus n on the diagonal: far from singular."""
    return lambda rng: rng.uniform(-1, 1, shape) + shape[-1] * np.eye(shape[-1])


def spd(n):
    """A symmetric positive-definite n x n matrix."""
    def make(rng):
        a = rng.uniform(-1, 1, (n, n))
        return a @ a.T + n * np.eye(n)
    return make


def booleans(*shape):
    return lambda rng: rng.random(shape) > 0.5


def ints(*shape, lo=-3, hi=4):
    return lambda rng: rng.integers(lo, hi, shape).astype(np.int64)


def _minmax_pair(rng):
    x = rng.standard_normal((3, 4))
    gap = rng.uniform(0.2, 1.0, (3, 4)) * rng.choice([-1.0, 1.0], (3, 4))
    return [x, x + gap]


def _mod_pair(rng):
    y = rng.uniform(0.7, 1.5, (3, 4))
    k = rng.integers(-2, 3, (3, 4))
    r = rng.uniform(0.2, 0.8, (3, 4))           # the remainder fraction: away from jumps
    return [(k + r) * y, y]


def _guard_params():
    from tensorjit.ops.effects import GuardValue
    return dict(expected=GuardValue(np.zeros(2)), index=0, reason="sample guard")


def _graph_params():
    """A small captured graph (inputs f64[3], f64[3]), as a GE unit's body."""
    def body(a, b):
        return ms.ops.sin(a) * b + a, ms.ops.exp(b)
    zeros = ms.Tensor(np.zeros(3))
    return dict(graph=ms.make_ir(body)(zeros, zeros))


def _fused_params():
    """A ``fused`` node's sub-graph (O1 fusion): elementwise ops over f64[3, 4]."""
    def body(a, b):
        return (ms.ops.maximum(a * b + a, b) - 0.5,)
    zeros = ms.Tensor(np.zeros((3, 4)))
    return dict(graph=ms.make_ir(body)(zeros, zeros))


def _cond_params():
    """``cond`` branches over (f64[3], f64[3]) returning two f64[3] (ast control flow)."""
    zeros = ms.Tensor(np.zeros(3))
    then = ms.make_ir(lambda a, b: (ms.ops.sin(a) * b, a + b))(zeros, zeros)
    other = ms.make_ir(lambda a, b: (a * a, ms.ops.exp(b) - a))(zeros, zeros)
    return dict(then_branch=then, else_branch=other)


def _loop_graphs():
    """A ``while_loop`` with one constant (f64[3]) and state (f64[3], i64 counter)."""
    zeros, i0 = ms.Tensor(np.zeros(3)), ms.Tensor(np.array(0, np.int64))
    cond = ms.make_ir(lambda a, x, i: (i < 3,))(zeros, zeros, i0)
    body = ms.make_ir(lambda a, x, i: (ms.ops.sin(x) * a + x, i + 1))(zeros, zeros, i0)
    return cond, body


def _while_params():
    cond, body = _loop_graphs()
    return dict(cond_graph=cond, body_graph=body, num_consts=1)


def _while_grad_params():
    from tensorjit.capture.control_flow import body_vjp_graph
    cond, body = _loop_graphs()
    return dict(cond_graph=cond, body_graph=body, num_consts=1,
                body_vjp=body_vjp_graph(body, [v.aval for v in body.inputs]))


def _scan_params(reverse=False):
    """A ``scan`` body: one constant (f64[3]), state (f64[3], i64 counter), per-step
    input f64[3]; per-step output f64[3]."""
    zeros, i0 = ms.Tensor(np.zeros(3)), ms.Tensor(np.array(0, np.int64))
    body = ms.make_ir(lambda a, c, i, x: (ms.ops.tanh(c * a + x), i + 1, c * x + a))(
        zeros, zeros, i0, zeros)
    return dict(body=body, num_consts=1, num_carry=2, length=4, reverse=reverse)


def _custom_params():
    """An ``ops.Custom`` pyfunc with two outputs (sin(a) * b, a * b) and its bprop."""
    def bprop(a, b, out, dout):
        return (dout[0] * ms.ops.cos(a) * b + dout[1] * b,
                dout[0] * ms.ops.sin(a) + dout[1] * a)
    op = ms.ops.Custom(lambda a, b: (np.sin(a) * b, a * b), lambda s, t: (s, s),
                       lambda d, e: (d, d), "pyfunc", bprop=bprop)
    return dict(op=op, static=())


def conv_out(size, k, s, d, before, after):
    return (size + before + after - d * (k - 1) - 1) // s + 1


CONV = dict(stride=(2, 1), padding=(1, 0, 2, 1), dilation=(1, 2), groups=2)
CONV_X, CONV_W = (2, 4, 7, 6), (6, 2, 3, 2)
CONV_Y = (2, 6, conv_out(7, 3, 2, 1, 1, 0), conv_out(6, 2, 1, 2, 2, 1))
CONV_PLAIN = dict(stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1)
CONV_SHIFTED = dict(stride=(1, 1), padding=(1, 1, 1, 1), dilation=(1, 1), groups=1)
UNFOLD = dict(kernel=(2, 3), stride=(1, 2), padding=(1, 0, 0, 1), dilation=(1, 1))
UNFOLD_X = (2, 3, 5, 6)
UNFOLD_Y = (2, 3, conv_out(5, 2, 1, 1, 1, 0), conv_out(6, 3, 2, 1, 0, 1), 2, 3)

S_ALL = ("s", None, None, None)

# ---- the table -------------------------------------------------------------------------

SAMPLES = {
    # unary math
    "neg": [C(rn(3, 4))],
    "abs": [C(away(3, 4))],
    "exp": [C(rn(3, 4))],
    "log": [C(pos(3, 4))],
    "log1p": [C(pos(3, 4, lo=-0.5, hi=2.0))],
    "expm1": [C(rn(3, 4))],
    "sqrt": [C(pos(3, 4))],
    "rsqrt": [C(pos(3, 4))],
    "sin": [C(rn(3, 4))],
    "cos": [C(rn(3, 4))],
    "tan": [C(pos(3, 4, lo=-1.2, hi=1.2))],
    "tanh": [C(rn(3, 4))],
    "atan": [C(rn(3, 4))],
    "sigmoid": [C(rn(3, 4))],
    "relu": [C(away(3, 4))],
    "erf": [C(rn(3, 4))],
    "softplus": [C(rn(3, 4))],
    "silu": [C(rn(3, 4))],
    "softsign": [C(rn(3, 4))],
    "gelu": [C(rn(3, 4), params=dict(approximate="none"), label="erf"),
             C(rn(3, 4), params=dict(approximate="tanh"), label="tanh")],
    "cast": [C(rn(3, 4), params=dict(dtype=ms.float32), eps=1e-2, tol=1e-4, label="f64->f32"),
             C(ints(3, 4), params=dict(dtype=ms.float64), label="int->f64",
               integer_only=True)],
    "identity": [C(rn(3, 4))],
    # special_math.py: inverse / hyperbolic trigonometry, logs, special functions
    "acos": [C(pos(3, 4, lo=-0.9, hi=0.9))],
    "asin": [C(pos(3, 4, lo=-0.9, hi=0.9))],
    "acosh": [C(pos(3, 4, lo=1.2, hi=3.0))],
    "asinh": [C(rn(3, 4))],
    "atanh": [C(pos(3, 4, lo=-0.9, hi=0.9))],
    "cosh": [C(rn(3, 4))],
    "sinh": [C(rn(3, 4))],
    "log2": [C(pos(3, 4))],
    "log10": [C(pos(3, 4))],
    "exp2": [C(rn(3, 4))],
    "erfc": [C(rn(3, 4))],
    "erfinv": [C(pos(3, 4, lo=-0.9, hi=0.9))],
    "lgamma": [C(pos(3, 4, lo=0.3, hi=4.0))],
    "digamma": [C(pos(3, 4, lo=0.3, hi=4.0))],
    "polygamma": [C(const(np.int64(1)), pos(3, 4)), C(ints(3, 1, lo=0, hi=3), pos(3, 4),
                                                       label="n per row")],
    **{f"bessel_{k}": [C(rn(3, 4))] for k in ("i0", "i0e", "i1", "i1e", "j0", "j1")},
    **{f"bessel_{k}": [C(pos(3, 4, lo=0.3, hi=3.0))] for k in ("k0", "k0e", "k1", "k1e", "y0",
                                                                "y1")},
    "trunc": [C(rn(3, 4))],
    "hypot": [C(away(3, 1, 4), away(2, 4)), C(away(3, 4), away())],
    "logaddexp": [C(rn(3, 1, 4), rn(2, 4))],
    "logaddexp2": [C(rn(3, 1, 4), rn(2, 4))],
    "fmod": [Case(_mod_pair)],
    "copysign": [C(away(3, 4), away(3, 4))],
    "gcd": [C(ints(3, 4), ints(3, 4), integer_only=True)],
    "lcm": [C(ints(3, 4), ints(3, 4), integer_only=True)],
    "left_shift": [C(ints(3, 4, lo=0), ints(3, 4, lo=0), integer_only=True)],
    "right_shift": [C(ints(3, 4), ints(3, 4, lo=0), integer_only=True)],
    "igamma": [C(pos(3, 4), pos(3, 4), nondiff=(0,))],
    "igammac": [C(pos(3, 4), pos(3, 4), nondiff=(0,))],
    "nextafter": [C(rn(3, 4), rn(3, 4))],
    "zeta": [C(pos(3, 4, lo=1.5, hi=3.0), pos(3, 4), nondiff=(0,))],
    "betainc": [C(pos(3, 4), pos(3, 4), pos(3, 4, lo=0.1, hi=0.9), nondiff=(0, 1))],
    "check_values": [C(lambda rng: rng.random((2, 3)) > 2, params=dict(message="bad",
                                                                       error="ValueError"))],
    "random_gamma": [C(pos(3), params=dict(shape=(2,), dtype=ms.float64), seed=3)],
    "random_poisson": [C(pos(3), params=dict(shape=(2,), dtype=ms.float64), seed=3)],
    "truncate_div": [C(rn(3, 4), away(3, 4))],
    # binary arithmetic (with broadcasting, so the VJPs must un-broadcast)
    "add": [C(rn(3, 1, 4), rn(2, 4)), C(rn(3, 4), rn())],
    "sub": [C(rn(3, 1, 4), rn(2, 4)), C(rn(), rn(2, 3))],
    "mul": [C(rn(3, 1, 4), rn(2, 4)), C(rn(2, 3), rn(2, 1))],
    "div": [C(rn(3, 1, 4), away(2, 4)), C(rn(), away(2, 3))],
    "pow": [C(pos(3, 4), rn(3, 4)), C(pos(2, 3), rn(3))],
    "maximum": [Case(_minmax_pair)],
    "minimum": [Case(_minmax_pair)],
    "mod": [Case(_mod_pair)],
    "atan2": [C(rn(3, 4), away(3, 4)), C(rn(2, 1), away(3))],
    "where": [C(booleans(3, 4), rn(3, 4), rn(3, 4)),
              C(booleans(3, 1), rn(1, 4), rn(3, 4), label="broadcast")],
    # reductions
    "reduce_sum": [C(rn(2, 3, 4), params=dict(axes=(0, 2), keepdims=False)),
                   C(rn(2, 3, 4), params=dict(axes=(1,), keepdims=True))],
    "reduce_max": [C(distinct(2, 3, 4), params=dict(axes=(0, 2), keepdims=False)),
                   C(distinct(3, 4), params=dict(axes=(0, 1), keepdims=True))],
    "reduce_min": [C(distinct(2, 3, 4), params=dict(axes=(1,), keepdims=False)),
                   C(distinct(3, 4), params=dict(axes=(1,), keepdims=True))],
    "reduce_prod": [C(away(2, 3, 4), params=dict(axes=(1,), keepdims=False)),
                    C(away(3, 4), params=dict(axes=(0, 1), keepdims=True))],
    # shapes
    "reshape": [C(rn(2, 3, 4), params=dict(shape=(4, 6)))],
    "transpose": [C(rn(2, 3, 4), params=dict(perm=(1, 2, 0)))],
    "broadcast_to": [C(rn(3, 1), params=dict(shape=(2, 3, 4))),
                     C(rn(), params=dict(shape=(2, 2)))],
    "concat": [C(rn(2, 1, 3), rn(2, 4, 3), rn(2, 2, 3), params=dict(axis=1))],
    "pad": [C(rn(2, 3), params=dict(pads=((1, 0), (2, 1)), value=0.5))],
    # indexing
    "getitem": [
        C(rn(4, 5), params=dict(spec=(("s", None, None, -2), ("i", 1))), label="basic"),
        C(rn(4, 5, 2), lambda rng: np.array([3, 0, 3, 1]),
          params=dict(spec=(S_ALL, ("t",))), label="repeated int tensor"),
        C(rn(4, 5), lambda rng: np.array([[0], [2]]), lambda rng: np.array([1, 4, 4]),
          params=dict(spec=(("t",), ("t",))), label="two int tensors"),
        C(rn(3, 4), params=dict(spec=(("n",), ("e",), ("s", 1, None, None))),
          label="None and Ellipsis"),
    ],
    "setitem": [
        C(rn(4, 5), rn(2, 5), params=dict(spec=(("s", 1, 3, None),)), label="slice"),
        C(rn(4, 5), rn(5), params=dict(spec=(("s", None, None, 2),)), label="broadcast value"),
        C(rn(4, 5), rn(3, 5), lambda rng: np.array([3, 0, 2]), params=dict(spec=(("t",),)),
          label="int tensor"),
    ],
    "index_add": [
        C(rn(4, 3), rn(5, 3), lambda rng: np.array([0, 2, 0, 3, 2]),
          params=dict(spec=(("t",),)), label="repeated indices"),
        C(rn(4, 3), rn(3), params=dict(spec=(("s", 1, None, None),)), label="slice"),
    ],
    # n-d gathers and scatters (rows of the last index axis; distinct rows where the rule
    # is MindSpore's per-row one, distinct values where max / min could tie)
    "gather_nd": [C(rn(3, 4), lambda rng: np.array([[0, 1], [2, 3], [0, 1]], np.int32),
                    label="elements, repeated"),
                  C(rn(3, 4), lambda rng: np.array([[2], [0]], np.int64), label="rows")],
    "tensor_scatter_add": [C(rn(4, 3), lambda rng: np.array([[0], [2], [0]], np.int32),
                             rn(3, 3), label="repeated rows")],
    "tensor_scatter_update": [C(rn(4, 3), lambda rng: np.array([[1, 2], [3, 0]], np.int64),
                                rn(2), label="depth 2")],
    "tensor_scatter_mul": [C(rn(4, 3), lambda rng: np.array([[3], [1]], np.int32), rn(2, 3))],
    "tensor_scatter_div": [C(rn(4, 3), lambda rng: np.array([[3], [1]], np.int32),
                             away(2, 3))],
    "tensor_scatter_max": [C(distinct(4, 3), lambda rng: np.array([[3], [1]], np.int32),
                             distinct(2, 3))],
    "tensor_scatter_min": [C(distinct(4, 3), lambda rng: np.array([[1, 1], [2, 0]], np.int32),
                             distinct(2))],
    # cumulative ops (cumprod: a zero in the row checks the zero-safe rule)
    "cumsum": [C(rn(3, 4), params=dict(axis=1, reverse=False)),
               C(rn(3, 4), params=dict(axis=0, reverse=True), label="reverse")],
    "cumprod": [C(away(3, 4), params=dict(axis=1, reverse=False)),
                C(lambda rng: np.array([[1.3, 0.0, -0.7, 2.0], [0.5, 1.5, 0.0, 0.0]]),
                  params=dict(axis=1, reverse=False), label="zeros"),
                C(away(3, 4), params=dict(axis=0, reverse=True), label="reverse")],
    "cummax": [C(distinct(3, 4), params=dict(axis=1))],
    "cummin": [C(distinct(3, 4), params=dict(axis=0))],
    "logcumsumexp": [C(rn(3, 4), params=dict(axis=1, reverse=False)),
                     C(rn(3, 4), params=dict(axis=0, reverse=True), label="reverse")],
    # linear algebra, convolution, pooling windows
    # LAPACK kernels (ops/linalg_kernels.py): well-conditioned inputs, distinct
    # singular values
    "solve": [C(well(3, 3), rn(3, 2)), C(well(2, 3, 3), rn(2, 3, 1), label="batched")],
    "cholesky": [C(spd(3)), C(lambda rng: np.stack([spd(2)(rng), spd(2)(rng)]),
                             label="batched")],
    "svd": [C(rn(4, 3), params=dict(full_matrices=False)),
            C(rn(2, 2, 3), params=dict(full_matrices=False), label="batched wide")],
    "slogdet": [C(well(3, 3)), C(well(2, 2, 2), label="batched")],
    "matrix_exp": [C(lambda rng: rng.standard_normal((3, 3)) * 0.5)],
    "matmul": [C(rn(2, 1, 3, 4), rn(5, 4, 2), label="batched broadcast"),
               C(rn(3, 4), rn(4, 2), label="2d"),
               C(rn(2, 3, 4), rn(4, 2), label="rows @ shared weight")],
    "conv2d": [C(rn(*CONV_X), rn(*CONV_W), params=CONV, label="stride/pad/dilation/groups"),
               C(rn(1, 2, 5, 5), rn(3, 2, 3, 3), params=CONV_PLAIN, label="plain"),
               C(rn(1, 16, 5, 5), rn(2, 16, 3, 3), params=CONV_SHIFTED, label="shifted GEMMs")],
    "conv2d_input_grad": [C(rn(*CONV_Y), rn(*CONV_W), params=dict(x_shape=CONV_X, **CONV)),
                          C(rn(1, 2, 5, 5), rn(2, 16, 3, 3),
                            params=dict(x_shape=(1, 16, 5, 5), **CONV_SHIFTED))],
    "conv2d_weight_grad": [C(rn(*CONV_X), rn(*CONV_Y), params=dict(w_shape=CONV_W, **CONV)),
                           C(rn(1, 16, 5, 5), rn(1, 2, 5, 5),
                             params=dict(w_shape=(2, 16, 3, 3), **CONV_SHIFTED))],
    "unfold": [C(rn(*UNFOLD_X), params=dict(pad_value=0.0, **UNFOLD))],
    "fold": [C(rn(*UNFOLD_Y), params=dict(x_shape=UNFOLD_X, **UNFOLD))],
    # normalisation
    "softmax": [C(rn(3, 4, 5), params=dict(axis=1)), C(rn(2, 6), params=dict(axis=1))],
    "log_softmax": [C(rn(3, 4, 5), params=dict(axis=1)), C(rn(2, 6), params=dict(axis=0))],
    "batch_norm": [C(rn(4, 3, 2, 2), pos(3), rn(3), params=dict(eps=1e-5), label="4d"),
                   C(rn(5, 3), pos(3), rn(3), params=dict(eps=1e-3), label="2d")],
    "layer_norm": [C(rn(2, 3, 4), rn(3, 4), rn(3, 4), params=dict(ndims=2, eps=1e-5)),
                   C(rn(4, 5), rn(5), rn(5), params=dict(ndims=1, eps=1e-5))],
    # random
    "dropout": [C(rn(4, 5), params=dict(p=0.3), seed=7)],
    # graphs (control flow / calls of sub-graphs)
    "fused": [C(rn(3, 4), rn(3, 4), params=_fused_params)],
    "graph_sink": [C(rn(3), rn(3), params=_graph_params)],
    "cond": [C(const(True), rn(3), rn(3), params=_cond_params, label="true"),
             C(const(False), rn(3), rn(3), params=_cond_params, label="false")],
    "cond_effect": [C(const(True), rn(3), rn(3), params=_cond_params)],
    "while_loop": [C(rn(3), rn(3), const(np.int64(0)), params=_while_params)],
    "while_loop_effect": [C(rn(3), rn(3), const(np.int64(1)), params=_while_params)],
    "scan": [C(rn(3), rn(3), const(np.int64(0)), rn(4, 3), params=_scan_params),
             C(rn(3), rn(3), const(np.int64(2)), rn(4, 3), params=lambda: _scan_params(True),
               label="reverse")],
    "custom": [C(rn(3, 4), rn(3, 4), params=_custom_params)],
    "while_grad": [C(rn(3), rn(3), const(np.int64(0)), rn(3), const(np.int64(0)),
                     params=_while_grad_params)],
    # collectives, on the one-process world (tests/communication runs them on 2 ranks)
    "all_reduce": [C(rn(3, 4), rn(2), params=dict(op="sum", group=_WORLD, size=1))],
    "all_gather": [C(rn(2, 3), params=dict(group=_WORLD, size=1))],
    "reduce_scatter": [C(rn(2, 3), params=dict(op="sum", group=_WORLD, size=1))],
    "broadcast": [C(rn(2, 3), params=dict(root=0, group=_WORLD, size=1))],
    "reduce": [C(rn(2, 3), params=dict(root=0, op="sum", group=_WORLD, size=1))],
    # ---- samples for the primitives in NON_DIFFERENTIABLE (their VJP must be None/0)
    "barrier": [C(params=dict(group=_WORLD, size=1), integer_only=True)],
    "all_reduce_start": [C(rn(3), rn(2, 2), params=dict(op="sum", group=_WORLD, size=1))],
    "all_reduce_wait": [C(rn(7), params=dict(shapes=((3,), (2, 2)), op="sum", group=_WORLD,
                                             size=1))],
    "sign": [C(away(3, 4))],
    "floor": [C(rn(3, 4))],
    "ceil": [C(rn(3, 4))],
    "round": [C(rn(3, 4))],
    "floordiv": [C(rn(3, 4), away(3, 4))],
    "eq": [C(rn(3, 4), rn(3, 4))],
    "ne": [C(rn(3, 4), rn(3, 4))],
    "lt": [C(rn(3, 4), rn(3, 4))],
    "le": [C(rn(3, 4), rn(3, 4))],
    "gt": [C(rn(3, 4), rn(3, 4))],
    "ge": [C(rn(3, 4), rn(3, 4))],
    "logical_and": [C(booleans(3, 4), booleans(3, 4))],
    "logical_or": [C(booleans(3, 4), booleans(3, 4))],
    "logical_xor": [C(booleans(3, 4), booleans(3, 4))],
    "logical_not": [C(booleans(3, 4))],
    "bitwise_and": [C(ints(3, 4), ints(3, 4))],
    "bitwise_or": [C(ints(3, 4), ints(3, 4))],
    "bitwise_xor": [C(ints(3, 4), ints(3, 4))],
    "isnan": [C(rn(3, 4))],
    "isinf": [C(rn(3, 4))],
    "isfinite": [C(rn(3, 4))],
    "argmax": [C(distinct(3, 4), params=dict(axis=1, keepdims=False))],
    "argmin": [C(distinct(3, 4), params=dict(axis=0, keepdims=True))],
    "argsort": [C(rn(3, 4), params=dict(axis=1, descending=False)),
                C(rn(3, 4), params=dict(axis=0, descending=True), label="descending")],
    "reduce_any": [C(booleans(3, 4), params=dict(axes=(1,), keepdims=False))],
    "reduce_all": [C(booleans(3, 4), params=dict(axes=(0, 1), keepdims=True))],
    "stop_gradient": [C(rn(3, 4))],
    "full": [C(params=dict(shape=(2, 3), value=1.5, dtype=ms.float64))],
    "random_uniform": [C(params=dict(shape=(2, 3), dtype=ms.float64), seed=3)],
    "random_normal": [C(params=dict(shape=(2, 3), dtype=ms.float64), seed=3)],
    # side effects inside graphs (their forward is not run here: see _outputs)
    "assign": [C(rn(2, 3), rn(2, 3))],
    "print": [C(rn(2, 3), params=dict(segments=("value:", None)))],
    "guard": [C(rn(2), params=_guard_params)],
}

# Primitives with no meaningful derivative: the VJP must return None (or zeros) for every
# input. Each still needs an input sample in SAMPLES so that its VJP can be called.
NON_DIFFERENTIABLE = {
    "sign", "floor", "ceil", "round", "floordiv",
    "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor",
    "isnan", "isinf", "isfinite",
    "argmax", "argmin", "argsort", "reduce_any", "reduce_all",
    "stop_gradient", "full", "random_uniform", "random_normal",
    "assign", "print", "guard",
    "barrier", "all_reduce_start", "all_reduce_wait",
    "trunc", "gcd", "lcm", "left_shift", "right_shift", "nextafter", "truncate_div",
    "check_values", "random_gamma", "random_poisson",
}

HOW_TO_ADD = (
    "Every primitive needs a gradient check in tests/core/test_vjp_registry.py: add "
    "SAMPLES[{name!r}] = [C(<input maker per positional input>, params=dict(...))] "
    "(float64 inputs, away from kinks and ties); if it has no meaningful derivative, "
    "also add {name!r} to NON_DIFFERENTIABLE (its VJP must then return None or zeros).")


# ---- machinery ---------------------------------------------------------------------------

def _call(prim, arrays, params, seed):
    if seed is not None:
        ms.set_seed(seed)
    out = prim.bind(*[ms.Tensor(a) for a in arrays], **params)
    outs = out if prim.multiple_results else (out,)
    return [o.asnumpy() for o in outs]


def _random_like(rng, array):
    if is_floating(array.dtype):
        return rng.standard_normal(array.shape).astype(array.dtype)
    if array.dtype == np.bool_:
        return rng.random(array.shape) > 0.5
    return rng.integers(-3, 4, array.shape).astype(array.dtype)


def _as_f64(array):
    return np.asarray(array).astype(np.float64)


def _cases(name):
    return [(name, i, case) for i, case in enumerate(SAMPLES.get(name, [None]))]


ALL_CASES = [c for name in sorted(PRIMITIVES) for c in _cases(name)]


def _case_id(item):
    name, i, case = item
    return name if case is None or not case.label else f"{name}[{case.label}]"


def uncovered(names):
    return sorted(set(names) - set(SAMPLES) - NON_DIFFERENTIABLE)


def test_every_primitive_has_a_gradient_check():
    missing = uncovered(PRIMITIVES)
    assert not missing, "\n".join(HOW_TO_ADD.format(name=n) for n in missing)
    without_sample = sorted(NON_DIFFERENTIABLE - set(SAMPLES))
    assert not without_sample, (
        f"NON_DIFFERENTIABLE primitives {without_sample} need an input sample in SAMPLES "
        f"so that their VJP can be checked to return None/zero")


def test_a_new_primitive_without_an_entry_is_reported():
    name = "_test_only_unlisted_primitive"
    Primitive(name, lambda x: x, lambda x: x, lambda ct, out, x: (ct,))
    try:
        assert name in uncovered(PRIMITIVES)
    finally:
        del PRIMITIVES[name]
    assert name not in uncovered(PRIMITIVES)


@pytest.mark.parametrize("item", ALL_CASES, ids=[_case_id(c) for c in ALL_CASES])
def test_vjp_matches_finite_differences(item):
    name, index, case = item
    assert case is not None, HOW_TO_ADD.format(name=name)
    prim = PRIMITIVES[name]
    rng = np.random.default_rng(index + 17 * len(name))
    arrays = case.make(rng)
    params = case.params
    if prim.effect:
        # side effects (assign, print, guard) run only inside graphs: make outputs of the
        # shapes the shape rule gives, to call the VJP with
        avals = prim.abstract_eval([ms.Tensor(a).aval for a in arrays], params)
        outs = [_random_like(rng, np.zeros(a.shape, a.dtype)) for a in avals]
        out_tensors = [ms.Tensor(o) for o in outs]
        out_tensors = tuple(out_tensors) if prim.multiple_results else out_tensors[0]
    else:
        outs = _call(prim, arrays, params, case.seed)
        if case.seed is not None:
            ms.set_seed(case.seed)
        out_tensors = prim.bind(*[ms.Tensor(a) for a in arrays], **params)

    # VJP at a random cotangent (bool/int outputs get a cotangent of their own dtype)
    cts = [_random_like(rng, o) for o in outs]
    ct_tensors = [ms.Tensor(c) for c in cts]
    ct_arg = tuple(ct_tensors) if prim.multiple_results else ct_tensors[0]
    grads = prim.vjp(ct_arg, out_tensors, *[ms.Tensor(a) for a in arrays], **params)
    grads = tuple(grads)
    assert len(grads) == len(arrays), (
        f"{name}: the VJP returned {len(grads)} cotangents for {len(arrays)} inputs")

    if name in NON_DIFFERENTIABLE:
        for i, g in enumerate(grads):
            assert g is None or not np.any(g.asnumpy()), \
                f"{name}: non-differentiable, yet the VJP of input {i} is non-zero"
        return

    float_outs = [i for i, o in enumerate(outs) if is_floating(o.dtype)]
    checked = 0
    for i, a in enumerate(arrays):
        if i in case.nondiff:
            g = grads[i]
            assert g is None or not np.any(g.asnumpy()), \
                f"{name}: input {i} ({a.dtype}) is not differentiable but got a gradient"
            continue
        if not (isinstance(a, np.ndarray) and a.dtype == F64):
            # an integer / bool input may get a gradient (MindSpore's rule: the tape casts
            # it to the input's dtype); finite differences cannot check it, its shape must
            # be right
            g = grads[i]
            assert g is None or tuple(g.shape) == np.shape(a), \
                f"{name}: gradient of input {i} has shape {tuple(g.shape)}, input {np.shape(a)}"
            continue
        g = grads[i]
        assert g is not None, f"{name}: the VJP returned None for float input {i}"
        assert tuple(g.shape) == a.shape, (
            f"{name}: gradient of input {i} has shape {tuple(g.shape)}, input {a.shape}")
        assert g.dtype == a.dtype, f"{name}: gradient of input {i} is {g.dtype}, not {a.dtype}"
        for _ in range(2):                           # two random directions per input
            direction = rng.standard_normal(a.shape)

            def objective(e):
                shifted = list(arrays)
                shifted[i] = a + e * direction
                values = _call(prim, shifted, params, case.seed)
                return sum(float(np.sum(_as_f64(values[k]) * _as_f64(cts[k])))
                           for k in float_outs)

            numeric = (objective(case.eps) - objective(-case.eps)) / (2 * case.eps)
            analytic = float(np.sum(_as_f64(g.asnumpy()) * direction))
            assert abs(numeric - analytic) <= case.tol * (1.0 + abs(numeric)), (
                f"{name}: input {i}: VJP gives <g, dx> = {analytic!r}, finite differences "
                f"{numeric!r}")
        checked += 1
    assert checked or case.integer_only, f"{name}: the sample has no float64 input to differentiate"
