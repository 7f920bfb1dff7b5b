# case: t28u-08-clean
# modelled-on: earthai-tech/gofast https://github.com/earthai-tech/gofast/commit/72c8951fc217d323cdc93ff684ab1d5b957e94fd
# label: correct
# class: clean
# pattern: Keras layers of a Temporal Fusion Transformer forecaster: the variable selection network runs one gated residual network per input variable, stacks their outputs on axis -2 to (B, T, N, units), maps each to one importance logit with Dense(1), (B, T, N, 1), and normalises with Softmax(axis=-2) before a weighted reduce_sum over axis -2; the temporal attention layer builds keras MultiHeadAttention(num_heads, key_dim=units) and attends with a context-enriched query over the inputs
# why: correct: after Dense(1) the last axis has length 1, so the variables sit on axis -2 and Softmax(axis=-2) normalises the importances over the variables (axis=-1 would give all ones); the weighted sum reduces that same axis; Keras' key_dim is the size of each head by definition and the layer scales by 1/sqrt(key_dim) itself, so a per-head width equal to the model width adds no wrong scale
# looks-like: ATT001, ATT004
# source: https://github.com/earthai-tech/gofast https://github.com/earthai-tech/gofast/commit/72c8951fc217d323cdc93ff684ab1d5b957e94fd gofast/nn/components.py
import tensorflow as tf
from tensorflow.keras.layers import BatchNormalization, Dense, Dropout, Layer, LayerNormalization, MultiHeadAttention, Softmax


class GatedResidualNetwork(Layer):
    def __init__(self, units, dropout_rate=0.0, activation="elu", use_batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.linear = Dense(units, activation=activation)
        self.linear2 = Dense(units, activation=activation)
        self.batch_norm = BatchNormalization() if use_batch_norm else None
        self.dropout = Dropout(dropout_rate)
        self.layer_norm = LayerNormalization()
        self.gate = Dense(units, activation="sigmoid")
        self.projection = None

    def build(self, input_shape):
        if input_shape[-1] != self.units:
            self.projection = Dense(self.units)
        super().build(input_shape)

    def call(self, x, training=False):
        shortcut = self.projection(x) if self.projection is not None else x
        h = self.linear(x)
        if self.batch_norm is not None:
            h = self.batch_norm(h, training=training)
        h = self.dropout(self.linear2(h), training=training)
        return self.layer_norm(shortcut + h * self.gate(h))


class VariableSelectionNetwork(Layer):
    """Weights N input variables by learned importances and sums them."""

    def __init__(self, num_inputs, units, dropout_rate=0.0, use_time_distributed=False, **kwargs):
        super().__init__(**kwargs)
        self.num_inputs = num_inputs
        self.use_time_distributed = use_time_distributed
        self.single_variable_grns = [GatedResidualNetwork(units, dropout_rate) for _ in range(num_inputs)]
        self.variable_importance_dense = Dense(1, name="variable_importance")
        self.softmax = Softmax(axis=-2)

    def call(self, inputs, training=False):
        var_outputs = []
        if self.use_time_distributed:
            if inputs.shape.rank == 3:
                inputs = tf.expand_dims(inputs, axis=-1)  # (B, T, N) -> (B, T, N, 1)
            for i in range(self.num_inputs):
                var_outputs.append(self.single_variable_grns[i](inputs[:, :, i, :], training=training))
        else:
            if inputs.shape.rank == 2:
                inputs = tf.expand_dims(inputs, axis=-1)  # (B, N) -> (B, N, 1)
            for i in range(self.num_inputs):
                var_outputs.append(self.single_variable_grns[i](inputs[:, i, :], training=training))

        stacked_outputs = tf.stack(var_outputs, axis=-2)  # (B, [T,] N, units)
        self.variable_importances_ = self.variable_importance_dense(stacked_outputs)  # (B, [T,] N, 1)
        weights = self.softmax(self.variable_importances_)  # normalised over the N variables
        return tf.reduce_sum(stacked_outputs * weights, axis=-2)  # (B, [T,] units)


class TemporalAttentionLayer(Layer):
    def __init__(self, units, num_heads, dropout_rate=0.0, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.num_heads = num_heads
        self.multi_head_attention = MultiHeadAttention(num_heads=num_heads, key_dim=units, dropout=dropout_rate)
        self.dropout = Dropout(dropout_rate)
        self.layer_norm = LayerNormalization()
        self.grn = GatedResidualNetwork(units, dropout_rate)
        self.context_grn = GatedResidualNetwork(units, dropout_rate)

    def call(self, inputs, context_vector, training=False):
        # inputs: (B, T, units); context_vector: (B, units)
        context = self.context_grn(context_vector, training=training)
        context = tf.tile(tf.expand_dims(context, axis=1), [1, tf.shape(inputs)[1], 1])
        query = inputs + context
        attn_output = self.multi_head_attention(query=query, value=inputs, key=inputs, training=training)
        x = self.layer_norm(inputs + self.dropout(attn_output, training=training))
        return self.grn(x, training=training)
