"""TripletMarginWithDistanceLoss, SampledSoftmaxLoss and L1Regularizer, as MindSpore's.

TripletMarginWithDistanceLoss: ``max(d(x, positive) - d(x, negative) + margin, 0)`` with
``d`` the given function (default: the L2 norm of ``|x - y|`` over axis 1); ``swap`` uses
``min(d(x, negative), d(positive, negative))``.

SampledSoftmaxLoss(weights, biases, labels, logits): the softmax cross entropy over each
row's ``num_true`` true classes and ``num_sampled`` shared sampled classes, with logits
``logits . w_c + b_c - log(expected count of c)`` (targets 1 / num_true on the true ones).
``sampled_values`` = (sampled, true_expected_count, sampled_expected_count) fixes the
sample; otherwise it is drawn as MindSpore's ``UniformCandidateSampler(unique=True)`` does:
``num_sampled`` distinct classes uniformly from [0, num_classes) (without the batch's true
classes when ``remove_accidental_hits``), every expected count being
``-expm1(tries * log1p(-1 / num_classes))`` for the number of uniform draws ``tries`` such
a sample takes (drawn too, as a sum of geometric waiting times). The draws use tensorjit's
random ops, so they are fresh at every call, compiled or not.

L1Regularizer: ``scale * sum(|weights|)``.
"""
import math
import numbers

from .. import dtype as dt
from .. import ops
from ..tensor import Tensor
from .cell import Cell
from .loss import LossBase

__all__ = ["TripletMarginWithDistanceLoss", "SampledSoftmaxLoss", "L1Regularizer"]


def _check_tensor(value, name, who):
    if not isinstance(value, Tensor):
        raise TypeError(f"{who}: '{name}' must be a Tensor, got {type(value).__name__}")


def _pairwise_distance(x, y):
    d = ops.abs(ops.sub(x, y))
    if d.ndim == 0:
        raise ValueError("TripletMarginWithDistanceLoss: the inputs must have at least one "
                         "axis for the default distance")
    return ops.sqrt(ops.reduce_sum(ops.mul(d, d), 1))


class TripletMarginWithDistanceLoss(LossBase):
    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"TripletMarginWithDistanceLoss: 'margin' must be a float, got "
                            f"{margin!r}")
        if not isinstance(swap, bool):
            raise TypeError(f"TripletMarginWithDistanceLoss: 'swap' must be a bool, got "
                            f"{swap!r}")
        self.distance_function = distance_function or _pairwise_distance
        self.swap, self.margin = swap, margin

    def construct(self, x, positive, negative):
        for name, value in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor(value, name, "TripletMarginWithDistanceLoss")
        d_pos = self.distance_function(x, positive)
        d_neg = self.distance_function(x, negative)
        if self.swap:
            d_neg = ops.minimum(d_neg, self.distance_function(positive, negative))
        return self.get_loss(ops.maximum(ops.add(ops.sub(d_pos, d_neg), self.margin), 0.0))


class SampledSoftmaxLoss(LossBase):
    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None,
                 remove_accidental_hits=True, seed=0, reduction="none"):
        super().__init__(reduction)
        who = "SampledSoftmaxLoss"
        for name, value in (("num_sampled", num_sampled), ("num_classes", num_classes),
                            ("num_true", num_true), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{who}: '{name}' must be an int, got {value!r}")
        if num_true < 1:
            raise ValueError(f"{who}: 'num_true' must be >= 1, got {num_true}")
        if seed < 0:
            raise ValueError(f"{who}: 'seed' must be >= 0, got {seed}")
        if num_sampled > num_classes:
            raise ValueError(f"{who}: 'num_sampled' ({num_sampled}) must not exceed "
                             f"'num_classes' ({num_classes})")
        if num_true > num_classes:
            raise ValueError(f"{who}: 'num_true' ({num_true}) must not exceed 'num_classes' "
                             f"({num_classes})")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"{who}: 'sampled_values' must be a list or tuple, got "
                                f"{type(sampled_values).__name__}")
            if len(sampled_values) != 3:
                raise ValueError(f"{who}: 'sampled_values' must hold 3 values, got "
                                 f"{len(sampled_values)}")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed

    def _sample(self, labels_flat):
        """(sampled, true expected count, sampled expected count), drawn uniformly."""
        n, k = self.num_classes, self.num_sampled
        classes = ops.cast(ops.arange(n), dt.int32)
        if self.remove_accidental_hits:
            excluded = ops.any(ops.equal(ops.expand_dims(classes, 1),
                                                ops.expand_dims(labels_flat, 0)), 1)
        else:
            excluded = ops.zeros((n,), dt.bool_)
        keys = ops.where(excluded, -1.0, ops.rand(n, dtype=dt.float32))
        sampled = ops.cast(ops.topk(keys, k)[1], dt.int32)
        available = ops.sub(float(n), ops.reduce_sum(ops.cast(excluded, dt.float32)))
        # draws until the j-th new class: geometric with success (available - j) / n
        success = ops.div(ops.sub(available, ops.cast(ops.arange(k), dt.float32)), float(n))
        u = ops.sub(1.0, ops.rand(k, dtype=dt.float32))          # in (0, 1]
        waits = ops.where(ops.ge(success, 1.0), ops.ones_like(success),
                          ops.ceil(ops.div(ops.log(u), ops.log1p(ops.neg(ops.minimum(
                              success, 1.0 - 1e-7))))))
        tries = ops.reduce_sum(ops.maximum(waits, 1.0))
        expected = ops.neg(ops.expm1(ops.mul(tries, math.log1p(-1.0 / n))))
        true_expected = ops.fill(dt.float32, (labels_flat.shape[0] // self.num_true,
                                              self.num_true), 1.0) * expected
        return sampled, true_expected, ops.mul(ops.ones((k,), dt.float32), expected)

    def construct(self, weights, biases, labels, logits):
        who = "SampledSoftmaxLoss"
        for name, value in (("weights", weights), ("biases", biases), ("labels", labels),
                            ("logits", logits)):
            _check_tensor(value, name, who)
        if labels.dtype not in (dt.int32, dt.int64):
            raise TypeError(f"{who}: 'labels' must be int32 or int64, got {labels.dtype}")
        labels = ops.reshape(ops.cast(labels, dt.int32), (-1, self.num_true))
        labels_flat = ops.reshape(labels, (-1,))
        if self.sampled_values is None:
            sampled, true_expected, sampled_expected = self._sample(labels_flat)
        else:
            sampled, true_expected, sampled_expected = self.sampled_values
            sampled = ops.cast(sampled, dt.int32)
        dim = weights.shape[1]
        true_w = ops.reshape(ops.gather(weights, labels_flat, 0), (-1, self.num_true, dim))
        true_logits = ops.add(ops.reduce_sum(ops.mul(ops.expand_dims(logits, 1), true_w), 2),
                              ops.reshape(ops.gather(biases, labels_flat, 0),
                                          (-1, self.num_true)))
        sampled_logits = ops.add(ops.matmul(logits, ops.transpose(
            ops.gather(weights, sampled, 0), (1, 0))), ops.gather(biases, sampled, 0))
        true_logits = ops.sub(true_logits, ops.log(ops.cast(true_expected, logits.dtype)))
        sampled_logits = ops.sub(sampled_logits,
                                 ops.log(ops.cast(sampled_expected, logits.dtype)))
        all_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.div(ops.ones_like(true_logits), float(self.num_true)),
                              ops.zeros_like(sampled_logits)), 1)
        shifted = ops.exp(ops.sub(all_logits, ops.reduce_max(all_logits, 1, True)))
        probs = ops.div(shifted, ops.reduce_sum(shifted, 1, True))
        loss = ops.neg(ops.reduce_sum(ops.mul(targets, ops.log(ops.add(probs, 1e-20))), 1))
        return self.get_loss(loss)


class L1Regularizer(Cell):
    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
            raise TypeError(f"L1Regularizer: 'scale' must be an int or float, got {scale!r}")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"L1Regularizer: 'scale' must be finite, got {scale}")
        if scale <= 0:
            raise ValueError(f"L1Regularizer: 'scale' must be > 0, got {scale}")
        self.scale = float(scale)

    def construct(self, weights):
        dtype = dt.promote_types(weights.dtype, dt.float32)
        return ops.mul(ops.reduce_sum(ops.abs(ops.cast(weights, dtype))), self.scale)
