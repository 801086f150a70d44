"""BatchNorm3d, SyncBatchNorm and LRN (local response normalisation), as MindSpore's.

SyncBatchNorm: in one process it is batch normalisation of any rank from 2 to 5. Under the
data-parallel context (``tensorjit.communication`` with ``parallel_mode=DATA_PARALLEL``)
its training statistics span every rank: the per-channel count, sum and sum of squares are
all-reduced (``ops.all_reduce``, differentiable), so each rank normalises with the global
mean and (biased) variance and updates its moving statistics with the unbiased one.
``process_groups`` other than None (all ranks) are not supported across processes.
"""
from ... import dtype as dt
from ... import ops
from ..cell import Cell
from .. import parallel
from .normalization import _BatchNorm

__all__ = ["BatchNorm3d", "SyncBatchNorm", "LRN"]


class BatchNorm3d(_BatchNorm):
    """Batch norm of (N, C, D, H, W) inputs."""
    _ranks = (5,)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=dt.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, "NCHW",
                         dtype)


class SyncBatchNorm(_BatchNorm):
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=dt.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, "NCHW",
                         dtype)
        if process_groups is not None:
            if not isinstance(process_groups, list) or not all(
                    isinstance(g, list) and all(isinstance(r, int) for r in g)
                    for g in process_groups):
                raise TypeError(f"SyncBatchNorm: 'process_groups' must be a list of lists of "
                                f"ranks, got {process_groups!r}")
        self.process_groups = process_groups

    def construct(self, x):
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if not use_batch or parallel.data_parallel_group_size() == 1:
            return super().construct(x)
        if self.process_groups is not None:
            raise ValueError("SyncBatchNorm: only process_groups=None (every rank) is "
                             "supported across processes")
        return self._synced(x, ops.all_reduce)

    def _synced(self, x, all_reduce):
        """Batch norm with statistics summed over ranks by ``all_reduce``."""
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, self.num_features) + (1,) * (x.ndim - 2)
        count = ops.cast(ops.reduce_sum(ops.ones_like(x[:, :1]), axes), x.dtype)
        count = all_reduce(ops.reshape(count, (1,)))
        total = all_reduce(ops.reduce_sum(x, axes))
        squares = all_reduce(ops.reduce_sum(ops.mul(x, x), axes))
        mean = ops.div(total, count)
        var = ops.sub(ops.div(squares, count), ops.mul(mean, mean))
        m = self.momentum
        unbiased = ops.mul(var, ops.div(count, ops.sub(count, 1.0)))
        self.moving_mean.assign_value(ops.add(ops.mul(self.moving_mean, m),
                                              ops.mul(ops.stop_gradient(mean), 1.0 - m)))
        self.moving_variance.assign_value(ops.add(ops.mul(self.moving_variance, m),
                                                  ops.mul(ops.stop_gradient(unbiased), 1.0 - m)))
        normed = ops.div(ops.sub(x, ops.reshape(mean, shape)),
                         ops.sqrt(ops.add(ops.reshape(var, shape), self.eps)))
        return ops.add(ops.mul(normed, ops.reshape(self.gamma, shape)),
                       ops.reshape(self.beta, shape))


class LRN(Cell):
    """Local response normalisation across channels (axis 1 of NCHW input):
    ``x / (bias + alpha * sum_{|j - c| <= depth_radius} x_j^2) ^ beta``."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region="ACROSS_CHANNELS"):
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int):
            raise TypeError(f"LRN: 'depth_radius' must be an int, got {depth_radius!r}")
        if depth_radius < 0:
            raise ValueError(f"LRN: 'depth_radius' must be >= 0, got {depth_radius}")
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(value, float):
                raise TypeError(f"LRN: '{name}' must be a float, got {value!r}")
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"LRN: 'norm_region' must be 'ACROSS_CHANNELS', got "
                             f"{norm_region!r}")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError(f"LRN: expected a 4-D NCHW input, got shape {tuple(x.shape)}")
        r, channels = self.depth_radius, x.shape[1]
        padded = ops.pad(ops.mul(x, x), (0, 0, 0, 0, r, r))
        window = padded[:, 0:channels]
        for k in range(1, 2 * r + 1):
            window = ops.add(window, padded[:, k:k + channels])
        return ops.div(x, ops.pow(ops.add(ops.mul(window, self.alpha), self.bias), self.beta))
