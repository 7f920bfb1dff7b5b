import tensorflow as tf
from layers import SelfAttention

tf.keras.mixed_precision.set_global_policy("mixed_float16")

inp = tf.keras.Input((128, 256))
mask = tf.keras.Input((128,))
out = SelfAttention(256, 4)(inp, mask)
model = tf.keras.Model([inp, mask], out)
