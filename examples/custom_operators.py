"""MindSpore 2.10's documented examples of user-defined operators, run as written (only the
import lines changed: ``mindspore`` -> ``tensorjit``):

1. ``ops.Custom``'s docstring: a "pyfunc" operator;
2. the tutorial "Custom Primitive-Based Custom Operators": sin by NumPy in GRAPH_MODE;
3. the tutorial "Advanced Usage of Custom Operators": a bprop made of another Custom op;
4. ``ops.kernel``'s docstring: a hybrid-DSL function with its registration information,
   called as a Python function; then the same function as a "hybrid" operator (MindSpore's
   CPU build compiles it with AKG; tensorjit with Numba);
5. the hybrid tutorial's 3-D addition, as "hybrid" and as "pyfunc";
6. the AOT tutorial's CPU example (``add.cc`` compiled with g++, when there is one).

    python examples/custom_operators.py
"""
import os
import shutil
import subprocess
import tempfile

import numpy as np

print("== 1. ops.Custom docstring (pyfunc)")
from tensorjit import Tensor, ops
from tensorjit.ops import CustomRegOp, custom_info_register, DataType, kernel  # noqa: F401
from tensorjit import dtype as mstype  # noqa: F401
from tensorjit.nn import Cell  # noqa: F401
input_x = Tensor(np.ones([16, 16]).astype(np.float32))
input_y = Tensor(np.ones([16, 16]).astype(np.float32))


# Example, func_type = "pyfunc"
def func_pyfunc(x1, x2):
    return x1 + x2


test_pyfunc = ops.Custom(func_pyfunc, lambda x, _: x, lambda x, _: x, "pyfunc")
output = test_pyfunc(input_x, input_y)
print(output.shape)


print("== 2. tutorial: Custom primitive-based custom operators")
import tensorjit as ms  # noqa: E402

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_device(device_target="CPU")


def sin_by_numpy(x):
    return np.sin(x)


def infer_shape(x):
    return x


def infer_dtype(x):
    return x


sin_by_numpy_op = ops.Custom(func=sin_by_numpy,
                             out_shape=infer_shape,
                             out_dtype=infer_dtype,
                             func_type="pyfunc")

input_tensor = ms.Tensor([0, 1, 0.2, 0.3, 0.4], dtype=ms.float32)
result_cus = sin_by_numpy_op(input_tensor)
print(result_cus)


print("== 3. tutorial: the bprop function of an operator")


# Forward computation of custom operator
def square(x):
    return x * x


# Backward computation of custom operator
def square_grad(x, dout):
    dx = 2.0 * x * dout
    return dx


# Backpropagation function
def bprop():
    op = ops.Custom(square_grad, lambda x, _: x, lambda x, _: x, func_type="pyfunc")

    def custom_bprop(x, out, dout):
        dx = op(x, dout)
        return (dx,)

    return custom_bprop


class Net(Cell):
    def __init__(self):
        super(Net, self).__init__()
        # Define a custom operator of pyfunc type and provide a backpropagation function
        self.op = ops.Custom(square, lambda x: x, lambda x: x, bprop=bprop(), func_type="pyfunc")

    def construct(self, x):
        return self.op(x)


x = np.array([1.0, 4.0, 9.0]).astype(np.float32)
dx = ms.grad(Net())(ms.Tensor(x))
print(dx)


print("== 4. ops.kernel docstring (hybrid DSL)")
# Create a dict for the compile flags.
attrs = {
    "test1": True,
    "test2": "good",
    "test3": 12,
}
# Create the reg info json string.
op_cpu_info = CustomRegOp() \
    .input(0, "a") \
    .input(0, "b") \
    .output(0, "y") \
    .dtype_format(DataType.F32_None, DataType.F32_None, DataType.F32_None) \
    .target("CPU") \
    .get_op_info()

# Create inputs for the custom op.
input_x = np.ones([4, 4]).astype(np.float32)
input_y = np.ones([4, 4]).astype(np.float32)


# Write a Hybrid DSL function through the decorator @kernel.
# We can also pass the compile attrs and the reg info through the decorator.
@kernel(reg_info=op_cpu_info, compile_attrs=attrs)
def outer_product(a, b):
    c = output_tensor(a.shape, a.dtype)  # noqa: F821  (the DSL's names)

    with block_realize(c):  # noqa: F821
        for i0 in range(a.shape[0]):
            for i1 in range(b.shape[1]):
                c[i0, i1] = 0.0
                for i2 in range(a.shape[1]):
                    c[i0, i1] = c[i0, i1] + (a[i0, i2] * b[i2, i1])
    return c


# We can use the function directly as a python function.
# In this case, the inputs should be numpy arrays.
result = outer_product(input_x, input_y)
print(result[0])
hybrid_op = ops.Custom(outer_product, func_type="hybrid")
print(hybrid_op(Tensor(input_x), Tensor(input_y))[0])


print("== 5. hybrid tutorial: addition of 3-D tensors")


@kernel
def tensor_add_3d(x, y):
    result = output_tensor(x.shape, x.dtype)  # noqa: F821
    #    1. we need a three dim loops
    #    2. the extent of i'th loop is x.shape[i]
    #    3. we need to write the elementwise computation such as x[i, j, k] + y[i, j, k]
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            for k in range(x.shape[2]):
                result[i, j, k] = x[i, j, k] + y[i, j, k]

    return result


# MindSpore 2.10's default func_type is "pyfunc" (the tutorial predates it): say "hybrid"
tensor_add_3d_op = ops.Custom(func=tensor_add_3d, func_type="hybrid")
input_tensor_x = ms.Tensor(np.ones([2, 3, 4]).astype(np.float32))
input_tensor_y = ms.Tensor(np.ones([2, 3, 4]).astype(np.float32) * 2)
result_cus = tensor_add_3d_op(input_tensor_x, input_tensor_y)
print(result_cus)


def infer_shape_py(x, y):
    return x


def infer_dtype_py(x, y):
    return x


tensor_add_3d_py_func = ops.Custom(func=tensor_add_3d,
                                   out_shape=infer_shape_py,
                                   out_dtype=infer_dtype_py,
                                   func_type="pyfunc")

result_pyfunc = tensor_add_3d_py_func(input_tensor_x, input_tensor_y)
print(result_pyfunc)


print("== 6. AOT tutorial, CPU")
ADD_CC = r"""
#include <string.h>
using size_t = decltype(sizeof(int));
using int64_t = decltype(sizeof(long));

extern "C" int CustomAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream, void *extra) {
  if (nparam != 3) return 1;
  float *input1 = static_cast<float *>(params[0]);
  float *input2 = static_cast<float *>(params[1]);
  float *output = static_cast<float *>(params[2]);
  size_t size = 1;
  for (int i = 0; i < ndims[2]; i++) {
    size *= shapes[2][i];
  }
  for (int i = 0; i < nparam; i++) {
    if (strcmp(dtypes[i], "float32") != 0) {
      return 2;
    }
  }
  for (int i = 0; i < size; i++) {
    output[i] = input1[i] + input2[i];
  }
  return 0;
}
"""
if shutil.which("g++") is None:
    print("skipped: no g++")
else:
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "add.cc"), "w") as f:
        f.write(ADD_CC)
    subprocess.run(["g++", "--shared", "-fPIC", "-o", "add.so", "add.cc"], cwd=work, check=True)
    os.chdir(work)
    # Define a custom operator of aot type
    op = ops.Custom("./add.so:CustomAdd", out_shape=lambda x, _: x, out_dtype=lambda x, _: x,
                    func_type="aot")

    x0 = np.array([[0.0, 0.0], [1.0, 1.0]]).astype(np.float32)
    x1 = np.array([[2.0, 2.0], [3.0, 3.0]]).astype(np.float32)
    output = op(ms.Tensor(x0), ms.Tensor(x1))
    print(output)
    shutil.rmtree(work)
