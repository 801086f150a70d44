"""The table rows of MindSpore's optimizer-update operator classes (``ops/operations.py``
adds them to its factory table): class name, compute, attributes with MindSpore 2.10's
defaults. The computes live in ``optimizer_updates.py`` (dense) and
``sparse_optimizer_updates.py`` (sparse rows, fused kernels, LARS)."""
from . import optimizer_updates as U
from . import sparse_optimizer_updates as SU
from .elementwise import add, sub

_LOCK = dict(use_locking=False)
_NUMBERS = tuple(d for d in U.dt.ALL_DTYPES if d != U.dt.bool_)
_LOCK_NESTEROV = dict(use_locking=False, use_nesterov=False)


def _rules(compute, **rules):
    """A copy of ``compute`` carrying its own constructor checks (one compute serves
    several classes)."""
    def checked(*args, **kwargs):
        return compute(*args, **kwargs)
    checked.__doc__ = compute.__doc__
    return U.validated(checked, **rules)


def _assign(op, update):
    def compute(variable, value):
        U.state(op, "variable", variable, dtypes=_NUMBERS)
        if not hasattr(value, "shape") or len(value.shape) != len(variable.shape):
            raise ValueError(f"For '{op}', 'value' must have the same rank as 'variable'.")
        return variable.assign_value(update(variable, value))
    compute.__doc__ = f"``variable`` {'+=' if update is add else '-='} ``value`` in place; " \
                      f"returns ``variable``."
    return compute


_BOOLS = ("use_locking",)
ROWS = [
    ("Adam", _rules(U.compute_adam, bools=_BOOLS + ("use_nesterov",)), _LOCK_NESTEROV),
    ("AdamNoUpdateParam", _rules(U.compute_adam_no_update_param,
                                 bools=_BOOLS + ("use_nesterov",)), _LOCK_NESTEROV),
    ("AdamWeightDecay", _rules(U.compute_adam_weight_decay, bools=_BOOLS), _LOCK),
    ("ApplyAdaMax", U.compute_apply_ada_max, {}),
    ("ApplyAdadelta", U.compute_apply_adadelta, {}),
    ("ApplyAdagrad", _rules(U.compute_apply_adagrad, bools=("update_slots",)),
     dict(update_slots=True)),
    ("ApplyAdagradDA", _rules(U.compute_apply_adagrad_da, bools=_BOOLS), _LOCK),
    ("ApplyAdagradV2", _rules(U.compute_apply_adagrad, floats=("epsilon",),
                              bools=("update_slots",)), dict(epsilon=None, update_slots=True)),
    ("ApplyAdamWithAmsgrad", _rules(U.compute_apply_adam_with_amsgrad,
                                    floats=("beta1", "beta2", "epsilon"), bools=_BOOLS),
     dict(beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False)),
    ("ApplyAdamWithAmsgradV2", _rules(U.compute_apply_adam_with_amsgrad_v2, bools=_BOOLS),
     _LOCK),
    ("ApplyAddSign", U.compute_apply_add_sign, {}),
    ("ApplyCenteredRMSProp", _rules(U.compute_apply_centered_rms_prop, bools=_BOOLS), _LOCK),
    ("ApplyFtrl", _rules(U.compute_apply_ftrl, bools=_BOOLS), _LOCK),
    ("ApplyGradientDescent", U.compute_apply_gradient_descent, {}),
    ("ApplyKerasMomentum", _rules(U.compute_apply_keras_momentum,
                                  bools=_BOOLS + ("use_nesterov",)), _LOCK_NESTEROV),
    ("ApplyMomentum", _rules(U.compute_apply_momentum, bools=("use_nesterov", "use_locking"),
                             floats=("gradient_scale",)),
     dict(use_nesterov=False, use_locking=False, gradient_scale=1.0)),
    ("ApplyPowerSign", U.compute_apply_power_sign, {}),
    ("ApplyProximalAdagrad", _rules(U.compute_apply_proximal_adagrad, bools=_BOOLS), _LOCK),
    ("ApplyProximalGradientDescent", U.compute_apply_proximal_gradient_descent, {}),
    ("ApplyRMSProp", _rules(U.compute_apply_rms_prop, bools=_BOOLS), _LOCK),
    ("SGD", U.compute_sgd, dict(dampening=0.0, weight_decay=0.0, nesterov=False)),
    ("SparseApplyAdadelta", _rules(SU.compute_sparse_apply_adadelta, floats=("epsilon",),
                                   bools=_BOOLS, non_negative=("epsilon",)),
     dict(epsilon=None, use_locking=False)),
    ("SparseApplyAdagrad", _rules(SU.compute_sparse_apply_adagrad, floats=("lr",),
                                  bools=("update_slots", "use_locking")),
     dict(lr=None, update_slots=True, use_locking=False)),
    ("SparseApplyAdagradV2", _rules(SU.compute_sparse_apply_adagrad, floats=("lr", "epsilon"),
                                    bools=("use_locking", "update_slots")),
     dict(lr=None, epsilon=None, use_locking=False, update_slots=True)),
    ("SparseApplyFtrl", _rules(SU.compute_sparse_apply_ftrl,
                               floats=("lr", "l1", "l2", "lr_power"), bools=_BOOLS,
                               positive=("lr",), non_negative=("l1", "l2"),
                               non_positive=("lr_power",)),
     dict(lr=None, l1=None, l2=None, lr_power=None, use_locking=False)),
    ("SparseApplyFtrlV2", _rules(SU.compute_sparse_apply_ftrl_v2,
                                 floats=("lr", "l1", "l2", "l2_shrinkage", "lr_power"),
                                 bools=_BOOLS, positive=("lr",), non_negative=("l1", "l2"),
                                 non_positive=("lr_power",)),
     dict(lr=None, l1=None, l2=None, l2_shrinkage=None, lr_power=None, use_locking=False)),
    ("SparseApplyProximalAdagrad", _rules(SU.compute_sparse_apply_proximal_adagrad,
                                          bools=_BOOLS), _LOCK),
    ("SparseApplyRMSProp", _rules(SU.compute_sparse_apply_rms_prop,
                                  floats=("rho", "momentum", "epsilon"), bools=_BOOLS,
                                  positive=("epsilon",), non_negative=("momentum", "rho")),
     dict(rho=None, momentum=None, epsilon=None, use_locking=False)),
    ("FusedSparseAdam", _rules(SU.compute_fused_sparse_adam, bools=_BOOLS + ("use_nesterov",)),
     _LOCK_NESTEROV),
    ("FusedSparseFtrl", _rules(SU.compute_fused_sparse_ftrl,
                               floats=("lr", "l1", "l2", "lr_power"), bools=_BOOLS,
                               positive=("lr",), non_negative=("l1", "l2"),
                               non_positive=("lr_power",)),
     dict(lr=None, l1=None, l2=None, lr_power=None, use_locking=False)),
    ("FusedSparseLazyAdam", _rules(SU.compute_fused_sparse_lazy_adam,
                                   bools=_BOOLS + ("use_nesterov",)), _LOCK_NESTEROV),
    ("FusedSparseProximalAdagrad", _rules(SU.compute_fused_sparse_proximal_adagrad,
                                          bools=_BOOLS), _LOCK),
    ("LARSUpdate", _rules(SU.compute_lars_update, floats=("epsilon", "hyperpara"),
                          bools=("use_clip",)),
     dict(epsilon=1e-05, hyperpara=0.001, use_clip=False)),
    ("FusedAdaFactor", _rules(SU.compute_fused_ada_factor, bools=(
        "enable_scale_parameter", "enable_first_moment", "enable_weight_decay")),
     dict(enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False)),
    ("FusedAdaFactorWithGlobalNorm", _rules(SU.compute_fused_ada_factor_with_global_norm, bools=(
        "enable_scale_parameter", "enable_first_moment", "enable_weight_decay")),
     dict(enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False)),
    ("FusedCastAdamWeightDecay", _rules(SU.compute_fused_cast_adam_weight_decay, bools=_BOOLS),
     _LOCK),
    ("FusedWeightScaleApplyMomentum", SU.compute_fused_weight_scale_apply_momentum, {}),
    ("AssignAdd", _assign("AssignAdd", add), {}),
    ("AssignSub", _assign("AssignSub", sub), {}),
]
