"""Per-machine choices (ops/tuning): measured once, kept in a table that survives damage
and read-only disks, overridden by environment variables; the BLAS is probed for IEEE
edge cases before it may be chosen, and the convolution algorithm is measured per shape."""
import errno
import json
import os
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tensorjit.ops import blas, blas_libraries, blas_probe, conv_kernels, conv_select, tuning
from tensorjit.ops.tuning import table as table_module, timing


@pytest.fixture
def table(tmp_path, monkeypatch):
    """Tuning on, a fresh cache directory, and nothing remembered from other tests."""
    monkeypatch.setenv("TENSORJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TENSORJIT_TUNE", "1")
    monkeypatch.setattr(timing, "OtherLoad", _Quiet)
    tuning.TABLE.forget()
    yield tuning.TABLE
    tuning.TABLE.forget()


class _Quiet:
    """A machine with nothing else running (the real one may be busy during tests)."""
    cpus = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _counting_measure(times):
    calls = []

    def measure(names):
        calls.append(list(names))
        return {name: times[name] for name in names}
    return measure, calls


def test_a_choice_is_measured_once_then_read_from_the_table(table):
    pick = tuning.Choice("test.pick", ("a", "b", "c"), env=("TJ_TEST_PICK",), doc="test")
    measure, calls = _counting_measure({"a": 0.3, "b": 0.1, "c": 0.2})
    assert pick("k", ["a", "b", "c"], measure, default="a") == "b"
    assert pick("k", ["a", "b", "c"], measure, default="a") == "b"
    assert len(calls) == 1
    table.forget()                       # a new process: the file, not memory
    assert pick("k", ["a", "b", "c"], measure, default="a") == "b"
    assert len(calls) == 1
    path = table.path()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    entry = json.load(open(path))["entries"]["test.pick"]["k"]
    assert entry["choice"] == "b" and entry["seconds"] == {"a": 0.3, "b": 0.1, "c": 0.2}
    # a candidate that no longer applies is measured again without it
    assert pick("k", ["a", "c"], measure, default="a") == "c"
    assert calls[-1] == ["a", "c"]


@pytest.mark.parametrize("damage", [
    b"\x00\x01garbage", b'{"format": 1}', b"[1, 2, 3]", b'{"format": 1, "machine": {}, "entries": {}}',
    "other machine", "bad entry", "huge", b"9" * 100000 + b"]"])
def test_a_damaged_table_is_measured_again_and_rewritten(table, damage):
    pick = tuning.Choice("test.pick", ("a", "b"), env=(), doc="test")
    measure, calls = _counting_measure({"a": 0.1, "b": 0.2})
    pick("k", ["a", "b"], measure, default="b")
    path = table.path()
    good = json.load(open(path))
    if damage == "other machine":
        good["machine"] = dict(good["machine"], cpu="another CPU")
        damage = json.dumps(good).encode()
    elif damage == "bad entry":
        good["entries"]["test.pick"]["k"]["seconds"]["a"] = -1.0     # not a time
        damage = json.dumps(good).encode()
    elif damage == "huge":
        damage = b" " * (9 << 20)
    with open(path, "wb") as f:
        f.write(damage)
    table.forget()
    with pytest.warns(RuntimeWarning, match="tuning table .* damaged"):
        assert pick("k", ["a", "b"], measure, default="b") == "a"
    assert len(calls) == 2
    assert json.load(open(path))["entries"]["test.pick"]["k"]["choice"] == "a"


@pytest.mark.parametrize("fault", ["read-only file system", "disk full"])
def test_an_unwritable_cache_keeps_choices_in_memory_with_one_warning(table, monkeypatch,
                                                                       fault):
    def failing_write(path, write, **kwargs):
        raise OSError(errno.EROFS if fault.startswith("read") else errno.ENOSPC, fault)
    monkeypatch.setattr(table_module, "write_atomically", failing_write)
    pick = tuning.Choice("test.pick", ("a", "b"), env=(), doc="test")
    measure, calls = _counting_measure({"a": 0.2, "b": 0.1})
    with pytest.warns(RuntimeWarning, match="cannot write the tuning table") as caught:
        assert pick("k1", ["a", "b"], measure, default="a") == "b"
        assert pick("k2", ["a", "b"], measure, default="a") == "b"
        assert pick("k1", ["a", "b"], measure, default="a") == "b"
    assert len([w for w in caught if "tuning table" in str(w.message)]) == 1
    assert len(calls) == 2           # k1 and k2, each once: kept in memory
    assert not os.path.exists(table.path())


def test_a_measurement_beside_other_work_is_not_kept(table, monkeypatch):
    class Busy(_Quiet):
        cpus = 1.5
    monkeypatch.setattr(timing, "OtherLoad", Busy)
    pick = tuning.Choice("test.busy", ("a", "b"), env=(), doc="test")
    measure, calls = _counting_measure({"a": 0.2, "b": 0.1})
    assert pick("k", ["a", "b"], measure, default="a") == "b"
    assert pick("k", ["a", "b"], measure, default="a") == "b"     # same choice, this process
    assert len(calls) == 1
    assert not os.path.exists(table.path())
    assert "other work" in tuning.consulted()[-1].how


def test_overrides_and_tuning_off(table, monkeypatch):
    pick = tuning.Choice("test.env", ("a", "b"), env=("TJ_TEST_ONE", "TJ_TEST_ALL"), doc="t")
    measure, calls = _counting_measure({"a": 0.2, "b": 0.1})
    monkeypatch.setenv("TJ_TEST_ALL", "a")
    assert pick("k", ["a", "b"], measure, default="b") == "a"
    monkeypatch.setenv("TJ_TEST_ONE", "b")            # the more specific variable wins
    assert pick("k", ["a", "b"], measure, default="a") == "b"
    assert pick("k", ["a"], measure, default="a") == "a"   # forced but not applicable here
    monkeypatch.setenv("TJ_TEST_ONE", "nonsense")
    with pytest.raises(ValueError, match="TJ_TEST_ONE='nonsense' is not a choice.*a, b"):
        pick("k", ["a", "b"], measure, default="a")
    monkeypatch.delenv("TJ_TEST_ONE")
    monkeypatch.delenv("TJ_TEST_ALL")
    monkeypatch.setenv("TENSORJIT_TUNE", "0")
    assert pick("k", ["a", "b"], measure, default="a") == "a"
    assert not calls and not os.path.exists(table.path())
    monkeypatch.setenv("TENSORJIT_TUNE", "sometimes")
    with pytest.raises(ValueError, match="TENSORJIT_TUNE='sometimes'"):
        pick("k", ["a", "b"], measure, default="a")


def test_timing_alternates_and_drops_failing_and_hopeless_candidates():
    order = []

    def runner(name, cost):
        def run():
            order.append(name)
            if name == "broken":
                raise RuntimeError("no kernel")
            for _ in range(cost):
                pass
        return run
    runners = {"fast": runner("fast", 1000), "slow": runner("slow", 200000),
               "broken": runner("broken", 0)}
    results = timing.alternate(runners, rounds=4, warmup=1)
    assert results["broken"] == "RuntimeError: no kernel"
    assert timing.fastest(results) == "fast"
    assert order.count("slow") == 2 and order.count("fast") == 5   # slow: dropped after round 1


# ---------------------------------------------------------------------------------------
# the BLAS

class _WrongAtInfinity:
    """A library whose kernels turn -inf rows into NaN (MKL on an AMD EPYC)."""
    name = "mkl"

    def matmul(self, a, b, out=None):
        with np.errstate(all="ignore"):
            r = np.matmul(a, b)
        r[np.isneginf(r)] = np.nan
        if out is not None:
            out[...] = r
            return out
        return r


def test_the_probe_catches_a_library_wrong_at_the_ieee_edges():
    assert blas_probe.problems(blas_libraries.NUMPY, np.float32) == []
    for lib in blas_libraries.available():
        assert blas_probe.problems(lib, np.float64) == [], lib.name
    wrong = blas_probe.problems(_WrongAtInfinity(), np.float32)
    assert wrong and "-inf" in wrong[0]


@pytest.fixture
def fresh_blas(table, monkeypatch):
    monkeypatch.setattr(blas, "_chosen", {})
    yield
    blas._chosen.clear()


def test_a_library_failing_the_probe_is_not_chosen(fresh_blas, monkeypatch):
    monkeypatch.setattr(blas_libraries, "available",
                        lambda load_mkl=True: [_WrongAtInfinity(), blas_libraries.NUMPY])
    monkeypatch.setattr(blas_libraries, "time_libraries",
                        lambda libs: {lib.name: (0.001 if lib.name == "mkl" else 0.5)
                                      for lib in libs})
    monkeypatch.delenv("TENSORJIT_BLAS", raising=False)
    assert blas.library_name(np.float32) == "numpy"
    a = np.ones((3, 3), np.float32)
    a[0, 0] = -np.inf
    assert np.isneginf(blas.matmul(a, np.ones((3, 2), np.float32))[0]).all()


def test_the_faster_right_library_is_chosen_and_kept(fresh_blas, monkeypatch):
    fake_mkl = type("FakeMkl", (), {"name": "mkl", "matmul": staticmethod(np.matmul)})()
    monkeypatch.setattr(blas_libraries, "available",
                        lambda load_mkl=True: [fake_mkl, blas_libraries.NUMPY])
    timed = []
    monkeypatch.setattr(blas_libraries, "time_libraries", lambda libs: timed.append(1) or {
        "mkl": 0.5, "numpy": 0.2})
    monkeypatch.delenv("TENSORJIT_BLAS", raising=False)
    assert blas.library_name(np.float32) == "numpy" == blas.library_name(np.float64)
    blas._chosen.clear()
    tuning.TABLE.forget()
    assert blas.library_name(np.float32) == "numpy" and len(timed) == 1


def test_a_forced_library_failing_the_probe_has_its_results_corrected(fresh_blas,
                                                                      monkeypatch):
    monkeypatch.setattr(blas_libraries, "available",
                        lambda load_mkl=True: [_WrongAtInfinity(), blas_libraries.NUMPY])
    monkeypatch.setenv("TENSORJIT_BLAS", "mkl")
    with pytest.warns(RuntimeWarning, match="wrong on this CPU"):
        assert blas.library_name(np.float32) == "mkl"
    a = np.ones((4, 3), np.float32)
    a[1, 2] = -np.inf
    got = blas.matmul(a, np.ones((3, 5), np.float32))
    assert np.isneginf(got[1]).all() and (got[[0, 2, 3]] == 3).all()


@pytest.mark.parametrize("forced", ["numpy", "mkl"])
def test_the_blas_variable_chooses_the_library(forced):
    code = "from tensorjit.ops import blas; print(blas.library_name('float32'))"
    env = dict(os.environ, TENSORJIT_BLAS=forced, TENSORJIT_TUNE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    installed = any(lib.name == "mkl" for lib in blas_libraries.available())
    assert out.stdout.strip() == (forced if installed or forced == "numpy" else "numpy")


# ---------------------------------------------------------------------------------------
# convolutions

def _conv_operands(c=32, hw=12, n=4, o=32):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((n, c, hw, hw)).astype(np.float32),
            rng.standard_normal((o, c, 3, 3)).astype(np.float32))


def test_the_convolution_algorithm_is_measured_per_shape_and_read_back(table):
    from tensorjit.ops import winograd
    winograd.wait(np.float32)
    x, w = _conv_operands()
    geometry = ((1, 1), (1, 1, 1, 1), (1, 1))
    y = conv_select.forward(x, w, *geometry)
    decision = [d for d in tuning.consulted() if d.problem == "conv.forward"][-1]
    assert decision.how == "measured now"
    assert {"winograd2", "shifted", "weight_major", "im2col"} <= set(decision.seconds)
    np.testing.assert_allclose(y, conv_kernels.im2col_forward(x, w, *geometry),
                               rtol=1e-4, atol=1e-4)
    # another process with this machine's table takes the recorded choice, unmeasured
    path = table.path()
    data = json.load(open(path))
    key = decision.key
    data["entries"]["conv.forward"][key]["choice"] = "shifted"
    with open(path, "w") as f:
        json.dump(data, f)
    code = textwrap.dedent(f"""
        import numpy as np
        from tensorjit.ops import conv_select, tuning, winograd
        from tensorjit.ops.tuning import timing
        winograd.wait(np.float32)
        x = np.random.default_rng(0).standard_normal({x.shape}).astype(np.float32)
        w = np.random.default_rng(0).standard_normal({w.shape}).astype(np.float32)
        conv_select.forward(x, w, {geometry[0]}, {geometry[1]}, {geometry[2]})
        print([(d.choice, d.how) for d in tuning.consulted() if d.problem == "conv.forward"])
    """)
    # (the same BLAS as here: the key names it, and a busy machine could time it otherwise)
    env = dict(os.environ, TENSORJIT_TUNE="1", TENSORJIT_BLAS=blas.library_name(np.float32))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[('shifted', 'from the tuning table')]"


@pytest.mark.parametrize("algorithm", ["im2col", "shifted", "weight_major", "winograd2"])
def test_the_convolution_variable_forces_an_algorithm(table, monkeypatch, algorithm):
    from tensorjit.ops import winograd
    winograd.wait(np.float32)
    x, w = _conv_operands()
    monkeypatch.setenv("TENSORJIT_CONV", algorithm)
    used = []
    for name in ("forward", "input_grad", "weight_grad"):
        original = conv_select._RUNNERS[name][algorithm]
        if algorithm.startswith("winograd"):
            def factory(method, chunk, original=original, name=name):
                used.append(name)
                return original(method, chunk)
            monkeypatch.setitem(conv_select._RUNNERS[name], algorithm, factory)
        else:
            def runner(*args, original=original, name=name):
                used.append(name)
                return original(*args)
            monkeypatch.setitem(conv_select._RUNNERS[name], algorithm, runner)
    geometry = ((1, 1), (1, 1, 1, 1), (1, 1))
    y = conv_select.forward(x, w, *geometry)
    conv_select.input_grad(y, w, x.shape, *geometry)
    conv_select.weight_grad(x, y, w.shape, *geometry)
    assert used == ["forward", "input_grad", "weight_grad"]
    assert not os.path.exists(table.path())          # forced: nothing measured


def test_tuning_off_takes_the_built_in_rule(table, monkeypatch):
    monkeypatch.setenv("TENSORJIT_TUNE", "0")
    x, w = _conv_operands()
    conv_select.forward(x, w, (1, 1), (1, 1, 1, 1), (1, 1))
    assert not os.path.exists(table.path())


def test_the_tune_command_prints_the_table(tmp_path):
    env = dict(os.environ, TENSORJIT_CACHE_DIR=str(tmp_path / "cache"))
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        from tensorjit.ops import conv_select, winograd
        winograd.wait(np.float32)
        rng = np.random.default_rng(0)
        x = rng.standard_normal((4, 32, 12, 12)).astype(np.float32)
        w = rng.standard_normal((32, 32, 3, 3)).astype(np.float32)
        conv_select.forward(x, w, (1, 1), (1, 1, 1, 1), (1, 1))
    """))
    out = subprocess.run([sys.executable, "-m", "tensorjit.tune", str(script)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "| blas | float32 |" in out.stdout
    assert "| conv.forward | " in out.stdout and "x4x32x12x12" in out.stdout
    assert "TENSORJIT_BLAS" in out.stdout and "TENSORJIT_CONV" in out.stdout
    forgot = subprocess.run([sys.executable, "-m", "tensorjit.tune", "--forget"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert forgot.returncode == 0, forgot.stderr
    assert not list((tmp_path / "cache" / "tuning").glob("*.json"))


def test_one_primitive_and_the_winograd_chunk_are_overridden_alone(table, monkeypatch):
    from tensorjit.ops import winograd
    winograd.wait(np.float32)
    x, w = _conv_operands(c=32, hw=16, n=8)
    monkeypatch.setenv("TENSORJIT_CONV", "im2col")
    monkeypatch.setenv("TENSORJIT_CONV_INPUT_GRAD", "winograd4")
    monkeypatch.setenv("TENSORJIT_WINOGRAD_CHUNK", "2MB")
    chunks = []
    real = conv_select._kernel

    def kernel(primitive, name, chunk):
        chunks.append((primitive, name, chunk))
        return real(primitive, name, chunk)
    monkeypatch.setattr(conv_select, "_kernel", kernel)
    geometry = ((1, 1), (1, 1, 1, 1), (1, 1))
    y = conv_select.forward(x, w, *geometry)
    dx = conv_select.input_grad(y, w, x.shape, *geometry)
    conv_select.weight_grad(x, y, w.shape, *geometry)
    assert chunks == [("forward", "im2col", None), ("input_grad", "winograd4", 2 << 20),
                      ("weight_grad", "im2col", None)]
    np.testing.assert_allclose(dx, conv_kernels.im2col_input_grad(y, w, x.shape, *geometry),
                               rtol=1e-3, atol=1e-3 * np.abs(dx).max())
    monkeypatch.setenv("TENSORJIT_WINOGRAD_CHUNK", "1GB")
    with pytest.raises(ValueError, match="TENSORJIT_WINOGRAD_CHUNK='1GB'"):
        conv_select.input_grad(y, w, x.shape, *geometry)
