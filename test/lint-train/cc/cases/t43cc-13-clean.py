# case: t43cc-13-clean
# modelled-on: tkostas/tft-transformer-keras https://github.com/tkostas/tft-transformer-keras/commit/5330fc41daebc565203159d1d931008e0ba8ad4d
# label: correct
# class: clean
# pattern: the self-attention block of a Keras Temporal Fusion Transformer: enriched temporal features go to `tf.keras.layers.MultiHeadAttention` with `attention_mask=mask` and `use_causal_mask=True`, where `mask = tf.cumsum(tf.eye(len_s, batch_shape=bs), axis=1)` is built by a static method; the averaged attention scores are returned for interpretation; variable-selection weights elsewhere in the file are `Activation('softmax')` over the feature axis
# why: correct: `tf.eye(len_s, batch_shape=bs)` is (B, T, T), so axis 1 is the query axis and the cumulative sum down it makes entry (i, j) equal to 1 exactly when j <= i: a lower-triangular keep mask (the past and the query itself), which is what Keras' `attention_mask` expects (1 = attend); Keras combines it with its own causal mask from `use_causal_mask=True`, and the two agree, so the result is the causal mask; the variable-selection softmax normalises over features, which is its purpose
# looks-like: ATT001, ATT002, ATT008
# source: https://github.com/tkostas/tft-transformer-keras https://github.com/tkostas/tft-transformer-keras/commit/5330fc41daebc565203159d1d931008e0ba8ad4d src/model.py
import tensorflow as tf


class GatedLinearUnit(tf.keras.layers.Layer):
    def __init__(self, d_model, dropout_rate=0.1):
        super().__init__()
        self.dropout = tf.keras.layers.Dropout(dropout_rate)
        self.value = tf.keras.layers.Dense(d_model)
        self.gate = tf.keras.layers.Dense(d_model, activation='sigmoid')

    def call(self, x):
        x = self.dropout(x)
        return self.value(x) * self.gate(x)


class FeatureSelection(tf.keras.layers.Layer):
    def __init__(self, n_features, d_model):
        super().__init__()
        self.score = tf.keras.layers.Dense(n_features)
        self.embed = [tf.keras.layers.Dense(d_model) for _ in range(n_features)]

    def call(self, inputs):
        # inputs: batch, time, n_features
        weights = tf.keras.layers.Activation('softmax')(self.score(inputs))
        weights = tf.expand_dims(weights, axis=2)
        embedded = tf.stack([layer(inputs[..., i:i + 1]) for i, layer in enumerate(self.embed)], axis=-1)
        return tf.reduce_sum(weights * embedded, axis=-1), weights


class TemporalSelfAttention(tf.keras.layers.Layer):
    def __init__(self, *, d_model, ts_len, num_heads=4, dropout_rate=0.1):
        super().__init__()
        self.pre_norm = tf.keras.layers.LayerNormalization()
        self.enrich = tf.keras.layers.Dense(d_model, activation='elu')
        self.attn_layer = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=ts_len, dropout=dropout_rate)
        self.glu = GatedLinearUnit(d_model=d_model, dropout_rate=dropout_rate)

    def call(self, inputs, static_context=None):
        inputs = self.pre_norm(inputs)
        if static_context is not None:
            inputs = inputs + tf.expand_dims(static_context, axis=1)
        enriched = self.enrich(inputs)
        # enriched: batch, ts_len, d_model

        mask = self._decoder_mask(enriched)
        # mask: batch, ts_len, ts_len
        x, scores = self.attn_layer(query=enriched,
                                    value=enriched,
                                    key=enriched,
                                    attention_mask=mask,
                                    return_attention_scores=True,
                                    use_causal_mask=True)
        attn_weights = tf.reduce_mean(scores, axis=1)
        x = tf.keras.layers.Add()([self.glu(x), enriched])
        return x, attn_weights

    @staticmethod
    def _decoder_mask(x):
        """Causal mask for the self-attention layer."""
        len_s = tf.shape(input=x)[1]
        bs = tf.shape(input=x)[:1]
        return tf.cumsum(tf.eye(len_s, batch_shape=bs), axis=1)
