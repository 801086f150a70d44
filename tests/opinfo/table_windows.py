"""Table entries: window functions (bartlett_window, blackman_window, hamming_window,
hann_window, kaiser_window) against NumPy's windows: ``periodic=True`` is the symmetric
window of N + 1 points without its last, and a window of one point is [1] (MindSpore,
PyTorch)."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, FLOATS

WINDOW_DTYPES = (dt.float16, dt.float32, dt.float64)


def _numpy_window(symmetric):
    """NumPy's symmetric window ``symmetric(n)`` as MindSpore's (periodic, length <= 1)."""
    def ref(n, periodic=True, *coefficients, dtype=None):
        n = int(n)
        if n <= 1:
            return np.ones(n)
        return symmetric(n + 1, *coefficients)[:-1] if periodic else symmetric(n, *coefficients)
    return ref


def _hamming(n, alpha=0.54, beta=0.46):
    return alpha - beta * np.cos(2 * np.pi * np.arange(n) / (n - 1))


def _torch_window(name, default_dtype=dt.float32):
    def run(torch, n, periodic=True, *coefficients, dtype=None):
        kwargs = dict(dtype=getattr(torch, np.dtype(dtype or default_dtype).name))
        if name == "kaiser_window" and coefficients:
            kwargs["beta"] = coefficients[0]
        elif coefficients:
            kwargs.update(alpha=coefficients[0], beta=coefficients[1])
        return getattr(torch, name)(int(n), periodic, **kwargs)
    return run


# ---- the length as a 0-d int tensor: bartlett_window, blackman_window -------------------------

def _tensor_length_samples(dtype, rng, full):
    def n(v):
        return np.array(v).astype(dtype)
    return [Sample(n(5), label="periodic"), Sample(n(5), False, label="symmetric"),
            Sample(n(2), False, label="two points"), Sample(n(1), label="one point"),
            Sample(n(0), label="empty"), Sample(n(4), dtype=dt.float64, label="float64"),
            Sample(n(6), False, dtype=dt.float16, label="float16"),
            Sample(n(-1), label="negative length", raises=ValueError),
            Sample(np.array([5]).astype(dtype), label="1-d length", raises=ValueError),
            Sample(n(4), 1, label="periodic not a bool", raises=TypeError),
            Sample(n(4), dtype=dt.int32, label="an int dtype", raises=TypeError)]


def _requested(*_, dtype=None):
    return dtype if dtype is not None else dt.float32


for _name, _symmetric in (("bartlett_window", np.bartlett), ("blackman_window", np.blackman)):
    op(_name, ref=_numpy_window(_symmetric), dtypes=(dt.int32, dt.int64),
       samples=_tensor_length_samples, result=_requested, grad=False, fuzz=False,
       torch=_torch_window(_name),
       notes={"length": "a 0-d int32 / int64 tensor (MindSpore's BartlettWindow / "
                        "BlackmanWindow primitive); float32 unless dtype says otherwise"})


# ---- the length as a Python int: hamming_window, hann_window, kaiser_window ---------------------

def _int_length_samples(coefficients, default_dtype):
    def samples(dtype, rng, full):
        out = [Sample(5, dtype=dtype, label="periodic"),
               Sample(5, False, dtype=dtype, label="symmetric"),
               Sample(1, dtype=dtype, label="one point"), Sample(0, dtype=dtype, label="empty"),
               Sample(6, True, *coefficients, dtype=dtype, label="coefficients"),
               Sample(-1, dtype=dtype, label="negative length", raises=ValueError),
               Sample(4.0, dtype=dtype, label="a float length", raises=TypeError),
               Sample(4, 1, dtype=dtype, label="periodic not a bool", raises=TypeError)]
        if dtype == default_dtype:
            out.append(Sample(7, False, label="the default dtype"))
        return out
    return samples


def _default(default_dtype):
    def result(*_, dtype=None):
        return dtype if dtype is not None else default_dtype
    return result


op("hamming_window", ref=_numpy_window(_hamming), dtypes=WINDOW_DTYPES,
   samples=_int_length_samples((0.5, 0.5), dt.float32), result=_default(dt.float32),
   grad=False, fuzz=False, torch=_torch_window("hamming_window"),
   notes={"dtype": "float32 by default; bfloat16 is refused (MindSpore 2.10)",
          "one point": "float32 by default also for lengths 0 and 1, where MindSpore 2.10 "
                       "returns float64"})
op("hann_window", ref=_numpy_window(np.hanning), dtypes=FLOATS,
   samples=_int_length_samples((), dt.float64), result=_default(dt.float64), grad=False,
   fuzz=False, torch=_torch_window("hann_window", dt.float64),
   notes={"dtype": "float64 by default, as MindSpore 2.10"})
op("kaiser_window", ref=_numpy_window(lambda n, beta=12.0: np.kaiser(n, beta)), dtypes=FLOATS,
   samples=_int_length_samples((3.0,), dt.float64), result=_default(dt.float64),
   grad=False, fuzz=False, torch=_torch_window("kaiser_window", dt.float64),
   notes={"dtype": "float64 by default, as MindSpore 2.10"})
