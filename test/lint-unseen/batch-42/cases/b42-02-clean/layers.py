import tensorflow as tf


class SourceReader(tf.keras.layers.Layer):
    """Embeds source ids (0 = padding) and reads them with a bidirectional LSTM."""

    def __init__(self, vocab, units):
        super().__init__()
        self.lookup = tf.keras.layers.Embedding(vocab, units, mask_zero=True)
        self.birnn = tf.keras.layers.Bidirectional(
            tf.keras.layers.LSTM(units, return_sequences=True),
            merge_mode="sum",
        )

    def call(self, src_ids):
        return self.birnn(self.lookup(src_ids))


class AttendSource(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.attend = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=units)
        self.merge = tf.keras.layers.Add()
        self.norm = tf.keras.layers.LayerNormalization()

    def call(self, memory, states):
        looked_up = self.attend(query=states, value=memory)
        return self.norm(self.merge([states, looked_up]))


class TargetWriter(tf.keras.layers.Layer):
    def __init__(self, vocab, units):
        super().__init__()
        self.lookup = tf.keras.layers.Embedding(vocab, units, mask_zero=True)
        self.pre_rnn = tf.keras.layers.LSTM(units, return_sequences=True, return_state=True)
        self.cross = AttendSource(units)
        self.post_rnn = tf.keras.layers.LSTM(units, return_sequences=True)
        self.to_vocab = tf.keras.layers.Dense(vocab, activation=tf.nn.log_softmax)

    def call(self, memory, tgt_ids, state=None, with_state=False):
        h = self.lookup(tgt_ids)
        h, last_h, last_c = self.pre_rnn(h, initial_state=state)
        h = self.cross(memory, h)
        log_probs = self.to_vocab(self.post_rnn(h))
        if with_state:
            return log_probs, [last_h, last_c]
        return log_probs
