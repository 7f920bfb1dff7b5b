# case: b31-03-clean
# modelled-on: anas-rz/keras-climate https://github.com/anas-rz/keras-climate/commit/f2331f52e6dea9d29da87cd653c048ae3039bb03
# label: correct
# class: clean
# pattern: a Temporal Fusion Transformer for multi-horizon weather/climate forecasting written with Keras 3 ops: variable-selection networks take a softmax over the input variables (axis=-1 of a (B, T, num_vars) tensor), an LSTM encoder-decoder processes the lookback and horizon, and an interpretable multi-head attention (per-head query/key Dense layers, one shared value projection, heads averaged) runs over the whole span with an additive causal mask built as ops.triu(ones * -1e9, k=1)[None]
# why: correct: each head's scores are q @ transpose(k, (0, 2, 1)) / sqrt(head_dim), the query-key product over the feature axis scaled by the head width; the causal mask adds -1e9 strictly above the diagonal (the future steps) and 0 elsewhere, the model runs in float32, and softmax(axis=-1) normalises over the keys; the variable-selection softmax is meant to be over the variables, its last axis
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/anas-rz/keras-climate https://github.com/anas-rz/keras-climate/commit/f2331f52e6dea9d29da87cd653c048ae3039bb03 forecasting/tft.py
"""
Temporal Fusion Transformer (Lim et al. 2021): LSTM encoder-decoder for local processing, gated residual
networks for variable selection and static enrichment, and interpretable multi-head attention over the
lookback + horizon span.
"""

import keras
from keras import layers, ops


class GatedResidualNetwork(layers.Layer):
    def __init__(self, units, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense1 = layers.Dense(units, activation="elu")
        self.dense2 = layers.Dense(units)
        self.gate = layers.Dense(units, activation="sigmoid")
        self.drop = layers.Dropout(dropout)
        self.norm = layers.LayerNormalization()
        self.skip = None

    def build(self, input_shape):
        if input_shape[-1] != self.units:
            self.skip = layers.Dense(self.units)

    def call(self, x, training=False):
        h = self.drop(self.dense2(self.dense1(x)), training=training)
        residual = x if self.skip is None else self.skip(x)
        return self.norm(residual + self.gate(h) * h)


class VariableSelectionNetwork(layers.Layer):
    """Per-timestep softmax weights over the input variables; returns the fused embedding and the weights."""

    def __init__(self, num_vars, hidden_dim, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.var_grns = [GatedResidualNetwork(hidden_dim, dropout, name=f"var_grn{i}") for i in range(num_vars)]
        self.flatten_grn = GatedResidualNetwork(num_vars, dropout, name="flatten_grn")

    def call(self, per_var_embeddings, training=False):
        flat = ops.concatenate(per_var_embeddings, axis=-1)  # (B, T, num_vars * hidden_dim)
        weights = self.flatten_grn(flat, training=training)  # (B, T, num_vars)
        weights = ops.softmax(weights, axis=-1)
        processed = [grn(v, training=training) for grn, v in zip(self.var_grns, per_var_embeddings)]
        stacked = ops.stack(processed, axis=-2)  # (B, T, num_vars, hidden_dim)
        fused = ops.sum(stacked * weights[..., None], axis=-2)
        return fused, weights


class InterpretableMultiHeadAttention(layers.Layer):
    """Shares the value projection across heads, as in the TFT paper."""

    def __init__(self, d_model, num_heads, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_layers = [layers.Dense(self.head_dim) for _ in range(num_heads)]
        self.k_layers = [layers.Dense(self.head_dim) for _ in range(num_heads)]
        self.v_layer = layers.Dense(self.head_dim)
        self.attn_drop = layers.Dropout(dropout)
        self.out_proj = layers.Dense(d_model)

    def call(self, x, mask=None, training=False):
        v = self.v_layer(x)
        head_outs = []
        for h in range(self.num_heads):
            q = self.q_layers[h](x)
            k = self.k_layers[h](x)
            scores = ops.matmul(q, ops.transpose(k, (0, 2, 1))) / (self.head_dim ** 0.5)
            if mask is not None:
                scores = scores + mask
            attn = ops.softmax(scores, axis=-1)
            attn = self.attn_drop(attn, training=training)
            head_outs.append(ops.matmul(attn, v))
        out = ops.mean(ops.stack(head_outs, axis=-1), axis=-1)
        return self.out_proj(out)


def causal_mask(seq_len):
    mask = ops.triu(ops.ones((seq_len, seq_len)) * -1e9, k=1)
    return mask[None, :, :]


def TemporalFusionTransformer(encoder_len=168, decoder_len=24, num_past_vars=6, num_future_vars=3,
                              hidden_dim=64, num_heads=4, dropout=0.1, quantiles=(0.1, 0.5, 0.9)):
    past_in = keras.Input((encoder_len, num_past_vars), name="past_inputs")
    future_in = keras.Input((decoder_len, num_future_vars), name="future_inputs")

    past_embeds = [
        layers.Dense(hidden_dim)(layers.Lambda(lambda t, idx=i: t[..., idx:idx + 1])(past_in))
        for i in range(num_past_vars)
    ]
    past_selected, _ = VariableSelectionNetwork(num_past_vars, hidden_dim, dropout, name="past_vsn")(past_embeds)
    future_embeds = [
        layers.Dense(hidden_dim)(layers.Lambda(lambda t, idx=i: t[..., idx:idx + 1])(future_in))
        for i in range(num_future_vars)
    ]
    future_selected, _ = VariableSelectionNetwork(num_future_vars, hidden_dim, dropout, name="future_vsn")(future_embeds)

    encoder_out, state_h, state_c = layers.LSTM(hidden_dim, return_sequences=True, return_state=True)(past_selected)
    decoder_out = layers.LSTM(hidden_dim, return_sequences=True)(future_selected, initial_state=[state_h, state_c])
    lstm_out = layers.Concatenate(axis=1)([encoder_out, decoder_out])
    lstm_in = layers.Concatenate(axis=1)([past_selected, future_selected])
    x = layers.LayerNormalization()(GatedResidualNetwork(hidden_dim, dropout)(lstm_out) + lstm_in)

    mask = causal_mask(encoder_len + decoder_len)
    attn_out = InterpretableMultiHeadAttention(hidden_dim, num_heads, dropout, name="attention")(x, mask=mask)
    x = layers.LayerNormalization()(layers.Dropout(dropout)(attn_out) + x)
    x = layers.LayerNormalization()(GatedResidualNetwork(hidden_dim, dropout)(x) + lstm_out)

    horizon = layers.Lambda(lambda t, L=encoder_len: t[:, L:, :])(x)
    outputs = layers.Dense(len(quantiles), name="quantile_head")(horizon)
    return keras.Model([past_in, future_in], outputs, name="tft")
