"""Python source generation for graphs: the kernel-by-kernel backend's core.

A graph becomes straight-line Python that calls each primitive's NumPy kernel, compiled
once with ``compile()``. The source is kept readable (``jitted.lower(...).code``):

    def f(a, b, c):
        v0 = (a * b)
        v1 = (v0 + c)
        return (v1,)

Emission is split so the jit front door can inline the body of its hottest graph into the
generated dispatcher (``GraphCode.body``) or call it as a function (``GraphCode.function``).
"""
import math
import numbers

import numpy as np

from ..ir.graph import Literal
from ..ops import effects

_SIMPLE_PARAM_TYPES = (bool, int, float, str, type(None))


class Emitter:
    """Collects the module-level names the generated code refers to."""

    def __init__(self, prefix="", local_prefix=""):
        self.prefix = prefix
        self.local_prefix = local_prefix
        self.globals = {"np": np}
        self.names = {}          # Var -> local name (or, for an inlined value, expression)
        self.counter = 0
        self.inline = frozenset()   # values whose expression goes where they are used
        self.depth = {}             # inlined value -> how deeply its expression nests

    def bind_global(self, hint, value):
        for name, existing in self.globals.items():
            if existing is value and name.startswith(self.prefix + hint):
                return name
        name = f"{self.prefix}{hint}"
        index = 0
        while name in self.globals:
            index += 1
            name = f"{self.prefix}{hint}_{index}"
        self.globals[name] = value
        return name

    def local(self, var, hint="v"):
        name = self.names.get(var)
        if name is None:
            name = f"{self.local_prefix}{hint}{self.counter}"
            self.counter += 1
            self.names[var] = name
        return name

    def value(self, value, weak=False):
        """Source for a node input or output. A Literal becomes a plain Python number only
        with ``weak``: see ``literal``; otherwise a typed NumPy scalar."""
        if isinstance(value, Literal):
            if weak:
                return self.literal(value.value)
            return self.bind_global(f"lit_{value.value.dtype.name}", value.value[()])
        return self.names[value]

    def literal(self, array):
        """A 0-d constant as a Python number. NumPy treats a Python number as 'weak': it
        takes the dtype of the array it meets. That is the literal's own dtype only when
        the node has an array input of that dtype (see ``emit_node``)."""
        item = array.item()
        if array.dtype == np.bool_:
            return repr(bool(item))
        if isinstance(item, numbers.Integral):
            return repr(int(item))
        if isinstance(item, float) and math.isfinite(item):
            return repr(item)
        return self.bind_global("lit", np.asarray(array))

    def param(self, value):
        if isinstance(value, _SIMPLE_PARAM_TYPES):
            if isinstance(value, float) and not math.isfinite(value):
                return self.bind_global("c", value)
            return repr(value)
        if isinstance(value, tuple) and all(_is_simple(v) for v in value):
            return repr(value)
        if isinstance(value, np.dtype):
            return self.bind_global(value.name, value)
        return self.bind_global("param", value)


def _is_simple(value):
    if isinstance(value, tuple):
        return all(_is_simple(v) for v in value)
    return isinstance(value, _SIMPLE_PARAM_TYPES) and not (
        isinstance(value, float) and not math.isfinite(value))


class GraphCode:
    """Generated source for one graph."""

    def __init__(self, graph, emitter, input_names, body, outputs, ref_writes):
        self.graph = graph
        self.emitter = emitter
        self.input_names = input_names
        self.body = body                  # statements, unindented
        self.outputs = outputs            # expressions of the outputs
        self.ref_writes = ref_writes      # statements writing refs back (run last)

    @property
    def globals(self):
        return self.emitter.globals

    def function_name(self, name):
        """``name``, made distinct from the globals the body uses (a user function named
        like a primitive, e.g. ``gelu``, would otherwise shadow it)."""
        while name in self.globals:
            name += "_"
        return name

    def function_source(self, name):
        name = self.function_name(name)
        lines = [f"def {name}({', '.join(self.input_names)}):"]
        lines += ["    " + s for s in self.body + self.ref_writes]
        lines.append(f"    return ({''.join(o + ', ' for o in self.outputs)})")
        return "\n".join(lines) + "\n"

    def function(self, name):
        name = self.function_name(name)
        source = self.function_source(name)
        namespace = dict(self.globals)
        exec(compile(source, f"<tensorjit {name}>", "exec"), namespace)
        return namespace[name], source


def generate(graph, prefix="", input_names=None, local_prefix="", after_node=None):
    """Emit ``graph`` as Python. Inputs are flat arrays named ``input_names``; ``prefix``
    and ``local_prefix`` keep global and local names apart from a host function's.
    ``after_node(index, node, emitter)``, if given, returns lines to follow each node's
    (the profiler's timing); every node is then a statement of its own.

    Inputs take the user's argument names where they are usable -- unless one is also the
    name of a global the code calls (a parameter named ``exp`` would hide the ``exp``
    kernel): then every input gets a generated name."""
    code = _generate(graph, prefix, input_names or _input_names(graph), local_prefix,
                     after_node)
    if input_names is None and set(code.input_names) & set(code.emitter.globals):
        code = _generate(graph, prefix, [f"in{i}" for i in range(len(graph.inputs))],
                         local_prefix, after_node)
    return code


def _generate(graph, prefix, names, local_prefix, after_node=None):
    emitter = Emitter(prefix, local_prefix)
    for var, name in zip(graph.inputs, names):
        emitter.names[var] = name
    body = []
    ref_holder = {}
    for i, ref in enumerate(graph.refs):
        holder = ref_holder[ref.var] = emitter.bind_global(f"ref{i}", ref.tensor)
        body.append(f"{emitter.local(ref.var, 'p')} = {holder}._data")
    for var, value in graph.consts.items():
        emitter.names[var] = emitter.bind_global("const", value)
    ref_writes = []
    emitter.inline = _single_use_values(graph) if after_node is None else frozenset()
    for index, node in enumerate(graph.nodes):
        if node.prim is effects.assign_p:
            target, value = node.inputs
            ref_writes.append(f"{ref_holder[target]}._data = {emitter.value(value)}")
            continue
        body.extend(emit_node(node, emitter))
        if after_node is not None:
            body.extend(after_node(index, node, emitter))
    outputs = [emitter.value(v) for v in graph.outputs]
    return GraphCode(graph, emitter, names, body, outputs, ref_writes)


# A chain of single-use values is written as one expression only this deep: Python's
# parser refuses more than 200 nested parentheses, and long expressions gain nothing.
MAX_INLINE_DEPTH = 8


def _single_use_values(graph):
    """Values used exactly once, by a node emitted as a plain expression statement, a
    graph output or a parameter write: their operator expression is written where they
    are used (``v1 = ((a * b) + c)``) -- shorter code, and measurably faster for small
    arrays than naming every intermediate."""
    uses, plain = {}, {}
    for node in graph.nodes:
        simple = node.prim.emit is None
        for v in node.inputs:
            if not isinstance(v, Literal):
                uses[v] = uses.get(v, 0) + 1
                plain[v] = plain.get(v, True) and simple
    for v in graph.outputs:
        if not isinstance(v, Literal):
            uses[v] = uses.get(v, 0) + 1
            plain.setdefault(v, True)
    inline = {v for v, n in uses.items() if n == 1 and plain[v]}
    return _not_across_writes(graph, inline)


def _not_across_writes(graph, inline):
    """``inline`` without the values whose expression, written at its use, would read
    operands after a node that overwrote them: buffer reuse lets a node write into a
    buffer that dies there *in the schedule* (a fused kernel's ``inplace``), and inlining
    moves the reads of the values it is computed from down to where it is used."""
    nodes = graph.nodes
    writers = [k for k, node in enumerate(nodes) if node.params.get("inplace")]
    if not writers or not inline:
        return inline
    used_at = {}
    for k, node in enumerate(nodes):
        for v in node.inputs:
            used_at[v] = k
    for v in graph.outputs:
        used_at[v] = len(nodes)
    # where each node's expression is evaluated: its own line, or (inlined) its user's
    evaluated_at = list(range(len(nodes))) + [len(nodes)]
    for k in reversed(range(len(nodes))):
        outs = nodes[k].outputs
        if len(outs) != 1 or outs[0] not in inline:
            continue
        site = evaluated_at[used_at[outs[0]]]
        if any(k < w < site for w in writers):
            inline.discard(outs[0])
        else:
            evaluated_at[k] = site
    return inline


def _input_names(graph):
    """Argument names for the generated function: the user's, where they are usable."""
    names, seen = [], set()
    for i, var in enumerate(graph.inputs):
        hint = var.hint
        if not hint or not hint.isidentifier() or hint in seen or hint.startswith("_") or (
                hint[0] in "vpc" and hint[1:].isdigit()) or hint == "np":
            hint = f"in{i}"
        seen.add(hint)
        names.append(hint)
    return names


def emit_node(node, emitter):
    """Source lines computing one node."""
    prim = node.prim
    if prim.emit is not None:
        return prim.emit(node, emitter)
    # templates are NumPy operators, exact for NumPy's own dtypes; the kernels also keep
    # other dtypes (bfloat16 @ bfloat16 is float32 in NumPy)
    template = prim.codegen is not None and not node.params and all(
        v.aval.dtype.isbuiltin == 1 for v in node.outputs)
    # a kernel may read its operands' dtypes, so only operator templates get Python
    # numbers; NumPy's own dtypes only (bfloat16 + a Python float gives float32)
    array_dtypes = {v.aval.dtype for v in node.inputs
                    if template and not isinstance(v, Literal) and v.aval.dtype.isbuiltin == 1}
    args = [emitter.value(v, weak=isinstance(v, Literal) and v.aval.dtype in array_dtypes)
            for v in node.inputs]
    if template:
        expr = prim.codegen.format(*args)
    else:
        kernel = emitter.bind_global(prim.name, prim.impl)
        params = [f"{k}={emitter.param(v)}" for k, v in node.params.items()]
        expr = f"{kernel}({', '.join(args + params)})"
    if template and len(node.outputs) == 1 and node.outputs[0] in emitter.inline:
        depth = 1 + max([emitter.depth.get(v, 0) for v in node.inputs], default=0)
        if depth <= MAX_INLINE_DEPTH:
            emitter.names[node.outputs[0]] = expr      # written where it is used
            emitter.depth[node.outputs[0]] = depth
            return []
    outs = [emitter.local(v) for v in node.outputs]
    if not outs:
        return [expr]
    if prim.multiple_results:
        return [f"{', '.join(outs)}, = {expr}"]
    return [f"{outs[0]} = {expr}"]


def typed_value(value, emitter):
    """A value as an expression that is an array of its exact dtype (literals inline are
    Python scalars, which must not become loop or branch state)."""
    if isinstance(value, Literal):
        return emitter.bind_global("lit", np.asarray(value.value))
    return emitter.value(value)


def emit_subgraph(graph, input_exprs, emitter):
    """Lines computing ``graph`` inline, its inputs bound to ``input_exprs`` (names or
    literals of the host code); returns (lines, output expressions). Control-flow
    primitives emit their branches and bodies with it."""
    for var, expr in zip(graph.inputs, input_exprs):
        emitter.names[var] = expr
    lines = []
    for ref in graph.refs:
        holder = emitter.bind_global("ref", ref.tensor)
        lines.append(f"{emitter.local(ref.var, 'p')} = {holder}._data")
    for var, value in graph.consts.items():
        emitter.names[var] = emitter.bind_global("const", value)
    for node in graph.nodes:
        lines.extend(emit_node(node, emitter))
    return lines, [typed_value(v, emitter) for v in graph.outputs]


def assign_line(targets, exprs):
    if len(targets) == 1:
        return f"{targets[0]} = {exprs[0]}"
    return f"{', '.join(targets)} = {', '.join(exprs)}"


def is_shape_generic(graph):
    """True when the graph's code computes the right thing for inputs of any shape (same
    dtypes): every node's kernel is shape-agnostic and no constant has a shape baked in."""
    if any(np.ndim(v) for v in graph.consts.values()) or getattr(graph, "shape_specific",
                                                                  False):
        return False            # (a pass relied on these shapes: simplify.uniform_constant)
    for node in graph.nodes:
        if not node.prim.shape_generic:
            return False
        for sub in graph.subgraphs(node):
            if not is_shape_generic(sub):
                return False
    return True
