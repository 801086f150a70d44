"""Running a table entry on a sample and comparing with its reference."""
import contextlib
import warnings

import numpy as np

from tensorjit import dtype as dt

from .core import as_results, compare, upcast


@contextlib.contextmanager
def quiet():
    """NumPy's floating-point warnings and Python warnings off (edge values raise them)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def call(entry, sample):
    """The op's results on ``sample`` as a list of ndarrays."""
    with quiet():
        return as_results(entry.op(*sample.tensors(), **sample.kwargs))


def reference(entry, sample):
    """The reference's results as a list. It computes in float64: float inputs are
    upcast, and when no input is a float, bool / integer inputs of an op with a float
    result are first converted to that result dtype (the op's own definition: ``exp`` of
    int32 is ``exp`` of the int32 values as float32)."""
    floats = [d for d in entry.result_dtypes(sample) if dt.is_float(d)]
    with quiet():
        if floats and not any(dt.is_float(a.dtype) for a in sample.leaves()):
            args = sample.build(lambda a, i: a.astype(floats[0]).astype(np.float64))
        else:
            args = sample.build(lambda a, i: upcast(a))
        out = entry.ref(*args, **sample.kwargs)
    return [np.asarray(o) for o in out] if isinstance(out, (tuple, list)) else [np.asarray(out)]


def check_sample(entry, sample):
    """None if the op matches its reference (values, dtypes, shapes), else the problem."""
    try:
        got = call(entry, sample)
    except Exception as exc:
        if sample.raises is not None and isinstance(exc, sample.raises):
            return None
        return f"raised {type(exc).__name__}: {exc}"
    if sample.raises is not None:
        return f"returned instead of raising {sample.raises.__name__}"
    if entry.check is not None:
        return entry.check(entry, sample, got)
    want = reference(entry, sample)
    dtypes = entry.result_dtypes(sample)
    if len(dtypes) == 1:             # one rule for every result (split, unbind)
        dtypes = dtypes * len(got)
    if len(got) != len(want) or len(dtypes) != len(got):
        return f"{len(got)} results; the reference has {len(want)}, the dtype rule {len(dtypes)}"
    differs = entry.ref_differs.get(sample.label)
    for k, (g, w, d) in enumerate(zip(got, want, dtypes)):
        if differs is not None and g.shape == np.shape(w):
            keep = ~differs.mask(sample, g.shape)
            g, w = g[keep], np.asarray(w)[keep]
        rtol, atol = entry.tolerance(d)
        problem = compare(g, w, d, rtol, atol, entry.signed_zeros)
        if problem:
            return f"result {k}: {problem}" if len(got) > 1 else problem
    return None


def is_float_array(value):
    return isinstance(value, np.ndarray) and dt.is_float(value.dtype)
