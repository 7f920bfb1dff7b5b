# case: mask-coursera-keras-mha-pad-keep-ones
# modelled-on: amanchadha/coursera-deep-learning-specialization https://github.com/amanchadha/coursera-deep-learning-specialization/commit/fe1d335633b425dcda04c5f4f132cf90956dd02a
# label: correct
# class: fixed
# pattern: course transformer built on tf.keras.layers.MultiHeadAttention; the padding mask comes from a helper in another module (1.0 for real tokens) and reaches the layer through the model, the encoder and the positional attention_mask argument
# why: the later version of the assignment: the helper returns 1 - equal(seq, 0), a keep mask, which is what Keras MultiHeadAttention expects (1 = attend), so padding keys are masked
# looks-like: ATT002
# source: https://github.com/amanchadha/coursera-deep-learning-specialization https://github.com/amanchadha/coursera-deep-learning-specialization/commit/fe1d335633b425dcda04c5f4f132cf90956dd02a C5 - Sequence Models/Week 4/C5_W4_A1_Transformer_Subclass_v1.py
import tensorflow as tf
from tensorflow.keras.layers import Dense, Dropout, Embedding, LayerNormalization, MultiHeadAttention

from masks import create_padding_mask


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, embedding_dim, num_heads, fully_connected_dim, dropout_rate=0.1, layernorm_eps=1e-6):
        super().__init__()
        self.mha = MultiHeadAttention(num_heads=num_heads, key_dim=embedding_dim)
        self.ffn = tf.keras.Sequential([Dense(fully_connected_dim, activation="relu"), Dense(embedding_dim)])
        self.layernorm1 = LayerNormalization(epsilon=layernorm_eps)
        self.layernorm2 = LayerNormalization(epsilon=layernorm_eps)
        self.dropout1 = Dropout(dropout_rate)
        self.dropout2 = Dropout(dropout_rate)

    def call(self, x, training, mask):
        """
        x -- (batch_size, input_seq_len, embedding_dim)
        mask -- Boolean mask to ensure that the padding is not treated as part of the input
        """
        self_attn_output = self.mha(x, x, x, mask)
        self_attn_output = self.dropout1(self_attn_output, training=training)
        mult_attn_out = self.layernorm1(x + self_attn_output)
        ffn_output = self.dropout2(self.ffn(mult_attn_out), training=training)
        return self.layernorm2(ffn_output + mult_attn_out)  # (batch_size, input_seq_len, embedding_dim)


class Encoder(tf.keras.layers.Layer):
    def __init__(self, num_layers, embedding_dim, num_heads, fully_connected_dim, vocab_size, dropout_rate=0.1):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.embedding = Embedding(vocab_size, embedding_dim)
        self.enc_layers = [EncoderLayer(embedding_dim, num_heads, fully_connected_dim, dropout_rate) for _ in range(num_layers)]
        self.dropout = Dropout(dropout_rate)

    def call(self, x, training, mask):
        x = self.embedding(x) * tf.math.sqrt(tf.cast(self.embedding_dim, tf.float32))
        x = self.dropout(x, training=training)
        for layer in self.enc_layers:
            x = layer(x, training, mask)
        return x


class SentenceClassifier(tf.keras.Model):
    def __init__(self, num_layers, embedding_dim, num_heads, fully_connected_dim, vocab_size, num_classes):
        super().__init__()
        self.encoder = Encoder(num_layers, embedding_dim, num_heads, fully_connected_dim, vocab_size)
        self.head = Dense(num_classes)

    def call(self, input_sentence, training=False):
        enc_padding_mask = create_padding_mask(input_sentence)  # (batch, 1, seq_len)
        enc_output = self.encoder(input_sentence, training, enc_padding_mask)
        return self.head(tf.reduce_mean(enc_output, axis=1))
