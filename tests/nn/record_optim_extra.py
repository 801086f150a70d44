"""MindSpore 2.10's own results for the optimizers added with tests/nn/test_optim_extra.py
(Adagrad, Adadelta, AdaMax, ASGD, FTRL, ProximalAdagrad, RMSProp, Rprop, LazyAdam,
AdamOffload, AdaFactor): the parameters after ``STEPS`` updates from the same start and
gradients, recorded once into ``optim_extra_mindspore_2_10.npz`` (CI has no MindSpore):

    /tmp/msvenv/bin/python tests/nn/record_optim_extra.py

Lamb and LARS are not recorded: MindSpore 2.10 has no CPU kernel for them (``Lamb`` /
``LARSUpdate``); their tests use the documented formulas only. Neither are two options
whose CPU kernels depart from MindSpore's documented formula: Adagrad's
``update_slots=False`` (the kernel updates the accumulator all the same) and FTRL's ``l1``
(the kernel shrinks a negative linear term by +l1 instead of -l1).

``CASES`` (plain data, imported by the test too): (label, optimizer name, keywords); a
keyword ``"groups"`` makes parameter groups (``GROUPS`` below) instead of a plain list.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "optim_extra_mindspore_2_10.npz")
STEPS = 4
SHAPES = {"w": (3, 2), "b": (2,), "bn.gamma": (2,)}

CASES = [
    ("Adagrad", "Adagrad", {}),
    ("Adagrad options", "Adagrad", dict(accum=0.5, learning_rate=0.05, weight_decay=0.1,
                                        loss_scale=2.0)),
    ("Adagrad groups", "Adagrad", dict(groups=True, learning_rate=0.05)),
    ("Adadelta", "Adadelta", {}),
    ("Adadelta options", "Adadelta", dict(learning_rate=0.5, rho=0.5, epsilon=1e-3,
                                          weight_decay=0.05, loss_scale=4.0)),
    ("AdaMax", "AdaMax", {}),
    ("AdaMax options", "AdaMax", dict(learning_rate=0.01, beta1=0.8, beta2=0.9, eps=1e-3,
                                      weight_decay=0.1, loss_scale=4.0)),
    ("AdaMax dynamic lr", "AdaMax", dict(learning_rate=[0.01, 0.02, 0.005, 0.015])),
    ("ASGD", "ASGD", {}),
    ("ASGD options", "ASGD", dict(learning_rate=0.05, lambd=0.01, alpha=0.5, t0=2.0,
                                  weight_decay=0.01)),
    ("ASGD groups", "ASGD", dict(groups=True, learning_rate=0.05)),
    ("FTRL", "FTRL", {}),
    ("FTRL options", "FTRL", dict(initial_accum=0.2, learning_rate=0.05, lr_power=-0.3,
                                  l2=0.1, weight_decay=0.01, loss_scale=2.0)),
    ("ProximalAdagrad", "ProximalAdagrad", {}),
    ("ProximalAdagrad options", "ProximalAdagrad", dict(accum=0.2, learning_rate=0.1, l1=0.05,
                                                        l2=0.1, weight_decay=0.01)),
    ("RMSProp", "RMSProp", {}),
    ("RMSProp momentum", "RMSProp", dict(learning_rate=0.01, decay=0.8, momentum=0.9,
                                         epsilon=1e-6, weight_decay=0.05, loss_scale=2.0)),
    ("RMSProp centered", "RMSProp", dict(learning_rate=0.01, momentum=0.5, centered=True)),
    ("RMSProp groups", "RMSProp", dict(groups=True, learning_rate=0.01, momentum=0.5)),
    ("Rprop", "Rprop", {}),
    ("Rprop options", "Rprop", dict(learning_rate=0.05, etas=(0.3, 1.5),
                                    step_sizes=(1e-3, 0.08), weight_decay=0.01)),
    ("LazyAdam", "LazyAdam", {}),
    ("LazyAdam nesterov", "LazyAdam", dict(learning_rate=0.01, use_nesterov=True,
                                           weight_decay=0.1, loss_scale=2.0)),
    ("AdamOffload", "AdamOffload", dict(learning_rate=0.01, weight_decay=0.1)),
    ("AdaFactor", "AdaFactor", {}),
    ("AdaFactor warmup", "AdaFactor", dict(warmup_init=True, weight_decay=0.1)),
    ("AdaFactor manual lr", "AdaFactor", dict(learning_rate=0.01, relative_step=False,
                                              scale_parameter=False, beta1=0.0)),
    ("AdaFactor scaled lr", "AdaFactor", dict(learning_rate=0.05, relative_step=False,
                                              clip_threshold=0.5, decay_rate=0.5)),
]


def inputs():
    rng = np.random.default_rng(2037)
    out = {f"start.{n}": rng.standard_normal(s).astype(np.float32) for n, s in SHAPES.items()}
    for t in range(STEPS):
        for n, s in SHAPES.items():
            out[f"grad{t}.{n}"] = rng.standard_normal(s).astype(np.float32)
    return out


def groups(params):
    """w: its own rate and decay; b and bn.gamma: the optimizer's."""
    return [{"params": [params[0]], "lr": 0.1, "weight_decay": 0.05},
            {"params": params[1:]}]


def build(module, opt_name, kwargs, data):
    """Parameters (from ``data``) and the optimizer ``CASES`` names, from ``module``
    (mindspore.nn or tensorjit.nn; ``tensor``/``parameter`` its constructors)."""
    nn, tensor, parameter = module
    params = [parameter(tensor(data[f"start.{n}"].copy()), name=n) for n in SHAPES]
    kwargs = dict(kwargs)
    target = groups(params) if kwargs.pop("groups", False) else params
    return params, getattr(nn, opt_name)(target, **kwargs)


def grads(tensor, data, t):
    return tuple(tensor(data[f"grad{t}.{n}"]) for n in SHAPES)


def main():
    import warnings
    warnings.filterwarnings("ignore")
    import mindspore
    from mindspore import nn, Tensor, Parameter
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    data = inputs()
    record = dict(data)
    for label, opt_name, kwargs in CASES:
        params, opt = build((nn, Tensor, Parameter), opt_name, kwargs, data)
        for t in range(STEPS):
            opt(grads(Tensor, data, t))
        for n, p in zip(SHAPES, params):
            record[f"{label}#{n}"] = p.asnumpy()
    np.savez_compressed(RECORD, **record)
    print(f"{len(CASES)} cases -> {RECORD}")


if __name__ == "__main__":
    main()
