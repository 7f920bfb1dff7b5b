# case: b6-31-clean
# modelled-on: krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b
# label: correct
# class: clean
# pattern: a TensorFlow re-implementation of AlphaFold's structure-module attention, reduced to its scalar and pair-bias terms: queries and keys reshaped to (B, L, H, C), scores by einsum('bihd,bjhd->bijh') divided by sqrt(C) so the heads are the LAST axis, a per-head bias projected from the pair representation, a 0/1 residue mask turned into an additive (1 - mask) * -1e9 term, tf.nn.softmax over axis=2 (j, the keys), and the output by einsum('bijh,bjhd->bihd')
# why: correct: with scores laid out (B, i, j, H) the keys are axis 2, so softmax(axis=2) normalises each query's weights over the keys per head (the code comments say so), and the output einsum contracts the same j; the additive mask is 0 for real residues and -1e9 for masked ones, safe in float32
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b alphafold/layers.py
import tensorflow as tf
from tensorflow.keras import layers


class PairBiasedAttention(layers.Layer):
    def __init__(self, c_in, c_hidden, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.c_hidden = c_hidden
        self.num_heads = num_heads
        self.layer_norm = layers.LayerNormalization()
        self.q_proj = layers.Dense(num_heads * c_hidden, use_bias=False)
        self.k_proj = layers.Dense(num_heads * c_hidden, use_bias=False)
        self.v_proj = layers.Dense(num_heads * c_hidden, use_bias=False)
        self.attention_bias_proj = layers.Dense(num_heads, use_bias=False)
        self.out_proj = layers.Dense(c_in)

    def call(self, single, pair, residue_mask=None):
        # single: (B, L, C_in); pair: (B, L, L, C_pair); residue_mask: (B, L, L), 1 = both residues present
        B, L = tf.shape(single)[0], tf.shape(single)[1]
        x = self.layer_norm(single)
        q = tf.reshape(self.q_proj(x), [B, L, self.num_heads, self.c_hidden])
        k = tf.reshape(self.k_proj(x), [B, L, self.num_heads, self.c_hidden])
        v = tf.reshape(self.v_proj(x), [B, L, self.num_heads, self.c_hidden])

        scores = tf.einsum("bihd,bjhd->bijh", q, k) / tf.math.sqrt(tf.cast(self.c_hidden, tf.float32))  # (B, L, L, H)
        scores = scores + self.attention_bias_proj(pair)  # (B, L, L, H)
        if residue_mask is not None:
            mask_expanded = tf.expand_dims(tf.cast(residue_mask, tf.float32), axis=-1)  # (B, L, L, 1)
            scores = scores + (1.0 - mask_expanded) * -1e9
        attention_weights = tf.nn.softmax(scores, axis=2)  # attention over keys (axis=2 for j)
        out = tf.einsum("bijh,bjhd->bihd", attention_weights, v)  # (B, L, H, C)
        return self.out_proj(tf.reshape(out, [B, L, self.num_heads * self.c_hidden]))
