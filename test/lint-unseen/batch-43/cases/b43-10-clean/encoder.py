import tensorflow as tf

from anomaly_attention import ProjectedAttention, WindowAnomalyAttention


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, attention, d_model, d_ff=None, dropout=0.1):
        super().__init__()
        d_ff = d_ff or 4 * d_model
        self.attention = attention
        self.conv1 = tf.keras.layers.Conv1D(d_ff, 1)
        self.conv2 = tf.keras.layers.Conv1D(d_model, 1)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop = tf.keras.layers.Dropout(dropout)

    def call(self, x):
        new_x, series, prior, sigma = self.attention(x)
        x = self.norm1(x + self.drop(new_x))
        y = self.drop(tf.nn.gelu(self.conv1(x)))
        y = self.drop(self.conv2(y))
        return self.norm2(x + y), series, prior, sigma


def build_encoder(win_size, d_model=512, n_heads=8, e_layers=3, d_ff=512, dropout=0.0):
    return [
        EncoderLayer(
            ProjectedAttention(
                WindowAnomalyAttention(win_size, attention_dropout=dropout, output_attention=True),
                d_model,
                n_heads,
            ),
            d_model,
            d_ff,
            dropout=dropout,
        )
        for _ in range(e_layers)
    ]
