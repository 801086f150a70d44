"""The rewrite's first job: ``break``, ``continue`` and nested ``return`` become flags, so
every block can later become a function that takes and returns its state.

    while c:                      tj$break_3 = False
        if x: break       ->      while not tj$break_3 and c:
        y = f(y)                      if x: tj$break_3 = True
                                      if not tj$break_3: y = f(y)

``return x`` nested in a block becomes ``tj$ret = x; tj$do_ret = True`` with the later
statements guarded and loops stopping on the flag (transform.py ends the function with
``return tj$.retval(tj$ret)``).
"""
import ast

from .syntax import (RET, DO_RET, _name, _const, _assign, _not, _located, _may_return,
                     _call_helper,
                     _may_break, _may_continue)


class JumpLowering:
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
            brk = f"tj$break_{n}" if has_break else None
            cont = f"tj$continue_{n}" if has_continue else None
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
            # (``returned``: an unbound variable raises here, at the user's ``return``)
            return [_located(_assign(RET, _call_helper("returned", value)), stmt),
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
