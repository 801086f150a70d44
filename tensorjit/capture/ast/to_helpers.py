"""The rewrite's second job: control flow and value-dependent expressions become calls of
the runtime helpers (``runtime.py``, ``tj$`` in converted code) -- blocks become functions
over the names they assign, ``if``/``while``/``for`` become ``tj$.if_stmt`` /
``while_stmt`` / ``for_stmt``, ``a if c else b``, ``and``/``or``/``not`` and chained
comparisons become helpers taking lambdas, every call ``f(...)`` becomes
``tj$.call(f, ...)``; constructs that cannot enter a graph are kept, preceded by
``tj$.unsupported(...)``."""
import ast
import collections

from . import transform
from .syntax import (_name, _helper, _call_helper, _const, _tuple, _thunk, _args, _located,
                     assigned_names, name_loads)

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


class HelperConverter(ast.NodeTransformer):
    def __init__(self, counter, declared_global, declared_nonlocal, first_arg, has_class_cell):
        self.counter = counter
        self.declared_global = declared_global
        self.declared_nonlocal = declared_nonlocal
        self.first_arg = first_arg
        self.has_class_cell = has_class_cell
        self.unsupported = []         # (construct, lineno)
        self.loads = collections.Counter()   # reads per name in the whole function

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
        return transform.convert_nested(node, self.counter, self)

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
        raise transform.ConversionError("'yield' (a generator function)", node.lineno)

    visit_YieldFrom = visit_Yield

    def visit_Await(self, node):
        raise transform.ConversionError("'await' (a coroutine)", node.lineno)

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
        inside = name_loads([node])
        node = super().generic_visit(node)
        n = next(self.counter)
        state = self._state(node.body + node.orelse)
        # the names read outside this ``if`` too: a tensor ``if`` assigning one of them on
        # one path only cannot be a graph (eagerly, the path taken decides)
        live = [_const(name) for name in state if self.loads[name] > inside[name]]
        true_fn = self._function(f"tj$if_true_{n}", state, node.body, state, node)
        false_fn = self._function(f"tj$if_false_{n}", state, node.orelse, state, node)
        call = _call_helper("if_stmt", node.test, _name(true_fn.name), _name(false_fn.name),
                            _tuple(state), ast.Tuple(elts=live, ctx=ast.Load()))
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
            name=f"tj$while_test_{n}", args=_args(state),
            body=[ast.Return(value=node.test)], decorator_list=[], returns=None,
            type_comment=None), node)
        body_fn = self._function(f"tj$while_body_{n}", state, node.body, state, node)
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
        item = f"tj$item_{n}"
        body = [_located(ast.Assign(targets=[node.target], value=_name(item)), node)] + node.body
        body_fn = self._function(f"tj$for_body_{n}", [item] + state, body, state, node)
        out = [body_fn]
        test = _const(None)
        if extra_tests:
            condition = extra_tests[0] if len(extra_tests) == 1 else _call_helper(
                "and_", extra_tests[0], *[_thunk(t) for t in extra_tests[1:]])
            test_fn = _located(ast.FunctionDef(
                name=f"tj$for_test_{n}", args=_args(state),
                body=[ast.Return(value=condition)], decorator_list=[], returns=None,
                type_comment=None), node)
            out.insert(0, test_fn)
            test = _name(test_fn.name)
        call = _call_helper("for_stmt", node.iter, test, _name(body_fn.name), _tuple(state))
        out.append(_located(self._bind(state, call), node))
        return out + node.orelse
