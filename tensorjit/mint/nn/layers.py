"""``mint.nn`` layers: ``nn.Cell``s with PyTorch's constructor arguments and MindSpore
mint's parameter names (``weight`` / ``bias``, ``running_mean`` / ``running_var`` /
``num_batches_tracked``), so checkpoints written by MindSpore's mint layers load.

Layers without parameters are one table (``_STATELESS``: class name, functional, its
constructor signature) made into classes by ``_functional_cell``; each call passes the
input and the stored constructor arguments to the functional. Layers whose constructor is
the same as ``tensorjit.nn``'s are nn's classes (``SHARED_WITH_NN``); layers with
parameters are in ``_parametric``.
"""
from ... import ops
from ...nn.cell import Cell
from ...nn.layers.linear import Linear
from ...nn.layers.basic import Identity
from ...nn.layers.activation import ReLU
from ...nn.losses_extra import SoftMarginLoss
from ...nn.layers.pooling import AdaptiveAvgPool2d
from ...nn.layers.pooling_extra import AdaptiveMaxPool2d, MaxUnpool2d
from ...nn.layers.resize import Upsample, PixelShuffle
from ...nn.layers.padding import (LAYERS as PADDING_LAYERS, ConstantPad1d, ConstantPad2d,
                                  ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                                  ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                                  ReplicationPad3d, ZeroPad2d)
from .._translate import signature_of, bind
from . import functional as F
# layers with parameters (convolutions, normalisation, PReLU)
from ._parametric import (Conv1d, Conv2d, Conv3d, ConvTranspose2d, BatchNorm1d, BatchNorm2d,
                          BatchNorm3d, SyncBatchNorm, GroupNorm, PReLU)


# tensorjit.nn classes mint.nn uses as they are: the first five are one class in MindSpore
# 2.10 too; the rest are separate classes there with the same constructor and behaviour
SHARED_WITH_NN = ("Linear", "Identity", "ReLU", "AdaptiveMaxPool2d", "SoftMarginLoss",
                  "AdaptiveAvgPool2d", "MaxUnpool2d", "Upsample", "PixelShuffle",
                  *PADDING_LAYERS)


def _functional_cell(name, function, spec, summary, example):
    """A Cell class ``name(spec)`` whose ``construct(x)`` is ``function(x, **arguments)``."""
    signature = signature_of("self" + (", " + spec if spec else ""))

    def __init__(self, *args, **kwargs):
        Cell.__init__(self)
        arguments = bind(f"mint.nn.{name}", signature, (self,) + args, kwargs)
        arguments.pop("self")
        self.arguments = arguments

    def construct(self, input):
        return function(input, **self.arguments)

    def extend_repr(self):
        return ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())

    doc = (f"{summary}\n\n``mint.nn.{name}({spec})``.\n\n>>> import tensorjit as ms\n"
           f">>> from tensorjit import mint\n>>> out = {example}")
    return type(name, (Cell,), {"__init__": __init__, "construct": construct,
                                "extend_repr": extend_repr, "__doc__": doc,
                                "__module__": "tensorjit.mint.nn"})


_V = "ms.Tensor([-1., 2.])"
_IMG = "ms.Tensor(np.ones((1, 1, 4, 4), np.float32))"
_SEQ = "ms.Tensor(np.ones((1, 1, 4), np.float32))"
_VOL = "ms.Tensor(np.ones((1, 1, 2, 4, 4), np.float32))"


# (class name, functional, constructor signature, summary, example)
_STATELESS = [
    ("ReLU6", F.relu6, "inplace=False", "``relu6``.", f"mint.nn.ReLU6()({_V})"),
    ("SiLU", F.silu, "inplace=False", "``silu``.", f"mint.nn.SiLU()({_V})"),
    ("Sigmoid", ops.sigmoid, "", "``sigmoid``.", f"mint.nn.Sigmoid()({_V})"),
    ("Tanh", ops.tanh, "", "``tanh``.", f"mint.nn.Tanh()({_V})"),
    ("Mish", ops.mish, "", "``x * tanh(softplus(x))``.", f"mint.nn.Mish()({_V})"),
    ("SELU", ops.selu, "", "Scaled ELU.", f"mint.nn.SELU()({_V})"),
    ("LogSigmoid", ops.logsigmoid, "", "``log(sigmoid(x))``.", f"mint.nn.LogSigmoid()({_V})"),
    ("Hardsigmoid", ops.hardsigmoid, "", "``relu6(x + 3) / 6``.",
     f"mint.nn.Hardsigmoid()({_V})"),
    ("Hardswish", ops.hardswish, "", "``x * relu6(x + 3) / 6``.",
     f"mint.nn.Hardswish()({_V})"),
    ("Hardshrink", getattr(ops, "hardshrink", None), "lambd=0.5",
     "``x`` where ``|x| > lambd``, else 0.", f"mint.nn.Hardshrink()({_V})"),
    ("ELU", F.elu, "alpha=1.0, inplace=False", "``elu``.", f"mint.nn.ELU()({_V})"),
    ("GELU", F.gelu, "approximate='none'", "``gelu``.", f"mint.nn.GELU()({_V})"),
    ("Hardtanh", F.hardtanh, "min_val=-1.0, max_val=1.0, inplace=False", "``hardtanh``.",
     f"mint.nn.Hardtanh()({_V})"),
    ("Threshold", F.threshold, "threshold, value, inplace=False", "``threshold``.",
     f"mint.nn.Threshold(0.5, 0.)({_V})"),
    ("Softmax", F.softmax, "dim=None", "``softmax`` along ``dim``.",
     f"mint.nn.Softmax(dim=0)({_V})"),
    ("LogSoftmax", F.log_softmax, "dim=None", "``log_softmax`` along ``dim``.",
     f"mint.nn.LogSoftmax(dim=0)({_V})"),
    ("Flatten", F.flatten, "start_dim=1, end_dim=-1", "``flatten`` (from axis 1).",
     f"mint.nn.Flatten()({_IMG})"),
    ("Unfold", F.unfold, "kernel_size, dilation=1, padding=0, stride=1",
     "Sliding blocks (``unfold``).", f"mint.nn.Unfold(2)({_IMG})"),
    ("Fold", F.fold, "output_size, kernel_size, dilation=1, padding=0, stride=1",
     "Sum blocks into an image (``fold``).",
     "mint.nn.Fold((3, 3), 2)(ms.Tensor(np.ones((1, 4, 4), np.float32)))"),
    ("AvgPool2d", F.avg_pool2d, "kernel_size, stride=None, padding=0, ceil_mode=False, "
     "count_include_pad=True, divisor_override=None", "``avg_pool2d``.",
     f"mint.nn.AvgPool2d(2)({_IMG})"),
]
# pooling layers: (class, functional name, constructor signature, example input)
_POOLING = [
    ("AvgPool1d", "avg_pool1d", "kernel_size, stride=None, padding=0, ceil_mode=False, "
     "count_include_pad=True", _SEQ),
    ("AvgPool3d", "avg_pool3d", "kernel_size, stride=None, padding=0, ceil_mode=False, "
     "count_include_pad=True, divisor_override=None", _VOL),
    ("AdaptiveAvgPool1d", "adaptive_avg_pool1d", "output_size", _SEQ),
    ("AdaptiveAvgPool3d", "adaptive_avg_pool3d", "output_size", _VOL),
    ("AdaptiveMaxPool1d", "adaptive_max_pool1d", "output_size, return_indices=False", _SEQ),
]
_PAIR = "ms.Tensor([0.2, 0.7]), ms.Tensor([0., 1.])"
# (class, functional, constructor signature[, example inputs]): called as loss(input, target)
_LOSSES = [
    ("L1Loss", ops.l1_loss, "reduction='mean'"),
    ("MSELoss", F.mse_loss, "reduction='mean'"),
    ("SmoothL1Loss", lambda input, target, reduction, beta: ops.smooth_l1_loss(
        input, target, beta, reduction), "reduction='mean', beta=1.0"),
    ("BCELoss", F.binary_cross_entropy, "weight=None, reduction='mean'"),
    ("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
     "weight=None, reduction='mean', pos_weight=None"),
    ("KLDivLoss", F.kl_div, "reduction='mean', log_target=False"),
    ("CosineEmbeddingLoss", F.cosine_embedding_loss, "margin=0.0, reduction='mean'",
     "ms.Tensor([[0.2, 0.7]]), ms.Tensor([[1., 0.5]]), ms.Tensor([1.])"),
]


def _loss_cell(name, function, spec, inputs=_PAIR):
    signature = signature_of("self, " + spec)

    def __init__(self, *args, **kwargs):
        Cell.__init__(self)
        arguments = bind(f"mint.nn.{name}", signature, (self,) + args, kwargs)
        arguments.pop("self")
        self.arguments = arguments

    def construct(self, *inputs):
        return function(*inputs, **self.arguments)

    doc = (f"A loss cell: ``{name}({spec})(input, target)``.\n\n>>> import tensorjit as ms\n"
           f">>> from tensorjit import mint\n"
           f">>> out = mint.nn.{name}()({inputs})")
    return type(name, (Cell,), {"__init__": __init__, "construct": construct, "__doc__": doc,
                                "__module__": "tensorjit.mint.nn"})


def _build():
    made = {}
    for name, function, spec, summary, example in _STATELESS:
        if function is not None:
            made[name] = _functional_cell(name, function, spec, summary, example)
    for name, function_name, spec, example in _POOLING:
        made[name] = _functional_cell(name, getattr(F, function_name), spec,
                                      f"``{function_name}``.", f"mint.nn.{name}(2)({example})")
    for name, function, spec, *inputs in _LOSSES:
        made[name] = _loss_cell(name, function, spec, *inputs)
    return made


globals().update(_build())


class MaxPool2d(Cell):
    """``max_pool2d`` as a layer (``return_indices``: (values, indices)).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.MaxPool2d(2)(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)))
    """

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.arguments = dict(kernel_size=kernel_size, stride=stride, padding=padding,
                              dilation=dilation, return_indices=return_indices,
                              ceil_mode=ceil_mode)

    def construct(self, input):
        return F.max_pool2d(input, **self.arguments)


class CrossEntropyLoss(Cell):
    """``cross_entropy`` as a loss cell (PyTorch's arguments).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.CrossEntropyLoss()(ms.Tensor([[1., 2.]]), ms.Tensor([1]))
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__()
        self.weight, self.ignore_index = weight, ignore_index
        self.reduction, self.label_smoothing = reduction, label_smoothing

    def construct(self, input, target):
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                               self.label_smoothing)


class NLLLoss(CrossEntropyLoss):
    """``nll_loss`` as a loss cell.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.NLLLoss()(ms.Tensor([[-1., -0.5]]), ms.Tensor([1]))
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(weight, ignore_index, reduction)

    def construct(self, input, target):
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


# ---- padding: nn's layers (same constructors); zeros on 1 or 3 axes are mint's only -------
class ZeroPad1d(ConstantPad1d):
    """Pad the last axis with zeros: ``padding`` an int or (left, right).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.ZeroPad1d(1)(ms.Tensor(np.ones((1, 2, 3), np.float32)))
    """

    def __init__(self, padding):
        super().__init__(padding, 0)


class ZeroPad3d(ConstantPad3d):
    """Pad the last 3 axes with zeros: ``padding`` an int or (left, right, top, bottom,
    front, back).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.ZeroPad3d(1)(ms.Tensor(np.ones((1, 2, 3, 3, 3), np.float32)))
    """

    def __init__(self, padding):
        super().__init__(padding, 0)


class UpsamplingNearest2d(Cell):
    """Nearest-neighbour 2-D upsampling to ``size`` or by ``scale_factor``.

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.UpsamplingNearest2d(scale_factor=2.0)(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))
    """
    _mode, _align = "nearest", None

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return ops.interpolate(input, self.size, self.scale_factor, self._mode, self._align)


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """Bilinear 2-D upsampling (``align_corners=True``, as PyTorch's).

    >>> import tensorjit as ms
    >>> from tensorjit import mint
    >>> out = mint.nn.UpsamplingBilinear2d(scale_factor=2.0)(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))
    """
    _mode, _align = "bilinear", True
