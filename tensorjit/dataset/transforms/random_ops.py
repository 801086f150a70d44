"""Random composition of operations (MindSpore's ``dataset.transforms``): RandomChoice,
RandomApply and RandomOrder, drawing from the op's seeded stream."""
from . import RandomOp, Compose

__all__ = ["RandomChoice", "RandomApply", "RandomOrder"]


def _transforms(transforms, who):
    if not isinstance(transforms, list):
        raise TypeError(f"{who}: argument transforms list with value {transforms!r} is not of "
                        f"type list")
    if not transforms:
        raise ValueError(f"{who}: transforms list can not be empty.")
    for k, t in enumerate(transforms):
        if not callable(t):
            raise TypeError(f"{who}: transforms[{k}] is not callable: {t!r}")
    return list(transforms)


def _run(transforms, values):
    return Compose(transforms)(*values)


class RandomChoice(RandomOp):
    """One of ``transforms``, drawn uniformly."""

    def __init__(self, transforms):
        super().__init__()
        self.transforms = _transforms(transforms, "RandomChoice")

    def __call__(self, *values):
        return self.transforms[self._integer(len(self.transforms))](*values)


class RandomApply(RandomOp):
    """All of ``transforms`` in order with probability ``prob``, else nothing."""

    def __init__(self, transforms, prob=0.5):
        super().__init__()
        self.transforms = _transforms(transforms, "RandomApply")
        if isinstance(prob, bool) or not isinstance(prob, (int, float)):
            raise TypeError(f"RandomApply: argument prob with value {prob!r} is not of type "
                            f"float")
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomApply: input prob is not within the required interval of "
                             f"[0, 1], got {prob}")
        self.prob = float(prob)

    def __call__(self, *values):
        if self._uniform() < self.prob:
            return _run(self.transforms, values)
        return values if len(values) > 1 else values[0]


class RandomOrder(RandomOp):
    """All of ``transforms``, in a random order."""

    def __init__(self, transforms):
        super().__init__()
        self.transforms = _transforms(transforms, "RandomOrder")

    def __call__(self, *values):
        order = list(self.transforms)
        for k in range(len(order) - 1, 0, -1):         # Fisher-Yates on the op's stream
            j = self._integer(k + 1)
            order[k], order[j] = order[j], order[k]
        return _run(order, values)
