"""Function transforms over the primitives' rules: ``vmap`` (batching rules) and forward
mode with the Jacobians built on it (``jvp``, ``jacfwd``, ``jacrev``, ``hessian``,
``linearize``, ``derivative``)."""
from .axes import VmapError
from .vmap import vmap
from .jacobian import jvp, jacfwd, jacrev, hessian
from .derivatives import linearize, derivative

__all__ = ["VmapError", "vmap", "jvp", "jacfwd", "jacrev", "hessian", "linearize",
           "derivative"]
