# case: t21n-06-softmax
# modelled-on: uzaymacar/attention-mechanisms https://github.com/uzaymacar/attention-mechanisms/commit/ca3f9353440bf701cde04f004bb97ec63850b199
# label: buggy
# class: real-bug
# pattern: a Keras collection of Luong/Bahdanau attention layers for RNN encoders: the decoder state h_t is expanded to (B, 1, H), scores against the source states are Dot(axes=[2, 2]) (optionally times 1/sqrt(H)), a Dense W_a before the dot, or a concat score v_a(tanh(W_a h_s + U_a h_t)); every score has the shape (B, S*, 1) the comments give, and the weights are Activation('softmax')(attention_score) with the comment (B, S*, 1); the context is source_states * weights; a structured self-attention layer in the same module computes (B, num_hops, S) scores and softmaxes them with the same Activation
# why: buggy: Keras's Activation('softmax') normalises the last axis, which for (B, S*, 1) scores has length 1, so every attention weight is exactly 1 and the context vector is the unweighted source states whatever the scores are; the weights were meant to be over the S* source positions (the axis the comments name and the earlier 2-D (B, S*) version normalised). The self-attention layer's (B, num_hops, S) softmax is over the sequence and correct. No fix exists
# source: https://github.com/uzaymacar/attention-mechanisms https://github.com/uzaymacar/attention-mechanisms/commit/ca3f9353440bf701cde04f004bb97ec63850b199 layers.py
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Activation, Dense, Dot, Flatten, Lambda, Layer, Permute


class Attention(Layer):
    def __init__(self, context="many-to-one", alignment_type="global", window_width=None,
                 score_function="general", model_api="functional", **kwargs):
        if score_function not in ["dot", "general", "concat", "scaled_dot"]:
            raise ValueError("unknown score function")
        super(Attention, self).__init__(**kwargs)
        self.context = context
        self.alignment_type = alignment_type
        self.window_width = window_width
        self.score_function = score_function
        self.model_api = model_api

    def build(self, input_shape):
        self.input_sequence_length, self.hidden_dim = input_shape[0][1], input_shape[0][2]
        if "dot" not in self.score_function:
            self.W_a = Dense(units=self.hidden_dim, use_bias=False)
            self.W_a.build(input_shape=(None, None, self.hidden_dim))
            self._trainable_weights += self.W_a.trainable_weights
        if self.score_function == "concat":
            self.U_a = Dense(units=self.hidden_dim, use_bias=False)
            self.U_a.build(input_shape=(None, None, self.hidden_dim))
            self._trainable_weights += self.U_a.trainable_weights
            self.v_a = Dense(units=1, use_bias=False)
            self.v_a.build(input_shape=(None, None, self.hidden_dim))
            self._trainable_weights += self.v_a.trainable_weights
        super(Attention, self).build(input_shape)

    def call(self, inputs):
        source_states = inputs[0]                                        # (B, S, H)
        target_state = tf.expand_dims(inputs[1], axis=1)                 # (B, 1, H)

        if self.alignment_type == "local-m":
            width = 8 if self.window_width is None else self.window_width
            position = self.input_sequence_length if self.context == "many-to-one" else inputs[2]
            left = int(max(position - width, 0))
            right = int(min(position + width, self.input_sequence_length))
            source_states = Lambda(lambda x: x[:, left:right, :])(source_states)  # (B, S*, H)

        if "dot" in self.score_function:
            score = Dot(axes=[2, 2])([source_states, target_state])      # (B, S*, 1)
            if self.score_function == "scaled_dot":
                score *= 1 / np.sqrt(float(source_states.shape[2]))      # (B, S*, 1)
        elif self.score_function == "general":
            score = Dot(axes=[2, 2])([self.W_a(source_states), target_state])  # (B, S*, 1)
        else:
            summed = self.W_a(source_states) + self.U_a(target_state)    # (B, S*, H)
            score = self.v_a(Activation("tanh")(summed))                 # (B, S*, 1)

        weights = Activation("softmax")(score)                           # (B, S*, 1)  # expect: ATT001
        context_vector = source_states * weights                         # (B, S*, H)
        if self.model_api == "functional":
            return context_vector, weights
        return context_vector


class SelfAttention(Layer):
    """Structured self-attention (Lin et al., 2017): num_hops weightings of the sequence."""

    def __init__(self, size, num_hops=8, model_api="functional", **kwargs):
        self.size = size
        self.num_hops = num_hops
        self.model_api = model_api
        super(SelfAttention, self).__init__(**kwargs)

    def build(self, input_shape):
        self.W1 = self.add_weight(name="W1", shape=(self.size, input_shape[2]), initializer="glorot_uniform")
        self.W2 = self.add_weight(name="W2", shape=(self.num_hops, self.size), initializer="glorot_uniform")
        super(SelfAttention, self).build(input_shape)

    def call(self, inputs):                                              # (B, S, H)
        W1, W2 = self.W1[None, :, :], self.W2[None, :, :]
        states_t = Permute(dims=(2, 1))(inputs)                          # (B, H, S)
        score = Activation("tanh")(tf.matmul(W1, states_t))              # (B, size, S)
        weights = Activation("softmax")(tf.matmul(W2, score))            # (B, num_hops, S)
        embedded = Flatten()(tf.matmul(weights, inputs))                 # (B, num_hops * H)
        if self.model_api == "functional":
            return embedded, weights
        return embedded
