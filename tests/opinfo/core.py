"""The op table's vocabulary: ``Sample`` (one call's inputs), ``OpInfo`` (everything the
checks need to know about one op) and ``op(...)``, the one-line declaration that puts an
entry in ``TABLE``.

An entry names a public function of ``tensorjit.ops`` (or, for primitives no public
function reaches with all their parameters, a small caller written in the table), the
primitive(s) it is the reference entry for, an independent reference (a NumPy formula
written in the table, ``scipy.special``, PyTorch), the input dtypes it supports, where its
samples come from (``samples.py``'s shared generators) and its result-dtype rule. The
checks (``test_*.py`` here) read nothing else, so adding an op is one ``op(...)`` call.
"""
import sys
import zlib

import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

TABLE = {}          # name -> OpInfo, in declaration order

BOOL = (dt.bool_,)
SIGNED = (dt.int8, dt.int16, dt.int32, dt.int64)
UNSIGNED = (dt.uint8, dt.uint16, dt.uint32, dt.uint64)
INTS = SIGNED + UNSIGNED
FLOATS = (dt.float16, dt.bfloat16, dt.float32, dt.float64)
NUMERIC = INTS + FLOATS
ALL = BOOL + NUMERIC
ALL_DTYPES = tuple(dt.ALL_DTYPES)

# |actual - reference| <= atol + rtol * |reference|, with the float64 reference rounded to
# the result dtype first: a few units in the last place of each dtype.
TOLERANCE = {dt.float16: (2e-3, 2e-3), dt.bfloat16: (1.6e-2, 1.6e-2),
             dt.float32: (2e-6, 2e-6), dt.float64: (1e-12, 1e-12)}


class Sample:
    """Inputs of one call: ndarrays become Tensors, anything else (axes, Python numbers,
    shapes) is passed as it is, to the op and to the reference alike.

    ``smooth``: the op is differentiable around these inputs, so finite differences are a
    reference for its gradient (edge values, kinks and ties are not)."""
    __slots__ = ("args", "kwargs", "label", "smooth", "raises")

    def __init__(self, *args, label="", smooth=True, raises=None, **kwargs):
        self.args, self.kwargs, self.label = args, kwargs, label
        # ``raises``: the op must refuse these inputs with this exception type
        self.smooth, self.raises = smooth and raises is None, raises

    def leaves(self):
        """The ndarrays among the arguments (in lists and tuples too), in order."""
        out = []
        _walk(self.args, out.append)
        return out

    def arrays(self):
        return self.leaves()

    def build(self, leaf):
        """The arguments with each ndarray ``a`` (the ``i``-th leaf) replaced by
        ``leaf(a, i)``."""
        counter = iter(range(1 << 30))
        return list(_walk(self.args, lambda a: leaf(a, next(counter))))

    def tensors(self):
        return self.build(lambda a, i: tj.Tensor(a))

    def describe(self):
        parts = [repr(_walk(a, lambda v: _Shown(f"{v.dtype}{list(v.shape)}")))
                 for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{self.label or 'sample'}({', '.join(parts)})"

    def __repr__(self):
        return self.describe()


class _Shown(str):
    def __repr__(self):
        return str(self)


def _walk(value, fn):
    """``value`` with every ndarray replaced by ``fn(ndarray)`` (lists and tuples rebuilt)."""
    if isinstance(value, np.ndarray):
        return fn(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_walk(v, fn) for v in value)
    return value


class Kink:
    """The gradient chosen where the op is not differentiable (0 for relu / abs, ties of
    max), checked exactly; ``why`` says why this subgradient; ``torch`` whether PyTorch's
    autograd gives the same (when not, the entry's notes say how it differs)."""

    def __init__(self, sample, grads, why, torch=True):
        self.sample, self.grads, self.why, self.torch = sample, grads, why, torch


class ErrorCase:
    """Inputs the op must refuse with ``exc`` whose message contains ``match`` (the op's
    name): eagerly and in every capture mode and level."""

    def __init__(self, sample, exc, match, why):
        self.sample, self.exc, self.match, self.why = sample, exc, match, why


class Differs:
    """Where PyTorch gives another answer and we keep ours: ``why``, and ``where(*args)``
    the mask of the positions concerned (elementwise ops; None: the whole sample)."""

    def __init__(self, why, where=None):
        self.why, self.where = why, where

    def mask(self, sample, shape):
        if self.where is None:
            return np.ones(shape, bool)
        args = sample.leaves()
        with np.errstate(all="ignore"):
            return np.broadcast_to(self.where(*args), shape)


class OpInfo:
    def __init__(self, name, *, op=None, prims=None, ref=None, dtypes=FLOATS, samples,
                 result=None, tol=None, grad=True, grad_samples=None, nondiff=(), kinks=(),
                 torch=None, torch_grad=True, ms="", notes=None, method=None, aliases=(),
                 fuzz=True, check=None, signed_zeros=True, random=False, fd=(1e-6, 1e-6),
                 torch_differs=None, promotes=False, errors=(), ref_differs=None,
                 weak_scalars=True, only_declared=True, ms_differs=None):
        self.name = name
        self.op = op if op is not None else getattr(tj.ops, name)
        self.prims = tuple(prims if prims is not None else
                           ((name,) if name in tj.ops.PRIMITIVES else ()))
        self.ref = ref
        self.dtypes = tuple(np.dtype(d) for d in dtypes)
        self.samples = samples
        self.result = result
        self.tol = tol or {}
        self.grad = grad
        self.grad_samples = grad_samples
        self.nondiff = frozenset(nondiff)
        self.kinks = tuple(kinks)
        self.torch = torch
        self.torch_grad = torch_grad
        self.ms = f"ops.{name}" if ms == "" else ms
        self.notes = dict(notes or {})
        self.method = method
        self.aliases = tuple(aliases)
        self.fuzz = fuzz
        self.check = check               # a custom check replacing the reference comparison
        self.signed_zeros = signed_zeros
        self.random = random
        self.fd = fd                     # (step, tolerance) of the finite-difference check
        # where PyTorch differs on purpose: {"value:<label>" | "grad:<label>": Differs}
        self.torch_differs = dict(torch_differs or {})
        # where the NumPy reference differs on purpose: {"<sample label>": Differs}
        self.ref_differs = dict(ref_differs or {})
        self.promotes = promotes         # operands of different dtypes are promoted (binary)
        self.weak_scalars = weak_scalars and promotes     # and so are Python numbers
        # other dtypes are refused (False: the op takes what its sub-graph / function does)
        self.only_declared = only_declared
        # where we differ from the recorded MindSpore 2.10 results on purpose:
        # {"dtype": why, "value:<sample label>" | "value:*": why}
        self.ms_differs = dict(ms_differs or {})
        self.errors = tuple(errors)      # inputs the op must refuse, in every capture mode

    def __repr__(self):
        return self.name

    def rng(self, *salt):
        key = "/".join([self.name] + [str(s) for s in salt])
        return np.random.default_rng(zlib.crc32(key.encode()))

    def samples_for(self, dtype, full=False):
        return list(self.samples(np.dtype(dtype), self.rng(dtype.name), full))

    def gradient_samples(self, full=False):
        if self.grad_samples is not None:
            return [s for s in self.grad_samples(self.rng("grad"), full) if s.smooth]
        if dt.float64 not in self.dtypes:
            return []
        return [s for s in self.samples_for(dt.float64, full) if s.smooth]

    def result_dtypes(self, sample):
        """The dtypes the op must return for ``sample`` (a tuple, one per result)."""
        in_dtypes = [a.dtype for a in sample.leaves()]
        if self.result is None:
            out = in_dtypes[0]
            for d in in_dtypes[1:]:
                out = dt.promote_types(out, d)
        else:
            out = self.result(*in_dtypes, **_rule_kwargs(self.result, sample))
        return tuple(np.dtype(d) for d in out) if isinstance(out, (tuple, list)) else \
            (np.dtype(out),)

    def tolerance(self, dtype):
        return self.tol.get(dtype, TOLERANCE.get(dtype, (0.0, 0.0)))


def _rule_kwargs(rule, sample):
    names = rule.__code__.co_varnames[:rule.__code__.co_argcount + rule.__code__.co_kwonlyargcount]
    return {k: v for k, v in sample.kwargs.items() if k in names}


def op(name, **fields):
    """Declare the table entry of one op (see ``OpInfo`` for the fields)."""
    if name in TABLE:
        raise ValueError(f"op table: {name!r} is declared twice")
    entry = OpInfo(name, **fields)
    # the family: the declaring module's title ("Table entries: <family>.")
    doc = (sys._getframe(1).f_globals.get("__doc__") or "").strip().split("\n")[0]
    entry.family = doc.replace("Table entries: ", "").rstrip(".").split(" (")[0].split(" --")[0]
    TABLE[name] = entry
    return entry


# ---- result-dtype rules (MindSpore 2.10's, as recorded in mindspore_2_10.json) ----------

def same(*dtypes, **_):
    """The promoted dtype of the tensor inputs (MindSpore's promotion)."""
    out = dtypes[0]
    for d in dtypes[1:]:
        out = dt.promote_types(out, d)
    return out


def float_result(*dtypes, **_):
    """Float inputs keep their dtype; bool and integer inputs compute in float32."""
    d = same(*dtypes)
    return d if dt.is_float(d) else dt.float32


def bool_result(*dtypes, **_):
    return dt.bool_


def int64_result(*dtypes, **_):
    return dt.int64


def accumulate(*dtypes, **_):
    """Sums and products (MindSpore 2.10): bool, signed integers and uint8 accumulate in
    int64; uint16 / uint32 / uint64 and floats in their own dtype."""
    d = dtypes[0]
    return dt.int64 if d in (dt.bool_, dt.uint8) + SIGNED else d


# ---- running and comparing ----------------------------------------------------------------

def upcast(value):
    """A float64 copy of float arrays (references compute in double precision)."""
    if isinstance(value, np.ndarray) and dt.is_float(value.dtype):
        return value.astype(np.float64)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
        return type(value)(upcast(v) for v in value)
    return value


def as_results(out):
    """A Tensor or a tuple of Tensors as a list of ndarrays."""
    if isinstance(out, (tuple, list)):
        return [np.asarray(o.asnumpy() if isinstance(o, tj.Tensor) else o) for o in out]
    return [np.asarray(out.asnumpy() if isinstance(out, tj.Tensor) else out)]


def compare(actual, expected, dtype, rtol, atol, signed_zeros=True):
    """None when ``actual`` matches the reference ``expected`` (rounded to ``dtype``),
    else a description of the first difference."""
    if actual.dtype != dtype:
        return f"dtype {actual.dtype}, expected {dtype}"
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if not dt.is_float(dtype):
        want = expected.astype(dtype)
        bad = actual != want
        if bad.any():
            return f"values {actual[bad][:6]} where the reference has {want[bad][:6]}"
        return None
    with np.errstate(all="ignore"):
        want = expected.astype(dtype).astype(np.float64)
    got = actual.astype(np.float64)
    nan_got, nan_want = np.isnan(got), np.isnan(want)
    if not np.array_equal(nan_got, nan_want):
        where = nan_got != nan_want
        return f"NaN differs: {got[where][:6]} where the reference has {want[where][:6]}"
    ok = ~nan_want
    got, want = got[ok], want[ok]
    inf = np.isinf(want) | np.isinf(got)
    if not np.array_equal(got[inf], want[inf]):
        return f"infinities differ: {got[inf][:6]} where the reference has {want[inf][:6]}"
    finite = ~inf
    err = np.abs(got[finite] - want[finite])
    bad = err > atol + rtol * np.abs(want[finite])
    if bad.any():
        return (f"values {got[finite][bad][:6]} where the reference has "
                f"{want[finite][bad][:6]} (rtol {rtol}, atol {atol})")
    if signed_zeros:
        zero = (want == 0) & (got == 0)
        if not np.array_equal(np.signbit(got[zero]), np.signbit(want[zero])):
            return "the sign of a zero differs from the reference"
    return None
