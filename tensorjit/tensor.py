"""Tensor and Parameter.

A Tensor wraps a NumPy array (``_data``). While a function is being captured into a
graph, tensors may also (trace) or only (ast, bytecode) carry a symbolic IR value
(``_var``); every operation goes through ``Primitive.bind``, which decides what to do.
Reading a concrete value out of a symbolic tensor (``bool``, ``item``, ``asnumpy``, ...)
asks the active capture, which records a guard or reports a graph break.
"""
import numbers

import numpy as np

from . import dtype as dt
from .aval import ShapedArray
from .state import state


def _convert_data(input_data, dtype):
    """Python / NumPy data to an owned ndarray with MindSpore's default dtypes."""
    if isinstance(input_data, Tensor):
        array = input_data.asnumpy()
    elif isinstance(input_data, np.ndarray):
        array = input_data
    elif isinstance(input_data, np.generic):
        array = np.asarray(input_data)
    elif isinstance(input_data, (bool, numbers.Number)):
        # a Python float defaults to float32, but Tensor(0.1, float64) keeps all its digits
        exact = dtype is not None and isinstance(input_data, float)
        array = np.asarray(input_data, dtype=np.float64 if exact else
                           dt.scalar_dtype(input_data))
    elif isinstance(input_data, (list, tuple)):
        array = _array_from_sequence(input_data, floats_default=dtype is None)
    else:
        raise TypeError(f"Tensor: cannot make a tensor from {type(input_data).__name__}; "
                        f"expected a number, a (nested) list/tuple, a NumPy array or a Tensor")
    if dtype is not None:
        dtype = dt.as_dtype(dtype)
        return np.array(array, dtype=dtype)
    if array.dtype not in dt.ALL_DTYPES:
        if array.dtype.kind == "O":
            raise TypeError("Tensor: data of Python objects cannot become a tensor")
        raise TypeError(f"Tensor: unsupported data type {array.dtype}")
    return np.array(array)


def _initial_data(init, shape, dtype):
    """``Tensor(shape=..., dtype=..., init=...)``: zeros, a number, or an initializer
    object (MindSpore's ``Initializer``: called with an array, fills it in place)."""
    data = np.zeros(shape, dtype)
    if init is None:
        return data
    if isinstance(init, (bool, numbers.Number)):
        data[...] = init
        return data
    if callable(init):
        filled = init(data)
        return np.asarray(filled if filled is not None else data, dtype)
    raise TypeError(f"Tensor: init must be an Initializer or a number, got "
                    f"{type(init).__name__}; for a named initializer such as 'normal' use "
                    f"initializer('normal', shape, dtype)")


def _array_from_sequence(data, floats_default=True):
    """The nested sequence as an array; Python floats become float32 unless
    ``floats_default`` is off (a dtype was asked for: the cast to it comes after)."""
    flat_tensors = []

    def unwrap(item):
        if isinstance(item, Tensor):
            flat_tensors.append(item)
            return item.asnumpy()
        if isinstance(item, (list, tuple)):
            return [unwrap(x) for x in item]
        return item

    plain = unwrap(data)
    try:
        array = np.array(plain)
    except ValueError as exc:
        raise ValueError(f"Tensor: the nested sequence is ragged (its rows have different "
                         f"lengths), so it has no rectangular shape: {exc}") from None
    if array.dtype == object:
        raise ValueError("Tensor: the nested sequence is ragged or holds non-numbers; "
                         "every row must have the same length")
    if array.dtype == np.float64 and floats_default and not flat_tensors and \
            not _has_numpy_float64(plain):
        array = array.astype(dt.float32)     # Python floats default to float32
    return array


def _has_numpy_float64(data):
    if isinstance(data, list):
        return any(_has_numpy_float64(x) for x in data)
    return isinstance(data, (np.float64, np.ndarray)) and np.asarray(data).dtype == np.float64



def truth_value_error(shape):
    """The one error for the truth value of a tensor of more than one element (``if x``,
    ``while``, ``and`` / ``or`` / ``not``, ``bool(x)``), eagerly and in every capture mode
    (MindSpore raises a ValueError too)."""
    shape = tuple(shape)
    return ValueError(f"the truth value of a tensor with shape {shape} ({int(np.prod(shape))} "
                      f"elements) is ambiguous; use .any() or .all()")

class Tensor:
    __slots__ = ("_data", "_var", "__weakref__")
    __array_priority__ = 1000      # NumPy defers `ndarray * Tensor` to Tensor.__rmul__
    # Set (to int/float/bool) on tensors standing for a Python number that is only known
    # at run time: they promote like that number would ("weak" type), see coerce_pair.
    _weak_type = None

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False,
                 device=None):
        if input_data is None:
            if shape is None:
                raise ValueError("Tensor: give input_data, or shape and dtype")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            if any(d is None or d == -1 for d in shape):
                raise ValueError(
                    f"Tensor: shape {shape} has an unknown dimension: MindSpore's "
                    f"placeholders for set_inputs / export need symbolic shapes, which "
                    f"tensorjit does not have yet; give every dimension (export writes the "
                    f"shapes of its example inputs)")
            if not all(isinstance(d, (int, np.integer)) for d in shape):
                raise TypeError(f"Tensor: shape {shape} must hold integers")
            if any(d < 0 for d in shape):
                raise ValueError(f"Tensor: shape {shape} has a negative dimension")
            dtype = dt.as_dtype(dtype) if dtype is not None else dt.float32
            data = _initial_data(init, shape, dtype)
        elif isinstance(input_data, Tensor) and input_data._var is not None and \
                state.capture is not None:
            # Tensor(t) of a tensor inside a graph: a copy, not a constant
            source = input_data if dtype is None else input_data.astype(dtype)
            copy = source.copy()
            self._data, self._var = copy._data, copy._var
            return
        else:
            data = _convert_data(input_data, dtype)
        self._data = data
        self._var = None
        state.capture is None or state.capture.constant(self)

    @classmethod
    def _wrap(cls, array):
        """Fast constructor around an array the caller owns (no copy, no checks)."""
        t = object.__new__(cls)
        t._data = array
        t._var = None
        return t

    # ---- metadata -------------------------------------------------------------------
    @property
    def aval(self):
        data = self._data
        if data is not None:
            return ShapedArray(data.shape, data.dtype)
        return self._var.aval

    @property
    def shape(self):
        data = self._data
        return data.shape if data is not None else self._var.aval.shape

    @property
    def dtype(self):
        data = self._data
        return data.dtype if data is not None else self._var.aval.dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def dim(self):
        return self.ndim

    def numel(self):
        return self.size

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    # ---- reading values (a concretization point under capture) ----------------------
    def _concrete(self, why):
        if self._var is not None:
            capture = state.capture
            if capture is not None:
                return capture.concretize(self, why)
            if self._data is None:
                raise RuntimeError(
                    f"{why}: this tensor is symbolic (it was created while capturing a "
                    f"graph) and has no value outside that capture")
        return self._data

    def asnumpy(self):
        return np.asarray(self._concrete("asnumpy()"))

    numpy = asnumpy

    def init_data(self, slice_index=None, shape=None, opt_shape=None):
        """The tensor itself: its data is made when it is created (MindSpore defers an
        initializer's work to this call)."""
        return self

    def __array__(self, dtype=None, copy=None):
        array = np.asarray(self._concrete("np.asarray(tensor)"))
        return array if dtype is None else array.astype(dtype)

    def item(self):
        value = np.asarray(self._concrete("item()"))
        if value.size != 1:
            raise ValueError(f"item(): only a tensor with one element can be converted to "
                             f"a Python scalar, this one has shape {value.shape}")
        return value.reshape(()).item()

    def tolist(self):
        return np.asarray(self._concrete("tolist()")).tolist()

    def _scalar(self, why, convert):
        if self.size != 1:             # (checked before reading: the same error everywhere)
            if convert is bool:
                raise truth_value_error(self.shape)
            raise ValueError(f"{why}: only a tensor with one element can be converted to a "
                             f"Python number, this one has shape {tuple(self.shape)}")
        value = np.asarray(self._concrete(why))
        return convert(value.reshape(()).item())

    def __bool__(self):
        return self._scalar("bool(tensor)", bool)

    def __int__(self):
        return self._scalar("int(tensor)", int)

    def __float__(self):
        return self._scalar("float(tensor)", float)

    def __index__(self):
        # a bool tensor (``x > 0``) indexes a tuple or list as 0 / 1, as in MindSpore
        if not (dt.is_int(self.dtype) or self.dtype == np.bool_):
            raise TypeError(f"only integer or bool tensors can be used as an index, got "
                            f"{self.dtype}")
        return self._scalar("index(tensor)", int)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        if self._data is None:
            return f"Tensor(symbolic {self._var.aval}, {self._var})"
        value = np.array2string(np.asarray(self._data), separator=" ")
        return (f"Tensor(shape={list(self.shape)}, dtype={_ms_dtype_name(self.dtype)}, "
                f"value=\n{value})" if self.ndim else
                f"Tensor(shape=[], dtype={_ms_dtype_name(self.dtype)}, value= {value})")

    def __str__(self):
        if self._data is None:
            return repr(self)
        return np.array2string(np.asarray(self._data), separator=" ")

    def __format__(self, spec):
        if spec and self._data is not None and self.ndim == 0:
            return format(self.item(), spec)
        return str(self) if not spec else format(str(self), spec)

    __hash__ = object.__hash__

    def block_until_ready(self):
        """Execution is synchronous on the CPU; kept for JAX-style scripts."""
        return self

    # ---- in-place update: the one funnel for +=, setitem, set_data, assign ----------
    def _assign(self, value):
        """Make this tensor object hold ``value``'s contents (same shape and dtype)."""
        capture = state.capture
        if capture is not None:
            capture.assign(self, value)
        else:
            self._data = value._data
        for tape in state.tapes:
            tape.alias(self, value)
        return self

    def assign_value(self, value):
        value = value if isinstance(value, Tensor) else Tensor(value, self.dtype)
        if tuple(value.shape) != tuple(self.shape):
            raise ValueError(f"assign_value: shape {tuple(value.shape)} does not match the "
                             f"tensor's shape {tuple(self.shape)}")
        if value.dtype != self.dtype:
            value = value.astype(self.dtype)
        return self._assign(value)

    def __copy__(self):
        return Tensor._wrap(self._data) if self._var is None else self.copy()

    def __deepcopy__(self, memo):
        if self._var is not None:
            raise TypeError("deepcopy of a symbolic tensor inside a graph capture")
        result = type(self).__new__(type(self))
        Tensor.__init__(result, np.array(self._data))
        if isinstance(self, Parameter):
            result.name, result.requires_grad = self.name, self.requires_grad
            result.layerwise_parallel = self.layerwise_parallel
        memo[id(self)] = result
        return result

    def __reduce__(self):
        if self._var is not None:
            raise TypeError("cannot pickle a symbolic tensor")
        return (Tensor, (np.asarray(self._data),))

    # operators, methods (copy, astype, ...) and indexing are attached by
    # tensorjit.ops.tensor_methods: they bind primitives, which live above this module


_ms_dtype_name = dt.mindspore_name


# how many Parameters wait for their initial values (nn.utils.no_init_parameters): a
# Cell call initialises its own first when this is not 0
_PENDING_INITS = [0]


class Parameter(Tensor):
    """A named, trainable tensor: the state of a Cell. Graphs read it at call time."""
    __slots__ = ("name", "requires_grad", "layerwise_parallel", "_init_thunk")

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True):
        if isinstance(default_input, Tensor) and default_input._var is not None:
            raise TypeError("Parameter: cannot be made from a symbolic tensor inside a graph")
        # an initializer's tensor made under nn.utils.no_init_parameters: its values are
        # computed by init_data() (a zero-memory placeholder until then)
        self._init_thunk = getattr(default_input, "init_thunk", None)
        if self._init_thunk is not None:
            data = default_input._data
            _PENDING_INITS[0] += 1
        else:
            data = _convert_data(default_input, None)
        self._data = data
        self._var = None
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel

    def __repr__(self):
        return f"Parameter (name={self.name}, shape={self.shape}, dtype={_ms_dtype_name(self.dtype)}, requires_grad={self.requires_grad})"

    @property
    def init_param(self):
        """False while the initializer's values are pending (no_init_parameters)."""
        return getattr(self, "_init_thunk", None) is None

    @property
    def has_init(self):
        return getattr(self, "_init_thunk", None) is not None

    def init_data(self, slice_index=None, shape=None, opt_shape=None):
        """Compute the pending initial values, if any; the parameter itself."""
        if getattr(self, "_init_thunk", None) is not None:
            thunk, self._init_thunk = self._init_thunk, None
            _PENDING_INITS[0] -= 1
            self._data = np.array(thunk())
        return self

    def set_data(self, data, slice_shape=False):
        """Replace the value. A new shape is allowed (as in MindSpore); dtype is kept."""
        # (a Parameter copied without __init__ has no such slot set: getattr)
        if getattr(self, "_init_thunk", None) is not None:   # a loaded value: no init
            self._init_thunk = None
            _PENDING_INITS[0] -= 1
        data = data if isinstance(data, Tensor) else Tensor(data)
        if tuple(data.shape) != tuple(self.shape):
            if state.capture is not None:
                raise ValueError(f"set_data: cannot change the shape of parameter "
                                 f"{self.name} from {self.shape} to {data.shape} inside jit")
            self._data = np.array(data.asnumpy(), dtype=self.dtype)
            return self
        if data.dtype != self.dtype:
            data = data.astype(self.dtype)
        return self._assign(data)

    @property
    def data(self):
        return self

    def clone(self, init="same"):
        return Parameter(np.array(self.asnumpy()), name=self.name,
                         requires_grad=self.requires_grad)

    def __reduce__(self):
        return (Parameter, (np.asarray(self._data), self.name, self.requires_grad))



def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """``mindspore.tensor(...)``: a new Tensor (the functional spelling of ``Tensor``)."""
    return Tensor(input_data, dtype, shape, init, const_arg, device)
