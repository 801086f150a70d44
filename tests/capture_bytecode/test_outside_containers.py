"""A pure builtin given a list from outside the function *and* graph tensors
(``zip(PARAMS, grads)``) cannot run in the prelude (the tensors exist only inside the
graph): it is a graph break, and the results equal eager."""
import numpy as np

import tensorjit as ms
from tensorjit import ops, Tensor, Parameter

PARAMS = [Parameter(Tensor(np.full(2, float(k), np.float32)), name=f"p{k}") for k in range(2)]


def update(x):
    steps = [ops.mul(x, float(k + 1)) for k in range(2)]
    for p, step in zip(PARAMS, steps):
        p.assign_value(ops.add(p, step))
    return len(list(zip(PARAMS, steps)))


def test_zip_of_an_outside_list_and_graph_tensors():
    jitted = ms.jit(update, capture_mode="bytecode")
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for call in range(3):
        assert jitted(x) == 2
    np.testing.assert_array_equal(PARAMS[0].asnumpy(), [3.0, 6.0])
    np.testing.assert_array_equal(PARAMS[1].asnumpy(), [7.0, 13.0])
