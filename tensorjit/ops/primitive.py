"""The primitive registry: every operation tensorjit can run, each declared once with every
fact any layer needs about it.

A ``Primitive`` carries
  * ``impl(*arrays, **params)``: the NumPy kernel (eager mode and the kernel-by-kernel
    backend call it);
  * ``abstract(*avals, **params)``: the shape/dtype rule, usable without data (capture
    calls it on abstract values; eager calls it only to explain a failing kernel);
  * ``vjp(ct, out, *args, **params)``: the reverse-mode rule, written with ops, so under a
    capture the backward pass is recorded into the same graph;
  * ``aliasing``: where its results live -- new memory the graph owns (``FRESH``), a view
    of its first operand (``VIEW``), either an operand's memory or new memory
    (``MAY_ALIAS``: control flow, GE units), or it returns no arrays (``NO_OUTPUT``);
    buffer reuse, the memory estimate and the GE backend read it (``ir/liveness.py``);
  * ``scalar``: for elementwise primitives, how one element is computed
    (``ops/scalar.py``), which fused kernels are built from; or ``no_scalar``, the reason
    there is none;
  * ``decompose``: an optional rewrite into simpler primitives, applied by O1 when every
    resulting node can be fused (``passes/decompose.py``);
  * ``batch(prim, dims, *args, **params) -> (outputs, out_dims)``: the batching rule for
    ``vmap`` (``ops/batching.py``): the primitive applied to a whole batch at once, written
    with ops; elementwise primitives derive theirs from the flag. ``no_batch``: why a
    primitive that takes tensors has none (vmap then names the primitive in its error);
    primitives without tensor inputs are never batched;
  * ``emit``: an optional code emitter for primitives that are not one kernel call
    (control flow, guards, fused kernels), used by ``backend/codegen.py``;
  * flags: ``multiple_results``, ``elementwise`` (output[i] depends only on input[i]
    after broadcasting), ``effect`` (never removed, reordered or folded), ``random``
    (never folded or merged), ``shape_generic`` (the kernel is right for any input shapes
    of the same dtypes), ``codegen`` (a Python expression template for readable code),
    ``symbolic_zeros`` (a primitive with several results: its VJP is given None for a
    result nothing differentiates, instead of an array of zeros, and leaves out that
    result's terms -- batch norm's statistics, whose zero terms cost a full-size array).

``bind`` is the one entry point: it runs the kernel eagerly, or hands the call to the
active capture (trace / ast / bytecode), and records it on every active autodiff tape.
"""
import numpy as np

from .. import timeline
from ..aval import ShapedArray
from ..state import state
from ..tensor import Tensor

PRIMITIVES = {}

FRESH = "fresh"              # every result is a new, writable array the graph owns
VIEW = "view"                # a result is (part of) its first operand's memory
MAY_ALIAS = "may alias"      # a result may be any operand's memory, or new memory
NO_OUTPUT = "no output"      # returns no arrays (effects)
ALIASING = (FRESH, VIEW, MAY_ALIAS, NO_OUTPUT)


class Primitive:
    def __init__(self, name, impl, abstract, vjp=None, *, multiple_results=False,
                 elementwise=False, effect=False, random=False, codegen=None,
                 shape_generic=None, aliasing=None, scalar=None, no_scalar=None,
                 decompose=None, emit=None, batch=None, no_batch=None, symbolic_zeros=False,
                 communicates=False):
        if name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} is already registered")
        if aliasing is None and elementwise:
            aliasing = FRESH
        if aliasing not in ALIASING + (None,):
            raise ValueError(f"primitive {name!r}: aliasing must be one of {ALIASING}")
        if scalar is not None and no_scalar is not None:
            raise ValueError(f"primitive {name!r}: give a scalar rule or a reason, not both")
        self.name = name
        self.impl = impl
        self.abstract = abstract
        self.vjp = vjp
        self.multiple_results = multiple_results
        self.elementwise = elementwise
        self.effect = effect
        self.random = random
        self.codegen = codegen
        self.shape_generic = elementwise if shape_generic is None else shape_generic
        self.aliasing = aliasing
        self.scalar = scalar
        self.no_scalar = no_scalar
        self.decompose = decompose
        self.emit = emit
        self.batch = batch
        self.no_batch = no_batch
        self.symbolic_zeros = symbolic_zeros
        self.communicates = communicates     # a collective: the profiler calls it so
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
                if timeline.recorder is None:
                    out = self.impl(*arrays, **params)
                else:
                    start = timeline._clock()
                    out = self.impl(*arrays, **params)
                    timeline.op_done(self, arrays, start)
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
