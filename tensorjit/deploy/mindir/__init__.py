"""MindSpore's MindIR file (``.mindir``): a protobuf ``ModelProto`` of ``mind_ir.proto``,
written and read by hand (no ``protobuf`` or MindSpore package needed).

    schema.py      the messages' field numbers and the enums
    proto.py       messages <-> bytes (on the shared ``checkpoint/protobuf_wire.py``)
    writer.py      ExportedProgram -> ModelProto, as MindSpore 2.10 exports
    write_ops.py   tensorjit primitives -> MindSpore operators
    reader.py      ModelProto -> ExportedProgram
    read_ops.py    MindSpore operators -> tensorjit primitives (read_nn_ops.py: the layers)

Files written here load and run in MindSpore 2.10 (``mindspore.load`` + ``nn.GraphCell``);
files MindSpore exports load here (``tensorjit.load``), for the operators
``read_ops`` knows. Encrypted or obfuscated files, weights in external files and control
flow sub-graphs are refused with a message saying so.
"""
from .proto import MindIRFormatError
from .writer import write

SUFFIX = ".mindir"

__all__ = ["SUFFIX", "write", "read", "looks_like", "MindIRFormatError"]


def looks_like(head, path):
    """A ``.mindir`` file, or a protobuf message starting with a ModelProto's
    ``ir_version`` (field 1, a short string: ``0a 03 "1.1"``) as MindSpore writes it."""
    if str(path).endswith(SUFFIX):
        return True
    return len(head) > 2 and head[0] == 0x0A and head[1] < 16 and head[2:3].isdigit()


def read(data, path="the MindIR file"):
    from .reader import read_program
    return read_program(data, str(path))
