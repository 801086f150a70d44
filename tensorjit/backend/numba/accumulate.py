"""Accumulation steps that let LLVM vectorize a kernel's reduction loop.

Floating-point addition is not associative, so without permission LLVM keeps ``acc += v``
one add after another: a chain of dependent adds, 8-10x slower than NumPy's sum over a
row. ``add`` carries the ``reassoc`` flag on that one instruction (not on the kernel:
``fastmath`` would also rewrite the polynomials of scalar_math.py), which lets LLVM keep
several partial sums in SIMD lanes, as NumPy's pairwise sum does; the order of the
additions changes, not their precision (float32 sums add blocks of 512 elements in float32
and the blocks in float64, source.py).

``larger`` / ``smaller`` are a max / min step that assumes no NaN (the ``nnan`` flag,
which LLVM needs to vectorize the select); the kernel tracks NaN separately
(``v != v`` or-ed into a flag) and returns NaN for a row that had one, as NumPy does.
"""
from numba import types
from numba.extending import intrinsic


@intrinsic
def add(typingctx, acc, value):
    if not (isinstance(acc, types.Float) and acc == value):
        return None

    def codegen(context, builder, signature, args):
        return builder.fadd(args[0], args[1], flags=("reassoc",))
    return acc(acc, value), codegen


def _choice(op):
    @intrinsic
    def choose(typingctx, acc, value):
        if not (isinstance(acc, types.Float) and acc == value):
            return None

        def codegen(context, builder, signature, args):
            flags = ("nnan", "nsz")
            take = builder.fcmp_ordered(op, args[1], args[0], flags=flags)
            return builder.select(take, args[1], args[0], flags=flags)
        return acc(acc, value), codegen
    return choose


larger = _choice(">")
smaller = _choice("<")
