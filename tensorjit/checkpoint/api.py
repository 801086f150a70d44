"""``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``: MindSpore's functions
and file formats (``.ckpt`` protobuf, or ``format="safetensors"``), so weights move between
MindSpore and tensorjit in both directions.

Files are written to a temporary file in the same directory and renamed over the target,
so a reader never sees half a file; loading parses and checks the whole file before it
returns, and ``load_param_into_net`` checks every shape and dtype before it writes any
parameter, so a bad file or a mismatched network never leaves a net half loaded.
"""
import binascii
import numbers
import os
import threading

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor, Parameter
from ..nn.cell import Cell
from ..ops import process_groups
from .. import files
from . import ckpt_format, safetensors_format
from .ckpt_format import CheckpointFormatError

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net",
           "async_ckpt_thread_status", "CheckpointFormatError"]

FORMATS = ("ckpt", "safetensors")
_ASYNC_SAVES = []
_SAVE_LOCK = threading.Lock()


# ---- saving ---------------------------------------------------------------------------
def _as_array(value, name):
    if isinstance(value, Tensor):
        if value._var is not None:
            raise TypeError(f"save_checkpoint: {name!r} is a symbolic tensor inside a graph; "
                            f"save outside jit")
        value = np.asarray(value.asnumpy())
    if isinstance(value, np.ndarray):
        # (not np.ascontiguousarray: it makes a 0-d array 1-d)
        return value if value.flags.c_contiguous else value.copy(order="C")
    raise TypeError(f"save_checkpoint: the value of {name!r} must be a Parameter or a Tensor, "
                    f"got {type(value).__name__}")


def _entries(save_obj, choice_func):
    """[(name, Tensor / ndarray / str)] of what ``save_obj`` holds."""
    if isinstance(save_obj, Cell):
        pairs = [(p.name, p) for p in save_obj.get_parameters()]
    elif isinstance(save_obj, dict):
        pairs = list(save_obj.items())
        for key, _ in pairs:
            if not isinstance(key, str):
                raise TypeError(f"save_checkpoint: the keys of a dict must be str, got {key!r}")
    elif isinstance(save_obj, (list, tuple)):
        pairs = []
        for item in save_obj:
            if isinstance(item, Parameter):
                pairs.append((item.name, item))
            elif isinstance(item, dict) and "name" in item and "data" in item:
                if not isinstance(item["name"], str):
                    raise TypeError(f"save_checkpoint: 'name' must be a str, got "
                                    f"{item['name']!r}")
                pairs.append((item["name"], item["data"]))
            else:
                raise TypeError(f"save_checkpoint: a list must hold Parameters or dicts "
                                f"{{'name': str, 'data': Tensor}}, got {type(item).__name__}")
    else:
        raise TypeError(f"save_checkpoint: 'save_obj' must be a Cell, a list or a dict, got "
                        f"{type(save_obj).__name__}")
    if choice_func is not None:
        pairs = [(n, v) for n, v in pairs if choice_func(n)]
    return pairs


def _append_entries(append_dict):
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError(f"save_checkpoint: 'append_dict' must be a dict, got "
                        f"{type(append_dict).__name__}")
    pairs = []
    for key, value in append_dict.items():
        if not isinstance(key, str):
            raise TypeError(f"save_checkpoint: the keys of 'append_dict' must be str, got {key!r}")
        if isinstance(value, bool):
            value = np.array(value)
        elif isinstance(value, numbers.Integral):
            value = np.array(value, np.int64)
        elif isinstance(value, numbers.Real):
            value = np.array(value, np.float32)
        elif not isinstance(value, (str, Tensor)):
            raise TypeError(f"save_checkpoint: 'append_dict' values must be int, float, bool, "
                            f"str, Parameter or Tensor; {key!r} is {type(value).__name__}")
        pairs.append((key, value))
    return pairs


def _target_path(ckpt_file_name, format, who):
    if format not in FORMATS:
        raise ValueError(f"{who}: 'format' must be 'ckpt' or 'safetensors', got {format!r}")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"{who}: 'ckpt_file_name' must be a str, got "
                        f"{type(ckpt_file_name).__name__}")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"{who}: {path} is a directory; give a file name")
    return path if path.endswith(format) else f"{path}.{format}"


def _write_ckpt(f, arrays, crc_check):
    crc = 0
    for name, value in arrays:
        if isinstance(value, str):
            content, dims, type_name = np.array(value).tobytes(), [0], ckpt_format.STRING_TYPE
            pieces = [content]
        else:
            content = value.reshape(-1).view(np.uint8) if value.size else b""
            dims, type_name = list(value.shape), ckpt_format.TYPE_NAMES[value.dtype]
            count = max(1, -(-value.nbytes // ckpt_format.SLICE_BYTES))
            pieces = [p.tobytes() for p in np.array_split(value, count)] if count > 1 \
                else [content]
        for piece in pieces:
            size = len(piece) if isinstance(piece, bytes) else piece.nbytes
            head = ckpt_format.encode_value_header(name, dims, type_name, size)
            f.write(head)
            f.write(piece)
            if crc_check:
                crc = binascii.crc32(piece, binascii.crc32(head, crc))
    if crc_check:
        f.write(ckpt_format.CRC_MARK + crc.to_bytes(10, "big"))


def _write_safetensors(f, arrays):
    strings = [name for name, value in arrays if isinstance(value, str)]
    if strings:
        raise TypeError(f"save_checkpoint: a safetensors file holds tensors only; "
                        f"{strings} are strings")
    ordered = safetensors_format.layout(dict(arrays))
    f.write(safetensors_format.header_bytes(ordered, {"format": "ms"}))
    for value in ordered.values():
        f.write(value.reshape(-1).view(np.uint8) if value.size else b"")


def _write_atomically(path, arrays, format, crc_check):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)

    def write(f):
        if format == "ckpt":
            _write_ckpt(f, arrays, crc_check)
        else:
            _write_safetensors(f, arrays)
    files.write_atomically(path, write, mode=files.default_mode() & 0o644, sync=True)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):
    """Save ``save_obj`` (a Cell, a list of Parameters or of ``{"name", "data"}`` dicts, or a
    dict such as ``load_checkpoint``'s result) to ``ckpt_file_name`` (``.ckpt`` or
    ``.safetensors`` is appended when missing). This is the one place every checkpoint
    write goes through. With several processes (``communication.init()``) only rank 0
    writes; the file appears whole (written to a temporary name, then renamed), and other
    ranks that load it at once should ``communication.barrier()`` first."""
    who = "save_checkpoint"
    if enc_key is not None:
        raise NotImplementedError(f"{who}: encrypted checkpoints (enc_key) are not supported")
    if not isinstance(crc_check, bool):
        raise TypeError(f"{who}: 'crc_check' must be a bool, got {crc_check!r}")
    path = _target_path(ckpt_file_name, format, who)
    if process_groups.world_size() > 1 and process_groups.world_rank() != 0:
        return       # data-parallel ranks hold the same values: rank 0 writes them once
    arrays = []
    for name, value in _entries(save_obj, choice_func) + _append_entries(append_dict):
        arrays.append((name, value if isinstance(value, str) else _as_array(value, name)))
    if async_save:
        # The values were copied out above, so training may go on changing the parameters.
        arrays = [(n, v if isinstance(v, str) else v.copy()) for n, v in arrays]
        thread = threading.Thread(target=_save_locked, args=(path, arrays, format, crc_check),
                                  name="tensorjit-checkpoint", daemon=False)
        _ASYNC_SAVES[:] = [t for t in _ASYNC_SAVES if t.is_alive()] + [thread]
        thread.start()
        return
    _save_locked(path, arrays, format, crc_check)


def _save_locked(path, arrays, format, crc_check):
    with _SAVE_LOCK:
        _write_atomically(path, arrays, format, crc_check)


def async_ckpt_thread_status():
    """True while an asynchronous save is still writing."""
    return any(t.is_alive() for t in _ASYNC_SAVES)


def wait_async_saves():
    for thread in list(_ASYNC_SAVES):
        thread.join()


# ---- loading --------------------------------------------------------------------------
def _read(path, who):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{who}: 'ckpt_file_name' must be a str, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{who}: the checkpoint file {path!r} does not exist")
    with open(path, "rb") as f:
        return f.read()


def _parse_file(path, format, crc_check, who):
    data = _read(path, who)
    label = f"checkpoint file {os.fspath(path)!r}"
    if not data:
        raise ValueError(f"{who}: the {label} is empty")
    try:
        if format == "safetensors":
            arrays, _ = safetensors_format.parse(data, label)
            return arrays
        try:
            return ckpt_format.parse(data, crc_check, label)
        except CheckpointFormatError:
            if safetensors_format.looks_like_safetensors(data):
                raise CheckpointFormatError(f"{label} is a safetensors file; load it with "
                                            f"format='safetensors'") from None
            raise
    except CheckpointFormatError as exc:
        message = str(exc)
        if label not in message:
            message = f"{label}: {message}"
        raise CheckpointFormatError(f"{who}: {message}") from None


def _prefixes(value, name):
    if value is None:
        return ()
    items = (value,) if isinstance(value, str) else tuple(value)
    if not items or not all(isinstance(p, str) and p for p in items):
        raise TypeError(f"load_checkpoint: '{name}' must be a non-empty str or a list of them, "
                        f"got {value!r}")
    return items


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format="ckpt"):
    """{name: Parameter} (str for string entries) read from a checkpoint file; with ``net``,
    also loads them into it (``load_param_into_net``)."""
    who = "load_checkpoint"
    if format not in FORMATS:
        raise ValueError(f"{who}: 'format' must be 'ckpt' or 'safetensors', got {format!r}")
    if dec_key is not None:
        raise NotImplementedError(f"{who}: encrypted checkpoints (dec_key) are not supported")
    filters = _prefixes(filter_prefix, "filter_prefix")
    specified = _prefixes(specify_prefix, "specify_prefix")
    values = _parse_file(ckpt_file_name, format, crc_check, who)
    result = {}
    for name, value in values.items():
        if specified and not name.startswith(specified):
            continue
        if filters and name.startswith(filters):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        result[name] = value if isinstance(value, str) else Parameter(Tensor(value), name=name)
    if not result:
        raise ValueError(f"{who}: no parameter of {os.fspath(ckpt_file_name)!r} is left after "
                         f"filter_prefix / specify_prefix / choice_func")
    if net is not None:
        load_param_into_net(net, result, strict_load)
    return result


def _match(net_params, parameter_dict, strict_load):
    """{net parameter name: checkpoint name}: exact names, then (not strict) the names with
    a prefix the checkpoint adds to all of them (MindSpore's rule)."""
    names = {p.name for p in net_params}
    matched = {n: n for n in names if n in parameter_dict}
    missing = [p.name for p in net_params if p.name not in matched]
    while missing and not strict_load:
        prefix = next((key[:-len(n)] for n in missing for key in parameter_dict
                       if key != n and key.endswith(n)), None)
        if prefix is None:
            break
        found = [n for n in missing if prefix + n in parameter_dict]
        if not found:
            break
        matched.update((n, prefix + n) for n in found)
        missing = [n for n in missing if n not in matched]
    return matched


def _converted(param, value, strict_load):
    """The array to write into ``param`` or the reason it cannot be."""
    array = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    if tuple(array.shape) != tuple(param.shape):
        return None, (f"{param.name}: shape {tuple(array.shape)} in the checkpoint, "
                      f"{tuple(param.shape)} in the net")
    if array.dtype != param.dtype:
        same_kind = ((dt.is_float(array.dtype) and dt.is_float(param.dtype))
                     or (dt.is_int(array.dtype) and dt.is_int(param.dtype)))
        if strict_load or not same_kind:
            return None, (f"{param.name}: dtype {array.dtype} in the checkpoint, {param.dtype} "
                          f"in the net")
        array = array.astype(param.dtype)
    return array, None


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Write the values of ``parameter_dict`` into the parameters of ``net`` with the same
    names; returns ``(param_not_load, ckpt_not_load)``: the net's parameters that got no
    value and the checkpoint's entries that went nowhere. Every shape and dtype is checked
    before anything is written: on a mismatch nothing is loaded."""
    who = "load_param_into_net"
    if not isinstance(net, Cell):
        raise TypeError(f"{who}: 'net' must be a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"{who}: 'parameter_dict' must be a dict, got "
                        f"{type(parameter_dict).__name__}")
    if not isinstance(strict_load, bool):
        raise TypeError(f"{who}: 'strict_load' must be a bool, got {strict_load!r}")
    for key, value in parameter_dict.items():
        if not isinstance(value, (Tensor, str)):
            raise TypeError(f"{who}: the values of 'parameter_dict' must be Parameters, "
                            f"{key!r} is {type(value).__name__}")
    net_params = list(net.get_parameters())
    tensors = {k: v for k, v in parameter_dict.items() if isinstance(v, Tensor)}
    matched = _match(net_params, tensors, strict_load)
    updates, problems = [], []
    for param in net_params:
        key = matched.get(param.name)
        if key is None:
            continue
        array, problem = _converted(param, tensors[key], strict_load)
        if problem:
            problems.append(problem)
        else:
            updates.append((param, array))
    if problems:
        raise RuntimeError(f"{who}: nothing was loaded; {len(problems)} parameter(s) do not "
                           f"fit the net: " + "; ".join(problems))
    for param, array in updates:
        param.set_data(Tensor(array))
    used = set(matched.values())
    param_not_load = [p.name for p in net_params if p.name not in matched]
    ckpt_not_load = [k for k in parameter_dict if k not in used]
    return param_not_load, ckpt_not_load
