"""The benchmark's whole models (tensorjit.bench.models) train: losses fall, and a jitted
train step gives eager's losses in every capture mode."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit.bench.models import make_model

from matrix import CAPTURE_MODES


def losses(name, mode, steps):
    model = make_model(name, "tiny", batches=2)
    step = model.step if mode is None else ms.jit(model.step, capture_mode=mode)
    return [float(step(*model.inputs[i % 2]).asnumpy()) for i in range(steps)]


@pytest.mark.parametrize("name", ["resnet18", "gpt"])
def test_losses_fall(name):
    seen = losses(name, None, 12)
    assert np.mean(seen[-4:]) < np.mean(seen[:4])


@pytest.mark.parametrize("mode", CAPTURE_MODES)
@pytest.mark.parametrize("name", ["resnet18", "gpt"])
def test_jitted_step_equals_eager(name, mode):
    np.testing.assert_allclose(losses(name, mode, 4), losses(name, None, 4), rtol=2e-5)
