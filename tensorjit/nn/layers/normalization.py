"""BatchNorm1d / BatchNorm2d, LayerNorm, GroupNorm and InstanceNorm1d / 2d / 3d."""
from ... import dtype as dt
from ... import ops
from ...tensor import Parameter
from ..cell import Cell
from ..initializer import initializer
from .. import _checks

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d"]


class _BatchNorm(Cell):
    """Batch normalisation over every axis but the channel axis 1.

    Training (or ``use_batch_statistics=True``) normalises with the batch statistics and
    updates the moving ones in place:
        moving = momentum * moving + (1 - momentum) * batch      (unbiased batch variance)
    Inference (or ``use_batch_statistics=False``) normalises with the moving statistics.
    """
    _ranks = (4,)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=dt.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = _checks.positive_int(num_features, "num_features", name)
        self.eps = _checks.number(eps, "eps", name, 0.0, low_open=True)
        self.momentum = _checks.number(momentum, "momentum", name, 0.0, 1.0)
        self.affine = _checks.boolean(affine, "affine", name)
        if use_batch_statistics not in (None, True, False):
            raise ValueError(f"{name}: 'use_batch_statistics' must be None, True or False, "
                             f"got {use_batch_statistics!r}")
        self.use_batch_statistics = use_batch_statistics
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got "
                             f"{data_format!r}")
        c = self.num_features
        # The moving statistics are state, not trained: requires_grad=False.
        self.moving_mean = Parameter(initializer(moving_mean_init, c, dtype),
                                     name="moving_mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, c, dtype),
                                         name="moving_variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, c, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, c, dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        if x.ndim not in self._ranks or x.shape[1] != self.num_features:
            ranks = " or ".join(f"{r}-D" for r in self._ranks)
            raise ValueError(f"{type(self).__name__}: expected a {ranks} input with "
                             f"{self.num_features} channels on axis 1, got shape "
                             f"{tuple(x.shape)}")
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        # ops.batch_norm weights the *batch* statistic by its momentum argument.
        return ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta,
                              use_batch, momentum=1.0 - self.momentum, eps=self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class BatchNorm2d(_BatchNorm):
    """Batch norm of (N, C, H, W) inputs."""
    _ranks = (4,)


class BatchNorm1d(_BatchNorm):
    """Batch norm of (N, C) or (N, C, L) inputs."""
    _ranks = (2, 3)


class LayerNorm(Cell):
    """Normalise over the axes from ``begin_norm_axis`` on; scale by ``gamma`` and shift by
    ``beta``, which have ``normalized_shape`` = the input's shape from
    ``begin_params_axis`` on."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=dt.float32):
        super().__init__()
        if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)) or not normalized_shape:
            raise TypeError(f"LayerNorm: 'normalized_shape' must be a non-empty tuple or list "
                            f"of ints, got {normalized_shape!r}")
        self.normalized_shape = tuple(
            _checks.positive_int(d, "normalized_shape", "LayerNorm") for d in normalized_shape)
        for arg, value in (("begin_norm_axis", begin_norm_axis),
                           ("begin_params_axis", begin_params_axis)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"LayerNorm: '{arg}' must be an int, got {value!r}")
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = _checks.number(epsilon, "epsilon", "LayerNorm", 0.0, low_open=True)
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype),
                               name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")

    def construct(self, x):
        ndim = x.ndim
        norm_axis = self.begin_norm_axis % ndim if -ndim <= self.begin_norm_axis < ndim else None
        params_axis = (self.begin_params_axis % ndim
                       if -ndim <= self.begin_params_axis < ndim else None)
        if norm_axis is None or params_axis is None \
                or tuple(x.shape[params_axis:]) != self.normalized_shape:
            raise ValueError(f"LayerNorm: input shape {tuple(x.shape)} does not match "
                             f"normalized_shape {self.normalized_shape} with "
                             f"begin_norm_axis={self.begin_norm_axis}, "
                             f"begin_params_axis={self.begin_params_axis}")
        if norm_axis == params_axis:
            return ops.layer_norm(x, self.normalized_shape, self.gamma, self.beta, self.epsilon)
        # Different axes: normalise first, then apply the (broadcast) affine parameters.
        y = ops.layer_norm(x, tuple(x.shape[norm_axis:]), None, None, self.epsilon)
        return y * ops.cast(self.gamma, x.dtype) + ops.cast(self.beta, x.dtype)

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, "
                f"begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma={self.gamma!r}, "
                f"beta={self.beta!r}")


class GroupNorm(Cell):
    """Normalise each of ``num_groups`` groups of channels of each sample over the group's
    channels and spatial axes; then scale by ``gamma`` and shift by ``beta`` per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=dt.float32):
        super().__init__()
        self.num_groups = _checks.positive_int(num_groups, "num_groups", "GroupNorm")
        self.num_channels = _checks.positive_int(num_channels, "num_channels", "GroupNorm")
        if self.num_channels % self.num_groups:
            raise ValueError(f"GroupNorm: num_channels ({self.num_channels}) must be divisible "
                             f"by num_groups ({self.num_groups})")
        self.eps = _checks.number(eps, "eps", "GroupNorm", 0.0, low_open=True)
        self.affine = _checks.boolean(affine, "affine", "GroupNorm")
        c = self.num_channels
        self.gamma = Parameter(initializer(gamma_init, c, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, c, dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        if x.ndim < 2 or x.shape[1] != self.num_channels:
            raise ValueError(f"GroupNorm: expected an input with {self.num_channels} channels "
                             f"on axis 1, got shape {tuple(x.shape)}")
        return ops.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")


class _InstanceNorm(Cell):
    """Normalise every channel of every sample over its spatial axes, in training and in
    inference alike (MindSpore keeps ``mean`` / ``variance`` parameters for checkpoint
    compatibility; they do not affect the result)."""
    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=dt.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = _checks.positive_int(num_features, "num_features", name)
        self.eps = _checks.number(eps, "eps", name, 0.0, low_open=True)
        self.momentum = _checks.number(momentum, "momentum", name, 0.0, 1.0)
        self.affine = _checks.boolean(affine, "affine", name)
        c = self.num_features
        self.moving_mean = Parameter(initializer("zeros", c, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", c, dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, c, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, c, dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        if x.ndim != self._rank or x.shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: expected a {self._rank}-D input with "
                             f"{self.num_features} channels on axis 1, got shape "
                             f"{tuple(x.shape)}")
        if self.affine:
            return ops.instance_norm(x, self.gamma, self.beta, self.eps)
        return ops.instance_norm(x, None, None, self.eps)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, affine={self.affine}"


class InstanceNorm1d(_InstanceNorm):
    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    _rank = 5
