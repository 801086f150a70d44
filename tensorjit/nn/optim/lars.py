"""LARS (layer-wise adaptive rate scaling, You et al. 2017) as MindSpore's ``nn.LARS``: a
wrapper that rescales each gradient by a per-parameter trust ratio and hands the result to
the wrapped optimizer, which then applies neither weight decay nor the loss scale (LARS
has done both). For a parameter the filter keeps (``lars_filter``), with ``wd`` its decay
(0 where the optimizer does not decay it):

    c = coefficient * ||p|| / (||g|| + wd * ||p|| + epsilon)
    use_clip: c = clip(c / lr, 0, 1)          (lr: the optimizer's rate of this step)
    g = c * (g + wd * p)

(the formula of MindSpore's ``LARSUpdate`` kernel, which 2.10 has for Ascend only).
"""
from ... import ops
from ..cell import Cell
from .optimizer import Optimizer
from ._hyper import strict_float, flag

__all__ = ["LARS"]


def _default_filter(param):
    return "LayerNorm" not in param.name and "bias" not in param.name


class LARS(Optimizer):
    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=_default_filter):
        # the wrapped optimizer owns the parameters, the rates and the step count
        Cell.__init__(self, auto_prefix=False)
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"LARS: 'optimizer' must be an Optimizer, got "
                            f"{type(optimizer).__name__}")
        self.epsilon = strict_float("LARS", "epsilon", epsilon)
        self.coefficient = strict_float("LARS", "coefficient", coefficient)
        self.use_clip = flag("LARS", "use_clip", use_clip)
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.learning_rate = optimizer.learning_rate
        self.global_step = optimizer.global_step
        self.is_group, self.is_group_lr = optimizer.is_group, optimizer.is_group_lr
        self.dynamic_lr = optimizer.dynamic_lr
        if use_clip and self.is_group_lr and self.dynamic_lr:
            raise ValueError("LARS: with use_clip=True the learning rate cannot be both "
                             "dynamic and per group")
        self.loss_scale, self.need_scale = optimizer.loss_scale, optimizer.need_scale
        # the decay as given (the optimizer stores it multiplied by the loss scale)
        self.lars_decays = tuple(d / optimizer.loss_scale if f else 0.0 for d, f in
                                 zip(optimizer._decays(), optimizer.decay_flags))
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        optimizer.decay_flags = (False,) * len(self.parameters)
        optimizer.exec_weight_decay = False
        optimizer.need_scale = False
        optimizer.gradients_reduced_outside = True

    def _rate(self, k):
        """The wrapped optimizer's rate of this step (its step count not yet advanced)."""
        lr = self.opt._param_lrs[k] if self.is_group else self.opt.learning_rate
        return self.opt._lr_value(lr)

    def construct(self, gradients):
        gradients = self.scale_grad(self._check_gradients(gradients))
        scaled = []
        for k, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if not self.lars_flag[k]:
                scaled.append(grad)
                continue
            decay = self.lars_decays[k]
            w_norm = ops.sqrt(ops.sum(ops.mul(param, param)))
            g_norm = ops.sqrt(ops.sum(ops.mul(grad, grad)))
            coeff = ops.div(ops.mul(w_norm, self.coefficient),
                            ops.add(ops.add(g_norm, ops.mul(w_norm, decay)), self.epsilon))
            if self.use_clip:
                coeff = ops.clip_by_value(ops.div(coeff, self._rate(k)), 0.0, 1.0)
            if decay > 0:
                grad = ops.add(grad, ops.mul(param, decay))
            scaled.append(ops.mul(grad, coeff))
        return self.opt(tuple(scaled))
