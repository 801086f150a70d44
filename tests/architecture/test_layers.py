"""Imports run one way, down the data path, and no top-level units form a cycle.

``LAYERS`` below is the one declaration of the order (docs/architecture.md draws it). A
unit is a top-level module or package of ``tensorjit``; ``__init__`` is the package's own
facade (``import tensorjit``), which only the top layer may use. A unit may import units of
its own layer or of layers below it, and the units must not import each other in a circle.
Every import counts, including those inside functions: a lazy import is a dependency too.
"""
import ast
import os

import tensorjit

LAYERS = [
    ("dtype", "aval", "state", "context", "locks", "files", "timeline"),  # leaves
    ("tensor",),                                    # Tensor, Parameter
    ("ir", "ops", "autodiff", "pytree", "dataset", "mindrecord"),  # graph, rewrite; registry;
    # tape; data; MindRecord files
    ("passes", "backend", "nn", "mint", "numpy", "checkpoint", "amp"),  # passes; codegen;
    # layers; mindspore.numpy; .ckpt
    ("capture",),                                   # trace, ast, bytecode
    ("jit", "functional"),                          # options, dispatch, cache; vmap, jvp
    ("communication", "run", "tools", "tune", "bench", "train", "common", "profiler",
     "profile", "deploy", "runtime", "utils", "__init__"),  # top
]
PACKAGE_DIR = os.path.dirname(tensorjit.__file__)
# MindSpore's import paths that only re-export names of several units (``from
# mindspore.ops import composite as C``): they belong to the top-level facade
FACADES = ("tensorjit.ops.functional", "tensorjit.ops.composite")


def layer_of(unit):
    for index, units in enumerate(LAYERS):
        if unit in units:
            return index
    return None


def _module_name(path):
    rel = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))[:-3].replace(os.sep, ".")
    is_package = rel.endswith(".__init__")
    return (rel[:-len(".__init__")] if is_package else rel), is_package


def _is_submodule(dotted):
    parts = dotted.split(".")[1:]
    path = os.path.join(PACKAGE_DIR, *parts)
    return os.path.isdir(path) or os.path.isfile(path + ".py")


def _unit(dotted):
    if dotted in FACADES:
        return "__init__"
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported_modules(path):
    """(line, dotted tensorjit module) for every import in the file at ``path``."""
    module, is_package = _module_name(path)
    package = module if is_package else module.rsplit(".", 1)[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                name = f"{target}.{alias.name}"
                found.append((node.lineno, name if _is_submodule(name) else target))
    return [(line, name) for line, name in found
            if name == "tensorjit" or name.startswith("tensorjit.")]


def unit_imports():
    """{(importing unit, imported unit): ["file:line", ...]} between different units."""
    edges = {}
    for directory, _, files in os.walk(PACKAGE_DIR):
        for filename in files:
            if not filename.endswith(".py"):
                continue
            path = os.path.join(directory, filename)
            source = _unit(_module_name(path)[0])
            for line, target in imported_modules(path):
                target_unit = _unit(target)
                if target_unit != source:
                    where = f"{os.path.relpath(path, os.path.dirname(PACKAGE_DIR))}:{line}"
                    edges.setdefault((source, target_unit), []).append(where)
    return edges


def order_violations(edges):
    """Imports from a unit to a unit in a higher layer, or to an undeclared unit."""
    problems = []
    for (source, target), where in sorted(edges.items()):
        ls, lt = layer_of(source), layer_of(target)
        if ls is None or lt is None:
            missing = source if ls is None else target
            problems.append(f"unit {missing!r} is not declared in LAYERS ({where[0]})")
        elif lt > ls:
            problems.append(f"{source} (layer {ls}) imports {target} (layer {lt}) at "
                            f"{', '.join(where)}")
    return problems


def cycles(edges):
    """Strongly connected groups of more than one unit (Tarjan)."""
    graph = {}
    for source, target in edges:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_top_level_unit_is_declared():
    units = set()
    for name in os.listdir(PACKAGE_DIR):
        path = os.path.join(PACKAGE_DIR, name)
        if name.endswith(".py"):
            units.add(name[:-3])
        elif os.path.isfile(os.path.join(path, "__init__.py")):
            units.add(name)
    undeclared = sorted(u for u in units if layer_of(u) is None)
    assert not undeclared, f"add these units to LAYERS: {undeclared}"


def test_imports_run_down_the_layers():
    problems = order_violations(unit_imports())
    assert not problems, "\n".join(problems)


def test_no_cycle_between_top_level_units():
    found = cycles(unit_imports())
    assert not found, f"import cycles between units: {found}"


def test_the_checks_catch_an_upward_import_and_a_cycle():
    edges = {("tensor", "ops"): ["tensorjit/tensor.py:1"],
             ("ops", "tensor"): ["tensorjit/ops/x.py:1"],
             ("capture", "jit"): ["tensorjit/capture/x.py:1"]}
    problems = order_violations(edges)
    assert any(p.startswith("tensor (layer 1) imports ops") for p in problems)
    assert any(p.startswith("capture (layer 4) imports jit") for p in problems)
    assert cycles(edges) == [["ops", "tensor"]]
    assert cycles({("ops", "ir"): [], ("ir", "autodiff"): [], ("autodiff", "ops"): []}) == [
        ["autodiff", "ir", "ops"]]
    assert order_violations({("ops", "newunit"): ["x:1"]}) == [
        "unit 'newunit' is not declared in LAYERS (x:1)"]


def test_lazy_imports_count(tmp_path):
    source = tmp_path / "lazy.py"
    source.write_text("def f():\n    from tensorjit.jit import jit\n    import tensorjit.capture\n")
    assert [name for _, name in imported_modules(str(source))] == [
        "tensorjit.jit", "tensorjit.capture"]
