"""Benchmarks: seed 000's three tables, side by side with peers.

``python -m tensorjit.bench [simple|conv|attention|all]`` (``cli.py``). The pieces:

    workloads.py   the seed cells (BasicBlock, LlamaAttention) and their size presets
    suite.py       the benchmark cases: the function a user jits, inputs, eager results
    rows.py        the rows of seed 000's tables (capture mode x level x backend x fullgraph)
    measure.py     check a row against eager, then time it as the seed does
    peers/         raw NumPy in process; PyTorch, JAX, MindSpore in worker processes
    report.py      the printed tables, ratios, JSON and PNG
    isolated.py    --isolate: one fresh process per row (O1 kernel cache cold / warm)
    o1.py          the O1 / GE benchmark (python -m tensorjit.bench.o1)
    busy.py        background load on the same CPU (training.py's --busy)
"""
