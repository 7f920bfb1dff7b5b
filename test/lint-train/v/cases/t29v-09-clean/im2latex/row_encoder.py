import tensorflow as tf

from .hparams import h_params


class RowEncoder(tf.keras.Model):
    """Runs a bidirectional GRU over each row of the CNN feature map."""

    def __init__(self):
        super(RowEncoder, self).__init__()
        self.units = h_params.row_encoder_rnn_dim
        self.rnn_layer = tf.keras.layers.Bidirectional(
            tf.keras.layers.GRU(units=self.units, return_sequences=True, return_state=True),
            name="bi_gru",
        )

    def call(self, encoded_images, **kwargs):
        # encoded_images: (batch, n_rows, n_cols, n_channels)
        shape = encoded_images.get_shape().as_list()
        n_rows, n_cols, n_channels = shape[1:4]
        image_rows = tf.reshape(encoded_images, shape=[-1, n_cols, n_channels])  # one row per sequence

        final_channels = 2 * self.units
        rnn_out = self.rnn_layer(image_rows)
        out, state = rnn_out[0], tf.concat(rnn_out[1:], axis=-1)
        state = tf.reshape(state, shape=[tf.shape(encoded_images)[0], -1, final_channels])
        state = tf.reduce_mean(state, axis=1)  # (batch, 2 * units): the decoder's first state

        out = tf.reshape(out, shape=[-1, n_rows * n_cols, final_channels])  # (batch, n_locations, 2 * units)
        return out, state
