"""The parts of MindSpore's ``mind_ir.proto`` (package ``mind_ir``, proto2) that tensorjit
writes or reads: each message's fields by number, and the enums' values.

Field numbers are those of MindSpore 2.10's ``mind_ir_pb2`` (its serialized file
descriptor); fields tensorjit never uses are left out, and a reader skips them like any
unknown field. A field is ``number: (name, kind, repeated)``; ``kind`` is a scalar type
or another message's name.
"""
import numpy as np

from ... import dtype as dt

STRING, BYTES, INT64, INT32, UINT64, BOOL, ENUM, FLOAT, DOUBLE = (
    "string", "bytes", "int64", "int32", "uint64", "bool", "enum", "float", "double")
SCALARS = (STRING, BYTES, INT64, INT32, UINT64, BOOL, ENUM, FLOAT, DOUBLE)
ONE, MANY = False, True

MESSAGES = {
    "ModelProto": {
        1: ("ir_version", STRING, ONE),
        2: ("producer_name", STRING, ONE),
        3: ("producer_version", STRING, ONE),
        4: ("domain", STRING, ONE),
        5: ("model_version", STRING, ONE),
        6: ("doc_string", STRING, ONE),
        7: ("graph", "GraphProto", ONE),
        8: ("functions", "GraphProto", MANY),
        10: ("little_endian", BOOL, ONE),
        12: ("primitives", "PrimitiveProto", MANY),
        13: ("mind_ir_version", INT64, ONE),
    },
    "GraphProto": {
        1: ("node", "NodeProto", MANY),
        2: ("name", STRING, ONE),
        3: ("parameter", "TensorProto", MANY),
        4: ("doc_string", STRING, ONE),
        5: ("input", "ValueInfoProto", MANY),
        6: ("output", "ValueInfoProto", MANY),
        8: ("attribute", "AttributeProto", MANY),
        10: ("map_parameter", BYTES, MANY),          # MapTensorProto: refused when present
    },
    "NodeProto": {
        1: ("input", STRING, MANY),
        2: ("output", STRING, MANY),
        3: ("name", STRING, ONE),
        4: ("op_type", STRING, ONE),
        5: ("attribute", "AttributeProto", MANY),
        6: ("doc_string", STRING, ONE),
        7: ("domain", STRING, ONE),
    },
    "ValueInfoProto": {
        1: ("name", STRING, ONE),
        2: ("tensor", "TensorProto", MANY),
        3: ("doc_string", STRING, ONE),
        4: ("denotation", STRING, ONE),
        5: ("attr_info", "AttributeProto", ONE),
    },
    "TensorProto": {
        1: ("dims", INT64, MANY),
        2: ("data_type", INT32, ONE),
        3: ("float_data", FLOAT, MANY),
        4: ("int32_data", INT32, MANY),
        6: ("int64_data", INT64, MANY),
        7: ("name", STRING, ONE),
        8: ("doc_string", STRING, ONE),
        9: ("raw_data", BYTES, ONE),
        10: ("double_data", DOUBLE, MANY),
        11: ("uint64_data", UINT64, MANY),
        12: ("external_data", "ExternalDataProto", ONE),
        13: ("ref_key", STRING, ONE),
        16: ("compression_type", ENUM, ONE),
    },
    "ExternalDataProto": {
        1: ("location", STRING, ONE),
        2: ("offset", INT64, ONE),
        3: ("length", INT64, ONE),
    },
    "AttributeProto": {
        1: ("name", STRING, ONE),
        2: ("f", FLOAT, ONE),
        3: ("i", INT64, ONE),
        4: ("d", DOUBLE, ONE),
        5: ("s", BYTES, ONE),
        6: ("t", "TensorProto", ONE),
        7: ("g", "GraphProto", ONE),
        8: ("floats", FLOAT, MANY),
        9: ("doubles", DOUBLE, MANY),
        10: ("ints", INT64, MANY),
        11: ("strings", BYTES, MANY),
        12: ("tensors", "TensorProto", MANY),
        13: ("graphs", "GraphProto", MANY),
        14: ("doc_string", STRING, ONE),
        15: ("ref_attr_name", STRING, ONE),
        16: ("type", ENUM, ONE),
        17: ("values", "AttributeProto", MANY),
        18: ("seq_info", "SeqInfoProto", ONE),
    },
    "SeqInfoProto": {
        1: ("is_dyn_len", BOOL, ONE),
        2: ("tuple_elem_item", "AttributeProto", ONE),
    },
    "PrimitiveProto": {
        1: ("name", STRING, ONE),
        2: ("op_type", STRING, ONE),
        3: ("attribute", "AttributeProto", MANY),
        4: ("instance_name", STRING, ONE),
        5: ("prim_type", ENUM, ONE),
    },
}

# The field numbers by name, for the writer: FIELDS["NodeProto"]["op_type"] == (4, STRING, ONE).
FIELDS = {message: {name: (number, kind, many) for number, (name, kind, many) in fields.items()}
          for message, fields in MESSAGES.items()}


class AttributeType:
    """``AttributeProto.AttributeType``."""
    UNDEFINED, FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL = range(10)
    FLOAT16, DOUBLE, UINT32, UINT64 = 10, 11, 12, 13
    BFLOAT16, TENSOR, GRAPH, TENSORS, TUPLE, LIST, DICT, UMONAD, IOMONAD, NONE = range(16, 26)
    PRIMITIVECLOSURE, FUNCGRAPHCLOSURE, PARTIALCLOSURE = 26, 27, 28
    CLASS_TYPE, NAME_SPACE, SYMBOL, TYPE_NULL, MAP_TENSOR, FUNCTOR, SCALAR = range(33, 40)


class PrimType:
    """``PrimitiveProto.PrimType``: a PRIMITIVE keeps its settings as attributes; a
    PRIMITIVE_FUNCTION (MindSpore 2.3 on) takes them as inputs, from Constant nodes."""
    PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2


MIND_IR_VERSION = 3            # Version.IR_VERSION_WITH_SCALAR_GRAPH_HOLDER (MindSpore 2.10)

# TensorProto.DataType <-> NumPy. DOUBLE (11) and FLOAT64 (17) are both float64; MindSpore
# 2.10 writes DOUBLE for float64 tensors, so tensorjit does too.
TENSOR_TYPES = {1: dt.float32, 2: dt.uint8, 3: dt.int8, 4: dt.uint16, 5: dt.int16,
                6: dt.int32, 7: dt.int64, 9: dt.bool_, 10: dt.float16, 11: dt.float64,
                12: dt.uint32, 13: dt.uint64, 16: dt.bfloat16, 17: dt.float64}
TENSOR_TYPE_OF = {np.dtype(d): code for code, d in TENSOR_TYPES.items() if code != 17}

# MindSpore's TypeId numbers: what a ``Cast`` node's dtype input holds (``dtype_to_type_id``).
TYPE_IDS = {30: dt.bool_, 32: dt.int8, 33: dt.int16, 34: dt.int32, 35: dt.int64,
            37: dt.uint8, 38: dt.uint16, 39: dt.uint32, 40: dt.uint64, 42: dt.float16,
            43: dt.float32, 44: dt.float64, 45: dt.bfloat16}
TYPE_ID_OF = {np.dtype(d): code for code, d in TYPE_IDS.items()}

# Scalar attribute types <-> NumPy (a Constant node's 0-d number, a tensor-typed attribute).
SCALAR_TYPES = {AttributeType.FLOAT: dt.float32, AttributeType.DOUBLE: dt.float64,
                AttributeType.INT8: dt.int8, AttributeType.INT16: dt.int16,
                AttributeType.INT32: dt.int32, AttributeType.INT64: dt.int64,
                AttributeType.UINT8: dt.uint8, AttributeType.UINT16: dt.uint16,
                AttributeType.UINT32: dt.uint32, AttributeType.UINT64: dt.uint64,
                AttributeType.BOOL: dt.bool_, AttributeType.FLOAT16: dt.float16,
                AttributeType.BFLOAT16: dt.bfloat16}
