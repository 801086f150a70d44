"""What the table must cover: every registered primitive and every public op of
``tensorjit.ops``, and which primitives running an entry actually binds."""
import contextlib

import tensorjit as tj
from tensorjit.ir.graph import Node
from tensorjit.ops import Primitive
from tensorjit.ops.python_values import PYTHON_VALUE_HELPERS

from .run import quiet

# Names in ``tensorjit.ops`` that are not tensor operations
NOT_OPS = {
    "Primitive": "the registry's class", "ShapedArray": "abstract values",
    "Tensor": "the tensor class", "as_tensor": "argument conversion (coerce.py)",
    "constant": "argument conversion (coerce.py)", "binary": "the family's primitive factory",
    "unary": "the family's primitive factory", "same_aval": "a shape rule",
    "broadcast_shapes": "a shape computation on tuples", "set_seed": "seeds the generator",
    "kernel": "a decorator marking hybrid-DSL functions for ops.Custom (table_custom.py)",
    "ms_kernel": "kernel's deprecated name", "custom_info_register": "a decorator binding "
    "registration information to an ops.Custom function",
}

# function transforms (ops.grad, ops.vmap, ...: tests/core/test_ops_transforms.py) and
# helpers on Python values (ops.scalar_add, ops.tuple_len, ...: tests/core/
# test_python_value_ops.py) compute no tensor for a reference to compare
TRANSFORMS = ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "linearize",
              "derivative", "partial")
NOT_OPS.update({name: "a function transform" for name in TRANSFORMS})
NOT_OPS.update({name: "a helper on Python values" for name in PYTHON_VALUE_HELPERS})
# they build a sparse tensor from its parts or return a part: nothing is computed, and a
# sparse result is no array to compare (tests/core/test_sparse.py checks them)
NOT_OPS.update({name: "builds or takes apart a sparse tensor" for name in (
    "make_coo_tensor make_csr_tensor make_sparse_tensor make_row_tensor make_row_tensor_inner "
    "coo_tensor_get_indices coo_tensor_get_values coo_tensor_get_dense_shape "
    "csr_tensor_get_indptr csr_tensor_get_indices csr_tensor_get_values "
    "csr_tensor_get_dense_shape row_tensor_get_indices row_tensor_get_values "
    "row_tensor_get_dense_shape").split()})

HOW_TO_ADD = ("add an entry for each: op(name, ref=<NumPy formula>, dtypes=..., "
              "samples=<a generator from tests/opinfo/samples.py>) in the family's "
              "tests/opinfo/table_<family>.py (docs/architecture.md, 'How to add an op')")


def public_ops():
    """name -> function for every public callable of ``tensorjit.ops`` that is an op."""
    out = {}
    for name in dir(tj.ops):
        value = getattr(tj.ops, name)
        if name.startswith("_") or name in NOT_OPS or not callable(value) \
                or isinstance(value, type) or type(value).__name__ == "module":
            continue
        out[name] = value
    return out


def covered_ops(table):
    """Public op names the table covers: entry names and their declared aliases."""
    names = set()
    for entry in table.values():
        names.add(entry.name)
        names.update(entry.aliases)
    return names


def covered_primitives(table):
    return {p for entry in table.values() for p in entry.prims}


@contextlib.contextmanager
def recording_binds():
    """The names of the primitives bound, or put into a graph by a capture (guards,
    assignments), inside the block."""
    seen = set()
    bind, make_node = Primitive.bind, Node.__init__

    def recording_bind(self, *args, **params):
        seen.add(self.name)
        return bind(self, *args, **params)

    def recording_node(self, prim, *args, **kwargs):
        seen.add(prim.name)
        make_node(self, prim, *args, **kwargs)
    Primitive.bind, Node.__init__ = recording_bind, recording_node
    try:
        yield seen
    finally:
        Primitive.bind, Node.__init__ = bind, make_node


def bound_primitives(entry, samples):
    """The primitives that running ``entry`` on ``samples`` binds (forward and gradient).
    Jitted functions are compiled afresh, so their captures run."""
    from tensorjit.jit.cache import CACHE
    CACHE.clear()
    from .grads import analytic, cotangents, diff_positions
    with recording_binds() as seen, quiet():
        for sample in samples:
            try:
                entry.op(*sample.tensors(), **sample.kwargs)
                if diff_positions(entry, sample):
                    analytic(entry, sample, cotangents(entry, sample, entry.rng("cover")))
            except Exception:
                pass
    return seen
