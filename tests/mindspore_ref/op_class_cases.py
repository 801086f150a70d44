"""Sample calls of MindSpore's operator classes, shared by the recorder (run with MindSpore's
interpreter: ``record_op_classes.py``) and the test (``tests/core/test_op_classes.py``).

Plain NumPy only, so both interpreters import it. A case is
``(class name, constructor keywords, inputs)``; an input is an ndarray (a tensor), a Python
value passed as it is, ``("dtype", name)`` for a dtype, or ``("tensors", [arrays])`` for a
tuple of tensors.
"""
import numpy as np


def _dtype(name):
    return ("dtype", name)


def _tensors(*arrays):
    return ("tensors", list(arrays))


def cases():
    rng = np.random.default_rng(20)

    def f(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def pos(*shape):
        return rng.uniform(0.5, 2.0, shape).astype(np.float32)

    def ints(*shape, hi=4):
        return rng.integers(0, hi, shape).astype(np.int32)

    def probs(*shape):
        p = rng.uniform(0.1, 1.0, shape).astype(np.float32)
        return p / p.sum(-1, keepdims=True)

    a, b = f(2, 3), f(2, 3)
    x3 = f(2, 3, 4)
    unary = [(name, {}, [f(2, 3)]) for name in
             ("Abs", "Neg", "Sign", "Exp", "Sin", "Cos", "Tanh", "Sigmoid", "ReLU", "Erf",
              "Softsign", "Floor", "Ceil", "Round", "Square", "ZerosLike", "OnesLike",
              "HSwish", "HSigmoid", "GeLU", "FastGeLU", "ReLU6", "Softplus", "Mish",
              "Atan", "Expm1", "SeLU", "IsNan", "IsInf", "IsFinite")]
    unary += [(name, {}, [pos(2, 3)]) for name in ("Log", "Sqrt", "Rsqrt", "Reciprocal",
                                                   "Log1p", "Tan")]
    binary = [(name, {}, [f(2, 3), f(3)]) for name in
              ("Add", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Atan2",
               "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
               "SquaredDifference")]
    binary += [("Pow", {}, [pos(2, 3), f(2, 3)]),
               ("FloorDiv", {}, [f(2, 3) * 4, pos(2, 3)]),
               ("FloorMod", {}, [f(2, 3) * 4, pos(2, 3)])]
    bools = [(name, {}, [rng.random((2, 3)) > 0.5, rng.random((2, 3)) > 0.5])
             for name in ("LogicalAnd", "LogicalOr", "LogicalXor")]
    bools += [("LogicalNot", {}, [rng.random((2, 3)) > 0.5]),
              ("BitwiseAnd", {}, [ints(2, 3, hi=9), ints(2, 3, hi=9)]),
              ("BitwiseOr", {}, [ints(2, 3, hi=9), ints(2, 3, hi=9)]),
              ("BitwiseXor", {}, [ints(2, 3, hi=9), ints(2, 3, hi=9)])]
    logits, labels = f(4, 5), ints(4, hi=5)
    onehot = np.eye(5, dtype=np.float32)[ints(4, hi=5)]
    structured = [
        ("MatMul", {}, [f(2, 3), f(3, 4)]),
        ("MatMul", {"transpose_a": True}, [f(3, 2), f(3, 4)]),
        ("MatMul", {"transpose_b": True}, [f(2, 3), f(4, 3)]),
        ("MatMul", {"transpose_a": True, "transpose_b": True}, [f(3, 2), f(4, 3)]),
        ("BatchMatMul", {}, [f(2, 2, 3), f(2, 3, 4)]),
        ("BatchMatMul", {"transpose_b": True}, [f(2, 2, 3), f(2, 4, 3)]),
        ("BatchMatMul", {"transpose_a": True}, [f(2, 3, 2), f(2, 3, 4)]),
        ("Transpose", {}, [x3, (2, 0, 1)]),
        ("Reshape", {}, [x3, (4, -1)]),
        ("ExpandDims", {}, [a, -1]),
        ("Squeeze", {}, [f(1, 3, 1)]),
        ("Squeeze", {"axis": 2}, [f(1, 3, 1)]),
        ("Flatten", {}, [x3]),
        ("Cast", {}, [a, _dtype("int32")]),
        ("Cast", {}, [ints(2, 3), _dtype("float16")]),
        ("Tile", {}, [a, (2, 1, 2)]),
        ("BroadcastTo", {"shape": (4, 2, 3)}, [a]),
        ("Shape", {}, [x3]),
        ("Rank", {}, [x3]),
        ("Size", {}, [x3]),
        ("ReduceMean", {}, [x3]),
        ("ReduceMean", {"keep_dims": True}, [x3, 1]),
        ("ReduceMean", {}, [x3, (0, 2)]),
        ("ReduceSum", {"keep_dims": True}, [x3, (1, 2)]),
        ("ReduceSum", {}, [x3]),
        ("ReduceMax", {}, [x3, 2]),
        ("ReduceMax", {"keep_dims": True}, [x3]),
        ("ReduceMin", {}, [x3, (0, 1)]),
        ("ReduceProd", {"keep_dims": True}, [pos(2, 3), 1]),
        ("ReduceAll", {}, [rng.random((2, 3)) > 0.3, 1]),
        ("ReduceAny", {"keep_dims": True}, [rng.random((2, 3)) > 0.7, 0]),
        ("Softmax", {}, [x3]),
        ("Softmax", {"axis": 1}, [x3]),
        ("Softmax", {"axis": (0,)}, [x3]),
        ("LogSoftmax", {"axis": 1}, [x3]),
        ("Concat", {}, [_tensors(a, b)]),
        ("Concat", {"axis": 1}, [_tensors(a, b, f(2, 1))]),
        ("Stack", {}, [_tensors(a, b)]),
        ("Stack", {"axis": -1}, [_tensors(a, b)]),
        ("Unstack", {}, [x3]),
        ("Unstack", {"axis": 2}, [x3]),
        ("Split", {"axis": 2, "output_num": 2}, [x3]),
        ("Split", {"axis": 1, "output_num": 3}, [x3]),
        ("OneHot", {}, [ints(3, hi=4), 4, np.float32(1.0), np.float32(0.0)]),
        ("OneHot", {"axis": 0}, [ints(3, hi=4), 4, np.float32(2.0), np.float32(-1.0)]),
        ("Gather", {}, [x3, ints(5, hi=3), 1]),
        ("Gather", {}, [f(5, 2), ints(2, 3, hi=5), 0]),
        ("GatherD", {}, [a, 1, ints(2, 2, hi=3)]),
        ("Select", {}, [rng.random((2, 3)) > 0.5, a, b]),
        ("Argmax", {}, [x3]),
        ("Argmax", {"axis": 1}, [x3]),
        ("Argmax", {"axis": 0, "output_type": _dtype("int64")}, [x3]),
        ("Argmin", {"axis": 2}, [x3]),
        ("ArgMaxWithValue", {}, [x3]),
        ("ArgMaxWithValue", {"axis": 2, "keep_dims": True}, [x3]),
        ("ArgMinWithValue", {"axis": 1}, [x3]),
        ("TopK", {}, [x3, 2]),
        ("TopK", {"sorted": True}, [f(6), 3]),
        ("Sort", {}, [x3]),
        ("Sort", {"axis": 0, "descending": True}, [x3]),
        ("LayerNorm", {}, [x3, pos(3, 4), f(3, 4)]),
        ("LayerNorm", {"begin_norm_axis": -1, "begin_params_axis": -1}, [x3, pos(4), f(4)]),
        ("LayerNorm", {"begin_norm_axis": 1, "begin_params_axis": -1, "epsilon": 1e-5},
         [x3, pos(4), f(4)]),
        ("BiasAdd", {}, [x3, f(3)]),
        ("BiasAdd", {}, [f(2, 3, 2, 2), f(3)]),
        ("Elu", {}, [f(2, 3)]),
        ("PReLU", {}, [f(2, 3, 2), pos(3) * 0.2]),
        ("SoftmaxCrossEntropyWithLogits", {}, [logits, onehot]),
        ("SoftmaxCrossEntropyWithLogits", {}, [logits, probs(4, 5)]),
        ("SparseSoftmaxCrossEntropyWithLogits", {}, [logits, labels]),
        ("SparseSoftmaxCrossEntropyWithLogits", {"is_grad": True}, [logits, labels]),
        ("KLDivLoss", {}, [f(2, 3), probs(2, 3)]),
        ("KLDivLoss", {"reduction": "sum"}, [f(2, 3), probs(2, 3)]),
        ("KLDivLoss", {"reduction": "batchmean"}, [f(2, 3), probs(2, 3)]),
        ("BCEWithLogitsLoss", {}, [f(2, 3), rng.uniform(0, 1, (2, 3)).astype(np.float32),
                                   pos(2, 3), pos(3)]),
        ("BCEWithLogitsLoss", {"reduction": "none"},
         [f(2, 3), rng.uniform(0, 1, (2, 3)).astype(np.float32), pos(2, 3), pos(3)]),
        ("BinaryCrossEntropy", {}, [rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32),
                                    rng.uniform(0, 1, (2, 3)).astype(np.float32),
                                    pos(2, 3)]),
        ("SmoothL1Loss", {}, [f(2, 3), f(2, 3)]),
        ("SmoothL1Loss", {"beta": 0.5, "reduction": "mean"}, [f(2, 3), f(2, 3)]),
        ("NLLLoss", {}, [f(4, 5), labels, pos(5)]),
        ("NLLLoss", {"reduction": "sum"}, [f(4, 5), labels, pos(5)]),
        ("NLLLoss", {"reduction": "none"}, [f(4, 5), labels, pos(5)]),
        ("Conv2D", {"out_channel": 4, "kernel_size": 3}, [f(1, 2, 5, 5), f(4, 2, 3, 3)]),
        ("Conv2D", {"out_channel": 4, "kernel_size": 3, "pad_mode": "pad", "pad": 1,
                    "stride": 2}, [f(1, 2, 5, 5), f(4, 2, 3, 3)]),
        ("Conv2D", {"out_channel": 4, "kernel_size": 3, "pad_mode": "same", "group": 2},
         [f(1, 2, 5, 5), f(4, 1, 3, 3)]),
        ("MaxPool", {"kernel_size": 2, "strides": 2}, [f(1, 2, 4, 4)]),
        ("MaxPool", {"kernel_size": 3, "strides": 1, "pad_mode": "same"}, [f(1, 2, 4, 4)]),
        ("AvgPool", {"kernel_size": 2, "strides": 2}, [f(1, 2, 4, 4)]),
        ("Pad", {"paddings": ((1, 0), (0, 2))}, [a]),
        ("Fill", {}, [_dtype("float32"), (2, 3), 1.5]),
        ("Ones", {}, [(2, 3), _dtype("float32")]),
        ("Zeros", {}, [(3,), _dtype("int32")]),
        ("Eye", {}, [2, 3, _dtype("float32")]),
        ("L2Normalize", {}, [a]),
        ("L2Normalize", {"axis": 1, "epsilon": 1e-12}, [a]),
        ("AddN", {}, [_tensors(a, b, a)]),
        ("Depend", {}, [a, b]),
        ("StopGradient", {}, [a]),
        ("Slice", {}, [x3, (0, 1, 1), (2, -1, 2)]),
        ("Tril", {}, [f(3, 4)]),
        ("Triu", {"diagonal": -1}, [f(3, 4)]),
        ("IsClose", {"rtol": 0.1, "atol": 0.2}, [a, a + f(2, 3) * 0.2]),
        ("Lerp", {}, [a, b, pos(2, 3) * 0.3]),
        ("Dense", {}, [f(2, 3), f(4, 3), f(4)]),
        ("CeLU", {"alpha": 0.5}, [f(2, 3)]),
        ("GLU", {"axis": 1}, [f(2, 4)]),
        ("Identity", {}, [a]),
        ("Range", {}, [np.float32(1.0), np.float32(4.0), np.float32(0.5)]),
        ("LinSpace", {}, [np.float32(-1.0), np.float32(2.0), 7]),
        ("ReduceStd", {}, [x3]),
        ("ReduceStd", {"axis": 1, "unbiased": False, "keep_dims": True}, [x3]),
        ("Mod", {}, [f(2, 3) * 4, f(2, 3) + 3]),
        ("Mod", {}, [np.array([7, -7, 5, -5], np.int32), np.array([3, 3, -2, -2], np.int32)]),
        ("MaskedFill", {}, [a, rng.random((2, 3)) > 0.5, np.float32(-7.0)]),
        ("ScalarToTensor", {}, [3, _dtype("float32")]),
        ("TensorShape", {}, [x3]),
        ("Expand", {}, [f(3, 1), np.array([2, 3, 4], np.int64)]),
        ("TensorAdd", {}, [a, b]),
        ("L2Loss", {}, [a]),
    ]
    return (unary + binary + bools + structured + _special_math_cases(rng, f, pos)
            + _shrink_and_margin_cases(f) + _array_cases(f) + _window_cases()
            + _linalg_cases(f) + _math_extra_cases(rng, f, pos) + _sparse_cases(f)
            + _nn_layer_cases(f) + _image_cases(f))


def _sparse_cases(f):
    """Sparse tensors as (indices, values, shape): ops/sparse/ (int64 indices, as the
    kernels of SparseSlice and Coalesce require)."""
    index = np.array([[0, 1], [1, 2], [2, 0], [0, 1]], np.int64)
    shape = np.array([3, 4], np.int64)
    return [("SparseToDense", {}, [index[:3], f(3), (3, 4)]),
            ("SparseTensorDenseAdd", {}, [index, f(4), shape, f(3, 4)]),
            ("SparseTensorDenseMatmul", {}, [index, f(4), (3, 4), f(4, 2)]),
            ("SparseTensorDenseMatmul", {"adjoint_st": True, "adjoint_dt": True},
             [index, f(4), (3, 4), f(2, 3)]),
            ("SparseSlice", {}, [index, f(4), shape, np.array([0, 1], np.int64),
                                 np.array([2, 3], np.int64)]),
            ("Coalesce", {}, [np.ascontiguousarray(index.T), f(4), shape])]


def _special_math_cases(rng, f, pos):
    """The classes of ops/special_math.py (MindSpore's CPU kernels' dtypes)."""
    unit = rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)
    out = [(name, {}, [unit]) for name in ("ACos", "Asin", "Atanh", "Erfinv")]
    out += [(name, {}, [f(2, 3)]) for name in
            ("Asinh", "Cosh", "Sinh", "Erfc", "Sinc", "Trunc", "BesselI0", "BesselI0e",
             "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1")]
    out += [(name, {}, [pos(2, 3)]) for name in
            ("Lgamma", "Digamma", "BesselK0", "BesselK0e", "BesselK1", "BesselK1e",
             "BesselY0", "BesselY1")]
    out += [("Acosh", {}, [pos(2, 3) + 1]),
            ("Polygamma", {}, [np.array(1, np.int64), pos(2, 3)]),
            ("Logit", {}, [rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32)]),
            ("Logit", {"eps": 0.2}, [rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32)]),
            ("NanToNum", {}, [np.array([np.nan, np.inf, -np.inf, 1.5], np.float32)]),
            ("NanToNum", {"nan": 1.0, "posinf": 2.0, "neginf": -2.0},
             [np.array([np.nan, np.inf, -np.inf, 1.5], np.float32)])]
    out += [(name, {}, [f(2, 3), f(2, 3)]) for name in ("Hypot", "Fmax", "Xdivy", "NextAfter")]
    out += [(name, {}, [pos(2, 3), pos(2, 3)]) for name in ("Igamma", "Igammac", "Xlogy")]
    out += [("TruncateDiv", {}, [f(2, 3) * 4, pos(2, 3)]),
            ("TruncateMod", {}, [f(2, 3) * 4, pos(2, 3)]),
            ("Heaviside", {}, [np.array([-1.0, 0.0, 2.0], np.float32), np.float32(0.5)]),
            ("ApproximateEqual", {"tolerance": 0.5}, [f(2, 3), f(2, 3)])]
    small = np.array([[12, -9, 7], [0, 5, 30]], np.int32)
    out += [(name, {}, [small, np.array([[8, 6, 3], [4, 0, 12]], np.int32)])
            for name in ("Gcd", "Lcm")]
    out += [(name, {}, [small, np.array([[1, 2, 0], [3, 1, 2]], np.int32)])
            for name in ("LeftShift", "RightShift")]
    return out



def _shrink_and_margin_cases(f):
    """The classes of helper F's activations and losses (activation.py, loss_extra.py)."""
    x = f(3, 4)
    classes = np.array([1, 0, 3], np.int64)
    weight = np.array([1.0, 2.0, 0.5, 1.5], np.float32)
    return [("HShrink", {}, [x]), ("HShrink", {"lambd": 0.8}, [x]),
            ("SoftShrink", {}, [x]), ("SoftShrink", {"lambd": 0.3}, [x]),
            ("MultiMarginLoss", {}, [x, classes, np.ones(4, np.float32)]),
            ("MultiMarginLoss", {"p": 2, "margin": 0.5, "reduction": "none"},
             [x, classes, weight])]

def _window_cases():
    """The window classes: a 0-d (Bartlett / Blackman) or one-element (Hamming) length."""
    n = np.array(6, np.int64)
    return [("BartlettWindow", {}, [n]),
            ("BartlettWindow", {"periodic": False, "dtype": _dtype("float64")}, [n]),
            ("BlackmanWindow", {}, [np.array(7, np.int32)]),
            ("BlackmanWindow", {"periodic": False}, [n]),
            ("HammingWindow", {}, [np.array([5], np.int64)]),
            ("HammingWindow", {"periodic": False, "alpha": 0.5, "beta": 0.5,
                               "dtype": _dtype("float64")}, [np.array([6], np.int32)])]


def _array_cases(f):
    """Scatter / gather, segments, searching, cumulative and rearranging classes
    (ops/array_classes.py); the in-place ones (Scatter*, IndexAdd, InplaceIndexAdd) are
    checked in tests/core/test_array_classes.py."""
    x, rows = f(4, 3), np.array([[0], [2], [0]], np.int32)
    pairs = np.array([[0, 1], [3, 2]], np.int64)
    out = [("TensorScatter" + r, {}, [x, rows, f(3, 3)])
           for r in ("Add", "Sub", "Mul", "Max", "Min", "Update")]
    out += [("TensorScatterDiv", {}, [x, pairs, np.array([2.0, -0.5], np.float32)]),
            ("ScatterNd", {}, [rows, f(3, 2), (4, 2)]),
            ("TensorScatterElements", {"axis": 1, "reduction": "add"},
             [x, np.array([[1, 1], [0, 2]], np.int32), f(2, 2)]),
            ("ScatterAddWithAxis", {"axis": 0}, [x, np.array([[1, 0, 3]], np.int32), f(1, 3)]),
            ("GatherNd", {}, [x, pairs]),
            ("IndexFill", {}, [x, 1, np.array([0, 2], np.int32), np.float32(7.0)]),
            ("InplaceAdd", {"indices": (0, 2)}, [x, f(2, 3)]),
            ("InplaceSub", {"indices": 1}, [x, f(1, 3)]),
            ("InplaceUpdate", {"indices": (3, 0)}, [x, f(2, 3)]),
            ("InplaceUpdateV2", {}, [x, (1,), f(1, 3)]),
            ("MaskedSelect", {}, [x, np.array([True, False, True])]),
            ("MaskedScatter", {}, [x, np.array([True, False, True]), f(8)]),
            ("Bincount", {}, [np.array([0, 1, 1, 5], np.int32), np.int32(4),
                              np.array([1.0, 2.0, 3.0, 4.0], np.float32)])]
    ids = np.array([0, -1, 0, 2], np.int32)
    out += [("UnsortedSegment" + r, {}, [x, ids, 3]) for r in ("Sum", "Max", "Min", "Prod")]
    out += [("Segment" + r, {}, [x, np.array([0, 0, 2, 2], np.int32)])
            for r in ("Sum", "Max", "Min", "Prod", "Mean")]
    sorted_rows = np.sort(f(2, 5), -1)
    out += [("SearchSorted", {"dtype": _dtype("int32"), "right": True},
             [np.sort(f(5)), f(3)]),
            ("Bucketize", {"boundaries": [-1.0, 0.0, 1.5]}, [f(2, 3)]),
            ("Unique", {}, [np.array([3, 1, 3, 2], np.int32)]),
            ("UniqueWithPad", {}, [np.array([3, 1, 3, 2], np.int64), np.int64(-1)]),
            ("NonZero", {}, [np.array([[0.0, 1.5], [2.0, 0.0]], np.float32)]),
            ("Median", {}, [f(3, 4)]),
            ("Median", {"global_median": True}, [f(3, 4)]),
            ("Median", {"axis": 1, "keep_dims": True, "ignore_nan": True}, [f(3, 4)]),
            ("CumSum", {"exclusive": True}, [x, 1]),
            ("CumSum", {"reverse": True}, [np.array([[1, 2, 3]], np.int32), 1]),
            ("CumProd", {"exclusive": True, "reverse": True}, [x, 0]),
            ("CumulativeLogsumexp", {"exclusive": True}, [x, np.array(1, np.int64)]),
            ("Cummax", {"axis": 0}, [x]),
            ("Cummin", {"axis": 1}, [x]),
            ("LowerBound", {}, [sorted_rows, f(2, 3)]),
            ("UpperBound", {"out_type": _dtype("int64")}, [sorted_rows, f(2, 3)]),
            ("NthElement", {}, [x, 1]),
            ("NthElement", {"reverse": True}, [x, 0]),
            ("InTopK", {"k": 2}, [f(3, 4), np.array([0, 3, 1], np.int32)]),
            ("EqualCount", {}, [np.array([1, 2, 3], np.int32), np.array([1, 0, 3], np.int32)]),
            ("ReverseV2", {"axis": (0, 1)}, [x]),
            ("ReverseSequence", {"seq_dim": 1}, [x, np.array([1, 3, 2, 0], np.int32)]),
            ("Pack", {"axis": 1}, [_tensors(x, x)]),
            ("Unpack", {"axis": 1}, [x]),
            ("StridedSlice", {"shrink_axis_mask": 2}, [f(3, 4, 2), (0, 1, 0), (3, 2, 2),
                                                        (2, 1, 1)]),
            ("BatchToSpaceND", {"block_shape": (2, 2), "crops": ((0, 0), (0, 1))},
             [f(4, 1, 2, 2)]),
            ("SpaceToBatchND", {"block_shape": (2, 2), "paddings": ((0, 0), (1, 1))},
             [f(1, 2, 2, 2)]),
            ("DepthToSpace", {"block_size": 2}, [f(1, 8, 2, 1)]),
            ("SpaceToDepth", {"block_size": 2}, [f(1, 2, 2, 4)]),
            ("InvertPermutation", {}, [(2, 0, 3, 1)]),
            ("UnravelIndex", {}, [np.array([5, 3], np.int32), np.array([2, 3], np.int32)]),
            ("Meshgrid", {"indexing": "ij"}, [_tensors(f(2), f(3))])]
    return out
def _nn_layer_cases(f):
    """The nn classes of ops/nn_class_rows.py that MindSpore 2.10 runs on CPU (the others:
    tests/core/test_nn_classes.py)."""
    rng = np.random.default_rng(22)
    x4 = f(1, 2, 5, 5)
    labels = (np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64),
              np.array([1, 1, 2, 0, 0], np.int32), np.array([5, 4], np.int32))
    log_probs = np.log(rng.dirichlet(np.ones(4), (5, 2))).astype(np.float32)
    samples = rng.uniform(0, 1, (1, 2, 3)).astype(np.float32)
    pos3 = rng.uniform(0.5, 2.0, 3).astype(np.float32)
    return [("Gelu", {}, [f(2, 3)]), ("FastGelu", {}, [f(2, 3)]),
            ("SigmoidCrossEntropyWithLogits", {},
             [f(2, 3), rng.uniform(0, 1, (2, 3)).astype(np.float32)]),
            ("LRN", {}, [f(1, 6, 2, 2)]),
            ("LRN", {"depth_radius": 2, "bias": 2.0, "alpha": 0.5, "beta": 0.75},
             [f(2, 5, 2, 3)]),
            ("Conv3D", {"out_channel": 3, "kernel_size": 2}, [f(1, 2, 3, 4, 3), f(3, 2, 2, 2, 2)]),
            ("Conv3D", {"out_channel": 4, "kernel_size": (2, 3, 2), "pad_mode": "pad",
                        "pad": (1, 0, 1, 1, 0, 1), "stride": 2, "group": 2},
             [f(1, 4, 3, 4, 3), f(4, 2, 2, 3, 2)]),
            ("Conv2DTranspose", {"out_channel": 4, "kernel_size": 3, "pad_mode": "same",
                                 "stride": 2}, [f(1, 2, 3, 3), f(2, 4, 3, 3), (1, 4, 6, 6)]),
            ("Conv2DBackpropInput", {"out_channel": 4, "kernel_size": 2, "pad_mode": "pad",
                                     "pad": (1, 0, 1, 1), "stride": 2},
             [f(1, 4, 2, 3), f(4, 2, 2, 2), (1, 2, 3, 4)]),
            ("Conv3DTranspose", {"in_channel": 2, "out_channel": 4, "kernel_size": 2},
             [f(1, 2, 2, 3, 2), f(2, 4, 2, 2, 2)]),
            ("Conv3DTranspose", {"in_channel": 4, "out_channel": 4, "kernel_size": (1, 2, 3),
                                 "pad_mode": "pad", "pad": (0, 1, 1, 0, 1, 1), "stride": 2,
                                 "group": 2, "output_padding": 1},
             [f(1, 4, 2, 2, 3), f(4, 2, 1, 2, 3)]),
            ("Im2Col", {"ksizes": 2}, [x4]),
            ("Im2Col", {"ksizes": (2, 3), "strides": (2, 1), "dilations": (1, 2), "pads": (1, 0)},
             [x4]),
            ("Col2Im", {"kernel_size": 2}, [f(1, 2, 4, 12), np.array([4, 5], np.int32)]),
            ("CTCLoss", {}, [f(5, 2, 4)] + list(labels)),
            ("CTCLoss", {"preprocess_collapse_repeated": True, "ctc_merge_repeated": False},
             [f(5, 2, 4)] + list(labels)),
            ("CTCLossV2", {}, [log_probs, np.array([[1, 2], [3, 1]], np.int32),
                               np.array([5, 4], np.int32), np.array([2, 1], np.int32)]),
            ("CTCGreedyDecoder", {}, [f(5, 2, 4), np.array([5, 3], np.int32)]),
            ("FractionalMaxPoolWithFixedKsize", {"ksize": 2, "output_shape": (3, 3)},
             [f(1, 2, 6, 7), samples[:, :, :2]]),
            ("FractionalMaxPool3DWithFixedKsize", {"ksize": 2, "output_shape": (2, 3, 2)},
             [f(1, 2, 4, 5, 4), samples]),
            ("BatchNorm", {}, [f(2, 3, 2, 2), pos3, f(3), f(3), pos3]),
            ("DeformableOffsets", {"strides": (1, 1, 1, 1), "pads": (1, 0, 0, 1), "ksize": (2, 2),
                                   "dilations": (1, 1, 1, 2)},
             [f(1, 2, 4, 4), (f(1, 12, 4, 3) * 0.7).astype(np.float32)])]


def _linalg_cases(f):
    """The classes of ops/linalg_classes.py (decompositions, solves, bands, products)."""
    a = f(3, 3)
    spd = (a @ a.T + 3 * np.eye(3)).astype(np.float32)
    lower = np.linalg.cholesky(spd).astype(np.float32)
    well = (f(3, 3) + 3 * np.eye(3)).astype(np.float32)
    tall = f(4, 3)
    lu = np.array([[2.0, 1.0, 0.5], [0.5, 1.5, 1.0], [0.25, -0.5, 2.0]], np.float32)
    pivots = np.array([2, 3, 3], np.int32)
    k = np.array([-1, 1], np.int32)
    return [("Cholesky", {}, [spd]), ("Cholesky", {"upper": True}, [spd]),
            ("CholeskyInverse", {}, [lower]), ("CholeskySolve", {}, [f(3, 2), lower]),
            ("Qr", {}, [tall]), ("Qr", {"full_matrices": True}, [tall]),
            ("Svd", {}, [np.diag([3.0, 2.0, 1.0]).astype(np.float32)]),
            ("Lstsq", {}, [tall, f(4, 2)]),
            ("MatrixSolveLs", {}, [tall.astype(np.float64), f(4, 2).astype(np.float64),
                                   np.array(0.5, np.float64)]),
            ("LuSolve", {}, [f(3, 2), lu, pivots]), ("LuUnpack", {}, [lu, pivots]),
            ("MatrixPower", {"n": 3}, [f(2, 3, 3)]), ("MatrixSolve", {}, [well, f(3, 2)]),
            ("MatrixSolve", {"adjoint": True}, [well, f(3, 2)]),
            ("MatrixTriangularSolve", {}, [well, f(3, 2)]),
            ("MatrixTriangularSolve", {"lower": False, "adjoint": True}, [well, f(3, 2)]),
            ("MatrixBandPart", {}, [f(3, 4), np.array(1, np.int64), np.array(0, np.int64)]),
            ("MatrixDiagV3", {}, [f(2, 3), k[:1].reshape(()), np.array(4, np.int32),
                                  np.array(-1, np.int32), np.array(0, np.float32)]),
            ("MatrixDiagV3", {"align": "LEFT_RIGHT"},
             [f(3, 3), k, np.array(-1, np.int32), np.array(-1, np.int32),
              np.array(9, np.float32)]),
            ("MatrixDiagPartV3", {}, [f(3, 4), k, np.array(7, np.float32)]),
            ("MatrixSetDiagV3", {"align": "LEFT_LEFT"}, [f(3, 4), f(3, 3), k]),
            ("MatrixDeterminant", {}, [well]), ("LogMatrixDeterminant", {}, [well]),
            ("MatrixInverse", {}, [well]), ("MatrixInverse", {"adjoint": True}, [well]),
            ("Diag", {}, [f(2, 2)]), ("DiagPart", {}, [f(2, 2, 2, 2)]),
            ("Cross", {}, [f(2, 3), f(2, 3)]), ("Cross", {"dim": 0}, [f(3, 2), f(3, 2)]),
            ("Ger", {}, [f(3), f(2)]), ("Cdist", {}, [f(3, 4), f(2, 4)]),
            ("Cdist", {"p": 1.0}, [f(2, 3, 4), f(2, 2, 4)]), ("Pdist", {"p": 3.0}, [f(4, 3)]),
            ("Trace", {}, [f(3, 4)]),
            ("TrilIndices", {"row": 3, "col": 4, "offset": 1}, []),
            ("TriuIndices", {"row": 4, "col": 3, "offset": -1}, []),
            ("TridiagonalMatMul", {}, [f(1, 3), f(1, 3), f(1, 3), f(3, 2)]),
            ("Geqrf", {}, [tall]), ("Orgqr", {}, [tall, f(3)]),
            ("NuclearNorm", {}, [f(3, 4)]), ("NuclearNorm", {"dim": [1, 2], "keepdim": True},
                                             [f(2, 3, 4)]),
            ("Renorm", {"p": 2, "dim": 0, "maxnorm": 1.0}, [f(3, 4)]),
            ("Inv", {}, [f(2, 3)])]


def _math_extra_cases(rng, f, pos):
    """The classes of ops/extra_classes.py that MindSpore 2.10 runs on CPU (the others and
    the random ones: tests/core/test_math_extra_classes.py)."""
    i16 = np.array([0, 1, -3, 127], np.int16)
    out = [("Addcdiv", {}, [f(2, 3), f(2, 3), pos(2, 3), np.array([2.0], np.float32)]),
           ("Addcmul", {}, [f(2, 3), f(3), f(2, 1), np.array([0.5], np.float32)]),
           ("DivNoNan", {}, [f(2, 3), np.array([[1.5, 0.0, -2.0]], np.float32)]),
           ("MulNoNan", {}, [np.array([np.inf, np.nan, 2.0], np.float32),
                             np.array([0.0, 0.0, 3.0], np.float32)]),
           ("Rint", {}, [np.array([-1.5, -0.5, 0.5, 2.5, -2.7], np.float32)]),
           ("Invert", {}, [i16]), ("PopulationCount", {}, [i16]),
           ("SquareSumAll", {}, [f(2, 3), f(2, 3)]),
           ("IdentityN", {}, [_tensors(f(2), np.array([1, 2], np.int32))]),
           ("LogSpace", {"steps": 4}, [np.array(0.0, np.float32), np.array(2.0, np.float32)]),
           ("LogSpace", {"steps": 3, "base": 2, "dtype": _dtype("float64")},
            [np.array(-1.0, np.float32), np.array(1.0, np.float32)]),
           ("Zeta", {}, [pos(2, 3) + 1.0, pos(2, 3)]),
           ("Mvlgamma", {"p": 2}, [pos(2, 3) + 1.0]),
           ("Betainc", {}, [pos(2, 3), pos(2, 3), rng.uniform(0.1, 0.9, (2, 3)).astype(
               np.float32)]),
           ("CheckNumerics", {}, [f(2, 3)]),
           ("Histogram", {"bins": 4, "min": 0.0, "max": 3.0},
            [np.array([1.0, 2.0, 1.0, 0.0, 5.0, -1.0, 2.5], np.float32)]),
           ("Histogram", {"bins": 3}, [np.array([1, 2, 2, 7], np.int32)]),
           ("FillV2", {}, [np.array([2, 3], np.int32), np.array(1.5, np.float32)]),
           ("FillDiagonal", {"fill_value": 5.0}, [f(3, 3)]),
           ("FillDiagonal", {"fill_value": 5.0, "wrap": True}, [f(7, 3)]),
           ("FillDiagonal", {"fill_value": 2.5}, [np.zeros((2, 4), np.int32)]),
           ("CompareAndBitpack", {}, [f(2, 16), np.array(0.0, np.float32)]),
           ("ListDiff", {}, [np.array([1, 2, 3, 4, 2, 6], np.int32),
                             np.array([1, 3, 5], np.int32)]),
           ("ListDiff", {"out_idx": _dtype("int64")}, [np.array([1.0, 2.0, 3.0], np.float32),
                                                       np.array([2.0], np.float32)]),
           ("RaggedRange", {"Tsplits": _dtype("int32")},
            [np.array([2, 5, 8], np.int32), np.array([3, 5, 12], np.int32),
             np.array([1, 1, 1], np.int32)]),
           ("RaggedRange", {"Tsplits": _dtype("int64")},
            [np.array([0.0, 5.0], np.float32), np.array([2.0, 1.0], np.float32),
             np.array([0.5, -1.5], np.float32)]),
           ("DataFormatDimMap", {}, [np.array([0, 1, 2, 3, -1, -4], np.int32)]),
           ("DataFormatDimMap", {"src_format": "NCHW", "dst_format": "NHWC"},
            [np.array([0, 1, 2, 3], np.int64)]),
           ("DataFormatVecPermute", {}, [np.array([1, 2, 3, 4], np.int32)]),
           ("DataFormatVecPermute", {"src_format": "NCHW", "dst_format": "NHWC"},
            [np.arange(8).reshape(4, 2).astype(np.int64)]),
           ("ConjugateTranspose", {}, [f(2, 3, 4), (2, 0, 1)])]
    return out


def _image_cases(f):
    """Detection and image classes (ops/image_classes.py): boxes, sampling, crops, colour."""
    boxes = np.array([[0, 0, 10, 10], [1, 1, 8, 9], [5, 5, 12, 14]], np.float32)
    deltas = np.array([[0.3, -0.2, 0.5, -1.0], [0.0, 0.1, 2.0, 0.2], [-0.4, 0.3, -0.1, 0.6]],
                      np.float32)
    x2, x3 = f(2, 3, 4, 5), f(1, 2, 3, 4, 3)
    grid2 = np.clip(f(2, 3, 2, 2) * 0.7, -1.3, 1.3).astype(np.float32)
    grid3 = np.clip(f(1, 2, 2, 3, 3) * 0.7, -1.3, 1.3).astype(np.float32)
    rgb = np.abs(np.tanh(f(1, 2, 3, 3))).astype(np.float32)
    rois = np.array([[0, 1.2, 0.7, 5.3, 6.1], [1, -2, -1, 3, 2], [1, 4, 3, 4.5, 3.2]], np.float32)
    crop_boxes = np.array([[0.1, 0.2, 0.8, 0.9], [0.9, 0.7, 0.2, 0.1], [-0.2, -0.1, 1.3, 1.1]],
                          np.float32)
    image = f(2, 5, 6, 3)
    return [("BoundingBoxEncode", {}, [boxes, boxes[::-1] + 1]),
            ("BoundingBoxEncode", {"means": (0.1, 0.0, -0.2, 0.0), "stds": (0.5, 1.0, 2.0, 1.0)},
             [boxes, boxes[::-1] + 1]),
            ("BoundingBoxDecode", {"max_shape": (12, 15)}, [boxes, deltas]),
            ("BoundingBoxDecode", {"max_shape": (20, 20), "means": (0.1, 0.2, 0.3, 0.4),
                                   "stds": (0.5, 2.0, 1.5, 1.0), "wh_ratio_clip": 0.5},
             [boxes, deltas]),
            ("CheckValid", {}, [boxes, np.array([12, 14, 1], np.float32)]),
            ("IOU", {}, [boxes, boxes[:2] + 1]), ("IOU", {"mode": "iof"}, [boxes, boxes[:2] + 1]),
            ("GridSampler2D", {}, [x2, grid2]),
            ("GridSampler2D", {"interpolation_mode": "nearest", "padding_mode": "border",
                               "align_corners": True}, [x2, grid2]),
            ("GridSampler3D", {"padding_mode": "reflection"}, [x3, grid3]),
            ("AffineGrid", {}, [f(2, 2, 3), (2, 3, 4, 5)]),
            ("AffineGrid", {"align_corners": True}, [f(1, 3, 4), (1, 2, 2, 3, 4)]),
            ("CropAndResize", {}, [image, crop_boxes, np.array([0, 1, 1], np.int32), (3, 4)]),
            ("CropAndResize", {"method": "nearest", "extrapolation_value": -1.5},
             [image, crop_boxes, np.array([1, 0, 1], np.int32), (4, 1)]),
            ("ROIAlign", {"pooled_height": 2, "pooled_width": 2, "spatial_scale": 0.5},
             [f(2, 3, 7, 8), rois]),
            ("ROIAlign", {"pooled_height": 2, "pooled_width": 3, "spatial_scale": 0.75,
                          "sample_num": 1, "roi_end_mode": 0}, [f(2, 3, 7, 8), rois]),
            ("RGBToHSV", {}, [rgb]), ("HSVToRGB", {}, [rgb]),
            ("AdjustHue", {}, [rgb, np.array(0.3, np.float32)]),
            ("AdjustSaturation", {}, [rgb, np.array(1.5, np.float32)])]


def nn_cases():
    """Cells with deterministic parameters: losses, activations, normalisation, and
    convolutions given their weights (``weight_init`` arrays)."""
    rng = np.random.default_rng(21)

    def f(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def pos(*shape):
        return rng.uniform(0.5, 2.0, shape).astype(np.float32)

    def ints(*shape, hi=4):
        return rng.integers(0, hi, shape).astype(np.int32)

    def probs(*shape, axis=-1):
        p = rng.uniform(0.1, 1.0, shape).astype(np.float32)
        return p / p.sum(axis, keepdims=True)

    logits, labels = f(4, 5), ints(4, hi=5)
    onehot = np.eye(5, dtype=np.float32)[ints(4, hi=5)]
    unit = rng.uniform(0, 1, (2, 3)).astype(np.float32)
    ignored = labels.copy()
    ignored[1] = 2
    losses = [
        ("SoftmaxCrossEntropyWithLogits", {}, [logits, onehot]),
        ("SoftmaxCrossEntropyWithLogits", {"sparse": True}, [logits, labels]),
        ("SoftmaxCrossEntropyWithLogits", {"sparse": True, "reduction": "mean"},
         [logits, labels]),
        ("SoftmaxCrossEntropyWithLogits", {"reduction": "sum"}, [logits, probs(4, 5)]),
        ("CrossEntropyLoss", {}, [logits, labels]),
        ("CrossEntropyLoss", {"label_smoothing": 0.1}, [logits, labels]),
        ("CrossEntropyLoss", {"weight": pos(5), "reduction": "sum"}, [logits, labels]),
        ("CrossEntropyLoss", {"weight": pos(5), "label_smoothing": 0.2}, [logits, labels]),
        ("CrossEntropyLoss", {"ignore_index": 2, "reduction": "none"}, [logits, ignored]),
        ("CrossEntropyLoss", {}, [logits, probs(4, 5)]),
        ("CrossEntropyLoss", {"label_smoothing": 0.3}, [logits, probs(4, 5)]),
        ("CrossEntropyLoss", {}, [f(2, 5, 3), ints(2, 3, hi=5)]),
        ("BCEWithLogitsLoss", {}, [f(2, 3), unit]),
        ("BCEWithLogitsLoss", {"reduction": "sum", "weight": pos(2, 3), "pos_weight": pos(3)},
         [f(2, 3), unit]),
        ("BCELoss", {}, [rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32), unit]),
        ("BCELoss", {"weight": pos(2, 3), "reduction": "none"},
         [rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32), unit]),
        ("SmoothL1Loss", {}, [f(2, 3), f(2, 3)]),
        ("SmoothL1Loss", {"beta": 0.5, "reduction": "mean"}, [f(2, 3), f(2, 3)]),
        ("NLLLoss", {}, [f(4, 5), labels]),
        ("NLLLoss", {"weight": pos(5), "reduction": "sum"}, [f(4, 5), labels]),
        ("NLLLoss", {"ignore_index": 2, "reduction": "none"}, [f(4, 5), ignored]),
        ("KLDivLoss", {}, [f(2, 3), probs(2, 3)]),
        ("KLDivLoss", {"reduction": "batchmean"}, [f(2, 3), probs(2, 3)]),
        ("KLDivLoss", {"reduction": "none"}, [f(2, 3), probs(2, 3)]),
        ("CosineEmbeddingLoss", {}, [f(3, 4), f(3, 4), np.array([1, -1, 1], np.int32)]),
        ("CosineEmbeddingLoss", {"margin": 0.2, "reduction": "none"},
         [f(3, 4), f(3, 4), np.array([-1, -1, 1], np.int32)]),
        ("MSELoss", {}, [f(2, 3), f(2, 3)]),
        ("L1Loss", {"reduction": "sum"}, [f(2, 3), f(2, 3)]),
    ]
    activations = [(name, init, [f(2, 4, 3)]) for name, init in [
        ("ReLU", {}), ("ReLU6", {}), ("LeakyReLU", {"alpha": 0.1}), ("GELU", {}),
        ("GELU", {"approximate": False}), ("SiLU", {}), ("Sigmoid", {}), ("Tanh", {}),
        ("Softmax", {"axis": 1}), ("LogSoftmax", {}), ("ELU", {}), ("Mish", {}),
        ("HSwish", {}), ("HSigmoid", {}), ("PReLU", {}), ("PReLU", {"channel": 4, "w": 0.1}),
        ("SeLU", {}), ("CELU", {"alpha": 0.5}), ("LogSigmoid", {}), ("Softsign", {}),
        ("Hardtanh", {"min_val": -0.5, "max_val": 0.7}), ("GLU", {"axis": 1})]]
    x2 = f(2, 4, 3, 3)
    layers = [
        ("GroupNorm", {"num_groups": 2, "num_channels": 4}, [x2]),
        ("GroupNorm", {"num_groups": 1, "num_channels": 4, "gamma_init": pos(4),
                       "beta_init": f(4)}, [x2]),
        ("Conv1d", {"in_channels": 4, "out_channels": 2, "kernel_size": 3,
                    "weight_init": f(2, 4, 3)}, [f(2, 4, 7)]),
        ("Conv1d", {"in_channels": 4, "out_channels": 2, "kernel_size": 3, "stride": 2,
                    "pad_mode": "pad", "padding": 1, "has_bias": True,
                    "weight_init": f(2, 4, 3), "bias_init": f(2)}, [f(2, 4, 7)]),
        ("Conv1d", {"in_channels": 4, "out_channels": 4, "kernel_size": 2, "dilation": 2,
                    "pad_mode": "valid", "group": 2, "weight_init": f(4, 2, 2)},
         [f(2, 4, 7)]),
        ("Conv2dTranspose", {"in_channels": 4, "out_channels": 2, "kernel_size": 3,
                             "stride": 2, "weight_init": f(4, 2, 3, 3)}, [x2]),
        ("Conv2dTranspose", {"in_channels": 4, "out_channels": 2, "kernel_size": 2,
                             "stride": 3, "weight_init": f(4, 2, 2, 2)}, [x2]),
        ("Conv2dTranspose", {"in_channels": 4, "out_channels": 2, "kernel_size": 3,
                             "pad_mode": "valid", "has_bias": True,
                             "weight_init": f(4, 2, 3, 3), "bias_init": f(2)}, [x2]),
        ("Conv2dTranspose", {"in_channels": 4, "out_channels": 4, "kernel_size": 3,
                             "stride": 2, "pad_mode": "pad", "padding": 1,
                             "output_padding": 1, "group": 2, "weight_init": f(4, 2, 3, 3),
                             "has_bias": True, "bias_init": f(4)},
         [x2]),
        ("Conv2dTranspose", {"in_channels": 4, "out_channels": 2, "kernel_size": 3,
                             "dilation": 2, "stride": 2, "weight_init": f(4, 2, 3, 3)},
         [x2]),
        ("Conv3d", {"in_channels": 2, "out_channels": 3, "kernel_size": 2,
                    "weight_init": f(3, 2, 2, 2, 2)}, [f(1, 2, 3, 4, 3)]),
        ("Conv3d", {"in_channels": 2, "out_channels": 3, "kernel_size": (2, 3, 2),
                    "stride": 2, "pad_mode": "pad", "padding": 1, "has_bias": True,
                    "weight_init": f(3, 2, 2, 3, 2), "bias_init": f(3)}, [f(1, 2, 3, 4, 3)]),
    ]
    return losses + activations + layers
