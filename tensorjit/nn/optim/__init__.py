"""Optimizers: cells that update parameters in place from their gradients."""
from .optimizer import Optimizer
from .sgd import SGD
from .momentum import Momentum
from .adam import Adam
from .adam_weight_decay import AdamWeightDecay, AdamW
from .adagrad_family import Adagrad, Adadelta, ProximalAdagrad, FTRL, RMSProp
from .adam_family import AdaMax, LazyAdam, AdamOffload, Lamb
from .adafactor import AdaFactor
from .sgd_variants import ASGD, Rprop
from .lars import LARS

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "AdamW",
           "Adagrad", "Adadelta", "ProximalAdagrad", "FTRL", "RMSProp", "AdaMax", "LazyAdam",
           "AdamOffload", "Lamb", "AdaFactor", "ASGD", "Rprop", "LARS"]
