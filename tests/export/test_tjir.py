"""Export to tensorjit's own file (TJIR) and load it back as an nn.GraphCell: the same
outputs as eager for every program, capture mode and level; the loaded model runs under jit
(O1 fuses it), differentiates (against finite differences) and fine-tunes; damaged, foreign
and newer files get clear errors."""
import json
import os

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn, ops
from tensorjit.deploy import ExportError, export, load
from tensorjit.deploy import tjir
from tensorjit.bench.models import _TokenLoss, train_step

from . import models

MODES = ("ast", "trace", "bytecode")


@pytest.mark.parametrize("name", models.NAMES)
@pytest.mark.parametrize("mode", MODES)
def test_round_trip_matches_eager(built, tmp_path, name, mode):
    net, inputs, expected = built(name)
    level = "O1" if mode != "ast" else "O0"
    path = export(net, *inputs, file_name=str(tmp_path / name), file_format="TJIR",
                  capture_mode=mode, jit_level=level)
    assert path.endswith(".tjir") and os.path.isfile(path)
    loaded = load(path)
    assert isinstance(loaded, nn.GraphCell)
    got = models.flat_outputs(loaded(*inputs))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
    # the weights keep their exported names, so checkpoints of the source model fit
    if isinstance(net, nn.Cell):
        source = {p.name for p in net.get_parameters()}
        loaded_names = {p.name for p in loaded.get_parameters()}
        assert loaded_names & source
        assert all(n in source or n.startswith("captured") for n in loaded_names), \
            loaded_names - source


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("level", ("O0", "O1"))
def test_loaded_graph_runs_under_jit(built, tmp_path, mode, level):
    net, inputs, expected = built("gpt")
    loaded = load(export(net, *inputs, file_name=str(tmp_path / "gpt"), file_format="TJIR"))
    jitted = ms.jit(loaded, capture_mode=mode, jit_level=level)
    for _ in range(2):
        got = models.flat_outputs(jitted(*inputs))
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-5, atol=1e-6)
    if level == "O1":
        lowered = ms.jit(loaded, capture_mode=mode, jit_level="O1").lower(*inputs)
        assert "fused" in lowered.as_text()       # O1's fusion applies to a loaded graph


def test_gradients_of_loaded_graph_match_finite_differences(built, tmp_path):
    net, inputs, _ = built("resnet_block")
    loaded = load(export(net, *inputs, file_name=str(tmp_path / "block"), file_format="TJIR"))
    weights = loaded.trainable_params()
    x = inputs[0]

    def loss():
        return (loaded(x) ** 2).mean()

    grads = ms.value_and_grad(lambda: loss(), None, weights)()[1]
    rng = np.random.default_rng(1)
    base = [w.asnumpy().copy() for w in weights]
    dirs = [rng.standard_normal(b.shape) for b in base]
    analytic = sum(float((g.asnumpy().astype(np.float64) * d).sum()) for g, d in zip(grads, dirs))

    def at(eps):
        for w, b, d in zip(weights, base, dirs):
            w.set_data(Tensor((b + eps * d).astype(np.float32)))
        return float(loss().asnumpy())
    numeric = (at(1e-3) - at(-1e-3)) / 2e-3
    for w, b in zip(weights, base):
        w.set_data(Tensor(b))
    assert abs(numeric - analytic) <= 2e-2 * (abs(numeric) + 1e-3), (numeric, analytic)


def test_fine_tuning_a_loaded_model_matches_the_source_model(built, tmp_path):
    """A few SGD steps on the loaded GraphCell (jitted, O1) move its weights exactly as the
    same steps move the source model's (in inference mode, as exported)."""
    source, inputs, _ = built("gpt")
    ids = inputs[0]
    loaded = load(export(source, ids, file_name=str(tmp_path / "gpt"), file_format="TJIR"))
    target = Tensor(np.random.default_rng(2).integers(0, 64, ids.shape).astype(np.int32))

    def trainer(net):          # the benchmark's GPT train step, with SGD
        return train_step(net, _TokenLoss(), nn.SGD(net.trainable_params(), learning_rate=0.1))

    source_copy, _ = models.build("gpt")
    source_copy.set_train(False)
    losses = {}
    for label, net, jit_it in (("source", source_copy, False), ("loaded", loaded, True)):
        train = trainer(net)
        train = ms.jit(train, jit_level="O1") if jit_it else train
        losses[label] = [float(train(ids, target).asnumpy()) for _ in range(3)]
    np.testing.assert_allclose(losses["loaded"], losses["source"], rtol=1e-4)
    assert losses["loaded"][2] < losses["loaded"][0]
    after = {p.name: p.asnumpy() for p in source_copy.get_parameters()}
    for p in loaded.get_parameters():
        if p.name in after:
            np.testing.assert_allclose(p.asnumpy(), after[p.name], rtol=1e-3, atol=1e-5)


def test_graph_cell_checks_its_inputs(built, tmp_path):
    net, inputs, _ = built("simple_function")
    loaded = load(export(net, *inputs, file_name=str(tmp_path / "f"), file_format="TJIR"))
    with pytest.raises(TypeError, match="takes 3 input"):
        loaded(inputs[0])
    with pytest.raises(ValueError, match=r"exported for shape \(2, 3\)"):
        loaded(Tensor(np.ones((4, 3), np.float32)), *inputs[1:])
    shared = nn.GraphCell(loaded)          # MindSpore's nn.GraphCell(ms.load(...)) form
    assert shared.get_parameters is not None
    np.testing.assert_allclose(shared(*inputs).asnumpy(), loaded(*inputs).asnumpy())


def test_params_init_replaces_weights(built, tmp_path):
    net, inputs, _ = built("resnet_block")
    path = export(net, *inputs, file_name=str(tmp_path / "b"), file_format="TJIR")
    zero = {p.name: np.zeros(p.shape, np.float32) for p in net.get_parameters()
            if p.name.startswith("conv")}
    cell = nn.GraphCell(load(path), params_init=zero)
    # with both convolutions zeroed the block is relu(bn2(0) + x) = relu(beta-ish + x)
    reference = load(path)
    assert not np.allclose(cell(*inputs).asnumpy(), reference(*inputs).asnumpy())
    with pytest.raises(ValueError, match="does not have"):
        nn.GraphCell(reference, params_init={"nope": np.zeros(1)})


def test_export_refuses_what_a_file_cannot_hold(tmp_path):
    x = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="file_format must be one of"):
        export(lambda a: a + 1, x, file_name=str(tmp_path / "f"), file_format="PB")

    def returns_python(a):
        return a + 1, 3
    with pytest.raises(ExportError, match="not tensors"):
        export(returns_python, x, file_name=str(tmp_path / "g"), file_format="TJIR",
               capture_mode="trace")

    def breaks(a):
        print("side effect", a.asnumpy().sum())
        return a + 1
    with pytest.raises(Exception, match="graph"):
        export(breaks, x, file_name=str(tmp_path / "h"), file_format="TJIR",
               capture_mode="bytecode")


# ---- files that are damaged, foreign or from the future --------------------------------

def _valid_file(tmp_path):
    net, inputs = models.build("resnet_block")
    return export(net, *inputs, file_name=str(tmp_path / "ok"), file_format="TJIR"), inputs


def test_newer_version_and_foreign_files_are_named(tmp_path):
    path, _ = _valid_file(tmp_path)
    data = open(path, "rb").read()
    newer = data.replace(b'"version":"1"', b'"version":"9"')
    (tmp_path / "newer.tjir").write_bytes(newer)
    with pytest.raises(ValueError, match="newer tensorjit"):
        load(str(tmp_path / "newer.tjir"))
    (tmp_path / "plain.tjir").write_bytes(b"not a graph at all")
    with pytest.raises(ValueError, match="not a TJIR, ONNX or MindIR file|truncated"):
        load(str(tmp_path / "plain.tjir"))
    with pytest.raises(FileNotFoundError):
        load(str(tmp_path / "missing.tjir"))


def test_unknown_primitive_is_named(tmp_path):
    path, _ = _valid_file(tmp_path)
    arrays, text = tjir.encode(tjir.read(open(path, "rb").read(), path))
    doc = json.loads(text)
    doc["graph"]["nodes"][0]["prim"] = "warp_drive"
    from tensorjit.checkpoint import safetensors_format
    ordered = safetensors_format.layout(arrays)
    text = json.dumps(doc)
    with open(tmp_path / "odd.tjir", "wb") as f:       # (a well-formed file: checksum fits)
        f.write(safetensors_format.header_bytes(ordered, {
            "format": "tjir", "version": "1", "graph": text,
            "sha256": tjir._digest(text, ordered)}))
        for a in ordered.values():
            f.write(a.tobytes())
    with pytest.raises(ValueError, match="'warp_drive' is unknown"):
        load(str(tmp_path / "odd.tjir"))


def test_mutated_files_fail_clearly_or_still_run(tmp_path):
    """Truncations and byte flips all over a valid file: every one is refused with a
    ValueError naming the problem (the checksum catches flips that still parse) -- never
    another exception, never a hang, never a silently different model."""
    path, inputs = _valid_file(tmp_path)
    data = open(path, "rb").read()
    rng = np.random.default_rng(39)
    mutants = [data[:n] for n in sorted(set(rng.integers(0, len(data), 60).tolist()))]
    header_end = 8 + int.from_bytes(data[:8], "little")
    for _ in range(240):
        buf = bytearray(data)
        for _ in range(int(rng.integers(1, 4))):
            # mostly in the header, where the structure is
            pos = int(rng.integers(0, header_end if rng.random() < 0.8 else len(buf)))
            buf[pos] = int(rng.integers(0, 256))
        mutants.append(bytes(buf))
    target = tmp_path / "mutant.tjir"
    expected = load(path)(*inputs).asnumpy()
    for mutant in mutants:
        target.write_bytes(mutant)
        try:
            out = load(str(target))(*inputs).asnumpy()
        except ValueError as exc:
            assert str(exc), "an error without a message"
        else:      # (a flip inside the producer string changes nothing that runs)
            np.testing.assert_array_equal(out, expected)


def test_export_under_the_mindspore_names(tmp_path):
    """``mindspore.export`` / ``mindspore.load`` / ``nn.GraphCell`` as a MindSpore script
    spells them."""
    net, inputs = models.build("resnet_block")
    ms.export(net, *inputs, file_name=str(tmp_path / "net"), file_format="TJIR")
    graph = ms.load(str(tmp_path / "net.tjir"))
    out = nn.GraphCell(graph)(*inputs)
    np.testing.assert_allclose(out.asnumpy(), models.eager(net, inputs)[0], rtol=1e-5,
                               atol=1e-6)
    assert callable(ops.relu)


def test_placeholder_inputs_with_unknown_dimensions_are_refused_clearly():
    """MindSpore exports from ``Tensor(shape=[None, 3], dtype=...)`` placeholders; without
    symbolic shapes tensorjit says so instead of failing inside the Tensor."""
    with pytest.raises(ValueError, match="unknown dimension"):
        Tensor(shape=[None, 3], dtype=ms.float32)
    with pytest.raises(ValueError, match="unknown dimension"):
        Tensor(shape=(-1, 3), dtype=ms.float32)
    assert Tensor(shape=(2, 3), dtype=ms.float32).shape == (2, 3)
