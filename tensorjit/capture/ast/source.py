"""Getting and parsing the source of a function for ast capture."""
import ast
import inspect
import textwrap

from .errors import SourceUnavailableError


def function_ast(fn):
    """The ``FunctionDef`` or ``Lambda`` node of ``fn``, with line numbers of its file.

    Raises ``SourceUnavailableError`` when the source cannot be found (REPL, exec)."""
    code = fn.__code__
    name = getattr(fn, "__qualname__", code.co_name)
    try:
        lines, first = inspect.getsourcelines(code)
    except (OSError, TypeError) as exc:
        raise SourceUnavailableError(name, str(exc)) from None
    source = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        # a lambda in the middle of an expression spanning lines: parse its line alone
        tree = _parse_fragment(source)
        if tree is None:
            raise SourceUnavailableError(name, "its source could not be parsed") from None
    ast.increment_lineno(tree, first - 1)
    node = _find(tree, code)
    if node is None:
        raise SourceUnavailableError(
            name, "the source file does not match the running code (was it edited?)")
    return node, code.co_filename


def _parse_fragment(source):
    text = source.strip()
    while text:
        try:
            return ast.parse(text)
        except SyntaxError:
            text = text[:-1]
    return None


def _find(tree, code):
    if code.co_name == "<lambda>":
        lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
                   and n.lineno == code.co_firstlineno and _same_args(n.args, code)]
        if len(lambdas) > 1:
            lambdas = _by_column(lambdas, code) or lambdas[:1]
        return lambdas[0] if lambdas else None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == code.co_name and _same_args(node.args, code):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if first == code.co_firstlineno or node.lineno == code.co_firstlineno:
                return node
    return None


def _same_args(args, code):
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    n = code.co_argcount + code.co_kwonlyargcount
    return names == list(code.co_varnames[:n])


def _by_column(lambdas, code):
    """Among lambdas on one line, the one whose body holds the code's first position."""
    if not hasattr(code, "co_positions"):     # 3.10 records lines, not columns
        return None
    positions = [p for p in code.co_positions() if p[2] is not None and p[2] > 0]
    if not positions:
        return None
    line, _, col, _ = positions[0]
    for node in lambdas:
        body = node.body
        if body.lineno <= line <= (body.end_lineno or line) and \
                body.col_offset <= col <= (body.end_col_offset or col):
            return [node]
    return None
