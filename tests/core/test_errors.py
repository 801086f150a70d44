"""Wrong shapes, dtypes and arguments raise ValueError / TypeError / IndexError whose
message names the op and the offending shapes or values (never a bare NumPy message)."""
import re

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops


def f32(*shape):
    return Tensor(np.zeros(shape, np.float32))


def raises(exc_type, *fragments):
    """Context manager: ``exc_type`` whose message contains every fragment (regex-escaped)."""
    pattern = "".join(f"(?=.*{re.escape(f)})" for f in fragments)
    return pytest.raises(exc_type, match=re.compile(pattern, re.S))


# ---- shapes --------------------------------------------------------------------------------

def test_matmul_shape_mismatch():
    with raises(ValueError, "matmul", "3", "4"):
        ops.matmul(f32(2, 3), f32(4, 5))
    with raises(ValueError, "matmul", "3", "2"):
        f32(2, 3) @ f32(2, 3)
    with raises(ValueError, "matmul", "3", "4"):
        ops.matmul(f32(3), f32(4))
    with raises(ValueError, "matmul", "2", "3"):
        ops.matmul(f32(2, 3, 4), f32(3, 4, 5))            # batch dims do not broadcast
    with raises(ValueError, "matmul", "()"):
        ops.matmul(Tensor(1.0), f32(2, 2))


def test_matmul_rejects_bool():
    with raises(TypeError, "matmul", "bool"):
        ops.matmul(Tensor([[True]]), Tensor([[False]]))


def test_broadcast_mismatch_names_op_and_shapes():
    with raises(ValueError, "add", "(2, 3)", "(4,)"):
        f32(2, 3) + f32(4)
    with raises(ValueError, "mul", "(2, 3)", "(3, 2)"):
        ops.mul(f32(2, 3), f32(3, 2))
    with raises(ValueError, "where", "(4,)"):
        ops.where(f32(2, 3) > 0, f32(2, 3), f32(4))
    with raises(ValueError, "broadcast_to", "(3, 3)"):
        f32(2).broadcast_to((3, 3))
    with raises(ValueError, "broadcast_to", "(3,)"):
        f32(2, 3).broadcast_to((3,))


def test_augmented_assignment_growing_the_shape_rebinds():
    # the broadcast result cannot live in t: t is rebound to it (MindSpore's PyNative
    # mode does the same), the original tensor keeps its value
    t = f32(2, 3)
    before, other = t, f32(4, 2, 3)
    expected = t.asnumpy() + other.asnumpy()
    t += other
    assert t is not before and t.shape == (4, 2, 3)
    np.testing.assert_allclose(t.asnumpy(), expected)


def test_impossible_reshape():
    with raises(ValueError, "reshape", "6", "(4, 2)"):
        f32(2, 3).reshape(4, 2)
    with raises(ValueError, "reshape", "(-1, -1)"):
        f32(2, 3).reshape(-1, -1)
    with raises(ValueError, "reshape", "(5, -1)"):
        f32(2, 3).reshape(5, -1)
    with raises(ValueError, "reshape", "(-2, 3)"):
        f32(2, 3).reshape(-2, 3)
    with raises(ValueError, "squeeze", "axis 1"):
        f32(1, 3, 1).squeeze(1)


def test_concat_and_stack_shapes():
    with raises(ValueError, "concat", "(2, 3)", "(3, 3)"):
        ops.cat([f32(2, 3), f32(3, 3)], 1)
    with raises(ValueError, "stack", "(2, 3)", "(3, 3)"):
        ops.stack([f32(2, 3), f32(3, 3)])
    with raises(ValueError, "split", "[1, 1]", "3"):
        f32(2, 3).split([1, 1], 1)


def test_conv2d_shape_errors():
    with raises(ValueError, "conv2d", "3 channels", "(2, 4, 3, 3)"):
        ops.conv2d(f32(1, 3, 5, 5), f32(2, 4, 3, 3))
    with raises(ValueError, "conv2d", "(3, 5, 5)"):
        ops.conv2d(f32(3, 5, 5), f32(2, 3, 3, 3))
    with raises(ValueError, "conv2d", "groups=3"):
        ops.conv2d(f32(1, 4, 5, 5), f32(2, 2, 3, 3), groups=3)
    with raises(ValueError, "conv2d", "3x3", "2x2"):
        ops.conv2d(f32(1, 3, 2, 2), f32(2, 3, 3, 3))          # kernel larger than input
    with raises(ValueError, "conv2d", "bias", "(3,)"):
        ops.conv2d(f32(1, 3, 5, 5), f32(2, 3, 3, 3), bias=f32(3))


@pytest.mark.parametrize("kwargs,fragment", [
    (dict(pad_mode="full"), "'full'"),
    (dict(pad_mode="valid", padding=1), "padding"),
    (dict(pad_mode="pad", padding=(1, 2, 3)), "(1, 2, 3)"),
    (dict(pad_mode="pad", padding=-1), "-1"),
    (dict(stride=0), "stride"),
    (dict(stride=-1), "stride"),
    (dict(stride=(1, 2, 3)), "stride"),
    (dict(dilation=0), "dilation"),
])
def test_conv2d_argument_errors(kwargs, fragment):
    with raises(ValueError, "conv2d", fragment):
        ops.conv2d(f32(1, 3, 5, 5), f32(2, 3, 3, 3), **kwargs)


def test_pooling_errors():
    with raises(ValueError, "max_pool2d", "3"):
        ops.max_pool2d(f32(1, 1, 2, 2), 3)
    with raises(ValueError, "avg_pool2d", "stride"):
        ops.avg_pool2d(f32(1, 1, 4, 4), 2, stride=0)
    with raises(ValueError, "max_pool2d", "'bad'"):
        ops.max_pool2d(f32(1, 1, 4, 4), 2, pad_mode="bad")


def test_normalization_shape_errors():
    with raises(ValueError, "layer_norm", "(2,)", "(2, 3)"):
        ops.layer_norm(f32(2, 3), (2,))
    with raises(ValueError, "layer_norm", "gamma"):
        ops.layer_norm(f32(2, 3), (3,), f32(4))
    gamma, beta = f32(3), f32(3)
    with raises(ValueError, "batch_norm", "(3,)", "(2,)"):
        ops.batch_norm(f32(2, 3), None, None, f32(2), beta, training=True)
    with raises(ValueError, "batch_norm", "(3,)", "(2,)"):
        ops.batch_norm(f32(4, 3), f32(2), f32(3), gamma, beta, training=False)
    with raises(ValueError, "batch_norm", "rank"):
        ops.batch_norm(f32(3), f32(3), f32(3), gamma, beta)


# ---- indices and axes ---------------------------------------------------------------------

@pytest.mark.parametrize("index,fragments", [
    (2, ("getitem", "2", "size 2")),
    (-3, ("getitem", "-3")),
    ((0, 3), ("getitem", "3", "size 3")),
    ((0, 0, 0), ("getitem", "too many")),
    (Tensor([0, 7]), ("getitem", "7")),
    ([0, 7], ("getitem", "7")),
    (Tensor([True, False, True]), ("getitem", "bool", "(3,)", "(2,)", "(2, 3)")),
])
def test_out_of_range_index(index, fragments):
    with raises(IndexError, *fragments):
        f32(2, 3)[index]


def test_out_of_range_setitem():
    t = f32(2, 3)
    with raises(IndexError, "5"):
        t[5] = 1.0
    with raises(IndexError, "setitem", "5"):
        t[Tensor([5])] = 1.0
    with raises(ValueError, "setitem", "(2,)", "(3,)"):
        t[0] = Tensor([1.0, 2.0])


def test_bad_index_types():
    with raises(TypeError, "index", "float"):
        f32(2, 3)[1.5]
    with raises(TypeError, "index", "float"):
        f32(2, 3)[Tensor([0.0, 1.0])]


@pytest.mark.parametrize("call,fragments", [
    (lambda t: t.sum(2), ("sum", "axis 2", "rank 2")),
    (lambda t: t.mean(-3), ("mean", "-3")),
    (lambda t: t.max(5), ("amax", "5")),
    (lambda t: t.argmax(2), ("argmax", "2")),
    (lambda t: ops.softmax(t, 2), ("softmax", "2")),
    (lambda t: ops.log_softmax(t, -3), ("log_softmax", "-3")),
    (lambda t: ops.cat([t, t], 2), ("concat", "2")),
    (lambda t: ops.stack([t, t], 3), ("stack", "3")),
    (lambda t: t.transpose(0, 2), ("transpose", "2")),
    (lambda t: t.squeeze(5), ("squeeze", "5")),
    (lambda t: t.unsqueeze(4), ("expand_dims", "4")),
    (lambda t: t.flip(3), ("flip", "3")),
    (lambda t: t.swapdims(0, 2), ("swapaxes", "2")),
    (lambda t: t.split(1, 2), ("split", "2")),
])
def test_out_of_range_axis(call, fragments):
    with raises(IndexError, *fragments):
        call(f32(2, 3))


def test_bad_permutation():
    with raises(ValueError, "transpose", "(0, 0)"):
        f32(2, 3).transpose(0, 0)


# ---- construction and dtypes ----------------------------------------------------------------

def test_ragged_data():
    with raises(ValueError, "Tensor", "ragged"):
        Tensor([[1, 2], [3]])
    with raises(ValueError, "Tensor", "ragged"):
        Tensor([[1.0, 2.0], 3.0])


def test_bad_data():
    with raises(TypeError, "Tensor", "str"):
        Tensor("abc")
    with raises(TypeError, "Tensor", "complex64"):
        Tensor(np.zeros(2, np.complex64))


@pytest.mark.parametrize("bad", ["floaty", "float17", "int7"])
def test_bad_dtype_names(bad):
    with raises(TypeError, "dtype", repr(bad), "float32"):
        Tensor([1], bad)
    with raises(TypeError, "dtype", repr(bad)):
        f32(2).astype(bad)
    with raises(TypeError, "dtype", repr(bad)):
        ops.zeros((2,), bad)


def test_unsupported_dtype_objects():
    with raises(TypeError, "complex64", "not supported"):
        Tensor([1], np.complex64)
    with raises(TypeError, "object"):
        Tensor([1], object)


def test_type_errors_name_the_op():
    with raises(TypeError, "neg", "bool"):
        -Tensor([True])
    with raises(TypeError, "bitwise_and", "float32"):
        f32(2) & f32(2)
    with raises(TypeError, "one_hot", "float32"):
        ops.one_hot(f32(2), 3)
    with raises(TypeError, "nll_loss", "integer"):
        ops.nll_loss(f32(2, 3), f32(2))


# ---- other arguments ------------------------------------------------------------------------

@pytest.mark.parametrize("p", [1.5, -0.1, 2])
def test_bad_dropout_probability(p):
    with raises(ValueError, "dropout", str(p)):
        ops.dropout(f32(2, 3), p=p)


def test_bad_shape_arguments():
    with raises(ValueError, "full", "-1"):
        ops.full((2, -1), 1.0)
    with raises(ValueError, "full", "-2"):
        ops.zeros((-2,))
    with raises(ValueError, "tile", "-1"):
        f32(2, 3).tile((2, -1))
    with raises(ValueError, "repeat_interleave", "-1"):
        f32(2, 3).repeat_interleave(-1, 0)
    with raises(ValueError, "chunk", "0"):
        f32(2, 3).chunk(0)
    with raises(ValueError, "split", "0"):
        f32(2, 3).split(0)
    with raises(ValueError, "pad", "(1,)"):
        ops.pad(f32(2, 3), (1,))


def test_scalar_conversion_errors():
    with raises(ValueError, "item", "(2, 3)"):
        f32(2, 3).item()
    with raises(ValueError, "truth value", "(2, 3)"):
        bool(f32(2, 3))
    with raises(TypeError, "len", "0-d"):
        len(Tensor(1.0))
    with raises(ValueError, "assign_value", "(3,)", "(2, 3)"):
        ms.Parameter(f32(2, 3)).assign_value(f32(3))


def test_creation_argument_errors():
    with raises(ValueError, "arange", "step"):
        ops.arange(0, 10, 0)
    with raises(ValueError, "eye", "-1"):
        ops.eye(-1)
    with raises(TypeError, "full", "str"):
        ops.full((2,), "a")
    with raises(ValueError, "randint", "5", "2"):
        ops.randint(5, 2, (2,))
    with raises(ValueError, "Tensor", "(-1, 2)"):
        Tensor(shape=(-1, 2), dtype=ms.float32)
    with raises(ValueError, "tril", "(2,)"):
        ops.tril(f32(2))


def test_non_integer_shapes_and_axes():
    with raises(TypeError, "reshape", "'a'"):
        f32(2, 3).reshape("a")
    with raises(TypeError, "reshape", "3.0"):
        f32(2, 3).reshape(3.0, 2)
    with raises(TypeError, "sum", "axis", "1.0"):
        f32(2, 3).sum(1.0)
    with raises(TypeError, "mean", "axis", "'x'"):
        f32(2, 3).mean("x")


def test_normalization_needs_floats():
    with raises(TypeError, "layer_norm", "floating"):
        ops.layer_norm(Tensor([[1, 2]]), (2,))
    with raises(TypeError, "batch_norm", "floating"):
        ops.batch_norm(Tensor([[1, 2]]), None, None, f32(2), f32(2), training=True)
