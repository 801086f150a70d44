"""The per-version layer of bytecode capture is complete on the running CPython, and the
semantics are the same on every version (CI runs this file on 3.10 -- 3.13: the expected
breaks and lines below are written once, for all of them)."""
import dis
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.capture.bytecode import versions
from tensorjit.capture.bytecode.interpreter import Interpreter, interpreter_class

LOG = []


def test_every_opcode_is_handled_or_a_named_break():
    unknown, both = [], []
    for name in dis.opmap:
        handled = hasattr(Interpreter, name)
        reason = versions.unsupported_opcode_reason(name)
        if not handled and not reason:
            unknown.append(name)
        if handled and name in versions.UNSUPPORTED_OPCODES:
            both.append(name)
    assert not unknown, f"give these CPython {sys.version_info[:2]} opcodes a handler or a " \
                        f"reason in versions.UNSUPPORTED_OPCODES: {unknown}"
    assert not both, f"handled and listed as unsupported: {both}"


def test_the_running_version_has_its_own_interpreter():
    assert sys.version_info[:2] in versions.SUPPORTED
    assert Interpreter.__name__ == "Interpreter%d%d" % sys.version_info[:2]
    assert interpreter_class((3, 99)) is None


def _with_try(x):
    try:
        y = x * 2
    except ValueError:
        y = x
    return y + 1


def _with_with(x):
    import contextlib
    with contextlib.nullcontext():
        y = x * 2
    return y + 1


def _generator_user(x):
    def gen():
        yield x * 2
        yield x * 3
    return sum(gen())


def _with_match(x):
    match (x, x.ndim):
        case (t, 1):
            return t * 2
        case _:
            return x


def _class_inside(x):
    class Box:
        scale = 2.0
    return x * Box.scale


@pytest.mark.parametrize("fn, reason", [(_with_try, "try/except or with"),
                                        (_with_with, "with"),
                                        (_with_match, "match"),
                                        (_class_inside, "class definition")])
def test_constructs_the_interpreter_does_not_follow_run_as_python(fn, reason):
    x = Tensor(np.arange(3.0, dtype=np.float32))
    jitted = ms.jit(fn, capture_mode="bytecode")
    np.testing.assert_array_equal(jitted(x).asnumpy(), fn(x).asnumpy())
    report = ms.explain(jitted)(x)
    assert any(reason in r for r, _ in report.breaks), report.breaks


def test_a_generator_inside_is_followed():
    x = Tensor(np.arange(3.0, dtype=np.float32))
    jitted = ms.jit(_generator_user, capture_mode="bytecode")
    np.testing.assert_array_equal(jitted(x).asnumpy(), _generator_user(x).asnumpy())


def breaking(x, n):
    y = x * 2                                   # line +1
    print("y", n)                               # line +2: print
    if float(y.sum()) > 0:                      # line +3: value read, then a decision
        y = y + 1
    LOG.append(n)                               # line +5: outside state
    z = [v * 2 for v in (y, x) if v is not None]    # comprehension (inlined on 3.12+)
    total = ops.add(*z)
    return f"{n:>3}", total * len(z)


def test_the_same_breaks_at_the_same_lines_on_every_version(capsys):
    first = breaking.__code__.co_firstlineno
    x = Tensor(np.arange(3.0, dtype=np.float32))
    jitted = ms.jit(breaking, capture_mode="bytecode")
    for n in (2, 3):
        LOG.clear()
        label, out = jitted(x, n)
        want_label, want = breaking(x, n)
        assert label == want_label and LOG == [n, n]
        np.testing.assert_array_equal(out.asnumpy(), want.asnumpy())
    report = ms.explain(jitted)(x, 2)
    found = [(r, int(s.rsplit(":", 1)[1]) - first, getattr(record, "kind", None))
             for record in report.breaks for r, s in [record]]
    assert found == [
        ("print", 2, "print"),
        ("float() of a tensor reads its value", 3, "tensor value"),
        ("condition on a value computed by Python code", 3, "run-time decision"),
        ("call to list.append", 5, "Python state"),
    ]
    assert report.breaks[0][1] == f"{__file__}:{first + 2}"


def test_varargs_captured_by_a_comprehension():
    """Up to 3.10 ``args`` used inside a comprehension lives in a cell from the start."""
    def total(*args):
        return sum([args[i] * 2 for i in range(len(args))])     # a closure over args

    xs = [ms.Tensor(np.full(2, float(i))) for i in range(3)]
    out = ms.jit(total, capture_mode="bytecode", fullgraph=True)(*xs)
    np.testing.assert_array_equal(out.asnumpy(), [6.0, 6.0])
