"""MindSpore 2.10's own results for the metrics added with tests/nn/test_metrics_extra.py,
recorded once into ``metrics_extra_mindspore_2_10.npz`` (CI has no MindSpore):

    /tmp/msvenv/bin/python tests/nn/record_metrics_extra.py

``CASES`` (plain data, imported by the test too): (label, metric class name, constructor
keywords, updates, eval keywords); each update is a list of inputs, "@name" naming an array
of ``inputs()`` (passed as a Tensor), anything else passed as it is. A result (a number, an
array, or tuples / lists of them) is stored flattened as ``<label>#<i>``.
Multi-class ROC is recorded with as many samples as classes only: MindSpore 2.10 reshapes
the (N, C) scores where it means to transpose them, right only when N == C.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "metrics_extra_mindspore_2_10.npz")


def inputs():
    rng = np.random.default_rng(2038)
    out = {"logits": rng.standard_normal((8, 3)).astype(np.float32),
           "labels": rng.integers(0, 3, 8).astype(np.int32),
           "logits2": rng.standard_normal((5, 3)).astype(np.float32),
           "labels2": rng.integers(0, 3, 5).astype(np.int32),
           "ml_pred": rng.integers(0, 2, (4, 3)).astype(np.float32),
           "ml_true": rng.integers(0, 2, (4, 3)).astype(np.float32),
           "ml_pred2": rng.integers(0, 2, (3, 3)).astype(np.float32),
           "ml_true2": rng.integers(0, 2, (3, 3)).astype(np.float32),
           "reg_pred": rng.standard_normal((4, 2)).astype(np.float32),
           "reg_true": rng.standard_normal((4, 2)).astype(np.float32),
           "loss1": np.float32(0.75), "loss2": rng.random(3).astype(np.float32),
           "scores": rng.random(9).astype(np.float32),
           "binary": np.array([0, 1, 1, 0, 1, 0, 0, 1, 1], np.int32),
           "multi_y": np.array([0, 2, 1, 2, 2, 0, 1, 2, 0], np.int32),
           "cls_scores": rng.random((3, 3)).astype(np.float32),
           "cls_labels": np.array([2, 0, 1], np.int32),
           "x_up": np.array([0.0, 0.1, 0.35, 0.5, 0.9, 1.0]),
           "y_up": np.array([0.0, 0.4, 0.5, 0.8, 0.85, 1.0]),
           "x_down": np.array([1.0, 0.7, 0.2, 0.0]), "y_down": np.array([1.0, 0.6, 0.3, 0.1]),
           "x_mixed": np.array([0.5, 0.1, 0.9, 0.3]), "y_mixed": np.array([0.4, 0.2, 0.7, 0.1]),
           "prob_thr": rng.random(10).astype(np.float32),
           "int_true": rng.integers(0, 2, 10).astype(np.int32),
           "seg_pred": rng.integers(0, 2, (2, 3, 4, 4)).astype(np.float32),
           "seg_true": rng.integers(0, 2, (2, 3, 4, 4)).astype(np.float32),
           "dice_pred": rng.random((2, 5)).astype(np.float32),
           "dice_true": rng.integers(0, 2, (2, 5)).astype(np.float32),
           "probs": rng.dirichlet(np.ones(4), size=6).astype(np.float32),
           "tokens": np.array([[1, 3, 0], [2, 2, 1]], np.int32),
           "occ_x": rng.standard_normal((1, 4, 4)).astype(np.float32),
           "occ_w": rng.standard_normal((3, 16)).astype(np.float32),
           "occ_b": rng.standard_normal(3).astype(np.float32),
           "occ_l1": np.array(1, np.int32), "occ_l2": np.array(2, np.int32)}
    a = np.zeros((8, 9), np.int32)
    a[2:6, 1:5] = 1
    a[5:7, 6:8] = 2
    b = np.zeros((8, 9), np.int32)
    b[1:6, 2:6] = 1
    b[6:8, 6:9] = 2
    out["mask_pred"], out["mask_true"] = a, b
    return out


CANDIDATES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "dog", "ran", "off"]]
REFERENCES = [[["the", "cat", "is", "sitting", "on", "the", "mat"], ["a", "cat", "sat", "on",
                                                                     "the", "mat"]],
              [["the", "dog", "ran", "away", "fast"], ["a", "dog", "ran", "off", "quickly"]]]

CASES = [
    ("Precision", "Precision", {}, [["@logits", "@labels"], ["@logits2", "@labels2"]], {}),
    ("Precision average", "Precision", {}, [["@logits", "@labels"]], {"average": True}),
    ("Precision multilabel", "Precision", {"eval_type": "multilabel"},
     [["@ml_pred", "@ml_true"], ["@ml_pred2", "@ml_true2"]], {}),
    ("Precision multilabel average", "Precision", {"eval_type": "multilabel"},
     [["@ml_pred", "@ml_true"], ["@ml_pred2", "@ml_true2"]], {"average": True}),
    ("Recall", "Recall", {}, [["@logits", "@labels"], ["@logits2", "@labels2"]], {}),
    ("Recall multilabel average", "Recall", {"eval_type": "multilabel"},
     [["@ml_pred", "@ml_true"], ["@ml_pred2", "@ml_true2"]], {"average": True}),
    ("Fbeta", "Fbeta", {"beta": 0.5}, [["@logits", "@labels"], ["@logits2", "@labels2"]], {}),
    ("F1 average", "F1", {}, [["@logits", "@labels"]], {"average": True}),
    ("Loss", "Loss", {}, [["@loss1"], ["@loss2"]], {}),
    ("MAE", "MAE", {}, [["@reg_pred", "@reg_true"], ["@logits2", "@logits2"]], {}),
    ("MSE", "MSE", {}, [["@reg_pred", "@reg_true"]], {}),
    ("ROC binary", "ROC", {"pos_label": 1}, [["@scores", "@binary"]], {}),
    ("ROC pos_label 2", "ROC", {"pos_label": 2}, [["@scores", "@multi_y"]], {}),
    ("ROC classes", "ROC", {"class_num": 3}, [["@cls_scores", "@cls_labels"]], {}),
    ("ConfusionMatrix", "ConfusionMatrix", {"num_classes": 3},
     [["@logits", "@labels"], ["@logits2", "@labels2"]], {}),
    ("ConfusionMatrix target", "ConfusionMatrix", {"num_classes": 3, "normalize": "target"},
     [["@logits", "@labels"]], {}),
    ("ConfusionMatrix prediction", "ConfusionMatrix",
     {"num_classes": 3, "normalize": "prediction"}, [["@logits", "@labels"]], {}),
    ("ConfusionMatrix all threshold", "ConfusionMatrix",
     {"num_classes": 2, "normalize": "all", "threshold": 0.3}, [["@prob_thr", "@int_true"]], {}),
    ("CMM sensitivity", "ConfusionMatrixMetric", {}, [["@seg_pred", "@seg_true"]], {}),
    ("CMM f1 no skip", "ConfusionMatrixMetric", {"metric_name": "f1", "skip_channel": False},
     [["@seg_pred", "@seg_true"]], {}),
    ("CMM mcc", "ConfusionMatrixMetric", {"metric_name": "mcc"},
     [["@seg_pred", "@seg_true"], ["@seg_true", "@seg_pred"]], {}),
    ("CMM pt", "ConfusionMatrixMetric", {"metric_name": "Prevalence Threshold"},
     [["@seg_pred", "@seg_true"]], {}),
    ("CMM ba", "ConfusionMatrixMetric", {"metric_name": "ba"}, [["@seg_pred", "@seg_true"]], {}),
    ("CMM markedness", "ConfusionMatrixMetric", {"metric_name": "markedness"},
     [["@seg_pred", "@seg_true"]], {}),
    ("CMM fm", "ConfusionMatrixMetric", {"metric_name": "fm"}, [["@seg_pred", "@seg_true"]],
     {}),
    ("CMM precision mean", "ConfusionMatrixMetric",
     {"metric_name": "precision", "calculation_method": True},
     [["@seg_pred", "@seg_true"], ["@seg_true", "@seg_pred"]], {}),
    ("CMM accuracy sum", "ConfusionMatrixMetric",
     {"metric_name": "accuracy", "calculation_method": True, "decrease": "sum"},
     [["@seg_pred", "@seg_true"]], {}),
    ("CMM tnr mean", "ConfusionMatrixMetric",
     {"metric_name": "tnr", "calculation_method": True, "skip_channel": False},
     [["@seg_pred", "@seg_true"]], {}),
    ("Dice", "Dice", {}, [["@dice_pred", "@dice_true"], ["@dice_true", "@dice_true"]], {}),
    ("Dice smooth", "Dice", {"smooth": 0.5}, [["@dice_pred", "@dice_true"]], {}),
    ("Hausdorff", "HausdorffDistance", {}, [["@mask_pred", "@mask_true", 1]], {}),
    ("Hausdorff percentile", "HausdorffDistance", {"percentile": 50.0},
     [["@mask_pred", "@mask_true", 1]], {}),
    ("Hausdorff directed chessboard", "HausdorffDistance",
     {"distance_metric": "chessboard", "directed": True}, [["@mask_pred", "@mask_true", 2]], {}),
    ("Hausdorff taxicab no crop", "HausdorffDistance",
     {"distance_metric": "taxicab", "crop": False}, [["@mask_pred", "@mask_true", 1]], {}),
    ("MeanSurfaceDistance", "MeanSurfaceDistance", {}, [["@mask_pred", "@mask_true", 1]], {}),
    ("MeanSurfaceDistance symmetric taxicab", "MeanSurfaceDistance",
     {"symmetric": True, "distance_metric": "taxicab"}, [["@mask_pred", "@mask_true", 2]], {}),
    ("RootMeanSquareDistance", "RootMeanSquareDistance", {}, [["@mask_pred", "@mask_true", 1]],
     {}),
    ("RootMeanSquareDistance symmetric", "RootMeanSquareDistance", {"symmetric": True},
     [["@mask_pred", "@mask_true", 2]], {}),
    ("BleuScore", "BleuScore", {"n_gram": 2}, [[CANDIDATES, REFERENCES]], {}),
    ("BleuScore smooth", "BleuScore", {"smooth": True}, [[CANDIDATES, REFERENCES]], {}),
    ("BleuScore zero", "BleuScore", {}, [[CANDIDATES[1:], REFERENCES[1:]]], {}),
    ("Perplexity", "Perplexity", {}, [["@probs", "@tokens"]], {}),
    ("Perplexity ignore", "Perplexity", {"ignore_label": 2},
     [["@probs", "@tokens"], ["@probs", "@tokens"]], {}),
    ("OcclusionSensitivity", "OcclusionSensitivity", {"margin": 1},
     [["model", "@occ_x", "@occ_l1"]], {}),
    ("OcclusionSensitivity box", "OcclusionSensitivity",
     {"pad_val": 0.5, "n_batch": 3, "b_box": [1, 2, 0, -1]}, [["model", "@occ_x", "@occ_l2"]], {}),
]

AUC_CASES = [("auc up", "x_up", "y_up", False), ("auc down", "x_down", "y_down", False),
             ("auc reorder", "x_mixed", "y_mixed", True)]


def occlusion_model(nn, tensor, data):
    """Flatten, then a Dense layer with recorded weights."""
    dense = nn.Dense(16, 3, weight_init=tensor(data["occ_w"]), bias_init=tensor(data["occ_b"]))
    return nn.SequentialCell([nn.Flatten(), dense])


def run(nn, tensor, case, data):
    """The metric ``case`` names, fed its updates; returns ``eval``'s result."""
    _, name, kwargs, updates, eval_kwargs = case
    metric = getattr(nn, name)(**kwargs)
    for update in updates:
        args = []
        for item in update:
            if isinstance(item, str) and item.startswith("@"):
                args.append(tensor(data[item[1:]]))
            elif isinstance(item, str) and item == "model":
                args.append(occlusion_model(nn, tensor, data))
            else:
                args.append(item)
        metric.update(*args)
    return metric.eval(**eval_kwargs)


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flatten(v)]
    return [np.asarray(value, dtype=np.float64)]


def main():
    import warnings
    warnings.filterwarnings("ignore")
    import mindspore
    from mindspore import nn, Tensor
    data = inputs()
    record = dict(data)
    for case in CASES:
        for i, value in enumerate(flatten(run(nn, Tensor, case, data))):
            record[f"{case[0]}#{i}"] = value
    for label, x, y, reorder in AUC_CASES:
        record[f"{label}#0"] = np.asarray(nn.auc(data[x], data[y], reorder), np.float64)
    np.savez_compressed(RECORD, **record)
    print(f"{len(CASES) + len(AUC_CASES)} cases -> {RECORD}")


if __name__ == "__main__":
    main()
