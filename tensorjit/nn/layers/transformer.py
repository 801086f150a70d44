"""MultiheadAttention and the Transformer layers, with MindSpore's parameter names
(``in_proj_weight``, ``out_proj``, ``dense1`` / ``dense2``, ``norm1``..) and initialisation,
and PyTorch's / MindSpore's computation (post-norm by default, ``norm_first`` for
pre-norm; ReLU or GELU in the feed-forward block)."""
import copy
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Parameter
from ..cell import Cell
from ..container import CellList
from ..initializer import initializer, XavierUniform, XavierNormal, HeUniform, Uniform
from .. import _checks
from .activation import ReLU, GELU
from .basic import Dense, Dropout
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


class MultiheadAttention(Cell):
    """Attention from ``num_heads`` heads of size ``embed_dim / num_heads``:
    ``construct(query, key, value, key_padding_mask=None, need_weights=True,
    attn_mask=None, average_attn_weights=True)`` returns ``(output, weights)``, or
    ``(output,)`` when ``need_weights`` is False (as MindSpore)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=dt.float32):
        super().__init__()
        name = "MultiheadAttention"
        self.embed_dim = _checks.positive_int(embed_dim, "embed_dim", name)
        self.num_heads = _checks.positive_int(num_heads, "num_heads", name)
        if self.embed_dim % self.num_heads:
            raise ValueError(f"{name}: embed_dim ({embed_dim}) must be divisible by num_heads "
                             f"({num_heads})")
        self.head_dim = self.embed_dim // self.num_heads
        self.kdim = self.embed_dim if kdim is None else _checks.positive_int(kdim, "kdim", name)
        self.vdim = self.embed_dim if vdim is None else _checks.positive_int(vdim, "vdim", name)
        self._qkv_same_embed_dim = self.kdim == self.embed_dim and self.vdim == self.embed_dim
        self.dropout = _checks.number(dropout, "dropout", name, 0.0, 1.0)
        self.batch_first = _checks.boolean(batch_first, "batch_first", name)
        self.add_zero_attn = _checks.boolean(add_zero_attn, "add_zero_attn", name)
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * e, e), dtype),
                                            name="in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.in_proj_weight = None
            for key, width in (("q", e), ("k", self.kdim), ("v", self.vdim)):
                setattr(self, f"{key}_proj_weight", Parameter(
                    initializer(XavierUniform(), (e, width), dtype), name=f"{key}_proj_weight"))
        self.in_proj_bias = Parameter(initializer("zeros", (3 * e,), dtype),
                                      name="in_proj_bias") if has_bias else None
        self.out_proj = Dense(e, e, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(e)), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, e), dtype), name="bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, e), dtype), name="bias_v")
        else:
            self.bias_k = self.bias_v = None

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        batched = query.ndim == 3
        if not batched:
            query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = ops.expand_dims(key_padding_mask, 0)
        elif self.batch_first:
            query, key, value = (ops.swapaxes(t, 0, 1) for t in (query, key, value))
        if query.ndim != 3 or query.shape[-1] != self.embed_dim:
            raise ValueError(f"MultiheadAttention: expected a query with embedding size "
                             f"{self.embed_dim}, got shape {tuple(query.shape)}")
        out, weights = ops.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights,
            need_weights=need_weights)
        if not batched:
            out = ops.squeeze(out, 1)
            weights = None if weights is None else ops.squeeze(weights, 0)
        elif self.batch_first:
            out = ops.swapaxes(out, 0, 1)
        return (out, weights) if need_weights else (out,)


def _activation(activation, layer):
    if isinstance(activation, str):
        choices = {"relu": ops.relu, "gelu": ops.gelu}
        if activation not in choices:
            raise ValueError(f"{layer}: activation must be 'relu' or 'gelu', got {activation!r}")
        return choices[activation]
    if isinstance(activation, (ReLU, GELU)) or activation in (ops.relu, ops.gelu):
        return activation
    if isinstance(activation, Cell) or not callable(activation):
        raise ValueError(f"{layer}: activation must be 'relu', 'gelu', nn.ReLU, nn.GELU, "
                         f"ops.relu or ops.gelu, got {activation!r}")
    return activation


def _feed_forward(d_model, dim_feedforward, dtype):
    """dense1 / dense2 with MindSpore's init (HeUniform(sqrt 5) weights, U(1/sqrt fan_in)
    biases)."""
    dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                   bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
    dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                   bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
    return dense1, dense2


class TransformerEncoderLayer(Cell):
    """Self-attention then a feed-forward block, each with a residual connection and layer
    norm (after the residual, or before the block with ``norm_first``)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=dt.float32):
        super().__init__()
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.norm_first, self.dtype = batch_first, norm_first, dtype
        self.activation1 = activation
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        self.dense1, self.dense2 = _feed_forward(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.activation = _activation(activation, "TransformerEncoderLayer")

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x))


class TransformerDecoderLayer(Cell):
    """Self-attention, attention over the encoder's ``memory``, then a feed-forward block,
    each with a residual connection and layer norm."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=dt.float32):
        super().__init__()
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.norm_first, self.dtype = batch_first, norm_first, dtype
        self.activation1 = activation
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, dtype=dtype)
        self.dense1, self.dense2 = _feed_forward(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        self.activation = _activation(activation, "TransformerDecoderLayer")

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x))


def _clones(layer, num_layers, layer_type):
    """``num_layers`` independent copies of a fresh layer with ``layer``'s configuration
    (MindSpore builds a new layer rather than copying the given one's weights)."""
    fresh = layer_type(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num,
                       layer.activation1, layer.layernorm_eps, layer.batch_first,
                       layer.norm_first, dtype=layer.dtype)
    return CellList([copy.deepcopy(fresh) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """``num_layers`` encoder layers (copies of ``encoder_layer``'s configuration), then
    ``norm`` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.num_layers = _checks.positive_int(num_layers, "num_layers", "TransformerEncoder")
        self.layers = _clones(encoder_layer, self.num_layers, TransformerEncoderLayer)
        self.norm = norm

    def construct(self, src, mask=None, src_key_padding_mask=None):
        output = src
        for layer in self.layers:
            output = layer(output, mask, src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Cell):
    """``num_layers`` decoder layers (copies of ``decoder_layer``'s configuration), then
    ``norm`` if given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.num_layers = _checks.positive_int(num_layers, "num_layers", "TransformerDecoder")
        self.layers = _clones(decoder_layer, self.num_layers, TransformerDecoderLayer)
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                           memory_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class Transformer(Cell):
    """Encoder-decoder Transformer; weights of rank > 1 are re-initialised Xavier-uniform,
    as in MindSpore and PyTorch."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=dt.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, layer_norm_eps, batch_first,
                                            norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(
                (d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, layer_norm_eps, batch_first,
                                            norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(
                (d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                            memory_key_padding_mask)
