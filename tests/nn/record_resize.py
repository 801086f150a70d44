"""MindSpore 2.10's own results for the resize and padding conventions PyTorch does not
share (TensorFlow-style ``align_corners`` / ``half_pixel_centers``, ResizeBicubic's
kernel, ``nn.Pad``'s SYMMETRIC), recorded once into ``resize_mindspore_2_10.npz`` for
``test_padding_resize.py`` (CI has no MindSpore):

    /tmp/msvenv/bin/python tests/nn/record_resize.py

``CASES`` (plain data, imported by the test too): (name, kind, input name, arguments).
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "resize_mindspore_2_10.npz")


def inputs():
    rng = np.random.default_rng(2026)
    return {"x3": rng.standard_normal((2, 3, 7)).astype(np.float32),
            "x4": rng.standard_normal((2, 3, 5, 7)).astype(np.float32),
            "x5": rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32),
            "x6": rng.standard_normal((2, 18, 4, 5)).astype(np.float32),
            "x1": rng.standard_normal((3, 2, 1)).astype(np.float32)}


CASES = []
for _size in ((9, 4), (3, 11), (1, 1)):
    for _mode in ("bilinear", "bicubic"):
        for _corners in (False, True):
            CASES.append((f"interpolate {_mode} {_size} corners={_corners}", "interpolate", "x4",
                          dict(size=_size, mode=_mode, align_corners=_corners)))
    for _mode in ("nearest", "nearest-exact", "area"):
        CASES.append((f"interpolate {_mode} {_size}", "interpolate", "x4",
                      dict(size=_size, mode=_mode)))
for _size in (11, 4, 1):
    for _corners in (False, True):
        CASES.append((f"interpolate linear {_size} corners={_corners}", "interpolate", "x3",
                      dict(size=(_size,), mode="linear", align_corners=_corners)))
    for _mode in ("nearest", "nearest-exact", "area"):
        CASES.append((f"interpolate {_mode} {_size}", "interpolate", "x3",
                      dict(size=(_size,), mode=_mode)))
for _kw in (dict(size=(5, 3, 8)), dict(scale_factor=(1.5, 2.0, 1.3))):
    for _mode, _corners in (("nearest", None), ("area", None), ("trilinear", False),
                            ("trilinear", True)):
        CASES.append((f"interpolate {_mode} 5-d {_kw} corners={_corners}", "interpolate", "x5",
                      dict(_kw, mode=_mode, align_corners=_corners)))
for _cls in ("ResizeNearestNeighborV2", "ResizeBilinearV2", "ResizeBicubic"):
    for _size in ((9, 4), (3, 11)):
        for _corners, _half in ((False, False), (True, False), (False, True)):
            CASES.append((f"{_cls} {_size} align_corners={_corners} half_pixel={_half}", _cls,
                          "x4", dict(size=_size, align_corners=_corners,
                                     half_pixel_centers=_half)))
for _size in ((9, 4), (3, 11)):
    for _corners, _half in ((False, False), (True, False), (False, True)):
        CASES.append((f"ResizeNearestNeighbor {_size} align_corners={_corners} "
                      f"half_pixel={_half}", "ResizeNearestNeighbor", "x4",
                      dict(size=_size, align_corners=_corners, half_pixel_centers=_half)))
for _size in (11, 4):
    for _mode in ("align_corners", "half_pixel"):
        CASES.append((f"ResizeLinear1D {_size} {_mode}", "ResizeLinear1D", "x3",
                      dict(size=(_size,), coordinate_transformation_mode=_mode)))
for _kw in (dict(output_size=(5, 3, 8)), dict(scales=(1.5, 2.0, 1.3))):
    CASES.append((f"UpsampleNearest3D {_kw}", "UpsampleNearest3D", "x5", _kw))
    for _corners in (False, True):
        CASES.append((f"UpsampleTrilinear3D {_kw} align_corners={_corners}",
                      "UpsampleTrilinear3D", "x5", dict(_kw, align_corners=_corners)))
for _mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
    CASES.append((f"nn.Pad {_mode}", "nn.Pad", "x4",
                  dict(paddings=((0, 0), (1, 0), (2, 1), (3, 4 if _mode != "REFLECT" else 6)),
                       mode=_mode)))
# operator classes and cells called as ``Class(**init)(x, *args)``; an argument
# ("int64" | "int32" | "float32", value) is a tensor of that dtype
_X4 = "x4"
for _p, _axis, _keep in ((2, 1, False), (1, (1, 2), True), (3, -1, False), (0, 0, False)):
    CASES.append((f"LpNorm p={_p} axis={_axis}", "ops.LpNorm", _X4,
                  dict(init=dict(axis=_axis, p=_p, keep_dims=_keep), args=())))
CASES.append(("LpNorm epsilon", "ops.LpNorm", "x3",
              dict(init=dict(axis=0, p=2, epsilon=10.0), args=())))
CASES.append(("ChannelShuffle", "ops.ChannelShuffle", "x6", dict(init=dict(group=3), args=())))
CASES.append(("nn.ChannelShuffle", "nn.ChannelShuffle", "x6", dict(init=dict(groups=2), args=())))
for _mode in ("REFLECT", "SYMMETRIC"):
    CASES.append((f"MirrorPad {_mode}", "ops.MirrorPad", _X4, dict(
        init=dict(mode=_mode), args=(("int64", ((0, 1), (2, 0), (1, 3), (4, 2))),))))
for _name, _init in (("ConstantPad1d", dict(padding=(1, 2), value=0.5)),
                     ("ConstantPad2d", dict(padding=(1, -1, 2, 0), value=-1.0)),
                     ("ConstantPad3d", dict(padding=1, value=2.0)),
                     ("ReflectionPad1d", dict(padding=(3, 1))),
                     ("ReflectionPad2d", dict(padding=2)),
                     ("ReplicationPad1d", dict(padding=4)),
                     ("ReplicationPad2d", dict(padding=(1, 2, 3, 0))),
                     ("ReplicationPad3d", dict(padding=1)), ("ZeroPad2d", dict(padding=(1, 2, 0, 1))),
                     ("PixelShuffle", dict(upscale_factor=3)),
                     ("PixelUnshuffle", dict(downscale_factor=1))):
    # MindSpore's replication pads want exactly one or two axes more than they pad
    source = "x3" if _name == "ReplicationPad1d" else "x6"
    CASES.append((f"nn.{_name}", f"nn.{_name}", source, dict(init=_init, args=())))

for _size, _corners in (((3, 4), False), ((7, 9), False), ((3, 4), True), ((2, 11), True)):
    CASES.append((f"ResizeArea {_size} align_corners={_corners}", "ops.ResizeArea", "x6",
                  dict(init=dict(align_corners=_corners), args=(("int32", _size),))))
for _mode, _contiguous in (("constant", True), ("constant", False), ("reflect", True),
                           ("edge", True), ("circular", False)):
    CASES.append((f"PadV3 {_mode} contiguous={_contiguous}", "ops.PadV3", "x4", dict(
        init=dict(mode=_mode, paddings_contiguous=_contiguous),
        args=(("int64", (1, 2, 0, 1, 2, 0) if _mode == "constant" else (1, 2, 2, 1)),)
        + ((("float32", 1.5),) if _mode == "constant" else ()))))
CASES.append(("Padding", "ops.Padding", "x1", dict(init=dict(pad_dim_size=5), args=())))


def _arg(ms, value):
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("int64", "int32",
                                                                      "float32"):
        return ms.Tensor(value[1], getattr(ms, value[0]))
    return value


def _run(ms, kind, x, kw):
    from mindspore import nn, ops
    kw = dict(kw)
    if kind.startswith(("ops.", "nn.")) and kind != "nn.Pad":
        module, name = kind.split(".")
        made = getattr(ops if module == "ops" else nn, name)(**kw["init"])
        return made(x, *[_arg(ms, a) for a in kw["args"]])
    if kind == "interpolate":
        return ops.interpolate(x, **kw)
    if kind == "nn.Pad":
        return nn.Pad(kw["paddings"], kw["mode"])(x)
    if kind == "ResizeNearestNeighbor":
        return ops.ResizeNearestNeighbor(**kw)(x)
    if kind == "ResizeLinear1D":
        size = kw.pop("size")
        return ops.ResizeLinear1D(**kw)(x, ms.Tensor(size, ms.int64))
    if kind in ("UpsampleNearest3D", "UpsampleTrilinear3D"):
        output_size, scales = kw.pop("output_size", None), kw.pop("scales", None)
        return getattr(ops, kind)(**kw)(x, output_size, scales)
    size = kw.pop("size")
    return getattr(ops, kind)(**kw)(x, ms.Tensor(size, ms.int32))


def main():
    import warnings
    warnings.filterwarnings("ignore")
    import mindspore as ms
    arrays = inputs()
    out = dict(arrays)
    for name, kind, source, kw in CASES:
        try:
            out[name] = _run(ms, kind, ms.Tensor(arrays[source]), kw).asnumpy()
        except (ValueError, TypeError, RuntimeError) as exc:     # kept as the error's type
            out[name] = np.array(f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    np.savez_compressed(RECORD, **out)
    print(f"{len(CASES)} cases written to {RECORD}")


if __name__ == "__main__":
    main()
