"""Fused native kernels: the ``fused`` primitive and the code that runs it.

A fused group (made by ``passes/fusion.py``) is ONE node of the ``fused`` primitive whose
``graph`` param is a closed sub-graph of elementwise ops over one iteration shape ``S``,
optionally with reductions (``reduce_sum`` / ``reduce_max`` / ``reduce_min``, keepdims)
over one set of axes ``R`` of ``S`` and elementwise ops on the reduced values. That covers
elementwise chains with broadcasting, bias + activation, softmax, layer norm and batch-norm
statistics (``passes/fusion.py`` decomposes those primitives first).

Kernels are generated as Python source and compiled with Numba (``parallel=True`` above a
size threshold; never ``fastmath``; ``error_model="numpy"`` so 1/0 is inf as in NumPy).
The loop nest is::

    for o in prange(rows):                # the kept axes of S, flattened
        <stage 1: loop over the reduced axes, accumulate reductions>
        <values computed from the reductions, once per row>
        ...
        <last stage: loop over the inner axes, write the full-shape outputs>
        <write the per-row outputs>

Elementwise values needed in several stages are recomputed from the inputs (they are
cheap; memory traffic is what costs).

Compilation happens once per kernel *structure* (the generated source, which depends on
ranks, broadcasting patterns, ops and dtypes, not on sizes). Sources and Numba's cache
files live in a per-user directory (``$TENSORJIT_CACHE_DIR``, else
``$XDG_CACHE_HOME/tensorjit``, else ``~/.cache/tensorjit``) created with mode 0700;
writes are atomic (temp file + ``os.replace``); a directory that is not owned by the user
or is writable by others is not used; a corrupted entry is recompiled with a warning.

Without Numba (or for dtypes it does not handle, e.g. float16/bfloat16) the fused node
runs its sub-graph with the NumPy kernels, so results never depend on Numba.
"""
import hashlib
import importlib.util
import math
import os
import stat
import sys
import tempfile
import threading
import warnings

import numpy as np

from ..ir.graph import Graph, Literal
from ..ops.primitive import Primitive

# ---------------------------------------------------------------------------------------
# availability

NUMBA_AVAILABLE = None          # None: not probed yet; tests monkeypatch this to False
PARALLEL_MIN_ELEMENTS = 1 << 15  # smaller kernels run single-threaded (cheaper to start)
STATS = {"compiled": 0, "loaded": 0, "numpy": 0, "recovered": 0}
_lock = threading.RLock()


def numba_available():
    global NUMBA_AVAILABLE
    if NUMBA_AVAILABLE is None:
        try:
            import numba
            if "NUMBA_THREADING_LAYER" not in os.environ:
                # OpenMP's worker threads spin after a parallel region and steal the cores
                # from OpenBLAS's threads running the next GEMM (measured 4x slower conv
                # blocks on 2 cores); the workqueue layer sleeps instead.
                numba.config.THREADING_LAYER = "workqueue"
            NUMBA_AVAILABLE = True
        except Exception:     # pragma: no cover - depends on the environment
            NUMBA_AVAILABLE = False
    return NUMBA_AVAILABLE


# ---------------------------------------------------------------------------------------
# the primitive

def _fused_impl(*args, graph, inplace=()):
    return kernel_for(graph)(*args)


def _fused_rule(*avals, graph, inplace=()):
    return [v.aval for v in graph.outputs]


def _fused_vjp(cts, outs, *args, graph, inplace=()):
    from ..autodiff import vjp
    from ..ir.interpret import bind_graph
    _, pullback = vjp(lambda *xs: bind_graph(graph, xs), *args)
    return pullback(*cts)


fused_p = Primitive("fused", _fused_impl, _fused_rule, _fused_vjp, multiple_results=True,
                    shape_generic=False)


def _emit_fused(node, emitter):
    """Generated code for a fused node: one call of its compiled kernel."""
    kernel = kernel_for(node.params["graph"])
    name = emitter.bind_global("fused", kernel)
    args = [emitter.value(v) for v in node.inputs]
    outs = [emitter.local(v) for v in node.outputs]
    inplace = node.params.get("inplace", ())
    if inplace:
        args.append("_out=(" + "".join(f"{args[j]}, " if j is not None else "None, "
                                       for j in _out_targets(inplace, len(outs))) + ")")
    return [f"{''.join(o + ', ' for o in outs)}= {name}({', '.join(args)})"]


def _out_targets(inplace, n_out):
    targets = [None] * n_out
    for out_index, in_index in inplace:
        targets[out_index] = in_index
    return targets


def register_emitter():
    from . import codegen
    codegen._SPECIAL.setdefault("fused", _emit_fused)


register_emitter()


# ---------------------------------------------------------------------------------------
# kernels: analysis of a fused sub-graph

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_NATIVE_DTYPES = _FLOATS + (np.dtype(np.bool_), np.dtype(np.int32), np.dtype(np.int64))

REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min"}


def _npname(dtype):
    return "np." + np.dtype(dtype).name


def _lit(value, dtype):
    value = np.asarray(value).item()
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return repr(bool(value))
    if isinstance(value, float) and not math.isfinite(value):
        text = "np.nan" if math.isnan(value) else ("np.inf" if value > 0 else "-np.inf")
    else:
        text = repr(float(value) if dtype.kind == "f" else int(value))
    return f"{_npname(dtype)}({text})"


def _maximum(a, b):
    # like np.maximum, written as a select so LLVM vectorizes it: NaN-propagating, and the
    # second operand when they compare equal (np.maximum(-0.0, 0.0) is 0.0; Python's max
    # keeps the first)
    return f"(({a} if {a} > {b} else {b}) if (({a} == {a}) & ({b} == {b})) else {a} + {b})"


def _minimum(a, b):
    return f"(({a} if {a} < {b} else {b}) if (({a} == {a}) & ({b} == {b})) else {a} + {b})"


# Without Intel SVML (llvmlite wheels are not built with it) Numba calls scalar libm for
# these, ~10x slower than NumPy's SIMD loops: leave them to NumPy unless SVML is on.
TRANSCENDENTAL = frozenset({"exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh",
                            "atan", "sigmoid", "silu", "gelu", "erf", "pow"})


def _svml():
    try:
        from numba.core import config
        return bool(config.USING_SVML)
    except Exception:   # pragma: no cover
        return False


def _scalar_expr(prim, args, avals_in, aval_out, params):
    """A Numba scalar expression for one elementwise op, or None if unsupported."""
    d = aval_out.dtype
    a = args[0] if args else None
    b = args[1] if len(args) > 1 else None
    one, zero = (_lit(1, d), _lit(0, d)) if d.kind == "f" else ("1", "0")
    table = {
        "add": lambda: f"{a} + {b}", "sub": lambda: f"{a} - {b}",
        "mul": lambda: f"{a} * {b}", "div": lambda: f"{a} / {b}",
        "neg": lambda: f"-{a}", "exp": lambda: f"np.exp({a})", "log": lambda: f"np.log({a})",
        "log1p": lambda: f"np.log1p({a})", "expm1": lambda: f"np.expm1({a})",
        "sqrt": lambda: f"np.sqrt({a})", "rsqrt": lambda: f"{one} / np.sqrt({a})",
        "sin": lambda: f"np.sin({a})", "cos": lambda: f"np.cos({a})",
        "tan": lambda: f"np.tan({a})", "tanh": lambda: f"np.tanh({a})",
        "atan": lambda: f"np.arctan({a})", "abs": lambda: f"np.abs({a})",
        "floor": lambda: f"np.floor({a})", "ceil": lambda: f"np.ceil({a})",
        "sigmoid": lambda: f"{one} / ({one} + np.exp(-{a}))",
        "silu": lambda: f"{a} * ({one} / ({one} + np.exp(-{a})))",
        "relu": lambda: _maximum(a, zero), "maximum": lambda: _maximum(a, b),
        "minimum": lambda: _minimum(a, b), "pow": lambda: f"np.power({a}, {b})",
        "eq": lambda: f"{a} == {b}", "ne": lambda: f"{a} != {b}", "lt": lambda: f"{a} < {b}",
        "le": lambda: f"{a} <= {b}", "gt": lambda: f"{a} > {b}", "ge": lambda: f"{a} >= {b}",
        "where": lambda: f"({b} if {a} else {args[2]})",
        "logical_not": lambda: f"not {a}", "logical_and": lambda: f"{a} and {b}",
        "logical_or": lambda: f"{a} or {b}", "logical_xor": lambda: f"{a} != {b}",
        "isnan": lambda: f"{a} != {a}", "isinf": lambda: f"np.isinf({a})",
        "isfinite": lambda: f"np.isfinite({a})",
        "identity": lambda: a, "stop_gradient": lambda: a,
    }
    name = prim.name
    if name == "cast":
        if d == np.bool_:
            return f"{a} != 0"
        return f"{_npname(d)}({a})"
    if name == "gelu":
        if params.get("approximate") == "tanh":
            c = math.sqrt(2 / math.pi)
            return (f"{_lit(0.5, d)} * {a} * ({one} + np.tanh({_lit(c, d)} * ({a} + "
                    f"{_lit(0.044715, d)} * {a} * {a} * {a})))")
        return f"{_lit(0.5, d)} * {a} * ({one} + math.erf({a} / {_lit(math.sqrt(2), d)}))"
    if name == "erf":
        return f"math.erf({a})"
    make = table.get(name)
    if make is None:
        return None
    if name in ("sub", "neg", "abs") and d == np.bool_:
        return None
    if name in ("add", "mul") and d == np.bool_:    # NumPy: or / and (True + True is True)
        return f"{a} | {b}" if name == "add" else f"{a} & {b}"
    return make()


def supports_node(node):
    """Can a kernel compute this elementwise node natively?"""
    prim = node.prim
    if not prim.elementwise or node.params and prim.name not in ("cast", "gelu"):
        return False
    if prim.name in TRANSCENDENTAL and not _svml():
        return False
    avals = [v.aval for v in node.inputs] + [v.aval for v in node.outputs]
    if any(a.dtype not in _NATIVE_DTYPES for a in avals):
        return False
    names = [f"x{i}" for i in range(len(node.inputs))]
    return _scalar_expr(prim, names, [v.aval for v in node.inputs], node.outputs[0].aval,
                        node.params) is not None


class KernelPlan:
    """The loop structure of a fused sub-graph: iteration shape, reduced axes, where each
    value lives (per element or per row) and in which stage it is computed."""

    def __init__(self, graph):
        self.graph = graph
        shapes = [n.inputs[0].aval.shape for n in graph.nodes if n.prim.name in REDUCTIONS]
        full = [o.aval.shape for n in graph.nodes for o in n.outputs
                if n.prim.name not in REDUCTIONS]
        candidates = shapes + full
        self.shape = max(candidates, key=lambda s: (math.prod(s), len(s))) if candidates else ()
        axes = {n.params["axes"] for n in graph.nodes if n.prim.name in REDUCTIONS}
        if len(axes) > 1:
            raise ValueError("fused: reductions over different axes")
        self.reduced = tuple(sorted(next(iter(axes)))) if axes else ()
        if any(self.shape[a] == 1 for a in self.reduced):
            # every value would look per-row (constant over a size-1 axis), the reduction's
            # input too: leave such a (trivial) reduction to NumPy
            raise ValueError("fused: reduction over an axis of size 1")
        nd = len(self.shape)
        self.kept_shape = tuple(1 if i in self.reduced else d for i, d in enumerate(self.shape))
        # level of each value: "row" (constant over the reduced axes) or "elem"
        self.level = {}
        self.stage = {}
        for v in graph.inputs:
            self.level[v] = self._input_level(v.aval.shape)
            self.stage[v] = 0
        for node in graph.nodes:
            ins = [v for v in node.inputs if not isinstance(v, Literal)]
            stage = max([self.stage[v] for v in ins], default=0)
            if node.prim.name in REDUCTIONS:
                if not node.params["keepdims"] or node.inputs[0].aval.shape != self.shape:
                    raise ValueError("fused: reduction shape")
                self.level[node.outputs[0]] = "row"
                self.stage[node.outputs[0]] = stage + 1
                continue
            out = node.outputs[0]
            shape = out.aval.shape
            if shape == self.shape and (not self.reduced or any(
                    self.level[v] == "elem" for v in ins)):
                self.level[out] = "elem"
            elif self.reduced and _row_shape_ok(shape, self.shape, self.reduced) and all(
                    self.level[v] == "row" for v in ins):
                self.level[out] = "row"
            elif shape == self.shape:
                self.level[out] = "elem"
            else:
                raise ValueError(f"fused: value of shape {shape} in a kernel over {self.shape}")
            self.stage[out] = stage
            for v in ins:
                if len(v.aval.shape) > nd:
                    raise ValueError("fused: input rank")
        for v in graph.inputs:
            if not _broadcastable(v.aval.shape, self.shape):
                raise ValueError("fused: input does not broadcast to the kernel's shape")
        for o in graph.outputs:
            if isinstance(o, Literal) or o in graph.inputs:
                raise ValueError("fused: outputs must be computed values")
            if self.level[o] == "row" and _pattern(o.aval.shape, self.kept_shape) != \
                    tuple(True for _ in self.shape) or self.level[o] == "row" and \
                    math.prod(o.aval.shape) != math.prod(self.kept_shape):
                raise ValueError("fused: per-row output of an unexpected shape")
        self.n_stages = 1 + max([self.stage[o] for o in graph.outputs
                                 if not isinstance(o, Literal)] + [0])

    def _input_level(self, shape):
        if self.reduced and _row_shape_ok(shape, self.shape, self.reduced):
            return "row"
        return "elem"


def _row_shape_ok(shape, full, reduced):
    """True if ``shape`` broadcast against ``full`` is constant over the reduced axes."""
    nd = len(full)
    if len(shape) > nd:
        return False
    padded = (1,) * (nd - len(shape)) + tuple(shape)
    for i, (d, f) in enumerate(zip(padded, full)):
        if d != 1 and d != f:
            return False
        if i in reduced and d != 1:
            return False
    return True


def _broadcastable(shape, full):
    if len(shape) > len(full):
        return False
    padded = (1,) * (len(full) - len(shape)) + tuple(shape)
    return all(d == 1 or d == f for d, f in zip(padded, full))


def _pattern(shape, full):
    """Per axis of ``full``: True where ``shape`` (right-aligned) spans the axis."""
    nd = len(full)
    padded = (1,) * (nd - len(shape)) + tuple(shape)
    return tuple(d != 1 or f == 1 for d, f in zip(padded, full))


# ---------------------------------------------------------------------------------------
# kernels: source generation

def _coalesce(full, reduced, patterns):
    """Merge adjacent axes that are both kept or both reduced and on which every operand
    has the same broadcasting pattern. Returns (groups of original axes)."""
    groups = []
    for axis in range(len(full)):
        if full[axis] == 1 and len(full) > 1:
            if groups:
                groups[-1].append(axis)
            else:
                groups.append([axis])
            continue
        if groups:
            prev = [a for a in groups[-1] if full[a] != 1]
            if not prev:
                groups[-1].append(axis)
                continue
            p = prev[-1]
            same_kind = (p in reduced) == (axis in reduced)
            if same_kind and all(pat[p] == pat[axis] for pat in patterns):
                groups[-1].append(axis)
                continue
        groups.append([axis])
    return groups


class KernelSource:
    """Generated Numba source for a plan, plus what the Python wrapper needs."""

    def __init__(self, plan, parallel):
        g = plan.graph
        self.plan = plan
        full, reduced = plan.shape, set(plan.reduced)
        in_patterns = [_pattern(v.aval.shape, full) for v in g.inputs]
        groups = _coalesce(full, reduced, in_patterns + [tuple(True for _ in full)] +
                           [_pattern(plan.kept_shape, full)])
        self.dims = [math.prod(full[a] for a in grp) for grp in groups]
        kinds = ["red" if any(a in reduced for a in grp if full[a] != 1) else "kept"
                 for grp in groups]
        nd = len(self.dims)
        self.in_shapes = []
        for pat, v in zip(in_patterns, g.inputs):
            padded = (1,) * (len(full) - len(v.aval.shape)) + tuple(v.aval.shape)
            self.in_shapes.append(tuple(math.prod(padded[a] for a in grp) for grp in groups))
        kept_axes = [i for i in range(nd) if kinds[i] == "kept"]
        red_axes = [i for i in range(nd) if kinds[i] == "red"]
        if not red_axes and len(kept_axes) > 1:   # elementwise: innermost axis is inner
            inner_axes, outer_axes = [kept_axes[-1]], kept_axes[:-1]
        else:
            inner_axes, outer_axes = red_axes, kept_axes
        self.outer_axes, self.inner_axes = outer_axes, inner_axes
        self.full_shape_c = tuple(self.dims)
        self.row_shape_c = tuple(1 if i in red_axes else self.dims[i] for i in range(nd))
        lines = []
        args = [f"in{i}" for i in range(len(g.inputs))] + [f"out{i}" for i in range(len(g.outputs))]
        lines.append(f"def kernel({', '.join(args)}):")
        idx = {}                     # axis -> index variable name (or "0")
        ind = "    "
        for i in range(nd):
            lines.append(f"{ind}n{i} = out_shape_{i} = {self._dim_source(i, g)}")
        rows = " * ".join(f"n{i}" for i in outer_axes) or "1"
        loop = "prange" if parallel else "range"
        lines.append(f"{ind}for o in {loop}({rows}):")
        ind += "    "
        rem = "o"
        for k, axis in enumerate(reversed(outer_axes)):
            last = k == len(outer_axes) - 1
            if last:
                lines.append(f"{ind}i{axis} = {rem}")
            else:
                lines.append(f"{ind}i{axis} = {rem} % n{axis}")
                lines.append(f"{ind}r{k} = {rem} // n{axis}")
                rem = f"r{k}"
        for axis in outer_axes:
            idx[axis] = f"i{axis}"

        def index(shape_c, level):
            parts = []
            for axis in range(nd):
                if shape_c[axis] == 1:
                    parts.append("0")
                elif level == "row" and axis in inner_axes:
                    raise AssertionError("row value indexed by an inner axis")
                else:
                    parts.append(f"i{axis}")
            return "[" + ", ".join(parts) + "]" if parts else "[()]"

        names = {}
        counter = [0]

        def fresh(prefix="t"):
            counter[0] += 1
            return f"{prefix}{counter[0]}"

        def ref(v, scope):
            if isinstance(v, Literal):
                return _lit(v.value, v.aval.dtype)
            return scope[v]

        # row-level inputs read once per row
        row_scope = {}
        for i, v in enumerate(g.inputs):
            if plan.level[v] == "row":
                name = fresh("a")
                lines.append(f"{ind}{name} = in{i}{index(self.in_shapes[i], 'row')}")
                row_scope[v] = name
        nodes = list(g.nodes)
        out_index = {}
        for k, o in enumerate(g.outputs):
            if not isinstance(o, Literal):
                out_index.setdefault(o, []).append(k)
        # which element values are needed by each stage
        producers = {o: n for n in nodes for o in n.outputs}

        def elem_closure(targets):
            """Nodes (in order) computing element-level values that ``targets`` need."""
            need, stack = set(), list(targets)
            while stack:
                v = stack.pop()
                if isinstance(v, Literal) or v in need or v not in producers:
                    continue
                if plan.level[v] != "elem":
                    continue
                need.add(v)
                stack.extend(x for x in producers[v].inputs)
            return [n for n in nodes if n.outputs[0] in need]

        def emit_elem(node, scope, ind):
            ins = [ref(v, scope) for v in node.inputs]
            expr = _scalar_expr(node.prim, ins, [v.aval for v in node.inputs],
                                node.outputs[0].aval, node.params)
            name = fresh()
            lines.append(f"{ind}{name} = {_npname(node.outputs[0].aval.dtype)}({expr})"
                         if node.outputs[0].aval.dtype != np.bool_ else f"{ind}{name} = {expr}")
            scope[node.outputs[0]] = name

        def emit_row_nodes(stage, scope):
            for node in nodes:
                out = node.outputs[0]
                if plan.level.get(out) == "row" and node.prim.name not in REDUCTIONS \
                        and plan.stage[out] == stage and out not in scope:
                    emit_elem(node, scope, ind)

        def inner_loop(body_ind):
            for depth, axis in enumerate(inner_axes):
                lines.append(f"{body_ind}for i{axis} in range(n{axis}):")
                body_ind += "    "
            return body_ind

        scope = dict(row_scope)
        emit_row_nodes(0, scope)
        for stage in range(1, plan.n_stages + 1):
            reductions = [n for n in nodes if n.prim.name in REDUCTIONS
                          and plan.stage[n.outputs[0]] == stage]
            final = stage == plan.n_stages
            elem_outs = [o for o in out_index if plan.level[o] == "elem"] if final else []
            if not reductions and not elem_outs:
                emit_row_nodes(stage, scope)
                continue
            accs = []
            for node in reductions:
                acc = fresh("acc")
                dt = node.outputs[0].aval.dtype
                if node.prim.name == "reduce_sum":
                    init = "0.0" if dt.kind == "f" else "0"
                else:
                    init = "np.inf" if node.prim.name == "reduce_min" else "-np.inf"
                lines.append(f"{ind}{acc} = {init}")
                accs.append((node, acc))
            body = inner_loop(ind)
            inner_scope = dict(scope)
            for i, v in enumerate(g.inputs):
                if plan.level[v] == "elem":
                    inner_scope[v] = f"in{i}{index(self.in_shapes[i], 'elem')}"
            targets = [n.inputs[0] for n in reductions] + elem_outs
            for node in elem_closure(targets):
                emit_elem(node, inner_scope, body)
            for node, acc in accs:
                v = ref(node.inputs[0], inner_scope)
                if node.prim.name == "reduce_sum":
                    lines.append(f"{body}{acc} += {v}")
                else:
                    cmp = ">" if node.prim.name == "reduce_max" else "<"
                    lines.append(f"{body}if {v} {cmp} {acc} or {v} != {v}:")
                    lines.append(f"{body}    {acc} = {v}")
            for o in elem_outs:
                for k in out_index[o]:
                    lines.append(f"{body}out{k}{index(self.full_shape_c, 'elem')} = "
                                 f"{ref(o, inner_scope)}")
            if not inner_axes and not (reductions or elem_outs):
                lines.append(f"{body}pass")
            for node, acc in accs:
                name = fresh("s")
                lines.append(f"{ind}{name} = {_npname(node.outputs[0].aval.dtype)}({acc})")
                scope[node.outputs[0]] = name
            emit_row_nodes(stage, scope)
        for o, ks in out_index.items():
            if plan.level[o] == "row":
                for k in ks:
                    lines.append(f"{ind}out{k}{index(self.row_shape_c, 'row')} = {ref(o, scope)}")
        if lines[-1].rstrip().endswith(":"):
            lines.append(f"{ind}pass")
        self.body = "\n".join(lines) + "\n"
        self.parallel = parallel
        self.out_shapes_c = [self.full_shape_c if plan.level.get(o) == "elem" else self.row_shape_c
                             for o in g.outputs]

    def _dim_source(self, i, g):
        if self.dims[i] == 1:
            return "1"
        for k, o in enumerate(g.outputs):
            if self.plan.level.get(o) == "elem":
                return f"out{k}.shape[{i}]"
        for k, s in enumerate(self.in_shapes):
            if s[i] == self.dims[i]:
                return f"in{k}.shape[{i}]"
        for k, o in enumerate(g.outputs):
            if self.row_shape_c[i] == self.dims[i]:
                return f"out{k}.shape[{i}]"
        return repr(self.dims[i])

    def module_source(self):
        flags = f"parallel={self.parallel}, cache=_CACHE, error_model='numpy', nogil=True"
        return ("# generated by tensorjit.backend.fused -- one fused kernel\n"
                "import math\nimport os\nimport numpy as np\n"
                "from numba import njit, prange\n"
                "_CACHE = os.environ.get('TENSORJIT_NUMBA_NOCACHE') != '1'\n\n"
                f"@njit({flags})\n" + self.body)


# ---------------------------------------------------------------------------------------
# the on-disk cache

def cache_dir():
    """The per-user kernel directory, created mode 0700; None if it is unsafe/unusable."""
    root = os.environ.get("TENSORJIT_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache"),
                            "tensorjit")
    path = os.path.join(root, "kernels")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError as exc:
        _warn_once(f"tensorjit: cannot create the kernel cache {path!r} ({exc}); fused "
                   f"kernels are compiled in memory")
        return None
    for p in (root, path):
        if not _safe_dir(p):
            _warn_once(f"tensorjit: not using the kernel cache {p!r}: it is not owned by "
                       f"this user or is writable by others")
            return None
    return path


def _safe_dir(path):
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


_warned = set()


def _warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def _atomic_write(path, text):
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".py")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _purge(directory, stem):
    pycache = os.path.join(directory, "__pycache__")
    if os.path.isdir(pycache):
        for name in os.listdir(pycache):
            if name.startswith(stem + "."):
                try:
                    os.unlink(os.path.join(pycache, name))
                except OSError:
                    pass


_modules = {}          # digest -> dispatcher


def _load_module(directory, stem, source, fresh=False):
    """Import the kernel module from the cache directory (writing it if absent/corrupt)."""
    path = os.path.join(directory, stem + ".py")
    text = None
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        pass
    if text != source:
        if text is not None:
            warnings.warn(f"tensorjit: kernel cache entry {path} is corrupted; recompiling",
                          RuntimeWarning, stacklevel=4)
            STATS["recovered"] += 1
        _purge(directory, stem)
        _atomic_write(path, source)
    name = f"_tensorjit_kernel_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module        # Numba's cache records the defining module's name
    spec.loader.exec_module(module)
    return module.kernel


def _memory_module(source):
    namespace = {"__name__": "_tensorjit_kernel_mem"}
    source = source.replace("os.environ.get('TENSORJIT_NUMBA_NOCACHE') != '1'", "False")
    exec(compile(source, "<tensorjit fused kernel>", "exec"), namespace)
    return namespace["kernel"]


class NativeKernel:
    """A compiled Numba kernel behind a dispatcher that loads it from disk or compiles."""

    def __init__(self, source):
        self.source = source
        self.digest = hashlib.sha256(source.encode()).hexdigest()[:24]
        self.stem = "k_" + self.digest
        self.directory = cache_dir()
        self.dispatcher = None
        self.checked = set()

    def _get(self, fresh=False):
        if self.dispatcher is None or fresh:
            if self.directory is None:
                self.dispatcher = _memory_module(self.source)
            else:
                if fresh:
                    _purge(self.directory, self.stem)
                self.dispatcher = _load_module(self.directory, self.stem, self.source, fresh)
        return self.dispatcher

    def __call__(self, *arrays):
        dispatcher = self.dispatcher or self._get()
        signature = tuple(_type_key(a) for a in arrays)
        if signature in self.checked:
            return dispatcher(*arrays)
        with _lock:
            try:
                before = _counts(dispatcher)
                result = dispatcher(*arrays)
            except Exception as exc:
                if self.directory is None or _is_typing_error(exc):
                    raise
                warnings.warn(f"tensorjit: kernel cache entry {self.stem} could not be "
                              f"loaded ({type(exc).__name__}: {exc}); recompiling",
                              RuntimeWarning, stacklevel=3)
                STATS["recovered"] += 1
                dispatcher = self._get(fresh=True)
                before = _counts(dispatcher)
                result = dispatcher(*arrays)
            hits, misses = _counts(dispatcher)
            if misses > before[1]:
                STATS["compiled"] += 1
            elif hits > before[0]:
                STATS["loaded"] += 1
            self.checked.add(signature)
        return result


def _counts(dispatcher):
    stats = getattr(dispatcher, "stats", None)
    if stats is None:
        return (0, 0)
    return (sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))


def _is_typing_error(exc):
    try:
        from numba.core.errors import TypingError
    except Exception:   # pragma: no cover
        return False
    return isinstance(exc, TypingError)


def _type_key(a):
    return (a.dtype.str, a.ndim, a.flags.c_contiguous, a.flags.writeable)


# ---------------------------------------------------------------------------------------
# building the callable for a fused sub-graph

def kernel_for(graph):
    """The callable running a fused sub-graph: ``f(*arrays, _out=None) -> tuple``."""
    kernel = getattr(graph, "_tj_kernel", None)
    if kernel is None:
        with _lock:
            kernel = getattr(graph, "_tj_kernel", None)
            if kernel is None:
                kernel = _build(graph)
                graph._tj_kernel = kernel
    return kernel


def native_ok(graph):
    """Whether this sub-graph can (and should) run as a Numba kernel."""
    if not numba_available():
        return False
    avals = [v.aval for v in graph.inputs] + [o.aval for n in graph.nodes for o in n.outputs]
    if any(a.dtype not in _NATIVE_DTYPES for a in avals):
        return False
    try:
        KernelPlan(graph)
    except ValueError:
        return False
    return True


_sources = {}    # source text -> NativeKernel (one per structure per process)


def _build(graph):
    if native_ok(graph):
        plan = KernelPlan(graph)
        parallel = math.prod(plan.shape) >= PARALLEL_MIN_ELEMENTS
        ks = KernelSource(plan, parallel)
        source = ks.module_source()
        native = _sources.get(source)
        if native is None:
            native = _sources[source] = NativeKernel(source)
        return _native_wrapper(graph, ks, native)
    return _numpy_wrapper(graph)


def _native_wrapper(graph, ks, native):
    in_shapes = ks.in_shapes
    out_specs = []
    for o, shape_c in zip(graph.outputs, ks.out_shapes_c):
        out_specs.append((tuple(o.aval.shape), o.aval.dtype, shape_c))
    reshape_in = [tuple(v.aval.shape) != s for v, s in zip(graph.inputs, in_shapes)]

    def run(*arrays, _out=None):
        args = [np.reshape(a, s) if r else a for a, s, r in zip(arrays, in_shapes, reshape_in)]
        outs = []
        for k, (shape, dtype, shape_c) in enumerate(out_specs):
            target = _out[k] if _out is not None else None
            if target is None or not target.flags.c_contiguous or not target.flags.writeable:
                target = np.empty(shape, dtype)
            outs.append(target)
        native(*args, *[o.reshape(s) for o, (_, _, s) in zip(outs, out_specs)])
        return tuple(outs)

    run.native = native
    run.source = native.source
    # compile (or load from the disk cache) now, at prepare time, for C-contiguous
    # writable arrays: zero-size arrays of the right ranks and dtypes run no iteration
    native(*[np.empty((0,) * len(s), v.aval.dtype) for v, s in zip(graph.inputs, in_shapes)],
           *[np.empty((0,) * len(s), dtype) for _, dtype, s in out_specs])
    return run


def _numpy_wrapper(graph):
    from .codegen import generate
    code = generate(graph)
    fn, source = code.function("fused_numpy")
    STATS["numpy"] += 1

    def run(*arrays, _out=None):
        return fn(*arrays)

    run.native = None
    run.source = source
    return run


def describe(graph):
    """Short text for the IR: the ops a fused node computes."""
    return ",".join(n.prim.name for n in graph.nodes)
