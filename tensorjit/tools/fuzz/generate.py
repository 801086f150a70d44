"""The random program generator, part 2: statements (assignments, in-place updates,
aliases, Python values read from tensors, tensor ``if`` / ``while``) and whole programs with
their input sets."""
import textwrap

import numpy as np

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit import dtype as dt

from .programs import Program, HEADER, STATE_HEADER, _runs
from .expressions import Expressions


class Generator(Expressions):
    """Builds one random valid program (see the package docstring)."""
    state = False          # whether the program uses Python state (STATE_HEADER)

    # ---- statements ----------------------------------------------------------------------
    def emit(self, text, indent):
        self.lines.append("    " * indent + text)

    def assign(self, make, indent, name=None, check=None, attempts=6):
        """Add ``name = make(...)`` if it runs eagerly (and passes ``check``)."""
        for _ in range(attempts):
            a = self.pick()
            expr = make(a)
            if expr is None:
                continue
            target = name or self.fresh()
            trial = self._try_exec(f"{target} = {expr}")
            if trial is None or not self._ok_value(trial[target]):
                continue
            if check is not None and not check(trial[target]):
                continue
            self.ns = trial
            self.emit(f"{target} = {expr}", indent)
            if target not in self.visible:
                self.visible.append(target)
            return target
        return None

    def preserving(self, target, src, indent):
        """``target = f(src)`` keeping ``src``'s shape and dtype (branch / loop bodies)."""
        s = self.ns[src]
        shape, dtype = tuple(s.shape), s.dtype

        def same(v):
            return tuple(v.shape) == shape and v.dtype == dtype

        def make(_):
            kind = self.c.integer(0, 4)
            if kind == 4 and target == src:
                return None               # see inplace_preserving
            if kind == 0:
                return self.expr_unary(src)
            if kind == 1 and s.ndim and self.c.chance(0.5):
                return f"{src}.flip({self.c.integer(-s.ndim, s.ndim - 1)})"
            if kind == 2 and s.ndim and dt.is_float(dtype):
                return f"{src} - {src}.mean({self.c.integer(-s.ndim, s.ndim - 1)}, True)"
            return self.expr_binary(src)
        if target == src and self.c.chance(0.2) and self.inplace_preserving(target, indent):
            return
        if self.assign(make, indent, name=target, check=same, attempts=10) is None:
            fallback = "ops.logical_not({a})" if dtype == dt.bool_ else "-{a}"
            if self.assign(lambda _: fallback.format(a=src), indent, name=target,
                           check=same) is None:
                self.assign(lambda _: f"{src}.copy()", indent, name=target, check=same)

    def condition(self):
        """A 0-d bool tensor depending on the data (or, sometimes, a Python bool)."""
        for _ in range(6):
            a = self.pick()
            t = self.ns[a]
            c = self.c.choice(("0", "0.5", "-1", "2"))
            kind = self.c.integer(0, 8)
            options = [f"{a}.sum() > {c}", f"{a}.mean() < {c}", f"({a} > {c}).any()",
                       f"{a}.max() > {c}", f"ops.all({a} <= {c})",
                       f"{a}.sum() > {self.pick()}.sum()", f"{a}.min() < {c}",
                       f"{a}.shape[0] > 1" if t.ndim else f"{a}.ndim == 0",
                       f"float({a}.sum()) > {c}"]
            cond = options[kind]
            trial = self._try_exec(f"_c = bool({cond})")
            if trial is not None:
                return cond
        return "True"

    def if_block(self, target, src, indent, depth):
        before_ns, before_visible, before_lines = self.ns, list(self.visible), self.lines
        cond = self.condition()
        branches = []
        for _ in range(2):
            self.ns, self.visible, self.lines = dict(before_ns), list(before_visible), []
            self.preserving(target, src, indent + 1)
            for _ in range(self.c.integer(0, 2)):
                if depth + 1 < self.max_depth and self.c.chance(0.15):
                    self.while_block(target, target, indent + 1, depth + 1)
                elif self.c.chance(0.5):
                    self.statement(indent + 1, depth + 1)
                else:
                    self.preserving(target, target, indent + 1)
            branches.append(self.lines)
        lines = ["    " * indent + f"if {cond}:"] + branches[0]
        if self.c.chance(0.3):
            lines += ["    " * indent + "else:"] + branches[1]
            block_ns = before_ns
        else:                       # no else: the target must exist before the if
            lines = ["    " * indent + f"{target} = {src}"] + lines
            block_ns = before_ns
        self.lines = before_lines
        trial = self._try_exec(textwrap.dedent("\n".join(lines)), block_ns)
        if trial is None or target not in trial:
            self.ns, self.visible = before_ns, before_visible
            return
        self.lines.extend(lines)
        self.ns, self.visible = trial, before_visible + ([target] if target not in
                                                         before_visible else [])

    def while_block(self, target, src, indent, depth):
        before_ns, before_visible, before_lines = self.ns, list(self.visible), self.lines
        i = self.fresh("i")
        limit = self.c.integer(1, 3)
        lines = []
        if target != src:
            lines.append("    " * indent + f"{target} = {src}")
        kind = self.c.integer(0, 3)
        if kind == 0:
            lines.append("    " * indent + f"{i} = 0")
            head = f"while {i} < {limit}:"
        elif kind == 1:
            lines.append("    " * indent + f"{i} = ({self.condition()}).astype(ms.int32)")
            head = f"while {i} < {limit}:"
        elif kind == 2:
            lines.append("    " * indent + f"{i} = 0")
            head = f"while {i} < {limit} and {target}.sum() < 100:"
        else:
            head = f"for {i} in range({limit}):"
        self.ns = dict(before_ns)
        self.ns[target] = before_ns[src]
        self.visible = list(before_visible) + ([target] if target not in before_visible else [])
        self.lines = []
        for _ in range(self.c.integer(1, 2)):
            if depth + 1 < self.max_depth and self.c.chance(0.3):
                self.if_block(target, target, indent + 1, depth + 1)
            else:
                self.preserving(target, target, indent + 1)
        body = self.lines
        lines.append("    " * indent + head)
        lines += body
        if kind != 3:
            lines.append("    " * (indent + 1) + f"{i} = {i} + 1")
        self.lines = before_lines
        trial = self._try_exec(textwrap.dedent("\n".join(lines)), before_ns)
        if trial is None or target not in trial or not self._ok_value(trial[target]):
            self.ns, self.visible = before_ns, before_visible
            return
        self.lines.extend(lines)
        self.ns = trial
        self.visible = before_visible + ([target] if target not in before_visible else [])

    def inplace(self, indent):
        a = self.pick()
        t = self.ns[a]
        if not self.c.chance(0.4):            # a fresh copy; otherwise update the value
            target = self.fresh()             # in place (an argument is written back)
            trial = self._try_exec(f"{target} = {a}.copy()")
            if trial is None:
                return
            self.ns = trial
            self.emit(f"{target} = {a}.copy()", indent)
            self.visible.append(target)
            a = target
        if t.ndim and t.size and self.c.chance(0.6):
            index = self.index(tuple(t.shape))
            value = self.c.choice((self.scalar(t.dtype), self.pick() or "1"))
            code = f"{a}[{index}] = {value}"
        else:
            code = f"{a} {self.c.choice(('+=', '*=', '-='))} {self.partner(a)}"
        trial = self._try_exec(code)
        if trial is not None and self._ok_value(trial[a]):
            self.ns = trial
            self.emit(code, indent)

    def inplace_preserving(self, target, indent):
        """``target op= operand`` or ``target[index] = value`` (the object is updated, so
        every name sharing it sees the change)."""
        t = self.ns[target]
        for _ in range(4):
            if t.ndim and t.size and self.c.chance(0.4):
                code = f"{target}[{self.index(tuple(t.shape))}] = {self.scalar(t.dtype)}"
            else:
                code = f"{target} {self.c.choice(('+=', '*=', '-='))} {self.partner(target)}"
            trial = self._try_exec(code)
            if trial is not None and tuple(trial[target].shape) == tuple(t.shape):
                self.ns = trial
                self.emit(code, indent)
                return True
        return False

    def alias(self, indent):
        """``vN = a``: a second name for the same tensor object."""
        a = self.pick()
        target = self.fresh()
        self.ns = dict(self.ns)
        self.ns[target] = self.ns[a]
        self.emit(f"{target} = {a}", indent)
        self.visible.append(target)

    def python_value(self, indent):
        a, b = self.pick(), self.pick()
        options = (f"{a} * float({b}.sum())", f"Tensor(np.tanh({a}.asnumpy()))",
                   f"{a} + {b}.shape[-1]" if self.ns[b].ndim else f"{a} + {b}.ndim",
                   f"{a} * {b}.mean().item()" if self.ns[b].size else f"{a} * 2")
        self.assign(lambda _: self.c.choice(options), indent)

    def python_state(self, indent):
        """Python state around the tensors: globals the checker rebinds between calls, a
        list appended to, an object's attributes and a dict's items read and written, a
        helper whose closure changes, a recursive helper, decisions taken through
        exceptions (on shapes and on values)."""
        kind = self.c.integer(0, 9)
        top = indent == 1
        if kind == 0:
            self.assign(lambda a: self.c.choice((f"{a} * SCALE", f"{a} + OFFSET",
                                                 f"{a} - SCALE * OFFSET")), indent)
        elif kind == 1 and top:
            a = self.pick()
            value = f"{a}.shape[0]" if self.ns[a].ndim else "len(LOG)"
            self._python_statement(f"LOG.append({value})", indent)
        elif kind == 2:
            depth = self.c.integer(0, 3)
            self.assign(lambda a: f"_tj_rec({a}, {depth})" if dt.is_float(self.ns[a].dtype)
                        else None, indent)
        elif kind == 3 and top:
            a = self.pick(lambda t: t.ndim >= 1)
            if a is None:
                return
            target, k = self.fresh(), self.c.integer(0, self.ns[a].shape[0] + 1)
            self._try_block(target, f"{target} = {a}[{k}]", "IndexError",
                            f"{target} = {a}.sum(0) * 0.5", indent)
        elif kind == 4 and top:
            self._python_statement(self.c.choice((
                "CFG.calls = CFG.calls + 1", "TABLE['n'] = TABLE['n'] + len(LOG) + 1",
                "CFG.scale = CFG.scale * 0.5")), indent)
        elif kind == 5:
            self.assign(lambda a: self.c.choice((
                f"{a} * CFG.scale", f"{a} + CFG.calls", f"{a} * TABLE['bias']",
                f"{a} + TABLE['n']")), indent)
        elif kind == 6:
            self.assign(lambda a: f"_tj_scale({a})" if dt.is_float(self.ns[a].dtype)
                        else None, indent)
        elif kind == 7 and top:
            a = self.pick(lambda t: t.size > 0 and dt.is_float(t.dtype))
            if a is None:
                return
            target = self.fresh()
            self._try_block(target, f"if float({a}.sum()) > 0:\n        raise ValueError"
                            f"('positive')\n    {target} = {a} + 1.0", "ValueError",
                            f"{target} = {a} * 0.5", indent)
        else:
            self.assign(lambda a: f"{a} * float(len(LOG) + OFFSET)", indent)

    def _python_statement(self, code, indent):
        if self._try_exec(code) is not None:
            self.emit(code, indent)

    def _try_block(self, target, body, error, handler, indent):
        code = f"try:\n    {body}\nexcept {error}:\n    {handler}"
        trial = self._try_exec(code)
        if trial is not None and self._ok_value(trial[target]):
            self.ns = trial
            for line in code.splitlines():
                self.emit(line, indent)
            self.visible.append(target)

    def statement(self, indent, depth=0):
        kind = self.c.integer(0, 99)
        if self.state and self.c.chance(0.25):
            self.python_state(indent)
        elif kind < 72 or depth >= self.max_depth:
            self.assign(self.expr_any, indent)
        elif kind < 82:
            src = self.pick()
            self.if_block(self.fresh(), src, indent, depth)
        elif kind < 88:
            src = self.pick()
            self.while_block(self.fresh(), src, indent, depth)
        elif kind < 93:
            self.inplace(indent)
        elif kind < 96:
            self.alias(indent)
        else:
            self.python_value(indent)

    # ---- the program -------------------------------------------------------------------
    def program(self, n_sets=3):
        self.allow_empty = self.c.chance(0.85)
        n_args = self.c.integer(1, 3)
        base = self.shape()
        main = self.c.choice(self.dtypes)
        specs = []
        for k in range(n_args):
            shape = base[self.c.integer(0, len(base)):] if k and self.c.chance(0.4) else base
            shape = tuple(1 if self.c.chance(0.15) else d for d in shape)
            dtype = main if self.c.chance(0.75) else self.c.choice(self.dtypes)
            specs.append((shape, dtype))
        seeds = [self.c.integer(0, 2 ** 31) for _ in range(n_sets)]
        sets = [[self.values(s, d, seed + 7919 * k) for k, (s, d) in enumerate(specs)]
                for seed in seeds]
        args = [f"x{k}" for k in range(n_args)]
        self.ns = {"np": np, "ms": ms, "Tensor": Tensor, "ops": ops}
        self.state = self.c.chance(0.3)
        if self.state:
            exec(STATE_HEADER, self.ns)
        for name, array in zip(args, sets[0]):
            self.ns[name] = Tensor(array)
        self.visible = list(args)
        self.lines = []
        for _ in range(self.c.integer(1, self.max_statements)):
            self.statement(1)
        results = [self.visible[-1]]
        if len(self.visible) > 1 and self.c.chance(0.4):
            other = self.c.choice(self.visible[:-1])
            results.append(other)
        body = "\n".join(self.lines) + "\n" if self.lines else ""
        source = (HEADER + (STATE_HEADER if self.state else "") +
                  f"def prog({', '.join(args)}):\n" + body +
                  f"    return {', '.join(results)}\n")
        if self.c.chance(0.3):        # other shapes, if the program takes them
            alt = [(tuple(self.c.choice((d, d + 1, 1)) for d in s), d_) for s, d_ in specs]
            if self.c.chance(0.3):      # other ranks too
                alt = [((2,) + s if self.c.chance(0.5) else s[1:], d_) for s, d_ in alt]
            sets.append([self.values(s, d_, seeds[0] + 1 + k) for k, (s, d_) in enumerate(alt)])
        program = Program(source, sets)
        program.input_sets = [s for s in sets if _runs(program.fn, s)]
        return program if program.input_sets else None
