"""Programs whose tensorjit results differ from MindSpore 2.10's on purpose, each with the
reason; ``docs/mindspore-differences.md`` lists the same programs (a test checks it)."""

DIFFERENCES = {
}
