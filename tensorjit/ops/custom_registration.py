"""MindSpore's registration information for custom operators: ``CustomRegOp`` (a builder of
the reg-info dict), ``DataType`` (the (dtype, format) pairs it takes) and
``custom_info_register`` (binds reg info to a function).

On MindSpore's CPU the information selects kernels by dtype and format. Here a custom
operator is one kernel that takes what its function takes, so ``ops.Custom`` only checks
that the information is well formed (the inputs and outputs it lists, its target); the
builders produce the same dicts as MindSpore's, so scripts that build them run unchanged.
"""
import functools

__all__ = ["CustomRegOp", "DataType", "custom_info_register"]


def _check(value, kind, name):
    if value is not None and not isinstance(value, kind):
        raise TypeError(f"{value} value must be {name}")
    return value


class CustomRegOp:
    """``ops.CustomRegOp(op_name="Custom")``: registration information for the ``func`` of
    ``ops.Custom``, built call by call and read with ``get_op_info()``."""

    def __init__(self, op_name="Custom"):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []
        self.target_ = "UnKnown"

    @staticmethod
    def _entry(keys, values, kwargs):
        out = {key: value for key, value in zip(keys, values) if value is not None}
        out.update(kwargs)
        return out

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """One input: ``{"index", "name", "paramType"}`` (``param_type``: "required",
        "dynamic" or "optional")."""
        _check(index, int, "int"), _check(name, str, "str"), _check(param_type, str, "str")
        self.inputs.append(self._entry(("index", "name", "paramType"),
                                       (index, name, param_type), kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """One output, as ``input``."""
        _check(index, int, "int"), _check(name, str, "str"), _check(param_type, str, "str")
        self.outputs.append(self._entry(("index", "name", "paramType"),
                                        (index, name, param_type), kwargs))
        return self

    def dtype_format(self, *args):
        """One supported combination: a (dtype, format) pair per input and output, in
        order (``DataType.F32_Default``, ...)."""
        count = len(self.inputs) + len(self.outputs)
        if len(args) != count:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors "
                             f"and output tensors, but got {len(args)} vs {count}")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three "
                                 "elements")
            for item in arg:
                _check(item, str, "str")
        self.dtype_format_.append(tuple(args))
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None,
             **kwargs):
        """One attribute: ``{"name", "paramType", "type", "defaultValue"}``."""
        for value in (name, param_type, value_type, default_value):
            _check(value, str, "str")
        self.attr_.append(self._entry(("name", "paramType", "type", "defaultValue"),
                                      (name, param_type, value_type, default_value), kwargs))
        return self

    def fusion_type(self, fusion_type):
        _check(fusion_type, str, "str")
        self.fusion_type_ = fusion_type
        return self

    def target(self, target=None):
        """The device this information is for: "Ascend", "GPU" or "CPU"."""
        _check(target, str, "str")
        self.target_ = target
        return self

    def get_op_info(self):
        """The information as a dict (the trailing ``_`` of the builder's fields dropped)."""
        return {key.rstrip("_"): value for key, value in vars(self).items()}


# MindSpore's spelling of each dtype, and the formats it names per dtype: Ascend's layouts
# (5HD, FracZ, ...) are names only here; every tensor is in the default (row-major) format.
_DTYPES = {"BOOL": "bool", "I8": "int8", "U8": "uint8", "I16": "int16", "U16": "uint16",
           "I32": "int32", "U32": "uint32", "I64": "int64", "U64": "uint64",
           "F16": "float16", "F32": "float32", "F64": "float64", "BF16": "bfloat16"}
_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z",
            "FracNZ": "FRACTAL_NZ", "C1HWNCoC0": "C1HWNCoC0", "NCHW": "NCHW", "NHWC": "NHWC",
            "HWCN": "HWCN", "NDHWC": "NDHWC", "ChannelLast": "ChannelLast"}
_EXTRA_FORMATS = {  # formats MindSpore names for some dtypes only
    "NCDHW": ("I8", "U8", "I32", "F16", "F32", "BF16"),
    "NDC1HWC0": ("I8", "U8", "I32", "F16", "F32", "BF16"),
    "NC1HWC0": ("I8", "U8"),
    "DHWCN": ("F16", "F32", "BF16"), "FRACTAL_Z_3D": ("F16", "F32", "BF16"),
    "FracZNLSTM": ("F16", "F32", "BF16"), "FracZNRNN": ("F16", "F32", "BF16"),
    "ND_RNNBIAS": ("F16", "F32", "BF16")}
_EXTRA_SPELLING = {"FracZNLSTM": "FRACTAL_ZN_LSTM", "FracZNRNN": "FRACTAL_ZN_RNN",
                   "ND_RNNBIAS": "ND_RNN_BIAS"}


def _data_types():
    table = {"None_None": ("", ""), "None_Default": ("", "DefaultFormat")}
    for prefix, dtype in _DTYPES.items():
        for suffix, layout in _FORMATS.items():
            table[f"{prefix}_{suffix}"] = (dtype, layout)
        for suffix, prefixes in _EXTRA_FORMATS.items():
            if prefix in prefixes:
                table[f"{prefix}_{suffix}"] = (dtype, _EXTRA_SPELLING.get(suffix, suffix))
        table[f"{prefix}_Default_Tuple"] = (dtype, "DefaultFormat", "tuple")
        table[f"{prefix}_Default_List"] = (dtype, "DefaultFormat", "list")
    for prefix, dtype in (("C64", "complex64"), ("C128", "complex128")):
        table[f"{prefix}_Default"] = (dtype, "DefaultFormat")
        table[f"{prefix}_Default_Tuple"] = (dtype, "DefaultFormat", "tuple")
    return table


DataType = type("DataType", (), {
    "__doc__": "``ops.DataType``: (dtype, format) pairs for ``CustomRegOp.dtype_format``, "
               "named ``<dtype>_<format>`` (``F32_Default`` is ``('float32', "
               "'DefaultFormat')``, ``I32_None`` is ``('int32', '')``).",
    "__module__": __name__, **_data_types()})


def custom_info_register(*reg_info):
    """``ops.custom_info_register(*reg_info)``: a decorator binding registration
    information (``CustomRegOp(...).get_op_info()``) to a function given to ``ops.Custom``
    (``reg_info=`` of ``Custom`` takes precedence)."""
    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator
