"""``tensorjit.mint.optim``: MindSpore's ``mint.optim`` optimizers (PyTorch's arguments:
``lr``, ``betas``, ``maximize``) on tensorjit.nn's, whose updates already follow PyTorch's
formulas (AdamW: decoupled decay, bias-corrected moments; SGD: momentum buffer starting at
the first gradient). Called as MindSpore's: ``optimizer(gradients)``.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> net = mint.nn.Linear(2, 1)
>>> optimizer = mint.optim.AdamW(net.trainable_params(), lr=1e-3)
"""
from .. import nn
from .. import ops

__all__ = ["SGD", "Adam", "AdamW", "FusedAdamW"]


def _betas(betas, who):
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2):
        raise TypeError(f"mint.optim.{who}: betas must be a pair of floats, got {betas!r}")
    return betas


def _signed(gradients, maximize):
    """``maximize`` ascends: the same update on the negated gradients."""
    return tuple(ops.neg(g) for g in gradients) if maximize else tuple(gradients)


class AdamW(nn.AdamW):
    """AdamW (decoupled weight decay, PyTorch's update; ``amsgrad`` keeps the maximum second
    moment). Its state is named ``exp_avg`` / ``exp_avg_sq`` per parameter.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> optimizer = mint.optim.AdamW(mint.nn.Linear(2, 1).trainable_params(), lr=0.01)
    """

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01,
                 amsgrad=False, *, maximize=False):
        beta1, beta2 = _betas(betas, type(self).__name__)
        super().__init__(params, lr, beta1, beta2, eps, weight_decay, amsgrad)
        self.maximize = bool(maximize)

    def construct(self, gradients):
        return super().construct(_signed(gradients, self.maximize))


class FusedAdamW(AdamW):
    """``AdamW`` (MindSpore fuses its kernels on Ascend; the update is the same).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> optimizer = mint.optim.FusedAdamW(mint.nn.Linear(2, 1).trainable_params())
    """


class Adam(AdamW):
    """Adam with PyTorch's L2 ``weight_decay`` (added to the gradient, every parameter) and
    bias-corrected moments.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> optimizer = mint.optim.Adam(mint.nn.Linear(2, 1).trainable_params(), lr=0.01)
    """

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        if weight_decay < 0:
            raise ValueError(f"mint.optim.Adam: weight_decay must be >= 0, got {weight_decay}")
        super().__init__(params, lr, betas, eps, 0.0, amsgrad, maximize=maximize)
        self.l2 = float(weight_decay)

    def construct(self, gradients):
        gradients = _signed(gradients, self.maximize)
        if self.l2:
            gradients = tuple(ops.add(g, ops.mul(p, self.l2))
                              for g, p in zip(gradients, self.parameters))
        return nn.AdamW.construct(self, gradients)


class SGD(nn.SGD):
    """Stochastic gradient descent with PyTorch's ``momentum`` / ``dampening`` /
    ``nesterov`` and L2 ``weight_decay``.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> optimizer = mint.optim.SGD(mint.nn.Linear(2, 1).trainable_params(), lr=0.1)
    """

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False):
        super().__init__(params, lr, momentum, dampening, weight_decay, nesterov)
        self.maximize = bool(maximize)

    def construct(self, gradients):
        return super().construct(_signed(gradients, self.maximize))
