"""Seed 000's simple function, as a MindSpore user writes it, on tensorjit.

    python examples/simple_function.py            # 1000 runs per function, as in the seed
    python examples/simple_function.py --small    # 20 runs (smoke test)
    python examples/simple_function.py --small --check   # fixed seed, results' checksums

The only change from the MindSpore tutorial script is the import line. A configuration
whose capture mode is not built yet prints "not available" instead of stopping the script.
"""
import sys
import time

import numpy as np

import tensorjit as mindspore
from tensorjit import Tensor

RUNS = 20 if "--small" in sys.argv else 1000

# --check: a fixed seed, and a checksum of each row's result (compared across interpreters)
CHECK = "--check" in sys.argv
if CHECK:
    from tensorjit.tools.pythons import checksum
    mindspore.set_seed(0)


def f(a, b, c):
    return a * b + c


jitted_by_ast_and_levelO0_f = mindspore.jit(f, capture_mode="ast", jit_level="O0")
jitted_by_ast_and_levelO1_f = mindspore.jit(f, capture_mode="ast", jit_level="O1")
jitted_by_ast_and_ge_f = mindspore.jit(f, capture_mode="ast", backend="GE")

jitted_by_bytecode_and_levelO0_f = mindspore.jit(f, capture_mode="bytecode", jit_level="O0")
jitted_by_bytecode_and_levelO1_f = mindspore.jit(f, capture_mode="bytecode", jit_level="O1")
jitted_by_bytecode_and_ge_f = mindspore.jit(f, capture_mode="bytecode", backend="GE")


# MindSpore needs the decorator form for trace mode; tensorjit also accepts
# mindspore.jit(f, capture_mode="trace"), but the seed's spelling is kept here.
@mindspore.jit(capture_mode="trace", jit_level="O0")
def jitted_by_trace_and_levelO0_f(a, b, c):
    return a * b + c


@mindspore.jit(capture_mode="trace", jit_level="O1")
def jitted_by_trace_and_levelO1_f(a, b, c):
    return a * b + c


@mindspore.jit(capture_mode="trace", backend="GE")
def jitted_by_trace_and_ge_f(a, b, c):
    return a * b + c


jitted_by_ast_and_levelO0_fullgraph_f = mindspore.jit(f, capture_mode="ast", jit_level="O0",
                                                      fullgraph=True)
jitted_by_ast_and_levelO1_fullgraph_f = mindspore.jit(f, capture_mode="ast", jit_level="O1",
                                                      fullgraph=True)
jitted_by_ast_and_ge_fullgraph_f = mindspore.jit(f, capture_mode="ast", backend="GE",
                                                 fullgraph=True)

function_dict = {
    "function ": f,

    "function jitted by ast and levelO0": jitted_by_ast_and_levelO0_f,
    "function jitted by ast and levelO1": jitted_by_ast_and_levelO1_f,
    "function jitted by ast and ge": jitted_by_ast_and_ge_f,

    "function jitted by bytecode and levelO0": jitted_by_bytecode_and_levelO0_f,
    "function jitted by bytecode and levelO1": jitted_by_bytecode_and_levelO1_f,
    "function jitted by bytecode and ge": jitted_by_bytecode_and_ge_f,

    "function jitted by trace and levelO0": jitted_by_trace_and_levelO0_f,
    "function jitted by trace and levelO1": jitted_by_trace_and_levelO1_f,
    "function jitted by trace and ge": jitted_by_trace_and_ge_f,

    "function jitted by ast and levelO0 fullgraph": jitted_by_ast_and_levelO0_fullgraph_f,
    "function jitted by ast and levelO1 fullgraph": jitted_by_ast_and_levelO1_fullgraph_f,
    "function jitted by ast and ge fullgraph": jitted_by_ast_and_ge_fullgraph_f,
}

# make data
dataset = [[Tensor(np.random.randn(2, 3), mindspore.float32) for _ in range(3)]
           for i in range(RUNS)]
expected = [f(*inputs).asnumpy() for inputs in dataset]

for s, fn in function_dict.items():
    try:
        s_time = time.time()

        out = fn(*dataset[0])

        time_to_prepare = time.time() - s_time
        s_time = time.time()

        # run each function RUNS times
        for i in range(RUNS):
            out = fn(*dataset[i])

        time_to_run = time.time() - s_time
    except NotImplementedError as exc:
        print(f"{s}: not available ({exc})")
        continue
    np.testing.assert_allclose(out.asnumpy(), expected[-1], rtol=1e-5, atol=1e-6)

    print(f"{s}, out shape: {out.shape}, time to prepare: {time_to_prepare:.2f}s, "
          f"time to run {RUNS} times: {time_to_run:.2f}s")
    if CHECK:
        print(f"{s.strip()}: checksum {checksum(out)}")
