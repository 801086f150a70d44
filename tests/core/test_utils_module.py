"""tensorjit.utils against MindSpore 2.10's mindspore.utils on its CPU build."""
import os

import numpy as np
import pytest

import tensorjit as tj
from tensorjit import utils


def test_health_checks_answer_as_mindspore_cpu():
    with pytest.raises(RuntimeError, match="Stress detection is not supported"):
        utils.stress_detect()
    with pytest.raises(RuntimeError, match="Stress detection is not supported"):
        utils.stress_detect("hccs")
    with pytest.warns(UserWarning, match="must be 'aic' or 'hccs'"):
        assert utils.stress_detect("x") == 1
    assert utils.sdc_detect_start() is None
    assert utils.sdc_detect_stop() is None
    assert utils.get_sdc_detect_result() is False


def test_dlpack_round_trip_shares_memory():
    source = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = tj.Tensor(source)
    capsule = utils.to_dlpack(x)
    y = utils.from_dlpack(capsule)
    assert y.dtype == tj.int32 and y.shape == (2, 3)
    np.testing.assert_array_equal(y.asnumpy(), source)
    with pytest.raises(RuntimeError, match="consumed only once"):
        utils.from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="invalid capsule"):
        utils.from_dlpack(source)
    # a NumPy producer's capsule: the tensor shares its memory, as MindSpore's does
    shared = np.zeros(3, np.float32)
    z = utils.from_dlpack(shared.__dlpack__())
    shared[1] = 5.0
    assert z.asnumpy()[1] == 5.0


def test_comm_exec_order_check_and_exit_by_request():
    with pytest.raises(TypeError, match="must be a string"):
        utils.comm_exec_order_check(1)
    with pytest.raises(ValueError, match="Please use 'start' or 'end'"):
        utils.comm_exec_order_check("stop")
    with pytest.warns(UserWarning, match="before the 'start'"):
        utils.comm_exec_order_check("end")
    utils.comm_exec_order_check("start")
    with pytest.warns(UserWarning, match="called twice"):
        utils.comm_exec_order_check("start")
    utils.comm_exec_order_check("end")
    grad = tj.Tensor([1.0, 2.0])
    assert utils.ExitByRequest().exit_by_request(grad, None, None) is grad   # one process


def test_dryrun_set_simulation(monkeypatch):
    monkeypatch.delenv("MS_SIMULATION_LEVEL", raising=False)
    utils.dryrun.set_simulation()
    assert os.environ["MS_SIMULATION_LEVEL"] == "1"
