"""MindSpore's hybrid DSL (``ops.kernel``): a Python function over scalars and loops that
``ops.Custom(fn, func_type="hybrid")`` runs as one operator.

The function's source is checked as MindSpore checks it (``_DslCheck``: no ``while`` /
``break`` / ``continue``, calls only to the DSL's intrinsics, tensors' ``shape`` / ``dtype``
only, every ``output_tensor`` returned) and rewritten once into plain Python that Numba
compiles (``_Rewrite``): ``output_tensor`` / ``allocate`` become ``np.zeros``, the loop
keywords ``range`` / ``serial`` / ``vectorize`` / ``reduce`` a ``range``, ``parallel`` a
``prange``, ``grid`` an ``np.ndindex``, the intrinsics NumPy / ``math`` calls, and
``with attr(...)`` / ``with block_realize(...)`` their bodies. The same rewritten function
runs as Python where Numba cannot (not installed, float16 operands): one text, two ways to
run it, the same numbers.

This module makes the text; the native kernel is built by the backend
(``backend/numba/hybrid.py``, with the fused kernels' disk cache and compile lock), which
registers itself here (``register_native``) because ``ops`` is a layer below ``backend``.
"""
import ast
import copy
import functools
import inspect
import json
import textwrap
import types
import warnings
import weakref

import numpy as np

__all__ = ["kernel", "ms_kernel", "HybridFunction"]

# the DSL's loop keywords and what each becomes
_LOOPS = {"range": "range", "serial": "range", "vectorize": "range", "vec": "range",
          "reduce": "range", "parallel": "prange", "grid": "np.ndindex"}
# intrinsics: a template over the arguments _0, _1 (MindSpore's CPU list, plus the GPU ones
# NumPy has: atan2, expm1, float16, ...)
_INTRINSICS = {
    "sqrt": "np.sqrt(_0)", "sign": "np.sign(_0)", "log": "np.log(_0)", "tanh": "np.tanh(_0)",
    "exp": "np.exp(_0)", "abs": "np.abs(_0)", "power": "np.power(_0, _1)",
    "rsqrt": "(1.0 / np.sqrt(_0))", "erf": "math.erf(_0)", "isnan": "np.isnan(_0)",
    "isinf": "np.isinf(_0)", "isfinite": "np.isfinite(_0)", "sin": "np.sin(_0)",
    "cos": "np.cos(_0)", "atan": "np.arctan(_0)", "atan2": "np.arctan2(_0, _1)",
    "expm1": "np.expm1(_0)", "floor": "np.floor(_0)", "ceil": "np.ceil(_0)",
    "trunc": "np.trunc(_0)", "round": "np.rint(_0)", "ceil_div": "((_0 + _1 - 1) // _1)",
    **{name: f"np.{name}(_0)" for name in ("int8", "int16", "int32", "int64", "float16",
                                            "float32", "float64")}}
_BUFFERS = ("output_tensor", "allocate")
_SCOPES = ("attr", "block_realize")
_BUILTINS = ("max", "min", "len")
DSL_CALLS = frozenset(_LOOPS) | frozenset(_INTRINSICS) | frozenset(_BUFFERS) | \
    frozenset(_SCOPES) | frozenset(_BUILTINS)

_HEADER = ("import math\nimport os\nimport numpy as np\nfrom numba import njit, prange\n"
           "_CACHE = os.environ.get('TENSORJIT_NUMBA_NOCACHE') != '1'\n")
_native = []          # backend/numba/hybrid.py's builder (register_native)
# each function's native kernels by argument types; outside the objects, which captures
# watch (a cache filling up is no change of the program's state)
_NATIVES = weakref.WeakKeyDictionary()
_warned = set()


def register_native(builder):
    """The backend's ``builder(hybrid, arrays) -> (callable, None) | (None, reason)``."""
    _native[:] = [builder]


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """``ops.kernel``: mark a function written in the hybrid DSL. Called directly it runs
    as a NumPy function (the DSL's names provided); given to ``ops.Custom(fn,
    func_type="hybrid")`` it is one operator compiled by Numba, whose output shape and
    dtype are inferred by running it when ``out_shape`` / ``out_dtype`` are not given."""
    compile_attrs = {} if compile_attrs is None else compile_attrs
    if not isinstance(compile_attrs, dict):
        raise TypeError(f"The input 'compile_attrs' of @kernel must be a dict, but get a "
                        f"{type(compile_attrs)}")
    if any(not isinstance(key, str) for key in compile_attrs):
        raise TypeError("The key of 'compile_attrs' of @kernel must be a str")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise TypeError(f"The input 'reg_info' of @kernel should be one of str, dict and "
                        f"tuple, but get a {type(reg_info)}")

    def wrap(func):
        hybrid = HybridFunction(func)

        @functools.wraps(func)
        def run(*args):
            return hybrid.python(*args)
        run.ms_kernel_flag = True
        run.compile_attrs = json.dumps(compile_attrs)
        run.hybrid = hybrid
        if reg_info is not None:
            run.reg_info = reg_info
        return run
    return wrap if fn is None else wrap(fn)


def ms_kernel(fn=None, reg_info=None, compile_attrs=None):
    """``ops.ms_kernel``: ``kernel``'s deprecated name (MindSpore warns the same way)."""
    warnings.warn("'ms_kernel' is deprecated from version 1.8 and will be removed in a "
                  "future version, use 'kernel' instead.", DeprecationWarning, stacklevel=2)
    return kernel(fn, reg_info, compile_attrs)


class HybridFunction:
    """A hybrid-DSL function: its checked source, the rewritten kernel (Numba source text
    and a Python function of the same code), and the native kernels built from it."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        self.filename = inspect.getsourcefile(func) or "<hybrid>"
        try:
            lines, first = inspect.getsourcelines(func)
        except (OSError, TypeError) as exc:        # typed in a REPL, made by exec()
            self._no_source(func, exc)
            return
        self.missing_source = None
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first - 1)
        self.tree = tree.body[0]
        if not isinstance(self.tree, ast.FunctionDef):
            raise TypeError(f"the hybrid DSL needs a function written with 'def', got "
                            f"{self.name}")
        self.params = [a.arg for a in self.tree.args.args]
        rewritten = _Rewrite().visit(_copy_def(self.tree))
        self.parallel = "prange" in ast.unparse(rewritten)
        module = ast.Module([rewritten], [])
        ast.fix_missing_locations(module)
        namespace = {"np": np, "math": __import__("math"), "prange": range}
        exec(compile(module, self.filename, "exec"), namespace)
        self._python = namespace["kernel"]
        self.body = ast.unparse(rewritten)
        self.written = sorted(_written_params(self.tree, self.params))

    def _no_source(self, func, exc):
        """Without source there is nothing to compile: the function runs as Python with
        the DSL's names in its globals (MindSpore's ``kernel`` does the same)."""
        self.missing_source = str(exc)
        names = dict(func.__globals__)
        names.update(_runtime_names())
        self._python = types.FunctionType(func.__code__, names, func.__name__,
                                          func.__defaults__, func.__closure__)
        self.params = list(inspect.signature(func).parameters)
        self.tree, self.body, self.parallel = None, None, False
        self.written = list(self.params)          # unknown: every input is copied

    def check(self):
        """MindSpore's static checks of the DSL (run by ``ops.Custom``)."""
        if self.tree is None:
            raise OSError(f"ops.Custom(func_type='hybrid') compiles the hybrid DSL from the "
                          f"source of {self.name!r}, which is not available "
                          f"({self.missing_source}): define it in a .py file")
        _DslCheck(self.name, self.params).visit(self.tree)

    def natives(self):
        """The native kernels built so far: {(dtype, rank) per input: callable or None}."""
        return dict(_NATIVES.get(self, {}))

    def numba_source(self, parallel):
        flags = f"parallel={parallel}, cache=_CACHE, error_model='numpy', boundscheck=True"
        return (f"# generated by tensorjit.ops.hybrid -- hybrid kernel {self.name} "
                f"({self.filename}:{self.tree.lineno})\n" + _HEADER +
                f"\n@njit({flags})\n" + self.body + "\n")

    def python(self, *arrays):
        """The kernel run as Python (NumPy scalars), the inputs it writes copied first."""
        return self._python(*self._own(arrays))

    def _own(self, arrays):
        arrays = [np.ascontiguousarray(a) for a in arrays]
        for name in self.written:
            k = self.params.index(name)
            if k < len(arrays):
                arrays[k] = arrays[k].copy()
        return arrays

    def __call__(self, *arrays):
        """The kernel on ``arrays``: native where Numba compiles it, else as Python (with
        one warning saying why)."""
        key = tuple((a.dtype.str, a.ndim) for a in arrays)
        natives = _NATIVES.setdefault(self, {})
        native = natives.get(key, False)
        if native is False:
            native = natives[key] = self._build(arrays)
        if native is None:
            return self.python(*arrays)
        return native(*self._own(arrays))

    def _build(self, arrays):
        if not _native:
            reason = "no native backend is loaded"
        else:
            native, reason = _native[0](self, self._own(arrays))
            if native is not None:
                return native
        message = (f"tensorjit: the hybrid kernel {self.name!r} runs as Python (slow): "
                   f"{reason}")
        if message not in _warned:
            _warned.add(message)
            warnings.warn(message, RuntimeWarning, stacklevel=4)
        return None


class _Scope:
    """``attr(...)`` / ``block_realize(...)`` run as Python: a context that does nothing."""

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _runtime_names():
    """The DSL's names as Python objects (for functions whose source is not available)."""
    env = {"np": np, "math": __import__("math")}
    names = {name: eval(f"lambda _0, _1=None: {text}", env)  # noqa: S307 (our templates)
             for name, text in _INTRINSICS.items()}
    names.update({name: eval(text, env) if text != "prange" else range
                  for name, text in _LOOPS.items()})
    names.update({name: (lambda shape, dtype: np.zeros(shape, dtype)) for name in _BUFFERS})
    names.update({name: _Scope for name in _SCOPES})
    return names


def _copy_def(tree):
    return copy.deepcopy(tree)        # line numbers kept: tracebacks name the user's lines


def _written_params(tree, params):
    """Parameters whose elements the function assigns (the kernel gets copies of them)."""
    found = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                    and target.value.id in params:
                found.add(target.value.id)
    return found


def _template(text, args):
    expr = ast.parse(text, mode="eval").body

    class Fill(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id.startswith("_") and node.id[1:].isdigit():
                return args[int(node.id[1:])]
            return node
    return Fill().visit(expr)


class _Rewrite(ast.NodeTransformer):
    """The DSL spelled as Python Numba compiles (see the module's docstring)."""

    def visit_FunctionDef(self, node):
        node.name = "kernel"
        node.decorator_list = []
        self.generic_visit(node)
        return node

    def visit_With(self, node):
        self.generic_visit(node)
        return [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(
            s.value, ast.Constant))] or [ast.Pass()]

    def visit_Call(self, node):
        self.generic_visit(node)
        if not isinstance(node.func, ast.Name):
            return node
        name = node.func.id
        if name in _BUFFERS:
            return ast.copy_location(ast.Call(ast.Attribute(ast.Name("np", ast.Load()),
                                                            "zeros", ast.Load()),
                                              node.args[:2], []), node)
        if name in _LOOPS:
            node.func = ast.parse(_LOOPS[name], mode="eval").body
            return node
        if name in _INTRINSICS:
            return ast.copy_location(_template(_INTRINSICS[name], node.args), node)
        return node


class _DslCheck(ast.NodeVisitor):
    """MindSpore's static rules of the DSL, with its exception types and messages."""

    def __init__(self, name, params):
        self.name, self.params = name, params
        self.outputs, self.buffers, self.assigned = [], [], set()

    def visit_FunctionDef(self, node):
        if node.name != self.name:
            raise TypeError(f"In the function {self.name} written in the Hybrid DSL, "
                            f"nested functions are not accepted: {node.name}")
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.assigned.add(n.id)
        for stmt in node.body:
            self.visit(stmt)

    def _keyword(self, word):
        raise TypeError(f"Keyword '{word}' not accepted in the function {self.name} "
                        f"written in the Hybrid DSL!")

    def visit_While(self, node):
        self._keyword("while")

    def visit_Break(self, node):
        self._keyword("break")

    def visit_Continue(self, node):
        self._keyword("continue")

    def visit_Call(self, node):
        func = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
        if func not in DSL_CALLS and func not in ("kernel", "ms_kernel"):
            raise ValueError(f"In the function [{self.name}], function call id [{func}] not "
                             f"in intrinsics list of the Hybrid DSL. For the full support "
                             f"list, please refer to 'Hybrid DSL' at https://www.mindspore.cn.")
        if func in _BUFFERS and len(node.args) != 2:
            raise TypeError(f"In the function [{self.name}], function [{func}] expects two "
                            f"inputs, but get {len(node.args)}.")
        for arg in node.args:
            self.visit(arg)

    def visit_Assign(self, node):
        if len(node.targets) > 1:
            raise ValueError(f"One statement with multiple assignments is not allowed in the "
                             f"function {self.name} written in the Hybrid DSL.")
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and isinstance(value, ast.Call) and \
                isinstance(value.func, ast.Name) and value.func.id in _BUFFERS:
            if target.id in self.outputs + self.buffers:
                raise ValueError(f"In the function {self.name} written in the Hybrid DSL, "
                                 f"the tensor is redefined: {target.id}")
            (self.outputs if value.func.id == "output_tensor" else self.buffers).append(
                target.id)
        self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.params and \
                node.id not in self.assigned and node.id not in DSL_CALLS:
            raise ValueError(f"In the function {self.name} written in the Hybrid DSL, there "
                             f"is a undeclared variable: {node.id}")

    def visit_Attribute(self, node):
        if not isinstance(node.value, ast.Name):
            raise ValueError(f"In the function {self.name} written in the Hybrid DSL, "
                             f"getattr is only supported for a tensor object, not for the "
                             f"object with type: {type(node.value)}")
        if node.attr not in ("shape", "dtype"):
            raise ValueError(f"In the function {self.name} written in the Hybrid DSL, a "
                             f"tensor object has no attribute called {node.attr}")
        self.visit(node.value)

    def visit_Return(self, node):
        value = node.value
        names = [value] if isinstance(value, ast.Name) else \
            list(value.elts) if isinstance(value, ast.Tuple) else None
        if names is None or not all(isinstance(n, ast.Name) for n in names):
            raise TypeError(f"In the function {self.name} written in the Hybrid DSL, the "
                            f"return value should be either a single tensor or a tuple of "
                            f"tensor names, but get {ast.unparse(value) if value else None}")
        symbols = [n.id for n in names]
        for symbol in symbols:
            if symbol not in self.params + self.outputs:
                raise TypeError(f"In the function {self.name} written in the Hybrid DSL, the "
                                f"element in the return value should be either an input "
                                f"tensor or a tensor allocated by output_tensor, but get "
                                f"name: {symbol}")
        for symbol in self.outputs:
            if symbol not in symbols:
                raise TypeError(f"In the function {self.name} written in the Hybrid DSL, the "
                                f"tensor is allocated as an output tensor but not in the "
                                f"return value: {symbol}")
