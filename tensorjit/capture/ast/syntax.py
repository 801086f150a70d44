"""Small tools the ast rewrite is made of: node builders (``_call_helper("if_stmt", ...)``
is ``_tj.if_stmt(...)``), the names the rewrite reserves, and scope analysis (which names
a block binds, which globals a function reads)."""
import ast

HELPER = "_tj"
RET = "_tj_ret"
DO_RET = "_tj_do_ret"
GENERATED_DEF_PREFIXES = ("_tj_if_", "_tj_while_", "_tj_for_")


# ---- small AST builders ---------------------------------------------------------------

def _name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _helper(attr):
    return ast.Attribute(value=_name(HELPER), attr=attr, ctx=ast.Load())


def _call_helper(attr, *args, keywords=()):
    return ast.Call(func=_helper(attr), args=list(args), keywords=list(keywords))


def _const(value):
    return ast.Constant(value=value)


def _assign(target, value):
    return ast.Assign(targets=[_name(target, ast.Store())], value=value)


def _tuple(names, ctx=None):
    return ast.Tuple(elts=[_name(n, ctx) for n in names], ctx=ctx or ast.Load())


def _not(expr):
    return ast.UnaryOp(op=ast.Not(), operand=expr)


def _thunk(expr):
    return ast.Lambda(args=_no_args(), body=expr)


def _no_args():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                         kwarg=None, defaults=[])


def _args(names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _located(node, origin):
    """Give ``node`` and its children without a location the start of ``origin`` (a
    point: instructions take their line from it, never from the end of a block)."""
    line = getattr(origin, "lineno", None)
    if line is None:
        return node
    col = origin.col_offset
    for child in ast.walk(node):
        if "lineno" in child._attributes and getattr(child, "lineno", None) is None:
            child.lineno, child.end_lineno = line, line
            child.col_offset, child.end_col_offset = col, col
    return node


# ---- scope analysis -------------------------------------------------------------------

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(nodes):
    """All nodes of ``nodes`` that belong to the same scope (not into nested scopes,
    except the names nested definitions bind)."""
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            # a nested scope: its decorators, defaults and the first iterable run here
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.extend(reversed(node.decorator_list))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                stack.extend(reversed(node.args.defaults + [d for d in node.args.kw_defaults
                                                            if d is not None]))
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                stack.append(node.generators[0].iter)
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def assigned_names(stmts, exclude=()):
    """Names bound by ``stmts`` in their own scope, in order of first appearance."""
    names = []
    seen = set(exclude)

    def add(name):
        if name not in seen:
            seen.add(name)
            names.append(name)

    for node in _walk_scope(stmts):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not node.name.startswith(GENERATED_DEF_PREFIXES):
                add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "*":
                    add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            add(node.name)
        elif isinstance(node, ast.MatchAs) and node.name:
            add(node.name)
        elif isinstance(node, ast.MatchStar) and node.name:
            add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            add(node.rest)
    return names


def _declared(stmts, kind):
    return {n for node in _walk_scope(stmts) if isinstance(node, kind) for n in node.names}


def _contains(stmts, kinds, stop=()):
    """Whether ``stmts`` contain a node of ``kinds`` in their scope (not inside ``stop``)."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _SCOPES) or isinstance(node, stop):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _may_return(stmt):
    return _contains([stmt], ast.Return)


def _may_break(stmt):
    return _contains([stmt], ast.Break, stop=(ast.For, ast.While, ast.AsyncFor))


def _may_continue(stmt):
    return _contains([stmt], ast.Continue, stop=(ast.For, ast.While, ast.AsyncFor))


def global_reads(fn_node, bound):
    """Names ``fn_node`` reads that are bound nowhere inside it: globals or builtins."""
    stored = set(bound)
    loads = []
    body = fn_node.body if isinstance(fn_node.body, list) else [fn_node.body]
    nodes = [n for stmt in body for n in ast.walk(stmt)]     # not defaults, decorators
    for node in nodes:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.append(node.id)
            else:
                stored.add(node.id)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored.update(a.asname or a.name.split(".")[0] for a in node.names)
    result = []
    for name in loads:
        if name not in stored and not name.startswith(HELPER) and name not in result \
                and name != "__class__":
            result.append(name)
    return result
