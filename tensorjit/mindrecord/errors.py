"""MindSpore's MindRecord exceptions, by its names: ``str(e)`` is ``"[Name]: message"`` as
there. Each also derives from the built-in exception its meaning matches (``ParamTypeError``
is a ``TypeError``, ``ParamValueError`` a ``ValueError``, the file and data errors
``RuntimeError``s), so ``except ValueError`` catches what it should as well."""

__all__ = ["MindRecordException", "ParamValueError", "ParamTypeError", "MRMOpenError",
           "MRMOpenForAppendError", "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError",
           "MRMWriteDatasetError", "MRMCommitError", "MRMAddSchemaError", "MRMAddIndexError",
           "MRMGetMetaError", "MRMInvalidSchemaError", "MRMValidateDataError",
           "MRMDefineIndexError", "MRMUnsupportedSchemaError"]


class MindRecordException(Exception):
    """Base of the MindRecord errors; ``error_msg`` is the message."""

    def __init__(self, error_msg):
        super().__init__(error_msg)
        self.error_msg = error_msg

    def __str__(self):
        return f"[{type(self).__name__}]: {self.error_msg}"


class ParamValueError(MindRecordException, ValueError):
    pass


class ParamTypeError(MindRecordException, TypeError):
    pass


class MRMOpenError(MindRecordException, RuntimeError):
    pass


class MRMOpenForAppendError(MindRecordException, RuntimeError):
    pass


class MRMInvalidPageSizeError(MindRecordException, ValueError):
    pass


class MRMInvalidHeaderSizeError(MindRecordException, ValueError):
    pass


class MRMWriteDatasetError(MindRecordException, RuntimeError):
    pass


class MRMCommitError(MindRecordException, RuntimeError):
    pass


class MRMAddSchemaError(MindRecordException, RuntimeError):
    pass


class MRMAddIndexError(MindRecordException, ValueError):
    pass


class MRMGetMetaError(MindRecordException, RuntimeError):
    pass


class MRMInvalidSchemaError(MindRecordException, ValueError):
    pass


class MRMValidateDataError(MindRecordException, ValueError):
    pass


class MRMDefineIndexError(MindRecordException, ValueError):
    pass


class MRMUnsupportedSchemaError(MindRecordException, RuntimeError):
    pass
