"""MindSpore's remaining nn operator classes as rows for the factory of ``operations.py``
(class name, compute, attributes with MindSpore 2.10's defaults). ``Gelu`` / ``FastGelu``
are MindSpore's deprecated spellings of ``GeLU`` / ``FastGeLU``. Classes without a
MindSpore CPU kernel (RmsNorm, SoftMarginLoss, TripletMarginLoss, MultilabelMarginLoss,
LogSoftmaxExt, ExtractImagePatches) follow the documented formulas and are checked in
tests/core/test_nn_classes.py."""
from . import activation as A
from . import class_computes as X
from . import nn_class_computes as NC
from . import conv_transposed as CT
from . import patches as P
from . import ctc_classes as CC
from . import fractional_classes as FC
from . import deformable as DF

__all__ = ["ROWS"]

_CONV2D_TRANSPOSE = dict(out_channel=None, kernel_size=None, pad_mode="valid", pad=0,
                         pad_list=None, mode=1, stride=1, dilation=1, group=1,
                         data_format="NCHW")

ROWS = [
    ("Gelu", X.compute_gelu, {}),
    ("FastGelu", A.fast_gelu, {}),
    ("SigmoidCrossEntropyWithLogits", NC.compute_sigmoid_cross_entropy, {}),
    ("Dropout2D", NC.compute_channel_dropout(2), dict(keep_prob=0.5)),
    ("Dropout3D", NC.compute_channel_dropout(3), dict(keep_prob=0.5)),
    ("LRN", NC.compute_lrn, dict(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                                 norm_region="ACROSS_CHANNELS")),
    ("RmsNorm", NC.compute_rms_norm, dict(epsilon=1e-6)),
    ("SoftMarginLoss", NC.compute_soft_margin_loss, dict(reduction="mean")),
    ("TripletMarginLoss", NC.compute_triplet_margin_loss,
     dict(p=2, swap=False, eps=1e-6, reduction="mean")),
    ("MultilabelMarginLoss", NC.compute_multilabel_margin_loss, dict(reduction="mean")),
    ("LogSoftmaxExt", NC.compute_log_softmax_ext, {}),
    ("Conv3D", CT.compute_conv3d, dict(out_channel=None, kernel_size=None, mode=1,
                                       pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                                       data_format="NCDHW")),
    ("Conv2DTranspose", CT.compute_conv2d_transpose, _CONV2D_TRANSPOSE),
    ("Conv2DBackpropInput", CT.compute_conv2d_transpose, _CONV2D_TRANSPOSE),
    ("Conv3DTranspose", CT.compute_conv3d_transpose,
     dict(in_channel=None, out_channel=None, kernel_size=None, mode=1, pad_mode="valid", pad=0,
          stride=1, dilation=1, group=1, output_padding=0, data_format="NCDHW")),
    ("Im2Col", P.compute_im2col, dict(ksizes=None, strides=1, dilations=1, pads=0)),
    ("Col2Im", P.compute_col2im, dict(kernel_size=None, dilation=1, padding=0, stride=1)),
    ("ExtractImagePatches", P.compute_extract_image_patches,
     dict(ksizes=None, strides=None, rates=None, padding="VALID")),
    ("CTCLossV2", CC.compute_ctc_loss_v2,
     dict(blank=0, reduction="none", zero_infinity=False)),
    ("CTCLoss", CC.compute_ctc_loss, dict(preprocess_collapse_repeated=False,
                                          ctc_merge_repeated=True,
                                          ignore_longer_outputs_than_inputs=False)),
    ("CTCGreedyDecoder", CC.compute_ctc_greedy_decoder, dict(merge_repeated=True)),
    ("FractionalMaxPoolWithFixedKsize", FC.compute_fixed_ksize_pool(2),
     dict(ksize=None, output_shape=None, data_format="NCHW")),
    ("FractionalMaxPool3DWithFixedKsize", FC.compute_fixed_ksize_pool(3),
     dict(ksize=None, output_shape=None, data_format="NCDHW")),
    ("FractionalMaxPool", FC.compute_fractional_pool("max"),
     dict(pooling_ratio=None, pseudo_random=False, overlapping=False, deterministic=False,
          seed=0, seed2=0)),
    ("FractionalAvgPool", FC.compute_fractional_pool("avg"),
     dict(pooling_ratio=None, pseudo_random=False, overlapping=False, deterministic=False,
          seed=0, seed2=0)),
    ("BatchNorm", NC.compute_batch_norm,
     dict(is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW")),
    ("Dilation2D", P.compute_dilation2d,
     dict(stride=None, dilation=None, pad_mode="SAME", data_format="NCHW")),
    ("DeformableOffsets", DF.compute_deformable_offsets,
     dict(strides=None, pads=None, ksize=None, dilations=(1, 1, 1, 1), data_format="NCHW",
          deformable_groups=1, modulated=True)),
    ("DepthwiseConv2dNative", CT.compute_depthwise_conv2d_native,
     dict(channel_multiplier=None, kernel_size=None, mode=3, pad_mode="valid", pad=0, stride=1,
          dilation=1, group=1)),
]
