import tensorflow as tf

from .attention import BahdanauAttention
from .hparams import config, h_params


class Decoder(tf.keras.Model):
    def __init__(self, start_token):
        super(Decoder, self).__init__()
        self.start_token = start_token
        self.embedding = tf.keras.layers.Embedding(config.vocab_size, h_params.embedding_dim)
        self.cell = tf.keras.layers.GRU(
            h_params.decoder_rnn_dim, return_sequences=True, return_state=True, recurrent_initializer="glorot_uniform"
        )
        self.attention = BahdanauAttention(h_params.decoder_rnn_dim)
        self.out_projection = tf.keras.layers.Dense(h_params.decoder_rnn_dim, activation="tanh", use_bias=False)
        self.projection = tf.keras.layers.Dense(config.vocab_size, use_bias=False)

    def step(self, features, formula, hidden_state, last_out_state):
        x = self.embedding(formula)  # (batch, 1, emb_dim)
        if last_out_state is None:
            last_out_state = tf.zeros(shape=[tf.shape(x)[0], tf.shape(x)[1], h_params.decoder_rnn_dim])

        inp = tf.concat([x, last_out_state], axis=-1)  # (batch, 1, rnn_dim + emb_dim)
        cell_output, state = self.cell(inp, initial_state=hidden_state)  # state: (batch, rnn_dim)

        context_vector = self._compute_context_vector(features, state)  # (batch, features_dim)

        out_feed = tf.expand_dims(tf.concat([state, context_vector], axis=-1), axis=1)
        out_state = self.out_projection(out_feed)
        output = self.projection(out_state)  # (batch, 1, vocab_size)
        return output, state, out_state

    def _compute_context_vector(self, features, hidden):
        # features shape = (batch_size, n_locations, dim)
        if not h_params.use_attention:
            if h_params.flatten_image_features:
                shape = features.get_shape().as_list()
                return tf.reshape(features, [-1, shape[1] * shape[2]])
            return tf.reduce_mean(features, axis=1)
        context_vector, attention_weights = self.attention(features, hidden)
        return context_vector
