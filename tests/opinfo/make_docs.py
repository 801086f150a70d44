"""docs/ops.md from the op table: the promotion table (MindSpore 2.10's, as recorded) and,
per op, its dtypes, result dtype, references, the subgradients chosen at kinks and where it
differs from PyTorch, NumPy and MindSpore, with the reasons the table gives.

    python tests/opinfo/make_docs.py          # rewrite docs/ops.md
(test_docs.py fails when docs/ops.md is not what this writes.)"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "ops.md")


def _dtypes(dtypes):
    from opinfo.core import ALL, NUMERIC, FLOATS, INTS, SIGNED, UNSIGNED, BOOL
    for group, name in ((ALL, "all"), (NUMERIC, "numeric (no bool)"), (FLOATS, "floats"),
                        (BOOL + INTS, "bool and integers"), (INTS, "integers")):
        if set(dtypes) == set(group):
            return name
    return ", ".join(d.name for d in dtypes) if len(dtypes) < 6 else \
        ", ".join(d.name for d in dtypes if d not in SIGNED + UNSIGNED) + " and integers"


def _rule(entry):
    """The result dtypes of representative inputs, as the entry's rule gives them."""
    from tensorjit import dtype as dt
    shown = []
    for d in (dt.bool_, dt.int8, dt.uint16, dt.float16, dt.float32):
        if d in entry.dtypes:
            samples = entry.samples_for(d)
            if samples and samples[0].leaves():
                out = "/".join(r.name for r in entry.result_dtypes(samples[0]))
                shown.append(f"{d.name} -> {out}")
    return ", ".join(shown) if shown else "the dtype asked for"


def _refs(entry):
    refs = ["NumPy / SciPy formula" if entry.ref else "custom check"]
    if entry.torch is not None:
        refs.append("PyTorch values" + (" and autograd" if entry.grad and entry.torch_grad
                                          else ""))
    if entry.grad:
        refs.append("finite differences")
    if entry.ms:
        refs.append("MindSpore 2.10 record")
    return ", ".join(refs)


def _promotion_table(record):
    from tensorjit import dtype as dt
    from opinfo.mindspore_check import ms_dtype
    short = {"bool": "b", "bfloat16": "bf16"}

    def name(d):
        return short.get(d.name, d.name.replace("float", "f").replace("uint", "u").replace(
            "int", "i"))
    rows = ["| | " + " | ".join(name(d) for d in dt.ALL_DTYPES) + " |",
            "|---" * (len(dt.ALL_DTYPES) + 1) + "|"]
    for a in dt.ALL_DTYPES:
        cells = []
        for b in dt.ALL_DTYPES:
            ours = dt.promote_types(a, b)
            found = record["results"].get(f"promote|{a.name}|{b.name}", {})
            theirs = None if "error" in found or not found else ms_dtype(found["dtypes"][0])
            cells.append(name(ours) + ("" if theirs == ours else "*"))
        rows.append(f"| **{name(a)}** | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _scalar_table(record):
    from tensorjit import dtype as dt
    rows = ["| tensor | + True | + 2 | + 2.5 |", "|---|---|---|---|"]
    for a in dt.ALL_DTYPES:
        cells = [dt.promote_with_scalar(a, s).name for s in (True, 2, 2.5)]
        rows.append(f"| {a.name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _counts(table):
    from opinfo.coverage import covered_ops, covered_primitives
    values = sum(len(e.samples_for(d)) for e in table.values() for d in e.dtypes)
    grads = sum(len(e.gradient_samples()) for e in table.values() if e.grad)
    kinks = sum(len(e.kinks) for e in table.values())
    return (f"{len(table)} entries cover {len(covered_primitives(table))} primitives and "
            f"{len(covered_ops(table))} public names of `tensorjit.ops`; at the default depth "
            f"they hold {values} value/dtype samples, {grads} gradient samples and {kinks} "
            f"kinks")


def _ms_refusals(entry, record):
    from tensorjit import dtype as dt
    from opinfo.mindspore_check import result_of
    refused = []
    for d in entry.dtypes:
        samples = [s for s in entry.samples_for(d) if s.raises is None]
        found = result_of(record, entry, d, samples[0]) if samples else None
        if found is None:
            # no record for these inputs (samples built with LAPACK differ in the last bits
            # between NumPy builds): the page must read the same wherever it is generated
            return None
        if "error" in found:
            refused.append(d.name)
    if not refused or len(refused) == len(entry.dtypes):
        return None
    return ", ".join(refused) if len(refused) < len(dt.ALL_DTYPES) else "all"


def _section(entry, record):
    lines = [f"### `{entry.name}`" + (f" (also {', '.join(entry.aliases)})" if entry.aliases
                                       else "")]
    lines.append(f"- declared dtypes: {_dtypes(entry.dtypes)} ({_rule(entry)}); checked "
                 f"against: {_refs(entry)}")
    for topic, text in entry.notes.items():
        lines.append(f"- {topic}: {text}")
    for kink in entry.kinks:
        lines.append(f"- at a kink: {kink.why}")
    seen = set()
    for key, differs in list(entry.torch_differs.items()) + list(entry.ref_differs.items()):
        if differs.why not in seen:
            seen.add(differs.why)
            source = "NumPy/SciPy" if key in entry.ref_differs else "PyTorch"
            lines.append(f"- vs {source}: {differs.why}")
    for why in dict.fromkeys(entry.ms_differs.values()):
        lines.append(f"- vs MindSpore 2.10: {why}")
    refused = _ms_refusals(entry, record) if entry.ms else None
    if refused:
        lines.append(f"- MindSpore 2.10's CPU kernels refuse {refused}; we accept them")
    return "\n".join(lines)


def render():
    from opinfo.table import TABLE
    from opinfo.mindspore_check import load
    record = load()
    families = {}
    for entry in TABLE.values():
        families.setdefault(entry.family, []).append(entry)
    parts = [HEADER.format(counts=_counts(TABLE), version=record["mindspore"],
                           promotion=_promotion_table(record), scalars=_scalar_table(record))]
    for family, entries in families.items():
        parts.append(f"## {family[:1].upper()}{family[1:]}\n")
        parts += [_section(e, record) + "\n" for e in entries]
    return "\n".join(parts)


HEADER = """# Ops: dtypes, promotion, and where we differ

Generated from the op table (`tests/opinfo`) by `python tests/opinfo/make_docs.py`; a test
fails when this file is stale. {counts}.

Every entry is checked, per declared dtype and sample (random values, NaN, +-inf, +-0,
subnormals, values near overflow, integer limits, empty shapes (0,) and (2, 0), 0-d,
broadcasting, mixed dtypes), against an independent reference (a NumPy / SciPy formula
written in the table), against PyTorch's values and autograd where PyTorch has the op,
its gradient against central finite differences in float64, at kinks against the
subgradient stated below, eager against every capture mode x jit_level x backend (the
differential fuzzer), and its result dtypes and float32 values against MindSpore {version}
(recorded in `tests/opinfo/mindspore_2_10.json`). An undeclared dtype must be refused
with a TypeError. `pytest tests/opinfo --full` samples at the nightly depth.

## Type promotion

Binary ops promote both tensors to one dtype, MindSpore 2.10's table (`dtype.promote_types`;
`*`: MindSpore 2.10 refuses the pair, and we extend its rule as NumPy would, within the
category of the wider operand):

{promotion}

A Python number is weak (`dtype.promote_with_scalar`): it never widens a tensor of its own
category; a float number turns bool / integer tensors into float32; an int turns bool into
int64 (MindSpore 2.10, PyTorch):

{scalars}

Where MindSpore, NumPy and PyTorch disagree, the op's section says which rule we follow and
why. Recurring choices: NaN propagates (IEEE; MindSpore 2.10's CPU kernels often return a
number); sums and products of bool / signed integers / uint8 accumulate in int64
(MindSpore); float functions of bool / integers compute in float32 (PyTorch; MindSpore's
CPU kernels mostly refuse them); float16 / bfloat16 reductions accumulate in float32.
"""


def main():
    sys.path[:0] = [os.path.dirname(os.path.dirname(HERE)), os.path.dirname(HERE)]
    with open(DOC, "w") as f:
        f.write(render())
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
