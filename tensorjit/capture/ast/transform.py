"""Source-to-source conversion of a function for ast capture.

The function's AST is rewritten so that everything whose meaning depends on the *value*
of a tensor goes through a runtime helper (``runtime.py``, visible as ``_tj`` in the
converted code). The helpers run plain Python when the value is a Python constant and
build graph control flow when it is a symbolic tensor. Three lowering steps come first,
so that every block can become a function that takes and returns its state:

1. ``break`` / ``continue`` become flags (``_tj_break_3 = True``); the rest of the loop
   body is guarded by ``if not _tj_break_3:``; the loop stops on the flag; a loop's
   ``else:`` becomes ``if not _tj_break_3:`` after it.
2. ``return x`` (when some return is nested in a block) becomes
   ``_tj_ret = x; _tj_do_ret = True``; the statements after it are guarded and loops
   stop on the flag; the function ends with ``return _tj.retval(_tj_ret)``.
3. Control flow becomes functions over the names the block assigns::

       if x.sum() > 0:                     def _tj_if_true_1(y):
           y = x * 2                           y = x * 2
       else:                 ->                return (y,)
           y = -x                          def _tj_if_false_1(y):
                                               y = -x
                                               return (y,)
                                           (y,) = _tj.if_stmt(x.sum() > 0, _tj_if_true_1,
                                                              _tj_if_false_1, (y,))

   ``while`` and ``for`` likewise (``_tj.while_stmt(test, body, state)``,
   ``_tj.for_stmt(iterable, extra_test, body, state)``); conditional expressions,
   ``and`` / ``or`` / ``not`` and chained comparisons become ``_tj.ifexp`` / ``_tj.and_`` /
   ``_tj.or_`` / ``_tj.not_`` with lambdas for the lazily evaluated operands; every call
   ``f(...)`` becomes ``_tj.call(f, ...)`` so callees are converted too.

Constructs that cannot enter a graph (``try``, ``with``, ``del``, writes to globals, ...)
are kept as Python, preceded by ``_tj.unsupported("...", line)``: under a capture that
call raises ``Unsupported`` (an error with ``fullgraph=True``, a fallback otherwise); when
the statement runs as Python at call time it does nothing.

Line numbers are kept, so errors and the IR's source notes point at the user's file.
"""
import ast
import itertools

HELPER = "_tj"
RET = "_tj_ret"
DO_RET = "_tj_do_ret"
_GENERATED_DEF_PREFIXES = ("_tj_if_", "_tj_while_", "_tj_for_")

_UNSUPPORTED_STATEMENTS = {
    ast.Try: "'try' statement",
    ast.With: "'with' statement",
    ast.AsyncWith: "'async with' statement",
    ast.AsyncFor: "'async for' statement",
    ast.Delete: "'del' of an item or attribute",
    ast.ClassDef: "class definition",
    ast.Match: "'match' statement",
}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED_STATEMENTS[ast.TryStar] = "'try' statement"


class ConversionError(Exception):
    """The function cannot be converted at all (generator, coroutine)."""

    def __init__(self, construct, lineno):
        super().__init__(construct)
        self.construct, self.lineno = construct, lineno


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
            if not node.name.startswith(_GENERATED_DEF_PREFIXES):
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


# ---- lowering of break / continue / return ----------------------------------------------

class _Lowering:
    def __init__(self, counter):
        self.counter = counter

    # break / continue, loop by loop
    def loops(self, stmts):
        out = []
        for stmt in stmts:
            out.extend(self._loop_stmt(stmt))
        return out

    def _loop_stmt(self, stmt):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [stmt]
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(stmt, field, None), list):
                setattr(stmt, field, self.loops(getattr(stmt, field)))
        if isinstance(stmt, (ast.Try,) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())):
            for handler in stmt.handlers:
                handler.body = self.loops(handler.body)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                case.body = self.loops(case.body)
        if not isinstance(stmt, (ast.For, ast.While)):
            return [stmt]
        has_break = any(_may_break(s) for s in stmt.body)
        has_continue = any(_may_continue(s) for s in stmt.body)
        before, after = [], []
        orelse, stmt.orelse = stmt.orelse, []
        if has_break or has_continue:
            n = next(self.counter)
            brk = f"_tj_break_{n}" if has_break else None
            cont = f"_tj_continue_{n}" if has_continue else None
            flags = [f for f in (brk, cont) if f]
            body = self._flagged(stmt.body, brk, cont, flags)
            if cont:
                body.insert(0, _located(_assign(cont, _const(False)), stmt))
            stmt.body = body
            for flag in flags:
                init = _located(_assign(flag, _const(False)), stmt)
                init._tj_flag_init = True
                before.append(init)
            if brk:
                _add_loop_test(stmt, _not(_name(brk)))
                if orelse:
                    after.append(_located(ast.If(test=_not(_name(brk)), body=orelse,
                                                 orelse=[]), stmt))
        if orelse and not after:
            after.extend(orelse)
        return before + [stmt] + after

    def _flagged(self, stmts, brk, cont, flags):
        out = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Break):
                out.append(_located(_assign(brk, _const(True)), stmt))
                return out
            if isinstance(stmt, ast.Continue):
                out.append(_located(_assign(cont, _const(True)), stmt))
                return out
            may_exit = (brk and _may_break(stmt)) or (cont and _may_continue(stmt))
            if may_exit:
                self._flag_inside(stmt, brk, cont, flags)
            out.append(stmt)
            rest = stmts[i + 1:]
            if may_exit and rest:
                guard = _not(_name(flags[0])) if len(flags) == 1 else _not(
                    ast.BoolOp(op=ast.Or(), values=[_name(f) for f in flags]))
                out.append(_located(ast.If(test=guard, body=self._flagged(rest, brk, cont,
                                                                           flags),
                                           orelse=[]), rest[0]))
                return out
        return out

    def _flag_inside(self, stmt, brk, cont, flags):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block:
                setattr(stmt, field, self._flagged(block, brk, cont, flags))
        for handler in getattr(stmt, "handlers", ()):
            handler.body = self._flagged(handler.body, brk, cont, flags)
        for case in getattr(stmt, "cases", ()):
            case.body = self._flagged(case.body, brk, cont, flags)

    # return
    def returns(self, stmts, individual=False):
        """Lower the returns of a block. ``individual`` (the top level of a segmented
        function): guard each later statement on its own instead of nesting them."""
        out = []
        returned = False
        for i, stmt in enumerate(stmts):
            may_return = _may_return(stmt)
            lowered = self._return_stmt(stmt)
            if returned:
                out.append(_located(ast.If(test=_not(_name(DO_RET)), body=lowered,
                                           orelse=[]), stmt))
            else:
                out.extend(lowered)
            if may_return:
                if individual:
                    returned = True
                    continue
                rest = stmts[i + 1:]
                if rest and not isinstance(stmt, ast.Return):
                    out.append(_located(ast.If(test=_not(_name(DO_RET)),
                                               body=self.returns(rest), orelse=[]), rest[0]))
                break
        return out

    def _return_stmt(self, stmt):
        if isinstance(stmt, ast.Return):
            value = stmt.value if stmt.value is not None else _const(None)
            return [_located(_assign(RET, value), stmt),
                    _located(_assign(DO_RET, _const(True)), stmt)]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or \
                not _may_return(stmt):
            return [stmt]
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block:
                setattr(stmt, field, self.returns(block))
        for handler in getattr(stmt, "handlers", ()):
            handler.body = self.returns(handler.body)
        for case in getattr(stmt, "cases", ()):
            case.body = self.returns(case.body)
        if isinstance(stmt, (ast.For, ast.While)):
            _add_loop_test(stmt, _not(_name(DO_RET)))
        return [stmt]


def _add_loop_test(loop, test):
    """Make ``loop`` stop when ``test`` is false (checked before each iteration)."""
    _located(test, loop)
    if isinstance(loop, ast.While):
        loop.test = ast.BoolOp(op=ast.And(), values=[test, loop.test])
    else:
        tests = getattr(loop, "_tj_extra_tests", [])
        loop._tj_extra_tests = tests + [test]


# ---- conversion of control flow and expressions ----------------------------------------

class _Converter(ast.NodeTransformer):
    def __init__(self, counter, declared_global, declared_nonlocal, first_arg, has_class_cell):
        self.counter = counter
        self.declared_global = declared_global
        self.declared_nonlocal = declared_nonlocal
        self.first_arg = first_arg
        self.has_class_cell = has_class_cell
        self.unsupported = []         # (construct, lineno)

    # statements that cannot enter a graph
    def generic_visit(self, node):
        kind = _UNSUPPORTED_STATEMENTS.get(type(node))
        if kind is not None:
            result = super().generic_visit(node)
            return self._mark(kind, node, result)
        return super().generic_visit(node)

    def _mark(self, construct, node, result):
        self.unsupported.append((construct, node.lineno))
        marker = _located(ast.Expr(value=_call_helper("unsupported", _const(construct),
                                                      _const(node.lineno))), node)
        return [marker] + (result if isinstance(result, list) else [result])

    def _global_writes(self, node):
        names = [n for n in assigned_names([node])
                 if n in self.declared_global or n in self.declared_nonlocal]
        return names

    def visit_Assign(self, node):
        return self._assignment(node)

    def visit_AugAssign(self, node):
        return self._assignment(node)

    def visit_AnnAssign(self, node):
        return self._assignment(node)

    def _assignment(self, node):
        result = super().generic_visit(node)
        writes = self._global_writes(node)
        if writes:
            kind = "global" if writes[0] in self.declared_global else "nonlocal"
            return self._mark(f"assignment to {kind} variable {writes[0]!r}", node, result)
        return result

    def visit_Delete(self, node):
        """``del name`` unbinds: the name becomes undefined (an error if used later)."""
        if not all(isinstance(t, ast.Name) for t in node.targets):
            return self.generic_visit(node)
        names = [t.id for t in node.targets]
        if any(n in self.declared_global or n in self.declared_nonlocal for n in names):
            return self._mark("'del' of a global variable", node, node)
        value = _call_helper("deleted", *[_const(n) for n in names])
        return _located(ast.Assign(targets=[_tuple(names, ast.Store())], value=value), node)

    def visit_FunctionDef(self, node):
        # a function defined inside: converted in its own scope
        return convert_nested(node, self.counter, self)

    visit_AsyncFunctionDef = generic_visit

    def visit_Lambda(self, node):
        node = super().generic_visit(node)
        return node

    def visit_Raise(self, node):
        node = super().generic_visit(node)
        check = _located(ast.Expr(value=_call_helper("check_raise", _const(node.lineno))),
                         node)
        return [check, node]

    def visit_Assert(self, node):
        node = super().generic_visit(node)
        args = [node.test] + ([_thunk(node.msg)] if node.msg is not None else [])
        return _located(ast.Expr(value=_call_helper("assert_", *args)), node)

    # expressions
    def visit_Call(self, node):
        node = super().generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "super":
            if not node.args and self.has_class_cell and self.first_arg:
                node.args = [_name("__class__"), _name(self.first_arg)]
            return node
        return _located(ast.Call(func=_helper("call"), args=[func] + node.args,
                                          keywords=node.keywords), node)

    def visit_IfExp(self, node):
        node = super().generic_visit(node)
        return _located(_call_helper("ifexp", node.test, _thunk(node.body),
                                              _thunk(node.orelse)), node)

    def visit_BoolOp(self, node):
        node = super().generic_visit(node)
        helper = "and_" if isinstance(node.op, ast.And) else "or_"
        first, *rest = node.values
        return _located(_call_helper(helper, first, *[_thunk(v) for v in rest]),
                                 node)

    def visit_UnaryOp(self, node):
        node = super().generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _located(_call_helper("not_", node.operand), node)
        return node

    def visit_Compare(self, node):
        node = super().generic_visit(node)
        if len(node.ops) == 1:
            return node
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            parts.append(ast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        return _located(_call_helper("and_", parts[0], *[_thunk(p) for p in parts[1:]]),
                                 node)

    def visit_FormattedValue(self, node):
        node = super().generic_visit(node)
        node.value = _call_helper("fmt", node.value)
        return node

    def visit_Yield(self, node):
        raise ConversionError("'yield' (a generator function)", node.lineno)

    visit_YieldFrom = visit_Yield

    def visit_Await(self, node):
        raise ConversionError("'await' (a coroutine)", node.lineno)

    # control flow
    def _decls(self, names):
        decls = []
        g = [n for n in names if n in self.declared_global]
        nl = [n for n in names if n in self.declared_nonlocal]
        if g:
            decls.append(ast.Global(names=g))
        if nl:
            decls.append(ast.Nonlocal(names=nl))
        return decls

    def _state(self, stmts, extra=()):
        excluded = self.declared_global | self.declared_nonlocal
        names = assigned_names(stmts, exclude=excluded)
        for n in extra:
            if n not in names and n not in excluded:
                names.append(n)
        return names

    def _function(self, name, params, body, state, origin):
        writes = [n for n in assigned_names(body)
                  if n in self.declared_global or n in self.declared_nonlocal]
        body = self._decls(writes) + (body or [ast.Pass()])
        body.append(ast.Return(value=_tuple(state)))
        fn = ast.FunctionDef(name=name, args=_args(params), body=body, decorator_list=[],
                             returns=None, type_comment=None)
        return _located(fn, origin)

    def visit_If(self, node):
        node = super().generic_visit(node)
        n = next(self.counter)
        state = self._state(node.body + node.orelse)
        true_fn = self._function(f"_tj_if_true_{n}", state, node.body, state, node)
        false_fn = self._function(f"_tj_if_false_{n}", state, node.orelse, state, node)
        call = _call_helper("if_stmt", node.test, _name(true_fn.name), _name(false_fn.name),
                            _tuple(state))
        return [true_fn, false_fn, _located(self._bind(state, call), node)]

    def _bind(self, state, call):
        if not state:
            return ast.Expr(value=call)
        return ast.Assign(targets=[_tuple(state, ast.Store())], value=call)

    def visit_While(self, node):
        node = super().generic_visit(node)
        n = next(self.counter)
        state = self._state(node.body)
        test_fn = _located(ast.FunctionDef(
            name=f"_tj_while_test_{n}", args=_args(state),
            body=[ast.Return(value=node.test)], decorator_list=[], returns=None,
            type_comment=None), node)
        body_fn = self._function(f"_tj_while_body_{n}", state, node.body, state, node)
        call = _call_helper("while_stmt", _name(test_fn.name), _name(body_fn.name),
                            _tuple(state))
        out = [test_fn, body_fn, _located(self._bind(state, call), node)]
        return out + node.orelse

    def visit_For(self, node):
        extra_tests = getattr(node, "_tj_extra_tests", [])
        node = super().generic_visit(node)
        extra_tests = [self.visit(t) for t in extra_tests]
        n = next(self.counter)
        target_names = assigned_names([ast.Assign(targets=[node.target], value=_const(None))])
        state = self._state(node.body, extra=target_names)
        item = f"_tj_item_{n}"
        body = [_located(ast.Assign(targets=[node.target], value=_name(item)), node)] + node.body
        body_fn = self._function(f"_tj_for_body_{n}", [item] + state, body, state, node)
        out = [body_fn]
        test = _const(None)
        if extra_tests:
            condition = extra_tests[0] if len(extra_tests) == 1 else _call_helper(
                "and_", extra_tests[0], *[_thunk(t) for t in extra_tests[1:]])
            test_fn = _located(ast.FunctionDef(
                name=f"_tj_for_test_{n}", args=_args(state),
                body=[ast.Return(value=condition)], decorator_list=[], returns=None,
                type_comment=None), node)
            out.insert(0, test_fn)
            test = _name(test_fn.name)
        call = _call_helper("for_stmt", node.iter, test, _name(body_fn.name), _tuple(state))
        out.append(_located(self._bind(state, call), node))
        return out + node.orelse


# ---- whole functions ------------------------------------------------------------------

class Conversion:
    """The result of converting one function."""

    def __init__(self, node, params, env_names, groups, global_names, unsupported):
        self.node = node                    # the converted FunctionDef / Lambda
        self.params = params
        self.env_names = env_names          # params + locals (segmented form)
        self.groups = groups                # [(lineno, [stmts])] one per top-level statement
        self.global_names = global_names
        self.unsupported = unsupported      # [(construct, lineno)] found statically


def _params(args):
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.arg)
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


def convert_nested(node, counter, outer):
    """Convert a ``def`` found inside a converted function (same counter for names);
    its decorators are converted as expressions of the enclosing function."""
    conversion = _convert_def(node, counter, has_class_cell=False)
    new = conversion.node
    new.decorator_list = [outer.visit(d) for d in node.decorator_list]
    return new


def convert(node, has_class_cell=False, segmented=False):
    """Convert a parsed function (``FunctionDef`` or ``Lambda``)."""
    counter = itertools.count(1)
    if isinstance(node, ast.Lambda) and segmented:
        # a jitted lambda: the function ``return <body>``
        body = [_located(ast.Return(value=node.body), node.body)]
        node = _located(ast.FunctionDef(name="_tj_lambda", args=node.args, body=body,
                                        decorator_list=[], returns=None, type_comment=None),
                        node)
    if isinstance(node, ast.Lambda):
        converter = _Converter(counter, set(), set(), None, False)
        body = converter.visit(node.body)
        new = ast.Lambda(args=node.args, body=body)
        _located(new, node)
        params = _params(node.args)
        return Conversion(new, params, params, [], global_reads(node, params),
                          converter.unsupported)
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError("'async def' (a coroutine)", node.lineno)
    return _convert_def(node, counter, has_class_cell, segmented)


def _convert_def(node, counter, has_class_cell, segmented=False):
    params = _params(node.args)
    globals_ = global_reads(node, params)
    declared_global = _declared(node.body, ast.Global)
    declared_nonlocal = _declared(node.body, ast.Nonlocal)
    first_arg = params[0] if node.args.args or node.args.posonlyargs else None
    lowering = _Lowering(counter)
    body = lowering.loops(node.body)
    nested_return = any(_may_return(s) and not isinstance(s, ast.Return) for s in body)
    lowered = nested_return or segmented
    if lowered:
        body = lowering.returns(body, individual=segmented)
        init = _located(_assign(DO_RET, _const(False)), node)
        init._tj_flag_init = True
        body = [init] + body
    converter = _Converter(counter, declared_global, declared_nonlocal, first_arg,
                           has_class_cell)
    groups = []
    for stmt in body:
        out = converter.visit(stmt)
        out = out if isinstance(out, list) else [out]
        if groups and getattr(groups[-1][1][-1], "_tj_flag_init", False):
            groups[-1][1].extend(out)          # flag initialisations join the next statement
        else:
            groups.append((stmt.lineno, out))
    new_body = [s for _, g in groups for s in g]
    excluded = declared_global | declared_nonlocal | set(params)
    local_names = assigned_names(new_body, exclude=excluded)
    if lowered and RET not in local_names:
        local_names.append(RET)
    env_names = params + local_names
    decls = []
    if declared_global:
        decls.append(ast.Global(names=sorted(declared_global)))
    if declared_nonlocal:
        decls.append(ast.Nonlocal(names=sorted(declared_nonlocal)))
    prologue = []
    if local_names:
        prologue.append(ast.Assign(
            targets=[_tuple(local_names, ast.Store())],
            value=_call_helper("undefined", *[_const(n) for n in local_names])))
    epilogue = [ast.Return(value=_call_helper("retval", _name(RET)))] if lowered else []
    whole_body = decls + [_located(s, node) for s in prologue] + new_body + [
        _located(s, node.body[-1]) for s in epilogue]
    new = ast.FunctionDef(name=node.name, args=node.args, body=whole_body, decorator_list=[],
                          returns=None, type_comment=None)
    _located(new, node)
    return Conversion(new, params, env_names, groups, globals_, converter.unsupported)


def statement_functions(conversion, origin):
    """The segmented form: one function per top-level statement group, each taking and
    returning the whole environment (``conversion.env_names``)."""
    names = conversion.env_names
    fns = []
    decls = []
    declared = _declared(conversion.node.body, ast.Global)
    if declared:
        decls.append(ast.Global(names=sorted(declared)))
    declared = _declared(conversion.node.body, ast.Nonlocal)
    if declared:
        decls.append(ast.Nonlocal(names=sorted(declared)))
    for index, (lineno, stmts) in enumerate(conversion.groups):
        body = list(decls) + list(stmts) + [ast.Return(value=_tuple(names))]
        fn = ast.FunctionDef(name=f"_tj_stmt_{index}", args=_args(names), body=body,
                             decorator_list=[], returns=None, type_comment=None)
        fn.lineno = lineno
        fns.append(_located(fn, stmts[0]))
    return fns


def factory_module(functions, freevars):
    """``def _tj_factory(_tj, *freevars): <functions>`` -- compiled only to obtain the
    functions' code objects, whose free variables are then bound to real cells."""
    params = [HELPER] + [v for v in freevars if v != HELPER]
    body = list(functions) + [ast.Return(value=_const(None))]
    factory = ast.FunctionDef(name="_tj_factory", args=_args(params), body=body,
                              decorator_list=[], returns=None, type_comment=None)
    factory.lineno = functions[0].lineno if functions else 1
    factory.col_offset = 0
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    for node in ast.walk(module):
        if getattr(node, "lineno", None) is None:
            continue
        if getattr(node, "end_lineno", None) is None or node.end_lineno < node.lineno:
            node.end_lineno = node.lineno
        if node.end_lineno == node.lineno and (getattr(node, "end_col_offset", None) is None
                                               or node.end_col_offset < node.col_offset):
            node.end_col_offset = node.col_offset
    return module
