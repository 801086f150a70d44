"""docs/ops.md is what the op table says (regenerate: python tests/opinfo/make_docs.py)."""
from .make_docs import DOC, render


def test_docs_ops_md_is_generated_from_the_table():
    with open(DOC) as f:
        current = f.read()
    assert current == render(), ("docs/ops.md is stale: run python tests/opinfo/make_docs.py "
                                 "and commit the result")
