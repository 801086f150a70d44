"""Differential fuzzing of the compiler: random programs must give eager's answers under
every capture mode x jit_level x backend.

    python -m tensorjit.tools.fuzz --programs 2000 --seed 1      # forward programs
    python -m tensorjit.tools.fuzz --grad --programs 300 --seed 1  # gradients vs finite differences

A program is Python source over tensorjit (so ``capture_mode="ast"`` can read it), written
to a temporary ``.py`` file and imported. The generator builds it statement by statement and
runs every candidate statement eagerly on the first input set, keeping it only if it runs:
programs are always valid, and their shapes and dtypes are whatever tensorjit's eager mode
says. Programs mix broadcasting (0-d and empty tensors included), float16 / bfloat16 /
float32 / float64 / int / bool, promotion with Python scalars, reductions with axes,
reshapes, transposes, slices and indexing, casts, matmul, softmax, in-place updates (also of
the arguments), tensor-dependent ``if`` / ``while`` / ``for``, Python values read from tensors
(guards, graph breaks, fallbacks) and NaN / inf / -0.0 in the inputs.

Each program runs eagerly on several input sets (same shapes, other values, so tensor
conditions go both ways, plus, when the program allows, other shapes) and then, per
configuration, through a fresh ``jit`` called on the sets in an order that exercises first
compiles, cache hits, guard failures and the generated fast path. A *mismatch* is any
difference from eager: an exception, another structure, dtype or shape, NaN or inf in other
places, values beyond the dtype's tolerance, or a different final value of an argument the
program updates in place.

The same generator drives the hypothesis tests in ``tests/reliability`` (``HypothesisChooser``)
and this command (``RandomChooser``: program ``i`` of ``--seed s`` is reproducible alone with
``--seed s --start i --programs 1 --show``).
"""
import argparse
import atexit
import contextlib
import hashlib
import importlib.util
import itertools
import os
import random
import shutil
import signal
import sys
import tempfile
import textwrap
import threading
import time
import traceback
import warnings

import numpy as np

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit import dtype as dt

MODES = ("trace", "ast", "bytecode")
LEVELS = ("O0", "O1")
BACKENDS = ("ms_backend", "GE")
CONFIGS = tuple(dict(capture_mode=m, jit_level=lv, backend=b)
                for m in MODES for lv in LEVELS for b in BACKENDS)

DTYPE_NAMES = {dt.float16: "ms.float16", dt.bfloat16: "ms.bfloat16", dt.float32: "ms.float32",
               dt.float64: "ms.float64", dt.int32: "ms.int32", dt.int64: "ms.int64",
               dt.bool_: "ms.bool_", dt.int8: "ms.int8", dt.uint8: "ms.uint8"}
NP_NAMES = {dt.float16: "np.float16", dt.float32: "np.float32", dt.float64: "np.float64",
            dt.int32: "np.int32", dt.int64: "np.int64", dt.bool_: "np.bool_"}
MAX_ELEMENTS = 2048


def config_label(config):
    return f"{config['capture_mode']}/{config['jit_level']}/{config['backend']}"


# ---------------------------------------------------------------------------------------
# choosers: where the random decisions come from

class RandomChooser:
    """Decisions from ``random.Random(seed)`` (the command line)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def choice(self, options):
        return options[self.rng.randrange(len(options))]

    def chance(self, p):
        return self.rng.random() < p


class HypothesisChooser:
    """Decisions drawn from hypothesis (tests), so failures shrink to small programs: every
    decision shrinks towards the first option / ``False`` / the lower bound."""

    def __init__(self, draw):
        from hypothesis import strategies as st
        self.draw, self.st = draw, st

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))

    def choice(self, options):
        return options[self.draw(self.st.integers(0, len(options) - 1))]

    def chance(self, p):
        return self.draw(self.st.integers(0, 999)) >= 1000 - int(p * 1000)


# ---------------------------------------------------------------------------------------
# programs

class Program:
    """Source text of a module defining ``prog`` and the input sets to call it with."""

    def __init__(self, source, input_sets, kind="forward"):
        self.source = source
        self.input_sets = input_sets           # [[np.ndarray per argument], ...]
        self.kind = kind
        self._fn = None

    @property
    def fn(self):
        if self._fn is None:
            self._fn = load(self.source)
        return self._fn

    def __repr__(self):
        sets = "\n".join(f"#   set {i}: " + ", ".join(
            f"{a.dtype}{list(a.shape)}" for a in arrays) for i, arrays in enumerate(self.input_sets))
        return f"{self.source}# input sets:\n{sets}\n"


_module_dir = None
_module_lock = threading.Lock()


def _modules_dir():
    global _module_dir
    with _module_lock:
        if _module_dir is None:
            _module_dir = tempfile.mkdtemp(prefix="tensorjit_fuzz_")
            atexit.register(shutil.rmtree, _module_dir, True)
    return _module_dir


def load(source, name="prog"):
    """Import ``source`` from a real file (ast capture reads the source back) and return
    its function ``name``."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    module_name = f"tj_fuzz_{digest}"
    path = os.path.join(_modules_dir(), module_name + ".py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


HEADER = ("import numpy as np\n"
          "import tensorjit as ms\n"
          "from tensorjit import Tensor, ops\n\n\n")


def _quiet():
    stack = contextlib.ExitStack()
    stack.enter_context(np.errstate(all="ignore"))
    stack.enter_context(warnings.catch_warnings())
    warnings.simplefilter("ignore")
    return stack


class Generator:
    """Builds one random valid program (see the module docstring)."""

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

    def statement(self, indent, depth=0):
        kind = self.c.integer(0, 99)
        if kind < 72 or depth >= self.max_depth:
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
        source = (HEADER + f"def prog({', '.join(args)}):\n" + body +
                  f"    return {', '.join(results)}\n")
        if self.c.chance(0.3):        # other shapes, if the program takes them
            alt = [(tuple(self.c.choice((d, d + 1, 1)) for d in s), d_) for s, d_ in specs]
            if self.c.chance(0.3):      # other ranks too
                alt = [((2,) + s if self.c.chance(0.5) else s[1:], d_) for s, d_ in alt]
            sets.append([self.values(s, d_, seeds[0] + 1 + k) for k, (s, d_) in enumerate(alt)])
        program = Program(source, sets)
        program.input_sets = [s for s in sets if _runs(program.fn, s)]
        return program if program.input_sets else None


def _broadcastable(small, big):
    if len(small) > len(big):
        return False
    return all(s == 1 or s == b for s, b in zip(small[::-1], big[::-1]))


def _runs(fn, arrays):
    try:
        with _quiet():
            fn(*[Tensor(a) for a in arrays])
        return True
    except Exception:
        return False


# ---------------------------------------------------------------------------------------
# comparing with eager

TOLERANCES = {dt.float16: 2e-2, dt.bfloat16: 6e-2, dt.float32: 2e-4, dt.float64: 1e-9}


def _leaves(tree):
    if isinstance(tree, Tensor):
        return [tree]
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _leaves(item)]
    return [tree]


def compare(actual, expected):
    """Differences between a jitted result and eager's, as a list of strings."""
    if type(actual) is not type(expected) and not (
            isinstance(actual, Tensor) and isinstance(expected, Tensor)):
        return [f"result type {type(actual).__name__} != eager {type(expected).__name__}"]
    a_leaves, e_leaves = _leaves(actual), _leaves(expected)
    if len(a_leaves) != len(e_leaves):
        return [f"{len(a_leaves)} results != eager {len(e_leaves)}"]
    problems = []
    for k, (a, e) in enumerate(zip(a_leaves, e_leaves)):
        if not isinstance(e, Tensor):
            if a != e:
                problems.append(f"result {k}: {a!r} != eager {e!r}")
            continue
        if not isinstance(a, Tensor):
            problems.append(f"result {k}: {type(a).__name__} instead of a Tensor")
            continue
        problem = compare_arrays(a.asnumpy(), e.asnumpy())
        if problem:
            problems.append(f"result {k}: {problem}")
    return problems


def compare_arrays(a, e):
    if a.dtype != e.dtype:
        return f"dtype {a.dtype} != eager {e.dtype}"
    if a.shape != e.shape:
        return f"shape {a.shape} != eager {e.shape}"
    if not dt.is_float(e.dtype):
        if not np.array_equal(a, e):
            return f"values differ: {a!r} != eager {e!r}"
        return None
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    if not np.array_equal(np.isnan(a64), np.isnan(e64)):
        return f"NaN positions differ: {a!r} != eager {e!r}"
    inf = np.isinf(e64) | np.isinf(a64)
    if not np.array_equal(a64[inf], e64[inf]):
        return f"inf positions differ: {a!r} != eager {e!r}"
    finite = np.isfinite(e64) & np.isfinite(a64)
    if finite.any():
        tol = TOLERANCES[e.dtype]
        scale = max(1.0, float(np.abs(e64[finite]).max()))
        err = np.abs(a64[finite] - e64[finite])
        if (err > tol * scale + tol * np.abs(e64[finite])).any():
            return f"values differ beyond {tol}: {a!r} != eager {e!r}"
    return None


_VALUE_PROBLEMS = ("values differ", "NaN positions differ", "inf positions differ")


class Mismatch:
    def __init__(self, program, config, call, detail):
        self.program, self.config, self.call, self.detail = program, config, call, detail

    def __str__(self):
        return (f"{config_label(self.config)}, call {self.call}: {self.detail}\n"
                f"{self.program!r}")


@contextlib.contextmanager
def time_limit(seconds):
    """Raise TimeoutError after ``seconds`` (main thread only; elsewhere no limit)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"no result after {seconds} s (an infinite loop?)")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call(fn, arrays):
    """Call ``fn`` on fresh tensors; returns (result, final argument arrays)."""
    tensors = [Tensor(a) for a in arrays]
    result = fn(*tensors)
    return result, [t.asnumpy() for t in tensors]


CALL_ORDER = (0, 1, 0, 2, 1, 0, 2, 3, 0)
STATS = {"calls": 0, "ill_conditioned": 0}


def _nudged(arrays, direction):
    """The arrays with every float moved one ulp towards ``direction``."""
    out = []
    for a in arrays:
        if dt.is_float(a.dtype):
            a = np.nextafter(a, np.array(direction, a.dtype))
        out.append(a)
    return out


def ill_conditioned(fn, arrays, expected):
    """Whether eager's own answer changes beyond tolerance when the inputs move by one ulp
    (e.g. ``inf * (a sum that cancels to rounding noise)``): there, a different but equally
    valid rounding (a fused kernel summing in another order) can change the result, so
    such a call is not held against the compiler (it is counted instead)."""
    for direction in (np.inf, -np.inf):
        try:
            with _quiet():
                result, args_after = _call(fn, _nudged(arrays, direction))
        except Exception:
            return True
        if compare(result, expected[0]) or any(
                compare_arrays(a, b) for a, b in zip(args_after, expected[1])):
            return True
    return False


def check_program(program, configs=CONFIGS, timeout=60.0):
    """Run ``program`` eagerly and under each configuration; returns the mismatches."""
    fn = program.fn
    sets = program.input_sets
    with _quiet():
        expected = [_call(fn, arrays) for arrays in sets]
    order = [i for i in CALL_ORDER if i < len(sets)]
    conditioning = {}
    mismatches = []
    for config in configs:
        jitted = ms.jit(fn, **config)
        for n, i in enumerate(order):
            try:
                with _quiet(), time_limit(timeout):
                    result, args_after = _call(jitted, sets[i])
            except Exception as exc:
                detail = f"raised {type(exc).__name__}: {exc}\n" + "".join(
                    traceback.format_exception(exc)[-6:])
                mismatches.append(Mismatch(program, config, f"{n} (set {i})", detail))
                break
            STATS["calls"] += 1
            problems = compare(result, expected[i][0])
            for k, (got, want) in enumerate(zip(args_after, expected[i][1])):
                problem = compare_arrays(got, want)
                if problem:
                    problems.append(f"argument x{k} after the call: {problem}")
            if problems and all(p.split(": ", 1)[-1].startswith(_VALUE_PROBLEMS)
                                for p in problems):
                if i not in conditioning:
                    conditioning[i] = ill_conditioned(fn, sets[i], expected[i])
                if conditioning[i]:
                    STATS["ill_conditioned"] += 1
                    continue
            if problems:
                mismatches.append(Mismatch(program, config, f"{n} (set {i})",
                                           "; ".join(problems)))
                break
    return mismatches


# ---------------------------------------------------------------------------------------
# gradients

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


def numeric_grad(fn, arrays, eps=1e-6):
    grads = []
    for k, base in enumerate(arrays):
        g = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            values = []
            for sign in (1, -1):
                moved = [a.copy() for a in arrays]
                moved[k][idx] += sign * eps
                values.append(float(fn(*[Tensor(a) for a in moved]).asnumpy()))
            g[idx] = (values[0] - values[1]) / (2 * eps)
        grads.append(g)
    return grads


GRAD_CONFIGS = CONFIGS


def check_grad_program(program, configs=GRAD_CONFIGS, timeout=60.0):
    """Jitted ``grad`` of ``program`` in each configuration against central finite
    differences (float64) and against eager ``grad``; returns the mismatches."""
    fn, arrays = program.fn, program.input_sets[0]
    positions = tuple(range(len(arrays)))
    with _quiet():
        reference = numeric_grad(fn, arrays)
        eager = ms.grad(fn, grad_position=positions)(*[Tensor(a) for a in arrays])
    mismatches = []

    def check(label_config, grads, against, rtol, atol):
        grads = grads if isinstance(grads, tuple) else (grads,)
        if len(grads) != len(against):
            return f"{len(grads)} gradients, expected {len(against)}"
        for k, (g, want) in enumerate(zip(grads, against)):
            got = g.asnumpy() if isinstance(g, Tensor) else np.asarray(g)
            if got.shape != want.shape or got.dtype != np.float64:
                return f"gradient {k}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
            scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
            if not np.allclose(got, want, rtol=rtol, atol=atol * scale):
                return f"gradient {k}: {got!r} != {want!r}"
        return None

    problem = check(None, eager, reference, 1e-4, 1e-5)
    if problem:
        mismatches.append(Mismatch(program, dict(capture_mode="eager", jit_level="-",
                                                 backend="-"), 0, "eager grad vs finite "
                                   "differences: " + problem))
    want = [g.asnumpy() for g in (eager if isinstance(eager, tuple) else (eager,))]
    for config in configs:
        jitted = ms.jit(ms.grad(fn, grad_position=positions), **config)
        for n in range(3):
            try:
                with _quiet(), time_limit(timeout):
                    grads = jitted(*[Tensor(a) for a in arrays])
            except Exception as exc:
                detail = f"raised {type(exc).__name__}: {exc}\n" + "".join(
                    traceback.format_exception(exc)[-6:])
                mismatches.append(Mismatch(program, config, n, detail))
                break
            STATS["calls"] += 1
            problem = check(config, grads, want, 1e-7, 1e-9)
            if problem:
                mismatches.append(Mismatch(program, config, n, problem))
                break
    return mismatches


# ---------------------------------------------------------------------------------------
# the command line

def generate(seed, index, grad=False, max_statements=8):
    """Program ``index`` of run ``seed`` (None if the generator gave up)."""
    chooser = RandomChooser(f"{seed}:{index}")
    if grad:
        return GradGenerator(chooser, max_statements=max_statements).program()
    return Generator(chooser, max_statements=max_statements).program()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tensorjit.tools.fuzz",
        description="Differential fuzzing: random programs, eager vs every capture mode x "
                    "jit_level x backend (or, with --grad, jitted grad vs finite differences).")
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--grad", action="store_true", help="fuzz gradients instead")
    parser.add_argument("--max-statements", type=int, default=8)
    parser.add_argument("--configs", default="", help="comma-separated filters such as "
                        "'ast', 'O1', 'GE' or 'bytecode/O1/GE' (default: all)")
    parser.add_argument("--no-fusion-threshold", dest="fuse_all", action="store_false",
                        help="keep O1's fusion size threshold (default: fuse every group, so "
                             "small programs exercise the native kernels)")
    parser.add_argument("--show", action="store_true", help="print every program")
    parser.add_argument("--save", default="", help="directory to write mismatching programs")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds per configuration call before it counts as a hang")
    args = parser.parse_args(argv)

    if args.fuse_all:
        from tensorjit.passes import fusion
        fusion.MIN_ELEMENTS = 0
    configs = GRAD_CONFIGS if args.grad else CONFIGS
    if args.configs:
        wanted = [w.strip() for w in args.configs.split(",") if w.strip()]
        configs = tuple(c for c in configs
                        if any(all(part in config_label(c).split("/") for part in w.split("/"))
                               for w in wanted))
    from tensorjit.jit.cache import CACHE
    start = time.perf_counter()
    tried = skipped = runs = 0
    mismatches = []
    for index in range(args.start, args.start + args.programs):
        program = generate(args.seed, index, args.grad, args.max_statements)
        if program is None:
            skipped += 1
            continue
        if args.show:
            print(f"# program {index}\n{program!r}")
        CACHE.clear()
        found = (check_grad_program if args.grad else check_program)(
            program, configs, timeout=args.timeout)
        tried += 1
        runs += len(configs)
        mismatches.extend((index, m) for m in found)
        if found:
            details = "\n".join(f"  {config_label(m.config)}, call {m.call}: "
                                 f"{m.detail.strip()}" for m in found)
            report = (f"MISMATCH program {index} (--seed {args.seed} --start {index}) in "
                      f"{len(found)} configuration(s):\n{details}\n{program!r}")
            print(report, flush=True)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, f"mismatch_{args.seed}_{index}.txt"),
                          "w") as f:
                    f.write(report)
        done = index - args.start + 1
        if done % 50 == 0:
            print(f"... {done}/{args.programs} programs, {len(mismatches)} mismatches, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    kind = "gradient programs" if args.grad else "programs"
    print(f"{kind}: {tried} (seed {args.seed}, start {args.start}; {skipped} not generated)")
    print(f"configurations: {len(configs)} ({', '.join(config_label(c) for c in configs)})")
    print(f"program x configuration runs: {runs} ({STATS['calls']} calls compared with "
          f"eager; {STATS['ill_conditioned']} ill-conditioned, see ill_conditioned())")
    print(f"mismatches: {len(mismatches)}"
          + (f" in programs {sorted({i for i, _ in mismatches})}" if mismatches else ""))
    from tensorjit.backend import numba as native
    print(f"O1 fused kernels: {native.STATS['compiled']} compiled, {native.STATS['loaded']} "
          f"loaded from the disk cache, {native.STATS['numpy']} on NumPy")
    print(f"time: {elapsed:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
