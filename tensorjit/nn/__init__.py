"""``tensorjit.nn``: cells, layers, losses, optimizers and training wrappers
(the names MindSpore scripts import from ``mindspore.nn``)."""
from .cell import Cell, ParameterTuple
from .container import SequentialCell, CellList, CellDict
from .layers import (ReLU, ReLU6, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax,
                     ELU, Mish, get_activation, Dense, Flatten, Identity, Dropout, Conv2d,
                     BatchNorm1d, BatchNorm2d, LayerNorm, MaxPool2d, AvgPool2d,
                     AdaptiveAvgPool2d, Embedding)
from .loss import (LossBase, MSELoss, L1Loss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits,
                   CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss)
from .optim import Optimizer, SGD, Momentum, Adam
from .wrap import WithLossCell, TrainOneStepCell
from .parallel import DistributedGradReducer
from . import initializer

__all__ = [
    "Cell", "ParameterTuple", "SequentialCell", "CellList", "CellDict",
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
    "ELU", "Mish", "get_activation", "Dense", "Flatten", "Identity", "Dropout", "Conv2d",
    "BatchNorm1d", "BatchNorm2d", "LayerNorm", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
    "Embedding",
    "LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
    "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss",
    "Optimizer", "SGD", "Momentum", "Adam", "WithLossCell", "TrainOneStepCell", "initializer",
    "DistributedGradReducer",
]
