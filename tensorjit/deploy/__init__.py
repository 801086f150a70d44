"""Export and load compiled graphs: ``export(net, *inputs, file_name, file_format)`` writes
the graph ``jit`` captures, with its weights, as MindSpore's MindIR, ONNX or tensorjit's own
TJIR; ``load(file)`` reads any of them back as an ``nn.GraphCell`` that runs with no Python
source of the model.

    program.py    capture -> ExportedProgram (portable graph, weights, signature)
    tjir.py       tensorjit's file: the IR and the weights, versioned
    onnx_format/  ONNX through the ``onnx`` package (the ``export`` extra)
    mindir/       MindSpore's protobuf, written and read by hand

A format module has ``SUFFIX``, ``write(program, path)``, ``looks_like(head, path)`` (the
first bytes of a file and its name) and ``read(data, path) -> ExportedProgram``. Reading
never executes code from the file. (The package is ``deploy``: ``tensorjit.export`` is the
function, as ``mindspore.export`` is.)
"""
import importlib
import os

from .program import ExportError, ExportedProgram, capture_program

FORMATS = {"MINDIR": ".mindir", "ONNX": ".onnx", "TJIR": ".tjir"}
_MODULES = {"MINDIR": "mindir", "ONNX": "onnx_format", "TJIR": "tjir"}

__all__ = ["export", "load", "ExportError", "ExportedProgram", "FORMATS"]


def _format_module(file_format):
    return importlib.import_module(f".{_MODULES[file_format]}", __name__)


def export(net, *inputs, file_name, file_format="MINDIR", capture_mode="ast",
           jit_level="O0", **kwargs):
    """Write ``net(*inputs)`` (a Cell or function; ``inputs`` are example Tensors whose
    shapes and dtypes the file keeps) as ``file_name`` + the format's suffix (kept if
    ``file_name`` already ends with it). A Cell is exported in inference mode. A function
    wrapped by ``jit`` keeps its capture mode and level. Returns the path written."""
    if kwargs:
        raise TypeError(f"export: unexpected argument(s) {sorted(kwargs)}")
    if not isinstance(file_format, str) or file_format.upper() not in FORMATS:
        raise ValueError(f"export: file_format must be one of {', '.join(FORMATS)}; got "
                         f"{file_format!r}")
    if not isinstance(file_name, (str, os.PathLike)) or not str(file_name):
        raise ValueError(f"export: file_name must be a path, got {file_name!r}")
    file_format = file_format.upper()
    module = _format_module(file_format)
    program = capture_program(net, inputs, capture_mode, jit_level)
    path = os.fspath(file_name)
    if not path.endswith(FORMATS[file_format]):
        path += FORMATS[file_format]
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    module.write(program, path)
    return path


def read_program(file_name):
    """The ExportedProgram in ``file_name`` (its format found from its first bytes)."""
    path = os.fspath(file_name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"load: no file {path!r}")
    with open(path, "rb") as f:
        data = f.read()
    tried = []
    for file_format in ("TJIR", "ONNX", "MINDIR"):
        try:
            module = _format_module(file_format)
        except ImportError:
            tried.append(f"{file_format} (its package is not installed)")
            continue
        if module.looks_like(data[:64], path):
            return module.read(data, path)
    raise ValueError(f"load: {path!r} is not a TJIR, ONNX or MindIR file"
                     + (f"; could not check {', '.join(tried)}" if tried else ""))


def load(file_name, **kwargs):
    """Load an exported file as an ``nn.GraphCell`` (MindSpore's ``load`` returns the graph
    to wrap in ``nn.GraphCell``; this returns it wrapped, and ``nn.GraphCell`` of it shares
    its weights). ``kwargs``: MindSpore's ``dec_key`` / ``obf_func`` are not supported."""
    from ..nn.graph_cell import GraphCell
    if kwargs:
        raise ValueError(f"load: {sorted(kwargs)} not supported (encrypted or obfuscated "
                         f"MindIR files cannot be read)")
    return GraphCell(read_program(file_name))
