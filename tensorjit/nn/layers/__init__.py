"""The layer cells, one module per family."""
from .activation import (ReLU, ReLU6, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax,
                         LogSoftmax, ELU, Mish, HSwish, HSigmoid, PReLU, SeLU, CELU,
                         LogSigmoid, Softsign, Hardtanh, Softplus, GLU, get_activation)
from .basic import (Dense, Flatten, Identity, Dropout, Dropout1d, Dropout2d, Dropout3d,
                    Unfold)
from .conv import Conv1d, Conv2d, Conv3d, Conv2dTranspose
from .normalization import (BatchNorm1d, BatchNorm2d, LayerNorm, GroupNorm, InstanceNorm1d,
                            InstanceNorm2d, InstanceNorm3d)
from .pooling import MaxPool2d, AvgPool2d, AdaptiveAvgPool2d
from .embedding import Embedding
from .rnn_cells import RNNCell, LSTMCell, GRUCell
from .rnns import RNN, LSTM, GRU
from .transformer import (MultiheadAttention, TransformerEncoderLayer, TransformerEncoder,
                          TransformerDecoderLayer, TransformerDecoder, Transformer)

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "ELU", "Mish", "HSwish", "HSigmoid", "PReLU", "SeLU", "CELU",
           "LogSigmoid", "Softsign", "Hardtanh", "Softplus", "GLU", "get_activation",
           "Dense", "Flatten", "Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
           "Unfold", "Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose", "BatchNorm1d",
           "BatchNorm2d", "LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Embedding",
           "RNNCell", "LSTMCell", "GRUCell", "RNN", "LSTM", "GRU", "MultiheadAttention",
           "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
           "TransformerDecoder", "Transformer"]
