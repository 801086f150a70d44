"""DLPack exchange: tensors share their NumPy buffer with the other framework, no copy."""
import numpy as np

from ..tensor import Tensor


class _Capsule:
    # np.from_dlpack takes a producer object, MindSpore's API takes the bare capsule
    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)   # kDLCPU, device 0


def to_dlpack(tensor):
    """A DLPack capsule of ``tensor``'s data (consumable once)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'to_dlpack', the input must be a Tensor, but got "
                        f"{type(tensor).__name__}.")
    return np.ascontiguousarray(tensor.asnumpy()).__dlpack__()


def from_dlpack(dlpack):
    """The Tensor sharing the memory of a DLPack capsule (a CPU one: tensorjit runs on CPU)."""
    if type(dlpack).__name__ != "PyCapsule":
        raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor "
                           "capsules can be consumed only once, so you might have already "
                           "constructed a tensor from it once.")
    try:
        array = np.from_dlpack(_Capsule(dlpack))
    except (ValueError, BufferError, TypeError) as e:
        raise RuntimeError(f"from_dlpack received an invalid capsule. Note that DLTensor "
                           f"capsules can be consumed only once, so you might have already "
                           f"constructed a tensor from it once. ({e})") from e
    return Tensor._wrap(array)
