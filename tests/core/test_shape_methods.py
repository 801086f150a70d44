"""Shape methods and functional shape ops against NumPy."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def same(t, expected, dtype=np.float32):
    assert isinstance(t, Tensor)
    assert t.dtype == dtype
    assert t.shape == expected.shape, f"{t.shape} != {expected.shape}"
    np.testing.assert_array_equal(t.asnumpy(), expected)


@pytest.mark.parametrize("call,ref", [
    (lambda t: t.reshape(4, 6), lambda a: a.reshape(4, 6)),
    (lambda t: t.reshape((4, -1)), lambda a: a.reshape(4, -1)),
    (lambda t: t.reshape(-1), lambda a: a.reshape(-1)),
    (lambda t: t.reshape([3, 2, 4]), lambda a: a.reshape(3, 2, 4)),
    (lambda t: ops.reshape(t, (6, 4)), lambda a: a.reshape(6, 4)),
    (lambda t: t.view(2, 12), lambda a: a.reshape(2, 12)),
    (lambda t: t.view((24,)), lambda a: a.reshape(24)),
    (lambda t: t.swapdims(0, 2), lambda a: np.swapaxes(a, 0, 2)),
    (lambda t: t.swapaxes(-1, 1), lambda a: np.swapaxes(a, -1, 1)),
    (lambda t: t.transpose(), lambda a: a.transpose()),
    (lambda t: t.transpose(2, 0, 1), lambda a: a.transpose(2, 0, 1)),
    (lambda t: t.transpose((1, 0, 2)), lambda a: a.transpose(1, 0, 2)),
    (lambda t: ops.transpose(t, (0, 2, 1)), lambda a: a.transpose(0, 2, 1)),
    (lambda t: t.permute(1, 2, 0), lambda a: a.transpose(1, 2, 0)),
    (lambda t: t.permute(-1, 0, 1), lambda a: a.transpose(2, 0, 1)),
    (lambda t: t.T, lambda a: a.T),
    (lambda t: t.mT, lambda a: np.swapaxes(a, -1, -2)),
    (lambda t: t.unsqueeze(0), lambda a: a[None]),
    (lambda t: t.unsqueeze(-1), lambda a: a[..., None]),
    (lambda t: t.expand_dims(2), lambda a: np.expand_dims(a, 2)),
    (lambda t: ops.expand_dims(t, -2), lambda a: np.expand_dims(a, -2)),
    (lambda t: t[:, :1, None].squeeze(), lambda a: a[:, :1, None].squeeze()),
    (lambda t: t[:, :1].squeeze(1), lambda a: a[:, :1].squeeze(1)),
    (lambda t: t[:1, :1].squeeze((0, 1)), lambda a: a[:1, :1].squeeze((0, 1))),
    (lambda t: t[:, :1].broadcast_to((2, 5, 4)), lambda a: np.broadcast_to(a[:, :1], (2, 5, 4))),
    (lambda t: t[0, 0].broadcast_to((3, 4)), lambda a: np.broadcast_to(a[0, 0], (3, 4))),
    (lambda t: ops.broadcast_to(t[:1], (-1, 3, 4)), lambda a: a[:1]),
    (lambda t: t[:, :1].expand(2, 3, 4), lambda a: np.broadcast_to(a[:, :1], (2, 3, 4))),
    (lambda t: t.flatten(), lambda a: a.reshape(-1)),
    (lambda t: ops.flatten(t), lambda a: a.reshape(2, -1)),            # keeps the batch axis
    (lambda t: ops.flatten(t, start_dim=0, end_dim=1), lambda a: a.reshape(6, 4)),
    (lambda t: t.ravel(), lambda a: a.ravel()),
    (lambda t: ops.cat((t, t * 2), 1), lambda a: np.concatenate([a, a * 2], 1)),
    (lambda t: ops.cat([t, t[:1]]), lambda a: np.concatenate([a, a[:1]])),
    (lambda t: ops.concat([t, t], -1), lambda a: np.concatenate([a, a], -1)),
    (lambda t: ops.stack([t, t + 1]), lambda a: np.stack([a, a + 1])),
    (lambda t: ops.stack([t, t + 1], -1), lambda a: np.stack([a, a + 1], -1)),
    (lambda t: ops.stack((t, t, t), 1), lambda a: np.stack([a, a, a], 1)),
    (lambda t: t.tile((2, 1, 3)), lambda a: np.tile(a, (2, 1, 3))),
    (lambda t: t.tile((2,)), lambda a: np.tile(a, (2,))),
    (lambda t: t.tile((2, 1, 1, 2)), lambda a: np.tile(a, (2, 1, 1, 2))),
    (lambda t: ops.tile(t, (1, 2, 1)), lambda a: np.tile(a, (1, 2, 1))),
    (lambda t: t.flip(0), lambda a: np.flip(a, 0)),
    (lambda t: t.flip((0, 2)), lambda a: np.flip(a, (0, 2))),
    (lambda t: ops.flip(t, (-1,)), lambda a: np.flip(a, -1)),
    (lambda t: t.repeat_interleave(2, 1), lambda a: np.repeat(a, 2, 1)),
    (lambda t: t.repeat_interleave(3), lambda a: np.repeat(a, 3)),
    (lambda t: ops.repeat_interleave(t, 2, -1), lambda a: np.repeat(a, 2, -1)),
    (lambda t: ops.movedim(t, 0, -1), lambda a: np.moveaxis(a, 0, -1)),
    (lambda t: ops.pad(t, (1, 2)), lambda a: np.pad(a, ((0, 0), (0, 0), (1, 2)))),
    (lambda t: ops.pad(t, (1, 0, 0, 2), value=-1.0),
     lambda a: np.pad(a, ((0, 0), (0, 2), (1, 0)), constant_values=-1)),
])
def test_shape_ops_match_numpy(call, ref):
    same(call(Tensor(A)), ref(A))


@pytest.mark.parametrize("size,axis", [(2, 2), (3, 2), (1, 0), ([1, 3], 2), ((2, 1), 1)])
def test_split(size, axis):
    pieces = Tensor(A).split(size, axis)
    if isinstance(size, int):
        bounds = list(range(size, A.shape[axis], size))
    else:
        bounds = list(np.cumsum(size)[:-1])
    expected = np.split(A, bounds, axis)
    assert isinstance(pieces, tuple) and len(pieces) == len(expected)
    for p, e in zip(pieces, expected):
        same(p, e)
    for p, e in zip(ops.split(Tensor(A), size, axis), expected):
        same(p, e)


@pytest.mark.parametrize("chunks,axis", [(2, 2), (3, 2), (2, 1), (4, 0)])
def test_chunk(chunks, axis):
    pieces = Tensor(A).chunk(chunks, axis)
    length = A.shape[axis]
    step = -(-length // chunks)                       # ceil: torch/MindSpore chunk sizes
    expected = [np.take(A, range(s, min(s + step, length)), axis)
                for s in range(0, length, step)]
    assert len(pieces) == len(expected)
    for p, e in zip(pieces, expected):
        same(p, e)


def test_unbind():
    for i, piece in enumerate(ops.unbind(Tensor(A), 1)):
        same(piece, A[:, i])


def test_concat_promotes_dtypes():
    out = ops.cat([Tensor([1, 2], ms.int32), Tensor([0.5], ms.float16)])
    same(out, np.array([1, 2, 0.5], np.float16), np.float16)
    out = ops.stack([Tensor([1, 2]), Tensor([3.0, 4.0], ms.float64)])
    same(out, np.array([[1.0, 2.0], [3.0, 4.0]]), np.float64)


@pytest.mark.parametrize("dtype", [ms.int32, ms.bool_, ms.float16, ms.bfloat16])
def test_shape_ops_keep_dtype(dtype):
    t = Tensor(A, dtype)
    for out in (t.reshape(4, 6), t.transpose(1, 0, 2), t.flip(1), t.tile((1, 2, 1)),
                ops.cat([t, t]), ops.stack([t, t]), t.unsqueeze(0), t[:, :1].squeeze(1),
                t.repeat_interleave(2, 0), t[:, :1].broadcast_to((2, 3, 4)), t.flatten()):
        assert out.dtype == dtype


def test_reshape_result_is_independent_of_source_updates():
    t = Tensor(A)
    r = t.reshape(24)
    t[0, 0, 0] = 100.0
    assert r.asnumpy()[0] == 0.0
