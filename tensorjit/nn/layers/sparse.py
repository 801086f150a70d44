"""MindSpore's sparse layers: ``nn.SparseToDense`` (a COOTensor's dense tensor) and
``nn.SparseTensorDenseMatmul`` (a sparse matrix, as indices / values / shape, times a
dense one), each calling its operator class."""
from ... import ops
from ..cell import Cell


class SparseToDense(Cell):
    """``nn.SparseToDense()(sparse_tensor)``: the dense tensor of a COOTensor (MindSpore
    deprecates it for ``COOTensor.to_dense()``)."""

    def __init__(self):
        super().__init__()
        self.sparse_to_dense = ops.SparseToDense()

    def construct(self, sparse_tensor):
        return self.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values,
                                    sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``nn.SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)``: the sparse matrix (transposed with ``adjoint_st``) times
    ``dense`` (transposed with ``adjoint_dt``)."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        for name, value in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', the type of '{name}' should "
                                f"be 'bool', but got type '{type(value).__name__}'.")
        self.adj_st, self.adj_dt = adjoint_st, adjoint_dt
        self.sparse_dense_matmul = ops.SparseTensorDenseMatmul(adjoint_st=adjoint_st,
                                                               adjoint_dt=adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return self.sparse_dense_matmul(indices, values, sparse_shape, dense)
