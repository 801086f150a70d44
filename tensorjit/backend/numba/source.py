"""Numba source for a planned fused sub-graph.

The loop nest is::

    for o in prange(rows):                # the kept axes of S, flattened (coalesced)
        <stage 1: loop over the reduced axes, accumulate reductions>
        <values computed from the reductions, once per row>
        ...
        <last stage: loop over the inner axes, write the full-shape outputs>
        <write the per-row outputs>

Each node's element is its primitive's scalar rule (``ops/scalar.py``); the module binds
every name those rules may use (``scalars.py``). Elementwise values needed in several
stages are recomputed from the inputs (arithmetic is cheap; memory traffic is what
costs), except a costly one (a call such as exp) that the last stage needs from the stage
before it: that one is stashed in an output and read back (``_plan_stashes``). Float32 sums
accumulate blocks of ``SUM_BLOCK`` elements in float32 and the blocks in float64.
Never ``fastmath``; ``error_model="numpy"`` so 1/0 is inf as in NumPy.
"""
import math

import numpy as np

from ...ir.graph import Literal
from ...ops import scalar

from .plan import pattern, REDUCTIONS
from .scalars import NUMBA_SCALAR, header

_HEADER = header()


def _npname(dtype):
    return "np." + np.dtype(dtype).name


def _lit(value, dtype):
    return NUMBA_SCALAR(dtype).lit(value)


def _element(node, operands):
    return scalar.expression(node.prim, operands, node.outputs[0].aval.dtype,
                             [v.aval.dtype for v in node.inputs], node.params, NUMBA_SCALAR)


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


# A float32 sum adds each block of this many elements in float32 (in SIMD lanes, so each
# lane adds a few dozen values) and the blocks' sums in float64: as accurate as NumPy's
# pairwise sum, and twice as fast as widening every element to float64.
SUM_BLOCK = 512


def _is_costly(node):
    """Whether a node's element calls a function (exp, log, tanh, ...) rather than being
    arithmetic: worth a store and a load to avoid computing twice."""
    operands = [_lit(v.value, v.aval.dtype) if isinstance(v, Literal) else f"x{i}"
                for i, v in enumerate(node.inputs)]
    try:
        return bool(scalar.calls(_element(node, operands)))
    except Exception:
        return False


class KernelSource:
    """Generated Numba source for a plan, plus what the Python wrapper needs."""

    def __init__(self, plan, parallel, inplace=()):
        g = plan.graph
        self.plan = plan
        full, reduced = plan.shape, set(plan.reduced)
        in_patterns = [pattern(v.aval.shape, full) for v in g.inputs]
        groups = _coalesce(full, reduced, in_patterns + [tuple(True for _ in full)] +
                           [pattern(plan.kept_shape, full)])
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

        def elem_closure(targets, known=()):
            """Nodes (in order) computing element-level values that ``targets`` need,
            short of the values in ``known``."""
            need, stack = set(), list(targets)
            while stack:
                v = stack.pop()
                if isinstance(v, Literal) or v in need or v not in producers or v in known:
                    continue
                if plan.level[v] != "elem":
                    continue
                need.add(v)
                stack.extend(x for x in producers[v].inputs)
            return [n for n in nodes if n.outputs[0] in need]

        def emit_elem(node, scope, ind):
            ins = [ref(v, scope) for v in node.inputs]
            expr = _element(node, ins)
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

        def inner_loop(body_ind, blocked):
            """Open the loops over the inner axes; with ``blocked`` accumulators, the
            innermost runs in blocks of ``SUM_BLOCK`` that each start them at 0. Returns
            (body indent, block indent or None)."""
            for axis in inner_axes[:-1]:
                lines.append(f"{body_ind}for i{axis} in range(n{axis}):")
                body_ind += "    "
            if not inner_axes:
                return body_ind, None
            axis = inner_axes[-1]
            if not blocked:
                lines.append(f"{body_ind}for i{axis} in range(n{axis}):")
                return body_ind + "    ", None
            lines.append(f"{body_ind}for b{axis} in range(0, n{axis}, {SUM_BLOCK}):")
            block_ind = body_ind + "    "
            for acc, dtype in blocked:
                lines.append(f"{block_ind}{acc}_b = {_npname(dtype)}(0.0)")
            # unsigned bounds: Numba then skips the negative-index wraparound that would
            # keep LLVM from vectorizing a loop not starting at 0
            lines.append(f"{block_ind}for i{axis} in range(np.uint64(b{axis}), "
                         f"np.uint64(min(b{axis} + {SUM_BLOCK}, n{axis}))):")
            return block_ind + "    ", block_ind

        stashes = self._plan_stashes(nodes, out_index, elem_closure)
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
                    if dt.kind == "f":
                        init = f"{_npname(dt)}({init})"
                        lines.append(f"{ind}{acc}_nan = False")
                lines.append(f"{ind}{acc} = {init}")
                accs.append((node, acc))
            blocked = [(acc, node.outputs[0].aval.dtype) for node, acc in accs
                       if node.prim.name == "reduce_sum"
                       and node.outputs[0].aval.dtype == np.float32]
            body, block_ind = inner_loop(ind, blocked)
            inner_scope = dict(scope)
            for i, v in enumerate(g.inputs):
                if plan.level[v] == "elem":
                    inner_scope[v] = f"in{i}{index(self.in_shapes[i], 'elem')}"
            targets = [n.inputs[0] for n in reductions] + elem_outs
            if final:     # stashed values are read back first (before any output of
                for v, k in stashes.items():      # this element is written), not recomputed
                    name = fresh("stash")
                    lines.append(f"{body}{name} = out{k}{index(self.full_shape_c, 'elem')}")
                    inner_scope[v] = name
            for node in elem_closure(targets, known=stashes if final else ()):
                emit_elem(node, inner_scope, body)
            if stage == plan.n_stages - 1:
                for v, k in stashes.items():
                    lines.append(f"{body}out{k}{index(self.full_shape_c, 'elem')} = "
                                 f"{ref(v, inner_scope)}")
            for node, acc in accs:
                v = ref(node.inputs[0], inner_scope)
                floating = node.outputs[0].aval.dtype.kind == "f"
                if node.prim.name == "reduce_sum" and block_ind is not None \
                        and node.outputs[0].aval.dtype == np.float32:
                    lines.append(f"{body}{acc}_b = _accumulate.add({acc}_b, {v})")
                elif node.prim.name == "reduce_sum":
                    # see accumulate.py: lets LLVM vectorize the loop
                    lines.append(f"{body}{acc} = _accumulate.add({acc}, np.float64({v}))"
                                 if floating else f"{body}{acc} += {v}")
                elif floating:
                    step = "larger" if node.prim.name == "reduce_max" else "smaller"
                    lines.append(f"{body}{acc} = _accumulate.{step}({acc}, {v})")
                    lines.append(f"{body}{acc}_nan = {acc}_nan | ({v} != {v})")
                else:
                    cmp = ">" if node.prim.name == "reduce_max" else "<"
                    lines.append(f"{body}if {v} {cmp} {acc}:")
                    lines.append(f"{body}    {acc} = {v}")
            for o in elem_outs:
                for k in out_index[o]:
                    lines.append(f"{body}out{k}{index(self.full_shape_c, 'elem')} = "
                                 f"{ref(o, inner_scope)}")
            if not inner_axes and not (reductions or elem_outs):
                lines.append(f"{body}pass")
            for acc, _ in (blocked if block_ind is not None else ()):
                lines.append(f"{block_ind}{acc} += np.float64({acc}_b)")
            for node, acc in accs:
                name = fresh("s")
                dt = node.outputs[0].aval.dtype
                if node.prim.name != "reduce_sum" and dt.kind == "f":
                    lines.append(f"{ind}{acc} = {_npname(dt)}(np.nan) if {acc}_nan else {acc}")
                lines.append(f"{ind}{name} = {_npname(dt)}({acc})")
                scope[node.outputs[0]] = name
            emit_row_nodes(stage, scope)
        for o, ks in out_index.items():
            if plan.level[o] == "row":
                for k in ks:
                    lines.append(f"{ind}out{k}{index(self.row_shape_c, 'row')} = {ref(o, scope)}")
        if lines[-1].rstrip().endswith(":"):
            lines.append(f"{ind}pass")
        self.stashes = tuple(stashes.values())
        self.parallel = parallel
        self.out_shapes_c = [self.full_shape_c if plan.level.get(o) == "elem" else self.row_shape_c
                             for o in g.outputs]
        self.aliases = self._alias_outputs(lines, inplace)
        self.body = "\n".join(lines) + "\n"

    def _alias_outputs(self, lines, inplace):
        """{output index: input index} for the ``inplace`` pairs (buffers.py) this kernel
        honours: the output is not an argument but the input array itself (``out0 = in2``).
        Passing the same buffer twice would be correct too, but LLVM's run-time overlap
        check then fails and the loop runs unvectorized (measured 8x slower on softmax
        cross-entropy); one array written where it is read is a dependence it vectorizes.
        None for kernels that stash values in their outputs before the last stage."""
        if self.stashes:
            return {}
        aliases = {k: j for k, j in inplace if self.in_shapes[j] == self.out_shapes_c[k]}
        if aliases:
            n_in, n_out = len(self.in_shapes), len(self.out_shapes_c)
            args = [f"in{i}" for i in range(n_in)] + [f"out{k}" for k in range(n_out)
                                                      if k not in aliases]
            lines[0] = f"def kernel({', '.join(args)}):"
            lines[1:1] = [f"    out{k} = in{j}" for k, j in sorted(aliases.items())]
        return aliases

    def _plan_stashes(self, nodes, out_index, elem_closure):
        """{value: output index}: values with a costly scalar rule (a call such as exp)
        that the stage before last computes and the last stage needs again. The stage
        before last writes each into a full-shape output of its dtype and the last stage
        reads it back before overwriting it there (softmax: exp(x - max) once, not twice).
        The output then holds a value before the last stage, so it may not share a buffer
        with an operand (``_alias_outputs``)."""
        plan = self.plan
        if plan.n_stages < 2:
            return {}
        before_last = plan.n_stages - 1
        reductions = [n for n in nodes if n.prim.name in REDUCTIONS
                      and plan.stage[n.outputs[0]] == before_last]
        if any(n.prim.name in REDUCTIONS and plan.stage[n.outputs[0]] == plan.n_stages
               for n in nodes):
            return {}
        outs = [o for o in out_index if plan.level[o] == "elem"]
        if not reductions or not outs:
            return {}
        again = {n.outputs[0] for n in elem_closure(outs)}
        free = {k: o.aval.dtype for o in outs for k in out_index[o]}
        stashes = {}
        for node in reversed(elem_closure([n.inputs[0] for n in reductions])):
            v = node.outputs[0]
            if v not in again or not _is_costly(node):
                continue
            # its own output if it is one, else any free output of its dtype
            k = next((k for k in out_index.get(v, ()) if k in free), None)
            if k is None:
                k = next((k for k, dtype in free.items() if dtype == v.aval.dtype), None)
            if k is not None:
                stashes[v] = k
                del free[k]
        return stashes

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
        return _HEADER + f"\n@njit({flags})\n" + self.body
