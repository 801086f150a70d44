"""Differential fuzzing, CI-sized: random programs (tensorjit/tools/fuzz.py) give eager's
answers under every capture mode x jit_level x backend, and jitted gradients match finite
differences. Reproducible (derandomized hypothesis); a failure shrinks to a small program,
printed with its input sets. The long run is

    python -m tensorjit.tools.fuzz --programs 2000 --seed 1
    python -m tensorjit.tools.fuzz --grad --programs 500 --seed 1
"""
import subprocess
import sys

from hypothesis import HealthCheck, assume, given, note, settings, strategies as st

from tensorjit.tools import fuzz

SETTINGS = dict(derandomize=True, database=None, deadline=None, print_blob=False,
                suppress_health_check=list(HealthCheck))


@settings(max_examples=250, **SETTINGS)
@given(st.data())
def test_random_programs_agree_with_eager_in_every_configuration(data):
    program = fuzz.Generator(fuzz.HypothesisChooser(data.draw)).program()
    assume(program is not None)
    note(repr(program))
    mismatches = fuzz.check_program(program)
    assert not mismatches, "\n".join(str(m) for m in mismatches[:3])


@settings(max_examples=60, **SETTINGS)
@given(st.data())
def test_jitted_grad_of_random_programs_matches_finite_differences(data):
    program = fuzz.GradGenerator(fuzz.HypothesisChooser(data.draw)).program()
    assume(program is not None)
    note(repr(program))
    mismatches = fuzz.check_grad_program(program)
    assert not mismatches, "\n".join(str(m) for m in mismatches[:3])


def test_the_command_line_reports_programs_configurations_and_mismatches():
    out = subprocess.run([sys.executable, "-m", "tensorjit.tools.fuzz", "--programs", "3",
                          "--seed", "7", "--configs", "trace/O0/ms_backend,ast/O1/GE"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "programs: 3 (seed 7" in out.stdout
    assert "configurations: 2 (trace/O0/ms_backend, ast/O1/GE)" in out.stdout
    assert "mismatches: 0" in out.stdout


def test_the_generator_is_reproducible_and_covers_the_features():
    sources = [fuzz.generate(3, i).source for i in range(80)]
    assert sources == [fuzz.generate(3, i).source for i in range(80)]
    text = "\n".join(source.split("def prog", 1)[1] for source in sources)
    for feature in ("if ", "while ", "for ", "float(", ".sum(", ".reshape(", ".transpose(",
                    "[", "ops.where", "astype(", "+=", "ms.float16",
                    # Python state (issue 17)
                    "LOG.append(", "SCALE", "OFFSET", "_tj_rec(", "except IndexError:"):
        assert feature in text, feature
    sets = [fuzz.generate(3, i).input_sets for i in range(80)]
    shapes = {a.shape for s in sets for arrays in s for a in arrays}
    assert () in shapes and any(0 in s for s in shapes)
    dtypes = {a.dtype.name for s in sets for arrays in s for a in arrays}
    assert {"float16", "bfloat16", "float32", "float64", "int32", "int64", "bool"} <= dtypes


def test_a_float32_result_cast_up_is_judged_at_float32_tolerance():
    """(fuzz seed 25 program 883: ``(x ** x).astype(float64)``, a fused kernel's pow one
    float32 ulp from NumPy's) -- but a genuine float64 result keeps float64's tolerance."""
    import numpy as np
    from tensorjit.tools.fuzz.check import compare_arrays
    eager = np.array([0.69768298], np.float32).astype(np.float64)
    one_ulp = np.nextafter(np.float32(eager[0]), np.float32(1)).astype(np.float64)
    assert compare_arrays(np.array([one_ulp]), eager) is None
    exact = np.array([0.697682981234567])
    assert compare_arrays(exact * (1 + 1e-7), exact) is not None
    integers = np.array([3.0, 7.0])
    assert compare_arrays(integers + 1e-6, integers) is not None


def test_a_sum_cancelling_to_rounding_noise_is_ill_conditioned():
    """(fuzz seed 25 program 1104: ``v / (v - v.mean()).sum()``: eager's float32 sum is
    exactly 0 and O1's, in another order, 4e-8; moving the inputs a few ulps shows it)"""
    import numpy as np
    from tensorjit import Tensor, ops
    from tensorjit.tools.fuzz.check import ill_conditioned, _call

    def f(x):
        v = ops.erf(x)
        v = v - v.mean(0, True)
        return v / v.sum(axis=-1, keepdims=True)
    x = np.array([2.020117, 2.42474, 4.4547014, -1.1324914], np.float32)
    assert ill_conditioned(f, [x], _call(f, [x]))
    y = np.array([1.0, 2.0, 3.5, 4.0], np.float32)
    assert not ill_conditioned(lambda t: t * 2.0 + 1.0, [y], _call(lambda t: t * 2.0 + 1.0, [y]))


def test_a_campaign_runs_fresh_workers_and_writes_standalone_scripts(tmp_path):
    """--campaign: workers per seed and kind, a report separating internal errors from
    wrong answers; a mismatch's script re-checks the program on its own."""
    import subprocess
    import sys
    from tensorjit.tools.fuzz import campaign, cli, CONFIGS
    from tensorjit.tools.fuzz.check import Mismatch
    proc = subprocess.run([sys.executable, "-m", "tensorjit.tools.fuzz", "--campaign",
                           "--budget", "300", "--programs", "3", "--grad-programs", "2",
                           "--seeds", "905", "--jobs", "2", "--save", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "value  905" in proc.stdout and "grad   905" in proc.stdout
    assert "5 programs, 0 wrong answers, 0 internal errors" in proc.stdout
    program = cli.generate(905, 1)
    script = campaign.write_script(Mismatch(program, CONFIGS[0], 0, "a detail"), 905, 1,
                                   "value", str(tmp_path))
    rerun = subprocess.run([sys.executable, script], capture_output=True, text=True,
                           timeout=300)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr     # it agrees with eager now
