import numpy as np

from tensorjit import Tensor


def t(*values, dtype=np.float32):
    return Tensor(np.array(values, dtype=dtype))


def rand(*shape, seed=0, dtype=np.float32):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def compiles(jitted):
    return len(jitted._tj_jit.events)


def close(result, expected, rtol=1e-6, atol=1e-6):
    if isinstance(expected, (tuple, list)):
        assert isinstance(result, (tuple, list)) and len(result) == len(expected)
        for r, e in zip(result, expected):
            close(r, e, rtol, atol)
        return
    if not isinstance(expected, Tensor):
        assert result == expected
        return
    assert isinstance(result, Tensor), type(result)
    assert result.dtype == expected.dtype and tuple(result.shape) == tuple(expected.shape)
    np.testing.assert_allclose(result.asnumpy(), expected.asnumpy(), rtol=rtol, atol=atol)
