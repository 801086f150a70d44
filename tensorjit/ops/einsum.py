"""Einstein summation, planned into registry ops: each operand's repeated letters become
diagonals, letters only one operand has (and the output lacks) are summed out at once, and
operands are contracted left to right, each pair as one batched matrix product
(transpose + reshape + matmul), so ``einsum`` differentiates, batches and fuses like the
ops it is made of."""
import string

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .linalg import matmul_p

__all__ = ["einsum", "einsum_ext", "contract"]

_LETTERS = string.ascii_letters


def _parse(equation, operands, op):
    """(terms, output): one string of letters per operand, ``...`` expanded to letters no
    term uses (right-aligned, as broadcasting), and the output's letters."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"{op}: the equation {equation!r} names {len(terms)} operands, got "
                         f"{len(operands)}")
    for term in terms + [output]:
        stray = set(term.replace("...", "")) - set(_LETTERS)
        if stray or term.count("...") > 1 or "." in term.replace("...", ""):
            raise ValueError(f"{op}: invalid subscripts {term!r} in {equation!r} (letters "
                             f"and at most one '...' per operand)")
    spare = [c for c in _LETTERS if c not in equation]
    ranks = []
    for term, operand in zip(terms, operands):
        named = len(term.replace("...", ""))
        if (operand.ndim < named) if "..." in term else (operand.ndim != named):
            raise ValueError(f"{op}: subscripts {term!r} do not fit an operand of rank "
                             f"{operand.ndim}")
        ranks.append(operand.ndim - named if "..." in term else 0)
    batch = "".join(spare[:max(ranks, default=0)])

    def expand(term, rank):
        return term.replace("...", batch[len(batch) - rank:] if rank else "")

    terms = [expand(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        if "..." not in output and batch and any(ranks):
            # NumPy / PyTorch: '...' dims the output does not name are an error
            raise ValueError(f"{op}: the output of {equation!r} must name '...'")
        output = expand(output, len(batch))
        seen = "".join(terms)
        for c in output:
            if c not in seen:
                raise ValueError(f"{op}: output subscript {c!r} of {equation!r} names no "
                                 f"operand's axis")
            if output.count(c) > 1:
                raise ValueError(f"{op}: output subscript {c!r} repeats in {equation!r}")
    else:
        joined = "".join(terms)
        output = batch + "".join(sorted(c for c in set(joined)
                                        if joined.count(c) == 1 and c not in batch))
    return terms, output


def _take_diagonals(term, x):
    """A term without repeated letters: each repeated letter's axes become their diagonal."""
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        i, j = term.index(c), term.index(c, term.index(c) + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: axes {i} and {j} share subscript {c!r} but have sizes "
                             f"{x.shape[i]} and {x.shape[j]}")
        x = _shape.transpose(x, tuple(k for k in range(x.ndim) if k not in (i, j)) + (i, j))
        n = x.shape[-1]
        picks = coerce.constant(np.arange(n))
        x = x[(Ellipsis, picks, picks)]              # the diagonal, as the last axis
        term = "".join(t for k, t in enumerate(term) if k not in (i, j)) + c
    return term, x


def _sum_letters(term, x, letters):
    axes = tuple(i for i, c in enumerate(term) if c in letters)
    if not axes:
        return term, x
    return "".join(c for c in term if c not in letters), _red.sum(x, axes)


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


def _sizes(terms, xs):
    """Each letter's size; a letter of size 1 in one operand broadcasts against another."""
    sizes = {}
    for term, x in zip(terms, xs):
        for c, n in zip(term, x.shape):
            if sizes.get(c, 1) not in (1, n) and n != 1:
                raise ValueError(f"einsum: subscript {c!r} has sizes {sizes[c]} and {n}")
            sizes[c] = n if sizes.get(c, 1) == 1 else sizes[c]
    return sizes


def _aligned(term, x, order, sizes):
    """``x`` transposed to the letters of ``order`` and broadcast to their sizes."""
    x = _shape.transpose(x, tuple(term.index(c) for c in order)) if term != order else x
    target = tuple(sizes[c] for c in order)
    return _shape.broadcast_to(x, target) if tuple(x.shape) != target else x


def _contract_pair(a_term, a, b_term, b, keep, sizes):
    """The product of two operands summed over the letters they share that ``keep`` (the
    output and the operands still to come) lacks, as one batched matmul."""
    batch = [c for c in a_term if c in b_term and c in keep]
    summed = [c for c in a_term if c in b_term and c not in keep]
    left = [c for c in a_term if c not in b_term]
    right = [c for c in b_term if c not in a_term]
    a = _aligned(a_term, a, "".join(batch + left + summed), sizes)
    b = _aligned(b_term, b, "".join(batch + summed + right), sizes)
    nb, nl, ns, nr = (_size([sizes[c] for c in part]) for part in (batch, left, summed, right))
    out = matmul_p.bind(_shape.reshape(a, (nb, nl, ns)), _shape.reshape(b, (nb, ns, nr)))
    term = "".join(batch + left + right)
    return term, _shape.reshape(out, tuple(sizes[c] for c in term))


def contract(equation, operands, op="einsum"):
    """The summation ``equation`` over ``operands`` (tensors of one dtype after
    promotion), without dtype checks: shared by ``ops.einsum`` and ``mint.einsum``."""
    xs = [coerce.as_tensor(x, op=op) for x in operands]
    terms, output = _parse(equation, xs, op)
    common = xs[0].dtype if xs else dt.float32
    for x in xs[1:]:
        common = dt.promote_types(common, x.dtype)
    xs = [x if x.dtype == common else _ew.cast(x, common) for x in xs]
    if common == dt.bool_ and len(xs) > 1:
        raise TypeError(f"{op}: bool operands cannot be multiplied and summed")
    prepared = []
    for k, (term, x) in enumerate(zip(terms, xs)):
        term, x = _take_diagonals(term, x)
        elsewhere = set(output).union(*[set(t) for i, t in enumerate(terms) if i != k])
        prepared.append(_sum_letters(term, x, set(term) - elsewhere))
    sizes = _sizes([t for t, _ in prepared], [x for _, x in prepared])
    term, x = prepared[0]
    for k in range(1, len(prepared)):
        keep = set(output).union(*[set(t) for t, _ in prepared[k + 1:]])
        term, x = _contract_pair(term, x, *prepared[k], keep, sizes)
    term, x = _sum_letters(term, x, set(term) - set(output))
    return _aligned(term, x, output, sizes)


def _sublists(equation, operands):
    """MindSpore's / NumPy's second form: ``einsum(x, [0, 1], y, [1, 2], [0, 2])`` (lists
    of axis numbers after each operand, an optional output list last; ``Ellipsis`` for
    ``...``)."""
    items = (equation,) + tuple(operands)
    tensors, lists = items[0::2], items[1::2]
    output = lists[-1] if len(items) % 2 == 0 else None
    lists = lists[:len(tensors)]

    def letters(sub):
        return "".join("..." if s is Ellipsis else _LETTERS[int(s)] for s in sub)

    text = ",".join(letters(s) for s in lists)
    return (text + ("->" + letters(output) if output is not None else "")), tensors


def einsum(equation, *operands):
    """``ops.einsum``: sums of products of ``operands`` by the Einstein ``equation``
    (``"ij,jk->ik"``; ``...`` for broadcast axes; a letter repeated in one operand takes
    its diagonal; without ``->`` the output is the letters named once, in order), or the
    sublist form ``einsum(x, [0, 1], y, [1, 2], [0, 2])``.

    Args: float16 / float32 / float64 tensors (other dtypes raise TypeError, as MindSpore's
    Einsum); mixed float dtypes are promoted. Contracted left to right, each pair as one
    matrix product.

    >>> import tensorjit as ms
    >>> ms.ops.einsum("ij,j->i", ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([1.0, 1.0])).asnumpy().tolist()
    [3.0, 7.0]
    """
    if not isinstance(equation, str):
        equation, operands = _sublists(equation, operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum: at least one operand is required")
    for x in operands:
        if not isinstance(x, Tensor):
            raise TypeError(f"einsum: operands must be Tensors, got {type(x).__name__}")
        if x.dtype not in (dt.float16, dt.float32, dt.float64):
            raise TypeError(f"einsum: operands must be float16, float32 or float64, got "
                            f"{x.dtype}")
    return contract(equation, operands)


def einsum_ext(equation, *operands):
    """``ops.einsum_ext``: ``einsum`` with PyTorch's argument convention (the operands may
    also come as one list); MindSpore runs it on Ascend only, the computation is the same.

    >>> import tensorjit as ms
    >>> ms.ops.einsum_ext("ii", ms.Tensor([[1.0, 2.0], [3.0, 4.0]])).asnumpy().tolist()
    5.0
    """
    return einsum(equation, *operands)
