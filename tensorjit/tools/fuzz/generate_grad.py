"""Differentiable programs for gradient fuzzing (float64, smooth operations, a scalar
result)."""
import numpy as np

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit import dtype as dt

from .programs import Program, HEADER, _broadcastable, _runs
from .generate import Generator


class GradGenerator(Generator):
    """Differentiable float64 programs of smooth operations returning a scalar, with tensor
    ``if`` / ``while`` whose branches are smooth too."""

    FLOAT_UNARY = ("ops.sigmoid({a})", "ops.tanh({a})", "ops.sin({a})", "ops.cos({a})",
                   "ops.exp(ops.tanh({a}))", "ops.log({a} * {a} + 1.0)",
                   "ops.sqrt({a} * {a} + 1.0)", "ops.square({a})", "ops.softplus({a})",
                   "ops.atan({a})", "ops.erf({a})", "ops.silu({a})", "ops.gelu({a})",
                   "-{a}", "{a} * 0.5", "{a} ** 2", "ops.expm1(ops.tanh({a}))")
    ANY_UNARY = FLOAT_UNARY
    BINARY = ("{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / ({b} * {b} + 1.0)",
              "ops.atan2({a}, {b} * {b} + 1.0)", "ops.where({b} > 0.3, {a}, {b})")
    SCALAR_BINARY = ("{a} + {s}", "{a} * {s}", "{s} - {a}", "{a} / {s}")

    def __init__(self, choose, max_statements=6):
        super().__init__(choose, max_statements, dtypes=(dt.float64,), allow_special=False)

    def scalar(self, dtype):
        return self.c.choice(("2.0", "0.5", "-1.5", "3"))

    def shape(self, max_rank=3):
        rank = self.c.integer(0, 3)
        return tuple(self.c.choice((2, 3, 1)) for _ in range(rank))

    def partner(self, a):
        t = self.ns[a]
        compatible = [n for n in self.visible
                      if _broadcastable(tuple(self.ns[n].shape), tuple(t.shape))]
        if compatible and self.c.chance(0.7):
            return self.c.choice(compatible)
        if t.ndim:
            return f"{a}.sum(axis={self.c.integer(-t.ndim, t.ndim - 1)}, keepdims=True)"
        return a

    def expr_reduction(self, a):
        t = self.ns[a]
        axes = self.axes(t.ndim)
        keep = self.c.choice(("False", "True"))
        kind = self.c.integer(0, 4)
        if kind == 0:
            return f"{a}.sum({axes}, keepdims={keep})"
        if kind == 1:
            return f"{a}.mean({axes}, {keep})"
        if kind == 2 and t.ndim:
            return f"ops.softmax({a}, {self.c.integer(-t.ndim, t.ndim - 1)})"
        if kind == 3 and t.ndim:
            return f"ops.log_softmax({a}, {self.c.integer(-t.ndim, t.ndim - 1)})"
        return f"{a} - {a}.mean()"

    def expr_shape(self, a):
        t = self.ns[a]
        shape, r = tuple(t.shape), t.ndim
        kind = self.c.integer(0, 6)
        if kind == 0:
            return f"{a}.reshape({self.reshape_target(shape)!r})"
        if kind == 1 and r:
            return f"{a}.transpose({tuple(reversed(range(r)))!r})"
        if kind == 2 and r:
            return f"ops.concat(({a}, {self.partner(a)} * 2.0), {self.c.integer(-r, r - 1)})"
        if kind == 3:
            return f"ops.broadcast_to({a}, {(2,) + shape!r})"
        if kind == 4 and r >= 2:
            return f"{a} @ {a}.mT"
        if kind == 5 and r:
            return f"{a}[{self.index(shape)}]"
        return f"ops.stack(({a}, {a} * {a}))"

    def expr_index(self, a):
        t = self.ns[a]
        return f"{a}[{self.index(tuple(t.shape))}]" if t.ndim else f"{a} * 1.5"

    def index(self, shape):
        # no integer-array indices (their gradient is a scatter-add, covered by tests/core)
        items = []
        for d in shape[:2]:
            if self.c.chance(0.5) and d:
                items.append(str(self.c.integer(0, d - 1)))
            else:
                items.append(self.c.choice((":", "1:", "::-1", ":2")))
        return ", ".join(items)

    def condition(self):
        a = self.pick()
        return self.c.choice((f"{a}.sum() > 0", f"{a}.mean() < 0.5", f"{a}.max() > 1.0"))

    def statement(self, indent, depth=0):
        kind = self.c.integer(0, 99)
        if kind < 78 or depth >= self.max_depth:
            self.assign(self.expr_any, indent)
        elif kind < 90:
            self.if_block(self.fresh(), self.pick(), indent, depth)
        else:
            self.while_block(self.fresh(), self.pick(), indent, depth)

    def inplace(self, indent):
        pass

    def program(self, n_sets=1):
        n_args = self.c.integer(1, 2)
        specs = [self.shape() for _ in range(n_args)]
        seed = self.c.integer(0, 2 ** 31)
        arrays = [np.random.default_rng(seed + k).uniform(-1.5, 1.5, s) for k, s in
                  enumerate(specs)]
        args = [f"x{k}" for k in range(n_args)]
        self.ns = {"np": np, "ms": ms, "Tensor": Tensor, "ops": ops}
        for name, array in zip(args, arrays):
            self.ns[name] = Tensor(array)
        self.visible = list(args)
        self.lines = []
        for _ in range(self.c.integer(1, self.max_statements)):
            self.statement(1)
        last = self.visible[-1]
        body = "\n".join(self.lines) + "\n" if self.lines else ""
        source = (HEADER + f"def prog({', '.join(args)}):\n" + body +
                  f"    return ({last} * ops.cos({last})).sum()\n")
        program = Program(source, [arrays], kind="grad")
        return program if _runs(program.fn, arrays) else None
