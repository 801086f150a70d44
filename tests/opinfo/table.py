"""The op table: every family's entries, in one dict (``TABLE``: name -> OpInfo).

A new op is one ``op(...)`` declaration in the family module it belongs to (or a new
``table_<family>.py`` imported here); see docs/architecture.md, "How to add an op"."""
from .core import TABLE  # noqa: F401
from . import (table_unary, table_binary, table_reduction, table_shape,  # noqa: F401
               table_indexing, table_creation, table_nn, table_loss, table_cumulative,
               table_graph, table_runtime, table_sorting, table_activation, table_conv,
               table_compat, table_loops, table_attention, table_mindspore)
from . import table_pooling  # noqa: F401,E402
from . import table_resize  # noqa: F401,E402
from . import table_loss_extra, table_matrix_inverse  # noqa: F401,E402
from . import table_scatter  # noqa: F401,E402
from . import table_arrays  # noqa: F401,E402
from . import table_windows, table_random_extra, table_inplace  # noqa: F401,E402
from . import table_linalg_extra, table_linalg_products, table_linalg_solve  # noqa: F401,E402
from . import table_custom  # noqa: F401,E402
from . import table_math_extra  # noqa: F401,E402
from . import table_nn_extra  # noqa: F401,E402
from . import table_nn_layers  # noqa: F401,E402
from . import table_detection  # noqa: F401,E402
from . import table_sparse  # noqa: F401,E402  (after the dense entries it derives from)
