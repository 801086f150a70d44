"""``tensorjit.nn``: cells, layers, losses, optimizers and training wrappers
(the names MindSpore scripts import from ``mindspore.nn``)."""
from .cell import Cell, ParameterTuple
from .container import SequentialCell, CellList, CellDict
from .layers import (ReLU, ReLU6, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax,
                     ELU, Mish, get_activation, Dense, Flatten, Identity, Dropout, Conv2d,
                     BatchNorm1d, BatchNorm2d, LayerNorm, MaxPool2d, AvgPool2d,
                     AdaptiveAvgPool2d, Embedding)
from .layers import (HSwish, HSigmoid, PReLU, SeLU, CELU, LogSigmoid, Softsign, Hardtanh,
                     Softplus, GLU, Dropout1d, Dropout2d, Dropout3d, Unfold, Conv1d, Conv3d,
                     Conv2dTranspose, GroupNorm, InstanceNorm1d, InstanceNorm2d,
                     InstanceNorm3d, RNNCell, LSTMCell, GRUCell, RNN, LSTM, GRU)
from .layers import (MultiheadAttention, TransformerEncoderLayer, TransformerEncoder,
                     TransformerDecoderLayer, TransformerDecoder, Transformer)
from .loss import (LossBase, MSELoss, L1Loss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits,
                   CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss)
from .loss import BCELoss, KLDivLoss, CosineEmbeddingLoss
from .metric_similarity import CosineSimilarity
from .losses_extra import (HuberLoss, MarginRankingLoss, HingeEmbeddingLoss, SoftMarginLoss,
                           TripletMarginLoss, GaussianNLLLoss, PoissonNLLLoss, MultiMarginLoss,
                           MultiLabelSoftMarginLoss, MultilabelMarginLoss, DiceLoss,
                           MultiClassDiceLoss, FocalLoss, RMSELoss, MAELoss, CTCLoss)
from .layers.activation_extra import (HShrink, SoftShrink, Tanhshrink, Threshold, Softmin,
                                      Softmax2d, RReLU, FastGelu, PReLUExt)
from .layers.math_layers import (Unflatten, Tril, Triu, Roll, Norm, OneHot, Range, Moments,
                                 MatMul, MatrixDiag, MatrixDiagPart, MatrixSetDiag, ClipByNorm,
                                 ReduceLogSumExp, LGamma, DiGamma, IGamma, LBeta, MatInverse,
                                 MatDet)
from .layers.padding import (Pad, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
                             ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,
                             ReplicationPad2d, ReplicationPad3d, ZeroPad2d)
from .layers.resize import Upsample, PixelShuffle, PixelUnshuffle, ChannelShuffle
from .layers.linear import Linear
from .layers.sparse import SparseToDense, SparseTensorDenseMatmul
from .layers.conv_transpose import Conv1dTranspose, Conv3dTranspose
from .layers.normalization_extra import BatchNorm3d, SyncBatchNorm, LRN
from .layers.combined import BiDense, Conv2dBnAct, DenseBnAct, TimeDistributed
from .layers.image import CentralCrop, ImageGradients, PSNR, SSIM, MSSSIM
from .layers.embedding_lookup import EmbeddingLookup, MultiFieldEmbeddingLookup
from .layers.ext import (AvgPool1dExt, AvgPool2dExt, AvgPool3dExt, MaxPool2dExt, DropoutExt,
                         Dropout2dExt, EmbeddingExt, L1LossExt, LayerNormExt, LogSoftmaxExt)
from .losses_sampled import TripletMarginWithDistanceLoss, SampledSoftmaxLoss, L1Regularizer
from .layers.pooling_extra import (AvgPool1d, MaxPool1d, AvgPool3d, MaxPool3d,
                                   AdaptiveAvgPool1d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,
                                   AdaptiveMaxPool2d, AdaptiveMaxPool3d, LPPool1d, LPPool2d,
                                   MaxUnpool1d, MaxUnpool2d, MaxUnpool3d, FractionalMaxPool2d,
                                   FractionalMaxPool3d)
from .optim import Optimizer, SGD, Momentum, Adam, AdamWeightDecay, AdamW
from .optim import (Adagrad, Adadelta, ProximalAdagrad, FTRL, RMSProp, AdaMax, LazyAdam,
                    AdamOffload, Lamb, AdaFactor, ASGD, Rprop, LARS)
from .dynamic_lr import (piecewise_constant_lr, exponential_decay_lr, natural_exp_decay_lr,
                         inverse_decay_lr, cosine_decay_lr, polynomial_decay_lr, warmup_lr)
from .learning_rate_schedule import (LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR,
                                     InverseDecayLR, CosineDecayLR, PolynomialDecayLR, WarmUpLR)
from . import dynamic_lr, learning_rate_schedule
from .wrap import WithLossCell, WithEvalCell, TrainOneStepCell
from .wrap_extra import (ForwardValueAndGrad, WithGradCell, Jvp, Vjp, ParameterUpdate,
                         GradAccumulationCell, MicroBatchInterleaved)
from .loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                         TrainOneStepWithLossScaleCell)
from .parallel import DistributedGradReducer
from .graph_cell import GraphCell
from . import initializer
from . import utils
from .utils import no_init_parameters
from .metrics import (Metric, Accuracy, TopKCategoricalAccuracy, Top1CategoricalAccuracy,
                      Top5CategoricalAccuracy)
from .metrics import (Loss, Precision, Recall, Fbeta, F1, MAE, MSE, ROC, auc, ConfusionMatrix,
                      ConfusionMatrixMetric, Dice, HausdorffDistance, MeanSurfaceDistance,
                      RootMeanSquareDistance, BleuScore, Perplexity, OcclusionSensitivity,
                      rearrange_inputs, get_metric_fn, get_metrics, names)
from . import metrics

__all__ = [
    "Cell", "ParameterTuple", "GraphCell", "SequentialCell", "CellList", "CellDict",
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
    "ELU", "Mish", "get_activation", "Dense", "Flatten", "Identity", "Dropout", "Conv2d",
    "BatchNorm1d", "BatchNorm2d", "LayerNorm", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
    "Embedding",
    "LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
    "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss",
    "Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "AdamW",
    "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
    "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr", "dynamic_lr",
    "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
    "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR", "learning_rate_schedule",
    "WithLossCell", "WithEvalCell", "TrainOneStepCell",
    "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell",
    "initializer", "Metric", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy", "metrics",
    "DistributedGradReducer",
    "HSwish", "HSigmoid", "PReLU", "SeLU", "CELU", "LogSigmoid", "Softsign", "Hardtanh",
    "Softplus", "GLU", "Dropout1d", "Dropout2d", "Dropout3d", "Unfold", "Conv1d", "Conv3d",
    "Conv2dTranspose", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "BCELoss", "KLDivLoss", "CosineEmbeddingLoss", "RNNCell", "LSTMCell", "GRUCell", "RNN",
    # pooling layers beyond 2-D max / average (layers/pooling_extra.py)
    "AvgPool1d", "MaxPool1d", "AvgPool3d", "MaxPool3d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
    "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d",
    "FractionalMaxPool3d",
    "LSTM", "GRU", "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
    "TransformerDecoderLayer", "TransformerDecoder", "Transformer",
    # padding and resizing layers (layers/padding.py, layers/resize.py)
    "Pad", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "ZeroPad2d", "Upsample", "PixelShuffle", "PixelUnshuffle",
    "ChannelShuffle",
    # activations, losses and small math cells (losses_extra, activation_extra, math_layers)
    "HuberLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
    "TripletMarginLoss", "GaussianNLLLoss", "PoissonNLLLoss", "MultiMarginLoss",
    "MultiLabelSoftMarginLoss", "MultilabelMarginLoss", "DiceLoss", "MultiClassDiceLoss",
    "FocalLoss", "RMSELoss", "MAELoss", "CTCLoss", "HShrink", "SoftShrink", "Tanhshrink",
    "Threshold", "Softmin", "Softmax2d", "RReLU", "FastGelu", "PReLUExt", "Unflatten", "Tril",
    "Triu", "Roll", "Norm", "OneHot", "Range", "Moments", "MatMul", "MatrixDiag",
    "MatrixDiagPart", "MatrixSetDiag", "ClipByNorm", "ReduceLogSumExp", "LGamma", "DiGamma",
    "IGamma", "LBeta", "MatInverse", "MatDet", "CosineSimilarity",
    "Linear",   # layers/linear.py (also mint.nn.Linear)
    "SparseToDense", "SparseTensorDenseMatmul",   # layers/sparse.py
    # optimizers beyond SGD / Momentum / Adam (optim/adagrad_family.py, adam_family.py, ...)
    "Adagrad", "Adadelta", "ProximalAdagrad", "FTRL", "RMSProp", "AdaMax", "LazyAdam",
    "AdamOffload", "Lamb", "AdaFactor", "ASGD", "Rprop", "LARS",
    # metrics beyond accuracy (metrics.py, metric_*.py)
    "Loss", "Precision", "Recall", "Fbeta", "F1", "MAE", "MSE", "ROC", "auc", "ConfusionMatrix",
    "ConfusionMatrixMetric", "Dice", "HausdorffDistance", "MeanSurfaceDistance",
    "RootMeanSquareDistance", "BleuScore", "Perplexity", "OcclusionSensitivity",
    "rearrange_inputs", "get_metric_fn", "get_metrics", "names",
    # layers (layers/conv_transpose.py, normalization_extra.py, ...)
    "Conv1dTranspose", "Conv3dTranspose", "BatchNorm3d", "SyncBatchNorm", "LRN", "BiDense",
    "Conv2dBnAct", "DenseBnAct", "TimeDistributed", "CentralCrop", "ImageGradients", "PSNR",
    "SSIM", "MSSSIM", "EmbeddingLookup", "MultiFieldEmbeddingLookup", "AvgPool1dExt",
    "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt", "DropoutExt", "Dropout2dExt",
    "EmbeddingExt", "L1LossExt", "LayerNormExt", "LogSoftmaxExt",
    "TripletMarginWithDistanceLoss", "SampledSoftmaxLoss", "L1Regularizer",
    # wrappers (wrap_extra.py)
    "ForwardValueAndGrad", "WithGradCell", "Jvp", "Vjp", "ParameterUpdate",
    "GradAccumulationCell", "MicroBatchInterleaved", "no_init_parameters", "utils",
]
