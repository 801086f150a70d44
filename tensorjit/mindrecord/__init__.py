"""``tensorjit.mindrecord``: MindSpore's own dataset file format (``mindspore.mindrecord``).

``FileWriter`` writes rows (dicts matching a schema of int32 / int64 / float32 / float64 /
string / bytes fields and numeric arrays) into one file or ``shard_num`` files, each with
its ``.db`` SQLite index; ``FileReader`` reads them back; ``dataset.MindDataset`` feeds
them to a pipeline. Files are byte for byte what MindSpore 2.10 writes for the same rows
(headers, pages, MessagePack rows, compressed integer arrays), so sets move both ways.
"""
import enum

from .errors import (MindRecordException, ParamValueError, ParamTypeError, MRMOpenError,
                     MRMOpenForAppendError, MRMInvalidPageSizeError, MRMInvalidHeaderSizeError,
                     MRMWriteDatasetError, MRMCommitError, MRMAddSchemaError, MRMAddIndexError,
                     MRMGetMetaError, MRMInvalidSchemaError, MRMValidateDataError,
                     MRMDefineIndexError, MRMUnsupportedSchemaError)
from .reader import FileReader
from .writer import FileWriter


class MSRStatus(enum.IntEnum):
    """What MindSpore's MindRecord calls return."""
    SUCCESS = 0
    FAILED = 1


SUCCESS = MSRStatus.SUCCESS
FAILED = MSRStatus.FAILED

__all__ = ["FileWriter", "FileReader", "SUCCESS", "FAILED", "MSRStatus", "MindRecordException",
           "ParamValueError", "ParamTypeError", "MRMOpenError", "MRMOpenForAppendError",
           "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMWriteDatasetError",
           "MRMCommitError", "MRMAddSchemaError", "MRMAddIndexError", "MRMGetMetaError",
           "MRMInvalidSchemaError", "MRMValidateDataError", "MRMDefineIndexError",
           "MRMUnsupportedSchemaError"]
