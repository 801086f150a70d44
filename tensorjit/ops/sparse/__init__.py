"""MindSpore's sparse tensors (``COOTensor``, ``CSRTensor``, ``RowTensor``) and the
``ops`` functions on them, built on the dense ops of this package: ``tensors.py`` (the
classes, pytree nodes), ``elementwise.py`` (``coo_*`` / ``csr_*`` from one table),
``conversions.py`` (formats, make / get), ``csr_math.py`` and ``coo_math.py``
(arithmetic, the ``Sparse*`` operators' computations)."""
from .tensors import COOTensor, CSRTensor, RowTensor, RowTensorInner, SparseTensor  # noqa: F401
from .elementwise import *  # noqa: F401,F403  (coo_abs ... csr_tanh)
from .elementwise import FUNCTIONS as ELEMENTWISE, UNARY, ZERO_PRESERVING  # noqa: F401
from .conversions import *  # noqa: F401,F403
from .conversions import coo_coalesce, coo_to_dense, csr_to_dense  # noqa: F401
from .csr_math import *  # noqa: F401,F403
from .coo_math import *  # noqa: F401,F403
