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

Steps 1-2 are ``lower_jumps.py``, step 3 is ``to_helpers.py``; this module converts
whole functions with them (and the segmented form used for fallbacks).
"""
import ast
import itertools

from .syntax import (HELPER, RET, DO_RET, _name, _call_helper, _const, _assign, _tuple,
                     _args, _located, assigned_names, _declared, _may_return, global_reads)
from .lower_jumps import JumpLowering
from .to_helpers import HelperConverter


class ConversionError(Exception):
    """The function cannot be converted at all (generator, coroutine)."""

    def __init__(self, construct, lineno):
        super().__init__(construct)
        self.construct, self.lineno = construct, lineno


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
        converter = HelperConverter(counter, set(), set(), None, False)
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
    lowering = JumpLowering(counter)
    body = lowering.loops(node.body)
    nested_return = any(_may_return(s) and not isinstance(s, ast.Return) for s in body)
    lowered = nested_return or segmented
    if lowered:
        body = lowering.returns(body, individual=segmented)
        init = _located(_assign(DO_RET, _const(False)), node)
        init._tj_flag_init = True
        body = [init] + body
    converter = HelperConverter(counter, declared_global, declared_nonlocal, first_arg,
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


STATEMENT_PREFIX = "_tj_stmt_"


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
        fn = ast.FunctionDef(name=f"{STATEMENT_PREFIX}{index}", args=_args(names), body=body,
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
