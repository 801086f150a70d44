"""MindIR files: what tensorjit writes runs in MindSpore 2.10, what MindSpore 2.10 writes
runs in tensorjit, and damaged files fail with a ValueError that says why.

CI has no MindSpore, so MindSpore's side is recorded by ``record_mindir.py`` (run with
MindSpore's interpreter) in ``data/mindir/``:

* ``written/<program>.npz``: the SHA-256 of the file tensorjit wrote for the program, its
  inputs and the outputs MindSpore computed from that file. The test writes the file again
  and compares the hash, so the record always describes today's writer;
* ``mindspore/<network>.mindir`` + ``.npz``: files MindSpore exported, with inputs and
  MindSpore's outputs, which ``tensorjit.load`` must reproduce.
"""
import copy
import hashlib
import os
import sys

import numpy as np
import pytest

from tensorjit import Tensor, ops
from tensorjit.deploy import ExportError, capture_program, export, load
from tensorjit.deploy import mindir
from tensorjit.deploy.mindir import MindIRFormatError, proto
from tensorjit.deploy.mindir.schema import MESSAGES, AttributeType, PrimType

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models              # noqa: E402
import record_mindir       # noqa: E402

DATA = os.path.join(HERE, "data", "mindir")
RECORD_AGAIN = ("run `/tmp/msvenv/bin/python tests/export/record_mindir.py --part written` "
                "(an interpreter with MindSpore 2.10) to check the new file in MindSpore and "
                "record it")
WRITTEN = list(models.NAMES) + list(record_mindir.OP_PROGRAMS)


@pytest.fixture(scope="module")
def programs():
    return record_mindir.programs()


def recorded(path):
    def numbered(key, prefix):
        return key.startswith(prefix) and key[len(prefix):].isdigit()

    with np.load(path) as f:
        count = {p: sum(1 for k in f.files if numbered(k, p)) for p in ("in", "out")}
        return ({k: f[k] for k in f.files if not (numbered(k, "in") or numbered(k, "out"))},
                [f[f"in{i}"] for i in range(count["in"])],
                [f[f"out{i}"] for i in range(count["out"])])


def flat(result):
    return models.flat_outputs(result)


def assert_close(actual, expected, what):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    if actual.dtype.kind not in "fc":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
        return
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5, err_msg=what)
    # also relative to the output's scale: some outputs are ~1e-9 (mobilenet's), which
    # the absolute tolerance alone would not check
    scale = float(np.abs(expected).max()) if expected.size else 0.0
    error = float(np.abs(actual.astype(np.float64) - expected).max()) if expected.size else 0.0
    assert error <= 1e-4 * scale + 1e-30, f"{what}: error {error:g} at output scale {scale:g}"


def eager_outputs(net, inputs):
    inner = getattr(net, "_tj_jit", None)       # the op programs are jit-wrapped functions
    return models.eager(inner.fn if inner is not None else net, inputs)


# ---- what tensorjit writes, MindSpore runs ---------------------------------------------------

@pytest.mark.parametrize("name", WRITTEN)
def test_mindspore_ran_the_file_tensorjit_writes(name, programs, tmp_path):
    net, inputs = programs[name]
    record_path = os.path.join(DATA, "written", f"{name}.npz")
    if not os.path.exists(record_path):
        pytest.fail(f"no MindSpore record for {name}: {RECORD_AGAIN}")
    meta, recorded_inputs, mindspore_outputs = recorded(record_path)
    path = export(net, *inputs, file_name=str(tmp_path / name), file_format="MINDIR")
    with open(path, "rb") as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() != str(meta["sha256"]):
        pytest.fail(f"{name}: the MindIR writer now writes different bytes ({len(data)} "
                    f"bytes, recorded {int(meta['size'])}) than MindSpore was checked on: "
                    f"{RECORD_AGAIN}")
    assert len(recorded_inputs) == len(inputs)
    for mine, theirs in zip(inputs, recorded_inputs):
        np.testing.assert_array_equal(mine.asnumpy(), theirs)
    expected = eager_outputs(net, inputs)
    assert len(mindspore_outputs) == len(expected)
    for i, (ms_out, ref) in enumerate(zip(mindspore_outputs, expected)):
        assert_close(ms_out, ref, f"{name} output {i}: MindSpore vs tensorjit eager")
    loaded = flat(load(path)(*inputs))
    assert len(loaded) == len(expected)
    for i, (out, ref) in enumerate(zip(loaded, expected)):
        assert_close(out, ref, f"{name} output {i}: tensorjit.load vs eager")


def test_the_file_is_the_same_everywhere(programs, tmp_path):
    """No paths, times or random names: two exports are the same bytes, and the weights
    keep their MindSpore names."""
    net, inputs = programs["resnet_block"]
    first = export(net, *inputs, file_name=str(tmp_path / "a"), file_format="MINDIR")
    second = export(net, *inputs, file_name=str(tmp_path / "b.mindir"), file_format="MINDIR")
    assert second.endswith("b.mindir")
    with open(first, "rb") as f1, open(second, "rb") as f2:
        data = f1.read()
        assert data == f2.read()
    assert HERE.encode() not in data and os.path.dirname(HERE).encode() not in data
    model = proto.decode(data, "ModelProto")
    assert model.ir_version == "1.1" and model.model_version == "2.10.0"
    assert model.mind_ir_version == 3 and model.little_endian is True
    names = {p.ref_key for p in model.graph.parameter}
    assert names == {ref.name for ref in capture_program(net, inputs).graph.refs}
    assert "conv1.weight" in names
    assert mindir.looks_like(data[:64], "file.bin")


def test_a_primitive_without_mindir_form_is_named_with_its_line(tmp_path):
    def sorts(x):
        return ops.argsort(x) * 2

    x = Tensor(np.arange(6, dtype=np.float32))
    with pytest.raises(ExportError) as info:
        export(sorts, x, file_name=str(tmp_path / "sorts"), file_format="MINDIR")
    message = str(info.value)
    assert "'argsort'" in message and "has no MindIR form" in message
    assert f"{os.path.basename(__file__)}:" in message


# ---- what MindSpore writes, tensorjit runs ----------------------------------------------------

@pytest.mark.parametrize("name", record_mindir.MINDSPORE_NETWORKS)
def test_tensorjit_runs_the_file_mindspore_wrote(name):
    path = os.path.join(DATA, "mindspore", f"{name}.mindir")
    _, inputs, expected = recorded(os.path.join(DATA, "mindspore", f"{name}.npz"))
    cell = load(path)
    outputs = flat(cell(*[Tensor(a) for a in inputs]))
    assert len(outputs) == len(expected)
    for i, (out, ref) in enumerate(zip(outputs, expected)):
        assert_close(out, ref, f"{name} output {i}: tensorjit vs MindSpore")
    with open(path, "rb") as f:
        model = proto.decode(f.read(), "ModelProto")
    params = {p.name for p in cell.get_parameters()}
    assert params == {p.ref_key for p in model.graph.parameter}
    assert model.producer_name == "MindSpore"


def test_mindspore_weights_keep_their_names():
    cell = load(os.path.join(DATA, "mindspore", "lenet5.mindir"))
    names = {p.name for p in cell.get_parameters()}
    assert {"conv1.weight", "bn1.gamma", "bn1.moving_mean", "fc3.bias"} <= names


# ---- hand-made files: the reader's errors ------------------------------------------------------

def tensor_info(shape):
    return {"dims": list(shape), "data_type": 1}


def model_bytes(nodes, inputs=(("x", (2, 3)),), outputs=("g:y",), primitives=None,
                parameters=()):
    """A small ModelProto: graph ``g``, float32 inputs, ``nodes`` as NodeProto dicts."""
    graph = {"name": "g", "node": list(nodes), "parameter": list(parameters),
             "input": [{"name": f"g:{n}", "tensor": [tensor_info(s)]} for n, s in inputs],
             "output": [{"name": n} for n in outputs]}
    prims = primitives if primitives is not None else [
        {"name": f"{op}:1", "op_type": op, "prim_type": PrimType.PRIMITIVE_FUNCTION}
        for op in sorted({n["op_type"][5:].split(":")[0] for n in nodes
                          if n.get("op_type", "").startswith("REF::")})]
    return proto.encode("ModelProto", {"ir_version": "1.1", "producer_name": "test",
                                       "model_version": "2.10.0", "graph": graph,
                                       "primitives": prims, "mind_ir_version": 3})


def node(op, inputs, output):
    return {"op_type": f"REF::{op}:1", "input": list(inputs), "output": [output],
            "name": output}


def test_hand_made_file_reads():
    program = mindir.read(model_bytes([node("Neg", ["g:x"], "g:y")]), "hand")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    from tensorjit.nn.graph_cell import GraphCell
    np.testing.assert_array_equal(GraphCell(program)(Tensor(x)).asnumpy(), -x)


@pytest.mark.parametrize("data, words", [
    (model_bytes([node("NoSuchOp", ["g:x"], "g:y")]), ["'NoSuchOp'", "not supported"]),
    (model_bytes([node("Neg", ["g:z"], "g:y")]), ["'g:z'", "defines"]),
    (model_bytes([node("Neg", ["g:b"], "g:y"), node("Neg", ["g:y"], "g:b")]), ["cycle"]),
    (model_bytes([node("Neg", ["g:x"], "g:y"), node("Neg", ["g:x"], "g:y")]), ["twice"]),
    (model_bytes([node("Neg", ["g:x"], "g:y")], outputs=("g:w",)), ["'g:w'", "output"]),
    (model_bytes([node("Neg", ["g:x"], "g:y")], primitives=[]), ["'Neg:1'", "declare"]),
    (model_bytes([node("Add", ["g:x", "g:x2"], "g:y")], inputs=(("x", (2, 3)), ("x2", (4,)))),
     ["add", "f32[2,3]", "f32[4]"]),
    (model_bytes([node("Neg", ["g:x"], "g:y")], inputs=(("x", (-1, 3)),)), ["dynamic shape"]),
    (model_bytes([node("Neg", ["g:w"], "g:y")], parameters=[
        {"dims": [1 << 20], "data_type": 1, "name": "g:w", "raw_data": b"\0" * 8,
         "ref_key": "w"}]), ["'w'", "needs 4194304 bytes", "holds 8"]),
    (model_bytes([node("Neg", ["g:w"], "g:y")], parameters=[
        {"dims": [1 << 40, 1 << 40], "data_type": 1, "name": "g:w", "raw_data": b"\0" * 8,
         "ref_key": "w"}]), ["'w'", "damaged"]),
    (model_bytes([node("Neg", ["g:w"], "g:y")], parameters=[
        {"dims": [2], "data_type": 1, "name": "g:w", "ref_key": "w",
         "external_data": {"location": "w.bin", "offset": 0, "length": 8}}]), ["external"]),
    (b"\x3a" + bytes([0xff] * 9) + b"\x01", ["runs past the end"]),          # absurd length
    (b"\x38\x05", ["wire type 0", "message needs 2"]),                        # graph as varint
    (b"\x0a\x05ab", ["truncated"]),
    (b"\x0f", ["wire type 7"]),
    (b"", ["no graph"]),
], ids=["unknown op", "undefined input", "cycle", "defined twice", "undefined output",
        "undeclared primitive", "shapes", "dynamic shape", "short weight", "absurd weight",
        "external weight", "absurd length", "wrong wire type", "truncated", "wire type 7",
        "empty"])
def test_damaged_or_unsupported_files_say_why(data, words):
    with pytest.raises(ValueError) as info:
        mindir.read(data, "the test file")
    message = str(info.value)
    assert "the test file" in message
    for word in words:
        assert word in message, message


def test_nesting_deeper_than_any_real_file_is_refused():
    attr = {"name": "value", "type": AttributeType.INT64, "i": 1}
    for _ in range(200):
        attr = {"name": "value", "type": AttributeType.TUPLE, "values": [attr]}
    data = model_bytes([{"op_type": "Constant", "output": ["c"], "name": "c",
                         "attribute": [attr]}, node("Neg", ["g:x"], "g:y")])
    with pytest.raises(MindIRFormatError, match="nested more than"):
        mindir.read(data, "deep")


def test_control_flow_subgraphs_are_refused_by_name():
    data = model_bytes([{"op_type": "REF::body_graph", "input": ["g:x"], "output": ["g:y"],
                         "name": "g:y"}], primitives=[])
    model = proto.decode(data, "ModelProto")
    assert model.graph.name == "g"
    data += proto.encode("ModelProto", {"functions": [{"name": "body_graph"}]})
    with pytest.raises(MindIRFormatError, match="sub-graph 'body_graph'"):
        mindir.read(data, "loops")


# ---- damaged bytes: every failure is a ValueError with a message ---------------------------------

def _read_or_explain(data, what):
    try:
        mindir.read(data, what)
    except ValueError as exc:           # MindIRFormatError, ExportError and friends
        assert str(exc), f"{what}: an error without a message"
        return False
    except Exception as exc:            # anything else is a bug in the reader
        raise AssertionError(f"{what}: {type(exc).__name__}: {exc}") from exc
    return True


def _bases(programs, tmp_path):
    net, inputs = programs["lstm"]
    ours = export(net, *inputs, file_name=str(tmp_path / "lstm"), file_format="MINDIR")
    paths = [ours] + [os.path.join(DATA, "mindspore", f"{n}.mindir") for n in ("mlp", "lstm")]
    out = []
    for path in paths:
        with open(path, "rb") as f:
            out.append((os.path.basename(path), f.read()))
    return out


def test_truncated_files_fail_cleanly(programs, tmp_path):
    for label, data in _bases(programs, tmp_path):
        cuts = sorted(set(range(48)) | set(np.linspace(48, len(data) - 1, 80).astype(int)))
        results = [_read_or_explain(data[:cut], f"{label} cut at {cut}") for cut in cuts]
        assert not any(results), f"{label}: a truncated file loaded"


def test_mutated_files_fail_cleanly_or_still_load(programs, tmp_path):
    rng = np.random.default_rng(20240611)
    loaded = failed = 0
    for label, data in _bases(programs, tmp_path):
        for k in range(120):
            mutant = bytearray(data)
            for _ in range(int(rng.integers(1, 5))):
                at = int(rng.integers(0, len(mutant)))
                kind = int(rng.integers(0, 3))
                if kind == 0:
                    mutant[at] = int(rng.integers(0, 256))          # a byte flipped
                elif kind == 1:
                    del mutant[at]                                  # a byte lost
                else:
                    mutant.insert(at, int(rng.integers(0, 256)))   # a byte added
            if _read_or_explain(bytes(mutant), f"{label} mutant {k}"):
                loaded += 1
            else:
                failed += 1
    assert failed > 0 and loaded + failed == 360


def _as_dict(message):
    """A decoded message back as the dict ``proto.encode`` takes."""
    out = {}
    for name, kind, many in MESSAGES[message._message].values():
        value = getattr(message, name)
        if value is None or value == []:
            continue
        convert = _as_dict if kind in MESSAGES else (
            lambda v: bytes(v) if isinstance(v, memoryview) else v)
        out[name] = [convert(v) for v in value] if many else convert(value)
    return out


def _mutate(model, rng):
    """One change a damaged or hostile file could make: a node lost, moved or rewired, an
    operator swapped, a setting, attribute type or tensor shape changed."""
    graph = model["graph"]
    nodes = graph.get("node", [])
    names = [o for n in nodes for o in n.get("output", [])] + [i["name"] for i in
                                                               graph.get("input", [])]
    attrs = [a for n in nodes for a in n.get("attribute", [])] + [
        a for p in model.get("primitives", []) for a in p.get("attribute", [])]
    tensors = [t for a in attrs for t in a.get("tensors", [])] + graph.get("parameter", [])
    pick = lambda seq: seq[int(rng.integers(len(seq)))]      # noqa: E731
    kind = int(rng.integers(8))
    if kind == 0:
        nodes.remove(pick(nodes))
    elif kind == 1:
        node = pick(nodes)
        if node.get("input"):
            node["input"][int(rng.integers(len(node["input"])))] = pick(names)
        else:
            node["input"] = [pick(names)]
    elif kind == 2 and model.get("primitives"):
        pick(model["primitives"])["op_type"] = pick(model["primitives"])["op_type"]
    elif kind == 3 and attrs:
        attr = pick(attrs)
        if attr.get("values") and attr["values"][0].get("ints"):
            pick(attr["values"])["ints"] = [int(rng.choice([-5, -1, 0, 3, 1 << 40]))]
        else:
            attr["i"] = int(rng.choice([-2, 0, 1, 4, 1 << 40]))
    elif kind == 4 and attrs:
        pick(attrs)["type"] = int(rng.integers(0, 42))
    elif kind == 5 and tensors:
        tensor = pick(tensors)
        dims = list(tensor.get("dims", [])) or [1]
        dims[int(rng.integers(len(dims)))] = int(rng.choice([0, 2, 7, -1, 1 << 50]))
        tensor["dims"] = dims
    elif kind == 6 and len(nodes) > 1:
        node = pick(nodes)
        nodes.remove(node)
        nodes.insert(int(rng.integers(len(nodes))), node)
    elif kind == 7:
        node = pick(nodes)
        node.setdefault("input", [])
        if node["input"] and rng.random() < 0.5:
            node["input"].pop()
        else:
            node["input"].append(pick(names))


def test_rewired_files_fail_cleanly_or_still_load(programs, tmp_path):
    rng = np.random.default_rng(7)
    outcomes = []
    for label, data in _bases(programs, tmp_path):
        base = _as_dict(proto.decode(data, "ModelProto"))
        for k in range(60):
            model = copy.deepcopy(base)
            for _ in range(int(rng.integers(1, 4))):
                _mutate(model, rng)
            outcomes.append(_read_or_explain(proto.encode("ModelProto", model),
                                             f"{label} rewired {k}"))
    assert not all(outcomes) and any(outcomes)
