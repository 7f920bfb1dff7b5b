# case: t19l-06-clean
# modelled-on: saif-mahmud/self-attention-HAR https://github.com/saif-mahmud/self-attention-HAR/commit/a928840b63241ec1743b6a9419f88ab85f0f11d0
# label: correct
# class: clean
# pattern: a Keras human-activity-recognition model over (batch, timesteps, sensors) windows: a sensor-attention layer expands the input to (batch, T, S, 1), runs dilated Conv2D and a 1x1 Conv2D to one score per (time, sensor) and applies tf.keras.activations.softmax over axis=2, then multiplies the input by the reshaped weights; the model scales the Conv1D embedding by sqrt(d_model) before the positional encoding and stacks encoder layers whose attention (another module) uses tf.matmul(q, k, transpose_b=True), divides by sqrt of the key depth and adds mask * -1e9 when a mask is given
# why: correct: the sensor attention distributes weight over the sensor channels at each timestep (axis 2 of (B, T, S, 1)), which is its purpose, not over the trailing length-1 axis; the sqrt(d_model) factor scales embeddings, not scores; transpose_b=True transposes the keys' last two axes and the depth is the per-head width after split_heads; no mask is passed in this model
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/saif-mahmud/self-attention-HAR https://github.com/saif-mahmud/self-attention-HAR/commit/a928840b63241ec1743b6a9419f88ab85f0f11d0 model/sensor_attention.py, model/har_model.py, model/self_attention/multi_headed_attention.py
import tensorflow as tf


class SensorAttention(tf.keras.layers.Layer):
    def __init__(self, n_filters, kernel_size, dilation_rate):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(n_filters, kernel_size=kernel_size, dilation_rate=dilation_rate, padding="same", activation="relu")
        self.score = tf.keras.layers.Conv2D(1, kernel_size=1, padding="same")
        self.ln = tf.keras.layers.LayerNormalization()

    def call(self, x):
        x = self.ln(x)
        s = tf.expand_dims(x, axis=3)  # (B, T, S, 1)
        s = self.score(self.conv(s))
        s = tf.keras.activations.softmax(s, axis=2)
        s = tf.keras.layers.Reshape(x.shape[-2:])(s)
        return tf.math.multiply(x, s), s
