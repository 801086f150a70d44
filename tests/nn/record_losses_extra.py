"""MindSpore 2.10's results for the extra loss / activation / math cells, recorded into
``mindspore_losses_extra.json`` (tests/nn/test_losses_activations_extra.py compares):

    /tmp/msvenv/bin/python tests/nn/record_losses_extra.py   (MindSpore 2.10's interpreter)

``inputs()`` builds the arrays both sides use; each case is the cell call written once for
MindSpore here and once for tensorjit in the test."""
import json
import os

import numpy as np

RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mindspore_losses_extra.json")


def inputs():
    return {
        "x": np.sin(np.arange(24).reshape(2, 4, 3)).astype(np.float32),   # (N, C, L) logits
        "lab_idx": (np.arange(6).reshape(2, 1, 3) % 4).astype(np.int32),
        "x2": np.cos(np.arange(12).reshape(3, 4)).astype(np.float32),
        "oh": np.eye(4, dtype=np.float32)[[1, 0, 3]],
        "p": (np.arange(12).reshape(3, 4) / 12).astype(np.float32),
        "y": (np.arange(12).reshape(3, 4) % 3 == 0).astype(np.float32),
        "w": np.array([1.0, 2.0, 0.5, 1.5], np.float32),
        "idx2": np.array([[1], [0], [3]], np.int32),
        "signs": np.array([[1.0, -1.0, 0.0, 2.0]], np.float32),
        "ints": np.arange(-2, 3).astype(np.int32),
        "classes": np.array([0, 2, 5], np.int32),
        "pos": np.array([0.5, 2.0, 7.5, 30.0], np.float32),
        "pos2": np.array([1.5, 0.3, 20.0, 1e4], np.float32),
        # CTC: log-probabilities (T, N, C) and padded targets (N, S)
        "log_probs": np.log(np.abs(np.sin(np.arange(48.0) + 1)).reshape(6, 2, 4) + 0.1)
        .astype(np.float32),
        "ctc_targets": np.array([[1, 2, 2], [3, 1, 0]], np.int32),
        "ctc_input_lengths": np.array([6, 5], np.int32),
        "ctc_target_lengths": np.array([3, 2], np.int32),
    }


def cases(nn, T, a):
    """name -> thunk; ``nn`` is mindspore.nn or tensorjit.nn, ``T`` its Tensor."""
    return {
        "focal_idx": lambda: nn.FocalLoss()(T(a["x"]), T(a["lab_idx"])),
        "focal_idx_w_none": lambda: nn.FocalLoss(weight=T(a["w"]), gamma=0.5, reduction="none")(
            T(a["x"]), T(a["lab_idx"])),
        "focal_onehot": lambda: nn.FocalLoss(reduction="none")(T(a["x2"]), T(a["oh"])),
        "focal_onehot_w": lambda: nn.FocalLoss(weight=T(a["w"]), reduction="sum")(
            T(a["x2"]), T(a["oh"])),
        "focal_2d_idx": lambda: nn.FocalLoss()(T(a["x2"]), T(a["idx2"])),
        "dice": lambda: nn.DiceLoss()(T(a["p"]), T(a["y"])),
        "dice_smooth": lambda: nn.DiceLoss(0.5)(T(a["p"]), T(a["y"])),
        "mcdice": lambda: nn.MultiClassDiceLoss()(T(a["x2"]), T(a["oh"])),
        "mcdice_w_ignore": lambda: nn.MultiClassDiceLoss(
            weights=T(a["w"][:, None]), ignore_indiex=2, activation="sigmoid")(
            T(a["x2"]), T(a["oh"])),
        "mcdice_none": lambda: nn.MultiClassDiceLoss(activation=None)(T(a["p"]), T(a["y"])),
        "rmse": lambda: nn.RMSELoss()(T(a["x2"]), T(a["p"])),
        "rmse_bcast": lambda: nn.RMSELoss()(T(a["x2"]), T(a["p"][0])),
        "mae_none": lambda: nn.MAELoss("none")(T(a["x2"]), T(a["p"][0])),
        "mae_sum": lambda: nn.MAELoss("sum")(T(a["x2"]), T(a["p"])),
        "poisson": lambda: nn.PoissonNLLLoss()(T(a["x2"]), T(a["p"] * 3)),
        "poisson_full": lambda: nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")(
            T(a["p"] + 0.1), T(a["p"] * 5)),
        "hinge_any": lambda: nn.HingeEmbeddingLoss(margin=0.5, reduction="none")(
            T(a["x2"]), T(a["signs"])),
        "gauss_neg_var": lambda: nn.GaussianNLLLoss(reduction="none")(
            T(a["x2"]), T(a["p"]), T(a["x2"])),
        "moments": lambda: nn.Moments(axis=1, keep_dims=True)(T(a["x2"])),
        "norm": lambda: nn.Norm(axis=1)(T(a["x2"])),
        # (with an axis, MindSpore 2.10's CPU kernel scales rows other than the first by the
        # wrong norms: that case is checked against NumPy only, in the test)
        "clip": lambda: nn.ClipByNorm()(T(a["x2"] * 3), T(np.array([1.0], np.float32))),
        "rlse": lambda: nn.ReduceLogSumExp((0, 1))(T(a["x2"])),
        "onehot": lambda: nn.OneHot(axis=0, depth=3, on_value=2.0, off_value=-1.0)(
            T(a["classes"])),
        "range_f": lambda: nn.Range(0.5, 3, 0.75)(),
        "range_i": lambda: nn.Range(1, 8, 2)(),
        "softmax2d": lambda: nn.Softmax2d()(T(a["x"])),
        "threshold_int": lambda: nn.Threshold(1, 7.9)(T(a["ints"])),
        "tanhshrink_int": lambda: nn.Tanhshrink()(T(a["ints"])),
        "matmul_t": lambda: nn.MatMul(transpose_x2=True)(T(a["x2"]), T(a["p"])),
        "unflatten": lambda: nn.Unflatten(-1, (2, -1))(T(a["x2"])),
        "tril": lambda: nn.Tril()(T(a["x2"]), 1),
        "triu": lambda: nn.Triu()(T(a["x2"]), -1),
        "lgamma": lambda: nn.LGamma()(T(a["pos"])),
        "digamma": lambda: nn.DiGamma()(T(a["pos"])),
        "igamma": lambda: nn.IGamma()(T(a["pos"]), T(a["pos2"])),
        "lbeta": lambda: nn.LBeta()(T(a["pos"]), T(a["pos2"])),
        "ctc": lambda: nn.CTCLoss()(T(a["log_probs"]), T(a["ctc_targets"]),
                                    T(a["ctc_input_lengths"]), T(a["ctc_target_lengths"])),
        "ctc_none_blank": lambda: nn.CTCLoss(blank=3, reduction="none")(
            T(a["log_probs"]), T(a["ctc_targets"] % 3), T(a["ctc_input_lengths"]),
            T(a["ctc_target_lengths"])),
    }


def _encode(out):
    if isinstance(out, (tuple, list)):
        return {"tuple": [_encode(o) for o in out]}
    values = out.asnumpy()
    return {"dtype": str(values.dtype), "shape": list(values.shape),
            "values": np.asarray(values, np.float64).ravel().tolist()}


def main():
    import warnings
    warnings.filterwarnings("ignore")
    import mindspore
    from mindspore import nn, Tensor
    record = {"version": mindspore.__version__, "results": {}}
    for name, thunk in cases(nn, Tensor, inputs()).items():
        try:
            record["results"][name] = _encode(thunk())
        except Exception as exc:      # noqa: BLE001  (recorded: MindSpore refuses it)
            record["results"][name] = {"error": type(exc).__name__}
    with open(RECORD, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
