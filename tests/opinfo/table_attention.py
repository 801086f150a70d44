"""Table entries: multi-head attention (``multi_head_attention_forward``, what
nn.MultiheadAttention and the Transformer layers run), against the attention formula
written out in NumPy and against PyTorch's function of the same name and signature."""
import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, FLOATS
from .samples import random

L, N, E, H, S = 3, 2, 4, 2, 5


def _additive(mask):
    return np.where(mask, -np.inf, 0.0) if mask.dtype == bool else mask


def _pad_last(mask):
    return None if mask is None else np.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])


def _mha_ref(q, k, v, embed, heads, in_w, in_b, bias_k, bias_v, add_zero_attn, dropout_p,
             out_w, out_b, training=True, key_padding_mask=None, attn_mask=None,
             separate=False, q_w=None, k_w=None, v_w=None, average=True):
    """softmax(q_h k_h^T / sqrt(d) + masks) v_h per head, projected in and out."""
    weights = (q_w, k_w, v_w) if separate else np.split(in_w, 3)
    biases = (0, 0, 0) if in_b is None else np.split(in_b, 3)
    q, k, v = (t @ w.T + b for t, w, b in zip((q, k, v), weights, biases))
    length, batch, _ = q.shape
    d = embed // heads
    attn = None if attn_mask is None else _additive(attn_mask)
    pad = None if key_padding_mask is None else _additive(key_padding_mask)
    if bias_k is not None:
        k = np.concatenate([k, np.broadcast_to(bias_k, (1, batch, embed))])
        v = np.concatenate([v, np.broadcast_to(bias_v, (1, batch, embed))])
        attn, pad = _pad_last(attn), _pad_last(pad)

    def split_heads(t):                    # (T, N, E) -> (N * heads, T, d)
        return t.reshape(t.shape[0], batch * heads, d).transpose(1, 0, 2)
    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    if add_zero_attn:
        k = np.concatenate([k, np.zeros((k.shape[0], 1, d))], 1)
        v = np.concatenate([v, np.zeros((v.shape[0], 1, d))], 1)
        attn, pad = _pad_last(attn), _pad_last(pad)
    scores = q / np.sqrt(d) @ k.transpose(0, 2, 1)
    if attn is not None:
        scores = scores + attn
    source = scores.shape[-1]
    if pad is not None:
        scores = (scores.reshape(batch, heads, length, source) + pad[:, None, None, :]).reshape(
            batch * heads, length, source)
    w = special.softmax(scores, -1)
    out = (w @ v).transpose(1, 0, 2).reshape(length, batch, embed) @ out_w.T
    out = out + (0 if out_b is None else out_b)
    w = w.reshape(batch, heads, length, source)
    return out, w.mean(1) if average else w


def _mha_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)

    def base(source=S, bias=True):
        return [r(L, N, E), r(source, N, E), r(source, N, E), E, H, r(3 * E, E),
                r(3 * E) if bias else None, None, None, False, 0.0, r(E, E),
                r(E) if bias else None]
    mask = rng.random((L, S)) < 0.3
    mask[:, 0] = False                   # every query attends to something
    padding = np.zeros((N, S), bool)
    padding[1, 3:] = True
    per_head = r(N * H, L, S)
    sep = base()
    sep[5] = None
    sep_args = sep + [False, None, None, True, r(E, E), r(E, E), r(E, E)]
    with_kv_bias = base()
    with_kv_bias[7:9] = [r(1, 1, E), r(1, 1, E)]
    return [Sample(*base(), label="self-attention shapes"),
            Sample(*base(), False, padding, mask, label="bool masks"),
            Sample(*base(bias=False), False, None, per_head, False, None, None, None, False,
                   label="float mask per head, no bias, weights per head"),
            Sample(*sep_args, label="separate projection weights"),
            Sample(*with_kv_bias, False, padding, label="bias_k, bias_v, padding"),
            Sample(*base()[:9], True, 0.0, *base()[11:], False, None, mask,
                   label="add_zero_attn, mask"),
            Sample(*base(source=1), label="one key")]


def _torch_mha(torch, q, k, v, embed, heads, in_w, in_b, bias_k, bias_v, add_zero_attn,
               dropout_p, out_w, out_b, training=True, key_padding_mask=None, attn_mask=None,
               separate=False, q_w=None, k_w=None, v_w=None, average=True):
    return torch.nn.functional.multi_head_attention_forward(
        q, k, v, embed, heads, in_w, in_b, bias_k, bias_v, add_zero_attn, dropout_p, out_w,
        out_b, training=training, key_padding_mask=key_padding_mask, attn_mask=attn_mask,
        use_separate_proj_weight=separate, q_proj_weight=q_w, k_proj_weight=k_w,
        v_proj_weight=v_w, average_attn_weights=average)


op("multi_head_attention_forward", prims=(), ref=_mha_ref, dtypes=FLOATS,
   samples=_mha_samples, result=lambda q, *rest: (q, q), torch=_torch_mha, ms=None,
   tol={dt.float16: (8e-3, 8e-3), dt.bfloat16: (6e-2, 6e-2), dt.float32: (1e-5, 1e-5)},
   notes={"layout": "sequence first: (L, N, E) queries, (S, N, E) keys and values; weights "
                    "(N, L, S), or (N, heads, L, S) when not averaged",
          "masks": "a bool mask is True where attention is not allowed; a float mask is "
                   "added to the scores (PyTorch, MindSpore)",
          "dropout": "dropout_p > 0 in training drops attention weights (a random op; the "
                     "table's samples use 0)"})
