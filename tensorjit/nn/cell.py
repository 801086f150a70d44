"""``Cell``: the base class of layers and networks, and ``ParameterTuple``.

A Cell owns Parameters and child Cells, registered by attribute assignment and kept in
ordered registries (``_params``, ``_cells``, ``_params_tuples``) so traversal order is the
order of assignment, as in MindSpore. Parameter names are MindSpore's dotted paths
(``conv1.weight``, ``layers.0.bn.gamma``): attaching a child prefixes the names of all
parameters below it with the attribute name (MindSpore's ``auto_prefix``).

Calling a cell runs ``construct`` through one method, ``_run_construct``, which is the
single place the compiler hooks to run a cell as a graph.
"""
import weakref
from collections import OrderedDict

from .. import dtype as dt
from ..tensor import Tensor, Parameter
from .. import tensor as _tensor_module
from .. import ops
from ..state import state as _op_state
from .. import context as _context

__all__ = ["Cell", "ParameterTuple"]

_UNNAMED = (None, "", "Parameter")   # names a Parameter gets when the user gave none


class ParameterTuple(tuple):
    """An immutable tuple of distinct Parameters (an optimizer's ``parameters``)."""

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        seen = set()
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: every element must be a Parameter, got "
                                f"{type(p).__name__}")
            if id(p) in seen:
                raise ValueError(f"ParameterTuple: parameter {p.name!r} appears twice")
            seen.add(id(p))
        return tuple.__new__(cls, items)

    def clone(self, prefix, init="same"):
        """New Parameters shaped like these, named ``<prefix>.<name>`` (optimizer state)."""
        from .initializer import initializer
        if not isinstance(prefix, str) or not prefix:
            raise ValueError(f"ParameterTuple.clone: prefix must be a non-empty str, got {prefix!r}")
        clones = []
        for p in self:
            data = (Tensor(p.asnumpy().copy()) if isinstance(init, str) and init == "same"
                    else initializer(init, tuple(p.shape), p.dtype))
            clones.append(Parameter(data, name=f"{prefix}.{p.name}",
                                    requires_grad=p.requires_grad))
        return ParameterTuple(clones)


def _cast_floats(value, dtype):
    if isinstance(value, Tensor) and dt.is_float(value.dtype) and value.dtype != dtype:
        return ops.cast(value, dtype)
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    return value


def _in_precision(param, dtype):
    """A trainable floating parameter as ``dtype`` (inside a ``to_float`` cell's construct);
    other parameters (BatchNorm's moving statistics) are left as they are, so in-place
    updates still reach them."""
    if (param is not None and param.requires_grad and dt.is_float(param.dtype)
            and param.dtype != dtype):
        return ops.cast(param, dtype)
    return param


# Bumped whenever a cell that some compiled graph was built from changes its mode or its
# plain (non-Parameter) attributes: compiled entries remember the value they were built
# with, and an entry built with another value is not used as it is (see tensorjit.jit) --
# unless every such cell is back in the state the entry was built in (state_fingerprint):
# a training loop that switches set_train(True) / set_train(False) every epoch reuses its
# graphs instead of compiling them again.
STATE_VERSION = [0]
_CAPTURED_CELLS = weakref.WeakSet()
_FINGERPRINT = [None, None]           # (version, fingerprint) of the latest computation


def note_captured(cell):
    """A compiled graph was built from ``cell``: its changes bump STATE_VERSION."""
    if not cell.__dict__.get("_tj_captured"):
        object.__setattr__(cell, "_tj_captured", True)
        _CAPTURED_CELLS.add(cell)
        _FINGERPRINT[0] = None


def state_fingerprint():
    """{id: (mode, attribute-write count)} of every live cell graphs were built from."""
    version = STATE_VERSION[0]
    if _FINGERPRINT[0] != version:
        cells = list(_CAPTURED_CELLS)
        _FINGERPRINT[:] = [version, {id(c): (c.training, c.__dict__.get("_tj_attr_writes", 0))
                                     for c in cells}]
    return _FINGERPRINT[1]


def fingerprint_matches(old):
    """Whether every cell of an earlier ``state_fingerprint`` that is still alive is in the
    state it was then (cells captured since, or gone, cannot matter to a graph built then)."""
    current = state_fingerprint()
    return all(current.get(key, state) == state for key, state in old.items())


def _note_python_write(cell, name):
    """Tell a capture that the code it runs writes a plain attribute (``self.calls += 1``):
    trace cannot repeat it and says so, ast runs that statement as Python on every call."""
    capture = _op_state.capture
    write = getattr(capture, "python_write", None) if capture is not None else None
    if write is not None and not name.startswith("_tj"):
        write(f"{type(cell).__name__}.{name}")


def _bump_state(cell, attribute=True):
    if cell.__dict__.get("_tj_captured"):
        STATE_VERSION[0] += 1
        if attribute:
            object.__setattr__(cell, "_tj_attr_writes", cell.__dict__.get("_tj_attr_writes", 0) + 1)


class Cell:
    """Base class of all layers and networks; subclasses define ``construct``."""

    def __init__(self, auto_prefix=True, flags=None):
        set_ = object.__setattr__
        set_(self, "_params", OrderedDict())
        set_(self, "_cells", OrderedDict())
        set_(self, "_params_tuples", OrderedDict())
        set_(self, "_auto_prefix", bool(auto_prefix))
        # Prefix this cell's parameters carry from the cells above it ("" at the top).
        set_(self, "_param_prefix", "")
        set_(self, "_mixed_precision_type", None)
        set_(self, "_flags", dict(flags or {}))
        set_(self, "training", False)       # MindSpore cells start in inference mode
        set_(self, "requires_grad", False)

    # ---- calling ----------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}: a Cell subclass must define "
                                  f"construct() to be called")

    def __call__(self, *args, **kwargs):
        if _tensor_module._PENDING_INITS[0]:
            self.init_parameters_data()        # first use after no_init_parameters
        return self._run_construct(*args, **kwargs)

    def init_parameters_data(self, auto_parallel_mode=False):
        """Compute the initial values still pending (``nn.utils.no_init_parameters``) of
        this cell's parameters; a dict mapping each parameter to itself."""
        params = {}
        for param in self.get_parameters():
            params[param] = param.init_data()
        return params

    def _run_construct(self, *args, **kwargs):
        """Run ``construct``: the single entry the compiler replaces for GRAPH_MODE."""
        capture = _op_state.capture
        if capture is not None:
            capture.note_cell(self)
        elif _context.graph_mode_on() and not _op_state.tapes:
            return _context.run_cell_as_graph(self, args, kwargs)      # GRAPH_MODE
        if self._mixed_precision_type is not None:
            return self._run_in_precision(capture, args, kwargs)
        if capture is not None:
            call_cell = getattr(capture, "call_cell", None)     # ast mode converts construct
            if call_cell is not None:
                return call_cell(self, args, kwargs)
        return self.construct(*args, **kwargs)

    def _run_in_precision(self, capture, args, kwargs):
        """``to_float``: the floating inputs and, while ``construct`` runs, the trainable
        floating parameters it reads are cast to the cell's type (the stored parameters keep
        theirs; gradients flow back through the casts), so it computes in that type."""
        dtype = self._mixed_precision_type
        args = _cast_floats(args, dtype)
        kwargs = {k: _cast_floats(v, dtype) for k, v in kwargs.items()}
        depth = self.__dict__.get("_tj_precision_depth", 0)
        object.__setattr__(self, "_tj_precision_depth", depth + 1)
        try:
            call_cell = getattr(capture, "call_cell", None) if capture is not None else None
            if call_cell is not None:
                return call_cell(self, args, kwargs)
            return self.construct(*args, **kwargs)
        finally:
            object.__setattr__(self, "_tj_precision_depth", depth)

    # ---- attribute registry -----------------------------------------------------------
    def _check_initialized(self, name):
        if "_params" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__}: call super().__init__() in __init__ "
                                 f"before assigning {name!r}")

    def _forget(self, name):
        """Remove ``name`` from every registry and from the instance dict."""
        self._params.pop(name, None)
        self._cells.pop(name, None)
        self._params_tuples.pop(name, None)
        self.__dict__.pop(name, None)

    def __setattr__(self, name, value):
        if isinstance(value, (Parameter, Cell, ParameterTuple)):
            self._check_initialized(name)
            self._forget(name)
            if isinstance(value, Parameter):
                self._register_param(name, value)
            elif isinstance(value, Cell):
                self._register_cell(name, value)
            else:
                self._params_tuples[name] = value
            return
        if "_params" in self.__dict__:          # (attributes set before __init__ are plain)
            if name in self._params:
                if value is None:
                    self._params[name] = None
                elif isinstance(value, Tensor) and self._params[name] is not None:
                    # MindSpore: assigning a tensor to a parameter attribute writes it.
                    self._params[name].set_data(value)
                else:
                    raise TypeError(f"{type(self).__name__}: attribute {name!r} is a "
                                    f"Parameter; assign a Parameter, a Tensor or None, not "
                                    f"{type(value).__name__}")
                return
            if name in self._cells:
                if value is not None:
                    raise TypeError(f"{type(self).__name__}: attribute {name!r} is a child "
                                    f"Cell; assign a Cell or None, not {type(value).__name__}")
                self._cells[name] = None
                return
            if name in self._params_tuples:
                self._params_tuples.pop(name)
            _note_python_write(self, name)
            _bump_state(self)
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # Only reached when normal lookup fails: look in the registries.
        d = self.__dict__
        for registry in ("_params", "_cells", "_params_tuples"):
            entries = d.get(registry)
            if entries is not None and name in entries:
                value = entries[name]
                if registry == "_params" and d.get("_tj_precision_depth"):
                    return _in_precision(value, d["_mixed_precision_type"])
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for registry in ("_params", "_cells", "_params_tuples"):
            entries = self.__dict__.get(registry)
            if entries is not None and name in entries:
                del entries[name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        names = set(super().__dir__())
        for registry in (self._params, self._cells, self._params_tuples):
            names.update(registry)
        return sorted(names)

    def _register_param(self, name, param):
        if param.name in _UNNAMED:
            param.name = self._param_prefix + name
        self._params[name] = param

    def _register_cell(self, name, cell):
        if cell is self:
            raise ValueError(f"{type(self).__name__}: a cell cannot be its own child ({name!r})")
        self._cells[name] = cell
        if self._auto_prefix:
            cell.update_parameters_name(self._param_prefix + name + ".")

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Register ``param`` under ``param_name`` (MindSpore API)."""
        self._check_initialized(param_name)
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(f"{type(self).__name__}.insert_param_to_cell: the parameter name must "
                           f"be a non-empty str, got {param_name!r}")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"{type(self).__name__}.insert_param_to_cell: the parameter name "
                           f"must not contain '.', got {param_name!r}")
        if param_name not in self._params and (param_name in self.__dict__
                                                or param_name in self._cells):
            raise KeyError(f"{type(self).__name__}.insert_param_to_cell: attribute "
                           f"{param_name!r} already exists and is not a parameter")
        if param is None:
            self._params[param_name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"{type(self).__name__}.insert_param_to_cell: expected a Parameter "
                            f"for {param_name!r}, got {type(param).__name__}")
        self._register_param(param_name, param)

    def insert_child_to_cell(self, child_name, child_cell):
        """Register ``child_cell`` under ``child_name`` (MindSpore API)."""
        self._check_initialized(child_name)
        if not isinstance(child_name, str) or not child_name or "." in child_name:
            raise KeyError(f"{type(self).__name__}.insert_child_to_cell: the child name must "
                           f"be a non-empty str without '.', got {child_name!r}")
        if child_name in self._params or child_name in self.__dict__:
            raise KeyError(f"{type(self).__name__}.insert_child_to_cell: attribute "
                           f"{child_name!r} already exists and is not a cell")
        if child_cell is None:
            self._cells[child_name] = None
            return
        if not isinstance(child_cell, Cell):
            raise TypeError(f"{type(self).__name__}.insert_child_to_cell: expected a Cell for "
                            f"{child_name!r}, got {type(child_cell).__name__}")
        self._register_cell(child_name, child_cell)

    def update_parameters_name(self, prefix="", recurse=True):
        """Prepend ``prefix`` to the names of this cell's parameters (all of them below
        this cell when ``recurse``)."""
        if not isinstance(prefix, str):
            raise TypeError(f"update_parameters_name: prefix must be a str, got {prefix!r}")
        cells = [c for _, c in self.cells_and_names()] if recurse else [self]
        for cell in cells:
            object.__setattr__(cell, "_param_prefix", prefix + cell._param_prefix)
        for _, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + (param.name or "")

    # ---- traversal --------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        """(name, cell) for this cell and every cell below it, each cell once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix
                                                else name)

    def cells(self):
        """The direct children."""
        return [c for c in self._cells.values() if c is not None]

    def name_cells(self):
        """The direct children by attribute name."""
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def parameters_and_names(self, name_prefix="", expand=True):
        """(path, parameter) for each distinct parameter, in registration order.

        A parameter shared by several cells is listed once, under its first path."""
        seen = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        for cell_name, cell in cells:
            for name, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{cell_name}.{name}" if cell_name else name), param
            for params in cell._params_tuples.values():
                for param in params:
                    if id(param) not in seen:
                        seen.add(id(param))
                        yield param.name, param

    def get_parameters(self, expand=True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """OrderedDict of parameter name -> parameter."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def apply(self, fn):
        """Call ``fn(cell)`` on every cell below and including this one."""
        for _, cell in self.cells_and_names():
            fn(cell)
        return self

    # ---- modes ------------------------------------------------------------------------
    def set_train(self, mode=True):
        """Training (True) or inference (False) mode, for this cell and all below it."""
        for _, cell in self.cells_and_names():
            if cell.training != bool(mode):
                _bump_state(cell, attribute=False)
            object.__setattr__(cell, "training", bool(mode))
        return self

    def set_grad(self, requires_grad=True):
        """Kept for MindSpore scripts: gradients are taken by ``value_and_grad`` here."""
        object.__setattr__(self, "requires_grad", bool(requires_grad))
        return self

    def to_float(self, dst_type):
        """Make this cell and the cells below it compute in ``dst_type``: their floating
        inputs and trainable floating parameters are cast to it when they run (MindSpore's
        ``to_float``; the parameters themselves keep their dtype)."""
        dst_type = dt.as_dtype(dst_type)
        if not dt.is_float(dst_type):
            raise ValueError(f"{type(self).__name__}.to_float: dst_type must be a floating "
                             f"dtype, got {dst_type}")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_mixed_precision_type", dst_type)
        return self

    # ---- printing ---------------------------------------------------------------------
    @property
    def cls_name(self):
        return type(self).__name__

    def extend_repr(self):
        """The text inside ``Name<...>``; layers override it to show their settings."""
        return ""

    def __repr__(self):
        head = f"{type(self).__name__}<{self.extend_repr()}"
        children = [(n, c) for n, c in self._cells.items() if c is not None]
        if not children:
            return head + ">"
        lines = [head]
        for name, cell in children:
            text = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {text}")
        return "\n".join(lines) + "\n  >"
