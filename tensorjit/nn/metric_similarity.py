"""``nn.CosineSimilarity``: MindSpore's similarity-matrix metric (a ``Metric``, computed on
the host with NumPy like the other metrics, not a Cell)."""
import numpy as np

from .metric_base import Metric

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Metric):
    """The similarity matrix of the rows of the last input: ``update(x)`` with ``x`` of
    shape (N, D) (a Tensor, array or list), ``eval()`` the (N, N) matrix of cosines
    (``similarity='cosine'``) or dot products (``'dot'``), its diagonal set to 0 when
    ``zero_diagonal``, then averaged or summed over the last axis for ``reduction``
    'mean' / 'sum' (an (N,) vector) or kept ('none').

    >>> import numpy as np
    >>> from tensorjit import nn
    >>> metric = nn.CosineSimilarity()
    >>> metric.update(np.array([[1.0, 0.0], [1.0, 1.0]]))
    >>> metric.eval().round(4).tolist()
    [[0.0, 0.7071], [0.7071, 0.0]]
    """

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        for name, value, choices in (("similarity", similarity, ("dot", "cosine")),
                                     ("reduction", reduction, ("none", "sum", "mean"))):
            if not isinstance(value, str):
                raise TypeError(f"CosineSimilarity: '{name}' must be a str, got "
                                f"{type(value).__name__}")
            if value not in choices:
                raise ValueError(f"CosineSimilarity: '{name}' must be one of {choices}, got "
                                 f"{value!r}")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"CosineSimilarity: 'zero_diagonal' must be a bool, got "
                            f"{type(zero_diagonal).__name__}")
        self.similarity, self.reduction = similarity, reduction
        self.zero_diagonal = zero_diagonal
        super().__init__()

    def clear(self):
        """Forget the last update."""
        self._matrix = None

    def update(self, *inputs):
        """Compute the similarity matrix of ``inputs[-1]``'s rows (earlier inputs, such as
        labels an evaluation network also returns, are ignored)."""
        if not inputs:
            raise ValueError("CosineSimilarity.update needs an input")
        x = np.asarray(self._convert_data(inputs[-1]), np.float64)
        if x.ndim != 2:
            raise ValueError(f"CosineSimilarity.update: the input must be (N, D), got shape "
                             f"{x.shape}")
        if self.similarity == "cosine":
            x = x / np.linalg.norm(x, axis=1, keepdims=True)
        self._matrix = x @ x.T

    def eval(self):
        """The similarity matrix (or its rows' mean / sum); RuntimeError before ``update``."""
        if self._matrix is None:
            raise RuntimeError("CosineSimilarity: call 'update' before 'eval'")
        out = self._matrix.copy()
        if self.zero_diagonal:
            np.fill_diagonal(out, 0)
        if self.reduction == "mean":
            return out.mean(-1)
        if self.reduction == "sum":
            return out.sum(-1)
        return out
