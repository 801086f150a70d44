"""Running a program eagerly and under each configuration, and comparing: results,
dtypes, shapes, NaN / inf positions, values within the dtype's tolerance, and arguments
updated in place; for gradient programs, jitted ``grad`` against finite differences."""
import contextlib
import signal
import threading
import traceback

import numpy as np

import tensorjit as ms
from tensorjit import Tensor
from tensorjit import dtype as dt

from .programs import CONFIGS, config_label, _quiet


TOLERANCES = {dt.float16: 2e-2, dt.bfloat16: 6e-2, dt.float32: 2e-4, dt.float64: 1e-9}


def _leaves(tree):
    if isinstance(tree, Tensor):
        return [tree]
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _leaves(item)]
    return [tree]


def compare(actual, expected):
    """Differences between a jitted result and eager's, as a list of strings."""
    if type(actual) is not type(expected) and not (
            isinstance(actual, Tensor) and isinstance(expected, Tensor)):
        return [f"result type {type(actual).__name__} != eager {type(expected).__name__}"]
    a_leaves, e_leaves = _leaves(actual), _leaves(expected)
    if len(a_leaves) != len(e_leaves):
        return [f"{len(a_leaves)} results != eager {len(e_leaves)}"]
    problems = []
    for k, (a, e) in enumerate(zip(a_leaves, e_leaves)):
        if not isinstance(e, Tensor):
            if a != e:
                problems.append(f"result {k}: {a!r} != eager {e!r}")
            continue
        if not isinstance(a, Tensor):
            problems.append(f"result {k}: {type(a).__name__} instead of a Tensor")
            continue
        problem = compare_arrays(a.asnumpy(), e.asnumpy())
        if problem:
            problems.append(f"result {k}: {problem}")
    return problems


def compare_arrays(a, e):
    if a.dtype != e.dtype:
        return f"dtype {a.dtype} != eager {e.dtype}"
    if a.shape != e.shape:
        return f"shape {a.shape} != eager {e.shape}"
    if not dt.is_float(e.dtype):
        if not np.array_equal(a, e):
            return f"values differ: {a!r} != eager {e!r}"
        return None
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    if not np.array_equal(np.isnan(a64), np.isnan(e64)):
        return f"NaN positions differ: {a!r} != eager {e!r}"
    inf = np.isinf(e64) | np.isinf(a64)
    if not np.array_equal(a64[inf], e64[inf]):
        return f"inf positions differ: {a!r} != eager {e!r}"
    finite = np.isfinite(e64) & np.isfinite(a64)
    if finite.any():
        tol = TOLERANCES[_carried_precision(e64[finite], e.dtype)]
        scale = max(1.0, float(np.abs(e64[finite]).max()))
        err = np.abs(a64[finite] - e64[finite])
        if (err > tol * scale + tol * np.abs(e64[finite])).any():
            return f"values differ beyond {tol}: {a!r} != eager {e!r}"
    return None


def _carried_precision(values, dtype):
    """The precision ``values`` were computed at: a float64 result whose every value is a
    float32 (or float16 / bfloat16) number was computed in that precision and cast up
    (``(x ** x).astype(float64)``), so it carries that precision's rounding -- a fused
    kernel's equally valid float32 rounding must not be judged at float64's tolerance.
    Integers say nothing about it (every precision holds small ones)."""
    if np.array_equal(values, np.round(values)):
        return dtype
    for coarser in (dt.bfloat16, dt.float16, dt.float32):
        if TOLERANCES[coarser] > TOLERANCES[dtype] and np.array_equal(
                values.astype(coarser).astype(np.float64), values):
            return coarser
    return dtype


_VALUE_PROBLEMS = ("values differ", "NaN positions differ", "inf positions differ")


class Mismatch:
    def __init__(self, program, config, call, detail):
        self.program, self.config, self.call, self.detail = program, config, call, detail

    def __str__(self):
        return (f"{config_label(self.config)}, call {self.call}: {self.detail}\n"
                f"{self.program!r}")


@contextlib.contextmanager
def time_limit(seconds):
    """Raise TimeoutError after ``seconds`` (main thread only; elsewhere no limit)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"no result after {seconds} s (an infinite loop?)")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call(fn, arrays):
    """Call ``fn`` on fresh tensors; returns (result, final argument arrays)."""
    tensors = [Tensor(a) for a in arrays]
    result = fn(*tensors)
    return result, [t.asnumpy() for t in tensors]


CALL_ORDER = (0, 1, 0, 2, 1, 0, 2, 3, 0)
STATS = {"calls": 0, "ill_conditioned": 0}


def _nudged(arrays, direction):
    """The arrays with every float moved one ulp towards ``direction``."""
    out = []
    for a in arrays:
        if dt.is_float(a.dtype):
            a = np.nextafter(a, np.array(direction, a.dtype))
        out.append(a)
    return out


def ill_conditioned(fn, arrays, expected):
    """Whether eager's own answer changes beyond tolerance when the inputs move by a few
    ulps (e.g. ``inf * (a sum that cancels to rounding noise)``, ``x / (x - x.mean()).sum()``):
    there, a different but equally valid rounding (a fused kernel summing in another order)
    can change the result, so such a call is not held against the compiler (it is counted
    instead). The inputs move by one ulp all up, all down, then by up to 4 ulps per element
    in random directions (a fixed seed: the same answer every time). Last, the inputs stay
    and every elementwise kernel's float result moves by up to 4 ulps instead, the accuracy
    a fused kernel is allowed (``np.tanh(x) % ops.tanh(x)``: the two agree only to
    rounding, so a kernel within its ulps turns 0 into nearly ``tanh(x)``)."""
    rng = np.random.default_rng(0)
    trials = [(_nudged(arrays, np.inf), None), (_nudged(arrays, -np.inf), None)]
    trials += [(_jittered(arrays, rng), None) for _ in range(JITTER_TRIALS)]
    trials += [(arrays, np.random.default_rng(seed)) for seed in range(KERNEL_JITTER_TRIALS)]
    for inputs, kernel_rng in trials:
        try:
            with _quiet(), _kernels_jittered(kernel_rng):
                result, args_after = _call(fn, inputs)
        except Exception:
            return True
        if compare(result, expected[0]) or any(
                compare_arrays(a, b) for a, b in zip(args_after, expected[1])):
            return True
    return False


JITTER_TRIALS = 8
KERNEL_JITTER_TRIALS = 2


@contextlib.contextmanager
def _kernels_jittered(rng):
    """While active (``rng`` not None), every elementwise primitive's float results move by
    up to 4 ulps (eager mode calls ``Primitive.impl``)."""
    if rng is None:
        yield
        return
    from tensorjit.ops.primitive import PRIMITIVES
    saved = {}
    for prim in PRIMITIVES.values():
        if prim.elementwise and not prim.multiple_results:
            saved[prim] = prim.impl
            prim.impl = _jittering(prim.impl, rng)
    try:
        yield
    finally:
        for prim, impl in saved.items():
            prim.impl = impl


def _jittering(impl, rng):
    def run(*args, **params):
        out = impl(*args, **params)
        if isinstance(out, np.ndarray) and dt.is_float(out.dtype):
            out = _jittered([out], rng)[0]
        return out
    return run


def _jittered(arrays, rng, ulps=4):
    """The arrays with every float moved by up to ``ulps`` ulps, each its own way."""
    out = []
    for a in arrays:
        if dt.is_float(a.dtype):
            steps = rng.integers(-ulps, ulps + 1, a.shape)
            for _ in range(ulps):
                a = np.where(steps > 0, np.nextafter(a, np.array(np.inf, a.dtype)),
                             np.where(steps < 0, np.nextafter(a, np.array(-np.inf, a.dtype)),
                                      a)).astype(a.dtype)
                steps = steps - np.sign(steps)
        out.append(a)
    return out


def _state_problems(got, want, config):
    if got != want:
        return [f"Python state after the call (SCALE, OFFSET, LOG, CFG.scale, CFG.calls, "
                f"TABLE): {got} != eager {want}"]
    return []


def _ill_conditioned(fn, arrays, expected, state):
    if state is None:
        return ill_conditioned(fn, arrays, expected)
    saved = state._tj_state()
    try:
        return ill_conditioned(fn, arrays, expected[:2])
    finally:
        state._tj_restore(saved)


def check_program(program, configs=CONFIGS, timeout=60.0):
    """Run ``program`` eagerly and under each configuration; returns the mismatches. A
    program with Python state (``programs.STATE_HEADER``) starts each run from the same
    state, has its globals rebound before each call, and its state after each call must
    be eager's in every mode."""
    fn = program.fn
    sets = program.input_sets
    order = [i for i in CALL_ORDER if i < len(sets)]
    state = program.state
    if state is None:
        with _quiet():
            expected = [_call(fn, arrays) for arrays in sets]
        calls = [expected[i] for i in order]
    else:
        calls = []
        state._tj_reset()
        for n, i in enumerate(order):
            state._tj_step(n)
            with _quiet():
                calls.append(_call(fn, sets[i]) + (state._tj_state(),))
    conditioning = {}
    mismatches = []
    for config in configs:
        jitted = ms.jit(fn, **config)
        if state is not None:
            state._tj_reset()
        for n, i in enumerate(order):
            if state is not None:
                state._tj_step(n)
            try:
                with _quiet(), time_limit(timeout):
                    result, args_after = _call(jitted, sets[i])
            except Exception as exc:
                detail = f"raised {type(exc).__name__}: {exc}\n" + "".join(
                    traceback.format_exception(exc)[-6:])
                mismatches.append(Mismatch(program, config, f"{n} (set {i})", detail))
                break
            STATS["calls"] += 1
            want = calls[n]
            problems = compare(result, want[0])
            for k, (got, want_arg) in enumerate(zip(args_after, want[1])):
                problem = compare_arrays(got, want_arg)
                if problem:
                    problems.append(f"argument x{k} after the call: {problem}")
            if state is not None:
                problems += _state_problems(state._tj_state(), want[2], config)
            if problems and all(p.split(": ", 1)[-1].startswith(_VALUE_PROBLEMS)
                                for p in problems):
                if i not in conditioning:
                    conditioning[i] = _ill_conditioned(fn, sets[i], want, state)
                if conditioning[i]:
                    STATS["ill_conditioned"] += 1
                    continue
            if problems:
                mismatches.append(Mismatch(program, config, f"{n} (set {i})",
                                           "; ".join(problems)))
                break
    return mismatches


def numeric_grad(fn, arrays, eps=1e-6):
    grads = []
    for k, base in enumerate(arrays):
        g = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            values = []
            for sign in (1, -1):
                moved = [a.copy() for a in arrays]
                moved[k][idx] += sign * eps
                values.append(float(fn(*[Tensor(a) for a in moved]).asnumpy()))
            g[idx] = (values[0] - values[1]) / (2 * eps)
        grads.append(g)
    return grads


GRAD_CONFIGS = CONFIGS


def not_smooth(fn, arrays, reference, eps=1e-6):
    """Whether finite differences are no reference for the gradient at these inputs: a
    tensor condition on a value that is zero up to rounding flips under the step. Either
    central differences with a 100x larger step disagree with ``reference``, or the
    function jumps: its value at the inputs is not the mean of its values a step away on
    either side (a branch taken at the inputs and not beside them: fuzz --grad seed 778
    program 258, ``v5.sum() > 0`` of a mean-centred ``v5``)."""
    with _quiet():
        coarse = numeric_grad(fn, arrays, eps=1e-4)
        if any(not np.allclose(a, b, rtol=1e-3, atol=1e-3) for a, b in zip(coarse, reference)):
            return True
        return _jumps(fn, arrays, eps)


def _jumps(fn, arrays, eps, directions=4):
    """f(x) against (f(x + eps u) + f(x - eps u)) / 2, which a smooth f matches to
    O(eps^2), along a few random directions u (and each coordinate of small inputs)."""
    def value(moved):
        return float(fn(*[Tensor(a) for a in moved]).asnumpy())
    rng = np.random.default_rng(0)
    here = value(arrays)
    steps = [[rng.choice((-1.0, 1.0), np.shape(a)) for a in arrays] for _ in range(directions)]
    if sum(np.size(a) for a in arrays) <= 8:
        for k, a in enumerate(arrays):
            for idx in np.ndindex(np.shape(a)):
                unit = [np.zeros_like(b) for b in arrays]
                unit[k][idx] = 1.0
                steps.append(unit)
    for u in steps:
        ahead = value([a + eps * d for a, d in zip(arrays, u)])
        behind = value([a - eps * d for a, d in zip(arrays, u)])
        if not np.isclose(here, (ahead + behind) / 2, rtol=1e-6, atol=1e-6):
            return True
    return False


def check_grad_program(program, configs=GRAD_CONFIGS, timeout=60.0):
    """Jitted ``grad`` of ``program`` in each configuration against central finite
    differences (float64) and against eager ``grad``; returns the mismatches."""
    fn, arrays = program.fn, program.input_sets[0]
    positions = tuple(range(len(arrays)))
    with _quiet():
        reference = numeric_grad(fn, arrays)
        eager = ms.grad(fn, grad_position=positions)(*[Tensor(a) for a in arrays])
    mismatches = []

    def check(label_config, grads, against, rtol, atol):
        grads = grads if isinstance(grads, tuple) else (grads,)
        if len(grads) != len(against):
            return f"{len(grads)} gradients, expected {len(against)}"
        for k, (g, want) in enumerate(zip(grads, against)):
            got = g.asnumpy() if isinstance(g, Tensor) else np.asarray(g)
            if got.shape != want.shape or got.dtype != np.float64:
                return f"gradient {k}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
            scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
            if not np.allclose(got, want, rtol=rtol, atol=atol * scale):
                return f"gradient {k}: {got!r} != {want!r}"
        return None

    problem = check(None, eager, reference, 1e-4, 1e-5)
    if problem and not_smooth(fn, arrays, reference):
        STATS["ill_conditioned"] += 1    # finite differences mean nothing here
        problem = None
    if problem:
        mismatches.append(Mismatch(program, dict(capture_mode="eager", jit_level="-",
                                                 backend="-"), 0, "eager grad vs finite "
                                   "differences: " + problem))
    want = [g.asnumpy() for g in (eager if isinstance(eager, tuple) else (eager,))]
    for config in configs:
        jitted = ms.jit(ms.grad(fn, grad_position=positions), **config)
        for n in range(3):
            try:
                with _quiet(), time_limit(timeout):
                    grads = jitted(*[Tensor(a) for a in arrays])
            except Exception as exc:
                detail = f"raised {type(exc).__name__}: {exc}\n" + "".join(
                    traceback.format_exception(exc)[-6:])
                mismatches.append(Mismatch(program, config, n, detail))
                break
            STATS["calls"] += 1
            problem = check(config, grads, want, 1e-7, 1e-9)
            if problem:
                mismatches.append(Mismatch(program, config, n, problem))
                break
    return mismatches
