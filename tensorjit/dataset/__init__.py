"""``tensorjit.dataset``: data pipelines with MindSpore's names and semantics.

Sources (``GeneratorDataset``, ``NumpySlicesDataset``, ``MnistDataset``, ``Cifar10Dataset``,
``Cifar100Dataset``, ``ImageFolderDataset``, ``MindDataset``: MindRecord files) produce
rows of NumPy arrays in named columns; ``map``, ``batch``, ``shuffle``, ``repeat``,
``project``, ``rename``, ``take`` and ``skip`` build a pipeline; iterators give Tensors.
Stages with ``num_parallel_workers > 1`` run ahead on worker threads (``map(...,
python_multiprocessing=True)``: forked processes), so training does not wait.
No jit here: the pipeline only hands arrays to the model.
"""
from . import config
from .engine import Dataset
from .batching import BatchInfo
from .operations import MapDataset
from .sources import GeneratorDataset, NumpySlicesDataset
from .readers import MnistDataset, Cifar10Dataset, Cifar100Dataset, ImageFolderDataset
from .mind_dataset import MindDataset, Shuffle
from .iterators import TupleIterator, DictIterator
from . import transforms, vision
from . import text  # mindspore.dataset.text
from . import audio  # mindspore.dataset.audio

__all__ = ["config", "Dataset", "BatchInfo", "MapDataset", "GeneratorDataset",
           "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset", "Cifar100Dataset",
           "ImageFolderDataset",
           "MindDataset", "Shuffle",
           "TupleIterator", "DictIterator", "transforms", "vision"]
