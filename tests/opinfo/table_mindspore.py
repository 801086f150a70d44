"""Where the table's entries differ from MindSpore 2.10 on purpose, and why. The results
are recorded in mindspore_2_10.json (``mindspore_record.py``); test_mindspore.py fails on
any difference not listed here and on any listed one that no longer exists. An entry may
also carry its own ``ms_differs=``; these are the ones found when the table was built,
grouped by reason. Most are MindSpore 2.10's CPU kernels departing from IEEE / NumPy /
PyTorch at edge values; the dtype ones are choices stated per op in docs/ops.md."""
from .core import TABLE

NAN_PROPAGATES = ("NaN propagates (IEEE, NumPy, PyTorch); MindSpore 2.10's CPU kernel returns "
                  "a number for NaN inputs")
IEEE_EDGES = ("at zero, infinite and NaN operands the result is IEEE's (NumPy, PyTorch); "
              "MindSpore 2.10's CPU kernel returns other infinities / NaN there")
COMPARISONS = ("IEEE comparisons: NaN equals nothing, infinities compare exactly (NumPy, "
               "PyTorch); MindSpore 2.10's CPU kernel compares within a tolerance")
TRUTH = ("a number is true when it is not 0, NaN included (NumPy, PyTorch); MindSpore 2.10's "
         "CPU kernel treats NaN and infinities otherwise")
UNINITIALISED = ("an empty reduction / contraction gives its identity (0, or 1 for prod) "
                 "(NumPy, PyTorch); MindSpore 2.10's CPU kernel returns uninitialised memory")
INF_ROWS = ("a row holding +inf gives NaN (inf - inf; PyTorch); MindSpore 2.10 gives the "
            "limit")

NAN_ORDER = ("NaN sorts after every number and counts as the largest in topk (NumPy, "
             "PyTorch); MindSpore 2.10's CPU kernels order it otherwise")
INT_ACTIVATIONS = ("bool and integers give float32 (the float constants of the definition "
                   "promote them); MindSpore 2.10 keeps the integer dtype")

MS_DIFFERS = {
    "log": {"value:edge": "subnormal inputs are numbers (log of the smallest float32 "
                          "subnormal is -103.3); MindSpore 2.10's CPU kernel flushes them"},
    "softplus": {"value:edge": NAN_PROPAGATES},
    "gelu": {"value:edge": "gelu(max) is max (x * Phi(x)); MindSpore 2.10 overflows to inf",
             "value:edge tanh": "gelu(max) is max; MindSpore 2.10 overflows to inf"},
    "sign": {"value:edge": "sign(NaN) is NaN (NumPy); MindSpore 2.10 and PyTorch give 0"},
    "relu": {"value:edge": NAN_PROPAGATES},
    "relu6": {"value:edge": NAN_PROPAGATES},
    "hardtanh": {"value:edge": NAN_PROPAGATES,
                 "dtype": "integers give float32 (the float bounds promote them, as clamp "
                          "does); MindSpore 2.10 keeps the integer dtype"},
    "clamp": {"value:edge": NAN_PROPAGATES},
    "mish": {"value:edge": "mish(x) is x for huge x; MindSpore 2.10 gives NaN there"},
    "div": {"value:edge grid": IEEE_EDGES},
    "floor_div": {"value:edge grid": IEEE_EDGES},
    "floor_mod": {"value:edge grid": IEEE_EDGES},
    "maximum": {"value:edge grid": NAN_PROPAGATES},
    "minimum": {"value:edge grid": NAN_PROPAGATES},
    "max_pool2d": {"value:edge": NAN_PROPAGATES},
    "logcumsumexp": {"value:edge": NAN_PROPAGATES, "value:edge rows": NAN_PROPAGATES},
    **{name: {"value:edge grid": COMPARISONS} for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    **{name: {"value:edge grid": TRUTH} for name in ("logical_and", "logical_or", "logical_xor")},
    "any": {"value:edge rows": TRUTH, "value:empty axis": UNINITIALISED,
            "dtype": "any and all return bool; MindSpore 2.10's any of uint8 returns uint8"},
    "prod": {"value:empty axis": UNINITIALISED},
    **{name: {"value:empty contraction": UNINITIALISED}
       for name in ("matmul", "bmm", "dot", "tensor_dot")},
    "mean": {"dtype": "the mean of bool / integers is float32; MindSpore 2.10 keeps the "
                      "integer dtype and truncates"},
    "argmin": {"dtype": "int64 indices, as argmax and PyTorch; MindSpore 2.10's argmin gives "
                        "int32"},
    "cummin": {"dtype": "int64 indices, as cummax and PyTorch; MindSpore 2.10's cummin gives "
                        "int32"},
    "cumsum": {"dtype": "integers accumulate as in sum (int64 for bool, signed integers and "
                        "uint8), so a cumsum's last value is the sum; MindSpore 2.10's cumsum "
                        "keeps the integer dtype and wraps"},
    "cumprod": {"dtype": "uint16 / uint32 / uint64 keep their dtype, as in prod; MindSpore "
                         "2.10's cumprod gives int64"},
    "leaky_relu": {"dtype": "bool and integers give float32 (x * alpha); MindSpore 2.10 keeps "
                            "the input dtype"},
    "var": {"value:ddof > n": "ddof > n divides by max(n - ddof, 0) (NumPy): inf; MindSpore "
                              "2.10 and PyTorch divide by the negative count"},
    "std": {"value:ddof > n": "ddof > n divides by max(n - ddof, 0) (NumPy): inf; MindSpore "
                              "2.10 gives NaN"},
    "logsumexp": {"value:edge rows": "a row holding +inf gives +inf (PyTorch, SciPy); "
                                     "MindSpore 2.10 gives NaN"},
    "softmax": {"value:edge rows": INF_ROWS},
    "log_softmax": {"value:edge rows": INF_ROWS},
    "nonzero": {"value:2-d": TRUTH},
    "binary_cross_entropy": {
        "value:empty": UNINITIALISED,
        "value:weight, sum": "a (C,) weight broadcasts over the loss (NumPy, PyTorch); "
                             "MindSpore 2.10's CPU kernel gives another sum unless the "
                             "weight has the loss's full shape"},
    "cosine_embedding_loss": {"value:a zero vector": "a zero vector has cosine 0 (1e-12 is "
                                                     "added to the squared norms, PyTorch); "
                                                     "MindSpore 2.10 gives NaN"},
    **{name: {"value:edge": NAN_ORDER} for name in ("argsort", "sort", "topk")},
    **{name: {"dtype": INT_ACTIVATIONS} for name in ("selu", "hardsigmoid")},
    "hardswish": {"dtype": INT_ACTIVATIONS,
                  "value:edge": "hardswish(-inf) is NaN (-inf * 0, the formula, as PyTorch); "
                                "MindSpore 2.10 gives 0"},
    "fast_gelu": {"value:edge": "fast_gelu(inf) is inf (x * sigmoid(1.702 x)); MindSpore 2.10 "
                                "gives NaN"},
    "logsigmoid": {"value:edge": "logsigmoid(x) is x for very negative x, also at the float "
                                 "minimum; MindSpore 2.10 overflows to -inf"},
    "baddbmm": {"value:beta = 0 ignores the input": "beta = 0 does not read the input, so "
                                                    "its NaN does not propagate (PyTorch); "
                                                    "MindSpore 2.10 computes 0 * input",
                "value:empty contraction": UNINITIALISED},
    "clip_by_global_norm": {"value:an empty tensor": UNINITIALISED + " (in the norm)"},
    "avg_pool2d": {"value:*": "ops.avg_pool2d follows nn.AvgPool2d: (kernel_size, stride="
                              "kernel_size, pad_mode, padding, ...); MindSpore 2.10's "
                              "functional avg_pool2d defaults stride to 1 and has no pad_mode"},
}

for _name, _differs in MS_DIFFERS.items():
    TABLE[_name].ms_differs = {**_differs, **TABLE[_name].ms_differs}
