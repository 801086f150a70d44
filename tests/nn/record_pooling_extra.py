"""MindSpore 2.10's own results for the pooling layers and operator classes added with
tests/nn/test_pooling_extra.py (and the options MaxPool2d / AvgPool2d / AdaptiveAvgPool2d
gained with them), where PyTorch has no counterpart or another convention
('same' padding and which padding an average counts, 6-sided paddings, ``MaxPoolWithArgmax``'s
channel-counting index, int32 indices of ``AdaptiveMaxPool3D``, fractional pooling's
windows from given samples), recorded once into
``pooling_extra_mindspore_2_10.npz`` (CI has no MindSpore):

    /tmp/msvenv/bin/python tests/nn/record_pooling_extra.py

``CASES`` (plain data, imported by the test too): (name, "nn.<Layer>" or "ops.<Class>",
constructor arguments, constructor keywords, the call's input names).
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "pooling_extra_mindspore_2_10.npz")


def _unique_indices(rng, lead, count, total):
    return np.stack([rng.permutation(total)[:count] for _ in range(int(np.prod(lead)))]
                    ).reshape(lead + (count,))


def inputs():
    rng = np.random.default_rng(2036)
    out = {"x3": rng.standard_normal((2, 3, 9)).astype(np.float32),
           "x4": rng.standard_normal((2, 3, 7, 8)).astype(np.float32),
           "x5": rng.standard_normal((2, 3, 5, 6, 7)).astype(np.float32),
           "v3": rng.standard_normal((2, 3, 4)).astype(np.float32),
           "v4": rng.standard_normal((2, 3, 3, 4)).astype(np.float32),
           "v5": rng.standard_normal((1, 2, 2, 3, 2)).astype(np.float32)}
    out["i3"] = _unique_indices(rng, (2, 3), 4, 8).astype(np.int64)
    out["i4"] = _unique_indices(rng, (2, 3), 12, 48).reshape(2, 3, 3, 4).astype(np.int64)
    out["i5"] = _unique_indices(rng, (1, 2), 12, 96).reshape(1, 2, 2, 3, 2).astype(np.int32)
    out["x4c"] = out["x4"][0]          # unbatched
    out["x5c"] = out["x5"][0]
    out["sizes"] = np.array([3, 4, 3], np.int32)
    out["u4"] = rng.random((2, 3, 2)).astype(np.float32)     # fractional pooling's samples
    out["u5"] = rng.random((2, 3, 3)).astype(np.float32)
    return out


CASES = [
    ("AvgPool1d valid", "nn.AvgPool1d", (3, 2), {}, ["x3"]),
    ("AvgPool1d same", "nn.AvgPool1d", (4, 3, "same"), {}, ["x3"]),
    ("AvgPool1d pad ceil", "nn.AvgPool1d", (3, 2, "pad", 1, True, False), {}, ["x3"]),
    ("MaxPool1d same", "nn.MaxPool1d", (4, 3, "same"), {}, ["x3"]),
    ("MaxPool1d pad indices", "nn.MaxPool1d", (3, 2, "pad", 1, 2, True, True), {}, ["x3"]),
    ("AvgPool3d same", "nn.AvgPool3d", (3, 2, "same"), {}, ["x5"]),
    ("AvgPool3d pad divisor", "nn.AvgPool3d", ((2, 3, 2), (1, 2, 3), "pad", (1, 1, 0), True,
                                               False, 3), {}, ["x5"]),
    ("AvgPool3d unbatched", "nn.AvgPool3d", (2, 2), {}, ["x5c"]),
    ("MaxPool3d same", "nn.MaxPool3d", (3, 2, "same"), {}, ["x5"]),
    ("MaxPool3d pad indices", "nn.MaxPool3d", (3, 2, "pad", 1, 1, True, True), {}, ["x5"]),
    ("AdaptiveAvgPool1d", "nn.AdaptiveAvgPool1d", (3,), {}, ["x3"]),
    ("AdaptiveAvgPool3d", "nn.AdaptiveAvgPool3d", ((2, None, 3),), {}, ["x5"]),
    ("AdaptiveMaxPool1d", "nn.AdaptiveMaxPool1d", (3,), {}, ["x3"]),
    ("AdaptiveMaxPool2d", "nn.AdaptiveMaxPool2d", ((3, None), True), {}, ["x4"]),
    ("AdaptiveMaxPool2d unbatched", "nn.AdaptiveMaxPool2d", (2, True), {}, ["x4c"]),
    ("AdaptiveMaxPool3d", "nn.AdaptiveMaxPool3d", ((2, 3, 3), True), {}, ["x5"]),
    ("LPPool1d", "nn.LPPool1d", (2, 3, 2), {}, ["x3"]),
    ("LPPool2d ceil", "nn.LPPool2d", (2, 3, 2, True), {}, ["x4"]),
    ("MaxUnpool1d", "nn.MaxUnpool1d", (2,), {}, ["v3", "i3"]),
    ("MaxUnpool2d", "nn.MaxUnpool2d", (2,), {}, ["v4", "i4"]),
    ("MaxUnpool3d", "nn.MaxUnpool3d", (2,), {}, ["v5", "i5"]),
    ("AvgPool3D same", "ops.AvgPool3D", (2, 2, "same"), {}, ["x5"]),
    ("AvgPool3D pad 6", "ops.AvgPool3D", ((2, 3, 2), (1, 2, 3), "pad", (1, 1, 1, 1, 0, 0), True,
                                          False), {}, ["x5"]),
    ("MaxPool3D same", "ops.MaxPool3D", (2, 2, "SAME"), {}, ["x5"]),
    ("MaxPool3D pad ceil", "ops.MaxPool3D", (2, 2, "pad", (1, 1, 1, 1, 0, 0), True), {}, ["x5"]),
    ("MaxPoolWithArgmax", "ops.MaxPoolWithArgmax", (2, 2), {}, ["x4"]),
    ("MaxPoolWithArgmaxV2", "ops.MaxPoolWithArgmaxV2", (3, 2, 1, (1, 1), True), {}, ["x4"]),
    ("MaxPool3DWithArgmax", "ops.MaxPool3DWithArgmax", (2, 2, 1), {}, ["x5"]),
    ("AdaptiveAvgPool2D", "ops.AdaptiveAvgPool2D", ((3, None),), {}, ["x4"]),
    ("AdaptiveAvgPool3D", "ops.AdaptiveAvgPool3D", ((3, 4, None),), {}, ["x5"]),
    ("AdaptiveMaxPool2D", "ops.AdaptiveMaxPool2D", ((3, 5),), {}, ["x4"]),
    ("AdaptiveMaxPool3D", "ops.AdaptiveMaxPool3D", (), {}, ["x5", "sizes"]),
    ("MaxUnpool2D", "ops.MaxUnpool2D", (2, 2), {}, ["v4", "i4"]),
    ("MaxUnpool3D", "ops.MaxUnpool3D", (2,), {}, ["v5", "i5"]),
    ("MaxPool2d pad ceil indices", "nn.MaxPool2d", (3, 2, "pad", 1, 2, True, True), {},
     ["x4"]),
    ("MaxPool2d unbatched", "nn.MaxPool2d", (2, 2), {}, ["x4c"]),
    ("AvgPool2d same", "nn.AvgPool2d", (3, 2, "same"), {}, ["x4"]),
    ("AvgPool2d valid ceil", "nn.AvgPool2d", (3, 2), {"ceil_mode": True}, ["x4"]),
    ("AvgPool2d pad ceil", "nn.AvgPool2d", (3, 2, "pad", 1, True, False), {}, ["x4"]),
    ("AdaptiveAvgPool2d uneven", "nn.AdaptiveAvgPool2d", ((3, 5),), {}, ["x4"]),
    ("AdaptiveAvgPool2d unbatched", "nn.AdaptiveAvgPool2d", ((None, 3),), {}, ["x4c"]),
    ("FractionalMaxPool2d", "nn.FractionalMaxPool2d", (3, (4, 5)),
     {"return_indices": True, "_random_samples": "@u4"}, ["x4"]),
    ("FractionalMaxPool2d ratio", "nn.FractionalMaxPool2d", ((2, 3),),
     {"output_ratio": (0.5, 0.6), "_random_samples": "@u4"}, ["x4"]),
    ("FractionalMaxPool3d", "nn.FractionalMaxPool3d", (2, (3, 4, 5)),
     {"return_indices": True, "_random_samples": "@u5"}, ["x5"]),
]


def build(module, name, args, kwargs, data):
    """The layer or operator instance ``CASES`` names, from ``module`` (mindspore or
    tensorjit); a keyword value "@<input name>" is that input as a tensor."""
    space, cls = name.split(".")
    kwargs = {k: module.Tensor(data[v[1:]]) if isinstance(v, str) and v.startswith("@") else v
              for k, v in kwargs.items()}
    return getattr(getattr(module, space), cls)(*args, **kwargs)


def main():
    import mindspore
    data = inputs()
    record = dict(data)
    for label, name, args, kwargs, names in CASES:
        cell = build(mindspore, name, args, kwargs, data)
        out = cell(*[mindspore.Tensor(data[n]) for n in names])
        outs = out if isinstance(out, tuple) else (out,)
        for i, o in enumerate(outs):
            record[f"{label}#{i}"] = o.asnumpy()
    np.savez_compressed(RECORD, **record)
    print(f"{len(CASES)} cases -> {RECORD}")


if __name__ == "__main__":
    main()
