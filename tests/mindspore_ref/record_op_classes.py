"""Record MindSpore's results for the operator-class and cell cases (``op_class_cases.py``) into
``op_classes.npz``, which ``tests/core/test_op_classes.py`` compares tensorjit against.

Run with MindSpore 2.10's interpreter (its own virtualenv):

    $TENSORJIT_MINDSPORE_PYTHON tests/mindspore_ref/record_op_classes.py

Each case's outputs are flattened (a tuple's items in order; Python numbers and tuples as
arrays) and stored as ``<case>_<item>``; ``<case>_kinds`` says what each item was.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from op_class_cases import cases, nn_cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _convert(value, ms):
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    if isinstance(value, np.generic):
        return ms.Tensor(value)
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "dtype":
        return getattr(ms, value[1])
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "tensors":
        return tuple(ms.Tensor(a) for a in value[1])
    return value


def _flatten(out, ms):
    items = out if isinstance(out, (tuple, list)) and any(
        isinstance(o, ms.Tensor) for o in out) else [out]
    arrays, kinds = [], []
    for item in items:
        if isinstance(item, ms.Tensor):
            arrays.append(item.asnumpy())
            kinds.append("tensor")
        else:
            arrays.append(np.asarray(item))
            kinds.append(type(item).__name__)
    return arrays, kinds


def main():
    import mindspore as ms
    from mindspore import ops, nn
    ms.set_context(mode=ms.PYNATIVE_MODE)
    record = {"mindspore_version": np.asarray(ms.__version__)}
    failures = []
    table = [(f"{i}", ops, case) for i, case in enumerate(cases())]
    table += [(f"nn{i}", nn, case) for i, case in enumerate(nn_cases())]
    for i, namespace, (name, init, inputs) in table:
        try:
            op = getattr(namespace, name)(**{k: _convert(v, ms) for k, v in init.items()})
            arrays, kinds = _flatten(op(*[_convert(v, ms) for v in inputs]), ms)
        except Exception as exc:      # a case MindSpore rejects must be fixed, not kept
            failures.append(f"case {i} {name}{init}: {type(exc).__name__}: "
                            f"{str(exc).strip().splitlines()[0]}")
            continue
        for j, array in enumerate(arrays):
            record[f"{i}_{j}"] = array
        record[f"{i}_kinds"] = np.asarray(kinds)
        record[f"{i}_name"] = np.asarray(name)
    if failures:
        sys.exit("MindSpore rejects these cases:\n" + "\n".join(failures))
    np.savez_compressed(os.path.join(HERE, "op_classes.npz"), **record)
    print(f"recorded {len(table)} cases with MindSpore {ms.__version__}")


if __name__ == "__main__":
    main()
