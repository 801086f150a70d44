"""Function transforms over the primitives' rules: ``vmap`` (batching rules) and forward
mode with the Jacobians built on it (``jvp``, ``jacfwd``, ``jacrev``, ``hessian``)."""
from .axes import VmapError
from .vmap import vmap
from .jacobian import jvp, jacfwd, jacrev, hessian

__all__ = ["VmapError", "vmap", "jvp", "jacfwd", "jacrev", "hessian"]
