"""MindSpore's tutorial "NumPy Interfaces in MindSpore" (mindspore.numpy), with only the
imports changed: array generation, array operations, logic, math, then the same code under
``ms_function`` (compiled), ``GradOperation``, graph mode and inside an ``nn.Cell``.

    python examples/tutorial_numpy.py

tests/examples/test_transcripts.py checks that it prints what MindSpore 2.10 prints
(tests/examples/transcripts/tutorial_numpy.txt, recorded by record_transcripts.py)."""
import tensorjit.numpy as np
import tensorjit.ops as ops

# ---- Array generation
input_x = np.array([1, 2, 3], np.float32)
print("input_x =", input_x)
print("type of input_x =", ops.typeof(input_x))

input_x = np.full((2, 3), 6, np.float32)
print(input_x)

input_x = np.ones((2, 3), np.float32)
print(input_x)

input_x = np.arange(0, 5, 1)
print(input_x)

input_x = np.tri(3, 3, 1)
print(input_x)

input_x = np.eye(2, 2)
print(input_x)

# ---- Array operations
input_x = np.arange(10).reshape(5, 2)
output = np.transpose(input_x)
print(output)

input_x = np.ones((1, 2, 3))
output = np.swapaxes(input_x, 0, 1)
print(output.shape)

input_x = np.arange(9)
output = np.split(input_x, 3)
print(output)

input_x = np.arange(0, 5)
input_y = np.arange(10, 15)
output = np.concatenate((input_x, input_y), axis=0)
print(output)

# ---- Logic operations
input_x = np.arange(0, 5)
input_y = np.arange(0, 10, 2)
output = np.equal(input_x, input_y)
print("output of equal:", output)
output = np.less(input_x, input_y)
print("output of less:", output)

# ---- Math operations
input_x = np.full((3, 2), [1, 2])
input_y = np.full((3, 2), [3, 4])
output = np.add(input_x, input_y)
print(output)

input_x = np.arange(2*3).reshape(2, 3).astype('float32')
input_y = np.arange(3*4).reshape(3, 4).astype('float32')
output = np.matmul(input_x, input_y)
print(output)

input_x = np.arange(6).astype('float32')
output = np.mean(input_x)
print(output)

input_x = np.arange(5).astype('float32')
output = np.exp(input_x)
print(output)

# ---- Interact with MindSpore functions
import tensorjit.numpy as np  # noqa: E402

x = np.arange(8).reshape(2, 4).astype('float32')
w1 = np.ones((4, 8))
b1 = np.zeros((8,))
w2 = np.ones((8, 16))
b2 = np.zeros((16,))
w3 = np.ones((16, 4))
b3 = np.zeros((4,))


def forward(x, w1, b1, w2, b2, w3, b3):
    x = np.dot(x, w1) + b1
    x = np.dot(x, w2) + b2
    x = np.dot(x, w3) + b3
    return x


print(forward(x, w1, b1, w2, b2, w3, b3))

from tensorjit import ms_function  # noqa: E402

forward_compiled = ms_function(forward)
print(forward_compiled(x, w1, b1, w2, b2, w3, b3))

from tensorjit import ops  # noqa: E402

grad_all = ops.composite.GradOperation(get_all=True)
print(grad_all(forward)(x, w1, b1, w2, b2, w3, b3))

from tensorjit import ms_function, context  # noqa: E402

context.set_context(mode=context.GRAPH_MODE)
grad_all = ops.composite.GradOperation(get_all=True)
print(grad_all(ms_function(forward))(x, w1, b1, w2, b2, w3, b3))

import tensorjit.numpy as np  # noqa: E402
from tensorjit import context  # noqa: E402
from tensorjit.nn import Cell  # noqa: E402

context.set_context(mode=context.GRAPH_MODE)

x = np.arange(8).reshape(2, 4).astype('float32')
w1 = np.ones((4, 8))
b1 = np.zeros((8,))
w2 = np.ones((8, 16))
b2 = np.zeros((16,))
w3 = np.ones((16, 4))
b3 = np.zeros((4,))


class NeuralNetwork(Cell):
    def construct(self, x, w1, b1, w2, b2, w3, b3):
        x = np.dot(x, w1) + b1
        x = np.dot(x, w2) + b2
        x = np.dot(x, w3) + b3
        return x


net = NeuralNetwork()

print(net(x, w1, b1, w2, b2, w3, b3))
