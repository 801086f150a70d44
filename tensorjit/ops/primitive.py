"""The primitive registry: every operation tensorjit can run, each declared once.

A ``Primitive`` carries
  * ``impl(*arrays, **params)``: the NumPy kernel (eager mode and the kernel-by-kernel
    backend call it),
  * ``abstract(*avals, **params)``: the shape/dtype rule, usable without data (capture
    calls it on abstract values; eager calls it only to explain a failing kernel),
  * ``vjp(ct, out, *args, **params)``: the reverse-mode rule, written with ops, so under a
    capture the backward pass is recorded into the same graph.

``bind`` is the one entry point: it runs the kernel eagerly, or hands the call to the
active capture (trace / ast / bytecode), and records it on every active autodiff tape.
"""
import threading

import numpy as np

from ..aval import ShapedArray

PRIMITIVES = {}


class _State(threading.local):
    """Per-thread interpreter state: the active capture and the autodiff tapes."""
    capture = None
    tapes = ()
    grad_enabled = True


state = _State()


class Primitive:
    def __init__(self, name, impl, abstract, vjp=None, *, multiple_results=False,
                 elementwise=False, effect=False, random=False, codegen=None,
                 shape_generic=None):
        if name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} is already registered")
        self.name = name
        self.impl = impl
        self.abstract = abstract
        self.vjp = vjp
        self.multiple_results = multiple_results
        # elementwise: output[i] depends only on input[i] (after broadcasting); fusible.
        self.elementwise = elementwise
        # effect: has a side effect (assign, print) -- never removed, reordered or folded.
        self.effect = effect
        # random: draws from the random generator -- never folded or merged by CSE.
        self.random = random
        # codegen(inputs: list[str], params) -> Python expression, for readable backends.
        self.codegen = codegen
        # shape_generic: the kernel computes the right thing for any input shapes of the
        # same dtypes, so a compiled graph of such ops needs no shape guard.
        self.shape_generic = elementwise if shape_generic is None else shape_generic
        PRIMITIVES[name] = self

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        """Apply the primitive to Tensors; returns a Tensor or a tuple of Tensors."""
        st = state
        capture = st.capture
        if capture is None:
            try:
                arrays = [a._data for a in args]
                out = self.impl(*arrays, **params)
            except Exception as exc:
                raise explain_failure(self, args, params, exc) from None
            if self.multiple_results:
                result = tuple(map(Tensor._wrap, out))
            else:
                result = Tensor._wrap(out)
        else:
            result = capture.record(self, args, params)
        if st.tapes and st.grad_enabled:
            saved = None
            for tape in st.tapes:
                saved = tape.record(self, args, params, result, saved)
        return result

    def abstract_eval(self, avals, params):
        """Shape rule, returning a list of avals whatever the number of results."""
        out = self.abstract(*avals, **params)
        return list(out) if self.multiple_results else [out]


def explain_failure(prim, args, params, exc):
    """Turn a kernel failure into an error naming the op, its inputs and the problem."""
    if any(a._data is None for a in args):
        return RuntimeError(
            f"{prim.name}: received a symbolic tensor outside of the graph capture that "
            f"created it (was a tensor from inside a jitted function stored and used later?)")
    avals = [ShapedArray(a._data.shape, a._data.dtype) for a in args]
    try:
        prim.abstract(*avals, **params)
    except (ValueError, TypeError, IndexError) as rule_error:
        return type(rule_error)(str(rule_error))
    shapes = ", ".join(repr(a) for a in avals)
    return type(exc)(f"{prim.name}({shapes}): {exc}") if isinstance(
        exc, (ValueError, TypeError, IndexError)) else exc


def same_aval(x, **params):
    return x


def to_array(value, dtype):
    """A kernel's result as an ndarray of exactly ``dtype`` (NumPy returns scalars for 0-d)."""
    if type(value) is np.ndarray and value.dtype == dtype:
        return value
    return np.asarray(value, dtype=dtype)


from ..tensor import Tensor  # noqa: E402  (Tensor needs `state`; bind needs Tensor)
