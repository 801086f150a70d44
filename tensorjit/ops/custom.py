"""``ops.Custom``: MindSpore's user-defined operators, each call ONE node of the ``custom``
primitive, whatever computes it:

* ``"pyfunc"``: a NumPy function (it gets copies of the inputs as ndarrays, Python
  numbers as they are) returning an array or a tuple of arrays;
* ``"hybrid"``: a function in MindSpore's hybrid DSL (``ops.kernel``), compiled by Numba
  (``ops/hybrid.py``, ``backend/numba/hybrid.py``);
* ``"aot"`` on CPU: a compiled C function (``ops/custom_aot.py``).

The node's shape rule is ``out_shape`` / ``out_dtype`` (values, or functions of the
inputs' shapes -- lists -- and dtypes; a hybrid function without them is run once on
zeros to find them, as MindSpore does); its kernel calls the function and checks every
result against that rule, so the graph never holds a value of another shape or dtype. It
is opaque to the passes (no scalar rule: never fused) and differentiates through
``bprop(*inputs, out, dout)`` -> one gradient per input; without ``bprop`` a gradient
through it is MindSpore's RuntimeError. The function must be pure: like any op, a graph
may compute it once for constant inputs, drop it when nothing uses it, or share one call
between two equal calls.
"""
import warnings
import weakref

import numpy as np

from .. import context
from ..aval import ShapedArray
from ..tensor import Tensor
from .coerce import as_tensor
from .custom_aot import AotFunction, split_spec
from .primitive import Primitive, FRESH
from .primitive_class import OpPrimitive

__all__ = ["Custom"]

FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]
RUNS_HERE = ("pyfunc", "hybrid", "aot")
# each operator's shape rule per input signature. Kept outside the instance: captures
# watch the attributes of objects a function reads, and a cache filling up is no change
_RULES = weakref.WeakKeyDictionary()


class Custom(OpPrimitive):
    """``ops.Custom(func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
    reg_info=None)``: a user-defined operator (see the module's docstring)."""

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
                 reg_info=None):
        self.attrs = {}
        self.instance_name = ""
        self.func, self.out_shape, self.out_dtype = func, out_shape, out_dtype
        self.func_type, self.bprop = func_type, bprop
        if reg_info is None:
            reg_info = getattr(func, "reg_info", None)
        self.reg_info = reg_info
        self.log_prefix = f"For 'Custom', 'func_type': {func_type}, 'func': {func}"
        if func_type not in FUNC_TYPES:
            raise ValueError(f"{self.log_prefix}, 'func_type' must be one of {FUNC_TYPES}, "
                             f"but got {func_type}")
        if not callable(func) and not isinstance(func, str):
            raise TypeError(f"For 'Custom', 'func' must be of type function or str, but got "
                            f"{type(func)}")
        self.func_name = getattr(func, "__name__", str(func))
        self._aot = self._hybrid = None
        if func_type == "hybrid":
            if not getattr(func, "ms_kernel_flag", False):
                raise TypeError(f"{self.log_prefix}, 'func' must be a function decorated by "
                                f"kernel")
            self._hybrid = func.hybrid
            self._hybrid.check()
        elif func_type == "aot":
            if not isinstance(func, str):
                raise TypeError(f"{self.log_prefix}, 'func' must be of type str, but got "
                                f"{type(func)}")
            if split_spec(func) is None and not callable(out_shape):
                raise TypeError(f"{self.log_prefix}, 'func' should be like "
                                f"'file_name:func_name', but got {func}")
            self._aot = AotFunction(func)
        elif func_type == "aicpu" and reg_info is None:
            raise ValueError(f"{self.log_prefix}, the registration information must be set, "
                             f"but current is None. Use 'CustomRegOp' to generate the "
                             f"registration information, then pass it to 'reg_info'")
        elif func_type in ("pyfunc", "tbe") and not callable(func):
            raise TypeError(f"{self.log_prefix}, 'func' must be of type function, but got "
                            f"{type(func)}")
        for key, value in (("func_type", func_type), ("func_name", self.func_name)):
            self.attrs[key] = value

    @property
    def name(self):
        return "Custom"

    def __repr__(self):
        return f"Custom[{self.func_type}]({self.func_name})"

    def __call__(self, *inputs):
        self._check_runs_here()
        tensors, static = [], []
        for position, value in enumerate(inputs):
            if isinstance(value, (Tensor, np.ndarray)):
                tensors.append(as_tensor(value))
            else:
                static.append((position, value))
        static = tuple(static)
        several = self.rule([t.aval for t in tensors], static)[1]
        outs = CUSTOM.bind(*tensors, op=self, static=static)
        return outs if several else outs[0]

    def _check_runs_here(self):
        if self.func_type == "aot" and context.get_context("device_target") == "Ascend":
            raise RuntimeError(f"{self.log_prefix}: AscendC operators (func_type 'aot' on "
                               f"Ascend) need an Ascend device; on CPU 'aot' takes a compiled "
                               f"library 'dir/file.so:func_name' (or a .cc / .cpp source)")
        if self.func_type not in RUNS_HERE:
            where = {"akg": "AKG (Ascend / GPU)", "tbe": "Ascend's TBE",
                     "aicpu": "Ascend's AI CPU"}[self.func_type]
            raise RuntimeError(f"Unsupported func type for Custom operator on CPU: "
                               f"'{self.func_type}' needs {where}. On CPU 'func_type' must be "
                               f"one of {list(RUNS_HERE)}")

    # ---- the shape rule ---------------------------------------------------------------

    def rule(self, avals, static):
        """(the outputs' ShapedArrays, whether there are several) for inputs of these
        avals and static values; computed once per input signature."""
        key = (tuple((a.shape, a.dtype) for a in avals), _hashable(static))
        rules = _RULES.setdefault(self, {})
        out = rules.get(key)
        if out is None:
            out = rules[key] = self._infer(avals, static)
        return out

    def _infer(self, avals, static):
        shapes, dtypes = _per_input(avals, static)
        shape = self.out_shape(*shapes) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*dtypes) if callable(self.out_dtype) else self.out_dtype
        if self._hybrid is not None and (shape is None or dtype is None):
            run = self._run_on_zeros(avals, static)
            shape = [tuple(r.shape) for r in run] if shape is None else shape
            dtype = [r.dtype for r in run] if dtype is None else dtype
            if len(run) == 1 and isinstance(shape, list) and isinstance(dtype, list):
                shape, dtype = shape[0], dtype[0]
        if shape == () and self.func_type == "pyfunc":
            warnings.warn(f"{self.log_prefix}, 'out_shape' is an empty tuple. Add a "
                          f"placeholder instead. Not recommend to use it as it could be any "
                          f"uninitialized data.", RuntimeWarning, stacklevel=3)
            shape = (1,)
        if not isinstance(shape, (tuple, list)):
            raise TypeError(f"{self.log_prefix}, 'out_shape' must be one of [tuple, list, "
                            f"function], but got {type(shape)}")
        if isinstance(dtype, (tuple, list)):
            dtypes_out = [_as_dtype(d, self.log_prefix) for d in dtype]
            if len(shape) != len(dtypes_out) or not all(
                    isinstance(s, (tuple, list)) for s in shape):
                raise ValueError(f"{self.log_prefix}, 'out_dtype' declares "
                                 f"{len(dtypes_out)} outputs: 'out_shape' must then be a "
                                 f"tuple of as many shapes, but got {shape}")
            return [ShapedArray(_shape(s, self.log_prefix), d)
                    for s, d in zip(shape, dtypes_out)], True
        return [ShapedArray(_shape(shape, self.log_prefix),
                            _as_dtype(dtype, self.log_prefix))], False

    def _run_on_zeros(self, avals, static):
        """MindSpore's automatic inference for hybrid functions: run on zero inputs."""
        zeros = [np.zeros(a.shape, a.dtype) for a in avals]
        with np.errstate(all="ignore"):
            result = self._hybrid(*_interleave(zeros, static))
        return [np.asarray(r) for r in (result if isinstance(result, tuple) else (result,))]

    # ---- the kernel -------------------------------------------------------------------

    def run(self, arrays, static):
        """The outputs for input ``arrays``, checked against the shape rule."""
        expected, several = self.rule([ShapedArray(a.shape, a.dtype) for a in arrays], static)
        if self._aot is not None:
            return tuple(self._aot(arrays, expected))
        if self._hybrid is not None:
            result = self._hybrid(*_interleave(list(arrays), static))
            owned = ()
        else:
            owned = [np.array(a) for a in arrays]        # the function may write its inputs
            result = self.func(*_interleave(owned, static))
        results = tuple(result) if isinstance(result, tuple) or (
            several and isinstance(result, list)) else (result,)
        if len(results) != len(expected):
            raise RuntimeError(f"{self!r}: the function returned {len(results)} outputs, but "
                               f"out_shape / out_dtype declare {len(expected)}")
        return tuple(self._checked(k, r, aval, arrays, owned)
                     for k, (r, aval) in enumerate(zip(results, expected)))

    def _checked(self, k, value, aval, inputs, owned):
        if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
            value = np.asarray(value, aval.dtype)
        if not isinstance(value, (np.ndarray, np.generic)):
            raise RuntimeError(f"{self!r}: output {k} of the function is a "
                               f"{type(value).__name__}, not a NumPy array")
        value = np.asarray(value)
        if value.dtype != aval.dtype:
            raise RuntimeError(f"{self!r}: output {k} of the function has dtype "
                               f"{value.dtype}, but out_dtype says {aval.dtype}")
        if tuple(value.shape) != tuple(aval.shape):
            if value.ndim == 0 and aval.shape == (1,):      # MindSpore's () placeholder
                value = value.reshape(1)
            else:
                raise RuntimeError(f"{self!r}: output {k} of the function has shape "
                                   f"{tuple(value.shape)}, but out_shape says "
                                   f"{tuple(aval.shape)}")
        if not _owned(value, owned) or any(value is a for a in inputs):
            value = value.copy()          # results are fresh arrays the graph may write
        return value


def _owned(value, owned):
    """Whether ``value`` is memory only this call made (its own, or a copy given to it)."""
    if not value.flags.writeable:
        return False
    base = value
    while base.base is not None and isinstance(base.base, np.ndarray):
        base = base.base
    return base.flags.owndata and (base is value or any(base is o for o in owned)) \
        if value.base is not None else value.flags.owndata


def _hashable(static):
    try:
        hash(static)
        return static
    except TypeError:
        return tuple((p, id(v)) for p, v in static)


def _interleave(arrays, static):
    """The call's arguments in order: arrays, and static values at their positions."""
    out, arrays = [], list(arrays)
    total = len(arrays) + len(static)
    slots = dict(static)
    for position in range(total):
        out.append(slots[position] if position in slots else arrays.pop(0))
    return out


def _per_input(avals, static):
    """What ``out_shape`` / ``out_dtype`` functions get per input: a tensor's shape as a
    list and its dtype; a Python number's shape ``[]`` and the dtype it would have."""
    from .. import dtype as dt
    tensors = iter(avals)
    shapes, dtypes = [], []
    slots = dict(static)
    for position in range(len(avals) + len(static)):
        if position in slots:
            shapes.append([])
            dtypes.append(dt.scalar_dtype(slots[position]) if isinstance(
                slots[position], (bool, int, float)) else None)
        else:
            aval = next(tensors)
            shapes.append(list(aval.shape))
            dtypes.append(aval.dtype)
    return shapes, dtypes


def _shape(shape, prefix):
    try:
        return tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise TypeError(f"{prefix}, 'out_shape' must hold integers, but got {shape}") from None


def _as_dtype(dtype, prefix):
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        return np.dtype(dtype)
    raise TypeError(f"{prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, "
                    f"function], but got {type(dtype)}")


# ---- the primitive ----------------------------------------------------------------------

def _impl(*arrays, op, static):
    return op.run(arrays, static)


def _abstract(*avals, op, static):
    return op.rule(list(avals), static)[0]


def _vjp(cts, outs, *args, op, static):
    if op.bprop is None:
        hint = (" (MindSpore derives one for hybrid functions with AKG, which tensorjit does "
                "not)" if op.func_type == "hybrid" else "")
        raise RuntimeError(f"Illegal primitive Custom's bprop not defined: {op!r} has no "
                           f"bprop{hint}; give Custom(..., bprop=fn) with fn(*inputs, out, "
                           f"dout) returning one gradient per input")
    inputs = _interleave(args, static)
    several = op.rule([a.aval for a in args], static)[1]
    out, dout = (tuple(outs), tuple(cts)) if several else (outs[0], cts[0])
    grads = op.bprop(*inputs, out, dout)
    grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
    if len(grads) != len(inputs):
        raise RuntimeError(f"{op!r}: bprop returned {len(grads)} gradients for "
                           f"{len(inputs)} inputs")
    positions = dict(static)
    return tuple(None if g is None else as_tensor(g)
                 for position, g in enumerate(grads) if position not in positions)


CUSTOM = Primitive(
    "custom", _impl, _abstract, _vjp, multiple_results=True, shape_generic=False,
    aliasing=FRESH, no_scalar="a user function (ops.Custom): opaque to fusion",
    no_batch="a user function (ops.Custom) computes one call of the shapes out_shape "
             "gives; it has no rule for a batch axis")
