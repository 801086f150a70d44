"""MindSpore's sparse and fused optimizer-update classes (``SparseApplyFtrl``,
``FusedSparseAdam``, ``FusedAdaFactor``, ``LARSUpdate``, ...), over the update rules of
``optimizer_updates.py``.

A sparse gradient (rows ``grad[k]`` for the rows ``indices[k]`` of ``var``) is made dense
by a scatter-add -- rows named twice have their gradients summed, as the ``FusedSparse*``
kernels merge duplicates (MindSpore leaves duplicates undefined for the others) -- and the
dense rule is computed on every row; a row the gradient does not name keeps its old
values (``where`` on a per-row mask), except in ``FusedSparseAdam``, which, as its kernel,
decays the moments of every row and moves every row of ``var``. Shapes stay static, so
every class compiles in every capture mode.
"""
from .. import dtype as dt
from ..tensor import Tensor
from . import elementwise as E
from . import reduction as R
from . import shape as S
from .creation import zeros
from .scattering import tensor_scatter_add
from .optimizer_updates import (state, hyper, write, adam_moments, adam_step, adam_direction,
                                adagrad, adadelta, rmsprop, ftrl, proximal_adagrad,
                                adam_weight_decay, momentum_update)

_INDICES = (dt.int32, dt.int64)


def rows_of(op, var, grad, indices, index_dtypes=_INDICES):
    """(dense gradient, mask of the rows named, broadcastable to var) of a sparse gradient."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"For '{op}', 'indices' must be a Tensor, got {type(indices).__name__}.")
    if indices.dtype not in index_dtypes:
        raise TypeError(f"For '{op}', the dtype of 'indices' must be one of "
                        f"{[str(d) for d in index_dtypes]}, but got {indices.dtype}.")
    if len(indices.shape) != 1:
        raise ValueError(f"For '{op}', 'indices' must be 1-D, got shape {tuple(indices.shape)}.")
    if len(var.shape) < 1 or tuple(grad.shape[1:]) != tuple(var.shape[1:]) or \
            grad.shape[0] != indices.shape[0]:
        raise ValueError(f"For '{op}', 'grad' must have the shape (len(indices),) + "
                         f"var.shape[1:] = {(indices.shape[0],) + tuple(var.shape[1:])}, but "
                         f"got {tuple(grad.shape)}.")
    at = S.expand_dims(indices, -1)
    dense = tensor_scatter_add(E.zeros_like(var), at, grad)
    hits = tensor_scatter_add(zeros((var.shape[0],), var.dtype), at,
                              E.ones_like(indices).astype(var.dtype))
    mask = S.reshape(E.greater(hits, 0.0), (var.shape[0],) + (1,) * (len(var.shape) - 1))
    return dense, mask


def _sparse_inputs(op, var, named_states, grad, indices, dtypes=(dt.float16, dt.float32)):
    var = state(op, "var", var, dtypes=dtypes)
    states = [state(op, name, s, var, dtypes) for name, s in named_states]
    grad = state(op, "grad", grad, dtypes=dtypes)
    dense, mask = rows_of(op, var, grad, indices)
    return var, states, dense, mask


def _write_rows(mask, targets, news):
    """Each target keeps its rows outside ``mask`` and takes ``news`` on the rows in it."""
    return write(*[(t, E.where(mask, n, t)) for t, n in zip(targets, news)])


def compute_sparse_apply_adagrad(var, accum, grad, indices, *, lr, update_slots, use_locking,
                                 epsilon=None):
    """Adagrad (V2: epsilon) on the rows of ``indices``; new var, accum."""
    op = "SparseApplyAdagrad" if epsilon is None else "SparseApplyAdagradV2"
    var, (accum,), g, mask = _sparse_inputs(op, var, (("accum", accum),), grad, indices)
    eps = None if epsilon is None else Tensor(epsilon, var.dtype)
    new = adagrad(var, accum, Tensor(lr, var.dtype), g, eps, update_slots)
    return _write_rows(mask, (var, accum), new)


def compute_sparse_apply_adadelta(var, accum, accum_update, lr, rho, grad, indices, *,
                                  epsilon, use_locking):
    """Adadelta on the rows of ``indices``; new var, accum, accum_update."""
    op = "SparseApplyAdadelta"
    var, (accum, accum_update), g, mask = _sparse_inputs(
        op, var, (("accum", accum), ("accum_update", accum_update)), grad, indices)
    lr, rho = hyper(op, "lr", lr, var.dtype), hyper(op, "rho", rho, var.dtype)
    new = adadelta(var, accum, accum_update, g, lr, rho, Tensor(epsilon, var.dtype))
    return _write_rows(mask, (var, accum, accum_update), new)


def _ftrl_rows(op, var, accum, linear, grad, indices, lr, l1, l2, lr_power, l2_shrinkage=None,
               dtypes=(dt.float16, dt.float32)):
    var, (accum, linear), g, mask = _sparse_inputs(
        op, var, (("accum", accum), ("linear", linear)), grad, indices, dtypes)
    h = [Tensor(x, var.dtype) for x in (lr, l1, l2, lr_power)]
    shrink = None if l2_shrinkage is None else Tensor(l2_shrinkage, var.dtype)
    new = ftrl(var, accum, linear, g, *h, l2_shrinkage=shrink)
    return _write_rows(mask, (var, accum, linear), new)


def compute_sparse_apply_ftrl(var, accum, linear, grad, indices, *, lr, l1, l2, lr_power,
                              use_locking):
    """FTRL-proximal on the rows of ``indices``; new var, accum, linear."""
    return _ftrl_rows("SparseApplyFtrl", var, accum, linear, grad, indices, lr, l1, l2,
                      lr_power)


def compute_sparse_apply_ftrl_v2(var, accum, linear, grad, indices, *, lr, l1, l2,
                                 l2_shrinkage, lr_power, use_locking):
    """FTRL-proximal with L2 shrinkage (g + 2 l2_shrinkage var in the linear term) on the
    rows of ``indices``; new var, accum, linear."""
    return _ftrl_rows("SparseApplyFtrlV2", var, accum, linear, grad, indices, lr, l1, l2,
                      lr_power, l2_shrinkage)


def compute_fused_sparse_ftrl(var, accum, linear, grad, indices, *, lr, l1, l2, lr_power,
                              use_locking):
    """FTRL-proximal on the rows of ``indices`` (duplicates merged); new var, accum, linear."""
    return _ftrl_rows("FusedSparseFtrl", var, accum, linear, grad, indices, lr, l1, l2,
                      lr_power, dtypes=(dt.float32,))


def _proximal_adagrad_rows(op, var, accum, lr, l1, l2, grad, indices, dtypes):
    var, (accum,), g, mask = _sparse_inputs(op, var, (("accum", accum),), grad, indices, dtypes)
    lr, l1, l2 = (hyper(op, k, x, var.dtype) for k, x in (("lr", lr), ("l1", l1), ("l2", l2)))
    return _write_rows(mask, (var, accum), proximal_adagrad(var, accum, lr, l1, l2, g))


def compute_sparse_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, *,
                                          use_locking):
    """Proximal Adagrad on the rows of ``indices``; new var, accum."""
    return _proximal_adagrad_rows("SparseApplyProximalAdagrad", var, accum, lr, l1, l2, grad,
                                  indices, (dt.float16, dt.float32))


def compute_fused_sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, *,
                                          use_locking):
    """Proximal Adagrad on the rows of ``indices`` (duplicates merged); new var, accum."""
    return _proximal_adagrad_rows("FusedSparseProximalAdagrad", var, accum, lr, l1, l2, grad,
                                  indices, (dt.float32,))


def compute_sparse_apply_rms_prop(var, ms, mom, lr, grad, indices, *, rho, momentum, epsilon,
                                  use_locking):
    """RMSProp on the rows of ``indices``; new var, ms, mom."""
    op = "SparseApplyRMSProp"
    var, (ms, mom), g, mask = _sparse_inputs(op, var, (("ms", ms), ("mom", mom)), grad, indices)
    lr = hyper(op, "lr", lr, var.dtype)
    new_var, new_ms, new_mom, _ = rmsprop(var, ms, mom, g, lr, Tensor(rho, var.dtype),
                                          Tensor(momentum, var.dtype),
                                          Tensor(epsilon, var.dtype))
    return _write_rows(mask, (var, ms, mom), (new_var, new_ms, new_mom))


def _fused_sparse_adam(op, lazy, var, m, v, beta1_power, beta2_power, lr, beta1, beta2,
                       epsilon, grad, indices, use_nesterov):
    var, (m, v), g, mask = _sparse_inputs(op, var, (("m", m), ("v", v)), grad, indices,
                                          (dt.float32,))
    b1p, b2p, lr, b1, b2, eps = (hyper(op, k, x, var.dtype) for k, x in (
        ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr),
        ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
    new_m, new_v = adam_moments(m, v, g, b1, b2)
    direction = adam_direction(new_m, g, b1, use_nesterov)
    if use_nesterov and not lazy:     # the kernel's look-ahead exists on the named rows only
        direction = E.where(mask, direction, E.zeros_like(direction))
    step = adam_step(lr, b1p, b2p)
    new_var = E.sub(var, E.mul(step, E.div(direction, E.add(E.sqrt(new_v), eps))))
    if lazy:
        return _write_rows(mask, (var, m, v), (new_var, new_m, new_v))
    return write((var, new_var), (m, new_m), (v, new_v))


def compute_fused_sparse_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                              grad, indices, *, use_locking, use_nesterov):
    """Adam with a sparse gradient (duplicates merged), every row's moments decayed; new
    var, m, v."""
    return _fused_sparse_adam("FusedSparseAdam", False, var, m, v, beta1_power, beta2_power,
                              lr, beta1, beta2, epsilon, grad, indices, use_nesterov)


def compute_fused_sparse_lazy_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2,
                                   epsilon, grad, indices, *, use_locking, use_nesterov):
    """Adam on the rows of ``indices`` only (duplicates merged); new var, m, v."""
    return _fused_sparse_adam("FusedSparseLazyAdam", True, var, m, v, beta1_power, beta2_power,
                              lr, beta1, beta2, epsilon, grad, indices, use_nesterov)


def compute_fused_cast_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay,
                                         gradient, global_norm, *, use_locking):
    """AdamWeightDecay computed in float32 for a float16 or float32 ``var`` and gradient,
    the gradient divided by ``global_norm``; new var, m, v."""
    op = "FusedCastAdamWeightDecay"
    var = state(op, "var", var, dtypes=(dt.float16, dt.float32))
    m = state(op, "m", m, var, (dt.float32,))
    v = state(op, "v", v, var, (dt.float32,))
    g = state(op, "gradient", gradient, var, (dt.float16, dt.float32))
    h = [hyper(op, k, x, dt.float32) for k, x in (("lr", lr), ("beta1", beta1),
                                                   ("beta2", beta2), ("epsilon", epsilon),
                                                   ("decay", decay))]
    g = E.div(E.cast(g, dt.float32), hyper(op, "global_norm", global_norm, dt.float32))
    new_var, new_m, new_v = adam_weight_decay(E.cast(var, dt.float32), m, v, g, *h)
    return write((var, E.cast(new_var, var.dtype)), (m, new_m), (v, new_v))


def compute_fused_weight_scale_apply_momentum(weight_decay, loss_scale, variable, accumulation,
                                              learning_rate, gradient, momentum):
    """Momentum on the gradient g loss_scale + weight_decay variable (``loss_scale`` the
    factor that undoes the loss scaling); returns the variable's new value."""
    op = "FusedWeightScaleApplyMomentum"
    dtypes = (dt.float16, dt.float32)
    var = state(op, "variable", variable, dtypes=dtypes)
    accum = state(op, "accumulation", accumulation, var, dtypes)
    g = state(op, "gradient", gradient, var, dtypes)
    decay, scale, lr, mom = (hyper(op, k, x, var.dtype) for k, x in (
        ("weight_decay", weight_decay), ("loss_scale", loss_scale),
        ("learning_rate", learning_rate), ("momentum", momentum)))
    g = E.add(E.mul(g, scale), E.mul(var, decay))
    new_var, new_accum = momentum_update(var, accum, lr, g, mom, False)
    return write((var, new_var), (accum, new_accum))[0]


def compute_lars_update(weight, gradient, norm_weight, norm_gradient, weight_decay,
                        learning_rate, *, epsilon, hyperpara, use_clip):
    """LARS: c = hyperpara ||w|| / (||g|| + wd ||w|| + epsilon) from the sums of squares
    (clip(c / lr, 0, 1) with use_clip); returns c (g + wd w), the new gradient."""
    op = "LARSUpdate"
    w = state(op, "weight", weight)
    g = state(op, "gradient", gradient, w)
    w_norm = E.sqrt(hyper(op, "norm_weight", norm_weight, w.dtype))
    g_norm = E.sqrt(hyper(op, "norm_gradient", norm_gradient, w.dtype))
    decay = hyper(op, "weight_decay", weight_decay, w.dtype)
    lr = hyper(op, "learning_rate", learning_rate, w.dtype)
    coeff = E.div(E.mul(w_norm, hyperpara), E.add(E.add(g_norm, E.mul(w_norm, decay)), epsilon))
    if use_clip:
        coeff = E.clamp(E.div(coeff, lr), 0.0, 1.0)
    return E.mul(E.add(g, E.mul(w, decay)), coeff)


def _rms(x):
    return E.sqrt(R.mean(E.square(x)))


def _ada_factor(op, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate, grad,
                param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, global_norm, flags):
    """Adafactor as MindSpore's CPU kernel, in float32: the second moment factored into
    row and column means for a param of rank >= 2 (its exp_avg_sq untouched), whole
    otherwise; the update clipped to RMS <= clip_threshold; optional first moment, the
    learning rate scaled by max(eps2, RMS(param)), and decoupled weight decay."""
    scale_parameter, first_moment, decay_weight = flags
    f32 = dt.float32
    p = state(op, "param", param)
    g = E.cast(state(op, "gradient", grad, p), f32)
    eps = E.cast(state(op, "epsilon", epsilon), f32)
    eps1, eps2 = S.reshape(eps[0:1], ()), S.reshape(eps[1:2], ())
    clip, b1, b2, wd, lr = (hyper(op, k, x, f32) for k, x in (
        ("clip_threshold", clip_threshold), ("beta1", beta1), ("beta2t", beta2t),
        ("weight_decay", weight_decay), ("learning_rate", learning_rate)))
    if global_norm is not None:
        norm = hyper(op, "global_norm", global_norm, f32)
        g = E.div(g, E.where(E.less(norm, 1e-30), E.ones_like(norm), norm))
    squared = E.add(E.square(g), eps1)
    keep = E.sub(1.0, b2)
    writes = []
    if len(p.shape) >= 2:
        row = E.add(E.mul(E.cast(exp_avg_sq_row, f32), b2), E.mul(R.mean(squared, -1), keep))
        col = E.add(E.mul(E.cast(exp_avg_sq_col, f32), b2), E.mul(R.mean(squared, -2), keep))
        col = E.maximum(col, 1e-30)
        row_mean = E.maximum(R.mean(row, -1, keep_dims=True), 1e-30)
        norm = E.mul(S.expand_dims(E.sqrt(E.div(row, row_mean)), -1),
                     S.expand_dims(E.sqrt(col), -2))
        update = E.div(g, E.maximum(norm, 1e-30))
        writes += [(exp_avg_sq_row, E.cast(row, exp_avg_sq_row.dtype)),
                   (exp_avg_sq_col, E.cast(col, exp_avg_sq_col.dtype))]
    else:
        sq = E.maximum(E.add(E.mul(E.cast(exp_avg_sq, f32), b2), E.mul(squared, keep)), 1e-30)
        update = E.div(g, E.sqrt(sq))
        writes.append((exp_avg_sq, E.cast(sq, exp_avg_sq.dtype)))
    p32 = E.cast(p, f32)
    if scale_parameter:
        lr = E.mul(lr, E.maximum(eps2, _rms(p32)))
    update = E.mul(update, E.div(lr, E.maximum(E.div(_rms(update), clip), 1.0)))
    if first_moment:
        update = E.add(E.mul(E.cast(exp_avg, f32), b1), E.mul(update, E.sub(1.0, b1)))
        writes.append((exp_avg, E.cast(update, exp_avg.dtype)))
    if decay_weight:
        update = E.add(update, E.mul(E.mul(p32, wd), lr))
    new_param = E.cast(E.sub(p32, update), p.dtype)
    write((p, new_param), *writes)
    return new_param


def compute_fused_ada_factor(epsilon, clip_threshold, beta1, beta2, weight_decay,
                             learning_rate, gradient, param, exp_avg, exp_avg_sq_row,
                             exp_avg_sq_col, exp_avg_sq, *, enable_scale_parameter,
                             enable_first_moment, enable_weight_decay):
    """Adafactor: updates param and its states; returns param's new value."""
    return _ada_factor("FusedAdaFactor", epsilon, clip_threshold, beta1, beta2, weight_decay,
                       learning_rate, gradient, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col,
                       exp_avg_sq, None, (enable_scale_parameter, enable_first_moment,
                                          enable_weight_decay))


def compute_fused_ada_factor_with_global_norm(epsilon, clip_threshold, beta1, beta2,
                                              weight_decay, learning_rate, gradient, param,
                                              exp_avg, exp_avg_sq_row, exp_avg_sq_col,
                                              exp_avg_sq, global_norm, *,
                                              enable_scale_parameter, enable_first_moment,
                                              enable_weight_decay):
    """Adafactor on the gradient divided by ``global_norm`` (unless it is below 1e-30)."""
    return _ada_factor("FusedAdaFactorWithGlobalNorm", epsilon, clip_threshold, beta1, beta2,
                       weight_decay, learning_rate, gradient, param, exp_avg, exp_avg_sq_row,
                       exp_avg_sq_col, exp_avg_sq, global_norm,
                       (enable_scale_parameter, enable_first_moment, enable_weight_decay))
