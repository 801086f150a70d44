"""MindSpore 2.10's own results for the layers and losses added with
tests/nn/test_layers_extra.py, recorded once into ``layers_extra_mindspore_2_10.npz``
(CI has no MindSpore):

    /tmp/msvenv/bin/python tests/nn/record_layers_extra.py

``CASES`` (plain data, imported by the test too): (label, "nn.<Layer>", constructor
arguments, constructor keywords, call input names, train); "@name" in the arguments is an
array of ``inputs()`` as a Tensor (tuples are mapped), "!dense" a Dense layer with recorded
weights. Outputs are stored flattened as ``<label>#<i>``.
Not recorded (no CPU kernel in MindSpore 2.10, PyNative or graph): AvgPool1dExt /
AvgPool2dExt / AvgPool3dExt, MaxPool2dExt, LayerNormExt, L1LossExt; their tests compare
with PyTorch, whose classes they are in MindSpore's mint. Nor is EmbeddingLookup's
``max_norm``: 2.10 rescales a looked-up vector by another vector's norm (two lookups of one
row come out different); its test uses the documented per-vector clipping.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "layers_extra_mindspore_2_10.npz")


def inputs():
    rng = np.random.default_rng(2039)
    f = np.float32
    out = {"x3": rng.standard_normal((2, 2, 5)).astype(f),
           "x4": rng.standard_normal((2, 3, 6, 7)).astype(f),
           "x5": rng.standard_normal((2, 2, 3, 4, 3)).astype(f),
           "w1t": rng.standard_normal((2, 3, 3)).astype(f),
           "b3": rng.standard_normal(3).astype(f),
           "w3t": rng.standard_normal((2, 4, 3, 2, 3)).astype(f),
           "w3tg": rng.standard_normal((2, 2, 2, 2, 2)).astype(f),
           "b4": rng.standard_normal(4).astype(f),
           "bi_w": rng.standard_normal((5, 3, 4)).astype(f),
           "bi_b": rng.standard_normal(5).astype(f),
           "bi_x1": rng.standard_normal((2, 2, 3)).astype(f),
           "bi_x2": rng.standard_normal((2, 2, 4)).astype(f),
           "img1": rng.random((2, 3, 16, 16)).astype(f),
           "table": rng.standard_normal((6, 3)).astype(f),
           "ids": np.array([[0, 5, 7], [2, 2, -1]], np.int32),
           "mf_ids": np.array([[0, 5, 2, 1], [3, 1, 2, 4]], np.int32),
           "mf_vals": np.array([[1.0, 2.0, 0.0, -0.5], [1.0, 0.5, 1.5, 0.0]], f),
           "mf_fields": np.array([[0, 0, 1, 2], [1, 1, 0, 0]], np.int32),
           "td_x": rng.standard_normal((2, 3, 5)).astype(f),
           "td_w": rng.standard_normal((2, 5)).astype(f),
           "td_b": rng.standard_normal(2).astype(f),
           "anchor": rng.standard_normal((4, 3)).astype(f),
           "pos": rng.standard_normal((4, 3)).astype(f),
           "neg": rng.standard_normal((4, 3)).astype(f),
           "ss_w": rng.standard_normal((7, 4)).astype(f),
           "ss_b": rng.standard_normal(7).astype(f),
           "ss_labels": np.array([[0, 3], [2, 6], [5, 1]], np.int32),
           "ss_logits": rng.standard_normal((3, 4)).astype(f),
           "ss_sampled": np.array([4, 1, 6], np.int32),
           "ss_true_exp": rng.uniform(0.2, 0.9, (3, 2)).astype(f),
           "ss_samp_exp": rng.uniform(0.2, 0.9, 3).astype(f),
           "conv_w": rng.standard_normal((4, 3, 3, 3)).astype(f),
           "dense_w": rng.standard_normal((4, 7)).astype(f),
           "x2": rng.standard_normal((5, 7)).astype(f),
           "emb_idx": np.array([[1, 0], [3, 1]], np.int64),
           "emb_w": rng.standard_normal((4, 3)).astype(f),
           "ln_x": rng.standard_normal((2, 3, 4)).astype(f)}
    out["img2"] = np.clip(out["img1"] + 0.1 * rng.standard_normal((2, 3, 16, 16)), 0, 1
                          ).astype(f)
    out["img_u8"] = (out["img1"] * 255).astype(np.uint8)
    out["img_u8b"] = (out["img2"] * 255).astype(np.uint8)
    return out


CASES = [
    ("Conv1dTranspose same", "nn.Conv1dTranspose", (2, 3, 3), dict(stride=2, weight_init="@w1t"),
     ["x3"], False),
    ("Conv1dTranspose pad bias", "nn.Conv1dTranspose", (2, 3, 3),
     dict(stride=2, pad_mode="pad", padding=1, has_bias=True, weight_init="@w1t",
          bias_init="@b3"), ["x3"], False),
    ("Conv1dTranspose valid dilation", "nn.Conv1dTranspose", (2, 3, 3),
     dict(pad_mode="valid", dilation=2, weight_init="@w1t"), ["x3"], False),
    ("Conv3dTranspose same", "nn.Conv3dTranspose", (2, 4, (3, 2, 3)),
     dict(stride=2, weight_init="@w3t"), ["x5"], False),
    ("Conv3dTranspose pad", "nn.Conv3dTranspose", (2, 4, (3, 2, 3)),
     dict(stride=(2, 1, 2), pad_mode="pad", padding=(1, 0, 0, 1, 1, 1), output_padding=(1, 0, 1),
          has_bias=True, weight_init="@w3t", bias_init="@b4"), ["x5"], False),
    ("Conv3dTranspose valid group", "nn.Conv3dTranspose", (2, 4, 2),
     dict(pad_mode="valid", group=2, weight_init="@w3tg"), ["x5"], False),
    ("BatchNorm3d train", "nn.BatchNorm3d", (2,), dict(momentum=0.8), ["x5"], True),
    ("BatchNorm3d eval", "nn.BatchNorm3d", (2,), {}, ["x5"], False),
    ("SyncBatchNorm train", "nn.SyncBatchNorm", (3,), {}, ["x4"], True),
    ("LRN", "nn.LRN", (), dict(depth_radius=1, bias=2.0, alpha=0.5, beta=0.75), ["x4"], False),
    ("LRN default", "nn.LRN", (), {}, ["x4"], False),
    ("BiDense", "nn.BiDense", (3, 4, 5), dict(weight_init="@bi_w", bias_init="@bi_b"),
     ["bi_x1", "bi_x2"], False),
    ("CentralCrop", "nn.CentralCrop", (0.6,), {}, ["x4"], False),
    ("ImageGradients", "nn.ImageGradients", (), {}, ["x4"], False),
    ("PSNR", "nn.PSNR", (), {}, ["img1", "img2"], False),
    ("PSNR uint8", "nn.PSNR", (255,), {}, ["img_u8", "img_u8b"], False),
    ("SSIM", "nn.SSIM", (), dict(filter_size=7, filter_sigma=1.0), ["img1", "img2"], False),
    ("SSIM k", "nn.SSIM", (2.0,), dict(filter_size=5, k1=0.05, k2=0.1), ["img1", "img2"], False),
    ("MSSSIM", "nn.MSSSIM", (), dict(power_factors=(0.2, 0.3, 0.5), filter_size=3),
     ["img1", "img2"], False),
    ("EmbeddingLookup", "nn.EmbeddingLookup", (6, 3), dict(param_init="@table"), ["ids"], False),
    ("MultiField SUM", "nn.MultiFieldEmbeddingLookup", (6, 3, 3), dict(param_init="@table"),
     ["mf_ids", "mf_vals", "mf_fields"], False),
    ("MultiField MEAN", "nn.MultiFieldEmbeddingLookup", (6, 3, 3),
     dict(param_init="@table", operator="MEAN"), ["mf_ids", "mf_vals", "mf_fields"], False),
    ("MultiField MAX", "nn.MultiFieldEmbeddingLookup", (6, 3, 3),
     dict(param_init="@table", operator="MAX"), ["mf_ids", "mf_vals", "mf_fields"], False),
    ("TimeDistributed", "nn.TimeDistributed", ("!dense", 1), {}, ["td_x"], False),
    ("TimeDistributed reshape", "nn.TimeDistributed", ("!dense",),
     dict(time_axis=1, reshape_with_axis=0), ["td_x"], False),
    ("TripletMarginWithDistanceLoss", "nn.TripletMarginWithDistanceLoss", (),
     dict(margin=0.5), ["anchor", "pos", "neg"], False),
    ("TripletMarginWithDistanceLoss swap none", "nn.TripletMarginWithDistanceLoss", (),
     dict(swap=True, reduction="none"), ["anchor", "pos", "neg"], False),
    ("SampledSoftmaxLoss", "nn.SampledSoftmaxLoss", (3, 7),
     dict(num_true=2, sampled_values=("@ss_sampled", "@ss_true_exp", "@ss_samp_exp")),
     ["ss_w", "ss_b", "ss_labels", "ss_logits"], False),
    ("L1Regularizer", "nn.L1Regularizer", (0.3,), {}, ["x4"], False),
    ("Conv2dBnAct", "nn.Conv2dBnAct", (3, 4, 3),
     dict(weight_init="@conv_w", has_bn=True, activation="leakyrelu"), ["x4"], False),
    ("Conv2dBnAct train", "nn.Conv2dBnAct", (3, 4, 3),
     dict(weight_init="@conv_w", has_bn=True, activation="relu"), ["x4"], True),
    ("DenseBnAct", "nn.DenseBnAct", (7, 4),
     dict(weight_init="@dense_w", has_bn=True, activation="tanh"), ["x2"], True),
    ("LogSoftmaxExt", "nn.LogSoftmaxExt", (), {}, ["ln_x"], False),
    ("EmbeddingExt", "nn.EmbeddingExt", (4, 3), dict(_weight="@emb_w", padding_idx=1),
     ["emb_idx"], False),
]


def _value(module, value, data):
    if isinstance(value, tuple):
        return tuple(_value(module, v, data) for v in value)
    if isinstance(value, str) and value.startswith("@"):
        return module.Tensor(data[value[1:]])
    if value == "!dense":
        return module.nn.Dense(5, 2, weight_init=module.Tensor(data["td_w"]),
                               bias_init=module.Tensor(data["td_b"]))
    return value


def build(module, name, args, kwargs, data):
    """The layer ``CASES`` names, from ``module`` (mindspore or tensorjit)."""
    cls = getattr(module.nn, name.split(".")[1])
    return cls(*[_value(module, a, data) for a in args],
               **{k: _value(module, v, data) for k, v in kwargs.items()})


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flatten(v)]
    return [value]


def main():
    import warnings
    warnings.filterwarnings("ignore")
    import mindspore
    data = inputs()
    record = dict(data)
    for label, name, args, kwargs, names, train in CASES:
        # PyNative first (the *Ext layers have CPU kernels only there), then graph mode
        # (PSNR / SSIM / MSSSIM fail in 2.10's PyNative: a float32 ScalarCast)
        out = None
        for mode in (mindspore.PYNATIVE_MODE, mindspore.GRAPH_MODE):
            mindspore.set_context(mode=mode)
            cell = build(mindspore, name, args, kwargs, data)
            cell.set_train(train)
            try:
                out = [o.asnumpy() for o in flatten(
                    cell(*[mindspore.Tensor(data[n]) for n in names]))]
                break
            except (RuntimeError, ValueError, TypeError) as error:
                print(f"{label} in mode {mode}: {str(error).strip().splitlines()[-1][:150]}")
        if out is None:
            continue
        for i, o in enumerate(out):
            record[f"{label}#{i}"] = o
    np.savez_compressed(RECORD, **record)
    print(f"{len(CASES)} cases -> {RECORD}")


if __name__ == "__main__":
    main()
