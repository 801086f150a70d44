"""``SummaryRecord``: scalars and tensors of a training run in MindSpore's summary files.

The files are MindSpore's format (see ``summary_format``), named as MindSpore names them
(``<prefix>.out.events.summary.<seconds>.<device id>.<host><suffix>``), readable by
MindInsight and by MindSpore's ``summary_pb2``. The 'scalar', 'tensor' and 'histogram'
plugins are written; 'image' (PNG-encoded), graphs and lineage need messages tensorjit does
not produce, so they are refused with a ValueError naming what is supported.
"""
import os
import platform
import re
import threading
import time
import warnings

import numpy as np

from ..tensor import Tensor
from . import summary_format

_NAME = re.compile(r"^\w+[0-9a-zA-Z\_\.]*$", re.ASCII)
_lock = threading.Lock()
_PLUGINS = ("tensor", "scalar", "image", "histogram", "train_lineage", "eval_lineage",
            "dataset_graph", "custom_lineage_data", "graph", "LossLandscape")


def _check_name_part(text):
    if not _NAME.match(text):
        raise ValueError(f"The '{text}' is illegal, it must be match regular'{_NAME.pattern}' "
                         f"by flags're.ASCII.'")


class SummaryRecord:
    """Writes summary data of a run to an event file in ``log_dir`` (one open per process)."""
    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        with _lock:
            if SummaryRecord.count > 0:
                raise RuntimeError(
                    f"For 'SummaryRecord', only one instance is supported in a training "
                    f"process, you are trying to create a new one when the existing instance "
                    f"number is {SummaryRecord.count}. Please check your scripts.")
            if not isinstance(max_file_size, (int, type(None))):
                raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, "
                                f"but got type {type(max_file_size)}")
            if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
                raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix`  should "
                                f"be str, but got type {type(file_prefix)}")
            _check_name_part(file_prefix)
            _check_name_part(file_suffix)
            if not isinstance(raise_exception, bool):
                raise TypeError(f"The type of 'raise_exception' should be 'bool', but got "
                                f"'{type(raise_exception).__name__}'.")
            if export_options is not None:
                raise ValueError("For 'SummaryRecord', tensorjit does not export summary data "
                                 "to files ('export_options'): give None")
            if network is not None:
                warnings.warn("For 'SummaryRecord', tensorjit does not write the network's "
                              "graph (MindSpore's optimized graph proto); 'network' is ignored")
            if max_file_size is not None and max_file_size < 0:
                warnings.warn("For 'SummaryRecord', the 'max_file_size' should be greater than 0.")
                max_file_size = None
            os.makedirs(log_dir, exist_ok=True)
            name = (f"{file_prefix}.out.events.summary.{int(time.time())}.0."
                    f"{platform.node()}{file_suffix}")
            self._path = os.path.realpath(os.path.join(log_dir, name))
            self.network, self.raise_exception = network, raise_exception
            self._room = max_file_size
            self._mode, self._pool, self._closed = "train", [], False
            self._file = open(self._path, "wb")
            SummaryRecord.count += 1
        self._write(summary_format.version_event(time.time()))

    def __enter__(self):
        if self._closed:
            raise ValueError('For "SummaryRecord", SummaryRecord has been closed, please check '
                             'if close() method is called')
        return self

    def __exit__(self, *err):
        self.close()

    @property
    def log_dir(self):
        """The full path of the event file."""
        return self._path

    def set_mode(self, mode):
        """'train' or 'eval' (MindSpore then skips summary operators' data)."""
        if mode not in ("train", "eval"):
            raise ValueError(f'For "SummaryRecord.set_mode", {repr(mode)} is not a recognized '
                             f'mode, expect the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue ``value`` under ``name`` for the next ``record``."""
        if plugin not in _PLUGINS:
            raise ValueError(f'For "SummaryRecord.add_value", no such "plugin" of {plugin!r} , '
                             'expect value is one of [tensor, scalar, image, histogram, '
                             'train_lineage, eval_lineage, dataset_graph, custom_lineage_data, '
                             'graph, landscape]')
        if plugin not in ("scalar", "tensor", "histogram"):
            raise ValueError(f"For 'SummaryRecord.add_value', tensorjit writes the 'scalar', "
                             f"'tensor' and 'histogram' plugins; {plugin!r} is not supported")
        if not name or not isinstance(name, str):
            raise ValueError(f'For "SummaryRecord", the parameter "name" type should be str, '
                             f'but got {type(name)}.')
        if not isinstance(value, Tensor):
            raise TypeError(f'For "SummaryRecord", the parameter "value" expect to be Tensor, '
                            f'but got {type(value).__name__}')
        array = np.array(value.asnumpy())
        if plugin == "scalar" and array.size != 1:
            raise ValueError(f'For "SummaryRecord", the v rank must be less than or equal to 1, '
                             f'but got {len(array)}.')
        if plugin in ("tensor", "histogram") and array.ndim == 0:
            raise ValueError('For "SummaryRecord", the value should not be empty.')
        if array.dtype.type not in summary_format.DATA_TYPES:
            raise TypeError(f"Transform numpy type failed in Summary, got {array.dtype}")
        if any(p == plugin and t == name for p, t, _ in self._pool):
            warnings.warn(f"For 'SummaryRecord.add_value', '{name}/{plugin}' has duplicate "
                          f"values. Only the newest one will be recorded.")
        self._pool.append((plugin, name, array))

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the queued values as the event of ``step``; False once closed."""
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"For 'record', the type of 'step' should be 'int', but got "
                            f"'{type(step).__name__}'.")
        if self._closed:
            warnings.warn("For 'SummaryRecord', The record writer is closed, please check if "
                          "close() method is called")
            return False
        values, self._pool = self._pool, []
        if plugin_filter:
            values = [v for v in values if plugin_filter(v[0])]
        # MindSpore groups the values by plugin, in the order plugins were first added
        order = list(dict.fromkeys(p for p, _, _ in values))
        values = sorted(values, key=lambda v: order.index(v[0]))
        if values:
            self._write(summary_format.summary_event(values, step, time.time()))
        return True

    def _write(self, body):
        data = summary_format.record(body)
        if self._room is not None:
            if self._room < len(data):
                raise RuntimeWarning(f"'max_file_size' reached: There are {self._room} bytes "
                                     f"remaining, but the '{self._path}' requires to write "
                                     f"{len(data)} bytes.")
            self._room -= len(data)
        self._file.write(data)

    def flush(self):
        """Write buffered events to disk."""
        if not self._closed:
            self._file.flush()

    def close(self):
        """Flush and close the file (once; the instance slot is freed)."""
        with _lock:
            if not self._closed:
                self._file.close()
                self._closed = True
                SummaryRecord.count -= 1
