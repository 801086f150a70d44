"""The layer cells, one module per family."""
from .activation import (ReLU, ReLU6, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax,
                         LogSoftmax, ELU, Mish, get_activation)
from .basic import Dense, Flatten, Identity, Dropout
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .pooling import MaxPool2d, AvgPool2d, AdaptiveAvgPool2d
from .embedding import Embedding

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "ELU", "Mish", "get_activation", "Dense", "Flatten", "Identity",
           "Dropout", "Conv2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "MaxPool2d",
           "AvgPool2d", "AdaptiveAvgPool2d", "Embedding"]
