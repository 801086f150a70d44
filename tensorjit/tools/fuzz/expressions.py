"""The random program generator, part 1: the values it works on (names, shapes, input
arrays, scalars, axes) and the expressions it can write over them. ``generate.py`` builds
statements and programs on top (class ``Generator``)."""
import itertools

import numpy as np

from tensorjit import Tensor
from tensorjit import dtype as dt

from .programs import DTYPE_NAMES, NP_NAMES, MAX_ELEMENTS, _quiet, _broadcastable


class Expressions:
    """Values and expressions of a random program (``Generator`` adds statements)."""

    FLOAT_UNARY = ("ops.relu({a})", "ops.sigmoid({a})", "ops.tanh({a})", "ops.exp({a})",
                   "ops.log({a})", "ops.sqrt({a})", "ops.sin({a})", "ops.floor({a})",
                   "ops.ceil({a})", "ops.round({a})", "ops.sign({a})", "ops.square({a})",
                   "ops.reciprocal({a})", "ops.erf({a})", "ops.silu({a})", "ops.softplus({a})",
                   "ops.expm1({a})", "ops.log1p({a})", "ops.rsqrt({a})", "ops.atan({a})",
                   "ops.gelu({a})", "ops.cos({a})", "ops.clamp({a}, -1.5, 2.0)",
                   "ops.clamp({a}, min=0.25)")
    ANY_UNARY = ("-{a}", "ops.abs({a})", "ops.isnan({a})", "ops.isinf({a})",
                 "ops.isfinite({a})", "ops.logical_not({a})", "ops.square({a})",
                 "ops.zeros_like({a})", "ops.ones_like({a})", "ops.clamp({a}, -2, 3)",
                 "{a}.copy()")
    BINARY = ("{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / {b}", "ops.maximum({a}, {b})",
              "ops.minimum({a}, {b})", "{a} > {b}", "{a} <= {b}", "{a} == {b}", "{a} != {b}",
              "{a} // {b}", "{a} % {b}", "{a} ** {b}", "ops.atan2({a}, {b})",
              "ops.logical_and({a}, {b})", "ops.logical_or({a}, {b})", "{a} & {b}",
              "{a} | {b}", "ops.where({a} > 0, {a}, {b})", "ops.where({b} < 1, {a}, {b})")
    SCALAR_BINARY = ("{a} + {s}", "{a} - {s}", "{s} - {a}", "{a} * {s}", "{a} / {s}",
                     "{s} / {a}", "{a} ** 2", "{a} ** 0.5", "{a} > {s}", "{a} == {s}",
                     "ops.maximum({a}, {s})", "ops.where({a} > {s}, {a}, {s})",
                     "{a} // 2", "{a} % 3", "2 ** {a}")

    def __init__(self, choose, max_statements=8, dtypes=None, allow_special=True,
                 max_depth=2):
        self.c = choose
        self.max_statements = max_statements
        self.dtypes = dtypes or (dt.float32, dt.float32, dt.float32, dt.float64, dt.float16,
                                 dt.bfloat16, dt.int32, dt.int64, dt.bool_)
        self.allow_special = allow_special
        self.max_depth = max_depth
        self.counter = itertools.count()

    # ---- helpers -------------------------------------------------------------------------
    def fresh(self, prefix="v"):
        return f"{prefix}{next(self.counter)}"

    def _try_exec(self, code, ns=None):
        trial = dict(self.ns if ns is None else ns)
        try:
            with _quiet():
                exec(code, trial)
        except Exception:
            return None
        return trial

    def _ok_value(self, value):
        return isinstance(value, Tensor) and value.size <= MAX_ELEMENTS

    def pick(self, pred=None, recent=True):
        names = [n for n in self.visible if pred is None or pred(self.ns[n])]
        if not names:
            return None
        if recent and self.c.chance(0.6):
            return names[max(0, len(names) - 1 - self.c.integer(0, 2))]
        return self.c.choice(names)

    def shape(self, max_rank=3):
        rank = self.c.choice((0, 1, 1, 2, 2, 2, 3, 3)[:6 + (max_rank - 2) * 2])
        dims = []
        for _ in range(rank):
            dims.append(self.c.choice((2, 3, 1, 4, 0, 5) if self.allow_empty else (2, 3, 1, 4, 5)))
        return tuple(dims)

    def values(self, shape, dtype, seed):
        rng = np.random.default_rng(seed)
        if dtype == dt.bool_:
            return np.asarray(rng.random(shape) < 0.5)
        if dt.is_int(dtype):
            return np.asarray(rng.integers(-4, 6, size=shape)).astype(dtype)
        data = np.asarray(rng.standard_normal(shape) * rng.choice([1.0, 3.0]))
        if self.allow_special and data.size and rng.random() < 0.3:
            specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e4])
            mask = rng.random(shape) < 0.25
            data[mask] = rng.choice(specials, size=int(mask.sum()))
        return data.astype(dtype)

    def scalar(self, dtype):
        if dtype == dt.bool_ or dt.is_int(dtype):
            return self.c.choice(("2", "1", "-1", "0", "3", "0.5", "True"))
        return self.c.choice(("2.0", "0.5", "-1.5", "1", "0.0", "3", "-0.0", "1e-3",
                              "float('inf')", "float('nan')"))

    def axes(self, rank, allow_tuple=True):
        if rank == 0:
            return self.c.choice(("None", "()"))
        kind = self.c.integer(0, 3 if allow_tuple else 1)
        if kind == 0:
            return "None"
        if kind in (1, 2):
            return str(self.c.integer(-rank, rank - 1))
        axes = sorted({self.c.integer(0, rank - 1) for _ in range(self.c.integer(1, rank))})
        return "(" + "".join(f"{a}, " for a in axes) + ")"

    # ---- expressions ---------------------------------------------------------------------
    def expr_unary(self, a):
        t = self.ns[a]
        if dt.is_float(t.dtype) and self.c.chance(0.7):
            return self.c.choice(self.FLOAT_UNARY).format(a=a)
        return self.c.choice(self.ANY_UNARY).format(a=a)

    def partner(self, a):
        """An operand that broadcasts against ``a``."""
        t = self.ns[a]
        compatible = [n for n in self.visible
                      if _broadcastable(tuple(self.ns[n].shape), tuple(t.shape))]
        kind = self.c.integer(0, 3)
        if kind == 0 and compatible:
            return self.c.choice(compatible)
        if kind == 1 and t.ndim:
            return f"{a}.sum(axis={self.c.integer(-t.ndim, t.ndim - 1)}, keepdims=True)"
        if kind == 2:
            dtype = self.c.choice(self.dtypes)
            shape = tuple(t.shape)[self.c.integer(0, t.ndim):] if t.ndim else ()
            if dtype in NP_NAMES:
                seed = self.c.integer(0, 2 ** 16)
                values = self.values(shape, dtype, seed)
                return f"Tensor(np.array({values.tolist()!r}, {NP_NAMES[dtype]}))"
        if compatible:
            return self.c.choice(compatible)
        return a

    def expr_binary(self, a):
        if self.c.chance(0.35):
            return self.c.choice(self.SCALAR_BINARY).format(a=a, s=self.scalar(self.ns[a].dtype))
        b = self.partner(a)
        if self.c.chance(0.2):
            a, b = b, a
        return self.c.choice(self.BINARY).format(a=a, b=b)

    def expr_reduction(self, a):
        t = self.ns[a]
        axes = self.axes(t.ndim)
        keep = self.c.choice(("False", "True"))
        kind = self.c.integer(0, 9)
        if kind == 0:
            return f"{a}.sum()"
        if kind == 1:
            return f"{a}.sum(axis={axes}, keepdims={keep})"
        if kind == 2:
            return f"{a}.mean({axes}, {keep})"
        if kind == 3:
            return f"{a}.max({axes}, {keep})"
        if kind == 4:
            return f"ops.amin({a}, {axes}, {keep})"
        if kind == 5:
            return f"{a}.prod({axes}, {keep})"
        if kind == 6:
            axis = self.c.integer(-t.ndim, t.ndim - 1) if t.ndim else None
            return f"{a}.argmax({axis}, {keep})"
        if kind == 7:
            return f"ops.any({a} > 0, {axes}, {keep})"
        if kind == 8 and t.ndim:
            axis = self.c.integer(-t.ndim, t.ndim - 1)
            return self.c.choice(("ops.softmax({a}, {x})", "ops.log_softmax({a}, {x})",
                                  "{a} - {a}.mean({x}, True)")).format(a=a, x=axis)
        return f"ops.all({a} < 1, {axes}, {keep})"

    def reshape_target(self, shape):
        size = int(np.prod(shape)) if shape else 1
        if size == 0:
            options = [(0,), (0, self.c.integer(1, 3)), (self.c.integer(1, 3), 0, 2), (-1, 0)]
            target = self.c.choice(options)
            if -1 in target and self.c.chance(0.5):
                target = (0,)
            return target
        dims, rest = [], size
        for _ in range(self.c.integer(0, 3)):
            divisors = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.c.choice(divisors)
            dims.append(d)
            rest //= d
        dims.append(rest)
        if self.c.chance(0.3):
            dims[self.c.integer(0, len(dims) - 1)] = -1
        if size == 1 and self.c.chance(0.3):
            return ()
        return tuple(dims)

    def expr_shape(self, a):
        t = self.ns[a]
        shape, r = tuple(t.shape), t.ndim
        kind = self.c.integer(0, 11)
        if kind == 0:
            return f"{a}.reshape({self.reshape_target(shape)!r})"
        if kind == 1 and r:
            perm = list(range(r))
            for i in range(r - 1, 0, -1):
                j = self.c.integer(0, i)
                perm[i], perm[j] = perm[j], perm[i]
            return f"{a}.transpose({tuple(perm)!r})"
        if kind == 2:
            return f"ops.expand_dims({a}, {self.c.integer(-r - 1, r)})"
        if kind == 3:
            ones = [i for i, d in enumerate(shape) if d == 1]
            if ones and self.c.chance(0.7):
                return f"{a}.squeeze({self.c.choice(ones)})"
            return f"{a}.squeeze()"
        if kind == 4:
            return f"{a}.flatten()" if self.c.chance(0.5) else f"ops.flatten({a})"
        if kind == 5:
            lead = tuple(self.c.integer(0, 3) for _ in range(self.c.integer(0, 2)))
            target = lead + tuple(self.c.choice((d, 3)) if d == 1 else d for d in shape)
            return f"ops.broadcast_to({a}, {target!r})"
        if kind == 6 and r:
            b = self.partner(a)
            axis = self.c.integer(-r, r - 1)
            return self.c.choice(("ops.concat(({a}, {b}), {x})", "ops.concat([{a}, {a}], {x})",
                                  "ops.stack(({a}, {b}), {x})")).format(a=a, b=b, x=axis)
        if kind == 7 and r:
            return f"{a}.flip({self.c.integer(-r, r - 1)})"
        if kind == 8:
            reps = tuple(self.c.integer(1, 2) for _ in range(self.c.integer(1, max(r, 1))))
            return f"{a}.tile({reps!r})"
        if kind == 9 and r >= 2:
            return self.c.choice((f"{a}.swapaxes(0, -1)", f"{a}.T", f"{a}.mT"))
        if kind == 10 and r:
            b = self.pick(lambda v: v.ndim and v.shape[-1:] == tuple(t.shape[-1:])
                          and v.dtype == t.dtype)
            if b is not None and self.c.chance(0.5):
                return f"{a} @ {b}.mT" if self.ns[b].ndim >= 2 else f"{a} @ {b}"
            return f"{a} @ {a}.mT" if r >= 2 else f"ops.matmul({a}, {a})"
        return f"{a}.astype({self.c.choice(list(DTYPE_NAMES.values()))})" \
            if not dt.is_float(t.dtype) else self.safe_cast(a)

    def safe_cast(self, a):
        """Float -> any dtype; float -> int only from finite, small values (casting NaN or
        out-of-range values to an integer is undefined in C and differs by platform)."""
        target = self.c.choice(list(DTYPE_NAMES))
        if dt.is_int(target):
            return (f"ops.clamp(ops.where(ops.isnan({a}), 0.0, {a}), -100.0, 100.0)"
                    f".astype({DTYPE_NAMES[target]})")
        return f"{a}.astype({DTYPE_NAMES[target]})"

    def index(self, shape):
        items, used_ellipsis, axis = [], False, 0
        for _ in range(self.c.integer(1, max(1, min(len(shape), 3)))):
            kind = self.c.integer(0, 6)
            d = shape[axis] if axis < len(shape) else None
            if kind == 0 and d:
                items.append(str(self.c.integer(-d, d - 1)))
                axis += 1
            elif kind in (1, 2) and d is not None:
                start = self.c.choice(("", "1", "-2", "0", "5"))
                stop = self.c.choice(("", "-1", "2", "7"))
                step = self.c.choice(("", ":2", ":-1", ":-2", ":1"))
                items.append(f"{start}:{stop}{step}")
                axis += 1
            elif kind == 3:
                items.append("None")
            elif kind == 4 and not used_ellipsis:
                items.append("...")
                used_ellipsis = True
                axis = len(shape)
            elif kind == 5 and d:
                picks = [self.c.integer(-d, d - 1) for _ in range(self.c.integer(1, 3))]
                items.append(repr(picks) if self.c.chance(0.5) else
                             f"Tensor(np.array({picks!r}, np.int64))")
                axis += 1
            elif d is not None:
                items.append(":")
                axis += 1
        if not items:
            return "..."
        return ", ".join(items) if len(items) > 1 else items[0]

    def expr_index(self, a):
        t = self.ns[a]
        if t.ndim and self.c.chance(0.05):
            return f"{a}[{a} > 0]"           # a data-dependent shape
        return f"{a}[{self.index(tuple(t.shape))}]"

    def expr_any(self, a):
        kind = self.c.integer(0, 9)
        if kind <= 2:
            return self.expr_unary(a)
        if kind <= 5:
            return self.expr_binary(a)
        if kind == 6:
            return self.expr_reduction(a)
        if kind <= 8:
            return self.expr_shape(a)
        return self.expr_index(a)
