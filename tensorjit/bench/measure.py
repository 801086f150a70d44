"""Measuring one tensorjit row: check it against eager, then time it the way seed 000 does.

* time to prepare: the first call of a freshly jitted function (the compile cache is
  cleared first, so rows never reuse each other's graphs); then the kernels it queued for
  the background compiler are waited for (``kernels_wait_s``), so what follows measures
  native code, not the NumPy versions tiered compilation runs meanwhile;
* correctness: the first ``CHECK_CALLS`` calls (the prepare call included, so the traced
  first call and the compiled later calls are both seen) must equal eager within the
  tolerance, or the row is WRONG and is not timed;
* time to run N times: a plain loop ``for args in calls: out = fn(*args)`` over pre-made
  inputs; with ``repeat`` > 1 the loop runs up to that many times (while the row has spent
  less than 2 s in it) and the fastest counts: on a small shared machine a burst of load
  from another process then spoils one loop rather than the row.

A configuration that raises ``NotImplementedError`` is "not available" (a capture mode or
level still being built); any other exception makes the row "failed" with the message.
"""
import gc
import math
import time
import traceback
import warnings

import tensorjit as mindspore
from tensorjit.backend.numba import background
from tensorjit.jit.cache import CACHE
from tensorjit.jit.function import STATS
from .suite import flat_numpy, compare, CHECK_CALLS

OK, WRONG, NOT_AVAILABLE, FAILED = "ok", "WRONG", "not available", "failed"


def _error_text(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


def timed_loop(fn, calls, repeat=1, on_chunk=None, chunks=1, stats=None):
    """Seconds for ``for args in calls: fn(*args)`` (best of ``repeat``). With ``chunks``
    > 1 the loop is cut into that many timed pieces, and ``on_chunk(fraction)`` (the
    progress bar; fractions add up to 1) runs between them, outside the timed region."""
    n = len(calls)
    best = math.inf
    size = max(1, math.ceil(n / max(chunks, 1)))
    pieces = [calls[i:i + size] for i in range(0, n, size)] or [[]]
    spent = 0.0
    for attempt in range(max(repeat, 1)):
        if attempt and spent > 2.0:          # repeats only while they are cheap
            if on_chunk is not None:
                on_chunk((repeat - attempt) / max(repeat, 1))
            break
        total = 0.0
        for piece in pieces:
            start = time.perf_counter()
            for args in piece:
                fn(*args)
            total += time.perf_counter() - start
            if on_chunk is not None:
                on_chunk(len(piece) / max(n, 1) / max(repeat, 1))
        best = min(best, total)
        spent += total
        if stats is not None:
            stats["loops"] = attempt + 1
    return best


def make_callable(case, row):
    if row.eager:
        return case.fn
    return mindspore.jit(case.fn, **row.jit_kwargs())


def _wait_for_kernels(timeout=600.0):
    """Seconds spent waiting for the native kernels compiling in the background (O1's
    tiered compilation, the Winograd transforms): the later check calls and the timed loop
    then run the steady state, not the NumPy versions beside a compiling process."""
    start = time.perf_counter()
    background.wait(timeout)
    return time.perf_counter() - start


def measure_row(case, row, tolerance=1e-4, repeat=1, progress=None):
    """Check and time ``row`` on ``case``; returns the row's result dict.

    Warnings raised by the calls are collected into the result (``warnings``), and graph
    compilations during the timed loop are counted (``compiles_while_timed``): a row that
    recompiles there is not measuring its steady state, and the report says so."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _measure_row(case, row, tolerance, repeat, progress)
    messages = []
    for w in caught:
        text = f"{w.category.__name__}: {w.message}"
        if text not in messages:
            messages.append(text)
    if messages:
        result["warnings"] = messages[:5]
    return result


def _measure_row(case, row, tolerance, repeat, progress):
    result = {"row": row.to_json(), "id": row.id, "status": None, "prepare_s": None,
              "run_s": None, "per_call_s": None, "iterations": len(case.calls),
              "max_rel_err": None, "error": None}
    CACHE.clear()
    gc.collect()
    try:
        start = time.perf_counter()
        fn = make_callable(case, row)
        result["wrap_s"] = time.perf_counter() - start
        start = time.perf_counter()
        first = fn(*case.pool[0])
        result["prepare_s"] = time.perf_counter() - start
        result["kernels_wait_s"] = _wait_for_kernels()
        outputs = {0: first}
        start = time.perf_counter()
        for i in range(1, len(case.refs)):
            outputs[i] = fn(*case.pool[i])
        check_s = (time.perf_counter() - start) / max(len(case.refs) - 1, 1)
    except NotImplementedError as exc:
        result.update(status=NOT_AVAILABLE, error=_error_text(exc))
        return result
    except Exception as exc:          # the row is broken: say how, keep going
        result.update(status=FAILED, error=_error_text(exc),
                      traceback=traceback.format_exc(limit=6))
        return result
    worst = 0.0
    for i, out in outputs.items():
        problem, err = compare(flat_numpy(out), case.refs[i], tolerance, check_dtype=True)
        worst = max(worst, err)
        if problem:
            result.update(status=WRONG, max_rel_err=err,
                          error=f"call {i + 1} differs from eager: {problem}")
            return result
    result["max_rel_err"] = worst
    # long rows are cut into chunks so the progress bar moves; short rows run in one piece
    expected = check_s * len(case.calls) * max(repeat, 1)
    chunks = 10 if progress is not None and expected > 2.0 else 1
    on_chunk = None if progress is None else progress
    compiles = STATS["compiles"]
    loops = {}
    try:
        run_s = timed_loop(fn, case.calls, repeat=repeat, on_chunk=on_chunk, chunks=chunks,
                           stats=loops)
    except Exception as exc:
        result.update(status=FAILED, error="while timing: " + _error_text(exc))
        return result
    result["compiles_while_timed"] = STATS["compiles"] - compiles
    result["loops"] = loops.get("loops", 1)
    result.update(status=OK, run_s=run_s, per_call_s=run_s / max(len(case.calls), 1))
    return result


def interleaved_per_call(case, row_specs, rounds=7):
    """Per-call seconds of raw NumPy and of the given rows, measured in alternation (round
    by round, best round kept), so that load from other processes hits them alike. Used
    for the jitted / raw-NumPy ratio of the simple function, where one call is about a
    microsecond and a background process can move a single loop by 2x."""
    def numpy_f(a, b, c):
        return a * b + c

    np_calls = [tuple(t.asnumpy() for t in args) for args in case.calls]
    contenders = {"numpy": (numpy_f, np_calls)}
    for row in row_specs:
        CACHE.clear()
        fn = make_callable(case, row)
        for args in case.calls[:CHECK_CALLS + 8]:     # compile and install the fast path
            fn(*args)
        contenders[row.id] = (fn, case.calls)
    return _alternated(contenders, rounds, max(len(case.calls), 1))


def _alternated(contenders, rounds, calls):
    """{name: per-call seconds}: each contender's ``(fn, arguments)`` loop timed round
    after round in turn, the best round kept."""
    best = {name: math.inf for name in contenders}
    for _ in range(rounds):
        for name, (fn, args) in contenders.items():
            best[name] = min(best[name], timed_loop(fn, args))
    return {name: seconds / calls for name, seconds in best.items()}


def ten_ops(a, b, c):
    """Ten elementwise ops: the per-call overhead of a small function, beyond ``a*b+c``."""
    d = a * b + c
    e = (d - a) * (b + 1.0)
    f = e / (c * c + 2.0)
    return f - d * 0.5


def ten_op_per_call(rounds=7, calls=200):
    """Per-call seconds of ``ten_ops`` on 2x3 float32 tensors: raw NumPy and each capture
    mode at O0, measured in alternation (best round)."""
    import numpy as np
    rng = np.random.default_rng(0)
    arrays = [tuple(rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3))
              for _ in range(calls)]
    tensors = [tuple(mindspore.Tensor(a) for a in args) for args in arrays]
    contenders = {"numpy": (ten_ops, arrays)}
    for mode in ("ast", "bytecode", "trace"):
        CACHE.clear()
        fn = mindspore.jit(ten_ops, capture_mode=mode, jit_level="O0")
        for args in tensors[:CHECK_CALLS + 8]:
            fn(*args)
        contenders[f"{mode}.O0"] = (fn, tensors)
    return _alternated(contenders, rounds, calls)
