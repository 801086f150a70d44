"""Multi-head attention (``nn.MultiheadAttention`` and the Transformer layers), composed
from matmul, softmax and where, so it differentiates and compiles like any other op.

Layout: sequence first, ``(L, N, E)`` queries and ``(S, N, E)`` keys / values (the layers
transpose batch-first inputs). Masks follow PyTorch and MindSpore: a bool mask is True
where attention is *not* allowed; a float mask is added to the scores.
"""
import math

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import linalg as _linalg
from . import shape as _shape
from . import reduction as _red
from .normalization import softmax
from .random import dropout as _dropout


def _project(x, weight, bias):
    return _linalg.dense(x, weight, bias)


def _as_additive(mask, dtype, op):
    """A mask as something to add to the scores (-inf where a bool mask is True)."""
    mask = coerce.as_tensor(mask, op=op)
    if mask.dtype == dt.bool_:
        return _ew.where(mask, coerce.constant(float("-inf"), dtype),
                         coerce.constant(0.0, dtype))
    return _ew.cast(mask, dtype)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None,
                                 average_attn_weights=True, need_weights=True):
    """Attention of (L, N, E) ``query`` over (S, N, kdim / vdim) ``key`` / ``value``:
    returns ``(output (L, N, E), weights (N, L, S) or (N, heads, L, S))``."""
    q, k, v = (coerce.as_tensor(t, op="multi_head_attention") for t in (query, key, value))
    for t in (q, k, v):
        if not dt.is_float(t.dtype):     # the scores' softmax is defined on floats
            raise TypeError(f"multi_head_attention: expected floating-point query, key and "
                            f"value, got {t.dtype}")
    length, batch, embed = q.shape
    if embed != embed_dim_to_check:
        raise ValueError(f"multi_head_attention: query has embedding size {embed}, expected "
                         f"{embed_dim_to_check}")
    head_dim = embed // num_heads
    if head_dim * num_heads != embed:
        raise ValueError(f"multi_head_attention: embed_dim {embed} is not divisible by "
                         f"num_heads {num_heads}")
    if use_separate_proj_weight:
        weights = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        weights = _shape.split(in_proj_weight, embed, 0)
    biases = (None,) * 3 if in_proj_bias is None else _shape.split(in_proj_bias, embed, 0)
    q, k, v = (_project(t, w, b) for t, w, b in zip((q, k, v), weights, biases))
    if attn_mask is not None:
        attn_mask = _as_additive(attn_mask, q.dtype, "multi_head_attention")
        if attn_mask.ndim == 2:
            attn_mask = _shape.expand_dims(attn_mask, 0)              # (1, L, S)
    if key_padding_mask is not None:
        key_padding_mask = _as_additive(key_padding_mask, q.dtype, "multi_head_attention")
    if bias_k is not None:
        k = _shape.concat([k, _shape.broadcast_to(bias_k, (1, batch, embed))], 0)
        v = _shape.concat([v, _shape.broadcast_to(bias_v, (1, batch, embed))], 0)
        attn_mask = None if attn_mask is None else _shape.pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _shape.pad(key_padding_mask,
                                                                            (0, 1))

    def heads(t):                      # (T, N, E) -> (N * heads, T, head_dim)
        return _shape.swapaxes(_shape.reshape(t, (t.shape[0], batch * num_heads, head_dim)),
                               0, 1)

    q, k, v = heads(q), heads(k), heads(v)
    if add_zero_attn:
        zeros = coerce.constant(0.0, q.dtype)
        k = _shape.concat([k, _shape.broadcast_to(zeros, (k.shape[0], 1, head_dim))], 1)
        v = _shape.concat([v, _shape.broadcast_to(zeros, (v.shape[0], 1, head_dim))], 1)
        attn_mask = None if attn_mask is None else _shape.pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _shape.pad(key_padding_mask,
                                                                            (0, 1))
    source = k.shape[1]
    scores = _linalg.matmul(_ew.mul(q, 1.0 / math.sqrt(head_dim)), _shape.swapaxes(k, 1, 2))
    if attn_mask is not None:
        scores = _ew.add(scores, attn_mask)
    if key_padding_mask is not None:
        per_batch = _shape.reshape(scores, (batch, num_heads, length, source))
        padding = _shape.reshape(key_padding_mask, (batch, 1, 1, source))
        scores = _shape.reshape(_ew.add(per_batch, padding), (batch * num_heads, length, source))
    weights = softmax(scores, -1)
    attended = weights if not (training and dropout_p > 0) else _dropout(weights, dropout_p)
    out = _linalg.matmul(attended, v)                                 # (N * heads, L, D)
    out = _shape.reshape(_shape.swapaxes(out, 0, 1), (length, batch, embed))
    out = _project(out, out_proj_weight, out_proj_bias)
    if not need_weights:
        return out, None
    weights = _shape.reshape(weights, (batch, num_heads, length, source))
    if average_attn_weights:
        weights = _red.mean(weights, 1)
    return out, weights
